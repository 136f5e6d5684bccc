// Presenter mode's choices (the walk, the layer, the head, the word, Predict first and the way out) in a dialog opened by
// the step bar's ⚙ button. Tab from its last control closes it and goes on to Next; Shift+Tab from its first closes it
// and goes back to its button, as the page's other pop-overs do (WCAG 2.4.11: Tab never falls behind an open dialog).

import { element } from "../common.js";
import { headChoice, switchControl, walkChoice, wordChoice } from "./controls.js";
import { askButton } from "./focus.js";
import { focusPart } from "./kept.js";

/** @typedef {import("./steps.js").Steps} Steps */

export class Choices {
  /** @param {Steps} steps */
  constructor(steps) {
    this.steps = steps;
    /** @type {HTMLElement | null} built with a payload's walks, heads and words, on first opening */
    this.node = null;
    /** @type {HTMLButtonElement | null} */
    this.opener = null;
  }

  /** Built again for a new payload (its walks, heads and words). */
  reset() {
    this.node = null;
    this.opener = null;
  }

  /** @returns {boolean} */
  isOpen() {
    return !!this.node && !this.node.hidden && this.node.isConnected;
  }

  /** @returns {HTMLButtonElement} the ⚙ button that opens and closes the dialog */
  button() {
    const label = this.steps.texts.choices;
    const button = element(
      "button",
      {
        type: "button",
        class: "nav choices-button",
        "aria-label": label,
        title: label,
        "aria-haspopup": "dialog",
        "aria-expanded": "false",
      },
      element("span", { "aria-hidden": "true", text: "\u2699" }),
    );
    button.addEventListener("click", () => (this.isOpen() ? this.close(true) : this.open()));
    this.opener = button;
    return button;
  }

  /**
   * Open the dialog; the focus goes to ``part`` (the control that had it before a new payload drew the dialog again),
   * else to its first control.
   * @param {string | null} [part]
   */
  open(part = null) {
    const steps = this.steps;
    if (!this.node) {
      this.node = this.build();
      steps.stepBarNode?.append(this.node);
      steps.update();
    }
    this.node.hidden = false;
    this.opener?.setAttribute("aria-expanded", "true");
    if (part && focusPart(steps, part)) return;
    const first = /** @type {HTMLElement | null} */ (this.node.querySelector("button.on, button, select, input"));
    first?.focus();
  }

  /** @param {boolean} refocus the focus goes back to the ⚙ button */
  close(refocus) {
    if (!this.node || this.node.hidden) return;
    this.node.hidden = true;
    this.opener?.setAttribute("aria-expanded", "false");
    if (refocus) this.opener?.focus();
  }

  /** @returns {HTMLElement} */
  build() {
    const steps = this.steps;
    const { header, texts } = steps;
    const word = header.tokens.length ? wordChoice(steps) : null;
    const predict = header.focus ? switchControl(steps, "predict", texts.predict, texts.predict_help) : null;
    const ask = header.focus && header.ask ? askButton(steps) : null; // the focused word's question, for the room
    // a saved file has no server to leave presenter mode with
    const leave = header.saved
      ? null
      : element("button", { type: "button", class: "plain", "data-part": "leave" }, texts.leave);
    leave?.addEventListener("click", () => steps.trigger("present", false));
    const close = element(
      "button",
      { type: "button", class: "close", "data-part": "close", "aria-label": texts.close },
      "\u00d7",
    );
    close.addEventListener("click", () => this.close(true));
    const head = element("div", { class: "dialog-head" }, element("strong", { text: texts.choices }), close);
    const node = element(
      "div",
      { class: "dialog", role: "dialog", "aria-label": texts.choices, hidden: true },
      head,
      ...walkChoice(steps),
      headChoice(steps),
      word,
      predict,
      ask,
      leave,
    );
    node.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        this.close(true);
      } else if (event.key === "Tab" && !event.altKey && !event.ctrlKey && !event.metaKey) this.tabOut(event);
    });
    return node;
  }

  /** @param {KeyboardEvent} event */
  tabOut(event) {
    if (!this.node) return;
    const stops = [
      .../** @type {NodeListOf<HTMLElement>} */ (this.node.querySelectorAll("button, select, input, [tabindex]")),
    ].filter(
      (node) =>
        node.tabIndex >= 0 && !(/** @type {HTMLButtonElement} */ (node).disabled) && node.getClientRects().length,
    );
    const edge = event.shiftKey ? stops[0] : stops[stops.length - 1];
    if (!stops.length || event.composedPath()[0] !== edge) return;
    event.preventDefault();
    event.stopPropagation();
    this.close(event.shiftKey);
    if (!event.shiftKey) this.steps.controls.next?.focus();
  }

  /**
   * A pointer pressed outside the dialog and its button closes it.
   * @param {PointerEvent} event
   */
  pressed(event) {
    if (!this.isOpen() || !this.node) return;
    const path = event.composedPath();
    if (!path.includes(this.node) && !(this.opener && path.includes(this.opener))) this.close(false);
  }
}
