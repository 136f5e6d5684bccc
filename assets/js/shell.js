// Fixes to how Streamlit's page behaves in a class and to a screen reader, in the head of every page (scripts/paths.PageScripts).
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
  // 1b. Nothing leaves the server: a page's Material icon becomes the tab's icon through an SVG on fonts.gstatic.com,
  //     which Streamlit fetches when the page opens. The tab keeps the app's own icon (set_page_config) instead.
  const href = Object.getOwnPropertyDescriptor(HTMLLinkElement.prototype, "href");
  Object.defineProperty(HTMLLinkElement.prototype, "href", {
    configurable: true, get() { return href.get.call(this); },
    set(value) { if (!(this.rel === "shortcut icon" && String(value).startsWith("https://fonts.gstatic.com/"))) href.set.call(this, value); },
  });
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
  // 4. The page's language is the link's lang= (the app writes it on every view): <html lang> follows it, for a
  //    screen reader's voice and the browser's fonts.
  const language = () => new URLSearchParams(host.location.search).get("lang") === "zh" ? "zh" : "en";
  const texts = host.__attentionTexts || {}, english = texts.en || {};
  // 5. In Chinese, what Streamlit writes in English only (accessible names, tooltips, hints; assets/text/*/browser.toml)
  //    is said in Chinese: an attribute or a tooltip's whole text equal to one of them is replaced; "Help for {label}"
  //    is a pattern.
  const said = (lang) => {
    const own = texts[lang] || {}, exact = new Map(), patterns = [];
    for (const [key, text] of Object.entries(english)) {
      if (!key.startsWith("streamlit.") || !own[key]) continue;
      if (text.includes("{label}")) {
        const [before, after] = text.split("{label}");
        patterns.push([before, after, own[key]]);
      } else exact.set(text, own[key]);
    }
    return (value) => {
      if (exact.has(value)) return exact.get(value);
      for (const [before, after, into] of patterns)
        if (value.startsWith(before) && value.endsWith(after) && value.length > before.length + after.length)
          return into.replace("{label}", value.slice(before.length, value.length - after.length));
      return null;
    };
  };
  const translate = {zh: said("zh")};
  const ATTRIBUTES = ["aria-label", "title", "data-title", "placeholder"];
  const TOOLTIPS = "[data-testid=stTooltipContent], [data-baseweb=tooltip], [data-baseweb=popover], [role=tooltip], [role=menu], " +
    "[role=listbox], [aria-live], [data-testid=InputInstructions], a, button";
  // 6. A skip link to the step's Previous and Next, after Streamlit's "Skip to main content": on a page with steps,
  //    Tab, Tab, Enter puts the focus on Next (or Previous on the last step).
  const skip = doc.createElement("a");
  skip.href = "#"; skip.className = "attention-skip"; skip.hidden = true;
  skip.addEventListener("click", (event) => {
    event.preventDefault();
    const target = doc.querySelector(".st-key-walk-next button:not([disabled])") || doc.querySelector(".st-key-walk-previous button:not([disabled])");
    if (target) target.focus();
  });
  let pending = 0, leftNav = null;  // the step button the focus left last, and when
  doc.addEventListener("focusout", (event) => {
    const nav = event.target.closest && event.target.closest(".st-key-walk-next, .st-key-walk-previous");
    leftNav = nav ? {name: nav.classList.contains("st-key-walk-next") ? "next" : "previous", at: Date.now()} : null;
    if (nav) host.setTimeout(soon, 300);
  }, true);
  doc.addEventListener("focusin", () => { leftNav = null; }, true);
  let shownPath = null, restore = null;  // the page whose top was shown; where Back returns to on a page
  const scrolls = {};  // how far down each page was when another was opened from it
  const tidy = () => {
    pending = 0;
    // Another page from the menu opens at its top: Streamlit keeps the main area's scroll of the page before, so a page
    // chosen from far down a long one opened mid-page. Back (or Forward) returns to where that page was left, as it
    // is drawn (for up to 8 s).
    const main = doc.querySelector("[data-testid=stMain]");
    if (main && host.location.pathname !== shownPath) {
      if (shownPath !== null && !host.location.hash) main.scrollTo(0, 0);
      shownPath = host.location.pathname;
    }
    if (main && restore && restore.path === host.location.pathname) {  // kept while the page is drawn (its old content
      if (Date.now() > restore.until) restore = null;                  // first), until the student scrolls or clicks
      else if (Math.abs(main.scrollTop - restore.top) > 2 && main.scrollHeight >= restore.top + main.clientHeight)
        main.scrollTo(0, restore.top);
    }
    const lang = language();
    if (doc.documentElement.lang !== lang) doc.documentElement.lang = lang;
    // A heading's link icon (shown on hover, for copying) is no Tab stop: a lesson's stops took two Tabs each.
    for (const anchor of doc.querySelectorAll("[data-testid=stHeaderActionElements] a:not([tabindex])")) anchor.tabIndex = -1;
    const theirs = doc.querySelector("[data-testid=stSkipToContent]");
    if (theirs && theirs.nextElementSibling !== skip) theirs.after(skip);
    else if (!theirs && doc.body && !skip.isConnected) doc.body.prepend(skip);  // Streamlit's not drawn yet (or gone)
    skip.textContent = (texts[lang] || english)["page.skip_steps"] || english["page.skip_steps"] || "";
    skip.hidden = !doc.querySelector(".st-key-walk-next button");
    // A formula or a table wider than its column (on a phone) scrolls sideways: the keyboard can reach it to scroll
    // it (WCAG 2.1.1).
    for (const wide of doc.querySelectorAll(".katex-display, [data-testid=stTable] > div")) {
      const scrolls = wide.scrollWidth > wide.clientWidth + 1;
      if (scrolls && !wide.hasAttribute("tabindex")) wide.tabIndex = 0;
      else if (!scrolls && wide.getAttribute("tabindex") === "0") wide.removeAttribute("tabindex");
    }
    // The live class's teacher: the browser keeps the code and key (views/live.remember), so a reload stays the teacher.
    for (const kept of doc.querySelectorAll("[data-remember]:not([data-remembered])")) {
      const name = kept.getAttribute("data-remember"), value = kept.getAttribute("data-value") || "";
      if (/^[a-z_]+$/.test(name)) doc.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${parseInt(kept.getAttribute("data-age"), 10) || 0}; SameSite=Strict`;
      kept.setAttribute("data-remembered", "");
    }
    // The presenter bar's choices: a button with an icon alone is named by its help text.
    const own = texts[lang] || english, choices = doc.querySelector(".st-key-walk-choices button");
    if (choices && own["walkthrough.choices"] && choices.getAttribute("aria-label") !== own["walkthrough.choices"])
      choices.setAttribute("aria-label", own["walkthrough.choices"]);
    for (const frame of doc.querySelectorAll("[data-testid=stSidebar] iframe")) {  // the copy-link button's frame
      if (own["page.copy_frame"] && frame.title !== own["page.copy_frame"]) frame.title = own["page.copy_frame"];
    }
    // Next pressed on the last step (or Previous on the first) is disabled, and the focus fell to the page: it goes
    // to the other button, as a keyboard user expects.
    if (leftNav && Date.now() - leftNav.at < 4000 && (doc.activeElement === doc.body || !doc.activeElement)) {
      const gone = doc.querySelector(`.st-key-walk-${leftNav.name} button`);
      const other = doc.querySelector(`.st-key-walk-${leftNav.name === "next" ? "previous" : "next"} button`);
      if ((!gone || gone.disabled) && other && !other.disabled) { other.focus(); leftNav = null; }
    }
    const into = translate[lang];
    if (!into) return;
    for (const name of ATTRIBUTES) for (const el of doc.querySelectorAll(`[${name}]`)) {
      const now = into(el.getAttribute(name));
      if (now !== null) el.setAttribute(name, now);
    }
    for (const el of doc.querySelectorAll(TOOLTIPS)) {
      const walker = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) { const now = into(walker.currentNode.textContent.trim()); if (now !== null) walker.currentNode.textContent = now; }
    }
  };
  const soon = () => { if (!pending) pending = host.setTimeout(tidy, 60); };
  // A page opened from the menu is one step of Back, not two: Streamlit pushes the bare page ("/scaling-lab"), then
  // pushes it again with the values the app writes; that second push replaces the first.
  const replace = host.history.replaceState;
  const bare = (url) => { const to = new URL(String(url), host.location.href);
    return to.pathname === host.location.pathname && !host.location.search && !host.location.hash; };
  for (const name of ["pushState", "replaceState"]) {
    const original = host.history[name];
    host.history[name] = function (...args) {
      const result = (name === "pushState" && args[2] != null && bare(args[2]) ? replace : original).apply(this, args);
      soon();
      return result;
    };
  }
  host.addEventListener("popstate", () => {
    const main = doc.querySelector("[data-testid=stMain]");
    if (main && shownPath !== null && shownPath !== host.location.pathname) scrolls[shownPath] = main.scrollTop;
    const top = scrolls[host.location.pathname];
    restore = top ? {path: host.location.pathname, top, until: Date.now() + 8000} : null;
    soon();
  });
  for (const type of ["wheel", "touchstart", "keydown", "mousedown"]) doc.addEventListener(type, () => { restore = null; }, true);
  const leaving = (event) => {  // a page chosen in the menu, by pointer or by Enter: Back comes back here (the scroll
    const main = doc.querySelector("[data-testid=stMain]");  // is measured now: by the click, Streamlit has reset it)
    if (event.type === "keydown" && event.key !== "Enter") return;
    if (main && event.target.closest && event.target.closest(NAV)) scrolls[host.location.pathname] = main.scrollTop;
  };
  doc.addEventListener("pointerdown", leaving, true);
  doc.addEventListener("keydown", leaving, true);
  new MutationObserver(soon).observe(doc, {subtree: true, childList: true, attributes: true, attributeFilter: ATTRIBUTES});
  soon();
}
