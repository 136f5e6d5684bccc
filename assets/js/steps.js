// The walkthrough's Previous and Next: ← and → press them, and no press is lost (in the head of every page: scripts/paths.PageScripts; it acts where Previous and Next are).
// Streamlit merges the presses of one button that reach the server before a run uses them into one press, so a
// teacher's quick clicks (or a clicker's) would step fewer times than pressed. A press waits here until the last
// one passed on has been drawn (the link's step changed: the part writes it when its run ends), then goes on.
const host = window;
if (!host.__attentionSteps) {
  const KEYS = {ArrowLeft: -1, ArrowRight: 1};
  const BUTTONS = {"-1": ".st-key-walk-previous button", "1": ".st-key-walk-next button"};
  const PATIENCE = 30000;  // ms: a press whose step never arrives (the run failed) holds the rest no longer; a long
                          // page's run on a loaded server can take over 10 s, and a press sent before it ends is merged
  let waiting = 0;  // presses not passed on yet: + Next, − Previous
  let sent = null;  // the last press passed on: {step: the link's step then, at: when}
  const step = () => new URLSearchParams(location.search).get("step");
  const busy = () => sent !== null && step() === sent.step && performance.now() - sent.at < PATIENCE;
  // A page just opened shows its text before its buttons (Streamlit draws a long page in parts): a press made then
  // waits for the button, on the walkthrough's path and for the first seconds only (elsewhere ← and → scroll).
  const opening = () => location.pathname === "/" && performance.now() < 8000;
  const pass = (by, click) => {  // false: the button is not drawn yet
    const button = document.querySelector(BUTTONS[by]);
    if (!button) return false;
    if (button.disabled) { waiting = 0; return true; }  // the first or the last step: presses beyond it are dropped
    sent = {step: step(), at: performance.now()};
    if (click) { button.dataset.passing = ""; button.click(); delete button.dataset.passing; }
    return true;
  };
  const next = () => {  // pass one waiting press on when the last one has been drawn, and come back for the rest
    if (!waiting) return;
    if (busy()) { setTimeout(next, 50); return; }
    const by = Math.sign(waiting);
    if (!pass(by, true)) { if (opening()) setTimeout(next, 100); else waiting = 0; return; }
    if (waiting) waiting -= by;
    if (waiting) setTimeout(next, 50);
  };
  host.__attentionSteps = {waiting: () => waiting};
  document.addEventListener("keydown", (event) => {
    // Not while typing or on a slider; a toggle or a radio keeps focus after a click (presenter mode just switched on).
    const typing = event.target.closest && event.target.closest(
      "input:not([type=checkbox]):not([type=radio]), textarea, [contenteditable=true], [role=slider]");
    const by = KEYS[event.key];
    if (typing || !by || event.altKey || event.ctrlKey || event.metaKey || !(document.querySelector(BUTTONS[by]) || opening())) return;
    event.preventDefault();
    waiting += by;
    next();
  });
  // A click on Previous or Next waits its turn too (capture: before Streamlit sees it).
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest(`${BUTTONS["-1"]}, ${BUTTONS["1"]}`);
    if (!button || "passing" in button.dataset || button.disabled) return;
    const by = button.closest(".st-key-walk-next") ? 1 : -1;
    if (!waiting && !busy()) { pass(by, false); return; }  // Streamlit handles this one now
    event.preventDefault();
    event.stopImmediatePropagation();
    waiting += by;
    next();
  }, true);
}
