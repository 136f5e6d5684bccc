// A cell's tooltip (which query and key, the number, and for a raw score its arithmetic term by term) and the arrow keys
// that walk a matrix's cells.

import { element } from "../common.js";
import { cellText, dotTerms } from "../numbers.js";
import { rowAt, valuesAt } from "./payload.js";

/** @typedef {import("./payload.js").Matrix} Matrix */
/** @typedef {import("./payload.js").Header} Header */

/** The tooltip's id: a cell it describes names it (aria-describedby). */
export const TIP_ID = "steps-tip";

/**
 * The cell the arrow keys lead to from row ``i``, column ``j`` of a rows × columns matrix (Home, End: the row's ends),
 * or null for another key.
 * @param {string} key
 * @param {number} i
 * @param {number} j
 * @param {number} rows
 * @param {number} columns
 * @returns {[number, number] | null}
 */
export function cellAfter(key, i, j, rows, columns) {
  if (key === "Home") return [i, 0];
  if (key === "End") return [i, columns - 1];
  /** @type {Record<string, [number, number]>} */
  const moves = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
  const move = moves[key];
  if (!move) return null;
  return [Math.min(rows - 1, Math.max(0, i + move[0])), Math.min(columns - 1, Math.max(0, j + move[1]))];
}

/** The tooltip of the step component: one per component, drawn in its box. */
export class Tooltip {
  /**
   * @param {() => {header: Header, values: Float64Array}} numbers the payload now shown
   */
  constructor(numbers) {
    this.numbers = numbers;
    this.node = element("div", { class: "tip", role: "tooltip", id: TIP_ID, hidden: true });
  }

  /**
   * Show the tooltip of ``cell`` of ``matrix`` below it, or above it where the screen's bottom would cut it.
   * @param {Matrix} matrix
   * @param {HTMLTableCellElement} cell
   * @param {HTMLElement} box the component's box, which the tooltip is placed in
   */
  show(matrix, cell, box) {
    const { values } = this.numbers();
    const i = Number(cell.dataset.i);
    const j = Number(cell.dataset.j);
    const x = valuesAt(values, matrix)[i * matrix.shape[1] + j];
    if (Number.isNaN(x)) {
      this.hide();
      return;
    }
    /** @type {HTMLElement[]} */
    const lines = [
      element("div", {}, `${matrix.row_name}: ${matrix.rows[i]}`),
      element("div", {}, `${matrix.column_name}: ${matrix.columns[j]}`),
      element("div", { class: "value" }, `= ${cellText(x, matrix.decimals)}`),
    ];
    if (matrix.arithmetic && Number.isFinite(x)) lines.push(...this.arithmetic(matrix, i, j));
    this.node.replaceChildren(...lines);
    this.node.hidden = false;
    cell.setAttribute("aria-describedby", TIP_ID);
    const place = cell.getBoundingClientRect();
    const host = box.getBoundingClientRect();
    const left = Math.min(place.left - host.left + place.width / 2 + 8, host.width - 260);
    this.node.style.left = `${Math.max(0, left)}px`;
    const tall = this.node.offsetHeight;
    const below = place.bottom + 6 + tall <= window.innerHeight - 4 || place.top - 6 - tall < 0;
    this.node.style.top = `${below ? place.bottom - host.top + 6 : place.top - host.top - 6 - tall}px`;
  }

  hide() {
    this.node.hidden = true;
  }

  /**
   * q_i·k_j term by term, as numbers.js's dotTerms writes it: text and subscripts, one element per line.
   * @param {Matrix} matrix a raw score matrix with its arithmetic
   * @param {number} i
   * @param {number} j
   * @returns {HTMLElement[]}
   */
  arithmetic(matrix, i, j) {
    const { header, values } = this.numbers();
    const sum = /** @type {NonNullable<Matrix["arithmetic"]>} */ (matrix.arithmetic);
    const queries = header.matrices[sum.query];
    const keys = header.matrices[sum.key];
    const columns = matrix.shape[1];
    const places = valuesAt(values, sum.places)[i * columns + j];
    const score = valuesAt(values, matrix)[i * columns + j];
    const lines = dotTerms(rowAt(values, queries, i), rowAt(values, keys, j), i, j, places, score);
    return lines.map((parts) =>
      element(
        "div",
        {},
        ...parts.map((part) => (typeof part === "string" ? part : element("sub", { text: part.sub }))),
      ),
    );
  }
}

/**
 * The arrow keys (Home, End) move the focus along a matrix's cells; Escape hides the tooltip. One cell at a time takes
 * the Tab key (a roving tabindex).
 * @param {KeyboardEvent} event
 * @param {HTMLTableElement} table
 * @param {Tooltip} tip
 */
export function walkCells(event, table, tip) {
  const cell =
    event.target instanceof Element
      ? /** @type {HTMLTableCellElement | null} */ (event.target.closest("td[data-i]"))
      : null;
  if (!cell) return;
  if (event.key === "Escape") {
    tip.hide();
    return;
  }
  const body = table.tBodies[0];
  const rows = body.rows.length;
  const columns = body.rows[0].cells.length - 1; // the row's header
  const to = cellAfter(event.key, Number(cell.dataset.i), Number(cell.dataset.j), rows, columns);
  if (!to) return;
  event.preventDefault();
  event.stopPropagation();
  const target = /** @type {HTMLElement | null} */ (table.querySelector(`td[data-i="${to[0]}"][data-j="${to[1]}"]`));
  if (!target || target === cell) return;
  cell.tabIndex = -1;
  target.tabIndex = 0;
  target.focus();
}
