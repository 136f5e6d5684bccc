// Moving between pages: the menu's list as a screen reader expects it, a box's words sent before the menu navigates,
// one entry of history per page, and the scroll of the main area (a page chosen opens at its top; Back and Forward
// return to where a page was left).

import { COMMITTED, COMMITTING } from "../common.js";
import { afterChanges, repair } from "./repair.js";

export const MENU_LINK = "[data-testid=stSidebarNavLink]";
const MAIN = "[data-testid=stMain]";

/** @param {EventTarget | null} target @returns {HTMLAnchorElement | null} the menu's link an event is on */
function menuLink(target) {
  return target instanceof Element ? /** @type {HTMLAnchorElement | null} */ (target.closest(MENU_LINK)) : null;
}

/** @returns {HTMLElement | null} the main area, which scrolls */
function mainArea() {
  return document.querySelector(MAIN);
}

// --- The menu's sections as lists ---

/**
 * Streamlit draws the menu as <ul> > <div> (a section: its heading, then its <li>s), which is no list to a screen reader
 * (axe: list, listitem). Each section is the list, named by its heading; the <ul> only holds them. Repaired as Streamlit
 * draws it; until then theme's style hides it (views/shell/script.py: MENU_GUARD), so nobody meets the broken list.
 * @param {Element} items the menu's <ul>
 */
export function repairMenu(items) {
  if (items.getAttribute("role") !== "none") items.setAttribute("role", "none");
  for (const section of items.querySelectorAll(":scope > div")) {
    const heading = section.querySelector(":scope > [data-testid=stNavSectionHeader]");
    const name = heading?.firstElementChild?.textContent?.trim() || ""; // not its icon
    if (section.getAttribute("role") !== "list") section.setAttribute("role", "list");
    if (name && section.getAttribute("aria-label") !== name) section.setAttribute("aria-label", name);
    if (heading && heading.getAttribute("aria-hidden") !== "true") heading.setAttribute("aria-hidden", "true");
  }
}

// --- A box's words sent before the menu navigates ---

/** How long a menu click waits after Streamlit's own box lost the focus (it commits on blur, with no word when done). */
const AFTER_BLUR_MS = 450;
/** The longest a menu click waits for the step component's box to hear its words were received. */
const COMMIT_MS = 5000;

/**
 * A click on the menu waits while a box's words are on their way to the server: the box commits as the focus leaves it
 * (the click's pointerdown), and a navigation sent before that rerun reached the server lost the words (Streamlit ran the
 * new page, then the box's run of the old one: the page stayed blank or the old sentence came back). The step
 * component's box says when its words were received (COMMITTED); Streamlit's own box cannot, and its click waits 450 ms.
 */
function holdMenuClicks() {
  let streamlitBlur = 0;
  let committing = 0;
  /** @type {HTMLAnchorElement | null} */
  let held = null;
  let replaying = false;
  let timer = 0;
  const release = () => {
    clearTimeout(timer);
    committing = 0;
    const link = held;
    held = null;
    if (!link?.isConnected) return;
    replaying = true;
    try {
      link.click();
    } finally {
      replaying = false;
    }
  };
  document.addEventListener(
    "focusout",
    (event) => {
      const box = "[data-testid=stTextInput] input, [data-testid=stTextArea] textarea";
      if (event.target instanceof Element && event.target.matches(box)) streamlitBlur = Date.now();
    },
    true,
  );
  document.addEventListener(COMMITTING, () => {
    committing = Date.now();
  });
  document.addEventListener(COMMITTED, () => {
    if (held) release();
    else committing = 0;
  });
  document.addEventListener(
    "click",
    (event) => {
      const link = menuLink(event.target);
      if (!link || replaying) return;
      const now = Date.now();
      const component = committing && now - committing < COMMIT_MS;
      const streamlit = now - streamlitBlur <= 800;
      if (!component && !streamlit) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      held = link;
      clearTimeout(timer);
      timer = window.setTimeout(release, component ? COMMIT_MS - (now - committing) : AFTER_BLUR_MS);
    },
    true,
  );
}

// --- On a narrow screen the sidebar closes once a page is chosen ---

/**
 * The sidebar covers a narrow screen: it closes once a page is chosen. Streamlit does so itself on a phone's user agent;
 * a narrow window elsewhere (a tablet, a small laptop window) keeps it open over the page.
 */
function closeSidebarAfterChoice() {
  document.addEventListener(
    "click",
    (event) => {
      if (!menuLink(event.target) || window.innerWidth >= 640) return; // a held click never comes here (holdMenuClicks)
      window.setTimeout(() => {
        const sidebar = document.querySelector("[data-testid=stSidebar]");
        const close = /** @type {HTMLElement | null} */ (
          document.querySelector("[data-testid=stSidebarCollapseButton] button")
        );
        if (sidebar?.getAttribute("data-collapsed") !== "true") close?.click();
      }, 60);
    },
    true,
  );
}

// --- One entry of history per page ---

/** @type {(() => void)[]} */
const historyHooks = [];

/** @param {() => void} hook called after every change Streamlit (or anyone) makes to the address */
export function afterHistory(hook) {
  historyHooks.push(hook);
}

/**
 * A page opened from the menu is one step of Back, not two: Streamlit pushes the bare page ("/scaling-lab"), then
 * pushes it again with the values the app writes; that second push replaces the first. No public option changes it.
 */
function oneEntryPerPage() {
  const history = window.history;
  const replace = history.replaceState;
  /** @param {string | URL | null | undefined} url */
  const bare = (url) => {
    if (url == null) return false;
    const to = new URL(String(url), window.location.href);
    return to.pathname === window.location.pathname && !window.location.search && !window.location.hash;
  };
  for (const name of /** @type {const} */ (["pushState", "replaceState"])) {
    const original = history[name];
    history[name] = function (data, unused, url) {
      const result = (name === "pushState" && bare(url) ? replace : original).call(this, data, unused, url);
      for (const hook of historyHooks) hook();
      return result;
    };
  }
}

// --- Leaving a page from the menu ---

/** @type {((from: string) => void)[]} */
const leaveHooks = [];

/** @param {(from: string) => void} hook called with the page's path as a menu link is pressed (pointer or Enter) */
export function leftPage(hook) {
  leaveHooks.push(hook);
}

// --- The main area's scroll ---

/**
 * @typedef {object} Hold the main area held at ``top`` on page ``path`` while it is drawn
 * @property {string} path
 * @property {number} top
 * @property {number} drawnBy until then (ms) the page may still be drawing: the hold lasts
 * @property {number} reachedAt when the page first was tall enough to scroll there (0: not yet)
 */

/** How long a page may take to be drawn after Back, Forward or a menu click, on a loaded server. */
const DRAWING_MS = 60000;
/** How long the scroll is held once the page is tall enough (what is still drawn may move it). */
const SETTLING_MS = 1500;

/**
 * Another page from the menu opens at its top (Streamlit keeps the main area's scroll of the page before, so a page
 * chosen from far down a long one opened mid-page); Back and Forward return to where a page was left. The scroll is held
 * while the page is drawn (the old page's content, still there a moment, can carry it away), from when the page is tall
 * enough for it, and until the student scrolls, clicks or presses a key.
 */
function keepScroll() {
  /** @type {Record<string, number>} */
  const left = {}; // how far down each page was when another was opened from it
  /** @type {Hold | null} */
  let hold = null;
  let shownPath = window.location.pathname;
  /** @param {string} path @param {number} top */
  const holdAt = (path, top) => {
    hold = { path, top, drawnBy: Date.now() + DRAWING_MS, reachedAt: 0 };
  };
  const apply = () => {
    const main = mainArea();
    if (!main || !hold || hold.path !== window.location.pathname) return;
    const now = Date.now();
    const tall = main.scrollHeight >= hold.top + main.clientHeight;
    // tall enough from when it last became so: the old page's content, tall a moment before the new one is drawn,
    // does not start the settling
    if (!tall) hold.reachedAt = 0;
    else if (!hold.reachedAt) hold.reachedAt = now;
    if (now > hold.drawnBy || (hold.reachedAt && now - hold.reachedAt > SETTLING_MS)) {
      hold = null;
      return;
    }
    if (tall && Math.abs(main.scrollTop - hold.top) > 2) main.scrollTo(0, hold.top);
  };
  const leave = () => {
    const main = mainArea();
    if (main) left[window.location.pathname] = main.scrollTop; // measured now: by the click, Streamlit has reset it
    for (const hook of leaveHooks) hook(window.location.pathname);
  };
  document.addEventListener("pointerdown", (event) => menuLink(event.target) && leave(), true);
  document.addEventListener("keydown", (event) => event.key === "Enter" && menuLink(event.target) && leave(), true);
  window.addEventListener("popstate", () => {
    const main = mainArea();
    if (main && shownPath !== window.location.pathname) left[shownPath] = main.scrollTop;
    const top = left[window.location.pathname] || 0;
    holdAt(window.location.pathname, top);
    shownPath = window.location.pathname;
    apply();
  });
  for (const type of ["wheel", "touchstart", "keydown", "mousedown"]) {
    document.addEventListener(
      type,
      () => {
        hold = null;
      },
      true,
    );
  }
  afterChanges(() => {
    if (window.location.pathname !== shownPath) {
      // a page chosen (not Back or Forward, which popstate saw): its top, unless the address names a place in it
      if (!window.location.hash) holdAt(window.location.pathname, 0);
      shownPath = window.location.pathname;
    }
    const main = mainArea();
    if (main && !main.dataset.scrollHeld) {
      main.dataset.scrollHeld = "";
      main.addEventListener("scroll", apply, { passive: true }); // a scroll no change of the page follows
    }
    apply();
  });
}

/** The menu, the address and the scroll as a class expects them. */
export function installNavigation() {
  repair("[data-testid=stSidebarNavItems]", repairMenu);
  repair(
    "[data-testid=stSidebarNavItems] > div",
    (section) => section.parentElement && repairMenu(section.parentElement),
  );
  holdMenuClicks();
  closeSidebarAfterChoice();
  oneEntryPerPage();
  keepScroll();
}
