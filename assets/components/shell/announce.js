// What a screen reader hears as the page changes. A message marked data-say (views/live/phone.py: "Sent: B. …") is
// said each time its words change: Streamlit draws it anew in each run, and a live region new to the page is not heard,
// so the page's own region, kept from the start, says it (a hidden mark says its data-words: the teacher moved on).
// What is shown in the first moments after the page opens is not said (a reload's "Sent: B"), unless it is news (data-news:
// the teacher moved on) or follows the student's own press. A progress bar (st.progress) is named by the
// words drawn above it ("B. Machines: 9 (45%)"), not Baseweb's English "progress": st.progress has no name of its own.

import { afterChanges, repair } from "./repair.js";

/** Messages drawn this soon after the page opened are what the page shows, not news. */
const OPENING_MS = 2500;

const PROGRESS = "[data-testid=stProgress]";

/** @param {Element} node a progress bar, or the box of one: the bar named by the words above it */
function nameBar(node) {
  const box = node.closest(PROGRESS);
  const bar = box?.querySelector("[role=progressbar]");
  const words = box?.firstElementChild?.textContent?.trim();
  if (bar && words && bar.getAttribute("aria-label") !== words) bar.setAttribute("aria-label", words);
}

/** The page's own live region, and the bars' names. */
export function installAnnouncements() {
  const opened = Date.now();
  let acted = false; // the student pressed or typed: what follows is an answer to it, said however soon
  const act = () => {
    acted = true;
  };
  document.addEventListener("pointerdown", act, { capture: true, once: true });
  document.addEventListener("keydown", act, { capture: true, once: true });
  const spoken = new Map();
  const region = document.createElement("div");
  region.setAttribute("role", "status");
  region.className = "attention-said";
  /** @param {string} words */
  const announce = (words) => {
    region.textContent = "";
    setTimeout(() => {
      region.textContent = words; // emptied first: the same words twice are said twice
    }, 50);
  };
  afterChanges(() => {
    if (!region.isConnected && document.body) document.body.append(region);
    for (const note of document.querySelectorAll("[data-say]")) {
      const name = note.getAttribute("data-say");
      const words = (note.getAttribute("data-words") || note.textContent || "").trim();
      if (spoken.get(name) === words) continue;
      spoken.set(name, words);
      if (acted || note.hasAttribute("data-news") || Date.now() - opened > OPENING_MS) announce(words);
    }
  });
  repair(`${PROGRESS}, ${PROGRESS} [role=progressbar]`, nameBar, ["aria-label"]);
}
