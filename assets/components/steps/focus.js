// Focus on one word: the article's figure for one query as two tables (its scores, scaled scores and weights per key;
// its weighted values adding up to its output), with Predict first, asking the live class, and the hands-on switch.

import { element, fill } from "../common.js";
import { focusTables } from "../numbers.js";
import { switchControl, wordChoice } from "./controls.js";
import { rowAt, valuesAt } from "./payload.js";
import { quiz, revealed } from "./predict.js";

/** @typedef {import("./steps.js").Steps} Steps */

export class FocusArea {
  /**
   * @param {Steps} steps
   * @param {HTMLElement} node the area's section
   */
  constructor(steps, node) {
    this.steps = steps;
    this.node = node;
    this.body = element("div", { class: "focus-body" });
    /** what it was drawn for: drawn again only when that changes */
    this.drawnFor = "";
    this.built = false;
  }

  /** Drawn again on the next update, whatever it was drawn for. */
  stale() {
    this.drawnFor = "";
  }

  /** Draw what the view asks for, where it changed. */
  update() {
    const { view } = this.steps;
    const now = [view.head, view.focus, view.predict, this.steps.hiding, view.hands, this.steps.width].join("|");
    if (!this.built) this.build();
    const hands = this.steps.controls.switches.hands;
    if (hands) hands.checked = view.hands;
    if (now === this.drawnFor) return;
    this.drawnFor = now;
    this.body.replaceChildren();
    if (view.predict) {
      this.body.append(quiz(this.steps, false));
      if (!revealed(this.steps)) return;
    }
    this.body.append(...this.tables());
  }

  build() {
    const steps = this.steps;
    const { header, texts, view } = steps;
    this.built = true;
    const controls = element(
      "div",
      { class: "focus-controls" },
      wordChoice(steps),
      switchControl(steps, "predict", texts.predict, texts.predict_help),
    );
    /** @type {HTMLElement[]} */
    const parts = [element("h2", { text: texts.focus_title }), controls, this.body];
    if (header.ask) parts.push(askButton(steps));
    if (!header.saved) parts.push(switchControl(steps, "hands", texts.hands_on, texts.hands_on_help));
    this.node.replaceChildren(...parts);
    for (const select of steps.controls.words) select.value = String(view.focus);
    const predict = steps.controls.switches.predict;
    if (predict) predict.checked = view.predict;
  }

  /** @returns {HTMLElement[]} the two tables, and a note where the values have more dimensions than shown */
  tables() {
    const { header, texts, view, values } = this.steps;
    const focus = /** @type {NonNullable<import("./payload.js").Header["focus"]>} */ (header.focus);
    const head = view.head;
    const i = view.focus - 1;
    const meta = focus.heads[head - 1];
    const row = (/** @type {string} */ id) => rowAt(values, header.matrices[`${id}.${head}`], i);
    const [places, terms] = Array.from(valuesAt(values, meta.places).subarray(i * 2, i * 2 + 2));
    const valuesMatrix = header.matrices[`v.${head}`];
    const width = valuesMatrix.shape[1];
    const all = valuesAt(values, valuesMatrix);
    const { dims, decimals } = focus;
    const table = focusTables(
      row("raw"),
      row("masked"),
      row("weights"),
      all,
      width,
      row("output"),
      meta.divisor,
      places,
      terms,
      header.keys,
      dims,
      decimals,
    );
    const token = header.tokens[i];
    const boxes = [scoresTable(texts, table, token), weightedTable(texts, table, token)].map((node) =>
      element("div", { class: "table-scroll" }, node),
    );
    requestAnimationFrame(() => {
      for (const box of boxes) this.steps.sideways(box);
    });
    if (width <= table.shown) return boxes;
    return [
      ...boxes,
      element("p", { class: "caption", text: fill(texts.first_dims, { shown: table.shown, d_v: width }) }),
    ];
  }
}

/**
 * "Ask the live class" about the focused word: Predict first goes on (the weights hide behind the question, here and in
 * the link), then the server opens the question on the phones.
 * @param {Steps} steps
 * @returns {HTMLButtonElement}
 */
export function askButton(steps) {
  const ask = element("button", { type: "button", class: "ask", "data-part": "ask" }, steps.texts.ask_live);
  ask.addEventListener("click", () => {
    steps.set({ predict: true });
    steps.trigger("ask", { head: steps.view.head, focus: steps.view.focus });
    steps.say(steps.texts.asked);
  });
  return ask;
}

/** @typedef {ReturnType<typeof focusTables>} Tables */

/**
 * Per key: its position, the key, its score, the score ÷ the divisor, its weight.
 * @param {Record<string, string>} texts
 * @param {Tables} table
 * @param {string} token
 * @returns {HTMLTableElement}
 */
function scoresTable(texts, table, token) {
  const columns = [
    texts.position,
    texts.key,
    texts.score,
    fill(texts.scaled, { divisor: table.divisor }),
    texts.weight,
  ];
  const head = element("tr", {}, ...columns.map((text) => element("th", { scope: "col", text })));
  const rows = table.scores.map(([j, key, ...cells]) =>
    element(
      "tr",
      {},
      element("td", { text: j }),
      element("th", { scope: "row", text: key }),
      ...cells.map((text) => element("td", { text })),
    ),
  );
  const caption = element("caption", { text: fill(texts.caption, { token }) });
  return element("table", { class: "plain" }, caption, element("thead", {}, head), element("tbody", {}, ...rows));
}

/**
 * Per key its weighted value a_j v_j over the first dimensions, and their sum: the output (a column adds up by hand).
 * @param {Record<string, string>} texts
 * @param {Tables} table
 * @param {string} token
 * @returns {HTMLTableElement}
 */
function weightedTable(texts, table, token) {
  const dimensions = Array.from({ length: table.shown }, (_, s) =>
    element("th", { scope: "col", text: String(s + 1) }),
  );
  /** @param {string} name @param {string[]} cells @param {string} [kind] */
  const line = (name, cells, kind) =>
    element(
      "tr",
      { class: kind },
      element("th", { scope: "row", text: name }),
      ...cells.map((text) => element("td", { text })),
    );
  const rows = table.weighted.map(([name, ...cells]) => line(name, cells));
  const caption = element("caption", { text: fill(texts.weighted, { token }) });
  const head = element("thead", {}, element("tr", {}, element("td", {}), ...dimensions));
  return element(
    "table",
    { class: "plain" },
    caption,
    head,
    element("tbody", {}, ...rows, line(texts.sum, table.sum, "total")),
  );
}
