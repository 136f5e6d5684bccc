// The words the page's script draws or reads (assets/text/<lang>/browser.toml, views/shell/script.browser_texts), in
// each language, by key without "browser.": {"en": {"plotly.zoom_in": "Zoom in", ...}, "zh": {...}}. The server sends
// them with the script; they are kept on the window, where every copy of the script finds them.

import { pageLanguage } from "../common.js";

/** @typedef {Record<string, Record<string, string>>} Catalogue */

/** @returns {{texts?: Catalogue}} the script's own place on the window */
function place() {
  const host = /** @type {any} */ (window);
  host.__attention = host.__attention || {};
  return host.__attention;
}

/** @param {Catalogue} texts */
export function setTexts(texts) {
  place().texts = texts;
}

/** @returns {Catalogue} */
export function catalogue() {
  return place().texts || {};
}

/**
 * A text in the page's language (English where it has none), or "".
 * @param {string} key
 * @returns {string}
 */
export function said(key) {
  const texts = catalogue();
  return texts[pageLanguage()]?.[key] || texts.en?.[key] || "";
}
