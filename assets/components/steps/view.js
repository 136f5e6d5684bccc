// The view the browser keeps (the step, the head, the focused word and the switches): pure functions from the payload's
// header, the view kept for the page (sessionStorage) and the link. views/shell/state.py is the server's half.

/** @typedef {import("./payload.js").Header} Header */
/** @typedef {import("./payload.js").View} View */

/**
 * What the browser keeps for a page: the server's token it was chosen under, the walk's variant, the view and its
 * link values.
 * @typedef {{token: string, variant?: string, view: Partial<View>, url?: Record<string, string>}} Kept
 */

/**
 * A whole number from ``value`` within 1..``most`` (1 where it is none).
 * @param {unknown} value
 * @param {number} most
 * @returns {number}
 */
export function within(value, most) {
  const number = Number.parseInt(String(value), 10) || 1;
  return Math.min(Math.max(number, 1), Math.max(1, most));
}

/**
 * ``view`` kept inside what ``header`` offers: the step, head and word within their counts, the switches true or false.
 * @param {Partial<View>} view
 * @param {Header} header
 * @returns {View}
 */
export function clampView(view, header) {
  return {
    step: within(view.step, header.steps.length),
    head: within(view.head, header.heads),
    focus: within(view.focus, header.tokens.length),
    values: !!view.values,
    all: !!view.all,
    predict: !!view.predict,
    hands: !!view.hands,
  };
}

/**
 * The view a payload opens on: the view kept for the page while the server's token is the one it was kept under (a
 * rerun, a page visit, a reload), else the server's (a link opened, another server). Another walk while the page is
 * open (the article's example) opens at its own first step. The hands-on editor always starts closed.
 * @param {Header} header
 * @param {Kept | null} kept
 * @returns {View}
 */
export function openingView(header, kept) {
  /** @type {Partial<View>} */
  const view = { ...header.view, hands: false };
  const same = !!kept && kept.token === header.token;
  if (same && kept) Object.assign(view, kept.view, { hands: false });
  const entry = header.enter?.step;
  if (same && kept && entry && kept.variant !== header.variant) view.step = Math.max(Number(view.step) || 1, entry);
  return clampView(view, header);
}

/**
 * The view's values as the link writes them ({step: "4", head: "2", values: "1"}): a switch as "1" or "0", a value the
 * link names itself (a training step, not its place) by its name; the head only where there are several.
 * @param {View} view
 * @param {Header} header
 * @returns {Record<string, string>}
 */
export function linkValues(view, header) {
  /** @type {Record<string, string>} */
  const values = {};
  for (const [field, name] of Object.entries(header.url)) {
    if (field === "head" && header.heads < 2) continue;
    const value = view[/** @type {keyof View} */ (field)];
    const named = header.url_values?.[field];
    if (named) values[name] = named[Number(value) - 1];
    else values[name] = typeof value === "boolean" ? (value ? "1" : "0") : String(value);
  }
  return values;
}

/**
 * ``href`` with ``values`` written into its query (and head= removed where there is one head), or null where it holds
 * them already.
 * @param {string} href
 * @param {Record<string, string>} values
 * @param {number} heads
 * @returns {string | null}
 */
export function linkWith(href, values, heads) {
  const link = new URL(href);
  let changed = false;
  for (const [name, value] of Object.entries(values)) {
    if (link.searchParams.get(name) === value) continue;
    link.searchParams.set(name, value);
    changed = true;
  }
  if (heads < 2 && link.searchParams.has("head")) {
    link.searchParams.delete("head");
    changed = true;
  }
  return changed ? link.href : null;
}

/**
 * @param {Header} header
 * @returns {string} the walk and layer a payload shows ("" where it offers none)
 */
export function walkName(header) {
  return header.walks ? `${header.walks.current}|${header.walks.layer}` : "";
}
