// What stays as a new payload arrives (another walk, a slider moved, a rerun): the words being typed in the sentence
// box with their caret, and the control the keyboard was on, which the skeleton built again gives the focus back to.

/** @typedef {import("./steps.js").Steps} Steps */
/** @typedef {{value: string, was: string, focused: boolean, start: number | null, end: number | null}} Typing */

/**
 * @param {Steps} steps
 * @returns {string | null} the control the keyboard is on (its data-part), to give it the focus again once rebuilt
 */
export function focusedPart(steps) {
  const active = /** @type {Document | ShadowRoot} */ (steps.root.getRootNode()).activeElement;
  const part = active && steps.top?.contains(active) ? active.closest("[data-part]") : null;
  return part ? part.getAttribute("data-part") : null;
}

/**
 * The focus on the control of ``part`` (the one chosen, where it is a group).
 * @param {Steps} steps
 * @param {string} part
 * @returns {boolean} whether a control of that part took the focus
 */
export function focusPart(steps, part) {
  const top = steps.top;
  const found = top && (top.querySelector(`[data-part="${part}"].on`) || top.querySelector(`[data-part="${part}"]`));
  const target = /** @type {HTMLElement | null} */ (found);
  if (!target?.getClientRects().length) return false;
  target.focus({ preventScroll: true });
  return true;
}

/**
 * @param {Steps} steps
 * @returns {Typing | null} what the sentence box holds now, and the sentence the server had shown
 */
export function typingNow(steps) {
  const box = steps.controls.sentence;
  const before = steps.loaded ? steps.header.sentence : null;
  if (!box || !before) return null;
  const focused = /** @type {Document | ShadowRoot} */ (box.getRootNode()).activeElement === box;
  return { value: box.value, was: before.text, focused, start: box.selectionStart, end: box.selectionEnd };
}

/**
 * Words typed in the box and not yet sent stay there when other numbers arrive, and so does the caret; once the
 * server's sentence changed (sent, or another walk), the box shows it.
 * @param {Steps} steps
 * @param {Typing | null} typing
 */
export function keepTyping(steps, typing) {
  const box = steps.controls.sentence;
  const now = steps.header.sentence;
  if (!typing || !box || !now || now.text !== typing.was) return;
  box.value = typing.value;
  if (!typing.focused) return;
  box.focus({ preventScroll: true });
  box.setSelectionRange(typing.start, typing.end);
}
