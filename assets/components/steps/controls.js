// The controls above the steps: the sentence box, the walk (and a real model's layer), the head, the switches, the
// downloads; and the step bar (Previous, the step list, Next). Each control changes the view through the component
// (steps.set, steps.move) or asks the server for new numbers (steps.trigger).

import { COMMITTING, element, fill } from "../common.js";

/** @typedef {import("./steps.js").Steps} Steps */

/**
 * A switch (a checkbox with the switch role) that sets the view's ``name``.
 * @param {Steps} steps
 * @param {"values" | "all" | "predict" | "hands"} name
 * @param {string} label
 * @param {string} [help]
 * @returns {HTMLLabelElement}
 */
export function switchControl(steps, name, label, help) {
  const input = element("input", { type: "checkbox", role: "switch", "data-part": name });
  input.addEventListener("change", () => steps.set({ [name]: input.checked }));
  steps.controls.switches[name] = input;
  return element(
    "label",
    { class: "switch", title: help || null },
    input,
    element("span", { class: "track", "aria-hidden": "true" }),
    element("span", { text: label }),
  );
}

/**
 * The walk (random weights, the article's example, a real model) and a real model's layer: new numbers, from the server.
 * @param {Steps} steps
 * @returns {HTMLElement[]}
 */
export function walkChoice(steps) {
  const walks = steps.header.walks;
  const { texts } = steps;
  if (!walks) return [];
  const options = walks.options.map((name, i) =>
    element("option", { value: name, selected: name === walks.current ? true : null }, walks.labels[i]),
  );
  const select = element("select", { "data-part": "walk" }, ...options);
  select.addEventListener("change", () => {
    const label = select.selectedOptions[0].textContent || "";
    steps.asked = label;
    steps.say(label);
    steps.trigger("walk", select.value);
  });
  const parts = [element("label", { class: "field" }, element("span", { class: "label", text: texts.walk }), select)];
  if (!walks.layers.length) return parts;
  const layers = walks.layers.map((n) =>
    element("option", { value: n, selected: n === walks.layer ? true : null }, String(n)),
  );
  const layer = element("select", { "data-part": "layer" }, ...layers);
  layer.addEventListener("change", () => {
    steps.asked = `${texts.layer} ${layer.value}`;
    steps.trigger("layer", Number.parseInt(layer.value, 10));
  });
  parts.push(element("label", { class: "field" }, element("span", { class: "label", text: texts.layer }), layer));
  return parts;
}

/**
 * The sentence box: sent with Enter or the button, or as the focus leaves it (a click on the menu, a slider), as
 * Streamlit's own box commits on blur; an example sends itself. A paste longer than the box holds says it was cut.
 * @param {Steps} steps
 * @returns {HTMLElement}
 */
export function sentenceRow(steps) {
  const sentence = /** @type {import("./payload.js").Sentence} */ (steps.header.sentence);
  const input = element("input", {
    type: "text",
    value: sentence.text,
    maxlength: sentence.max,
    placeholder: sentence.placeholder,
    "aria-describedby": "sentence-help",
    title: sentence.help,
    autocomplete: "off",
    spellcheck: "false",
  });
  steps.controls.sentence = input;
  input.addEventListener("change", () => {
    if (steps.sendText(input.value)) document.dispatchEvent(new CustomEvent(COMMITTING));
  });
  const examples = element(
    "select",
    { "aria-label": sentence.examples_label },
    element("option", { value: "" }, sentence.examples_label),
  );
  examples.append(...sentence.examples.map((text) => element("option", { value: text }, text)));
  examples.addEventListener("change", () => {
    if (!examples.value) return;
    input.value = examples.value;
    steps.sendText(examples.value);
  });
  const form = element(
    "form",
    { class: "sentence" },
    element("label", { class: "field grow" }, element("span", { class: "label", text: sentence.label }), input),
    element(
      "button",
      { type: "submit", class: "primary send" },
      element("span", { "aria-hidden": "true", text: "\u25b6 " }),
      sentence.show,
    ),
    element("div", { class: "field examples" }, examples),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    steps.sendText(input.value); // sent already where the focus left the box for the button
  });
  const cut = element("p", {
    class: "note warn",
    role: "status",
    hidden: true,
    text: fill(steps.texts.cut || "", { max: sentence.max }),
  });
  input.addEventListener("input", () => {
    cut.hidden = input.value.length < sentence.max;
  });
  return element("div", {}, form, cut, element("p", { class: "sr-only", id: "sentence-help", text: sentence.help }));
}

/**
 * The heads as a radio group (one Tab stop; the arrow keys choose the next head), where there are several.
 * @param {Steps} steps
 * @returns {HTMLElement | null}
 */
export function headChoice(steps) {
  const { header, texts } = steps;
  if (header.heads < 2) return null;
  const group = element("div", {
    class: "segmented heads",
    role: "radiogroup",
    "aria-label": texts.head,
    title: texts.head_help,
  });
  steps.controls.heads = [];
  /** @param {number} head */
  const choose = (head) => steps.set({ head }, fill(texts.head_of, { head, heads: header.heads }));
  for (let head = 1; head <= header.heads; head++) {
    const button = element("button", { type: "button", role: "radio" }, String(head));
    button.addEventListener("click", () => choose(head));
    button.addEventListener("keydown", (event) => {
      /** @type {Record<string, number>} */
      const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
      const by = moves[event.key];
      if (!by) return;
      event.preventDefault();
      event.stopPropagation();
      const next = ((steps.view.head - 1 + by + header.heads) % header.heads) + 1;
      choose(next);
      steps.controls.heads[next - 1].focus();
    });
    steps.controls.heads.push(button);
    group.append(button);
  }
  return element("div", { class: "field" }, element("span", { class: "label", text: texts.head }), group);
}

/**
 * The focused word's list (in the focus area and the presenter's dialog).
 * @param {Steps} steps
 * @returns {HTMLLabelElement}
 */
export function wordChoice(steps) {
  const options = steps.header.tokens.map((token, i) =>
    element("option", { value: i + 1 }, `${i + 1} \u00b7 ${token}`),
  );
  const select = element("select", { "data-part": "word" }, ...options);
  select.addEventListener("change", () => steps.set({ focus: Number.parseInt(select.value, 10) }));
  steps.controls.words.push(select);
  return element("label", { class: "field" }, element("span", { class: "label", text: steps.texts.pick }), select);
}

/**
 * The controls above the steps: the sentence box, the walk, the head, the switches and the downloads (folded under one
 * line on a phone, so the first step keeps the first screen), and how to read the page and what its numbers are.
 * @param {Steps} steps
 * @returns {HTMLElement}
 */
export function toolbar(steps) {
  const { header, texts } = steps;
  /** @type {HTMLElement[]} */
  const parts = [];
  if (header.sentence) parts.push(sentenceRow(steps));
  const bar = element("div", { class: "toolbar" }, ...walkChoice(steps));
  if (!header.steps.length) return element("div", { class: "top" }, ...parts, bar);
  const icon = element("span", { class: "icon", "aria-hidden": "true", text: "\u2913" });
  const downloads = element("details", { class: "menu" }, element("summary", {}, icon, texts.download));
  downloads.addEventListener("toggle", () => {
    if (downloads.open) steps.fillDownloads(downloads);
  });
  bar.append(
    headChoice(steps) || "",
    switchControl(steps, "values", texts.values, texts.values_help),
    switchControl(steps, "all", texts.all),
    downloads,
  );
  const phone = window.innerWidth < 640;
  parts.push(
    phone ? element("details", { class: "about options" }, element("summary", { text: texts.options }), bar) : bar,
  );
  const abouts = element("div", { class: "abouts" });
  if (header.intro)
    abouts.append(
      element(
        "details",
        { class: "about" },
        element("summary", { text: texts.how }),
        element("p", { html: header.intro }),
      ),
    );
  if (header.note)
    abouts.append(
      element(
        "details",
        { class: "about" },
        element("summary", { text: texts.about }),
        element("p", { text: header.note }),
      ),
    );
  if (abouts.childElementCount) parts.push(abouts);
  return element("div", { class: "top" }, ...parts);
}

/**
 * The step bar: Previous, the step list (and the step in brief where it is narrow), the presenter's choices, Next.
 * @param {Steps} steps
 * @returns {HTMLElement}
 */
export function stepBar(steps) {
  const { texts, controls } = steps;
  const previous = element("button", { type: "button", class: "nav previous" }, texts.previous);
  const next = element("button", { type: "button", class: "nav next" }, texts.next);
  previous.addEventListener("click", () => steps.move(-1));
  next.addEventListener("click", () => steps.move(1));
  const select = element("select", { class: "where", "aria-label": texts.steps });
  select.addEventListener("change", () => {
    const step = Number.parseInt(select.value, 10);
    steps.set({ step }, steps.stepSaid(step));
  });
  const short = element("span", { class: "where-short", "aria-hidden": "true" });
  Object.assign(controls, { previous, next, select, short });
  const parts = [previous, element("span", { class: "where-box" }, select, short)];
  if (steps.projector()) parts.push(steps.dialog.button());
  parts.push(next);
  return element("nav", { class: "bar", "aria-label": texts.steps }, ...parts);
}
