// Repairs to Streamlit's page that no reader can see before they are made. Streamlit (React) adds and changes nodes; one
// MutationObserver hears of every change and its callback repairs each added or changed node at once, in the same
// microtask checkpoint as React's commit: before the browser draws the page, builds its accessibility tree, or runs any
// other task (a test's script, axe-core, a screen reader's query). Nothing here waits on a timer.
//
// A repair names the nodes it applies to (a CSS selector) and what it does to one; it writes only what differs, so the
// attribute changes it makes end there (heard once more, changed nothing). A page-wide check (the focus, the sidebar,
// the scroll) runs once per batch of changes, after the repairs.

/**
 * @typedef {object} Repair
 * @property {string} selector the elements it applies to
 * @property {(node: Element) => void} fix makes one right; writes only what differs
 * @property {string[]} [attributes] a change of one of these (on a matching element) calls it again
 */

/** @type {Repair[]} */
const repairs = [];
/** @type {(() => void)[]} */
const checks = [];
/** @type {Set<string>} */
const watched = new Set();
/** @type {MutationObserver | null} */
let observer = null;
/** Batches heard in a row without the page drawing in between: a repair that starts a change it must repair again. */
let inARow = 0;
/** More batches than this in a row, and the repairs wait for the next task: the page can never hang on them. */
const MOST_IN_A_ROW = 50;

/**
 * Repair every element matching ``selector`` now and whenever one is added (or one of ``attributes`` changes on it).
 * @param {string} selector
 * @param {(node: Element) => void} fix
 * @param {string[]} [attributes]
 */
export function repair(selector, fix, attributes = []) {
  const entry = { selector, fix, attributes };
  repairs.push(entry);
  for (const name of attributes) watched.add(name);
  for (const node of document.querySelectorAll(selector)) apply(entry, node);
  if (attributes.length) restart();
}

/**
 * Run ``check`` after every batch of changes to the page (and once now): for what depends on the page as a whole.
 * @param {() => void} check
 */
export function afterChanges(check) {
  checks.push(check);
  check();
}

/** Every repair again over the whole page (what they depend on changed: the page's language). */
export function repairAll() {
  for (const entry of repairs) for (const node of document.querySelectorAll(entry.selector)) apply(entry, node);
}

/**
 * @param {Repair} entry
 * @param {Element} node
 */
function apply(entry, node) {
  try {
    entry.fix(node);
  } catch (error) {
    console.error("attention-repair", entry.selector, error); // one repair's fault never stops the others
  }
}

/** @param {Element} node an element added to the page: it and everything inside it */
function added(node) {
  for (const entry of repairs) {
    if (node.matches(entry.selector)) apply(entry, node);
    for (const inner of node.querySelectorAll(entry.selector)) apply(entry, inner);
  }
}

/** @param {Element} inside an element whose text changed: the repairs of it and of what holds it */
function again(inside) {
  for (const entry of repairs) {
    const match = inside.closest(entry.selector);
    if (match) apply(entry, match);
  }
}

/** Every page-wide check now (what changed lies where the observer cannot see: a component's shadow root). */
export function checkNow() {
  repairBatch([]);
}

/**
 * Each batch of changes repaired at once. Repairs write only what differs, so their own writes end after one more batch;
 * should two parties ever undo each other (a repair and Streamlit, or two repairs), the batches would follow each other
 * in microtasks forever and the page would never draw or answer again. After MOST_IN_A_ROW batches in a row the rest
 * wait for the next task (a timer: every repair once over the whole page), and the loop is said on the console.
 * @param {MutationRecord[]} records
 */
function changed(records) {
  inARow += 1;
  if (inARow === 1) setTimeout(() => (inARow = 0), 0);
  if (inARow > MOST_IN_A_ROW) {
    if (inARow > MOST_IN_A_ROW + 1) return;
    console.error("attention-repair: changes repaired in a loop; the rest wait for a timer");
    setTimeout(() => {
      repairAll(); // what this batch and the next ones held, repaired once, a task later
      repairBatch([]);
    }, 0);
    return;
  }
  repairBatch(records);
}

/**
 * What Plotly draws inside a chart (and its measuring node) is left alone while it draws: the chart's own repairs follow
 * each drawing (charts.js, chart-tools.js chartParts). Repairing its nodes as they were added (its layers' aria-hidden)
 * interleaved with Plotly's drawing, whose promise chain gives way to these callbacks: on the decoder's two heatmaps with
 * their colour bars that set off Plotly's margin redraws without end (hundreds of thousands of changes a second,
 * growing; the page never settled).
 */
const PLOTLY = ".js-plotly-plot, #js-plotly-tester";

/** @param {MutationRecord} record @returns {boolean} a change inside a chart being drawn */
function insideChart(record) {
  const target = record.target instanceof Element ? record.target : record.target.parentElement;
  return !!target?.closest(PLOTLY);
}

/** @param {MutationRecord[]} records */
function repairBatch(records) {
  const relevant = records.filter((record) => !insideChart(record));
  if (records.length && !relevant.length) return; // Plotly drawing: a chart's 100,000 changes a second cost nothing here
  for (const record of relevant) {
    if (record.type === "childList") {
      for (const node of record.addedNodes) if (node instanceof Element) added(node);
      // new text in an element (a label drawn again) may need its repair again
      const texts = [...record.addedNodes].some((node) => node.nodeType === Node.TEXT_NODE);
      if (texts && record.target instanceof Element) again(record.target);
    } else if (record.type === "characterData" && record.target.parentElement) {
      again(record.target.parentElement);
    } else if (record.type === "attributes" && record.target instanceof Element && record.attributeName) {
      const name = record.attributeName;
      for (const entry of repairs) {
        if (entry.attributes?.includes(name) && record.target.matches(entry.selector)) apply(entry, record.target);
      }
    }
  }
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      console.error("attention-check", error);
    }
  }
}

function restart() {
  observer?.disconnect();
  observer = new MutationObserver(changed);
  const options = {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: [...watched],
  };
  observer.observe(document, options);
}

/** Start hearing the page's changes (once). */
export function watch() {
  if (!observer) restart();
}
