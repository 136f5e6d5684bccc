// Compare mode (views/widgets/compare.py): a step of two walks, A and B, side by side. Each side is a column under its
// own heading; above them, the numbers that changed for the focused word (the contrast: spread, largest weight,
// entropy, weight moved, distance), read from the payload for the view's head and word. contrastValue and
// contrastWords are pure (tests/js/contrast.test.js).

import { element, fill } from "../common.js";
import { cellText } from "../numbers.js";

/** @typedef {import("./payload.js").Place} Place */
/** @typedef {import("./payload.js").ContrastBlock} ContrastBlock */
/** @typedef {import("./payload.js").ContrastRow} ContrastRow */
/** @typedef {import("./payload.js").Step} Step */
/** @typedef {import("./steps.js").Steps} Steps */

/**
 * The number a (heads, words) place holds for ``head`` and ``focus`` (counted from 1), each kept within the place: a
 * side with fewer heads or words shows its last. ``rows``: the side's row of each of A's words (a real model's word
 * pieces against a sentence's words; -1, none: NaN).
 * @param {Float64Array} values
 * @param {Place} place
 * @param {number} head
 * @param {number} focus
 * @param {number[]} [rows]
 * @returns {number}
 */
export function contrastValue(values, place, head, focus, rows) {
  const [heads, words] = place.shape;
  const h = Math.min(Math.max(head, 1), heads) - 1;
  const w = rows ? (rows[focus - 1] ?? -1) : Math.min(Math.max(focus, 1), words) - 1;
  return w < 0 ? Number.NaN : values[place.offset + h * words + w];
}

/**
 * A row's numbers as the table shows them: A's and B's (B's at ``rows``, its row of A's word), or the one number
 * between them; a word B does not have: a dash.
 * @param {Float64Array} values
 * @param {ContrastRow} row
 * @param {number} head
 * @param {number} focus
 * @param {number[]} [rows]
 * @returns {string[]}
 */
export function contrastCells(values, row, head, focus, rows) {
  /** @param {Place} place @param {number[]} [map] */
  const text = (place, map) => {
    const x = contrastValue(values, place, head, focus, map);
    return Number.isNaN(x) ? "\u2014" : cellText(x, row.decimals);
  };
  if (row.both) return [text(row.both, undefined)];
  return row.a && row.b ? [text(row.a, undefined), text(row.b, rows)] : [];
}

/**
 * What the live region says of a step's contrast: "Its largest weight: A 0.41, B 0.99; ..." ("" for a step without).
 * @param {Step} step
 * @param {Float64Array} values
 * @param {Record<string, string>} texts
 * @param {number} head
 * @param {number} focus
 * @returns {string}
 */
export function contrastWords(step, values, texts, head, focus) {
  const block = /** @type {ContrastBlock | undefined} */ (step.blocks.find((b) => b.type === "contrast"));
  if (!block) return "";
  return block.rows
    .map((row) => {
      const cells = contrastCells(values, row, head, focus, block.b_rows);
      return cells.length === 1
        ? fill(texts.compare_between, { measure: row.label, value: cells[0] })
        : fill(texts.compare_said, { measure: row.label, a: cells[0], b: cells[1] });
    })
    .join("; ");
}

/**
 * The contrast as a table: a row per number, A's and B's columns (a number between them spans both); its caption
 * names the focused word, which a list beside it chooses.
 * @param {Steps} steps
 * @param {ContrastBlock} block
 * @returns {HTMLElement}
 */
export function contrastTable(steps, block) {
  const { view, values, texts } = steps;
  const word = block.tokens[Math.min(view.focus, block.tokens.length) - 1] || "";
  const head = element(
    "tr",
    {},
    element("th", { scope: "col", text: texts.compare_measure }),
    ...block.columns.map((label) => element("th", { scope: "col", text: label })),
  );
  const rows = block.rows.map((row) => {
    const cells = contrastCells(values, row, view.head, view.focus, block.b_rows);
    const tds =
      cells.length === 1
        ? [element("td", { colspan: 2, class: "between", text: cells[0] })]
        : cells.map((text) => element("td", { text }));
    return element("tr", {}, element("th", { scope: "row", text: row.label }), ...tds);
  });
  const table = element(
    "table",
    { class: "plain small contrast" },
    element("caption", { text: fill(block.caption, { word: `${view.focus} \u00b7 ${word}` }) }),
    element("thead", {}, head),
    element("tbody", {}, ...rows),
  );
  return element("div", { class: "contrast-box" }, wordList(steps, block), table);
}

/**
 * The focused word's list (its choice redraws every step and is kept in the link, as the focus tables' list does).
 * @param {Steps} steps
 * @param {ContrastBlock} block
 * @returns {HTMLElement}
 */
function wordList(steps, block) {
  const select = /** @type {HTMLSelectElement} */ (
    element(
      "select",
      { class: "word", "aria-label": steps.texts.compare_word },
      ...block.tokens.map((token, i) => element("option", { value: i + 1 }, `${i + 1} \u00b7 ${token}`)),
    )
  );
  select.value = String(steps.view.focus);
  select.addEventListener("change", () => {
    steps.set({ focus: Number(select.value) });
    /** @type {HTMLSelectElement | null | undefined} */ (steps.main?.querySelector("select.word"))?.focus(); // drawn anew
  });
  return element("label", { class: "word-choice" }, element("span", { text: steps.texts.compare_word }), select);
}

/**
 * A side's heading with the head it shows, where it has several: "B · 4 heads · Head 2 of 4" (a side with fewer heads
 * than the view's head shows its last).
 * @param {string} label
 * @param {import("./payload.js").Block[]} blocks the side's blocks
 * @param {number} head the view's head
 * @param {string} headOf "Head {head} of {heads}"
 * @returns {string}
 */
export function sideLabel(label, blocks, head, headOf) {
  const shown = blocks.find((block) => block.type === "matrix" && block.per_head && block.heads);
  const heads = shown?.type === "matrix" ? shown.heads || 1 : 1;
  return heads > 1 && headOf ? `${label} \u00b7 ${fill(headOf, { head: Math.min(head, heads), heads })}` : label;
}

/**
 * One side of a compare step: its heading (A's or B's settings), its formula where the sides differ, its blocks.
 * @param {string} label
 * @param {string | undefined} formula MathML
 * @param {HTMLElement[]} blocks
 * @returns {HTMLElement}
 */
export function sideColumn(label, formula, blocks) {
  return element(
    "div",
    { class: "side" },
    element("h3", { class: "side-title", text: label }),
    formula ? element("div", { class: "formula", html: formula }) : null,
    ...blocks,
  );
}
