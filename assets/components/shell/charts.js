// Plotly charts as Streamlit draws them, made to serve a class: drawn only near the screen, titled to fit, their numbers
// in black or white, a tap on a touch screen opening what it taps, their boxes as tall as they grew, their numbers as a
// table for a screen reader (chart-tables.js). Streamlit's chart calls Plotly.react on the module it sets as
// window.Plotly, and chains its events after that promise; this wraps Plotly.react. No public option draws a chart lazily.

import { colourAt, inkOn } from "../numbers.js";
import { showNumbers } from "./chart-tables.js";
import { fitTitle, fitted } from "./chart-titles.js";
import { chartParts } from "./chart-tools.js";
import { catalogue, said } from "./texts.js";

/** @typedef {any} Plotly */
/** @typedef {any} Chart a chart's div, as Plotly keeps it */

const BOX = "[data-testid=stPlotlyChart]";

/** @param {Chart} chart @returns {HTMLElement} the box around it, which holds its place while it waits */
function boxOf(chart) {
  return chart.closest(BOX) || chart;
}

/**
 * Numbers in a heatmap's cells in black or white, whichever contrasts more with the cell (at least 4.58:1); Plotly picks
 * #444 on a light cell, under 4.5:1 on a mid-blue. theme.css draws data-ink.
 * @param {Chart} chart
 */
function ink(chart) {
  for (const text of chart.querySelectorAll("g.heatmap-label text")) {
    const cell = text.__data__;
    const trace = text.closest("g.hm")?.__data__?.[0]?.trace;
    if (!cell || typeof cell.z !== "number" || !trace || !Array.isArray(trace.colorscale)) continue;
    const colour = colourAt(trace.colorscale, (cell.z - trace.zmin) / (trace.zmax - trace.zmin || 1));
    const dark = inkOn(colour) === "#000";
    const want = dark ? "dark" : "light";
    if (text.dataset.ink !== want) text.dataset.ink = want;
  }
}

/**
 * On a touch screen Plotly makes a click only where the finger had shown the hover label, so a tap on a tile first
 * showed its label and only a second tap opened it: a chart that takes clicks is hovered where the finger lands first.
 * @param {Plotly} Plotly
 * @param {Chart} chart
 */
function tapOpens(Plotly, chart) {
  if (tapping.has(chart) || !Plotly.Fx || !String(chart._fullLayout?.clickmode || "").includes("event")) return;
  tapping.add(chart);
  chart.addEventListener(
    "touchstart",
    (/** @type {TouchEvent} */ event) => {
      const touch = event.touches?.[0];
      const target = event.target instanceof Element ? event.target.closest(".nsewdrag") : null;
      if (touch && target) Plotly.Fx.hover(chart, { clientX: touch.clientX, clientY: touch.clientY, target }, "xy");
    },
    { capture: true, passive: true },
  );
}

/** @type {WeakMap<Chart, HTMLElement[]>} */
const lifted = new WeakMap();
/** The charts whose taps open what they tap, and whose drawings are heard (a chart's own div is Plotly's and React's). */
const tapping = new WeakSet();
const heard = new WeakSet();

/**
 * Streamlit fixes the height of the chart's box and of the boxes around it to the height the server sent; a chart grown
 * here (its title moved under the toolbar) drew past them, cut at its bottom. Those boxes are held at least as tall as
 * the chart after every drawing (and let go when it shrinks).
 * @param {Chart} chart
 */
function holdBoxes(chart) {
  for (const node of lifted.get(chart) || []) node.style.minHeight = "";
  const height = chart._fullLayout?.height;
  const nodes = [];
  let node = boxOf(chart);
  for (
    let up = 0;
    height && node && node !== chart && up < 3;
    up++, node = /** @type {HTMLElement} */ (node.parentElement)
  ) {
    if (node.getBoundingClientRect().height >= height - 1) continue;
    node.style.minHeight = `${height}px`;
    nodes.push(node);
  }
  lifted.set(chart, nodes);
}

/**
 * What follows every drawing of a chart, and its redraws.
 * @param {Plotly} Plotly
 * @param {Chart} chart
 */
function drawn(Plotly, chart) {
  holdBoxes(chart);
  ink(chart);
  chartParts(chart);
  tapOpens(Plotly, chart);
  if (heard.has(chart) || !chart.on) return;
  heard.add(chart);
  let soon = 0;
  chart.on("plotly_afterplot", () => {
    holdBoxes(chart);
    ink(chart);
    chartParts(chart);
    cancelAnimationFrame(soon);
    soon = requestAnimationFrame(() => fitTitle(Plotly, chart));
  });
}

/** @param {any} trace Plotly's figure data, without the keys Plotly adds (_...) */
function traceText(trace) {
  return JSON.stringify(trace, (key, value) => (key.startsWith("_") ? undefined : value));
}

/** @param {any[]} a @param {any[]} b @returns {boolean} the same traces */
function sameData(a, b) {
  return (
    Array.isArray(a) &&
    Array.isArray(b) &&
    a.length === b.length &&
    a.every((trace, i) => trace === b[i] || traceText(trace) === traceText(b[i]))
  );
}

/**
 * Only charts on or near the screen are drawn: Plotly takes a third of a second for a 40 × 40 heatmap on a school
 * laptop. A chart waits (its height kept) until it comes within half a screen of the view, and one that went off the
 * screen is drawn again only when it comes back.
 * @param {Plotly} Plotly
 */
function drawNearTheScreen(Plotly) {
  const react = Plotly.react;
  const purge = Plotly.purge;
  /** @type {Map<Chart, () => void>} */
  const waiting = new Map();
  /** @type {WeakMap<Element, Chart>} */
  const charts = new WeakMap();
  /** @type {Map<Element | null, IntersectionObserver>} */
  const observers = new Map();
  /** @param {Element} place */
  const watcher = (place) => {
    const root = place.closest("[data-testid=stMain]"); // near means within half a screen of what the main area shows
    if (!observers.has(root)) {
      const near = new IntersectionObserver(
        (entries) => {
          for (const entry of entries) if (entry.isIntersecting) draw(charts.get(entry.target));
        },
        { root, rootMargin: "50% 0px" },
      );
      observers.set(root, near);
    }
    return /** @type {IntersectionObserver} */ (observers.get(root));
  };
  /** @param {Chart | undefined} chart */
  const draw = (chart) => {
    const go = chart && waiting.get(chart);
    if (!go) return;
    waiting.delete(chart);
    delete chart.dataset.waiting;
    go();
  };
  const texts = { corner: said("tables.corner"), along: said("tables.along") };
  /** @param {Chart} chart @param {any} figure @param {any[]} rest */
  const now = (chart, figure, rest) =>
    react.call(Plotly, chart, fitted(chart, figure), ...rest).then((/** @type {unknown} */ result) => {
      drawn(Plotly, chart);
      requestAnimationFrame(() => fitTitle(Plotly, chart));
      return result;
    });
  Plotly.react = (/** @type {Chart} */ chart, /** @type {any} */ figure, /** @type {any[]} */ ...rest) => {
    try {
      showNumbers(boxOf(chart), figure, texts);
    } catch (error) {
      console.error("attention-numbers", error); // never stops a chart being drawn
    }
    if (chart._fullLayout && figure && sameData(figure.data, chart.data)) return now(chart, figure, rest); // sized again
    return new Promise((resolve, reject) => {
      const place = boxOf(chart);
      const height = figure?.layout?.height;
      if (!chart._fullLayout && height) place.style.minHeight = `${height}px`; // the page does not jump when it is drawn
      const near = watcher(place);
      waiting.set(chart, () => {
        near.unobserve(place);
        place.style.minHeight = "";
        now(chart, figure, rest).then(resolve, reject);
      });
      charts.set(place, chart);
      chart.dataset.waiting = ""; // for the tests and the benchmark: drawn when it comes near
      near.observe(place);
    });
  };
  Plotly.purge = function (/** @type {Chart} */ chart) {
    for (const near of observers.values()) near.unobserve(boxOf(chart));
    waiting.delete(chart);
    delete chart.dataset.waiting;
    return purge.call(this, chart);
  };
  const drawAll = () => {
    const all = [...waiting.keys()];
    for (const chart of all) draw(chart);
    return all.length;
  };
  /** @type {any} */ (window).__attentionCharts.drawAll = drawAll;
  window.addEventListener("beforeprint", drawAll); // a printed page has every chart
  redrawEarlier(Plotly, purge);
}

/**
 * Streamlit may have loaded Plotly and drawn a chart before this script ran (a component, mounted first but loaded apart):
 * such a chart is drawn again through the above; one far from the screen is put away until it comes near.
 * @param {Plotly} Plotly
 * @param {(chart: Chart) => void} purge
 */
function redrawEarlier(Plotly, purge) {
  for (const chart of /** @type {NodeListOf<any>} */ (document.querySelectorAll(".js-plotly-plot"))) {
    if (!chart._fullLayout || !Array.isArray(chart.data)) continue;
    const figure = { data: chart.data, layout: chart.layout, config: chart._context };
    const view = chart.closest("[data-testid=stMain]")?.getBoundingClientRect();
    const at = chart.getBoundingClientRect();
    const margin = view ? view.height / 2 : 0;
    if (view && (at.bottom < view.top - margin || at.top > view.bottom + margin)) {
      const height = chart.layout?.height;
      purge.call(Plotly, chart);
      if (height) boxOf(chart).style.minHeight = `${height}px`;
    }
    Plotly.react(chart, figure).catch(() => {});
  }
}

/**
 * The toolbar in Chinese: a chart of a Chinese page has config.locale "zh-CN" (views/widgets/charts.plotly_config).
 * @param {Plotly} Plotly
 */
function chineseToolbar(Plotly) {
  const texts = catalogue();
  const english = texts.en || {};
  const chinese = texts.zh || {};
  /** @type {Record<string, string>} */
  const dictionary = {};
  for (const key of Object.keys(english))
    if (key.startsWith("plotly.") && chinese[key]) dictionary[english[key]] = chinese[key];
  Plotly.register?.({ moduleType: "locale", name: "zh-CN", dictionary });
}

/** Every chart drawn as above, from the moment Streamlit loads Plotly (or now, where it has). */
export function installCharts() {
  const host = /** @type {any} */ (window);
  if (host.__attentionCharts) return;
  host.__attentionCharts = { drawAll: () => 0 };
  /** @param {Plotly} Plotly */
  const take = (Plotly) => {
    if (!Plotly || Plotly.__attentionLazy) return;
    Plotly.__attentionLazy = true;
    chineseToolbar(Plotly);
    drawNearTheScreen(Plotly);
  };
  if (host.Plotly) {
    take(host.Plotly);
    return;
  }
  /** @type {Plotly} */
  let plotly;
  Object.defineProperty(host, "Plotly", {
    configurable: true,
    get: () => plotly,
    set: (value) => {
      plotly = value;
      take(value);
    },
  });
}
