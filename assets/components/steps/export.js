// Downloads: every matrix of this step or of every step as CSV, one matrix as a PNG, or copied as LaTeX (latex.js). Made
// in the browser from the payload (nothing is asked of the server). matrixIds and csvText are pure (tests/js/steps.test.js).

import { element, fill } from "../common.js";
import { cellText, colourAt, css, inkOn } from "../numbers.js";
import { latexButton } from "./latex.js";
import { matrixIdOf, valuesAt } from "./payload.js";

/** @typedef {import("./payload.js").Step} Step */
/** @typedef {import("./payload.js").Block} Block */
/** @typedef {import("./payload.js").Header} Header */
/** @typedef {import("./payload.js").Matrix} Matrix */
/** @typedef {import("./steps.js").Steps} Steps */

/**
 * The ids of the matrices ``steps`` draw for ``head`` (counted from 1), in order; those Predict first hides are left
 * out while it hides them.
 * @param {Step[]} steps
 * @param {number} head
 * @param {boolean} hiding
 * @returns {string[]}
 */
export function matrixIds(steps, head, hiding) {
  /** @type {string[]} */
  const ids = [];
  /** @param {Block} block */
  const walk = (block) => {
    if (block.type === "row") block.children.forEach(walk);
    else if (block.type === "column") block.blocks.forEach(walk);
    else if (block.type === "matrix" && !(block.hide && hiding)) ids.push(matrixIdOf(block, head));
  };
  for (const step of steps) step.blocks.forEach(walk);
  return ids;
}

/**
 * A number as the CSV writes it: every digit JavaScript has for it (a float64 read back exactly), "inf", "-inf", or
 * nothing for a missing one.
 * @param {number} x
 * @returns {string}
 */
export function csvNumber(x) {
  if (Number.isNaN(x)) return "";
  if (x === Number.POSITIVE_INFINITY) return "inf";
  if (x === Number.NEGATIVE_INFINITY) return "-inf";
  return String(x);
}

/** @param {string} text */
function quote(text) {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The matrices ``ids`` as CSV, one after another: a "# title" line, a header ("row", "1:the", "2:cat" ...), a line per
 * row ("1:the", its numbers), and an empty line between matrices.
 * @param {Header} header
 * @param {Float64Array} values
 * @param {string[]} ids
 * @param {string} rowWord the first header cell
 * @returns {string}
 */
export function csvText(header, values, ids, rowWord) {
  return ids
    .map((id) => {
      const matrix = header.matrices[id];
      const [rows, columns] = matrix.shape;
      const numbers = valuesAt(values, matrix);
      const lines = [[rowWord, ...matrix.columns.map((label, j) => `${j + 1}:${label}`)].map(quote).join(",")];
      for (let i = 0; i < rows; i++) {
        const row = Array.from(numbers.subarray(i * columns, (i + 1) * columns), csvNumber);
        lines.push([quote(`${i + 1}:${matrix.rows[i]}`), ...row].join(","));
      }
      return `# ${matrix.title}\n${lines.join("\n")}\n`;
    })
    .join("\n");
}

/**
 * The browser saves ``blob`` as ``name``.
 * @param {string} name
 * @param {Blob} blob
 */
function save(name, blob) {
  const link = element("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/**
 * The download menu's items for the step shown (or every step): the CSV, and each matrix as a PNG and copied as LaTeX
 * (what a copy did is said under its button and in the live region).
 * @param {Steps} steps
 * @param {HTMLDetailsElement} menu
 */
export function fillDownloads(steps, menu) {
  const { header, texts, view } = steps;
  const shown = view.all ? header.steps : [header.steps[view.step - 1]];
  const ids = matrixIds(shown, view.head, steps.hiding);
  const name = `${header.csv}-${view.all ? "all-steps" : shown[0].id}`;
  const items = element("div", { class: "menu-items" });
  const csv = element("button", { type: "button" }, view.all ? texts.csv_all : texts.csv_step);
  csv.addEventListener("click", () =>
    save(`${name}.csv`, new Blob([csvText(header, steps.values, ids, texts.row)], { type: "text/csv" })),
  );
  items.append(csv);
  const note = element("p", { class: "menu-note", "aria-hidden": "true", hidden: true }); // heard in the live region
  for (const id of ids) {
    const png = element("button", { type: "button" }, fill(texts.png, { title: header.matrices[id].title }));
    png.addEventListener("click", () => drawPng(header, steps.values, id));
    items.append(png, latexButton(steps, id, note));
  }
  items.append(note); // moved under the button that copied
  menu.querySelector(".menu-items")?.remove();
  menu.append(items);
  // opened under its button's right edge, unless it would then leave the steps' box (the button starts a line)
  const box = steps.top?.getBoundingClientRect();
  items.classList.toggle("start", !!box && menu.getBoundingClientRect().right - items.offsetWidth < box.left);
}

/**
 * One matrix as a PNG (twice the pixels): its title, labels, coloured cells (numbers where they fit) and the legend.
 * @param {Header} header
 * @param {Float64Array} values
 * @param {string} id
 */
function drawPng(header, values, id) {
  const matrix = header.matrices[id];
  const [rows, columns] = matrix.shape;
  const scale = 2;
  const cell = Math.max(14, Math.min(48, Math.floor(900 / columns)));
  const rowHeight = Math.max(14, Math.min(30, Math.floor(900 / rows)));
  const label = 120;
  const top = 70;
  const canvas = document.createElement("canvas");
  canvas.width = (label + columns * cell + 80) * scale;
  canvas.height = (top + rows * rowHeight + 20) * scale;
  const pen = canvas.getContext("2d");
  if (!pen) return;
  pen.scale(scale, scale);
  pen.fillStyle = "#fff";
  pen.fillRect(0, 0, canvas.width, canvas.height);
  pen.fillStyle = matrix.hue || "#1f2430";
  pen.font = "bold 16px sans-serif";
  pen.fillText(matrix.title, 10, 22);
  pen.font = "12px sans-serif";
  pen.fillStyle = "#1f2430";
  pen.fillText(`${matrix.columns_title} \u2192`, label, 40);
  drawLabels(pen, matrix, { label, top, cell, rowHeight });
  drawCells(pen, matrix, valuesAt(values, matrix), header.scales[matrix.kind], { label, top, cell, rowHeight });
  canvas.toBlob((blob) => {
    if (blob) save(`${header.csv}-${id.replace(/\W+/g, "-")}.png`, blob);
  });
}

/** @typedef {{label: number, top: number, cell: number, rowHeight: number}} Grid */

/**
 * @param {CanvasRenderingContext2D} pen
 * @param {Matrix} matrix
 * @param {Grid} grid
 */
function drawLabels(pen, matrix, grid) {
  const { label, top, cell, rowHeight } = grid;
  const upright = cell < 40;
  matrix.columns.forEach((text, j) => {
    pen.save();
    pen.translate(label + j * cell + cell / 2, top - 6);
    if (upright) pen.rotate(-Math.PI / 2);
    pen.textAlign = upright ? "left" : "center";
    pen.fillText(text.slice(0, 12), 0, 0);
    pen.restore();
  });
  pen.textAlign = "right";
  matrix.rows.forEach((text, i) => {
    pen.fillText(text.slice(0, 16), label - 6, top + i * rowHeight + rowHeight / 2 + 4);
  });
}

/**
 * @param {CanvasRenderingContext2D} pen
 * @param {Matrix} matrix
 * @param {Float64Array} numbers
 * @param {[number, string][]} scale
 * @param {Grid} grid
 */
function drawCells(pen, matrix, numbers, scale, grid) {
  const { label, top, cell, rowHeight } = grid;
  const [rows, columns] = matrix.shape;
  const [low, high] = matrix.range;
  const printed = cell >= 40 && rowHeight >= 18 && matrix.readable;
  pen.textAlign = "center";
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) {
      const x = numbers[i * columns + j];
      const colour = Number.isFinite(x) ? colourAt(scale, (x - low) / (high - low || 1)) : [240, 240, 240];
      pen.fillStyle = css(colour);
      pen.fillRect(label + j * cell, top + i * rowHeight, cell - 1, rowHeight - 1);
      if (!printed) continue;
      pen.fillStyle = inkOn(colour);
      pen.fillText(cellText(x, matrix.decimals), label + j * cell + cell / 2, top + i * rowHeight + rowHeight / 2 + 4);
    }
  }
  const ramp = pen.createLinearGradient(0, top, 0, top + rows * rowHeight);
  for (const [at, colour] of scale) ramp.addColorStop(1 - at, colour);
  const left = label + columns * cell + 12;
  pen.fillStyle = ramp;
  pen.fillRect(left, top, 12, rows * rowHeight);
  pen.fillStyle = "#1f2430";
  pen.textAlign = "left";
  pen.fillText(cellText(high, 2), left + 16, top + 10);
  pen.fillText(cellText(low, 2), left + 16, top + rows * rowHeight);
}
