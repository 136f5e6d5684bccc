// The page's script, on every page: a components-v2 component (views/shell/script.py) mounted first in every run, in the page
// itself (no iframe, no shadow root); a chart Streamlit drew before it loaded is drawn again through it. The one script
// that reads Streamlit's private DOM (tests/test_shell_private_parts.py fails on an upgrade that renames a part). Streamlit behaves as a
// class and a screen reader need (shell), Plotly charts are drawn near the screen with their numbers as a table (charts),
// and the step component's values stay in the link after the server writes it (keep).

function shell() {
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
  const texts = host.__attentionTexts || {}, english = texts.en || {};  // set by the component's data, below
  // 5. In Chinese, what Streamlit writes in English only (accessible names, tooltips, hints; assets/text/*/browser.toml)
  //    is said in Chinese: an attribute or a tooltip's whole text equal to one of them is replaced; "Help for {label}"
  //    is a pattern.
  const said = (lang) => {
    const own = texts[lang] || {}, exact = new Map(), patterns = [];
    for (const [key, text] of Object.entries(english)) {
      if (!(key.startsWith("streamlit.") || key.startsWith("plotly.")) || !own[key]) continue;  // and a chart's toolbar
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
  //    Tab, Tab, Enter puts the focus on Next (on the last step too: it says it is the last, and Enter goes nowhere).
  //    Its target is the step component's box (a link to a place in the page, as axe's region rule expects).
  const skip = doc.createElement("a");
  skip.href = "#attention-steps"; skip.className = "attention-skip"; skip.hidden = true;
  skip.addEventListener("click", (event) => {
    event.preventDefault();
    const target = stepButton();
    if (target) target.focus();
  });
  let pending = 0;
  // The step component's Next (or Previous on its last step), inside its shadow root (assets/components/steps.js).
  const stepButton = () => {
    for (const host of doc.querySelectorAll("[data-testid=stBidiComponentIsolated]")) {
      const root = host.shadowRoot, next = root && root.querySelector(".bar:not([hidden]) .nav.next");
      if (next) { if (host.id !== "attention-steps" && !doc.getElementById("attention-steps")) host.id = "attention-steps"; return next; }
    }
    return null;
  };
  // 7. The focus goes where a keyboard and a screen reader expect it (WCAG 2.4.3), and never to what is hidden.
  //    ``moveFocus`` waits (for up to ``ms``) until ``find`` gives an element, then focuses it, unless the student has
  //    put the focus somewhere themselves by then (the focus is on the page's body, or on an element now gone).
  //    ``always``: even from where the focus is now (the menu's link, a pop-over's button). The focus is held there while
  //    the page draws the element again, until ``ms`` pass or the student presses a key or the pointer.
  let wanted = null;  // {find, until, since, always, still}
  const lost = () => { const active = doc.activeElement; return !active || active === doc.body || !active.isConnected || !!active.closest("[inert]"); };
  const moveFocus = (find, ms = 3000, always = false, still = false, kind = "") => { wanted = {find, until: Date.now() + ms, since: Date.now(), always, still, kind}; soon(); };
  const focusWanted = () => {
    if (!wanted) return;
    if (Date.now() > wanted.until) { wanted = null; return; }
    const target = wanted.find();
    if (!target || !target.isConnected || doc.activeElement === target) return;
    if (wanted.kind === "lost" && !lost()) return;  // only once the focus is lost (its element gone): never taken from a control
    if (!lost() && !wanted.always) { wanted = null; return; }
    wanted.always = false;
    wanted.until = Math.min(wanted.until, Date.now() + 1500);  // held a moment while the page draws it again, no longer
    target.focus({preventScroll: !!wanted.still});
  };
  for (const type of ["keydown", "pointerdown"]) doc.addEventListener(type, () => { if (wanted && Date.now() - wanted.since > 50) wanted = null; }, true);
  const FOCUSABLE = "button:not([disabled]), a[href], input:not([disabled]):not([type=hidden]), select, textarea, [tabindex]:not([tabindex='-1'])";
  // A page chosen in the menu: the focus moves to the page (its title; in presenter mode, where the title is hidden,
  // the main area), as a screen reader expects after a navigation, not left on the menu's link.
  const arrive = (from) => moveFocus(() => {
    const main = doc.querySelector("[data-testid=stMain]");
    if (!main || host.location.pathname === from) return null;
    const title = main.querySelector("[data-testid=stElementContainer]:not([data-stale=true]) h1");
    const place = title && title.getClientRects().length ? title : (title ? main : null);
    if (place && place.getAttribute("tabindex") === null) place.tabIndex = -1;
    return place;
  }, 8000, true, true, "arrive");
  // A pop-over (st.popover) takes the focus to its first control when it opens (or to what it marks data-focus-first:
  // "End the class" asks first, so that a second Enter is no irreversible "Yes") and gives it back to its button when it
  // closes (Escape, or a click outside).
  let popover = null, opener = null;
  const popovers = () => {
    const body = doc.querySelector("[data-testid=stPopoverBody]");
    if (body && body !== popover) {
      popover = body;
      const active = doc.activeElement;
      opener = active && active.closest && active.closest("[data-testid=stPopover]") ? active : opener;
      const first = body.querySelector("[data-focus-first]") || body.querySelector(FOCUSABLE);
      if (first) moveFocus(() => first, 1000, true);
    } else if (!body && popover) {
      popover = null;
      const back = opener; opener = null;
      if (back && back.isConnected && (lost() || doc.activeElement === doc.body)) back.focus();
    }
  };
  // Tab from a pop-over's last control leaves it for what follows its button; Shift+Tab from its first goes back to its
  // button (either closes it). Baseweb draws the pop-over at the end of the page: Tab fell from it to the page's body,
  // the pop-over still open.
  doc.addEventListener("keydown", (event) => {
    if (event.key !== "Tab" || !popover || !popover.contains(event.target)) return;
    const inside = [...popover.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length);
    const first = inside[0], last = inside[inside.length - 1];
    if (!(event.shiftKey ? event.target === first || !first : event.target === last || !last)) return;
    const back = opener && opener.isConnected ? opener : null;
    if (!back) return;
    event.preventDefault();
    if (event.shiftKey) { back.click(); opener = null; setTimeout(() => back.focus(), 0); return; }  // closed, on its button
    const all = [...doc.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length && !el.closest("[inert], [data-testid=stPopoverBody]"));
    const after = all[all.indexOf(back) + 1];
    back.click();  // closes it (its button toggles it); the focus then goes on, not back to the button
    opener = null;
    if (after) setTimeout(() => after.focus(), 0);
  }, true);
  // Escape closes the sidebar when the keyboard is in it and nothing inside it is open (a list, a pop-over, a tooltip
  // close first): the focus goes to the button that opens it again (sidebarState, below).
  doc.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    const sidebar = doc.querySelector("[data-testid=stSidebar]");
    if (!sidebar || sidebar.getAttribute("data-collapsed") === "true" || !sidebar.contains(event.target)) return;
    if (event.target.closest("[aria-expanded=true]") || doc.querySelector("[data-baseweb=popover], [data-testid=stPopoverBody]")) return;
    const close = sidebar.querySelector("[data-testid=stSidebarCollapseButton] button");
    if (close) close.click();
  });
  // The live class's answers are sent as soon as one is chosen (views/live/phone.py): on a phone a tap chooses. The
  // arrow keys, which choose the next option of a radio group as they move, only move here; Space or Enter chooses
  // (a keyboard never sends an answer on its way to another).
  doc.addEventListener("keydown", (event) => {
    const radio = event.target;
    if (!radio.matches || !radio.matches("[class*=st-key-live-answer-] input[type=radio]")) return;
    if (event.key === "Enter") { event.preventDefault(); event.stopPropagation(); if (!radio.checked) radio.click(); return; }
    const step = {ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1}[event.key];
    if (!step) return;
    event.preventDefault(); event.stopPropagation();  // nor Baseweb's own handler
    const all = [...radio.closest("[role=radiogroup]").querySelectorAll("input[type=radio]")];
    all[(all.indexOf(radio) + step + all.length) % all.length].focus();
  }, true);
  // A part the server asked the focus to go to (views/page.want_focus: a class started, a question opened, an answer
  // revealed, whose button is gone or has moved): once per wish, to the first heading or message drawn after its mark.
  // A mark data-focus-lost (a phone's question the teacher moved on) waits until the focus is lost, or the wish expires.
  const granted = new Set(), FIRST = "h1, h2, h3, [data-testid=stAlert]";
  const wishes = () => {
    for (const mark of doc.querySelectorAll("span.attention-focus[data-focus]")) {
      const wish = mark.getAttribute("data-focus");
      if (granted.has(wish)) continue;
      granted.add(wish);
      const from = mark.closest("[data-testid=stElementContainer]") || mark, onlyLost = mark.hasAttribute("data-focus-lost");
      moveFocus(() => {
        if (!from.isConnected) return null;
        for (let el = from.nextElementSibling; el; el = el.nextElementSibling) {
          const found = el.matches(FIRST) ? el : el.querySelector(FIRST);
          if (found) { if (found.getAttribute("tabindex") === null) found.tabIndex = -1; return found; }
        }
        return null;
      }, onlyLost ? 8000 : 4000, !onlyLost, false, onlyLost ? "lost" : "");
    }
  };
  // A chart's full screen (Streamlit's button in Plotly's toolbar) draws the chart again, and the focus fell to the
  // page: it goes to the same chart's button that closes (or opens) full screen, after the button and after Escape.
  const screenTitles = () => new Set(["fullscreen", "close_fullscreen"].flatMap((k) => Object.values(texts).map((t) => t && t[`streamlit.${k}`]).filter(Boolean)));
  const screenButton = (place) => { const titles = screenTitles();
    return [...place.querySelectorAll(".modebar-btn")].find((b) => titles.has(b.getAttribute("data-title")) || titles.has(b.getAttribute("aria-label"))) || null; };
  // Escape closes the chart shown full screen wherever the focus is in it (any button of its toolbar).
  const fullScreen = (event) => {
    const escape = event.type === "keydown" && event.key === "Escape";
    if (event.type === "keydown" && !escape && !((event.key === "Enter" || event.key === " ") && event.target.closest && event.target.closest(".modebar-btn"))) return;
    const button = event.target.closest && event.target.closest(".modebar-btn");
    const place = (escape ? screenShown() : null)?.closest("[data-testid=stElementContainer]")
      || (button || (event.type === "keydown" ? event.target : null))?.closest?.("[data-testid=stElementContainer]");
    if (!place || !screenButton(place) || (button && !escape && button !== screenButton(place))) return;
    moveFocus(() => screenButton(place), 2500, true, true);
    setTimeout(soon, 120); setTimeout(soon, 400);
  };
  doc.addEventListener("click", fullScreen, true);
  doc.addEventListener("keydown", fullScreen, true);
  // While a chart is full screen it covers the page, and Tab and Shift+Tab stay in it (WCAG 2.4.3, 2.4.11): they go
  // round its own stops (its toolbar, one stop: chartParts below), never to the page under it. Escape still closes it
  // (Streamlit), and the focus goes back to its button (above). It is full screen while its toolbar has the button that
  // closes full screen; its box is Streamlit's full-screen frame.
  const screenShown = () => {
    const closing = new Set(Object.values(texts).map((t) => t && t["streamlit.close_fullscreen"]).filter(Boolean));
    const button = [...doc.querySelectorAll(".modebar-btn")].find((b) => closing.has(b.getAttribute("data-title")) || closing.has(b.getAttribute("aria-label")));
    return button ? button.closest("[data-testid=stFullScreenFrame]") || button.closest("[data-testid=stElementContainer]") : null;
  };
  doc.addEventListener("keydown", (event) => {
    if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
    const frame = screenShown();
    if (!frame) return;
    const stops = [...frame.querySelectorAll(FOCUSABLE)].filter((el) => el.tabIndex >= 0 && el.getClientRects().length && !el.closest("[inert]"));
    if (!stops.length) return;
    event.preventDefault();
    const at = stops.indexOf(doc.activeElement), by = event.shiftKey ? -1 : 1;
    stops[at < 0 ? (by > 0 ? 0 : stops.length - 1) : (at + by + stops.length) % stops.length].focus();
  }, true);
  // A chart's toolbar is one Tab stop (chartParts): ← and → (Home, End) move along its buttons, round from the last to
  // the first, and the button last used keeps the Tab stop. Never the step component's ← → (steps.js) at the same time.
  doc.addEventListener("keydown", (event) => {
    const button = event.target.closest && event.target.closest(".modebar-btn"), bar = button && button.closest(".modebar");
    const by = {ArrowRight: 1, ArrowLeft: -1, Home: "first", End: "last"}[event.key];
    if (!bar || !by || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const buttons = [...bar.querySelectorAll(".modebar-btn")], at = buttons.indexOf(button);
    const to = buttons[by === "first" ? 0 : by === "last" ? buttons.length - 1 : (at + by + buttons.length) % buttons.length];
    event.preventDefault(); event.stopPropagation();
    rove(bar, to);
    to.focus();
  }, true);
  doc.addEventListener("focusin", (event) => {
    const button = event.target.closest && event.target.closest(".modebar-btn");
    if (button && button.closest(".modebar")) rove(button.closest(".modebar"), button);
  }, true);
  // The sidebar, once collapsed (presenter mode, a narrow window, a phone), is off the screen: inert, out of the Tab
  // order and the accessibility tree. Collapsed by its own button, the focus goes to the button that opens it again;
  // opened by that, to its menu's first link (Shift+Tab from there reaches the button that closes it, theme.css).
  let collapsed = null;
  const sidebarState = () => {
    const sidebar = doc.querySelector("[data-testid=stSidebar]");
    if (!sidebar) return;
    let now = sidebar.getAttribute("data-collapsed") === "true";
    // Streamlit opens the sidebar by itself on a window wider than 768 px: a phone on its side (844 x 390) lost 300 px
    // of it to the menu. On a short window or a touch screen narrower than a laptop it starts closed (once per page
    // load: opened by the student, it stays open).
    if (!host.__attentionSidebarChecked) {
      host.__attentionSidebarChecked = true;
      const close = sidebar.querySelector("[data-testid=stSidebarCollapseButton] button");
      if (!now && close && host.matchMedia("(max-height: 500px), (pointer: coarse) and (max-width: 1024px)").matches) { close.click(); now = true; }
    }
    if (sidebar.inert !== now) sidebar.inert = now;
    const active = doc.activeElement;
    const arriving = wanted && wanted.kind === "arrive" && Date.now() <= wanted.until;  // the page chosen takes it
    if (collapsed !== null && now !== collapsed && !arriving && (lost() || (now && sidebar.contains(active)) || (!now && active && active.closest("[data-testid=stExpandSidebarButton]"))))
      moveFocus(() => now ? doc.querySelector("[data-testid=stExpandSidebarButton] button, [data-testid=stExpandSidebarButton]")
        : sidebar.querySelector("[data-testid=stSidebarNavLink]") || sidebar.querySelector(FOCUSABLE), 1500, true);
    collapsed = now;
  };
  let shownPath = null, restore = null;  // the page whose top was shown; where Back returns to on a page
  const scrolls = {};  // how far down each page was when another was opened from it
  const tidy = () => {
    pending = 0;
    // Another page from the menu opens at its top: Streamlit keeps the main area's scroll of the page before, so a page
    // chosen from far down a long one opened mid-page. Back (or Forward) returns to where that page was left, as it
    // is drawn (for up to 8 s).
    const main = doc.querySelector("[data-testid=stMain]");
    if (main && host.location.pathname !== shownPath) {
      if (shownPath !== null && !host.location.hash) {
        main.scrollTo(0, 0);
        // and kept at the top while the new page is drawn (for 1.2 s, until the student scrolls or clicks): the old
        // page's content, still there a moment, can carry the scroll down again
        if (!restore || restore.path !== host.location.pathname) restore = {path: host.location.pathname, top: 0, until: Date.now() + 1200};
      }
      shownPath = host.location.pathname;
    }
    if (main && !main.__attentionKept) {  // a scroll that no change of the page follows is put back too
      main.__attentionKept = true;
      main.addEventListener("scroll", () => {
        if (restore && restore.path === host.location.pathname && Date.now() <= restore.until
            && Math.abs(main.scrollTop - restore.top) > 2 && main.scrollHeight >= restore.top + main.clientHeight) main.scrollTo(0, restore.top);
      }, {passive: true});
    }
    if (main && restore && restore.path === host.location.pathname) {  // kept while the page is drawn (its old content
      if (Date.now() > restore.until) restore = null;                  // first), until the student scrolls or clicks
      else if (Math.abs(main.scrollTop - restore.top) > 2 && main.scrollHeight >= restore.top + main.clientHeight)
        main.scrollTo(0, restore.top);
    }
    sidebarState();
    popovers();
    wishes();
    // The main area is no Tab stop of its own (its controls are): Streamlit gives it tabindex 0 for scrolling.
    if (main && main.getAttribute("tabindex") === "0") main.tabIndex = -1;
    focusWanted();
    const lang = language();
    if (doc.documentElement.lang !== lang) doc.documentElement.lang = lang;
    // The menu's sections: Streamlit draws <ul> > <div> (a section: its heading, then its <li>s), which is no list to a
    // screen reader (axe: list, listitem). Each section is the list, named by its heading; the <ul> only holds them.
    const items = doc.querySelector("[data-testid=stSidebarNavItems]");
    if (items && items.querySelector(":scope > div")) {
      if (items.getAttribute("role") !== "none") items.setAttribute("role", "none");
      for (const part of items.querySelectorAll(":scope > div")) {
        const heading = part.querySelector(":scope > [data-testid=stNavSectionHeader]");
        const name = heading && heading.firstElementChild ? heading.firstElementChild.textContent.trim() : "";  // not its icon
        if (part.getAttribute("role") !== "list") part.setAttribute("role", "list");
        if (name && part.getAttribute("aria-label") !== name) part.setAttribute("aria-label", name);
        if (heading && heading.getAttribute("aria-hidden") !== "true") heading.setAttribute("aria-hidden", "true");
      }
    }
    // A progress bar (st.progress: the live class's answers per option, the training's progress) is named by the words
    // drawn above it ("B. Machines: 9 (45%)"), not Baseweb's English "progress".
    for (const bar of doc.querySelectorAll("[data-testid=stProgress] [role=progressbar]")) {
      const words = bar.closest("[data-testid=stProgress]").firstElementChild.textContent.trim();
      if (words && bar.getAttribute("aria-label") !== words) bar.setAttribute("aria-label", words);
    }
    // A message marked data-say (views/live/phone.py: "Sent: B. …") is said by a screen reader each time its words
    // change. Streamlit draws it anew in each run, and a live region new to the page is not heard: the page's own
    // region, kept from the start, says it. What is shown in the first moments after the page opens is not said. A
    // hidden mark says its data-words (views/live/phone.say: the teacher moved on), words drawn nowhere else.
    if (!region.isConnected && doc.body) doc.body.append(region);
    for (const note of doc.querySelectorAll("[data-say]")) {
      const name = note.getAttribute("data-say"), words = (note.getAttribute("data-words") || note.textContent).trim();
      if (spoken.get(name) === words) continue;
      spoken.set(name, words);
      if (Date.now() - opened > 2500) announce(words);
    }
    // Each chart's toolbar one Tab stop, its layers out of a screen reader's way (again after Plotly drew them again).
    for (const gd of doc.querySelectorAll(".js-plotly-plot")) chartParts(gd);
    // A heading's link icon (shown on hover, for copying) is no Tab stop: a lesson's stops took two Tabs each.
    for (const anchor of doc.querySelectorAll("[data-testid=stHeaderActionElements] a:not([tabindex])")) anchor.tabIndex = -1;
    const theirs = doc.querySelector("[data-testid=stSkipToContent]");
    if (theirs && theirs.nextElementSibling !== skip) theirs.after(skip);
    else if (!theirs && doc.body && !skip.isConnected) doc.body.prepend(skip);  // Streamlit's not drawn yet (or gone)
    // Written only when it changed: a write is a change this observer sees, and would come back every 60 ms.
    const said = (texts[lang] || english)["page.skip_steps"] || english["page.skip_steps"] || "";
    if (skip.textContent !== said) skip.textContent = said;
    const none = !stepButton();
    if (skip.hidden !== none) skip.hidden = none;
    // A formula wider than its column (on a phone) scrolls sideways: the keyboard can reach it to scroll it (WCAG
    // 2.1.1). A table says so too (sideways, below).
    for (const wide of doc.querySelectorAll(".katex-display")) {
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
  const spoken = new Map(), opened = Date.now();
  const region = doc.createElement("div");
  region.setAttribute("role", "status"); region.className = "attention-said";
  const announce = (words) => {
    if (!region.isConnected) doc.body.append(region);
    region.textContent = "";
    setTimeout(() => { region.textContent = words; }, 50);  // emptied first: the same words twice are said twice
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
      keepAgain();  // the link Streamlit wrote, whenever it wrote it, keeps the step component's values
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
    if (main && event.target.closest && event.target.closest(NAV)) { scrolls[host.location.pathname] = main.scrollTop; arrive(host.location.pathname); }
  };
  doc.addEventListener("pointerdown", leaving, true);
  doc.addEventListener("keydown", leaving, true);
  new MutationObserver(soon).observe(doc, {subtree: true, childList: true, attributes: true, attributeFilter: [...ATTRIBUTES, "data-collapsed"]});
  soon();
}
}

// A chart as a keyboard and a screen reader meet it, set again whenever Plotly draws it (the page script's tidy, and
// after every plot: a relayout draws the toolbar again, full screen draws the chart again).
// - Plotly's SVG layers (the marks, the axes' numbers, the titles) are hidden from a screen reader, which read them as
//   unnamed images of numbers: the chart's box names it (role "figure") and holds its numbers as a table (numbers()).
// - Its toolbar (PNG, zoom, reset, full screen) is one Tab stop, not five: an ARIA toolbar named "Chart tools"
//   (assets/text/*/browser.toml) with a roving tabindex. One button takes the Tab key (the last one used, at first the
//   first), ← → Home End move along them (shell's keydown), Enter or Space presses one (they are buttons). Its icons
//   are hidden: each button has its name.
function chartParts(gd) {
  for (const layer of gd.querySelectorAll("svg.main-svg, .gl-container, .modebar-btn svg"))
    if (layer.getAttribute("aria-hidden") !== "true") layer.setAttribute("aria-hidden", "true");
  for (const bar of gd.querySelectorAll(".modebar")) rove(bar);
}

// The toolbar's Tab stop on ``chosen`` (a button of ``bar``), or where it was: its place is kept on the chart's box, which
// outlives a toolbar drawn again.
function rove(bar, chosen) {
  const texts = window.__attentionTexts || {}, lang = new URLSearchParams(window.location.search).get("lang") === "zh" ? "zh" : "en";
  const name = (texts[lang] || texts.en || {})["page.chart_tools"] || (texts.en || {})["page.chart_tools"];
  if (bar.getAttribute("role") !== "toolbar") bar.setAttribute("role", "toolbar");
  if (name && bar.getAttribute("aria-label") !== name) bar.setAttribute("aria-label", name);
  const buttons = [...bar.querySelectorAll(".modebar-btn")], keeper = bar.closest("[data-testid=stPlotlyChart]") || bar;
  if (!buttons.length) return;
  if (chosen && buttons.includes(chosen)) keeper.__attentionTool = buttons.indexOf(chosen);
  const current = (chosen && buttons.includes(chosen) ? chosen : null) || buttons.find((b) => b === document.activeElement)
    || buttons[Math.min(keeper.__attentionTool || 0, buttons.length - 1)];
  for (const button of buttons) {
    const want = button === current ? "0" : "-1";
    if (button.getAttribute("tabindex") !== want) button.setAttribute("tabindex", want);
  }
}

function charts() {
const host = window;
sideways();
if (!host.__attentionCharts) {
  // Only charts on or near the screen are drawn: Plotly takes a third of a second for a 40 x 40 heatmap on a
  // school laptop, and "Show all steps" has sixteen. A chart waits (its height kept) until it comes within half a screen
  // of the view, and a chart off the screen is redrawn only when it comes back. Streamlit's chart calls
  // Plotly.react on the module it sets as window.Plotly, and chains its events after that promise.
  const lazy = (Plotly) => {
    if (!Plotly || Plotly.__attentionLazy) return;
    Plotly.__attentionLazy = true;
    // The toolbar in Chinese: a chart of a Chinese page has config.locale "zh-CN" (views/charts.plotly_config).
    const texts = host.__attentionTexts || {}, en = texts.en || {}, zh = texts.zh || {}, dictionary = {};
    for (const key of Object.keys(en)) if (key.startsWith("plotly.") && zh[key]) dictionary[en[key]] = zh[key];
    if (Plotly.register) Plotly.register({moduleType: "locale", name: "zh-CN", dictionary});
    const react = Plotly.react, purge = Plotly.purge, waiting = new Map();  // chart div -> draw it
    // The chart's div stays hidden (display: none) until it has a height, so the box around it holds the place and is watched.
    const box = (gd) => gd.closest("[data-testid=stPlotlyChart]") || gd;
    // Near means within half a screen of what the main area shows: it scrolls, and a margin counts only on the root.
    const scroller = (element) => element.closest("[data-testid=stMain]");
    const charts = new WeakMap(), observers = new Map();  // watched box -> chart div; scrolling area -> its observer
    const watcher = (place) => {
      const root = scroller(place);
      if (!observers.has(root)) observers.set(root, new IntersectionObserver((entries) => {
        for (const entry of entries) if (entry.isIntersecting) draw(charts.get(entry.target));
      }, {root, rootMargin: "50% 0px"}));
      return observers.get(root);
    };
    const text = (trace) => JSON.stringify(trace, (key, value) => key.startsWith("_") ? undefined : value);  // Plotly adds _ keys
    const same = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length
      && a.every((trace, i) => trace === b[i] || text(trace) === text(b[i]));
    const draw = (gd) => { const go = gd && waiting.get(gd); if (go) { waiting.delete(gd); delete gd.dataset.waiting; go(); } };
    // Plotly never wraps a title: one wider than its chart is cut at the edge (a half-width chart on a projector, a
    // phone). Once drawn, such a title is broken onto lines at spaces (or between characters, for Chinese), the room
    // above the plot grows by a line each, and the chart keeps that title while its text and width stay the same.
    // Plotly centres a title of several lines on its anchor, so the first line would rise above the chart: the pad
    // at the top grows by half a line for each line added.
    // The chart grows by the room added above its plot (the plot keeps the height the server gave it: a row of 32
    // numbers stays a row, not a line).
    const wrapped = new WeakMap();  // chart div -> {text, width, lines, top, pad, base, basePad, grown}
    const fitted = (gd, figure) => {
      const known = wrapped.get(gd), layout = figure && figure.layout, title = layout && layout.title;
      if (!known || !title || title.text !== known.text || layout.width !== known.width) return figure;
      const height = layout.height && known.grown ? {height: layout.height + known.grown} : {};
      return {...figure, layout: {...layout, ...height, title: {...title, text: known.lines, pad: {...title.pad, t: known.pad}}, margin: {...layout.margin, t: known.top}}};
    };
    // Column labels above the cells turn upright on a narrow chart and, with their axis title, can then reach the title,
    // as can a legend above the plot that a phone breaks onto two rows: the room above the plot grows by the overlap,
    // measured once drawn, and is kept like a wrapped title.
    // On a touch screen the toolbar (PNG, zoom, reset) is always shown at the chart's top right (displayModeBar,
    // theme.css): a title that reaches under it moves down below it, in a band of its own (lines beside a 150 px toolbar
    // on a phone would be a few characters long); the chart grows by as much.
    const toolbar = (gd) => {
      const bar = gd.querySelector(".modebar");
      if (!bar || !bar.checkVisibility({opacityProperty: true, visibilityProperty: true})) return null;
      const m = bar.getBoundingClientRect();
      return m.width > 0 && m.height > 0 ? m : null;
    };
    const origin = (layout) => ({base: (layout.margin && layout.margin.t) || 80, basePad: (layout.title && layout.title.pad && layout.title.pad.t) || 0});
    const clear = (gd, tries = 3) => {
      const node = gd.querySelector(".g-gtitle .gtitle"), layout = gd.layout || {}, title = layout.title;
      if (!node || !title || typeof title.text !== "string" || tries <= 0) return;
      const box = node.getBoundingClientRect(), bar = toolbar(gd);
      const under = bar && bar.left < box.right - 1 && bar.right > box.left + 1 && bar.bottom > box.top + 1 ? Math.ceil(bar.bottom + 4 - box.top) : 0;
      const below = [...gd.querySelectorAll(".g-xtitle text, .xtick text, .legend .traces")].map((n) => n.getBoundingClientRect()).filter((r) => r.height > 0);
      const overlap = below.length ? Math.ceil(box.bottom + under + 3 - Math.min(...below.map((r) => r.top))) : 0;
      if (overlap <= 0 && under <= 0) return;
      // A title anchored at its top moves down with its pad; one in the middle of the room above the plot (Plotly's
      // "auto"), by half what that room grows.
      const top = title.yanchor === "top", more = Math.max(0, overlap, top ? under : 2 * under);
      const margin = ((layout.margin && layout.margin.t) || 80) + more, pad = ((title.pad && title.pad.t) || 0) + (top ? under : 0);
      const known = wrapped.get(gd) || {text: title.text, width: layout.width, lines: title.text, ...origin(layout)};
      const grown = (known.grown || 0) + (under ? more : 0);
      wrapped.set(gd, {...known, top: margin, pad, grown});
      const update = {"margin.t": margin, "title.pad.t": pad};
      if (under && layout.height) update.height = layout.height + more;
      Plotly.relayout(gd, update).then(() => clear(gd, tries - 1));  // measured again once redrawn
    };
    const WIDE = /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
    const ems = (html) => { let n = 0; for (const ch of html.replace(/<[^>]*>/g, "")) n += WIDE.test(ch) ? 1 : 0.55; return n; };
    const fit = (gd) => {
      const node = gd.querySelector(".g-gtitle .gtitle"), layout = gd.layout || {}, title = layout.title;
      if (!node || !title || typeof title.text !== "string") return clear(gd);
      // A title this wrapped for a wider chart (the column narrowed since) is wrapped again from its words; one the
      // server broke itself is left as it is.
      // The room above the plot is counted from what the server sent (kept the first time it changed).
      const known = wrapped.get(gd), again = title.text.includes("<br>"), mine = known && known.lines === title.text && known.base !== undefined;
      if (again && !mine) return clear(gd);
      const box = node.getBoundingClientRect(), width = box.width, room = gd.getBoundingClientRect().right - box.left - 6;
      if (width <= room || room < 40) return clear(gd);
      const text = mine ? known.text : title.text, plain = text.replace(/<[^>]*>/g, "");
      // Lengths in ems: a Chinese character is as wide as its font size, a Latin letter or digit about half (counting
      // characters, a line of Chinese after a line with Latin in it ran past the chart's edge).
      const widest = Math.max(...title.text.split("<br>").map(ems), 0.5);
      const full = width * ems(plain) / widest;  // the whole title on one line, in pixels
      const fits = ems(plain) * room / full, even = ems(plain) / Math.ceil(full / room);
      const most = Math.max(2, Math.min(fits, even + 3));  // ems on a line: lines of about equal length
      // Chinese (even with a few spaces): one character at a time, a run of Latin letters and digits kept whole, each
      // with the tags around it (<b> never split); otherwise at spaces.
      const chinese = /[\u3000-\u9fff\uff00-\uffef]/u.test(plain);
      const pieces = chinese ? text.match(/(?:<[^>]*>)*(?:[\x21-\x3b\x3d-\x7e]+|[^<])(?:<\/[^>]*>)*/gu) : text.split(" ");
      const glue = chinese ? "" : " ", lines = [""];
      for (const piece of pieces) {
        const line = lines[lines.length - 1];
        if (line && ems(line + glue + piece) > most) lines.push(piece); else lines[lines.length - 1] = line ? line + glue + piece : piece;
      }
      const size = (title.font && title.font.size) || 14;
      const {base, basePad} = mine ? known : origin(layout), added = Math.round(size * 1.25) * (lines.length - 1);
      const top = base + added, pad = basePad + Math.round(size * 0.65) * (lines.length - 1);
      if (again && lines.join("<br>") === title.text) return clear(gd);  // no narrower lines to be had
      const update = {"title.text": lines.join("<br>"), "margin.t": top, "title.pad.t": pad};
      if (layout.height) update.height = layout.height - ((mine && known.grown) || 0) + added;  // the height the server sent, and the lines
      wrapped.set(gd, {text, width: layout.width, lines: lines.join("<br>"), top, pad, base, basePad, grown: added});
      Plotly.relayout(gd, update).then(() => clear(gd));
    };
    // Numbers in a heatmap's cells are black or white, whichever contrasts more with the cell's colour (at least 4.58:1
    // on any colour); Plotly picks #444 on a light cell, under 4.5:1 on a mid-blue. The colour is found as Plotly finds
    // it: the value's place between zmin and zmax, interpolated in RGB between the scale's stops. theme.css draws data-ink.
    const rgb = (c) => c.startsWith("#") ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) : c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    const colourOf = (trace, z) => {
      const scale = trace.colorscale, t = Math.min(1, Math.max(0, (z - trace.zmin) / ((trace.zmax - trace.zmin) || 1)));
      let i = 1; while (i < scale.length - 1 && scale[i][0] < t) i++;
      const [t0, c0] = scale[i - 1], [t1, c1] = scale[i], f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
      return rgb(c0).map((v, k) => v + (rgb(c1)[k] - v) * f);
    };
    const ink = (gd) => {
      for (const text of gd.querySelectorAll("g.heatmap-label text")) {
        const cell = text.__data__, layer = text.closest("g.hm"), calc = layer && layer.__data__, trace = calc && calc[0] && calc[0].trace;
        if (!cell || typeof cell.z !== "number" || !trace || !Array.isArray(trace.colorscale)) continue;
        const light = luminance(colourOf(trace, cell.z));
        text.dataset.ink = (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) ? "dark" : "light";
      }
    };
    // A chart read by a screen reader: Streamlit names its box (role "figure", aria-label: the text alternative made with
    // the chart, attention_plot/plot.labels and describe); its numbers follow as visually hidden tables, made here from
    // the figure: every chart has its numbers, as it shows them. A heatmap: its printed numbers (the text its tooltips
    // show, rounded as in its cells), or its values where it prints none; a line or bar chart: its points, one table
    // for each set of lines that share their x (a reference line of two points has its own); a chart whose numbers are
    // not in its traces (the head view's lines, the 72 heads' tiles) names them itself in layout.meta.numbers.
    const TABLE_CELLS = 40000, TABLE_ROWS = 2000;  // larger than any chart of the app: a guard against a runaway figure
    const TYPED = {f8: Float64Array, f4: Float32Array, i4: Int32Array, i2: Int16Array, i1: Int8Array, u1: Uint8Array, u2: Uint16Array, u4: Uint32Array};
    const values = (v) => {  // Plotly's JSON keeps NumPy arrays as {dtype, bdata: base64}
      if (!v || !v.bdata) return Array.isArray(v) ? v : [];
      const bytes = Uint8Array.from(atob(v.bdata), (c) => c.charCodeAt(0)), Typed = TYPED[v.dtype];
      return Typed ? Array.from(new Typed(bytes.buffer)) : [];
    };
    const words = (html) => new DOMParser().parseFromString(String(html == null ? "" : html).replace(/<br>/g, " "), "text/html").body.textContent.trim();
    // Four significant digits, never in exponent form (a probability of 2.5e-8 reads 0.000, as the chart prints it).
    const shown = (v) => typeof v === "number" ? (Number.isInteger(v) ? String(v) : Math.abs(v) < 5e-4 ? "0.000"
      : String(Number(v.toPrecision(4)))).replace("-", "−") : words(v);
    const own = (key) => { const texts = host.__attentionTexts || {}; return (texts[new URLSearchParams(host.location.search).get("lang") === "zh" ? "zh" : "en"] || texts.en || {})[key] || ""; };
    const axis = (layout, name) => words(layout && layout[name] && layout[name].title && layout[name].title.text);
    const ticks = (layout, name, count) => {  // an axis's labels at 0 .. count - 1, or the positions counted from 1
      const a = (layout && layout[name]) || {}, at = values(a.tickvals), text = a.ticktext || [];
      return Array.from({length: count}, (_, i) => { const k = at.indexOf(i); return k >= 0 && text[k] != null ? words(text[k]) : String(i + 1); });
    };
    const grids = (figure) => {  // [[header row, ...body rows], ...]: one or more tables
      const data = (figure && figure.data) || [], layout = (figure && figure.layout) || {}, first = data[0];
      const given = layout.meta && layout.meta.numbers;
      if (Array.isArray(given) && given.length > 1) return [given.map((row, i) => row.map((cell, j) => shown(cell) || (i && j ? "" : own("tables.corner"))))];
      if (!first) return [];
      if (first.type === "heatmap") {
        const text = first.text, custom = first.customdata;
        const corner = axis(layout, "yaxis") || axis(layout, "xaxis") ? `${axis(layout, "yaxis")} \\ ${axis(layout, "xaxis")}` : own("tables.corner");
        if (Array.isArray(text) && Array.isArray(text[0]) && Array.isArray(custom) && Array.isArray(custom[0])) {
          if (text.length * text[0].length > TABLE_CELLS) return [];
          return [[[corner, ...custom[0].map((cell) => words(cell[1]))], ...text.map((row, i) => [words(custom[i][0][0]), ...row.map(words)])]];
        }
        const z = Array.isArray(first.z) ? first.z : (() => {  // {dtype, bdata, shape: "rows, cols"}
          const flat = values(first.z), cols = Number(String((first.z && first.z.shape) || "").split(",")[1]) || flat.length;
          return Array.from({length: Math.ceil(flat.length / cols)}, (_, i) => flat.slice(i * cols, (i + 1) * cols));
        })();
        if (!z.length || !Array.isArray(z[0]) || z.length * z[0].length > TABLE_CELLS) return [];
        const rows = ticks(layout, "yaxis", z.length), cols = ticks(layout, "xaxis", z[0].length);
        return [[[corner, ...cols], ...z.map((row, i) => [rows[i], ...row.map((v) => v == null || Number.isNaN(v) ? "" : shown(v))])]];
      }
      const traces = data.filter((t) => (t.type === "scatter" || t.type === "bar") && !String(t.mode || "").match(/^text$/));
      const names = (t) => t.customdata && !Array.isArray(t.customdata[0]) ? t.customdata.map(words) : null;
      const x = (t) => t.orientation === "h" ? (names(t) || values(t.y)) : (names(t) || values(t.x));
      const y = (t) => t.orientation === "h" ? values(t.x) : values(t.y);
      const groups = [];  // lines that share their x, in the order drawn
      for (const t of traces) {
        const along = x(t), key = JSON.stringify(along.map(shown)), group = groups.find((g) => g.key === key);
        if (!along.length || along.length > TABLE_ROWS) continue;
        if (group) group.traces.push(t); else groups.push({key, along, traces: [t]});
      }
      return groups.map(({along, traces: lines}) => {
        const header = [axis(layout, "xaxis") || own("tables.along"), ...lines.map((t, i) => words(t.name) || axis(layout, "yaxis") || String(i + 1))];
        return [header, ...along.map((at, i) => [shown(at), ...lines.map((t) => shown(y(t)[i]))])];
      });
    };
    const numbers = (place, figure) => {
      let holder = place.querySelector(":scope > div.attention-numbers");
      const tables = grids(figure);
      if (!tables.length) { if (holder) holder.remove(); return; }
      // In a box of 1 x 1 pixels (a table is always as tall as its rows), first in the chart's box: at its top left
      // it never makes the box scroll.
      if (!holder) { holder = document.createElement("div"); holder.className = "attention-numbers"; place.prepend(holder); }
      const caption = words(figure.layout && figure.layout.title && figure.layout.title.text);
      holder.replaceChildren(...tables.map((rows) => {
        const table = document.createElement("table");
        table.createCaption().textContent = caption;
        rows.forEach((row, i) => {
          const tr = (i === 0 ? table.createTHead() : table.tBodies[0] || table.createTBody()).insertRow();
          row.forEach((cell, j) => { const c = document.createElement(i === 0 || j === 0 ? "th" : "td"); if (c.tagName === "TH") c.scope = i === 0 ? "col" : "row"; c.textContent = cell; tr.appendChild(c); });
        });
        return table;
      }));
    };
    // On a touch screen Plotly makes a click only where the finger had shown the hover label, so a tap on a tile or a
    // patch first showed its label and only a second tap opened it: a chart that takes clicks (clickmode "event…") is
    // hovered where the finger lands, before Plotly reads the tap.
    const tapped = new WeakSet();
    const tap = (gd) => {
      if (tapped.has(gd) || !Plotly.Fx || !String((gd._fullLayout || {}).clickmode || "").includes("event")) return;
      tapped.add(gd);
      gd.addEventListener("touchstart", (event) => {
        const touch = event.touches && event.touches[0], target = touch && event.target.closest && event.target.closest(".nsewdrag");
        if (target) Plotly.Fx.hover(gd, {clientX: touch.clientX, clientY: touch.clientY, target}, "xy");
      }, {capture: true, passive: true});
    };
    const inked = new WeakSet();
    const drawn = (gd, figure, rest) => react.call(Plotly, gd, fitted(gd, figure), ...rest).then((result) => {
      grows(gd);
      if (!inked.has(gd) && gd.on) {  // and again on every redraw: a chart resized with its column (a phone turned, the
        inked.add(gd);                // sidebar closed) has its title wrapped for the new width
        let soon = 0;
        gd.on("plotly_afterplot", () => { grows(gd); ink(gd); chartParts(gd); cancelAnimationFrame(soon); soon = requestAnimationFrame(() => fit(gd)); });
      }
      fit(gd); ink(gd); tap(gd); chartParts(gd); return result;
    });
    // Streamlit fixes the height of the chart's box and of the boxes around it to the height the server sent (a flex
    // basis, a size containment); a chart grown here (its title moved under the toolbar) drew past them, cut at its
    // bottom. Those boxes are held at least as tall as the chart, after every drawing (and let go when it shrinks).
    const lifted = new WeakMap();  // chart div -> the boxes given a min-height
    const grows = (gd) => {
      for (const node of lifted.get(gd) || []) node.style.minHeight = "";
      const height = gd._fullLayout && gd._fullLayout.height, nodes = [];
      for (let node = box(gd), up = 0; height && node !== gd && node && up < 3; node = node.parentElement, up++) {
        if (node.getBoundingClientRect().height < height - 1) { node.style.minHeight = `${height}px`; nodes.push(node); }
      }
      lifted.set(gd, nodes);
    };
    Plotly.react = function (gd, figure, ...rest) {
      try { numbers(box(gd), figure); } catch (error) { console.error("attention-numbers", error); }  // never stops a chart being drawn
      // The numbers it shows handed back once drawn (Streamlit keeps the figure as state, and sizes it): at once.
      if (gd._fullLayout && figure && same(figure.data, gd.data)) return drawn(gd, figure, rest);
      return new Promise((resolve, reject) => {
        const place = box(gd), height = figure && figure.layout && figure.layout.height;
        if (!gd._fullLayout && height) place.style.minHeight = `${height}px`;  // the page does not jump when it is drawn
        const near = watcher(place);
        waiting.set(gd, () => { near.unobserve(place); place.style.minHeight = ""; drawn(gd, figure, rest).then(resolve, reject); });
        charts.set(place, gd);
        gd.dataset.waiting = "";  // for the tests and the benchmark: drawn when it comes near
        near.observe(place);
      });
    };
    Plotly.purge = function (gd) { for (const near of observers.values()) near.unobserve(box(gd)); waiting.delete(gd); delete gd.dataset.waiting; return purge.call(this, gd); };
    host.__attentionCharts.drawAll = () => { const all = [...waiting.keys()]; for (const gd of all) draw(gd); return all.length; };
    host.addEventListener("beforeprint", () => host.__attentionCharts.drawAll());  // a printed page has every chart
    // Streamlit may have loaded Plotly and drawn a chart before this script ran (it is a component, mounted first but
    // loaded apart): such a chart is drawn again through the above (its title wrapped, its toolbar in Chinese, its
    // numbers as a table).
    // One far from the screen is put away until it comes near, as if it had waited.
    for (const gd of document.querySelectorAll(".js-plotly-plot")) {
      if (!gd._fullLayout || !Array.isArray(gd.data)) continue;
      const figure = {data: gd.data, layout: gd.layout, config: gd._context}, area = scroller(gd), view = area ? area.getBoundingClientRect() : null;
      const at = gd.getBoundingClientRect(), margin = view ? view.height / 2 : 0;
      if (view && (at.bottom < view.top - margin || at.top > view.bottom + margin)) {
        const height = gd.layout && gd.layout.height;
        purge.call(Plotly, gd);
        if (height) box(gd).style.minHeight = `${height}px`;
      }
      Plotly.react(gd, figure).catch(() => {});
    }
  };
  host.__attentionCharts = {drawAll: () => {}};
  if (host.Plotly) lazy(host.Plotly);
  else {  // Streamlit loads Plotly with the first chart
    let plotly;
    Object.defineProperty(host, "Plotly", {configurable: true, get: () => plotly, set: (value) => { plotly = value; lazy(value); }});
  }
}
}

// A table wider than its box (a phone, a half-width column) scrolls inside it: a box that scrolls says so. Above it a short
// note ("Scroll sideways to see the whole table →", assets/text/*/browser.toml), at its edges a shadow where more of the
// table lies (theme.css), and for the keyboard and a screen reader a named region the Tab key reaches (WCAG 2.1.1,
// 1.3.1). Streamlit's st.table scrolls in the div inside [data-testid=stTable]; a box that stops scrolling (the phone
// turned) loses all of it.
function sideways() {
  const host = window, doc = document;
  if (host.__attentionSideways) return;
  host.__attentionSideways = true;
  const text = (key) => { const texts = host.__attentionTexts || {}; return (texts[new URLSearchParams(host.location.search).get("lang") === "zh" ? "zh" : "en"] || texts.en || {})[key] || ""; };
  // st.table's scroll box, and a named table's (views/widgets/tables.py: already a named region the Tab key reaches)
  const BOXES = "[data-testid=stMain] [data-testid=stTable] > div:has(> table), [data-testid=stMain] .named-table";
  const edges = (box) => {  // which sides hide more of the table: the shadows (theme.css)
    const left = box.scrollLeft > 1, right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    box.dataset.sideways = left && right ? "both" : left ? "left" : right ? "right" : "none";
  };
  const check = () => {
    for (const box of doc.querySelectorAll(BOXES)) {
      const wide = box.scrollWidth > box.clientWidth + 1, note = box.parentElement.querySelector(":scope > p.attention-sideways");
      const named = box.classList.contains("named-table");
      if (!wide) {
        if (box.dataset.sideways !== undefined) { delete box.dataset.sideways; if (!named) { box.removeAttribute("role"); box.removeAttribute("aria-label"); } }
        if (note) note.remove();
        continue;
      }
      const said = text("tables.sideways"), name = text("tables.sideways_name");
      if (box.dataset.sideways === undefined) box.addEventListener("scroll", () => edges(box), {passive: true});
      if (!named) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        if (box.getAttribute("aria-label") !== name) box.setAttribute("aria-label", name);
      }
      edges(box);
      if (!note) {
        const p = doc.createElement("p");
        p.className = "attention-sideways";
        p.setAttribute("aria-hidden", "true");  // the region's name says it to a screen reader
        p.textContent = said;
        box.before(p);
      } else if (note.textContent !== said) note.textContent = said;
    }
  };
  let soon = 0;
  const later = () => { cancelAnimationFrame(soon); soon = requestAnimationFrame(check); };
  new MutationObserver(later).observe(doc.body, {subtree: true, childList: true});
  host.addEventListener("resize", later);
  later();
}

// The values the step component keeps (views/registry Page.browser: the step, the head, the word) stay in the link: the
// server writes the page's own values and leaves these out; after it did, they are put back from what the component
// stored for this page (only while the server's token is the one the component saw: a link opened sets them again).
let keeping = false;
function keepAgain() {
  const data = window.__attentionKeep;
  if (!keeping && data && data.path === window.location.pathname) keep(data);
}

function keep(data) {
  window.__attentionKeep = {...data, path: window.location.pathname};
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(`attention.view.${data.page}`) || "null"); } catch { kept = null; }
  if (!kept || kept.token !== data.token || !kept.url) return;
  const to = new URL(window.location.href);
  let changed = false;
  for (const name of data.names) {
    const value = kept.url[name];
    if (value === undefined) { if (to.searchParams.has(name)) { to.searchParams.delete(name); changed = true; } }
    else if (to.searchParams.get(name) !== value) { to.searchParams.set(name, value); changed = true; }
  }
  if (!changed) return;
  keeping = true;
  try { window.history.replaceState(window.history.state, "", to); } finally { keeping = false; }
}

export default function (component) {
  const {data} = component;
  if (!data) return;
  if (data.texts) window.__attentionTexts = data.texts;
  if (data.kind === "keep") keep(data);
  else { shell(); charts(); }
}
