// Predict first: the class guesses which key the focused word attends to most, and how much, before the weights are
// shown. The guess is kept per walk, head and word (sessionStorage), so going back and forth keeps it.

import { element, fill, QUIZ_STORE, readStore, writeStore } from "../common.js";
import { cellText, numberText, units } from "../numbers.js";
import { rowAt } from "./payload.js";

/** @typedef {import("./steps.js").Steps} Steps */
/** @typedef {{guess?: number, amount?: number, revealed?: boolean}} Guess */

/** A guessed weight counts as right within this much of the true one. */
export const CLOSE_ENOUGH = 0.1;

/**
 * The key with the largest weight (the first of equals).
 * @param {ArrayLike<number>} weights
 * @returns {number}
 */
export function largest(weights) {
  let best = 0;
  for (let j = 1; j < weights.length; j++) if (weights[j] > weights[best]) best = j;
  return best;
}

/**
 * How a guess fares: the right key and a weight within 0.1 ("right"), the right key ("off_weight"), another key
 * ("wrong_key").
 * @param {ArrayLike<number>} weights the focused word's weights
 * @param {number} guess a key, counted from 0
 * @param {number} amount the guessed weight
 * @returns {"right" | "off_weight" | "wrong_key"}
 */
export function verdict(weights, guess, amount) {
  const best = largest(weights);
  if (guess !== best) return "wrong_key";
  return Math.abs(amount - weights[best]) <= CLOSE_ENOUGH + 1e-9 ? "right" : "off_weight";
}

/** A guess being made, not yet revealed, per walk, head and word: it outlives the quiz drawn again (a resize, a rerun). */
const drafts = new Map();

/** @param {Steps} steps */
function storeKey(steps) {
  return `${QUIZ_STORE}${steps.header.id}.${steps.view.head}.${steps.view.focus}`;
}

/**
 * The guess kept for the walk, head and word on screen.
 * @param {Steps} steps
 * @returns {Guess}
 */
export function guessOf(steps) {
  return readStore(storeKey(steps)) || {};
}

/** @param {Steps} steps */
export function revealed(steps) {
  return !!guessOf(steps).revealed;
}

/**
 * @param {Steps} steps
 * @param {Guess} guess
 */
function keep(steps, guess) {
  writeStore(storeKey(steps), guess);
  steps.redraw();
}

/**
 * The quiz for the focused word: the question, or once revealed the verdict, the guess and the answer. ``compact`` (a
 * projector): the verdict and the answer only, unless the weight was off.
 * @param {Steps} steps
 * @param {boolean} compact
 * @returns {HTMLElement}
 */
export function quiz(steps, compact) {
  const { header, texts } = steps;
  const token = header.tokens[steps.view.focus - 1];
  const box = element("div", { class: `quiz ${compact ? "compact" : ""}` });
  const guess = guessOf(steps);
  if (guess.revealed) {
    box.append(...answer(steps, guess, compact));
    return box;
  }
  const label = (/** @type {number} */ j) => `${j + 1} \u00b7 ${header.keys[j]}`;
  const keys = header.keys.map((_, j) => element("option", { value: j }, label(j)));
  const which = element(
    "select",
    { "aria-label": texts.which },
    element("option", { value: "", text: texts.pick_key }),
    ...keys,
  );
  const amount = element("input", {
    type: "range",
    min: 0,
    max: 1,
    step: 0.05,
    value: 0.5,
    "aria-label": texts.how_much,
  });
  const shown = element("output", { text: "0.50" });
  const reveal = element("button", { type: "button", class: "primary", disabled: true }, texts.reveal);
  const draft = drafts.get(storeKey(steps)) || { which: "", amount: "0.5" };
  const follow = () => {
    shown.textContent = numberText(units(Number(amount.value), 2), 2);
    reveal.disabled = which.value === "";
    drafts.set(storeKey(steps), { which: which.value, amount: amount.value });
  };
  which.value = draft.which;
  amount.value = draft.amount;
  follow();
  amount.addEventListener("input", follow);
  which.addEventListener("change", follow);
  reveal.addEventListener("click", () => {
    drafts.delete(storeKey(steps));
    keep(steps, { guess: Number.parseInt(which.value, 10), amount: Number(amount.value), revealed: true });
    const said = steps.top?.querySelector(".verdict");
    if (said) steps.say(said.textContent || "");
  });
  const whichField = element(
    "label",
    { class: "field" },
    element("span", { class: "label", text: texts.which }),
    which,
  );
  const amountField = element(
    "label",
    { class: "field" },
    element("span", { class: "label", text: texts.how_much }),
    element("span", { class: "range" }, amount, shown),
  );
  box.append(
    element("p", { class: "note info", text: fill(texts.predict_word, { token }) }),
    element("div", { class: "quiz-row" }, whichField, amountField, reveal),
  );
  return box;
}

/**
 * @param {Steps} steps
 * @param {Guess} guess
 * @param {boolean} compact
 * @returns {HTMLElement[]}
 */
function answer(steps, guess, compact) {
  const { header, texts, view } = steps;
  const weights = rowAt(steps.values, header.matrices[`weights.${view.head}`], view.focus - 1);
  const best = largest(weights);
  const chosen = guess.guess ?? 0;
  const amount = guess.amount ?? 0;
  const label = (/** @type {number} */ j) => `${j + 1} \u00b7 ${header.keys[j]}`;
  const outcome = verdict(weights, chosen, amount);
  const detail =
    outcome === "wrong_key"
      ? fill(texts.wrong_key, { token: label(chosen), weight: cellText(weights[chosen], 2) })
      : texts[outcome];
  const mine = fill(texts.your_guess, { token: label(chosen), weight: cellText(amount, 2) });
  const right = fill(texts.answer, { token: label(best), weight: cellText(weights[best], 2) });
  const words = compact ? (outcome === "off_weight" ? [detail, mine, right] : [detail, right]) : [detail, mine, right];
  const again = element("button", { type: "button" }, texts.again);
  again.addEventListener("click", () => {
    keep(steps, {});
    steps.say(fill(texts.predict_word, { token: header.tokens[view.focus - 1] }));
  });
  const said = element(
    "div",
    { class: `verdict ${outcome === "right" ? "good" : "warn"}`, role: "status" },
    ...words.map((text) => element("p", { text })),
  );
  return [said, again];
}
