// Compare mode's contrast (assets/components/steps/contrast.js): the focused word's numbers read from (heads, words)
// places, a side with fewer heads or words showing its last, and what the live region says of them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { contrastCells, contrastValue, contrastWords, sideLabel } from "../../assets/components/steps/contrast.js";
import { matrixIdOf } from "../../assets/components/steps/payload.js";

// A: one head over three words; B: two heads over three words; between them: two heads.
const VALUES = new Float64Array([0.41, 0.5, 0.6, 0.99, 0.8, 0.7, 0.1, 0.2, 0.3, 0.05, 0.25, 0.125, 1.5, 2.5]);
const A = { offset: 0, shape: [1, 3] };
const B = { offset: 3, shape: [2, 3] };
const BETWEEN = { offset: 9, shape: [2, 3] };
const LARGEST = { label: "Its largest weight", decimals: 2, a: A, b: B };
const MOVED = { label: "Weight moved", decimals: 3, both: BETWEEN };
const TEXTS = { compare_said: "{measure}: A {a}, B {b}", compare_between: "{measure}: {value}" };

test("a place's number for a head and a word, kept within the side's heads and words", () => {
  assert.equal(contrastValue(VALUES, A, 1, 1), 0.41);
  assert.equal(contrastValue(VALUES, A, 2, 3), 0.6); // A has one head: its own, for head 2
  assert.equal(contrastValue(VALUES, B, 2, 1), 0.1);
  assert.equal(contrastValue(VALUES, B, 2, 9), 0.3); // the last word
  assert.equal(contrastValue(VALUES, B, 0, 0), 0.99); // below 1: the first
});

test("B's row of A's word: a real model's word pieces paired with the sentence's words, a dash where none", () => {
  assert.equal(contrastValue(VALUES, B, 1, 1, [2, -1, 0]), 0.7); // A's word 1 is B's row 3
  assert.ok(Number.isNaN(contrastValue(VALUES, B, 1, 2, [2, -1, 0])));
  assert.deepEqual(contrastCells(VALUES, LARGEST, 1, 2, [2, -1, 0]), ["0.50", "\u2014"]);
});

test("a row's cells: A's and B's, or the one number between them, with the row's decimals", () => {
  assert.deepEqual(contrastCells(VALUES, LARGEST, 2, 2), ["0.50", "0.20"]);
  assert.deepEqual(contrastCells(VALUES, MOVED, 1, 3), ["0.125"]);
  assert.deepEqual(contrastCells(VALUES, { label: "none", decimals: 2 }, 1, 1), []);
});

test("the live region says every row of a step's contrast, and nothing for a step without one", () => {
  const step = {
    id: "softmax",
    title: "Softmax",
    badge: "",
    body: "",
    blocks: [{ type: "contrast", caption: "", columns: ["A", "B"], rows: [LARGEST, MOVED], tokens: ["a", "b", "c"] }],
  };
  assert.equal(contrastWords(step, VALUES, TEXTS, 1, 1), "Its largest weight: A 0.41, B 0.99; Weight moved: 0.050");
  assert.equal(contrastWords({ ...step, blocks: [] }, VALUES, TEXTS, 1, 1), "");
});

test("a block's matrix for a head: its own id, per head the side's last where it has fewer", () => {
  assert.equal(matrixIdOf({ matrix: "raw", per_head: true }, 3), "raw.3");
  assert.equal(matrixIdOf({ matrix: "b-raw", per_head: true, heads: 1 }, 3), "b-raw.1");
  assert.equal(matrixIdOf({ matrix: "tokens-x", per_head: false }, 3), "tokens-x");
});

test("a side's heading names the head it shows where it has several, its last where the view's is beyond it", () => {
  const ofHeads = (heads) => [
    { type: "note", tone: "plain", html: "" },
    { type: "matrix", matrix: "b-weights", per_head: true, hide: false, heads },
  ];
  assert.equal(sideLabel("B · 4 heads", ofHeads(4), 2, "Head {head} of {heads}"), "B · 4 heads · Head 2 of 4");
  assert.equal(sideLabel("B · 2 heads", ofHeads(2), 4, "Head {head} of {heads}"), "B · 2 heads · Head 2 of 2");
  assert.equal(sideLabel("A · 1 head", ofHeads(1), 3, "Head {head} of {heads}"), "A · 1 head");
  assert.equal(sideLabel("A", [{ type: "note", tone: "plain", html: "" }], 1, "Head {head} of {heads}"), "A");
});
