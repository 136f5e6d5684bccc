// A step as the page shows it: its heading, explanation and formula, then its blocks (notes, numbered tokens, matrices,
// rows of them side by side, a question with options), each drawn from the payload.

import { element } from "../common.js";
import { cellText } from "../numbers.js";
import { contrastTable, sideColumn, sideLabel } from "./contrast.js";
import { matrixIdOf, valuesAt } from "./payload.js";

/** @typedef {import("./payload.js").Step} Step */
/** @typedef {import("./payload.js").Block} Block */
/** @typedef {import("./payload.js").OptionsBlock} OptionsBlock */
/** @typedef {import("./steps.js").Steps} Steps */

/** A screen narrower than this puts a row's blocks one under another. */
export const NARROW = 640;

/**
 * The widths of a row's blocks: the whole width each on a narrow screen, else shared, with 16 px between them.
 * @param {number} width
 * @param {number} count
 * @returns {number}
 */
export function shareOf(width, count) {
  return width < NARROW ? width : Math.floor((width - 16 * (count - 1)) / count);
}

/**
 * A step's section. On a projector the step list says the step's title, and its heading (the outline a screen reader
 * moves by) is for a screen reader only, shown where the list is too narrow to say it (steps/fit.js).
 * @param {Steps} steps
 * @param {Step} step
 * @returns {HTMLElement}
 */
export function drawStep(steps, step) {
  const projector = steps.projector();
  const section = element("section", { class: "step", "data-step": step.id, "aria-label": step.title });
  const badge = element("span", { class: "badge", text: step.badge });
  const body = element("span", { html: step.body });
  if (projector) {
    section.append(
      element("h2", { class: "step-title", text: step.title }),
      element("p", { class: "caption" }, badge, " ", body),
    );
  } else section.append(element("h2", { text: step.title }), element("p", {}, badge, " ", body));
  if (step.formula) section.append(element("div", { class: "formula", html: step.formula }));
  const hides = step.blocks.some((block) => block.type === "matrix" && block.hide);
  if (steps.hiding && !projector && hides)
    section.append(element("p", { class: "note info", text: steps.texts.hidden }));
  for (const block of step.blocks) section.append(drawBlock(steps, block, steps.width));
  return section;
}

/**
 * @param {Steps} steps
 * @param {Block} block
 * @param {number} width the room it has, px
 * @returns {HTMLElement}
 */
function drawBlock(steps, block, width) {
  switch (block.type) {
    case "note":
      return element("p", { class: `note ${block.tone}`, html: block.html });
    case "chips":
      return element(
        "div",
        { class: "chips" },
        block.caption ? element("span", { class: "caption", text: block.caption }) : null,
        ...block.tokens.map((token, i) =>
          element("span", { class: "chip" }, element("sup", { text: String(i + 1) }), token),
        ),
      );
    case "row": {
      const share = shareOf(width, block.children.length);
      return element(
        "div",
        { class: "row" },
        ...block.children.map((inner) => element("div", { class: "cell" }, drawBlock(steps, inner, share))),
      );
    }
    case "options":
      return optionsBlock(steps, block);
    case "column":
      return sideColumn(
        sideLabel(block.label, block.blocks, steps.view.head, steps.texts.head_of),
        block.formula,
        block.blocks.map((inner) => drawBlock(steps, inner, width)),
      );
    case "contrast":
      return contrastTable(steps, block);
    case "matrix": {
      if (block.hide && steps.hiding) return element("p", { class: "note info", text: steps.texts.hidden_matrix });
      const id = matrixIdOf(block, steps.view.head);
      const figure = steps.figure(id, width);
      if (!block.sums || steps.projector()) return figure;
      return element("div", { class: "row sums-row" }, element("div", { class: "cell grow" }, figure), sums(steps));
    }
    default:
      return element("div");
  }
}

/**
 * Each query's sum of weights, beside the weights (4 decimals: rounding shows).
 * @param {Steps} steps
 * @returns {HTMLElement}
 */
function sums(steps) {
  const { header, texts } = steps;
  const place = header.sums?.[String(steps.view.head)];
  const totals = place ? valuesAt(steps.values, place) : new Float64Array(header.tokens.length);
  const heads = element(
    "tr",
    {},
    element("th", { scope: "col", text: texts.query }),
    element("th", { scope: "col", text: texts.row_sum }),
  );
  const rows = header.tokens.map((token, i) =>
    element("tr", {}, element("th", { scope: "row", text: token }), element("td", { text: cellText(totals[i], 4) })),
  );
  const table = element(
    "table",
    { class: "plain small" },
    element("caption", { text: texts.sums }),
    element("thead", {}, heads),
    element("tbody", {}, ...rows),
  );
  return element("div", { class: "cell sums" }, table, element("p", { class: "caption", text: texts.rounded }));
}

const LETTERS = "ABCDEFGH";

/**
 * A question with options (the lesson's stops): the class's guess opens the view's links; the answer waits for the
 * reveal. A guess, a reveal and a question for the live class go to the server, which keeps them (over a reload too).
 * @param {Steps} steps
 * @param {OptionsBlock} block
 * @returns {HTMLElement}
 */
function optionsBlock(steps, block) {
  const { texts } = steps;
  const group = element("div", {
    class: "segmented options",
    role: "radiogroup",
    "aria-label": block.name || texts.your_guess,
  });
  block.options.forEach((label, i) => {
    const on = block.guess === i;
    const choose = () => {
      if (on) return;
      steps.say(label);
      steps.trigger("guess", { stop: block.stop, option: i });
    };
    const attributes = {
      type: "button",
      role: "radio",
      "aria-checked": on ? "true" : "false",
      class: on ? "on" : "",
      onclick: choose,
    };
    group.append(element("button", attributes, `${LETTERS[i]}. ${label}`));
  });
  const box = element(
    "div",
    { class: "options-quiz" },
    element("p", { class: "label", text: texts.your_guess }),
    group,
  );
  if (block.guess === null || block.guess === undefined)
    box.append(element("p", { class: "caption", text: texts.guess_first }));
  else box.append(...guessed(steps, block));
  if (steps.header.ask) {
    const ask = () => {
      steps.trigger("ask", { stop: block.stop });
      steps.say(texts.asked);
    };
    box.append(element("button", { type: "button", class: "ask", onclick: ask }, texts.ask_live));
  }
  return box;
}

/**
 * After a guess: what the view shows, its links, the reveal's switch, and once revealed the answer.
 * @param {Steps} steps
 * @param {OptionsBlock} block
 * @returns {HTMLElement[]}
 */
function guessed(steps, block) {
  const reveal = element("input", { type: "checkbox", role: "switch", checked: block.revealed ? true : null });
  reveal.addEventListener("change", () => steps.trigger("reveal", { stop: block.stop, on: reveal.checked }));
  const links = block.links.map((link) =>
    element("a", { class: "button", href: link.href, target: "_blank", rel: "noopener" }, link.label),
  );
  const parts = [
    element("p", { html: block.show || "" }),
    element("div", { class: "links" }, ...links),
    element(
      "label",
      { class: "switch" },
      reveal,
      element("span", { class: "track", "aria-hidden": "true" }),
      element("span", { text: steps.texts.reveal }),
    ),
  ];
  if (block.revealed)
    parts.push(
      element("div", { class: `verdict ${block.right ? "good" : "warn"}`, role: "status", html: block.answer || "" }),
    );
  return parts;
}
