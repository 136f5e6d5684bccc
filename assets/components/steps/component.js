// The step component's entry (views/widgets/steps.py mounts it): Streamlit calls the default export with each payload;
// one Steps per mounted component (steps.js), and the ← → keys for the one on screen.

import { element } from "../common.js";
import { mounted, Steps } from "./steps.js";

/** @typedef {import("./steps.js").Send} Send */

/**
 * ← and → step the component on screen (not while typing, on a slider, in a list, in a chart's toolbar, a table's
 * cells or the presenter's dialog, whose arrow keys are their own).
 * @param {KeyboardEvent} event
 */
function stepKeys(event) {
  /** @type {Record<string, number>} */
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  const by = moves[event.key];
  if (!by || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const target = event.composedPath()[0];
  const own =
    "input:not([type=checkbox]), textarea, select, [contenteditable=true], [role=slider], [role=radiogroup], [role=toolbar], td, [role=dialog]";
  if (target instanceof Element && target.closest(own)) return;
  const steps = [...mounted].find(
    (each) => each.root.isConnected && each.loaded && !(each.view.all && !each.projector()),
  );
  if (!steps) return;
  event.preventDefault();
  steps.move(by);
}

const KEYS_ON = "__attentionStepKeys";
if (!(/** @type {any} */ (window)[KEYS_ON])) {
  /** @type {any} */ (window)[KEYS_ON] = true;
  document.addEventListener("keydown", stepKeys);
}

/**
 * Streamlit's component entry: mounted (or given new data) with its payload; returns what unmounts it.
 * @param {{data: Uint8Array | null, parentElement: HTMLElement, setStateValue: Send, setTriggerValue: Send}} component
 */
export default function (component) {
  const { data, parentElement, setStateValue, setTriggerValue } = component;
  const root = /** @type {HTMLElement & {steps?: Steps}} */ (
    parentElement.querySelector(".steps-root") || parentElement.appendChild(element("div", { class: "steps-root" }))
  );
  root.steps = root.steps || new Steps(root);
  const steps = root.steps;
  if (data?.byteLength) steps.load(data, setStateValue, setTriggerValue);
  return () => steps.destroy();
}
