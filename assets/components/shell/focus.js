// The focus goes where a keyboard and a screen reader expect it (WCAG 2.4.3), never to what is hidden: to a page's title
// after a menu click, into a pop-over and back to its button, to the part the server asked for (a question opened), to
// the button that opens the sidebar again once it closed. Streamlit 1.67 has no public API for the focus.

import { afterChanges, repair } from "./repair.js";

export const FOCUSABLE =
  "button:not([disabled]), a[href], input:not([disabled]):not([type=hidden]), select, textarea, [tabindex]:not([tabindex='-1'])";
const SIDEBAR = "[data-testid=stSidebar]";

/**
 * @typedef {object} Wish the focus wanted on what ``find`` gives
 * @property {() => HTMLElement | null} find
 * @property {number} until it is given up then (ms)
 * @property {number} since
 * @property {boolean} always even from where the focus is now (a menu link, a pop-over's button)
 * @property {boolean} still without scrolling it into view
 * @property {"" | "arrive" | "lost"} kind a page arrived at; only once the focus is lost (its element gone)
 */

/** @type {Wish | null} */
let wanted = null;

/** @returns {boolean} the focus is nowhere a student put it: on the page's body, on an element now gone or inert */
export function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || !!active.closest("[inert]");
}

/**
 * Focus what ``find`` gives once it exists (for up to ``ms``), unless the student has put the focus somewhere by then.
 * It is held there while the page draws it again, until ``ms`` pass or the student presses a key or the pointer.
 * @param {() => HTMLElement | null} find
 * @param {{ms?: number, always?: boolean, still?: boolean, kind?: Wish["kind"]}} [options]
 */
export function moveFocus(find, { ms = 3000, always = false, still = false, kind = "" } = {}) {
  wanted = { find, until: Date.now() + ms, since: Date.now(), always, still, kind };
  grant();
}

/** @returns {boolean} a page chosen in the menu is still being arrived at (its title takes the focus) */
export function arriving() {
  return !!wanted && wanted.kind === "arrive" && Date.now() <= wanted.until;
}

function grant() {
  if (!wanted) return;
  if (Date.now() > wanted.until) {
    wanted = null;
    return;
  }
  const target = wanted.find();
  if (!target?.isConnected || document.activeElement === target) return;
  if (wanted.kind === "lost" && !focusLost()) return; // never taken from a control
  if (!focusLost() && !wanted.always) {
    wanted = null;
    return;
  }
  wanted.always = false;
  wanted.until = Math.min(wanted.until, Date.now() + 1500); // held a moment while the page draws it again, no longer
  target.focus({ preventScroll: wanted.still });
}

/**
 * A page chosen in the menu: the focus moves to the page (its title; in presenter mode, where the title is hidden, the
 * main area), as a screen reader expects after a navigation, not left on the menu's link.
 * @param {string} from the path left
 */
export function arrive(from) {
  const find = () => {
    const main = /** @type {HTMLElement | null} */ (document.querySelector("[data-testid=stMain]"));
    if (!main || window.location.pathname === from) return null;
    const title = /** @type {HTMLElement | null} */ (
      main.querySelector("[data-testid=stElementContainer]:not([data-stale=true]) h1")
    );
    const place = title?.getClientRects().length ? title : title ? main : null;
    if (place && place.getAttribute("tabindex") === null) place.tabIndex = -1;
    return place;
  };
  moveFocus(find, { ms: 8000, always: true, still: true, kind: "arrive" });
}

/**
 * A pop-over (st.popover) takes the focus to its first control when it opens (or to what it marks data-focus-first:
 * "End the class" asks first, so that a second Enter is no irreversible "Yes") and gives it back to its button when it
 * closes. Tab from its last control leaves it for what follows its button; Shift+Tab from its first goes back to its
 * button (either closes it). Baseweb draws the pop-over at the end of the page: Tab fell from it to the page's body.
 */
function popovers() {
  /** @type {Element | null} */
  let open = null;
  /** @type {HTMLElement | null} */
  let opener = null;
  afterChanges(() => {
    const body = document.querySelector("[data-testid=stPopoverBody]");
    if (body && body !== open) {
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      if (active?.closest("[data-testid=stPopover]")) opener = active;
      const first = /** @type {HTMLElement | null} */ (
        body.querySelector("[data-focus-first]") || body.querySelector(FOCUSABLE)
      );
      if (!first) return; // its box is drawn before what it holds: the focus goes in once there is a control
      open = body;
      moveFocus(() => first, { ms: 1000, always: true });
    } else if (!body && open) {
      open = null;
      const back = opener;
      opener = null;
      if (back?.isConnected && focusLost()) back.focus();
    }
  });
  document.addEventListener(
    "keydown",
    (event) => {
      if (event.key !== "Tab" || !open || !(event.target instanceof HTMLElement) || !open.contains(event.target))
        return;
      const inside = [.../** @type {NodeListOf<HTMLElement>} */ (open.querySelectorAll(FOCUSABLE))].filter(
        (node) => node.getClientRects().length,
      );
      const edge = event.shiftKey ? inside[0] : inside[inside.length - 1];
      const back = opener?.isConnected ? opener : null;
      if ((edge && event.target !== edge) || !back) return;
      event.preventDefault();
      opener = null;
      if (event.shiftKey) {
        back.click(); // closed, on its button
        setTimeout(() => back.focus(), 0);
        return;
      }
      const all = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(FOCUSABLE))].filter(
        (node) => node.getClientRects().length && !node.closest("[inert], [data-testid=stPopoverBody]"),
      );
      const after = all[all.indexOf(back) + 1];
      back.click(); // closes it (its button toggles it); the focus then goes on, not back to the button
      if (after) setTimeout(() => after.focus(), 0);
    },
    true,
  );
}

/**
 * The sidebar, once collapsed (presenter mode, a narrow window, a phone), is off the screen: inert, out of the Tab order
 * and the accessibility tree. Collapsed by its own button, the focus goes to the button that opens it again; opened by
 * that, to its menu's first link. Escape closes it when the keyboard is in it and nothing inside it is open. On a short
 * window or a touch screen narrower than a laptop it starts closed (Streamlit opens it on any window wider than 768 px:
 * a phone on its side lost 300 px of 390 to the menu).
 */
function sidebar() {
  /** @type {boolean | null} */
  let collapsed = null;
  let checked = false;
  afterChanges(() => {
    const side = /** @type {HTMLElement | null} */ (document.querySelector(SIDEBAR));
    if (!side) return;
    let now = side.getAttribute("data-collapsed") === "true";
    const close = /** @type {HTMLElement | null} */ (
      side.querySelector("[data-testid=stSidebarCollapseButton] button")
    );
    if (!checked) {
      checked = true; // once per page load, at the sidebar's first sight: opened by the student, it stays open
      if (
        !now &&
        close &&
        window.matchMedia("(max-height: 500px), (pointer: coarse) and (max-width: 1024px)").matches
      ) {
        close.click();
        now = true;
      }
    }
    if (side.inert !== now) side.inert = now;
    const active = document.activeElement;
    const moved = collapsed !== null && now !== collapsed && !arriving();
    const ours =
      focusLost() ||
      (now && side.contains(active)) ||
      (!now && !!active?.closest("[data-testid=stExpandSidebarButton]"));
    if (moved && ours) {
      const open = "[data-testid=stExpandSidebarButton] button, [data-testid=stExpandSidebarButton]";
      moveFocus(
        () =>
          now
            ? document.querySelector(open)
            : side.querySelector("[data-testid=stSidebarNavLink]") || side.querySelector(FOCUSABLE),
        {
          ms: 1500,
          always: true,
        },
      );
    }
    collapsed = now;
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented || !(event.target instanceof Element)) return;
    const side = document.querySelector(SIDEBAR);
    if (!side || side.getAttribute("data-collapsed") === "true" || !side.contains(event.target)) return;
    if (
      event.target.closest("[aria-expanded=true]") ||
      document.querySelector("[data-baseweb=popover], [data-testid=stPopoverBody]")
    )
      return;
    /** @type {HTMLElement | null} */ (side.querySelector("[data-testid=stSidebarCollapseButton] button"))?.click();
  });
}

/**
 * A part the server asked the focus to go to (views/shell/page.want_focus: a class started, a question opened, an answer
 * revealed, whose button is gone or has moved): once per wish, to the first heading or message drawn after its mark. A
 * mark data-focus-lost (a phone's question the teacher moved on) waits until the focus is lost, or the wish expires.
 */
function wishes() {
  const granted = new Set();
  const FIRST = "h1, h2, h3, [data-testid=stAlert]";
  repair("span.attention-focus[data-focus]", (mark) => {
    const wish = mark.getAttribute("data-focus");
    if (granted.has(wish)) return;
    granted.add(wish);
    const from = mark.closest("[data-testid=stElementContainer]") || mark;
    const onlyLost = mark.hasAttribute("data-focus-lost");
    const find = () => {
      if (!from.isConnected) return null;
      for (let next = from.nextElementSibling; next; next = next.nextElementSibling) {
        const found = /** @type {HTMLElement | null} */ (next.matches(FIRST) ? next : next.querySelector(FIRST));
        if (!found) continue;
        if (found.getAttribute("tabindex") === null) found.tabIndex = -1;
        return found;
      }
      return null;
    };
    moveFocus(find, { ms: onlyLost ? 8000 : 4000, always: !onlyLost, kind: onlyLost ? "lost" : "" });
  });
}

/** Where the focus goes, installed once. */
export function installFocus() {
  for (const type of ["keydown", "pointerdown"]) {
    document.addEventListener(
      type,
      () => {
        if (wanted && Date.now() - wanted.since > 50) wanted = null;
      },
      true,
    );
  }
  popovers();
  sidebar();
  wishes();
  afterChanges(grant);
  // The main area is no Tab stop of its own (its controls are): Streamlit gives it tabindex 0 for scrolling.
  repair(
    "[data-testid=stMain][tabindex='0']",
    (main) => /** @type {HTMLElement} */ (main).setAttribute("tabindex", "-1"),
    ["tabindex"],
  );
  // A heading's link icon (shown on hover, for copying) is no Tab stop: a lesson's stops took two Tabs each.
  repair("[data-testid=stHeaderActionElements] a:not([tabindex])", (anchor) => anchor.setAttribute("tabindex", "-1"));
}
