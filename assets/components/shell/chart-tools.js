// A chart as a keyboard and a screen reader meet it. Plotly's SVG layers (the marks, the axes' numbers, the titles) are
// hidden from a screen reader, which read them as unnamed images of numbers: the chart's box names it and holds its
// numbers as a table (chart-tables.js). Its toolbar (PNG, zoom, reset, full screen) is one Tab stop, not five: an ARIA
// toolbar named "Chart tools" with a roving tabindex (← → Home End move along it). Full screen keeps the Tab key inside
// the chart, and the focus returns to the chart's full-screen button. Plotly and Streamlit have no option for these.

import { FOCUSABLE, moveFocus } from "./focus.js";
import { translateWithin } from "./language.js";
import { catalogue, said } from "./texts.js";

const BUTTON = ".modebar-btn";

/**
 * The toolbar's Tab stop on ``chosen`` (a button of ``bar``), or where it was: kept on the chart's box, which outlives a
 * toolbar drawn again.
 * @param {Element} bar
 * @param {Element | null} [chosen]
 */
export function rove(bar, chosen = null) {
  const name = said("page.chart_tools");
  if (bar.getAttribute("role") !== "toolbar") bar.setAttribute("role", "toolbar");
  if (name && bar.getAttribute("aria-label") !== name) bar.setAttribute("aria-label", name);
  const buttons = [...bar.querySelectorAll(BUTTON)];
  if (!buttons.length) return;
  const keeper = /** @type {HTMLElement} */ (bar.closest("[data-testid=stPlotlyChart]") || bar);
  if (chosen && buttons.includes(chosen)) keeper.dataset.tool = String(buttons.indexOf(chosen));
  const kept = buttons[Math.min(Number(keeper.dataset.tool || 0), buttons.length - 1)];
  const current =
    (chosen && buttons.includes(chosen) ? chosen : null) ||
    buttons.find((button) => button === document.activeElement) ||
    kept;
  for (const button of buttons) {
    const want = button === current ? "0" : "-1";
    if (button.getAttribute("tabindex") !== want) button.setAttribute("tabindex", want);
  }
}

/**
 * A chart's parts as a screen reader and the keyboard meet them, once Plotly has drawn it (charts.js calls this after
 * every drawing: the repairs leave Plotly's drawing alone, repair.js): its layers hidden, its toolbar one named Tab stop,
 * in the page's language.
 * @param {Element} chart
 */
export function chartParts(chart) {
  for (const layer of chart.querySelectorAll("svg.main-svg, .gl-container, .modebar-btn svg")) {
    if (layer.getAttribute("aria-hidden") !== "true") layer.setAttribute("aria-hidden", "true");
  }
  for (const bar of chart.querySelectorAll(".modebar")) {
    translateWithin(bar);
    rove(bar);
  }
}

/** @returns {Set<string>} the full-screen buttons' names, in every language */
function screenTitles() {
  const names = Object.values(catalogue()).flatMap((texts) => [
    texts["streamlit.fullscreen"],
    texts["streamlit.close_fullscreen"],
  ]);
  return new Set(names.filter(Boolean));
}

/** @param {Element} button @param {Set<string>} titles */
function named(button, titles) {
  return titles.has(button.getAttribute("data-title") || "") || titles.has(button.getAttribute("aria-label") || "");
}

/**
 * @param {Element} place a chart's element box
 * @returns {HTMLElement | null} its full-screen button
 */
function screenButton(place) {
  const titles = screenTitles();
  return /** @type {HTMLElement | null} */ (
    [...place.querySelectorAll(BUTTON)].find((button) => named(button, titles)) || null
  );
}

/** @returns {Element | null} the frame of the chart shown full screen (its toolbar has the button that closes it) */
function screenShown() {
  const closing = new Set(
    Object.values(catalogue())
      .map((texts) => texts["streamlit.close_fullscreen"])
      .filter(Boolean),
  );
  const button = [...document.querySelectorAll(BUTTON)].find((each) => named(each, closing));
  return button
    ? button.closest("[data-testid=stFullScreenFrame]") || button.closest("[data-testid=stElementContainer]")
    : null;
}

/**
 * Full screen (Streamlit's button in Plotly's toolbar) draws the chart again, and the focus fell to the page: it goes to
 * the same chart's button that closes (or opens) full screen, after the button and after Escape.
 * @param {Event} event
 */
function fullScreen(event) {
  const keyboard = event instanceof KeyboardEvent;
  const closing = keyboard && event.key === "Escape";
  const target = event.target instanceof Element ? event.target : null;
  const button = target?.closest(BUTTON) || null;
  if (keyboard && !closing && !((event.key === "Enter" || event.key === " ") && button)) return;
  const place =
    (closing ? screenShown() : null)?.closest("[data-testid=stElementContainer]") ||
    (button || (keyboard ? target : null))?.closest("[data-testid=stElementContainer]");
  const own = place ? screenButton(place) : null;
  if (!place || !own || (button && !closing && button !== own)) return;
  moveFocus(() => screenButton(place), { ms: 2500, always: true, still: true });
}

/** @param {KeyboardEvent} event Tab and Shift+Tab go round the full-screen chart's own stops, never to the page under it */
function trapInFullScreen(event) {
  if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
  const frame = screenShown();
  if (!frame) return;
  const stops = [.../** @type {NodeListOf<HTMLElement>} */ (frame.querySelectorAll(FOCUSABLE))].filter(
    (node) => node.tabIndex >= 0 && node.getClientRects().length && !node.closest("[inert]"),
  );
  if (!stops.length) return;
  event.preventDefault();
  const at = stops.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  const by = event.shiftKey ? -1 : 1;
  stops[at < 0 ? (by > 0 ? 0 : stops.length - 1) : (at + by + stops.length) % stops.length].focus();
}

/** @param {KeyboardEvent} event ← → Home End move along a chart's toolbar, round from the last to the first */
function walkToolbar(event) {
  const button = event.target instanceof Element ? event.target.closest(BUTTON) : null;
  const bar = button?.closest(".modebar");
  /** @type {Record<string, number | "first" | "last">} */
  const moves = { ArrowRight: 1, ArrowLeft: -1, Home: "first", End: "last" };
  const by = moves[event.key];
  if (!button || !bar || !by || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const buttons = /** @type {HTMLElement[]} */ ([...bar.querySelectorAll(BUTTON)]);
  const at = buttons.indexOf(/** @type {HTMLElement} */ (button));
  const to =
    buttons[by === "first" ? 0 : by === "last" ? buttons.length - 1 : (at + by + buttons.length) % buttons.length];
  event.preventDefault();
  event.stopPropagation(); // never the step component's ← → at the same time
  rove(bar, to);
  to.focus();
}

/** The keys of a chart's toolbar and of full screen. */
export function installChartTools() {
  document.addEventListener("click", fullScreen, true);
  document.addEventListener("keydown", fullScreen, true);
  document.addEventListener("keydown", trapInFullScreen, true);
  document.addEventListener("keydown", walkToolbar, true);
  document.addEventListener(
    "focusin",
    (event) => {
      const button = event.target instanceof Element ? event.target.closest(BUTTON) : null;
      const bar = button?.closest(".modebar");
      if (button && bar) rove(bar, button);
    },
    true,
  );
}
