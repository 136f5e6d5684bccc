// What the browser keeps for the server. The values the step component keeps (views/shell/registry Page.browser: the
// step, the head, the word) stay in the link: the server writes the page's own values and leaves these out; after it
// did, they are put back from what the component stored for this page (only while the server's token is the one the
// component saw: a link opened sets them again). A value the server asks the browser to remember (data-remember: the
// live class's seat and teacher, the lesson's guesses) goes into a cookie the server sets, by a ticket handed back.

import { readStore, VIEW_STORE } from "../common.js";
import { repair } from "./repair.js";

/**
 * @typedef {object} Keep what the server said about the page it drew (views/shell/script.keep)
 * @property {string} page
 * @property {string} token
 * @property {string[]} names the link's names of the values the browser keeps
 * @property {string} [path] the address's path it was said for
 */

/** @type {Keep | null} */
let last = null;
let keeping = false;

/**
 * ``href`` with the kept link values put back (and those the component no longer keeps removed), or null where it has
 * them already or the component's values belong to another token.
 * @param {string} href
 * @param {string[]} names
 * @param {{token?: string, url?: Record<string, string>} | null} kept the component's stored view for the page
 * @param {string} token the server's
 * @returns {string | null}
 */
export function linkKept(href, names, kept, token) {
  if (!kept || kept.token !== token || !kept.url) return null;
  const link = new URL(href);
  let changed = false;
  for (const name of names) {
    const value = kept.url[name];
    if (value === undefined) {
      if (!link.searchParams.has(name)) continue;
      link.searchParams.delete(name);
      changed = true;
    } else if (link.searchParams.get(name) !== value) {
      link.searchParams.set(name, value);
      changed = true;
    }
  }
  return changed ? link.href : null;
}

/** Put the kept values back into the address, now. */
function putBack() {
  if (!last || keeping || last.path !== window.location.pathname) return;
  const to = linkKept(window.location.href, last.names, readStore(VIEW_STORE + last.page), last.token);
  if (!to) return;
  keeping = true;
  try {
    window.history.replaceState(window.history.state, "", to);
  } finally {
    keeping = false;
  }
}

/**
 * The server drew ``data.page`` and wrote its link: the kept values go back into it, now and whenever the link is
 * written again (navigation.js calls keepAgain after every change of the address).
 * @param {Keep} data
 */
export function keep(data) {
  last = { ...data, path: window.location.pathname };
  putBack();
}

/** After the address changed: the kept values back into it. */
export function keepAgain() {
  putBack();
}

/** Where a ticket is handed back (views/shell/cookies.PATH), beside the page's own address. */
export const COOKIE_PATH = "-/cookie";

/** The tickets handed back so far, settled: a request that needs their cookies (bell.js) waits for it. */
let handing = Promise.resolve();

/**
 * A cookie the server asks the browser to keep (views/shell/script.cookie): the page holds only a ticket, handed back
 * at once to the server, whose answer sets the cookie where no script reads it (HttpOnly).
 * @param {Element} mark
 */
function remember(mark) {
  if (mark.hasAttribute("data-remembered")) return;
  mark.setAttribute("data-remembered", "");
  const ticket = mark.getAttribute("data-remember") || "";
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(ticket)) return;
  const handed = fetch(new URL(COOKIE_PATH, window.location.href), {
    method: "POST",
    body: ticket,
    credentials: "same-origin",
    keepalive: true,
  }).catch(() => {}); // offline for a moment: a later session asks again
  handing = Promise.all([handing, handed]).then(() => {});
}

/** @returns {Promise<void>} once every ticket the page has met is handed back (its cookie set, or refused) */
export function cookiesKept() {
  return handing;
}

/** The phone's wait on the server (bell.js, a component of its own) waits for the seat's cookie through the window. */
if (typeof window !== "undefined") /** @type {any} */ (window).__attentionCookiesKept = cookiesKept;

/** Cookies the server asks for, as it asks. */
export function installCookies() {
  repair("[data-remember]:not([data-remembered])", remember);
}
