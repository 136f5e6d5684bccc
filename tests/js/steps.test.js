// The step component's pure parts (assets/components/steps/), run by Node's own test runner: make test.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sidewaysName } from "../../assets/components/common.js";
import { shareOf } from "../../assets/components/steps/blocks.js";
import { cellAfter } from "../../assets/components/steps/cells.js";
import { csvNumber, csvText, matrixIds } from "../../assets/components/steps/export.js";
import { rowCapFor, stepForms } from "../../assets/components/steps/fit.js";
import {
  headerLabels,
  labelStride,
  legendTicks,
  matrixSizes,
  tableHtml,
} from "../../assets/components/steps/matrix.js";
import { decode, rowAt, valuesAt } from "../../assets/components/steps/payload.js";
import { largest, verdict } from "../../assets/components/steps/predict.js";
import { clampView, linkValues, linkWith, openingView, within } from "../../assets/components/steps/view.js";
import { rawScores } from "./fixtures.js";

/** A payload as views/widgets/steps.py writes it: magic, length, header, padding, float64 values. */
function payload(header, numbers) {
  const text = new TextEncoder().encode(JSON.stringify(header));
  const padding = (8 - ((8 + text.length) % 8)) % 8;
  const bytes = new Uint8Array(8 + text.length + padding + numbers.length * 8);
  bytes.set([65, 84, 84, 49]); // ATT1
  new DataView(bytes.buffer).setUint32(4, text.length + padding, true);
  bytes.set(text, 8);
  bytes.fill(32, 8 + text.length, 8 + text.length + padding);
  new Float64Array(bytes.buffer, 8 + text.length + padding).set(numbers);
  return bytes;
}

const MATRIX = rawScores(2);

const HEADER = {
  page: "walkthrough",
  steps: [{ id: "a" }, { id: "b" }, { id: "c" }],
  heads: 2,
  tokens: ["the", "cat"],
  token: "n.1",
  variant: "random",
  view: { step: 2, head: 1, focus: 2, values: true },
  url: { step: "step", head: "head", focus: "focus", values: "values", all: "all", predict: "predict" },
  matrices: { "raw.1": MATRIX },
};

test("a payload's header and numbers come back exactly, each matrix at its offset", () => {
  const numbers = [9, 9, 1.5, -0.25, 0.125, 2, -2, Number.NEGATIVE_INFINITY];
  const { header, values } = decode(payload(HEADER, numbers));
  assert.deepEqual(header, HEADER);
  assert.deepEqual([...valuesAt(values, MATRIX)], numbers.slice(2));
  assert.deepEqual([...rowAt(values, MATRIX, 1)], [2, -2, Number.NEGATIVE_INFINITY]);
  assert.throws(() => decode(new Uint8Array(16)), /not a step payload/);
});

test("a view is clamped to what the payload offers", () => {
  assert.equal(within("7", 3), 3);
  assert.equal(within("x", 3), 1);
  assert.equal(within(-4, 3), 1);
  assert.equal(within(2.9, 3), 2);
  const view = clampView({ step: 9, head: 0, focus: "2", values: 1, all: undefined }, HEADER);
  assert.deepEqual(view, { step: 3, head: 1, focus: 2, values: true, all: false, predict: false, hands: false });
});

test("a payload opens on the kept view while the token is the same, else on the server's", () => {
  const kept = { token: "n.1", variant: "random", view: { step: 3, head: 2, focus: 1, hands: true } };
  // the kept view wins where it says something; the server's view fills the rest; the hands-on editor starts closed
  assert.deepEqual(openingView(HEADER, kept), {
    step: 3,
    head: 2,
    focus: 1,
    values: true,
    all: false,
    predict: false,
    hands: false,
  });
  assert.equal(openingView(HEADER, { ...kept, token: "n.2" }).step, 2); // a link opened: the server's view
  assert.equal(openingView(HEADER, null).step, 2);
  // another walk while the page is open opens at its own first step
  const textbook = { ...HEADER, variant: "textbook", enter: { step: 3 } };
  assert.equal(openingView(textbook, { ...kept, view: { step: 1 } }).step, 3);
  assert.equal(openingView(textbook, { ...kept, variant: "textbook", view: { step: 1 } }).step, 1);
});

test("the link holds the view's values, the head only where there are several", () => {
  const view = { step: 3, head: 2, focus: 1, values: true, all: false, predict: false, hands: false };
  assert.deepEqual(linkValues(view, HEADER), { step: "3", head: "2", focus: "1", values: "1", all: "0", predict: "0" });
  assert.equal("head" in linkValues(view, { ...HEADER, heads: 1 }), false);
  const named = { ...HEADER, url: { step: "at" }, url_values: { step: ["0", "50", "100"] } };
  assert.deepEqual(linkValues(view, named), { at: "100" });
  assert.equal(linkWith("http://x/?a=1&step=3", { step: "3" }, 2), null);
  assert.equal(linkWith("http://x/?a=1&step=2&head=2", { step: "3" }, 1), "http://x/?a=1&step=3");
});

test("a matrix's sizes: numbers never under the readable least, none where they do not fit", () => {
  const measure = (text, px) => text.length * px * 0.55;
  const texts = ["1.50", "\u22120.25", "0.13", "2.00", "\u22122.00", "\u2212\u221e"];
  const wide = matrixSizes(
    MATRIX,
    texts,
    { width: 700, projector: false, font: 14, rowCap: 0, numbers: true },
    measure,
  );
  assert.equal(wide.height, 30);
  assert.ok(wide.numberFont >= 12 && wide.numberFont <= 14);
  const narrow = matrixSizes(
    MATRIX,
    texts,
    { width: 140, projector: false, font: 14, rowCap: 0, numbers: true },
    measure,
  );
  assert.equal(narrow.numberFont, 0);
  const off = matrixSizes(
    MATRIX,
    texts,
    { width: 700, projector: false, font: 14, rowCap: 0, numbers: false },
    measure,
  );
  assert.equal(off.numberFont, 0);
  const projector = matrixSizes(
    MATRIX,
    texts,
    { width: 700, projector: true, font: 17, rowCap: 20, numbers: true },
    measure,
  );
  // rows fitted to the projector: down to the row cap, never under a 16 px label's line
  assert.equal(projector.labelFont, 16);
  assert.equal(projector.height, Math.ceil(16 * 1.15) + 2);
  assert.ok(projector.numberFont === 0 || projector.numberFont >= 16);
});

test("column labels: across where they fit, upright or every k-th where they do not", () => {
  const measure = (text, px) => text.length * px * 0.5;
  assert.deepEqual(labelStride(["a", "b"], 40, 12, measure), { stride: 1, vertical: false });
  assert.deepEqual(labelStride(["a long word", "b"], 20, 12, measure), { stride: 1, vertical: true });
  const numbered = Array.from({ length: 40 }, (_, i) => String(i + 1));
  assert.deepEqual(labelStride(numbered, 5, 12, measure), { stride: 5, vertical: false });
  assert.deepEqual(labelStride(["word", "word"], 6, 12, measure), { stride: 3, vertical: true });
});

test("a word that comes twice is headed with its position, each time; the others as they are", () => {
  assert.deepEqual(headerLabels(["the", "cat", "sat", "on", "the", "mat"]), [
    "1\u00b7the",
    "cat",
    "sat",
    "on",
    "5\u00b7the",
    "mat",
  ]);
  assert.deepEqual(headerLabels(["a", "b", "a", "b", "a"]), [
    "1\u00b7a",
    "2\u00b7b",
    "3\u00b7a",
    "4\u00b7b",
    "5\u00b7a",
  ]);
  assert.deepEqual(headerLabels(["1", "2", "3"]), ["1", "2", "3"]); // dimensions never repeat
  assert.deepEqual(headerLabels(["The", "the"]), ["The", "the"]); // another spelling is another word
  assert.deepEqual(headerLabels([]), []);
});

test("the legend's ticks: 0 in the middle of a signed scale, never for weights or two rows", () => {
  assert.deepEqual(legendTicks({ ...MATRIX, rows: ["a", "b", "c"] }), ["2.00", "0.00", "\u22122.00"]);
  assert.deepEqual(legendTicks(MATRIX), ["2.00", "\u22122.00"]);
  assert.deepEqual(legendTicks({ ...MATRIX, kind: "weights", range: [0, 1], rows: ["a", "b", "c"] }), ["1.00", "0.00"]);
  assert.deepEqual(legendTicks({ ...MATRIX, range: [-250, 250] }), ["250", "\u2212250"]);
});

test("a table's HTML: every label escaped, an empty corner cell, one Tab stop, masked cells marked", () => {
  const matrix = { ...MATRIX, rows: ["<b>", "cat"], columns: ["a&b", '"q"', "sat"] };
  const values = [1, -1, 0, 2, -2, Number.NEGATIVE_INFINITY];
  const texts = values.map(String);
  const html = tableHtml(
    matrix,
    values,
    texts,
    [
      [0, "#000000"],
      [1, "#ffffff"],
    ],
    { stride: 1, vertical: false },
    true,
  );
  assert.ok(html.startsWith('<thead><tr><td class="corner"></td>'), "the corner is a cell a screen reader counts");
  assert.ok(!html.includes("aria-hidden"));
  assert.ok(html.includes("&lt;b&gt;") && html.includes("a&amp;b") && html.includes("&quot;q&quot;"));
  assert.ok(!html.includes("<b>"));
  assert.equal(html.match(/tabindex="0"/g).length, 1);
  assert.equal(html.match(/data-i=/g).length, 6);
  assert.ok(html.includes('class="masked"'));
  const hidden = tableHtml(
    matrix,
    values,
    texts,
    [
      [0, "#000000"],
      [1, "#ffffff"],
    ],
    { stride: 2, vertical: true },
    false,
  );
  assert.equal(hidden.match(/<span class="sr-only">/g).length, 6 + 1); // the numbers, and every other column's label
});

test("a row's blocks share its width, or take it all on a narrow screen", () => {
  assert.equal(shareOf(1000, 2), 492);
  assert.equal(shareOf(600, 2), 600);
});

test("the arrow keys walk a matrix's cells and stop at its edges", () => {
  assert.deepEqual(cellAfter("ArrowRight", 0, 0, 2, 3), [0, 1]);
  assert.deepEqual(cellAfter("ArrowLeft", 0, 0, 2, 3), [0, 0]);
  assert.deepEqual(cellAfter("ArrowDown", 1, 2, 2, 3), [1, 2]);
  assert.deepEqual(cellAfter("End", 1, 0, 2, 3), [1, 2]);
  assert.deepEqual(cellAfter("Home", 1, 2, 2, 3), [1, 0]);
  assert.equal(cellAfter("a", 0, 0, 2, 3), null);
});

test("the CSV holds each matrix with its title, labels and every digit", () => {
  const header = { ...HEADER, matrices: { m: { ...MATRIX, offset: 0, columns: ["a,b", 'say "hi"', "c"] } } };
  const text = csvText(
    header,
    new Float64Array([0.1, -2, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-20]),
    ["m"],
    "row",
  );
  assert.equal(text, '# Raw scores\nrow,"1:a,b","2:say ""hi""",3:c\n1:the,0.1,-2,\n2:cat,inf,-inf,1e-20\n');
  assert.equal(csvNumber(Number.NaN), "");
});

test("the matrices a download holds: every head's own, none Predict first hides", () => {
  const steps = [
    { blocks: [{ type: "note" }, { type: "matrix", matrix: "x", per_head: false, hide: false }] },
    {
      blocks: [
        {
          type: "row",
          children: [
            { type: "matrix", matrix: "q", per_head: true, hide: false },
            { type: "matrix", matrix: "raw", per_head: true, hide: true },
          ],
        },
      ],
    },
  ];
  assert.deepEqual(matrixIds(steps, 2, false), ["x", "q.2", "raw.2"]);
  assert.deepEqual(matrixIds(steps, 1, true), ["x", "q.1"]);
});

test("the step list says the step in brief where it is narrow", () => {
  assert.deepEqual(stepForms("Step {number} of {total}: {title}", "Step 5 of 6: Softmax", 5, 6), [
    "Step 5 of 6: Softmax",
    "Step 5 of 6",
    "5 / 6",
  ]);
  assert.deepEqual(stepForms("第 {number} 步，共 {total} 步：{title}", "第 5 步", 5, 6), [
    "第 5 步",
    "第 5 步，共 6 步",
    "5 / 6",
  ]);
  assert.deepEqual(stepForms("{title} ({number}/{total})", "x", 1, 2), ["x", "1 / 2"]);
});

test("a table that scrolls sideways is a region named by its caption: two are told apart", () => {
  const texts = { sideways_name: "Table, scrolls sideways", sideways_named: "{caption}: table, scrolls sideways" };
  assert.equal(
    sidewaysName("Query \u201cthe\u201d against  every key\n", texts),
    "Query \u201cthe\u201d against every key: table, scrolls sideways",
  );
  assert.notEqual(sidewaysName("Raw scores", texts), sidewaysName("Weighted values", texts));
  assert.equal(sidewaysName("", texts), "Table, scrolls sideways"); // no caption: the plain name
  assert.equal(sidewaysName("Their sum is the output.", texts), "Their sum is the output: table, scrolls sideways");
  assert.equal(sidewaysName("{word}", texts), "{word}: table, scrolls sideways"); // a caption is text, never a template
});

test("a projector's rows get shorter by a share of what is over, never under 12 px", () => {
  assert.equal(rowCapFor(60, 6, 40), 30);
  assert.equal(rowCapFor(600, 6, 40), 12);
  assert.equal(rowCapFor(10, 6, 12), 0);
});

test("a guess: the right key within 0.1, the right key off, another key", () => {
  const weights = [0.1, 0.6, 0.3];
  assert.equal(largest(weights), 1);
  assert.equal(largest([0.5, 0.5]), 0);
  assert.equal(verdict(weights, 1, 0.5), "right");
  assert.equal(verdict(weights, 1, 0.7), "right");
  assert.equal(verdict(weights, 1, 0.45), "off_weight");
  assert.equal(verdict(weights, 2, 0.3), "wrong_key");
});
