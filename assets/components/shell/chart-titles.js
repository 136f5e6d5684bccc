// Plotly never wraps a title: one wider than its chart is cut at the edge (a half-width chart on a projector, a phone).
// Once drawn, such a title is broken onto lines (at spaces; between characters for Chinese) and the room above the
// plot grows by a line each. A title that reaches under the touch screen's toolbar (always shown there) moves below it,
// and one that meets the column labels or a legend below it gets the room it lacks. The chart grows by the lines and
// the toolbar's room (the plot keeps the height the server gave it); the room for what lies below the title comes from
// the plot.
//
// Every chart is fitted a few times at most for one title and width (FITS), from the layout the server sent, never
// from a layout fitted before: a measure that can never be met (a legend that moves with the title) ends there instead
// of growing the chart without end (it once grew from 337 to 2,309 px, and the page never settled).

/** @typedef {any} Plotly the Plotly module Streamlit loads */
/** @typedef {any} Chart a chart's div, as Plotly keeps it (layout, _fullLayout) */

/** Relayouts at most, for one title and width. */
export const FITS = 3;
/** The most a chart grows for its title, px. */
const MOST = 400;

const WIDE = /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/**
 * A text's length in ems: a Chinese character is as wide as its font size, a Latin letter or digit about half, a space
 * about a quarter.
 * @param {string} html
 * @returns {number}
 */
export function ems(html) {
  let count = 0;
  for (const letter of html.replace(/<[^>]*>/g, "")) count += WIDE.test(letter) ? 1 : letter === " " ? 0.25 : 0.55;
  return count;
}

/**
 * A title broken into lines of about equal length that fit ``room`` px, given its width on one line. Chinese (even with a few spaces) breaks between characters, a run of Latin letters and digits
 * kept whole, each with the tags around it (<b> never split); other text at spaces.
 * @param {string} text the title as the server sent it (one line)
 * @param {number} full its width on one line, px
 * @param {number} room the width it has, px
 * @returns {string[]}
 */
export function wrapTitle(text, full, room) {
  const plain = text.replace(/<[^>]*>/g, "");
  const length = ems(plain);
  const fits = (0.97 * length * room) / full; // a line a little short of the room: the ems are estimates
  const even = length / Math.ceil(full / room);
  const most = Math.max(2, Math.min(fits, even + 3)); // ems on a line
  const chinese = /[\u3000-\u9fff\uff00-\uffef]/u.test(plain);
  const pieces = chinese
    ? text.match(/(?:<[^>]*>)*(?:[\x21-\x3b\x3d-\x7e]+|[^<])(?:<\/[^>]*>)*/gu) || [text]
    : text.split(" ");
  const glue = chinese ? "" : " ";
  const lines = [""];
  for (const piece of pieces) {
    const line = lines[lines.length - 1];
    if (line && ems(line + glue + piece) > most) lines.push(piece);
    else lines[lines.length - 1] = line ? line + glue + piece : piece;
  }
  return lines;
}

/**
 * @typedef {object} Fit how one chart is fitted for one title and width
 * @property {number} top the server's room above the plot, px
 * @property {number} pad the server's pad above the title, px
 * @property {number} height the server's height, px (0: none)
 * @property {string} lines the title as shown ("<br>" between lines)
 * @property {number} added room added above the plot, the chart growing by as much (its title's lines, the toolbar), px
 * @property {number} squeezed room added above the plot from the plot's own (what lies under the title), px
 * @property {number} padded pad added above the title, px
 * @property {number} passes relayouts made
 */

/** @type {WeakMap<Chart, Map<string, Fit>>} */
const fits = new WeakMap();
/** @type {WeakMap<Chart, {key: string, layout: any}>} */
const sent = new WeakMap();

/**
 * @param {any} layout
 * @returns {string} names a title and a width
 */
function keyOf(layout) {
  return `${layout?.title?.text}|${layout?.width}`;
}

/**
 * The layout a fit gives: its title's lines, the room above the plot, the title's pad, the height.
 * @param {Fit} fit
 * @returns {{text: string, top: number, pad: number, height: number}}
 */
function target(fit) {
  return {
    text: fit.lines,
    top: fit.top + fit.added + fit.squeezed,
    pad: fit.pad + fit.padded,
    height: fit.height ? fit.height + fit.added : 0,
  };
}

/**
 * The fit of ``layout``'s chart: the one made for its title and width, or the one whose lines it already shows (Streamlit
 * hands the drawn layout back, and draws it again).
 * @param {Chart} chart
 * @param {any} layout
 * @returns {Fit | undefined}
 */
function fitFor(chart, layout) {
  const byKey = fits.get(chart);
  if (!byKey) return undefined;
  const own = byKey.get(keyOf(layout));
  if (own) return own;
  return [...byKey.entries()].find(
    ([key, fit]) => fit.lines === layout.title.text && key.endsWith(`|${layout.width}`),
  )?.[1];
}

/**
 * The figure Streamlit draws, with the title and room this chart was fitted to for its title and width (so a chart
 * drawn again is drawn fitted at once, and never measured again). A figure that already has them is handed on as it
 * is: Streamlit's chart draws again whenever the figure it holds is a new object, and it holds what was drawn (a new
 * object each time here drew the chart hundreds of times a second).
 * @param {Chart} chart
 * @param {any} figure
 * @returns {any}
 */
export function fitted(chart, figure) {
  const layout = figure?.layout;
  if (!layout?.title || typeof layout.title.text !== "string") return figure;
  const fit = fitFor(chart, layout);
  if (!fit) {
    sent.set(chart, { key: keyOf(layout), layout }); // the server's own layout: a fit starts from it
    return figure;
  }
  const want = target(fit);
  const done =
    layout.title.text === want.text && (layout.margin?.t ?? 80) === want.top && (layout.title.pad?.t ?? 0) === want.pad;
  if (done && (!want.height || layout.height === want.height)) return figure;
  const title = { ...layout.title, text: want.text, pad: { ...layout.title.pad, t: want.pad } };
  const height = want.height ? { height: want.height } : {};
  return { ...figure, layout: { ...layout, ...height, title, margin: { ...layout.margin, t: want.top } } };
}

/**
 * @param {Chart} chart
 * @returns {Fit | null} this chart's fit for the title and width the server sent last (made on first use)
 */
function fitOf(chart) {
  const last = sent.get(chart);
  if (!last) return null;
  const byKey = fits.get(chart) || new Map();
  fits.set(chart, byKey);
  let fit = byKey.get(last.key);
  if (!fit) {
    const layout = last.layout;
    fit = {
      top: layout.margin?.t ?? 80,
      pad: layout.title?.pad?.t ?? 0,
      height: layout.height || 0,
      lines: layout.title.text,
      added: 0,
      squeezed: 0,
      padded: 0,
      passes: 0,
    };
    byKey.set(last.key, fit);
  }
  return fit;
}

/**
 * How much more room the drawn title needs: below the toolbar where it reaches under it, and above what lies under it
 * (the column labels, the x axis's title, a legend).
 * @param {Chart} chart
 * @param {Element} title
 * @param {boolean} anchoredTop the title hangs from its pad (yanchor "top"), else sits mid-room
 * @returns {{more: number, under: number}}
 */
function lacking(chart, title, anchoredTop) {
  const box = title.getBoundingClientRect();
  const bar = chart.querySelector(".modebar");
  const barBox = bar?.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    ? bar.getBoundingClientRect()
    : null;
  const reaches =
    barBox &&
    barBox.width > 0 &&
    barBox.left < box.right - 1 &&
    barBox.right > box.left + 1 &&
    barBox.bottom > box.top + 1;
  const under = reaches ? Math.ceil(barBox.bottom + 4 - box.top) : 0;
  const below = [...chart.querySelectorAll(".g-xtitle text, .xtick text, .legend .traces")]
    .map((node) => node.getBoundingClientRect())
    .filter((rect) => rect.height > 0);
  const overlap = below.length ? Math.ceil(box.bottom + under + 3 - Math.min(...below.map((rect) => rect.top))) : 0;
  // A title in the middle of the room above the plot (Plotly's "auto") moves down by half what that room grows, while
  // what lies under it (the plot's top: its column labels, a legend above it) moves down by all of it: twice the room.
  const twice = anchoredTop ? 1 : 2;
  return { more: Math.max(0, twice * overlap, twice * under), under: anchoredTop ? under : 0 };
}

/**
 * Fit a drawn chart's title (once drawn, and after each relayout this makes): its lines, then the room it lacks.
 * @param {Plotly} Plotly
 * @param {Chart} chart
 */
export function fitTitle(Plotly, chart) {
  const node = chart.querySelector(".g-gtitle .gtitle");
  const layout = chart.layout || {};
  const fit = fitOf(chart);
  if (!node || !fit || fit.passes >= FITS || typeof layout.title?.text !== "string") return;
  const server = /** @type {{layout: any}} */ (sent.get(chart)).layout.title.text;
  const box = node.getBoundingClientRect();
  const room = chart.getBoundingClientRect().right - box.left - 6;
  /** @type {Record<string, unknown>} */
  let update = {};
  if (box.width > room && room >= 40 && !server.includes("<br>") && layout.title.text === fit.lines) {
    const widest = Math.max(...fit.lines.split("<br>").map(ems), 0.5); // the drawn title's widest line, in ems
    const lines = wrapTitle(server, (box.width * ems(server)) / widest, room);
    const size = layout.title.font?.size || 14;
    if (lines.join("<br>") !== fit.lines) {
      fit.lines = lines.join("<br>");
      fit.added = Math.round(size * 1.25) * (lines.length - 1);
      fit.padded = Math.round(size * 0.65) * (lines.length - 1);
      update = { "title.text": fit.lines };
    }
  }
  if (!Object.keys(update).length) {
    const { more, under } = lacking(chart, node, layout.title.yanchor === "top");
    if (more <= 0) return;
    const room = Math.max(0, Math.min(more, MOST - fit.added - fit.squeezed));
    if (under)
      fit.added += room; // below the toolbar: the chart grows
    else fit.squeezed += room; // clear of the labels: the plot gives up the room
    fit.padded += under;
  }
  fit.passes += 1;
  const want = target(fit);
  update["margin.t"] = want.top;
  update["title.pad.t"] = want.pad;
  if (want.height) update.height = want.height;
  Plotly.relayout(chart, update);
}
