// A chart read by a screen reader: Streamlit names its box (role "figure", aria-label: the text alternative made with
// the chart, attention_plot/plot.labels and describe); its numbers follow as visually hidden tables, made here from the
// figure: every chart has its numbers, as it shows them. A heatmap: its printed numbers (the text its tooltips show,
// rounded as in its cells), or its values where it prints none; a line or bar chart: its points, one table for each set
// of lines that share their x (a reference line of two points has its own); a chart whose numbers are not in its traces
// (the head view's lines, the 72 heads' tiles) names them itself in layout.meta.numbers. ``grids`` is pure (Node tests).

/** @typedef {any} Figure Plotly's figure as Streamlit hands it over: {data, layout} */
/** @typedef {any} Trace */
/** @typedef {string[][]} Grid a table: its header row, then its body rows */

const TABLE_CELLS = 40000; // larger than any chart of the app: a guard against a runaway figure
const TABLE_ROWS = 2000;
/** @type {Record<string, new (buffer: ArrayBuffer) => ArrayLike<number>>} */
const TYPED = {
  f8: Float64Array,
  f4: Float32Array,
  i4: Int32Array,
  i2: Int16Array,
  i1: Int8Array,
  u1: Uint8Array,
  u2: Uint16Array,
  u4: Uint32Array,
};

/**
 * A trace's array: a plain list, or Plotly's encoding of a NumPy array ({dtype, bdata: base64}).
 * @param {any} value
 * @returns {any[]}
 */
export function arrayOf(value) {
  if (!value?.bdata) return Array.isArray(value) ? value : [];
  const bytes = Uint8Array.from(atob(value.bdata), (c) => c.charCodeAt(0));
  const Typed = TYPED[value.dtype];
  return Typed ? Array.from(new Typed(bytes.buffer)) : [];
}

/**
 * The words of a label that may hold HTML (<b>, <br>, &amp;), as text.
 * @param {unknown} html
 * @returns {string}
 */
export function words(html) {
  const text = String(html == null ? "" : html).replace(/<br>/g, " ");
  return text
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&nbsp;/g, "\u00a0")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal) => String.fromCodePoint(Number(decimal)))
    .replace(/&amp;/g, "&")
    .trim();
}

/**
 * A number as the table says it: four significant digits, never in exponent form (a probability of 2.5e-8 reads 0.000,
 * as the chart prints it), with a true minus sign; a text as its words.
 * @param {unknown} value
 * @returns {string}
 */
export function shown(value) {
  if (typeof value !== "number") return words(value);
  const text = Number.isInteger(value)
    ? String(value)
    : Math.abs(value) < 5e-4
      ? "0.000"
      : String(Number(value.toPrecision(4)));
  return text.replace("-", "\u2212");
}

/**
 * @param {any} layout
 * @param {string} name
 * @returns {string} an axis's title
 */
function axisTitle(layout, name) {
  return words(layout?.[name]?.title?.text);
}

/**
 * An axis's labels at 0 .. count - 1, or the positions counted from 1.
 * @param {any} layout
 * @param {string} name
 * @param {number} count
 * @returns {string[]}
 */
function ticks(layout, name, count) {
  const axis = layout?.[name] || {};
  const at = arrayOf(axis.tickvals);
  const text = axis.ticktext || [];
  return Array.from({ length: count }, (_, i) => {
    const k = at.indexOf(i);
    return k >= 0 && text[k] != null ? words(text[k]) : String(i + 1);
  });
}

/**
 * A heatmap's table: its printed numbers (with the row and column names its tooltips carry), or its values.
 * @param {Trace} first
 * @param {any} layout
 * @param {string} cornerWord the corner's word where the axes have no titles
 * @returns {Grid[]}
 */
function heatmapGrids(first, layout, cornerWord) {
  const rowsTitle = axisTitle(layout, "yaxis");
  const columnsTitle = axisTitle(layout, "xaxis");
  const corner = rowsTitle || columnsTitle ? `${rowsTitle} \\ ${columnsTitle}` : cornerWord;
  const { text, customdata } = first;
  if (Array.isArray(text) && Array.isArray(text[0]) && Array.isArray(customdata) && Array.isArray(customdata[0])) {
    if (text.length * text[0].length > TABLE_CELLS) return [];
    const head = [corner, ...customdata[0].map((/** @type {any} */ cell) => words(cell[1]))];
    return [
      [
        head,
        ...text.map((/** @type {any[]} */ row, /** @type {number} */ i) => [
          words(customdata[i][0][0]),
          ...row.map(words),
        ]),
      ],
    ];
  }
  const z = Array.isArray(first.z) ? first.z : unflatten(first.z);
  if (!z.length || !Array.isArray(z[0]) || z.length * z[0].length > TABLE_CELLS) return [];
  const rows = ticks(layout, "yaxis", z.length);
  const columns = ticks(layout, "xaxis", z[0].length);
  const body = z.map((/** @type {any[]} */ row, /** @type {number} */ i) => [
    rows[i],
    ...row.map((v) => (v == null || Number.isNaN(v) ? "" : shown(v))),
  ]);
  return [[[corner, ...columns], ...body]];
}

/**
 * @param {any} z Plotly's encoding {dtype, bdata, shape: "rows, columns"}
 * @returns {number[][]}
 */
function unflatten(z) {
  const flat = arrayOf(z);
  const columns = Number(String(z?.shape || "").split(",")[1]) || flat.length;
  return Array.from({ length: Math.ceil(flat.length / columns) }, (_, i) => flat.slice(i * columns, (i + 1) * columns));
}

/**
 * Line and bar charts: one table per set of lines that share their x, in the order drawn.
 * @param {Trace[]} data
 * @param {any} layout
 * @param {string} alongWord the first column's word where the x axis has no title
 * @returns {Grid[]}
 */
function lineGrids(data, layout, alongWord) {
  const traces = data.filter(
    (trace) => (trace.type === "scatter" || trace.type === "bar") && !String(trace.mode || "").match(/^text$/),
  );
  /** @param {Trace} trace */
  const names = (trace) =>
    trace.customdata && !Array.isArray(trace.customdata[0]) ? trace.customdata.map(words) : null;
  /** @param {Trace} trace */
  const along = (trace) => names(trace) || arrayOf(trace.orientation === "h" ? trace.y : trace.x);
  /** @param {Trace} trace */
  const heights = (trace) => arrayOf(trace.orientation === "h" ? trace.x : trace.y);
  /** @type {{key: string, at: any[], lines: Trace[]}[]} */
  const groups = [];
  for (const trace of traces) {
    const at = along(trace);
    if (!at.length || at.length > TABLE_ROWS) continue;
    const key = JSON.stringify(at.map(shown));
    const group = groups.find((each) => each.key === key);
    if (group) group.lines.push(trace);
    else groups.push({ key, at, lines: [trace] });
  }
  return groups.map(({ at, lines }) => {
    const header = [
      axisTitle(layout, "xaxis") || alongWord,
      ...lines.map((trace, i) => words(trace.name) || axisTitle(layout, "yaxis") || String(i + 1)),
    ];
    return [header, ...at.map((x, i) => [shown(x), ...lines.map((trace) => shown(heights(trace)[i]))])];
  });
}

/**
 * The tables of a chart's numbers, as it shows them.
 * @param {Figure} figure
 * @param {{corner: string, along: string}} texts the corner's word and the first column's, where the axes have none
 * @returns {Grid[]}
 */
export function grids(figure, texts) {
  const data = figure?.data || [];
  const layout = figure?.layout || {};
  const given = layout.meta?.numbers;
  if (Array.isArray(given) && given.length > 1) {
    return [
      given.map((row, i) =>
        row.map((/** @type {unknown} */ cell, /** @type {number} */ j) => shown(cell) || (i && j ? "" : texts.corner)),
      ),
    ];
  }
  if (!data[0]) return [];
  if (data[0].type === "heatmap") return heatmapGrids(data[0], layout, texts.corner);
  return lineGrids(data, layout, texts.along);
}

/**
 * The tables, visually hidden, first in the chart's box (in a box of 1 × 1 pixels at its top left: it never makes the
 * box scroll); none where the chart has no numbers.
 * @param {Element} place the chart's box
 * @param {Figure} figure
 * @param {{corner: string, along: string}} texts
 */
export function showNumbers(place, figure, texts) {
  let holder = place.querySelector(":scope > div.attention-numbers");
  const tables = grids(figure, texts);
  if (!tables.length) {
    holder?.remove();
    return;
  }
  if (!holder) {
    holder = document.createElement("div");
    holder.className = "attention-numbers";
    place.prepend(holder);
  }
  const caption = words(figure.layout?.title?.text);
  holder.replaceChildren(...tables.map((rows) => tableOf(rows, caption)));
}

/**
 * @param {Grid} rows
 * @param {string} caption
 * @returns {HTMLTableElement}
 */
function tableOf(rows, caption) {
  const table = document.createElement("table");
  table.createCaption().textContent = caption;
  rows.forEach((row, i) => {
    const line = (i === 0 ? table.createTHead() : table.tBodies[0] || table.createTBody()).insertRow();
    row.forEach((text, j) => {
      const cell = document.createElement(i === 0 || j === 0 ? "th" : "td");
      if (cell instanceof HTMLTableCellElement && cell.tagName === "TH") cell.scope = i === 0 ? "col" : "row";
      cell.textContent = text;
      line.appendChild(cell);
    });
  });
  return table;
}
