// The page in the reader's language. <html lang> follows the link's lang= (a screen reader's voice, the browser's fonts);
// no public API sets it. In Chinese, what Streamlit and Plotly write in English only (accessible names, tooltips,
// hints; assets/text/*/browser.toml "streamlit." and "plotly." keys) is said in Chinese: an attribute or a text equal to
// one of them is replaced as it is drawn; "Help for {label}" is a pattern. Streamlit has no public setting for its
// own words' language.

import { pageLanguage } from "../common.js";
import { afterChanges, repair, repairAll } from "./repair.js";
import { catalogue } from "./texts.js";

/** The attributes that may hold Streamlit's English. */
export const ATTRIBUTES = ["aria-label", "title", "data-title", "placeholder"];
/** Where Streamlit's English may be text: its tooltips, pop-overs, menus, lists, live regions, hints, links, buttons. */
const TEXTS =
  "[data-testid=stTooltipContent], [data-baseweb=tooltip], [data-baseweb=popover], [role=tooltip], [role=menu], " +
  "[role=listbox], [aria-live], [data-testid=InputInstructions], a, button";

/**
 * A translator from English to ``into``'s words: a whole text equal to one English text, or filling a pattern.
 * @param {Record<string, string>} english
 * @param {Record<string, string>} into
 * @returns {(text: string) => string | null} the translation, or null for a text it does not know
 */
export function translator(english, into) {
  const exact = new Map();
  /** @type {[string, string, string][]} */
  const patterns = [];
  for (const [key, text] of Object.entries(english)) {
    if (!(key.startsWith("streamlit.") || key.startsWith("plotly.")) || !into[key]) continue;
    if (!text.includes("{label}")) {
      exact.set(text, into[key]);
      continue;
    }
    const [before, after] = text.split("{label}");
    patterns.push([before, after, into[key]]);
  }
  return (text) => {
    if (exact.has(text)) return exact.get(text);
    for (const [before, after, words] of patterns) {
      const fits = text.startsWith(before) && text.endsWith(after) && text.length > before.length + after.length;
      if (fits) return words.replace("{label}", text.slice(before.length, text.length - after.length));
    }
    return null;
  };
}

/** @type {Map<string, (text: string) => string | null>} */
const translators = new Map();

/** @returns {((text: string) => string | null) | null} the translator for the page's language, or null (English) */
function current() {
  const lang = pageLanguage();
  if (lang === "en") return null;
  if (!translators.has(lang)) {
    const texts = catalogue();
    translators.set(lang, translator(texts.en || {}, texts[lang] || {}));
  }
  return translators.get(lang) || null;
}

/** @param {Element} node an element's attributes in the page's language */
function translateAttributes(node) {
  const into = current();
  if (!into) return;
  for (const name of ATTRIBUTES) {
    const value = node.getAttribute(name);
    const now = value === null ? null : into(value);
    if (now !== null && now !== value) node.setAttribute(name, now);
  }
}

/** @param {Element} node the texts inside an element in the page's language */
function translateTexts(node) {
  const into = current();
  if (!into) return;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode;
    const now = into((text.textContent || "").trim());
    if (now !== null && now !== text.textContent) text.textContent = now;
  }
}

/**
 * Every English text of Streamlit's inside ``node`` in the page's language (a chart's toolbar, drawn by Plotly, where the
 * repairs do not reach: repair.js).
 * @param {Element} node
 */
export function translateWithin(node) {
  for (const inner of [node, ...node.querySelectorAll(ATTRIBUTES.map((name) => `[${name}]`).join(", "))])
    translateAttributes(inner);
  translateTexts(node);
}

/** <html lang> and every English text of Streamlit's in the page's language, now and as they are drawn. */
export function installLanguage() {
  afterChanges(() => {
    const lang = pageLanguage();
    if (document.documentElement.lang === lang) return;
    document.documentElement.lang = lang;
    repairAll(); // what was drawn in the other language
  });
  repair(ATTRIBUTES.map((name) => `[${name}]`).join(", "), translateAttributes, ATTRIBUTES);
  repair(TEXTS, translateTexts);
}
