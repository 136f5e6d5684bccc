// What is wider than its box (a phone, a half-width column) scrolls inside it, and says so. A table: a short note above
// it ("Scroll sideways to see the whole table →"), a shadow at each edge where more of it lies (theme.css), and for the
// keyboard and a screen reader a named region the Tab key reaches (WCAG 2.1.1, 1.3.1). A formula (KaTeX) that scrolls:
// a Tab stop. Streamlit's st.table scrolls in the div inside [data-testid=stTable]; a named table (views/widgets/tables.py)
// is already a named region. A box that stops scrolling (the phone turned) loses all of it.

import { sidewaysName } from "../common.js";
import { said } from "./texts.js";

const BOXES = "[data-testid=stMain] [data-testid=stTable] > div:has(> table), [data-testid=stMain] .named-table";

/**
 * Which sides hide more of the table: none, left, right or both.
 * @param {{scrollLeft: number, clientWidth: number, scrollWidth: number}} box
 * @returns {"none" | "left" | "right" | "both"}
 */
export function hiddenSides(box) {
  const left = box.scrollLeft > 1;
  const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
  return left && right ? "both" : left ? "left" : right ? "right" : "none";
}

/** @param {HTMLElement} box */
function edges(box) {
  const sides = hiddenSides(box);
  if (box.dataset.sideways !== sides) box.dataset.sideways = sides;
}

/**
 * What names a table that Streamlit draws (st.table has no caption): its caption if it has one, else its columns'
 * headers ("Key, Score, Weight"), so that two tables on a page are two regions a screen reader tells apart.
 * @param {HTMLElement} box
 * @returns {string}
 */
function tableWords(box) {
  const caption = box.querySelector("caption")?.textContent?.trim();
  if (caption) return caption;
  const heads = [...box.querySelectorAll("thead th")].map((th) => th.textContent?.trim() || "").filter(Boolean);
  const words = heads.join(", ");
  return words.length > 60 ? `${words.slice(0, 59)}\u2026` : words;
}

/** @param {HTMLElement} box a table's scroll box, as it is now */
function checkBox(box) {
  const wide = box.scrollWidth > box.clientWidth + 1;
  const note = box.parentElement?.querySelector(":scope > p.attention-sideways");
  const named = box.classList.contains("named-table");
  if (!wide) {
    if (box.dataset.sideways !== undefined) {
      delete box.dataset.sideways;
      if (!named) {
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
        box.removeAttribute("tabindex");
      }
    }
    note?.remove();
    return;
  }
  if (box.dataset.sideways === undefined) box.addEventListener("scroll", () => edges(box), { passive: true });
  if (!named) {
    const texts = { sideways_name: said("tables.sideways_name"), sideways_named: said("tables.sideways_named") };
    const name = sidewaysName(tableWords(box), texts);
    if (box.tabIndex !== 0) box.tabIndex = 0;
    if (box.getAttribute("role") !== "region") box.setAttribute("role", "region");
    if (box.getAttribute("aria-label") !== name) box.setAttribute("aria-label", name);
  }
  edges(box);
  const words = said("tables.sideways");
  if (note) {
    if (note.textContent !== words) note.textContent = words;
    return;
  }
  const paragraph = document.createElement("p");
  paragraph.className = "attention-sideways";
  paragraph.setAttribute("aria-hidden", "true"); // the region's name says it to a screen reader
  paragraph.textContent = words;
  box.before(paragraph);
}

/** @param {HTMLElement} formula a KaTeX formula, a Tab stop while it scrolls */
function checkFormula(formula) {
  const scrolls = formula.scrollWidth > formula.clientWidth + 1;
  if (scrolls && !formula.hasAttribute("tabindex")) formula.tabIndex = 0;
  else if (!scrolls && formula.getAttribute("tabindex") === "0") formula.removeAttribute("tabindex");
}

function checkAll() {
  for (const box of document.querySelectorAll(BOXES)) checkBox(/** @type {HTMLElement} */ (box));
  for (const formula of document.querySelectorAll(".katex-display")) checkFormula(/** @type {HTMLElement} */ (formula));
}

/**
 * Every table and formula checked whenever one may have become wider or narrower: as the page changes (once per frame,
 * after layout: a width is measured, never guessed) and as the window does. Until that frame a wide table scrolls as
 * Streamlit draws it (its content is all there); only the note and the region's name follow.
 */
export function installTables() {
  let frame = 0;
  const soon = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(checkAll);
  };
  new MutationObserver(soon).observe(document.body, { subtree: true, childList: true });
  window.addEventListener("resize", soon);
  soon();
}
