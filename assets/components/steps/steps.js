// The step component (views/widgets/steps.py): every step of a view arrives once, as bytes; the browser steps through
// them. Choosing a step, a head or a word, numbers on and off, every step at once, hovering a cell and Predict first's
// hiding and reveal never go to the server. The browser keeps the link current (history.replaceState) and remembers the
// view per page in sessionStorage, so a rerun, a page visit or a reload keeps it; a link opened (a new token from the
// server) sets it again. Matrices are HTML tables: one Tab stop each, arrow keys walk the cells, a screen reader reads
// them once.
//
// This file holds the component's state (one Steps per mounted component) and how the view changes; the files beside
// it draw (draw.js, controls.js, dialog.js, blocks.js, contrast.js, matrix.js, cells.js, focus.js, predict.js, fit.js,
// export.js with latex.js); component.js is Streamlit's entry, joined by attention_plot/javascript.py (no bundler).

import { COMMITTED, element, fill, readStore, replaceLink, STEPS_DRAWN, VIEW_STORE, writeStore } from "../common.js";
import { Tooltip } from "./cells.js";
import { contrastWords } from "./contrast.js";
import { Choices } from "./dialog.js";
import { buildSkeleton, drawView, figureOf, widthChanged } from "./draw.js";
import { fillDownloads } from "./export.js";
import { scrollsSideways } from "./fit.js";
import { FocusArea } from "./focus.js";
import { focusedPart, focusPart, keepTyping, typingNow } from "./kept.js";
import { decode } from "./payload.js";
import { clampView, linkValues, linkWith, openingView, walkName } from "./view.js";

/** @typedef {import("./payload.js").Header} Header */
/** @typedef {import("./payload.js").View} View */
/** @typedef {(name: string, value: unknown) => void} Send Streamlit's setStateValue or setTriggerValue */

/**
 * @typedef {object} Controls the controls a change of the view updates
 * @property {HTMLInputElement} [sentence]
 * @property {Partial<Record<"values" | "all" | "predict" | "hands", HTMLInputElement>>} switches
 * @property {HTMLButtonElement[]} heads
 * @property {HTMLSelectElement[]} words
 * @property {HTMLSelectElement} [select] the step list
 * @property {HTMLButtonElement} [previous]
 * @property {HTMLButtonElement} [next]
 * @property {HTMLElement} [short] the step in brief over a narrow list
 */

/** The components on the page, for the ← / → keys. */
export const mounted = new Set();

export class Steps {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {Header} */
    this.header = /** @type {Header} */ ({});
    /** @type {Float64Array<ArrayBufferLike>} */
    this.values = new Float64Array(0);
    /** @type {Record<string, string>} */
    this.texts = {};
    /** @type {View} */
    this.view = { step: 1, head: 1, focus: 1, values: true, all: false, predict: false, hands: false };
    /** @type {Controls} */
    this.controls = { switches: {}, heads: [], words: [] };
    /** @type {Map<string, HTMLElement>} built step contents, by step, head, numbers, hiding, width and row cap */
    this.cache = new Map();
    this.loaded = false;
    this.width = 0; // the steps' width, px
    this.rowCap = 0; // a projector's rows fitted to its height (0: not fitted)
    this.capHeight = 0; // the screen's height they were fitted to
    this.fitting = false;
    this.hiding = false; // Predict first hides the answer's matrices
    /** @type {string | null} a walk or layer just chosen: said with the step it opens on */
    this.asked = null;
    /** @type {string | null} the text the box sent last (not sent twice) */
    this.sentText = null;
    this.resent = false; // the text was sent again once (a trigger lives one run, which another control may cut)
    /** @type {Send | null} */
    this.setState = null;
    /** @type {Send | null} */
    this.setTrigger = null;
    /** @type {string | null} the head, word and hands-on state the server heard last */
    this.reported = null;
    this.reporting = 0;
    this.prebuilding = 0;
    /** @type {HTMLElement | null} */ this.top = null;
    /** @type {HTMLElement | null} */ this.main = null;
    /** @type {HTMLElement | null} */ this.question = null;
    /** @type {HTMLElement | null} */ this.stepBarNode = null;
    /** @type {FocusArea | null} */ this.focusArea = null;
    this.tip = new Tooltip(() => ({ header: this.header, values: this.values }));
    this.dialog = new Choices(this);
    // The live region stays in the page from the first payload on: a region drawn anew is not heard.
    this.announcer = element("div", { class: "sr-only", "aria-live": "polite", "aria-atomic": "true" });
    this.resizes = new ResizeObserver(() => this.resized());
    this.pressed = (/** @type {PointerEvent} */ event) => this.dialog.pressed(event);
  }

  // ---- Loading a payload ----

  /**
   * Show a new payload: the view kept for the page (or the server's), the control the keyboard was on, the words being
   * typed and the presenter's open dialog stay as they were.
   * @param {Uint8Array} bytes
   * @param {Send} setState
   * @param {Send} setTrigger
   */
  load(bytes, setState, setTrigger) {
    this.setState = setState;
    this.setTrigger = setTrigger;
    const typing = typingNow(this);
    const choosing = this.dialog.isOpen();
    const part = focusedPart(this);
    const asked = this.asked;
    const walkBefore = this.loaded ? walkName(this.header) : null;
    this.asked = null;
    const { header, values } = decode(bytes);
    this.header = header;
    this.values = values;
    this.texts = header.texts;
    this.loaded = true;
    this.cache.clear();
    this.rowCap = 0;
    this.dialog.reset();
    this.view = openingView(header, readStore(VIEW_STORE + header.page));
    const received = header.sentence ? header.sentence.text === this.sentText?.slice(0, header.sentence.max) : false;
    if (this.sentText !== null && received) {
      this.sentText = null;
      document.dispatchEvent(new CustomEvent(COMMITTED)); // a menu click held for these words goes on
    } else if (this.sentText !== null && !this.resent) {
      this.resent = true; // numbers without the words sent: their run may have been cut short; asked once more
      this.trigger("text", this.sentText);
    }
    this.build();
    keepTyping(this, typing);
    if (!header.steps.length) return;
    this.update();
    if (choosing && this.stepBarNode) this.dialog.open(part);
    else if (part) focusPart(this, part);
    // Another walk or layer chosen here: the step it opens on is said after the choice itself.
    if (asked && walkBefore !== null && walkBefore !== walkName(header))
      this.say(`${asked} \u2014 ${this.stepWords(this.view.step)}`);
    this.save();
    this.report();
    mounted.add(this);
    document.dispatchEvent(new CustomEvent(STEPS_DRAWN));
  }

  /** @returns {boolean} presenter mode: one step at a time, its choices in a dialog */
  projector() {
    return this.header.layout === "projector";
  }

  // ---- Changing the view ----

  /**
   * @param {Partial<View>} changes
   * @param {string} [announce] said in the live region
   */
  set(changes, announce) {
    this.view = clampView({ ...this.view, ...changes }, this.header);
    this.save();
    this.update();
    this.report();
    if (announce) this.say(announce);
  }

  /** @param {number} by -1: Previous, 1: Next */
  move(by) {
    const to = this.view.step + by;
    const total = this.header.steps.length;
    if (to < 1 || to > total) this.say(to < 1 ? this.texts.first_step : this.texts.last_step);
    else this.set({ step: to }, this.stepSaid(to));
  }

  /**
   * Ask the server for something it must do (new numbers, a guess kept, a live class asked).
   * @param {string} name
   * @param {unknown} value
   */
  trigger(name, value) {
    this.setTrigger?.(name, value);
  }

  /**
   * Send the sentence in the box, unless it is the sentence shown or was just sent.
   * @param {string} text
   * @returns {boolean} whether it was sent
   */
  sendText(text) {
    const shown = this.header.sentence?.text;
    if (text === shown || text === this.sentText) return false;
    this.sentText = text;
    this.resent = false;
    this.trigger("text", text);
    return true;
  }

  /** @param {string} text said by a screen reader (emptied first: the same words twice are said twice) */
  say(text) {
    this.announcer.textContent = "";
    requestAnimationFrame(() => {
      this.announcer.textContent = text;
    });
  }

  /** The view kept for the page (with the token it was chosen under) and in the link. */
  save() {
    const url = linkValues(this.view, this.header);
    writeStore(VIEW_STORE + this.header.page, {
      token: this.header.token,
      variant: this.header.variant,
      view: this.view,
      url,
    });
    const to = linkWith(window.location.href, url, this.header.heads);
    if (to) replaceLink(to);
  }

  /** The server hears of the word and the head only while a part that needs them is open (hands-on, a live class). */
  report() {
    const { head, focus, hands } = this.view;
    if (!this.setState || !(hands || this.header.teaching)) {
      this.reported = null;
      return;
    }
    const said = JSON.stringify([head, focus, hands]);
    if (said === this.reported) return;
    this.reported = said;
    clearTimeout(this.reporting);
    this.reporting = window.setTimeout(() => this.setState?.("report", { head, focus, hands }), 120);
  }

  /**
   * "Step 5 of 6: Softmax"; on a projector, which has no head buttons in view, with the head the room sees.
   * @param {number} step
   * @returns {string}
   */
  stepWords(step) {
    const { header, texts } = this;
    const words = fill(texts.step_of, {
      number: step,
      total: header.steps.length,
      title: header.steps[step - 1].title,
    });
    if (!this.projector() || header.heads < 2 || !texts.head_of) return words;
    return `${words} \u00b7 ${fill(texts.head_of, { head: this.view.head, heads: header.heads })}`;
  }

  /** @param {number} step @returns {string} the step's words, and in compare mode what changed for the focused word */
  stepSaid(step) {
    const { head, focus } = this.view;
    const changed = contrastWords(this.header.steps[step - 1], this.values, this.texts, head, focus);
    return changed ? `${this.stepWords(step)} \u2014 ${changed}` : this.stepWords(step);
  }

  // ---- Drawing (draw.js) ----

  /** The skeleton, built once per payload; update() changes what a choice changes. */
  build() {
    buildSkeleton(this);
  }

  /** What a change of the view changes. */
  update() {
    drawView(this);
  }

  /** Everything drawn again (a guess revealed or taken back). */
  redraw() {
    this.cache.clear();
    this.focusArea?.stale();
    this.update();
  }

  /**
   * A matrix of the payload as a figure ``width`` px wide.
   * @param {string} id
   * @param {number} width
   * @returns {HTMLElement}
   */
  figure(id, width) {
    return figureOf(this, id, width);
  }

  /** @param {HTMLDetailsElement} menu */
  fillDownloads(menu) {
    fillDownloads(this, menu);
  }

  /** @param {HTMLElement} box */
  sideways(box) {
    scrollsSideways(box, this.texts);
  }

  /** The steps' width changed: drawn again for it. */
  resized() {
    widthChanged(this);
  }

  destroy() {
    this.resizes.disconnect();
    mounted.delete(this);
    document.removeEventListener("pointerdown", this.pressed, true);
  }
}
