// "Copy as LaTeX" (assets/components/steps/latex.js): a matrix as LaTeX, its numbers as the table prints them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cellText } from "../../assets/components/numbers.js";
import { latexLabel, latexNumber, latexText } from "../../assets/components/steps/latex.js";
import { rawScores } from "./fixtures.js";

const MATRIX = rawScores(0);

test("a number as the table prints it, with an ASCII minus; a masked score is -\\infty, a missing one empty", () => {
  assert.equal(latexNumber(1.005, 2), cellText(1.005, 2));
  assert.equal(latexNumber(0.125, 2), "0.12"); // half to even, as the server rounds
  assert.equal(latexNumber(-0.25, 2), "-0.25");
  assert.equal(latexNumber(-0.001, 2), "0.00"); // no minus on a zero, as in the table
  assert.equal(latexNumber(3, 0), "3");
  assert.equal(latexNumber(Number.NEGATIVE_INFINITY, 2), "-\\infty");
  assert.equal(latexNumber(Number.POSITIVE_INFINITY, 2), "\\infty");
  assert.equal(latexNumber(Number.NaN, 2), "");
  for (const x of [-1.5, 2.675, -0.0049, 123.456])
    assert.equal(latexNumber(x, 3), cellText(x, 3).replace("\u2212", "-"));
});

test("a label is text, every character LaTeX reserves escaped", () => {
  assert.equal(latexLabel("cat"), "\\text{cat}");
  assert.equal(latexLabel("猫"), "\\text{猫}");
  assert.equal(
    latexLabel("a_b & {c} #1 50% $x ^~\\"),
    "\\text{a\\_b \\& \\{c\\} \\#1 50\\% \\$x \\textasciicircum{}\\textasciitilde{}\\textbackslash{}}",
  );
});

test("a matrix with its labels is an array: the column labels above a rule, each row's label first", () => {
  const numbers = [1.5, -0.25, 0.125, 2, Number.NEGATIVE_INFINITY, -1];
  assert.equal(
    latexText(MATRIX, numbers),
    [
      "\\begin{array}{r|rrr}",
      " & \\text{the} & \\text{cat} & \\text{sat} \\\\",
      "\\hline",
      "\\text{the} & 1.50 & -0.25 & 0.12 \\\\",
      "\\text{cat} & 2.00 & -\\infty & -1.00",
      "\\end{array}",
    ].join("\n"),
  );
});

test("without labels, a bmatrix of the numbers alone", () => {
  assert.equal(
    latexText(MATRIX, [1, 2, 3, 4, 5, 6], false),
    "\\begin{bmatrix}\n1.00 & 2.00 & 3.00 \\\\\n4.00 & 5.00 & 6.00\n\\end{bmatrix}",
  );
});

test("heads side by side: a rule between each head's columns", () => {
  const heads = { ...MATRIX, shape: [1, 4], columns: ["1", "2", "1", "2"], rows: ["x"], groups: 2, decimals: 1 };
  const text = latexText(heads, [0.04, 0.05, 0.15, -0.04]);
  assert.ok(text.startsWith("\\begin{array}{r|rr|rr}\n & \\text{1} & \\text{2} & \\text{1} & \\text{2} \\\\\n"), text);
  assert.ok(text.includes("\\text{x} & 0.0 & 0.0 & 0.2 & 0.0\n"), text); // 0.05 → 0.0 and 0.15 → 0.2 (float64), -0.04 → 0.0
});
