// Fitting the steps to the screen: the step list says the step in brief where it is narrow, a table or formula wider
// than its box scrolls sideways and says so, and on a projector the step's rows get shorter until the step fits the
// screen's height.

import { element, fill, measureText, sidewaysName } from "../common.js";

/** @typedef {import("./steps.js").Steps} Steps */

/**
 * The nearest box around ``node`` that scrolls up and down (through a shadow root's host), or null.
 * @param {Node} node
 * @returns {HTMLElement | null}
 */
export function scroller(node) {
  /** @param {Node} at */
  const up = (at) => at.parentNode || /** @type {ShadowRoot} */ (at).host || null;
  for (let at = up(node); at && at !== document; at = up(at)) {
    if (!(at instanceof HTMLElement)) continue;
    if (/(auto|scroll)/.test(getComputedStyle(at).overflowY) && at.scrollHeight > at.clientHeight + 1) return at;
  }
  return null;
}

/**
 * The ways to say which step is shown, longest first: the step and its title ("Step 5 of 6: Softmax"), the step alone
 * ("Step 5 of 6", where the words allow it), the bare count ("5 / 6").
 * @param {string} stepOf the words for a step, with {number}, {total} and {title}
 * @param {string} whole the first form, as the list says it
 * @param {number} step
 * @param {number} total
 * @returns {string[]}
 */
export function stepForms(stepOf, whole, step, total) {
  const brief = String(stepOf).replace(/\s*[:：]\s*\{title\}\s*$/u, "");
  const middle = brief.includes("{title}") ? [] : [fill(brief, { number: step, total })];
  return [whole, ...middle, `${step} / ${total}`];
}

/**
 * Where the step list leaves too little room for the step and its title (a phone), its box says "Step 5 of 6", or only
 * "5 / 6", drawn over the list (the list itself still opens on every title, and a screen reader reads it whole).
 * @param {Steps} steps
 */
export function fitStepList(steps) {
  const { select, short } = steps.controls;
  if (!select?.isConnected || !short || !steps.stepBarNode || !steps.top) return;
  const style = getComputedStyle(select);
  const room = select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - 24; // the arrow
  if (!(room > 0)) return;
  const font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const step = steps.view.step;
  const forms = stepForms(steps.texts.step_of, steps.stepWords(step), step, steps.header.steps.length);
  const shown = forms.find((form) => measureText(form, font) <= room) || forms[forms.length - 1];
  const compact = shown !== forms[0];
  if (short.textContent !== (compact ? shown : "")) short.textContent = compact ? shown : "";
  steps.stepBarNode.classList.toggle("compact", compact);
  steps.top.classList.toggle("compact", compact);
}

/**
 * A table wider than its box (a phone) scrolls sideways and says so: a note above it, a shadow at each edge where more
 * of it lies, and for the keyboard and a screen reader a region the Tab key reaches, named by its caption (WCAG 2.1.1,
 * 1.3.1).
 * @param {HTMLElement} box
 * @param {{sideways?: string, sideways_name?: string, sideways_named?: string}} texts
 */
export function scrollsSideways(box, texts) {
  const wide = box.scrollWidth > box.clientWidth + 1;
  const before = box.previousElementSibling;
  const note = before?.classList.contains("sideways") ? before : null;
  const edges = () => {
    box.classList.toggle("wide", box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
    box.classList.toggle("wide-left", box.scrollLeft > 1);
  };
  if (!wide) {
    box.classList.remove("wide", "wide-left");
    note?.remove();
    return;
  }
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", sidewaysName(box.querySelector("caption")?.textContent || "", texts));
  box.style.setProperty("--room", `${box.clientWidth - 8}px`); // the caption stays in sight, wrapped to the box
  if (!box.dataset.edges) {
    box.dataset.edges = "";
    box.addEventListener("scroll", edges, { passive: true });
  }
  edges();
  if (!note && texts.sideways)
    box.before(element("p", { class: "sideways caption", "aria-hidden": "true", text: texts.sideways }));
}

/**
 * A formula wider than its column (a narrow phone) scrolls sideways: the keyboard reaches it to scroll it (WCAG 2.1.1).
 * @param {HTMLElement} main
 */
export function formulasReachable(main) {
  for (const formula of main.querySelectorAll(".formula")) {
    if (!(formula instanceof HTMLElement)) continue;
    const scrolls = formula.scrollWidth > formula.clientWidth + 1;
    if (scrolls && formula.tabIndex !== 0) formula.tabIndex = 0;
    else if (!scrolls && formula.hasAttribute("tabindex")) formula.removeAttribute("tabindex");
  }
}

/**
 * The row height that makes a step ``over`` px too tall fit: its tallest matrix's rows each give up a share, never below
 * 12 px; 0 where the rows cannot get shorter.
 * @param {number} over
 * @param {number} rows the tallest matrix's rows
 * @param {number} now their height as drawn
 * @returns {number}
 */
export function rowCapFor(over, rows, now) {
  const cap = Math.max(12, now - Math.ceil(over / rows));
  return cap < now ? cap : 0;
}

/**
 * On a projector the step fits the screen's height: rows get shorter (numbers that no longer fit are hidden, the
 * tooltip keeps them) until the step's bottom is on the screen, and what lies below it in the page's scrolling box.
 * Measured again once drawn, ``tries`` times at most.
 * @param {Steps} steps
 * @param {number} [tries]
 */
export function fitHeight(steps, tries = 4) {
  if (!steps.top || !steps.main) return;
  const box = scroller(steps.top);
  const below = box ? box.scrollHeight - box.clientHeight : 0;
  const over = Math.max(steps.top.getBoundingClientRect().bottom - (window.innerHeight - 6), below);
  const tables = [...steps.main.querySelectorAll("table.mx")].filter(
    (table) => table instanceof HTMLTableElement && table.tBodies[0]?.rows.length,
  );
  if (over <= 1 || !tables.length) return;
  const bodies = tables.map((table) => /** @type {HTMLTableElement} */ (table).tBodies[0]);
  const rows = Math.max(...bodies.map((body) => body.rows.length));
  const now = Math.max(...bodies.map((body) => body.rows[0].getBoundingClientRect().height));
  const cap = rowCapFor(over, rows, now);
  if (!cap) return;
  steps.rowCap = cap;
  steps.capHeight = window.innerHeight;
  steps.fitting = true;
  try {
    steps.update();
  } finally {
    steps.fitting = false;
  }
  if (tries > 1) requestAnimationFrame(() => fitHeight(steps, tries - 1));
}
