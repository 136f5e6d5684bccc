// What the page's script (shell/) and the step component (steps/) share: the names they keep things under, the page's
// language, and small DOM helpers. Text is always text (textContent), never HTML, unless the server made it safe.

/** sessionStorage: a page's view kept by the step component ("attention.view.<page>"), read again by the shell's keep. */
export const VIEW_STORE = "attention.view.";
/** A document event: a box sent its words to the server as the focus left it (a click on the menu waits for them). */
export const COMMITTING = "attention:committing";
/** A document event: the words a box sent were received (the page they were typed on has them). */
export const COMMITTED = "attention:committed";
/** A document event: the step component drew its controls (in its shadow root, where the page's observer cannot see). */
export const STEPS_DRAWN = "attention:steps-drawn";
/** sessionStorage: a Predict first guess ("attention.quiz.<walk>.<head>.<word>"). */
export const QUIZ_STORE = "attention.quiz.";

/**
 * The page's language, from the link's lang= (the app writes it on every view).
 * @param {string} [search] a location's query string
 * @returns {"en" | "zh"}
 */
export function pageLanguage(search = window.location.search) {
  return new URLSearchParams(search).get("lang") === "zh" ? "zh" : "en";
}

/**
 * A value kept in sessionStorage as JSON, or null (none, unreadable, or storage refused).
 * @param {string} key
 * @returns {any}
 */
export function readStore(key) {
  try {
    return JSON.parse(sessionStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

/**
 * Keep ``value`` in sessionStorage as JSON (nothing happens where storage is refused: a private window).
 * @param {string} key
 * @param {unknown} value
 */
export function writeStore(key, value) {
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // private mode: the view is kept for this page's life only
  }
}

/**
 * The address bar shows ``to`` (the view's link), where the browser lets it: a saved file opened from disk may not
 * (a file: address kept as it is, Safari), and then the view is kept for the page's life only.
 * @param {string} to
 */
export function replaceLink(to) {
  try {
    window.history.replaceState(window.history.state, "", to);
  } catch {
    // the file's own address stays
  }
}

/**
 * "{name}" in ``text`` replaced by ``values[name]`` (a name without a value stays as it is).
 * @param {string} text
 * @param {Record<string, string | number>} values
 * @returns {string}
 */
export function fill(text, values) {
  return String(text).replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

/**
 * Text made safe to put inside HTML (an element's content or a quoted attribute).
 * @param {unknown} text
 * @returns {string}
 */
export function escapeHtml(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * @typedef {string | Node | null | undefined | false} Child
 * @typedef {Record<string, unknown>} Properties
 */

/**
 * A new element: ``properties`` are attributes, except ``class``, ``text`` (its text), ``html`` (server-made HTML only:
 * views/widgets/steps.markdown and formula), ``style`` (an object of CSS properties, camelCase allowed) and ``on<event>``
 * (a listener). A property that is undefined, null or false is left out; true is an empty attribute.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Properties} [properties]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, properties = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = String(value);
    else if (name === "text") node.textContent = String(value);
    else if (name === "html") node.innerHTML = String(value);
    else if (name === "style") setStyle(node, /** @type {Record<string, string>} */ (value));
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/**
 * @param {HTMLElement} node
 * @param {Record<string, string>} style CSS properties, camelCase or custom (--cell)
 */
function setStyle(node, style) {
  for (const [name, value] of Object.entries(style)) {
    node.style.setProperty(
      name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
      value,
    );
  }
}

/** @type {CanvasRenderingContext2D | null} */
let measurer = null;

/**
 * How wide ``text`` is drawn in ``font`` (a CSS font), in pixels; a canvas measures it.
 * @param {string} text
 * @param {string} font
 * @returns {number}
 */
export function measureText(text, font) {
  measurer = measurer || document.createElement("canvas").getContext("2d");
  if (!measurer) return text.length * 8;
  measurer.font = font;
  return measurer.measureText(text).width;
}

/** The page's own fonts, as the step component draws its labels. */
export const LABEL_FONTS = '"Source Sans", "Source Sans Pro", "Noto Sans CJK SC", sans-serif';

/**
 * How wide ``text`` is in the step component's label font at ``size`` pixels.
 * @param {string} text
 * @param {number} size
 * @returns {number}
 */
export function labelWidth(text, size) {
  return measureText(text, `${size}px ${LABEL_FONTS}`);
}

/**
 * The name of a table's region that scrolls sideways: its caption and that it scrolls ("Query “the” against every key:
 * table, scrolls sideways"), so that two such tables on a page are told apart in a screen reader's list of regions (the step component's
 * tables and Streamlit's: steps/fit.js, shell/tables.js).
 * @param {string} caption the table's caption ("" for none)
 * @param {{sideways_name?: string, sideways_named?: string}} texts
 * @returns {string}
 */
export function sidewaysName(caption, texts) {
  const words = caption
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.。]$/u, ""); // a sentence's full stop, and then what follows
  return words && texts.sideways_named ? fill(texts.sideways_named, { caption: words }) : texts.sideways_name || "";
}
