// A matrix as a table: coloured cells, numbers where they can be read, labels across or upright, a colour legend. The
// sizes and the cells' HTML are pure functions (tested in Node: tests/js/steps.test.js); matrixFigure puts them on the page.

import { element, escapeHtml, labelWidth } from "../common.js";
import { cellText, paint } from "../numbers.js";
import { valuesAt } from "./payload.js";

/** @typedef {import("./payload.js").Matrix} Matrix */
/** @typedef {(text: string, px: number) => number} Measure how wide a text is at a font size, px */

/**
 * @typedef {object} Room what a matrix is drawn into
 * @property {number} width the column's width, px
 * @property {boolean} projector presenter mode: larger text, rows fitted to the screen's height
 * @property {number} font the chart font, px
 * @property {number} rowCap the projector's row height cap (0: none)
 * @property {boolean} numbers numbers in the cells asked for
 */

/**
 * @typedef {object} Sizes
 * @property {number} height a row's height, px
 * @property {number} cell a cell's width, px
 * @property {number} labelFont row and column labels, px
 * @property {number} numberFont numbers in the cells, px (0: none drawn; a screen reader still reads them)
 * @property {number} rowLabel the row labels' column, px
 * @property {number} yTitle the rows' title, px
 */

/** The smallest text a cell or label may have: 16 px on a projector, 12 px elsewhere. */
const LEAST = { projector: 16, screen: 12 };

/**
 * A row's height: on a projector from the chart font and the rows (fitted down to a label's line under the row cap),
 * elsewhere 30 px for up to 16 rows, then shorter (never under 12 px).
 * @param {number} rows
 * @param {Room} room
 * @param {number} labelFont
 * @returns {number}
 */
function rowHeight(rows, room, labelFont) {
  if (!room.projector) return rows <= 16 ? 30 : Math.max(12, Math.min(30, Math.floor(640 / rows)));
  const height = Math.max(room.font + 9, Math.min(room.font + 21, Math.floor(310 / rows)));
  return room.rowCap ? Math.max(Math.ceil(labelFont * 1.15) + 2, Math.min(height, room.rowCap)) : height;
}

/**
 * How a matrix is laid out in ``room``: its rows, cells, labels, and the numbers' size (the largest that fits every
 * number in a cell, never under the readable least; none where the matrix is too large to read).
 * @param {Matrix} matrix
 * @param {string[]} texts every cell's number as text
 * @param {Room} room
 * @param {Measure} measure
 * @returns {Sizes}
 */
export function matrixSizes(matrix, texts, room, measure) {
  const [rows, columns] = matrix.shape;
  const least = room.projector ? LEAST.projector : LEAST.screen;
  let labelFont = Math.max(least, room.font - (Math.max(rows, columns) > 16 ? 2 : 0));
  if (room.projector && room.rowCap)
    labelFont = Math.max(least, Math.min(labelFont, Math.floor((room.rowCap - 2) / 1.15)));
  const height = rowHeight(rows, room, labelFont);
  const tickFont = room.projector ? 16 : 12;
  const widest = Math.max(...matrix.rows.map((label) => measure(label, labelFont)), 8);
  const rowLabel = Math.min(Math.ceil(widest) + 8, Math.max(60, room.width * 0.28));
  const legend = 10 + 3 + Math.ceil(Math.max(...legendTicks(matrix).map((tick) => measure(tick, tickFont)))) + 6;
  const yTitle = Math.ceil(tickFont * 1.6);
  const space = room.width - rowLabel - legend - yTitle - 8 - (columns + 2); // gaps, and the 1 px between cells
  const cell = Math.max(room.projector ? 8 : 4, Math.min(room.projector ? 110 : 76, Math.floor(space / columns)));
  let numberFont = 0;
  if (room.numbers && matrix.readable) {
    const widestNumber = Math.max(...texts.map((text) => measure(text, 1)));
    for (let px = room.font; px >= least; px--) {
      if (widestNumber * px + 4 <= cell && px + 4 <= height) {
        numberFont = px;
        break;
      }
    }
  }
  return { height, cell, labelFont, numberFont, rowLabel, yTitle };
}

/**
 * The legend's ticks, top to bottom: the largest value, 0 (not for weights, nor for one or two rows, where it would
 * lie on the ends), the smallest; whole numbers from 100 up.
 * @param {Matrix} matrix
 * @returns {string[]}
 */
export function legendTicks(matrix) {
  const [low, high] = matrix.range;
  const decimals = Math.abs(high) >= 100 ? 0 : 2;
  const middle = matrix.kind === "weights" || matrix.rows.length < 3 ? [] : [cellText(0, decimals)];
  return [cellText(high, decimals), ...middle, cellText(low, decimals)];
}

/**
 * Column labels: across when they fit a cell, else upright; when even upright they run together, every k-th (a screen
 * reader still hears every one). Numbered columns past 16 show about 8 numbers.
 * @param {string[]} labels
 * @param {number} cell
 * @param {number} px
 * @param {Measure} measure
 * @returns {{stride: number, vertical: boolean}}
 */
export function labelStride(labels, cell, px, measure) {
  const widest = Math.max(...labels.map((label) => measure(label, px)), 1);
  if (widest + 6 <= cell) return { stride: 1, vertical: false };
  const numbered = labels.every((label, i) => label === String(i + 1));
  if (numbered && labels.length > 16) return { stride: Math.ceil(labels.length / 8), vertical: false };
  return { stride: Math.max(1, Math.ceil((px + 4) / cell)), vertical: true };
}

/**
 * Row or column labels as a table's headers say them: a word that comes more than once gets its position before it
 * ("1·the", "5·the": the word lists' "n · word" without its spaces, which a phone's 8 columns of numbers need), so that a screen reader, and an eye, tells them apart; the rest stay.
 * @param {string[]} labels
 * @returns {string[]}
 */
export function headerLabels(labels) {
  /** @type {Map<string, number>} */
  const times = new Map();
  for (const label of labels) times.set(label, (times.get(label) || 0) + 1);
  return labels.map((label, i) => ((times.get(label) || 0) > 1 ? `${i + 1}\u00b7${label}` : label));
}

/**
 * The table's head and body as HTML (a 40 × 40 matrix is 1,600 cells: made as text and parsed once, several times faster
 * than a node at a time). Every label is escaped: a token is always text. A cell's colour comes from the matrix's scale;
 * its ink is black or white, whichever contrasts more. The corner is an empty data cell, so every column header keeps
 * its column for a screen reader.
 * @param {Matrix} matrix
 * @param {ArrayLike<number>} values the matrix's numbers, row by row
 * @param {string[]} texts the same numbers as text
 * @param {[number, string][]} scale
 * @param {{stride: number, vertical: boolean}} labels
 * @param {boolean} numbersShown
 * @returns {string}
 */
export function tableHtml(matrix, values, texts, scale, labels, numbersShown) {
  const [rows, columns] = matrix.shape;
  const group = columns / (matrix.groups || 1);
  /** @param {number} j */
  const boundary = (j) => j > 0 && matrix.groups > 1 && j % group === 0;
  const parts = ['<thead><tr><td class="corner"></td>'];
  matrix.columns.forEach((label, j) => {
    const kind = `${labels.vertical ? "v" : ""}${boundary(j) ? " g" : ""}`;
    const shown = j % labels.stride === 0 ? "lab" : "sr-only";
    parts.push(`<th scope="col" class="${kind}"><span class="${shown}">${escapeHtml(label)}</span></th>`);
  });
  parts.push("</tr></thead><tbody>");
  const hidden = numbersShown ? "" : ' class="sr-only"';
  const [low, high] = matrix.range;
  const span = high - low || 1;
  for (let i = 0; i < rows; i++) {
    const name = escapeHtml(matrix.rows[i]);
    parts.push(`<tr><th scope="row" class="rl" title="${name}"><span class="lab">${name}</span></th>`);
    for (let j = 0; j < columns; j++) {
      const x = values[i * columns + j];
      let look;
      if (Number.isFinite(x)) {
        const [background, ink] = paint(scale, (x - low) / span);
        look = `${boundary(j) ? ' class="g"' : ""} style="background:${background};color:${ink}"`;
      } else look = ` class="${x === Number.NEGATIVE_INFINITY ? "masked" : "blank"}${boundary(j) ? " g" : ""}"`;
      const stop = i === 0 && j === 0 ? 0 : -1;
      parts.push(
        `<td${look} tabindex="${stop}" data-i="${i}" data-j="${j}"><span${hidden}>${texts[i * columns + j]}</span></td>`,
      );
    }
    parts.push("</tr>");
  }
  parts.push("</tbody>");
  return parts.join("");
}

/**
 * The colour legend beside the cells: the scale top (largest) to bottom, with its ticks.
 * @param {Matrix} matrix
 * @param {[number, string][]} scale
 * @returns {HTMLElement}
 */
function legend(matrix, scale) {
  const stops = scale.map(([at, colour]) => `${colour} ${(100 - at * 100).toFixed(1)}%`).reverse();
  const ticks = legendTicks(matrix);
  const spans = ticks.length === 3 ? ticks : [ticks[0], "", ticks[1]];
  return element(
    "div",
    { class: "legend", "aria-hidden": "true" },
    element("div", { class: "ramp", style: { background: `linear-gradient(to bottom, ${stops.join(", ")})` } }),
    element("div", { class: "ticks" }, ...spans.map((text) => element("span", { text }))),
  );
}

/**
 * @typedef {object} CellEvents what a matrix's cells do under the pointer and the keyboard (steps/cells.js)
 * @property {(matrix: Matrix, cell: HTMLTableCellElement) => void} show the tooltip for a cell
 * @property {() => void} hide
 * @property {(event: KeyboardEvent, table: HTMLTableElement) => void} keys the arrow keys walk the cells
 */

/**
 * A matrix as a figure: its title, the columns' and rows' titles, the table and the legend; its text alternative names it
 * for a screen reader, which reads the table once (one Tab stop; the arrow keys walk the cells).
 * @param {{matrix: Matrix, id: string, values: Float64Array, scale: [number, string][], room: Room, hiddenNote: string}} what
 * @param {CellEvents} events
 * @returns {HTMLElement}
 */
export function matrixFigure(what, events) {
  const { id, room } = what;
  const matrix = { ...what.matrix, rows: headerLabels(what.matrix.rows), columns: headerLabels(what.matrix.columns) };
  const numbers = valuesAt(what.values, matrix);
  const texts = Array.from(numbers, (x) => cellText(x, matrix.decimals));
  const sizes = matrixSizes(matrix, texts, room, labelWidth);
  const table = element("table", {
    class: "mx",
    style: {
      "--cell": `${sizes.cell}px`,
      "--row": `${sizes.height}px`,
      "--font": `${sizes.numberFont || room.font}px`,
      "--label": `${sizes.labelFont}px`,
    },
  });
  table.append(element("caption", { class: "sr-only", text: matrix.title }));
  const stride = labelStride(matrix.columns, sizes.cell, sizes.labelFont, labelWidth);
  table.insertAdjacentHTML("beforeend", tableHtml(matrix, numbers, texts, what.scale, stride, sizes.numberFont > 0));
  listen(table, matrix, events); // the tooltip names a cell as the headers do
  const title = element("figcaption", {
    class: "mx-title",
    style: matrix.hue ? { color: matrix.hue } : {},
    text: matrix.title,
  });
  const across = `${sizes.rowLabel + sizes.yTitle}px`;
  const columnsTitle = element("div", {
    class: "x-title",
    "aria-hidden": "true",
    style: { paddingLeft: across },
    text: `${matrix.columns_title} \u2192`,
  });
  const scroller = element("div", { class: "mx-scroll" }, table);
  const figure = element(
    "figure",
    { class: "matrix", role: "figure", "aria-label": matrix.alt, "data-matrix": id },
    title,
    columnsTitle,
    element("div", { class: "mx-body" }, rowsTitle(matrix.rows_title), scroller, legend(matrix, what.scale)),
  );
  if (room.numbers && matrix.readable && !sizes.numberFont)
    figure.append(element("p", { class: "caption", text: what.hiddenNote }));
  requestAnimationFrame(() => {
    if (scroller.scrollWidth <= scroller.clientWidth + 1) return;
    scroller.tabIndex = 0;
    scroller.classList.add("wide");
  });
  return figure;
}

/**
 * The rows' title down the side. Chinese runs upright, one character under another (the arrow turns to point down);
 * English is turned to read from the bottom (← then points down). Upright characters turned 180° would stand on their heads.
 * @param {string} text
 * @returns {HTMLElement}
 */
function rowsTitle(text) {
  const upright = /[\u3400-\u9fff\uf900-\ufaff]/u.test(text);
  return element("div", {
    class: upright ? "y-title upright" : "y-title",
    "aria-hidden": "true",
    text: `${text} ${upright ? "\u2192" : "\u2190"}`,
  });
}

/**
 * @param {HTMLTableElement} table
 * @param {Matrix} matrix
 * @param {CellEvents} events
 */
function listen(table, matrix, events) {
  /** @param {Event} event */
  const cellOf = (event) =>
    /** @type {HTMLTableCellElement | null} */ (
      event.target instanceof Element ? event.target.closest("td[data-i]") : null
    );
  table.addEventListener("pointerover", (event) => {
    const cell = cellOf(event);
    if (cell && event.pointerType !== "touch") events.show(matrix, cell);
  });
  table.addEventListener("pointerleave", () => events.hide());
  for (const type of ["click", "focusin"]) {
    table.addEventListener(type, (event) => {
      const cell = cellOf(event);
      if (cell) events.show(matrix, cell);
    });
  }
  table.addEventListener("focusout", () => events.hide());
  table.addEventListener("keydown", (event) => events.keys(event, table));
}
