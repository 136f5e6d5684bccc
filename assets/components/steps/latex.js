// "Copy as LaTeX" (the download menu, export.js): a matrix of the step shown as a LaTeX array with its row and column
// labels (or a bare bmatrix), its numbers exactly as its table prints them (numbers.js cellText, with an ASCII minus), put
// on the clipboard. latexNumber, latexLabel and latexText are pure (tests/js/latex.test.js).

import { element, fill } from "../common.js";
import { cellText, MINUS } from "../numbers.js";
import { valuesAt } from "./payload.js";

/** @typedef {import("./payload.js").Matrix} Matrix */
/** @typedef {import("./steps.js").Steps} Steps */

/** @type {Record<string, string>} a character LaTeX's text mode reserves, written so it prints as itself */
const LATEX_SPECIAL = {
  "\\": "\\textbackslash{}",
  "{": "\\{",
  "}": "\\}",
  $: "\\$",
  "&": "\\&",
  "#": "\\#",
  "%": "\\%",
  _: "\\_",
  "^": "\\textasciicircum{}",
  "~": "\\textasciitilde{}",
};

/**
 * A number as the table prints it (``decimals`` places, rounded as the server rounds), in LaTeX: "-" for the minus
 * sign, \infty for a masked score, nothing for a missing number.
 * @param {number} x
 * @param {number} decimals
 * @returns {string}
 */
export function latexNumber(x, decimals) {
  if (Number.isNaN(x)) return "";
  if (x === Number.POSITIVE_INFINITY) return "\\infty";
  if (x === Number.NEGATIVE_INFINITY) return "-\\infty";
  return cellText(x, decimals).replace(MINUS, "-");
}

/**
 * A row or column label (a token: any text) as LaTeX text inside a formula.
 * @param {string} label
 * @returns {string}
 */
export function latexLabel(label) {
  return `\\text{${label.replace(/[\\{}$&#%_^~]/g, (c) => LATEX_SPECIAL[c])}}`;
}

/**
 * A matrix as LaTeX (amsmath): with ``labels``, an array whose first row holds the column labels and first column the
 * row labels, a rule between heads' groups of columns; without, a bmatrix of the numbers alone.
 * @param {Matrix} matrix
 * @param {ArrayLike<number>} numbers its values, row by row
 * @param {boolean} [labels]
 * @returns {string}
 */
export function latexText(matrix, numbers, labels = true) {
  const [rows, columns] = matrix.shape;
  const lines = Array.from({ length: rows }, (_, i) => {
    const cells = Array.from({ length: columns }, (_, j) => latexNumber(numbers[i * columns + j], matrix.decimals));
    return (labels ? [latexLabel(matrix.rows[i]), ...cells] : cells).join(" & ");
  });
  if (!labels) return `\\begin{bmatrix}\n${lines.join(" \\\\\n")}\n\\end{bmatrix}`;
  const group = columns / (matrix.groups || 1);
  const spec = Array.from({ length: columns }, (_, j) => (j > 0 && matrix.groups > 1 && j % group === 0 ? "|r" : "r"));
  const head = ["", ...matrix.columns.map(latexLabel)].join(" & ");
  return `\\begin{array}{r|${spec.join("")}}\n${head} \\\\\n\\hline\n${lines.join(" \\\\\n")}\n\\end{array}`;
}

/**
 * Put ``text`` on the clipboard: the Clipboard API where the page is secure (https, localhost), else a hidden text box
 * copied (plain http on a school server has no Clipboard API); the focus goes back to ``back``.
 * @param {string} text
 * @param {HTMLElement} back
 * @returns {Promise<boolean>} whether it was copied
 */
async function copyText(text, back) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // refused (no permission, the page not focused): the text box below may still copy
    }
  }
  const area = element("textarea", { readonly: true, style: { position: "fixed", top: "0", left: "-9999px" } });
  area.value = text;
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  back.focus({ preventScroll: true });
  return copied;
}

/**
 * The menu's button for ``id``: copies the matrix as LaTeX, then says what happened in ``note``, moved under the button
 * (seen, also at the foot of a long menu), and in the component's live region (heard).
 * @param {Steps} steps
 * @param {string} id
 * @param {HTMLElement} note
 * @returns {HTMLButtonElement}
 */
export function latexButton(steps, id, note) {
  const { header, texts } = steps;
  const matrix = header.matrices[id];
  const button = element("button", { type: "button" }, fill(texts.latex, { title: matrix.title }));
  button.addEventListener("click", async () => {
    const copied = await copyText(latexText(matrix, valuesAt(steps.values, matrix)), button);
    const words = fill(copied ? texts.latex_copied : texts.latex_failed, { title: matrix.title });
    note.textContent = words;
    note.hidden = false;
    button.after(note);
    steps.say(words);
  });
  return button;
}
