// A live class's phone hears the teacher move on within a second: the page waits on the server
// (GET -/live/wait?since=<version>, its seat in its HttpOnly cookie: classroom/bell.py) and, once the class moved on,
// asks for a run of the part it is drawn in (views/shell/script.bell). The phone still reads by itself every few
// seconds (views/live/phone.watch): a wait that fails (a restart, a proxy that cuts it) makes it late, never lost.
// A component of its own, a few lines long, mounted in every run of that part (the page's script is 65 KB): it meets
// the page's script only through the window (cookiesKept, shell/keep.js).

/** Where the page waits (classroom/bell.PATH), beside the page's own address. */
export const WAIT_PATH = "-/live/wait";

/** @type {{since: string, controller: AbortController | null}} */
let waiting = { since: "", controller: null };

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long to wait before asking again (ms): at once after a wait with nothing new; after a failure or a refusal (no
 * seat's cookie yet: its ticket may still be on its way), 1 s, then twice as long each time, up to 30 s (the phone's
 * own reading takes over meanwhile).
 * @param {number} status the answer's HTTP status, 0 for no answer
 * @param {number} failures how many answers in a row were not 200, this one included
 */
export function pauseAfter(status, failures) {
  if (status === 200) return 0;
  return Math.min(30000, 1000 * 2 ** Math.max(0, failures - 1));
}

/**
 * Wait for the class to move on from ``since``, then call ``rang`` with its new version (once).
 * @param {string} since
 * @param {AbortSignal} signal
 * @param {(version: string) => void} rang
 */
async function wait(since, signal, rang) {
  let pause = 0;
  let failures = 0;
  while (!signal.aborted) {
    if (pause) await sleep(pause);
    await /** @type {any} */ (window).__attentionCookiesKept?.(); // the seat's cookie, its ticket drawn with this page
    if (signal.aborted) return;
    let status = 0;
    try {
      const address = new URL(`${WAIT_PATH}?since=${encodeURIComponent(since)}`, window.location.href);
      const answer = await fetch(address, { credentials: "same-origin", cache: "no-store", signal });
      status = answer.status;
      if (status === 200) {
        const { version } = await answer.json();
        if (typeof version === "string" && version && version !== since) {
          rang(version);
          return;
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    failures = status === 200 ? 0 : failures + 1;
    pause = pauseAfter(status, failures);
  }
}

/**
 * The server drew the phone from ``since``: wait from there (a wait on an older version is dropped).
 * @param {{since?: string}} data
 * @param {(name: string, value: unknown) => void} trigger the component's setTriggerValue
 */
export function ring(data, trigger) {
  const since = String(data.since || "");
  if (waiting.controller && waiting.since === since) return;
  waiting.controller?.abort();
  const controller = new AbortController();
  waiting = { since, controller };
  wait(since, controller.signal, (version) => {
    waiting = { since: "", controller: null };
    trigger("rang", version);
  });
}

/**
 * Streamlit's component entry: ``data`` is {since}.
 * @param {{data: any, setTriggerValue: (name: string, value: unknown) => void}} component
 */
export default function (component) {
  if (component.data) ring(component.data, component.setTriggerValue);
}
