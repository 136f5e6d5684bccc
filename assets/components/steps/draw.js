// Drawing the step component: its skeleton once per payload (controls, step bar, the area for the steps, the focus
// area), then what each change of the view changes (the controls' states, the step list, the steps shown), each step
// built once per view of it and kept, the steps next to it built while the browser is idle.

import { element } from "../common.js";
import { drawStep } from "./blocks.js";
import { walkCells } from "./cells.js";
import { stepBar, toolbar } from "./controls.js";
import { fitHeight, fitStepList, formulasReachable } from "./fit.js";
import { FocusArea } from "./focus.js";
import { matrixFigure } from "./matrix.js";
import { quiz, revealed } from "./predict.js";

/** @typedef {import("./steps.js").Steps} Steps */

/**
 * The skeleton, built once per payload (the box and its live region stay); drawView changes what a choice changes.
 * @param {Steps} steps
 */
export function buildSkeleton(steps) {
  const { header } = steps;
  const top = steps.top || element("div");
  steps.top = top;
  top.className = `steps ${steps.projector() ? "projector" : "screen"}`;
  top.setAttribute("lang", header.lang === "zh" ? "zh-Hans" : "en");
  for (const child of [...top.childNodes]) if (child !== steps.announcer) child.remove();
  if (steps.announcer.parentNode !== top) top.prepend(steps.announcer);
  if (top.parentNode !== steps.root) steps.root.replaceChildren(top);
  steps.controls = { switches: {}, heads: [], words: [] };
  steps.focusArea = null;
  if (!steps.projector()) top.append(toolbar(steps));
  if (!header.steps.length) {
    top.append(element("p", { class: "note info", html: header.message || "" }));
    return;
  }
  if (header.compare?.look && !steps.projector())
    top.append(element("p", { class: "note info look", html: header.compare.look })); // a compare preset's hint
  steps.stepBarNode = stepBar(steps);
  steps.question = element("div", { class: "question" });
  steps.main = element("div", { class: "main" });
  top.append(steps.stepBarNode, steps.question, steps.main);
  if (!steps.projector() && header.focus) {
    const area = element("section", { class: "focus" });
    steps.focusArea = new FocusArea(steps, area);
    top.append(area);
  }
  top.append(steps.tip.node);
  steps.width = Math.round(
    steps.main.clientWidth || /** @type {ShadowRoot} */ (steps.root.getRootNode()).host?.clientWidth || 700,
  );
  steps.resizes.disconnect();
  steps.resizes.observe(steps.main);
  document.addEventListener("pointerdown", steps.pressed, true); // once: the same listener is added once
  document.fonts?.ready.then(() => fitStepList(steps)); // measured again in the page's own fonts
  if (!top.dataset.listening) {
    top.dataset.listening = "";
    top.addEventListener("pointerdown", (event) => {
      if (!(event.target instanceof Element && event.target.closest("td, th"))) steps.tip.hide();
    });
  }
}

/**
 * What a change of the view changes: the controls' states, the step list, the steps shown, the focus area.
 * @param {Steps} steps
 */
export function drawView(steps) {
  const { header, view, controls } = steps;
  if (!steps.main || !steps.stepBarNode || !controls.select) return;
  for (const name of /** @type {const} */ (["values", "all", "predict"])) {
    const input = controls.switches[name];
    if (input) input.checked = view[name];
  }
  controls.heads.forEach((button, i) => {
    const on = i + 1 === view.head;
    button.setAttribute("aria-checked", on ? "true" : "false");
    button.className = on ? "on" : "";
    button.tabIndex = on ? 0 : -1;
  });
  for (const select of controls.words) select.value = String(view.focus);
  const every = view.all && !steps.projector();
  steps.stepBarNode.hidden = every;
  const options = header.steps.map((_, i) =>
    element("option", { value: i + 1, selected: i + 1 === view.step ? true : null }, steps.stepWords(i + 1)),
  );
  controls.select.replaceChildren(...options);
  controls.select.value = String(view.step);
  for (const [button, edge] of /** @type {const} */ ([
    [controls.previous, view.step === 1],
    [controls.next, view.step === header.steps.length],
  ])) {
    button?.setAttribute("aria-disabled", edge ? "true" : "false");
    button?.classList.toggle("edge", edge);
  }
  steps.hiding = view.predict && !revealed(steps);
  const shown = every ? header.steps.map((_, i) => i + 1) : [view.step];
  steps.main.replaceChildren(...shown.map((step, i) => stepNode(steps, step, i > 0)));
  steps.question?.replaceChildren(...(steps.projector() && view.predict ? [quiz(steps, true)] : []));
  steps.focusArea?.update();
  steps.tip.hide();
  prebuild(steps, shown);
  requestAnimationFrame(() => {
    if (steps.main) formulasReachable(steps.main);
    fitStepList(steps);
  });
  if (steps.projector() && !steps.fitting) requestAnimationFrame(() => fitHeight(steps));
}

/**
 * A step's contents, built once per view of it and kept.
 * @param {Steps} steps
 * @param {number} number
 * @param {boolean} divided drawn under another step (every step at once)
 * @returns {HTMLElement}
 */
function stepNode(steps, number, divided) {
  const word = steps.header.compare ? steps.view.focus : 0; // a compare step's contrast is the focused word's
  const key = [number, steps.view.head, word, steps.view.values, steps.hiding, steps.width, steps.rowCap].join("|");
  let node = steps.cache.get(key);
  if (!node) {
    node = drawStep(steps, steps.header.steps[number - 1]);
    steps.cache.set(key, node);
  }
  node.classList.toggle("divided", divided);
  return node;
}

/**
 * @param {Steps} steps
 * @param {number[]} shown the steps next to these are built while the browser is idle: Next only swaps them in
 */
function prebuild(steps, shown) {
  clearTimeout(steps.prebuilding);
  const near = [Math.min(...shown) - 1, Math.max(...shown) + 1].filter((n) => n >= 1 && n <= steps.header.steps.length);
  steps.prebuilding = window.setTimeout(() => {
    for (const n of near) stepNode(steps, n, false);
  }, 120);
}

/**
 * A matrix of the payload as a figure ``width`` px wide.
 * @param {Steps} steps
 * @param {string} id
 * @param {number} width
 * @returns {HTMLElement}
 */
export function figureOf(steps, id, width) {
  const { header } = steps;
  const matrix = header.matrices[id];
  const room = {
    width,
    projector: steps.projector(),
    font: header.font,
    rowCap: steps.rowCap,
    numbers: steps.view.values,
  };
  const events = {
    show: (/** @type {import("./payload.js").Matrix} */ shown, /** @type {HTMLTableCellElement} */ cell) =>
      steps.top && steps.tip.show(shown, cell, steps.top),
    hide: () => steps.tip.hide(),
    keys: (/** @type {KeyboardEvent} */ event, /** @type {HTMLTableElement} */ table) =>
      walkCells(event, table, steps.tip),
  };
  return matrixFigure(
    {
      matrix,
      id,
      values: steps.values,
      scale: header.scales[matrix.kind],
      room,
      hiddenNote: steps.texts.numbers_hidden,
    },
    events,
  );
}

/**
 * The steps' width changed: drawn again for it. Rows fitted to a projector's height stay so while that height stays.
 * @param {Steps} steps
 */
export function widthChanged(steps) {
  const width = Math.round(steps.main ? steps.main.clientWidth : 0);
  if (!steps.loaded || !width) return;
  if (Math.abs(width - steps.width) > 4) {
    // a scroll bar that comes and goes as the step fits changes the width: starting again from tall rows made the
    // step jump back and forth
    if (window.innerHeight !== steps.capHeight) steps.rowCap = 0;
    steps.width = width;
    steps.cache.clear();
    steps.update();
  } else if (steps.projector() && !steps.fitting) requestAnimationFrame(() => fitHeight(steps)); // drawn taller
}
