// Streamlit's widgets where a class or a keyboard trips on them, and the skip link. None has a public option.

import { afterChanges, repair } from "./repair.js";
import { said } from "./texts.js";

/**
 * A help "?" inside a switch's label shows its help and never flips the switch (on touch, a tap on it did): the events
 * stop at the "?", and a click opens the help as a hover would (after the touch, which hover handlers ignore).
 */
function helpInLabels() {
  /** @param {EventTarget | null} target */
  const helpOf = (target) => {
    const help = target instanceof Element ? target.closest("[data-testid=stTooltipHoverTarget] button") : null;
    return help?.closest("label") ? help : null;
  };
  for (const type of ["pointerdown", "pointerup", "mousedown", "mouseup", "touchstart", "touchend", "click"]) {
    document.addEventListener(
      type,
      (event) => {
        const help = helpOf(event.target);
        if (!help) return;
        event.stopPropagation();
        if (type !== "click") return;
        event.preventDefault();
        setTimeout(() => {
          for (const over of ["pointerover", "pointerenter", "mouseover", "mouseenter"]) {
            const Kind = over.startsWith("pointer") ? PointerEvent : MouseEvent;
            help.dispatchEvent(new Kind(over, { bubbles: !over.endsWith("enter"), pointerType: "mouse" }));
          }
        }, 120);
      },
      true,
    );
  }
}

/**
 * The live class's answers are sent as soon as one is chosen (views/live/phone.py): on a phone a tap chooses. The arrow
 * keys, which choose the next option of a radio group as they move, only move here; Space or Enter chooses (a keyboard
 * never sends an answer on its way to another).
 */
function answersChosenOnPurpose() {
  document.addEventListener(
    "keydown",
    (event) => {
      const radio = event.target;
      if (!(radio instanceof HTMLInputElement) || !radio.matches("[class*=st-key-live-answer-] input[type=radio]"))
        return;
      if (event.key === "Enter") {
        event.preventDefault();
        event.stopPropagation();
        if (!radio.checked) radio.click();
        return;
      }
      /** @type {Record<string, number>} */
      const moves = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
      const step = moves[event.key];
      if (!step) return;
      event.preventDefault();
      event.stopPropagation(); // nor Baseweb's own handler
      const all = [
        .../** @type {NodeListOf<HTMLInputElement>} */ (
          radio.closest("[role=radiogroup]")?.querySelectorAll("input[type=radio]") || []
        ),
      ];
      all[(all.indexOf(radio) + step + all.length) % all.length]?.focus();
    },
    true,
  );
}

/** @returns {HTMLElement | null} the step component's Next (or Previous on its last step), inside its shadow root */
function stepButton() {
  for (const host of document.querySelectorAll("[data-testid=stBidiComponentIsolated]")) {
    const next = /** @type {HTMLElement | null} */ (
      host.shadowRoot?.querySelector(".bar:not([hidden]) .nav.next") || null
    );
    if (!next) continue;
    if (host.id !== "attention-steps" && !document.getElementById("attention-steps")) host.id = "attention-steps";
    return next;
  }
  return null;
}

/**
 * A skip link to the step's Next, after Streamlit's "Skip to main content": on a page with steps, Tab, Tab, Enter puts
 * the focus on Next (on the last step too: it says it is the last, and Enter goes nowhere). Its target is the step
 * component's box (a link to a place in the page, as axe's region rule expects).
 */
function skipToSteps() {
  const skip = document.createElement("a");
  skip.href = "#attention-steps";
  skip.className = "attention-skip";
  skip.hidden = true;
  skip.addEventListener("click", (event) => {
    event.preventDefault();
    stepButton()?.focus();
  });
  afterChanges(() => {
    const theirs = document.querySelector("[data-testid=stSkipToContent]");
    if (theirs && theirs.nextElementSibling !== skip) theirs.after(skip);
    else if (!theirs && document.body && !skip.isConnected) document.body.prepend(skip); // theirs not drawn yet
    const words = said("page.skip_steps");
    if (skip.textContent !== words) skip.textContent = words;
    const none = !stepButton();
    if (skip.hidden !== none) skip.hidden = none;
  });
}

/**
 * Nothing leaves the server: a page's Material icon becomes the tab's icon through an SVG on fonts.gstatic.com, which
 * Streamlit fetches when the page opens (st.Page has no option against it). The tab keeps the app's own icon
 * (set_page_config) instead.
 */
function ownIcon() {
  const href = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(HTMLLinkElement.prototype, "href"));
  Object.defineProperty(HTMLLinkElement.prototype, "href", {
    configurable: true,
    get() {
      return href.get?.call(this);
    },
    set(value) {
      if (this.rel === "shortcut icon" && String(value).startsWith("https://fonts.gstatic.com/")) return;
      href.set?.call(this, value);
    },
  });
}

/**
 * A slider's name said once: Streamlit's slider (React Aria) names its input by its own aria-label and then by its group's
 * (aria-labelledby="input group"), both the label's words, so a screen reader heard "d_k (size of each query and key)
 * d_k (size of each query and key)". Without the aria-labelledby its aria-label names it, once; its label's help stays.
 */
function slidersNamedOnce() {
  repair(
    "[data-testid=stSlider] input[type=range][aria-labelledby][aria-label]",
    (input) => {
      const ids = (input.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean);
      const words = ids.map((id) => document.getElementById(id)?.getAttribute("aria-label") || "");
      const label = input.getAttribute("aria-label");
      if (ids.length > 1 && words.every((said) => said === label)) input.removeAttribute("aria-labelledby");
    },
    ["aria-labelledby"],
  );
}

/** The widgets' repairs and the skip link, installed once. */
export function installWidgets() {
  ownIcon();
  helpInLabels();
  answersChosenOnPurpose();
  skipToSteps();
  slidersNamedOnce();
}
