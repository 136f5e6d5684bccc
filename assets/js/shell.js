// Three fixes to how Streamlit's page behaves in a class, in the head of every page (scripts/paths.PageScripts).
const host = window, doc = document;
if (!host.__attentionShell) {
  host.__attentionShell = true;
  const NAV = "[data-testid=stSidebarNavLink]";
  // 1. A box being typed in commits before the menu navigates. Streamlit commits a text box on blur, and a click
  //    on the menu blurs it, but the box's rerun then reaches the server after the navigation and takes the
  //    student back: the click waits until the commit is sent.
  let committedAt = 0, replaying = false;
  doc.addEventListener("focusout", (event) => {
    if (event.target.matches && event.target.matches("[data-testid=stTextInput] input, [data-testid=stTextArea] textarea")) committedAt = Date.now();
  }, true);
  doc.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest(NAV);
    if (!link || replaying || Date.now() - committedAt > 800) return;
    event.preventDefault(); event.stopImmediatePropagation();
    setTimeout(() => { replaying = true; link.click(); replaying = false; }, 450);
  }, true);
  // 2. On a phone the sidebar covers the page: it closes once a page is chosen.
  doc.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest(NAV);
    if (!link || host.innerWidth >= 640 || (Date.now() - committedAt <= 800 && !replaying)) return;
    setTimeout(() => { const close = doc.querySelector("[data-testid=stSidebarCollapseButton] button"); if (close) close.click(); }, 60);
  }, true);
  // 3. A help "?" inside a switch's label shows its help and never flips the switch (on touch, a tap on it did).
  const inLabelHelp = (target) => { const help = target.closest && target.closest("[data-testid=stTooltipHoverTarget] button");
    return help && help.closest("label") ? help : null; };
  for (const type of ["pointerdown", "pointerup", "mousedown", "mouseup", "touchstart", "touchend", "click"]) {
    doc.addEventListener(type, (event) => {
      const help = inLabelHelp(event.target);
      if (!help) return;
      event.stopPropagation();
      if (type === "click") {  // the help opens as on a hover (after the touch, which hover handlers ignore)
        event.preventDefault();
        setTimeout(() => { for (const over of ["pointerover", "pointerenter", "mouseover", "mouseenter"]) {
          const Event = over.startsWith("pointer") ? PointerEvent : MouseEvent;
          help.dispatchEvent(new Event(over, {bubbles: !over.endsWith("enter"), pointerType: "mouse"})); } }, 120);
      }
    }, true);
  }
}
