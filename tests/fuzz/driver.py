"""The browser side of the fuzzer: the actions people take on a page, waiting for it to settle, and what must hold after.

One ``Visit`` is one student's browser tab on a real server (``scripts.browser.serve_process``) in Debian's
chromium. Every action is a method with plain arguments (indexes, texts, names), so a sequence of them is data:
``tests/fuzz/regressions/*.json`` replays such sequences, and the fuzzer saves the ones it shrinks there.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from attention_plot.text import Texts
from scripts.browser import STEPS_ROOT_JS, serve_process
from views.shell.params import Choice, Choices, Flag, Float, Int, Text
from views.shell.registry import PAGES, SHARED

VIEWPORTS = {
    "projector": dict(viewport={"width": 1280, "height": 720}),
    "phone": dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=1),
    "landscape": dict(viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True, device_scale_factor=1),  # a phone on its side
}
SETTLE_TIMEOUT_MS = 60_000
# Texts a student may type: examples, edge cases, hostile markup, emoji, other scripts, very long.
TEXTS = (
    "the cat sat on the mat", "Thinking Machines", "她正在吃一个绿色的苹果", "", "   ", "a", "I 🙂 attention 🚀",
    "<b>bold</b> <script>alert(1)</script>", "the the the the", "word " * 70, "Ünïcödé, punctuation! ok?", "12 34 56",
)
# Links a student may be sent or type by hand: tampered values, unknown and two-level paths.
TAMPERED = (
    "/?d_k=99999&heads=-3&step=abc", "/?walk=nonsense&step=99", "/types?section=zzz&tau=7", "/real-model/extra",
    "/pages/walkthrough", "/no-such-page", "/scaling-lab?d_k=1e9&samples=-1", "/?text=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "/watch-it-learn?step=-5&task=nope", "/positions-and-scale?section=fast&n=100000&block=0",
    "/real-model?section=corpus&corpus=pasted&measure=nope&versus=cls&head=99", "/positions-and-scale?section=sparse&top_k=-4",
    "/positions-and-scale?section=latent&d_c=1e9&d_rope=3", "/positions-and-scale?section=traffic&seq=7&gpu=tpu&sram=0",
    "/?compare=d_k:9999,heads:-1,colour:red&step=9", "/?walk=textbook&compare=score:dot", "/?compare=%3Cb%3E:1,,:,walk:x",
)
# Buttons the fuzzer leaves alone: a live training (a minute of one core), files, the chart toolbar, the sidebar's own.
SKIP_BUTTONS = ("train", "download", "csv", "png", "modebar", "stSidebarCollapseButton", "stExpandSidebarButton", "stBaseButton-header")
# Keys a student presses on a page with steps (the step component steps with ← and →, and walks a matrix's cells).
KEYS = ("ArrowRight", "ArrowLeft", "Tab", "Enter", "Escape")

# The step component (views/widgets/steps.py): what it shows, for the checks and the fresh link (it draws in a shadow root).
STEPS_JS = f"""() => {{
  const root = {STEPS_ROOT_JS}();
  if (!root) return null;
  const text = (el) => el ? el.textContent.trim() : '';
  const where = root.querySelector('nav.bar select.where'), box = root.querySelector('form.sentence input[type=text]');
  const switches = {{}};
  for (const label of root.querySelectorAll('label.switch')) {{ const input = label.querySelector('input');
    if (input && label.getBoundingClientRect().height > 0) switches[text(label)] = input.checked; }}
  const head = root.querySelector('.segmented.heads button[aria-checked=true]');
  const word = [...root.querySelectorAll('.focus-controls select, .dialog select')]
    .find(s => s.options.length && [...s.options].every(o => /^\\d+ \u00b7 /.test(o.textContent)));
  const walk = [...root.querySelectorAll('.toolbar select, .dialog select')].find(s => [...s.options].some(o => o.value === 'textbook'));
  return {{
    step: where && !root.querySelector('nav.bar').hidden ? where.value : null,
    where: where && where.selectedOptions[0] ? text(where.selectedOptions[0]) : null,
    head: head ? text(head) : null, focus: word ? word.value : null, walk: walk ? walk.value : null,
    text: box && box.getBoundingClientRect().width > 0 ? box.value : null, switches,
    steps: [...root.querySelectorAll('.main section.step')].map(s => s.dataset.step),
    matrices: [...root.querySelectorAll('.main figure.matrix')].map(f => ({{id: f.dataset.matrix, title: text(f.querySelector('figcaption')),
      labels: [...f.querySelectorAll('th')].map(text).join('|'), cells: [...f.querySelectorAll('td')].map(text).join('|')}})),
    tables: [...root.querySelectorAll('table.plain')].map(t => text(t).slice(0, 5000)),
    notes: [...root.querySelectorAll('.note, .verdict')].map(text).join('\\n').slice(0, 3000),
  }};
}}"""
# The step component's switches, by their label in either language, and the page's value each one shows.
SWITCHES = {name: tuple(Texts(lang)(key) for lang in ("en", "zh"))
            for name, key in (("values", "walkthrough.show_values"), ("all", "walkthrough.all_steps"), ("predict", "classroom.predict"))}

SETTLED_JS = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  if (document.readyState !== 'complete' || !app) return false;
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;  // initial, running, rerunRequested
  if (app.getAttribute('data-test-connection-state') !== 'CONNECTED') return false;
  const waiting = '[data-stale=true], [data-testid=stSkeleton], [data-testid=stSkeletonElement], [data-testid=stAppSkeleton]';
  if (document.querySelector(waiting)) return false;
  // A chart off the screen waits until it comes near (assets/js/charts.js): drawn, or waiting, is settled.
  const charts = [...document.querySelectorAll('[data-testid=stPlotlyChart]')].filter(c => c.offsetParent !== null);
  for (const chart of charts) { const plot = chart.querySelector('.js-plotly-plot');
    if (!chart.querySelector('[data-waiting]') && (!plot || !plot._fullLayout)) return false; }
  const main = document.querySelector('[data-testid=stMain]');
  // The main area's text, with the step component's (in a shadow root: innerText leaves it out; on a projector it is all).
  const said = main ? main.innerText + [...main.querySelectorAll('[data-testid=stBidiComponentIsolated]')]
    .map(h => h.shadowRoot && h.shadowRoot.querySelector('.steps') ? h.shadowRoot.querySelector('.steps').innerText : '').join('') : '';
  if (!((main !== null && said.trim().length > 0) || document.querySelector('[role=dialog]') !== null)) return false;
  // The step component: drawn once its payload arrived (in its shadow root), and what it shows now.
  const hosts = [...document.querySelectorAll('[data-testid=stBidiComponentIsolated]')];
  if (hosts.some(h => !h.shadowRoot || !h.shadowRoot.querySelector('.steps'))) return false;
  const steps = hosts.map(h => { const r = h.shadowRoot.querySelector('.steps'), w = r.querySelector('select.where');
    return [w ? w.value : '', r.querySelectorAll('*').length].join(':'); }).join(',');
  return [location.href, said.length, document.querySelectorAll('*').length, charts.length, steps].join('|');
}"""

# Every keyed widget on the page and what it shows (Streamlit marks a keyed element with the class st-key-<key>).
CONTROLS_JS = """() => [...document.querySelectorAll('[class*="st-key-"]')].map(el => {
  const key = [...el.classList].find(c => c.startsWith('st-key-')).slice(7);
  const visible = el.offsetParent !== null;
  const slider = el.querySelector('[role=slider]');
  if (slider) return {key, kind: 'slider', now: slider.getAttribute('aria-valuenow'), text: slider.getAttribute('aria-valuetext'), visible};
  const select = el.querySelector('[data-testid=stSelectbox], [data-testid=stMultiSelect]');
  if (select) return {key, kind: 'select', text: select.innerText.trim(), visible};
  const area = el.querySelector('textarea');
  if (area) return {key, kind: 'text', value: area.value, visible};
  const number = el.querySelector('input[type=number]');
  if (number) return {key, kind: 'number', value: number.value, visible};
  const text = el.querySelector('input[type=text], input:not([type])');
  if (text) return {key, kind: 'text', value: text.value, visible};
  const check = el.querySelector('input[type=checkbox]');
  if (check) return {key, kind: 'flag', value: check.checked, visible};
  const radios = [...el.querySelectorAll('input[type=radio]')];
  if (radios.length) return {key, kind: 'radio', index: radios.findIndex(r => r.checked), visible};
  const group = el.querySelector('[data-testid=stButtonGroup]');
  if (group) { const buttons = [...group.querySelectorAll('button')];
    const index = buttons.findIndex(b => b.getAttribute('aria-checked') === 'true' || /Active/.test(b.getAttribute('data-testid') || ''));
    return {key, kind: 'segments', index, text: index >= 0 ? buttons[index].innerText.trim() : null, visible}; }
  return null;
}).filter(Boolean)"""

# The main area as data: the title, every chart's numbers and every table's text (what a fresh context must show too).
MAIN_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  if (!main) return null;
  const flat = (v) => v == null ? [] : (typeof v === 'object' && v.length !== undefined)
    ? [...v].flatMap(flat) : (typeof v === 'number' ? [Math.round(v * 1e6) / 1e6] : [String(v)]);
  const charts = [...main.querySelectorAll('.js-plotly-plot')].map(p => ({
    // Streamlit's theme wraps a title in <b> each time it draws the figure again (<b><b><b>…): the same bold title
    title: String((p.layout && p.layout.title && (p.layout.title.text || p.layout.title)) || '').replace(new RegExp('</?b>', 'g'), ''),
    data: (p.data || []).map(t => [t.type || '', flat(t.z).slice(0, 5000), flat(t.y).slice(0, 2000), flat(t.x).slice(0, 2000)]),
  }));
  const tables = [...main.querySelectorAll('[data-testid=stTable], [data-testid=stDataFrame]')].map(t => t.innerText.slice(0, 5000));
  const h1 = main.querySelector('h1');
  return {title: h1 ? h1.innerText : '', charts, tables, text: main.innerText.length, steps: (__STEPS__)()};
}"""

# What every check reads (one call): the page's text, and the main area's title and length (not its charts' numbers).
PAGE_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]'), h1 = main && main.querySelector('h1');
  const steps = main ? [...main.querySelectorAll('[data-testid=stBidiComponentIsolated]')]  // the step component's text
    .map(h => h.shadowRoot && h.shadowRoot.querySelector('.steps') ? h.shadowRoot.querySelector('.steps').innerText : '').join('\\n') : '';
  const text = main ? main.innerText + steps : '';
  return {body: document.body.innerText + steps, main: main ? {title: h1 ? h1.innerText : '', text: text.length} : null};
}"""

MAIN_JS = MAIN_JS.replace("__STEPS__", STEPS_JS)

CANDIDATES_JS = """(skip) => {
  const visible = (el) => { const r = el.getBoundingClientRect();  // on screen sideways too (a closed sidebar sits at x < 0)
    return r.width > 0 && r.height > 0 && el.offsetParent !== null && r.right > 0 && r.left < window.innerWidth; };
  document.querySelectorAll('[data-fuzz]').forEach(el => el.removeAttribute('data-fuzz'));  // marks of an earlier call
  const label = (el) => [el.innerText || '', el.getAttribute('aria-label') || '', el.getAttribute('data-testid') || '', el.className || '',
    (el.closest('[class*="st-key-"]') || {className: ''}).className].join(' ').toLowerCase();
  const roots = [...document.querySelectorAll('[data-testid=stBidiComponentIsolated]')].map(h => h.shadowRoot).filter(Boolean);
  const inside = roots.flatMap(r => [...r.querySelectorAll('button, details > summary')]);  // the step component's buttons
  return [...document.querySelectorAll('[data-testid=stMain] button, [data-testid=stSidebar] button, [data-testid=stPopoverBody] button'), ...inside]
    .filter(b => visible(b) && !b.disabled && !skip.some(s => label(b).includes(s.toLowerCase())))
    .map(b => { b.setAttribute('data-fuzz', 'candidate'); return label(b).slice(0, 80); });
}"""


def key_class(key: str) -> str:
    """The CSS class Streamlit gives a widget with this key (``shared.d_k`` -> ``st-key-shared-d_k``)."""
    return "st-key-" + re.sub(r"[^a-zA-Z0-9_-]", "-", key.strip())


@dataclass
class Server:
    """A real app server on a free port, its log in a file the invariants read."""

    url: str
    log: Path
    offset: int = 0

    def new_errors(self) -> str:
        """What the server logged since the last call, when it holds a traceback or an uncaught exception."""
        text = self.log.read_text(errors="replace")
        fresh, self.offset = text[self.offset:], len(text)
        return fresh if re.search(r"Traceback|Uncaught app exception|Error:", fresh) else ""


@contextlib.contextmanager
def server(log: Path):
    with serve_process(log=log) as (url, _):
        yield Server(url, log)


class Broken(AssertionError):
    """An invariant that did not hold after an action."""


@dataclass
class Visit:
    """One student's tab: a browser context at a viewport, the actions taken so far, what they typed."""

    browser: object
    server: Server
    viewport: str
    steps: list = field(default_factory=list)
    typed: tuple[str, str] | None = None  # (widget key, text) typed and not yet seen committed
    entered: bool = False  # the typed text was committed with Enter (the box may keep the focus)
    context: object = None
    page: object = None

    def open(self, path: str) -> None:
        self.context = self.browser.new_context(**VIEWPORTS[self.viewport])
        self.context.set_default_timeout(SETTLE_TIMEOUT_MS)
        self.page = self.context.new_page()
        self.page.on("dialog", lambda dialog: dialog.dismiss())
        self.record("open", path)
        self.page.goto(self.server.url + path)
        self.settle()

    def close(self) -> None:
        if self.context is not None:
            self.context.close()

    def record(self, name: str, *args) -> None:
        self.steps.append([name, *args])

    # --- Waiting ---

    def settle(self) -> None:
        """Wait until the app has finished every run it started and every chart is drawn (the same three checks in a row)."""
        deadline, calm, last = time.monotonic() + SETTLE_TIMEOUT_MS / 1000, 0, None
        self.page.wait_for_timeout(100)
        while calm < 3:  # the same settled page (address, text, elements, charts) three times, 100 ms apart
            if time.monotonic() > deadline:
                raise Broken(f"the page never settled at {self.page.url}: blank, a run that never ends or a chart never drawn")
            now = self.page.evaluate(SETTLED_JS)
            calm = calm + 1 if now and now == last else 0
            last = now
            if calm < 3:
                self.page.wait_for_timeout(100)

    # --- Actions ---

    def open_sidebar(self) -> None:
        expand = self.page.locator("[data-testid=stExpandSidebarButton]")
        if expand.count() and expand.first.is_visible():
            expand.first.click()
            self.page.locator("[data-testid=stSidebar] [data-testid=stSidebarUserContent]").wait_for()
            self.page.wait_for_timeout(300)

    def click(self, index: int) -> None:
        """Click one of the visible, enabled buttons or segments (index modulo their number)."""
        labels = self.page.evaluate(CANDIDATES_JS, list(SKIP_BUTTONS))
        if not labels:
            return self.record("click", index)
        self.record("click", index)
        target = self.page.locator("[data-fuzz=candidate]").nth(index % len(labels))
        try:
            target.click(timeout=10_000)
        except PlaywrightTimeout:  # covered or moved away meanwhile (a pop-over closed): nothing a person could click
            return
        self.settle()

    def press(self, text: str) -> None:
        """Click the button or segment that says ``text`` (regression files name what a person clicked)."""
        self.record("press", text)
        target = self.page.get_by_role("button", name=text, exact=True)
        option = self.page.locator(".steps select option", has_text=re.compile(f"^{re.escape(text)}$"))
        if not target.count() and option.count():  # a choice of the step component's lists (the walk: once radio buttons)
            option.first.locator("xpath=..").select_option(label=text)
            self.settle()
            return
        target = target if target.count() else self.page.get_by_text(text, exact=True)
        target.first.scroll_into_view_if_needed()
        target.first.click()
        self.settle()

    def choose(self, path: str) -> None:
        """Choose the page at ``path`` in the sidebar's menu."""
        self.record("choose", path)
        self.open_sidebar()
        links = self.page.locator("[data-testid=stSidebarNavLink]")
        default = next(page.path for page in PAGES if page.default)
        hrefs = [urlsplit(links.nth(i).get_attribute("href")).path.strip("/") or default for i in range(links.count())]
        link = links.nth(hrefs.index(path))
        link.click()
        self.settle()

    def help_tap(self, key: str) -> None:
        """Tap the help "?" of a switch: its help shows, the switch stays as it was."""
        self.record("help_tap", key)
        if key.startswith("shared."):
            self.open_sidebar()
        if not self.page.locator(f".{key_class(key)} [data-testid=stTooltipHoverTarget] button").count():
            return  # no such switch with a "?" on this page (the walkthrough's switches are the step component's now)
        switch = self.page.locator(f".{key_class(key)} input[type=checkbox]")
        before = switch.is_checked()
        self.page.locator(f".{key_class(key)} [data-testid=stTooltipHoverTarget] button").tap()
        self.page.wait_for_timeout(600)
        self.settle()
        if switch.is_checked() != before:
            raise Broken(f"tapping the help of {key} flipped the switch")
        if not self.page.locator("[data-testid=stTooltipContent]").count():
            raise Broken(f"tapping the help of {key} showed no help")

    def slide(self, index: int, presses: int, right: bool) -> None:
        """Focus a slider and press an arrow key ``presses`` times, with no wait between presses."""
        self.record("slide", index, presses, right)
        sliders = self.page.locator("[role=slider]:visible")
        if not sliders.count():
            return
        slider = sliders.nth(index % sliders.count())
        slider.scroll_into_view_if_needed()
        slider.focus()
        for _ in range(presses):
            self.page.keyboard.press("ArrowRight" if right else "ArrowLeft")
        self.settle()

    def type(self, index: int, text: str, enter: bool) -> None:
        """Type into a text box; press Enter, or leave it without (the next action moves the focus)."""
        self.record("type", index, text, enter)
        boxes = self.page.locator("[data-testid=stTextInput] input:visible, [data-testid=stTextArea] textarea:visible, "
                                  ".steps form.sentence input[type=text]:visible")  # the walkthrough's sentence box is the step component's
        if not boxes.count():
            return
        box = boxes.nth(index % boxes.count())
        key = box.evaluate("el => el.closest('.steps') ? 'shared-text' : "
                           "[...el.closest('[class*=\"st-key-\"]').classList].find(c => c.startsWith('st-key-')).slice(7)")
        box.scroll_into_view_if_needed()
        box.fill(text)
        if enter:
            box.press("Control+Enter" if box.evaluate("el => el.tagName") == "TEXTAREA" else "Enter")
            self.settle()
        self.typed, self.entered = (key, text), enter
        self.typed_in_steps = box.evaluate("el => !!el.closest('.steps')")

    def select(self, index: int, option: int) -> None:
        """Open a select box and pick one of its options."""
        self.record("select", index, option)
        selects = self.page.locator("[data-testid=stSelectbox]:visible [data-baseweb=select], "
                                    "[data-testid=stMultiSelect]:visible [data-baseweb=select]")
        if not selects.count():
            return
        select = selects.nth(index % selects.count())
        select.scroll_into_view_if_needed()
        select.click()
        options = self.page.locator("[role=option]")
        try:
            options.first.wait_for(timeout=3000)
        except Exception:
            self.page.keyboard.press("Escape")
            return
        options.nth(option % options.count()).click()
        self.page.keyboard.press("Escape")
        self.settle()

    def menu(self, index: int) -> None:
        """Choose a page in the sidebar's menu (opening the sidebar first where needed; the menu lists every page)."""
        self.record("menu", index)
        self.open_sidebar()
        links = self.page.locator("[data-testid=stSidebarNavLink]")
        if not links.count():
            return
        links.nth(index % links.count()).click()
        self.settle()

    def key(self, key: str) -> None:
        """Press a key on the page as it is (the step component steps with ← and →; in a matrix they walk its cells)."""
        self.record("key", key)
        self.page.keyboard.press(key)
        self.settle()

    def flip(self, index: int) -> None:
        """Flip one of the step component's switches (numbers in cells, every step, Predict first, hands-on, a reveal)."""
        self.record("flip", index)
        switches = self.page.locator(".steps label.switch:visible")
        if not switches.count():
            return
        switch = switches.nth(index % switches.count())
        switch.scroll_into_view_if_needed()
        switch.click()
        self.settle()

    def pick(self, index: int, option: int) -> None:
        """Choose an option in one of the step component's lists (the step, the walk, the layer, the word, an example, the
        quiz's key); a range (the quiz's weight) is set to a point of its own."""
        self.record("pick", index, option)
        lists = self.page.locator(".steps select:visible, .steps input[type=range]:visible")
        if not lists.count():
            return
        chosen = lists.nth(index % lists.count())
        chosen.scroll_into_view_if_needed()
        if chosen.evaluate("el => el.tagName") == "INPUT":
            chosen.fill(str(round((option % 21) * 0.05, 2)))
        else:
            values = chosen.evaluate("el => [...el.options].map(o => o.value)")
            chosen.select_option(values[option % len(values)])
        self.settle()

    def history(self, move: str) -> None:
        """Browser back, forward or reload."""
        self.record("history", move)
        {"back": self.page.go_back, "forward": self.page.go_forward, "reload": self.page.reload}[move]()
        if not self.page.url.startswith(self.server.url):  # Back from the first page left the app: the student returns
            self.page.go_forward()
        if self.typed and (move == "reload" or not self.focused(self.typed[0])):
            self.typed = None  # the page was loaded again: a box never left loses its keystrokes in any web page
        self.settle()

    def presenter(self) -> None:
        """Switch presenter mode on or off from the sidebar (or leave it from the walkthrough's pop-over button)."""
        self.record("presenter")
        self.open_sidebar()
        toggle = self.page.locator(f".{key_class('shared.present')} label")
        if toggle.count() and toggle.first.is_visible():
            toggle.first.click()
            self.settle()

    def language(self) -> None:
        """Switch to the other language."""
        self.record("language")
        self.open_sidebar()
        radios = self.page.locator(f".{key_class('shared.lang')} label")
        if radios.count() < 2:
            return
        checked = self.page.locator(f".{key_class('shared.lang')} input[type=radio]").evaluate_all("rs => rs.findIndex(r => r.checked)")
        radios.nth(1 - max(checked, 0)).click()
        self.settle()

    def goto(self, path: str) -> None:
        """A link typed or tampered with by hand."""
        self.record("goto", path)
        self.page.goto(self.server.url + path)
        self.typed = None
        self.settle()

    def fresh_link(self) -> None:
        """Open the address bar's link in a fresh context: it must show the same main area."""
        self.record("fresh_link")
        url = self.page.url
        path, values = self.link()
        if path == "live":  # who opens a live class's link matters: the teacher's view is never shared by it
            return
        if values.get("predict") in ("1", "true"):  # a class's reveal is its own: the link opens the question, unrevealed
            return
        mine = self.main()
        page = elsewhere(self.browser, self.viewport)
        try:
            page.goto(url)  # a page load: a new session, as in another browser (a new tab of its own costs twice as much)
            fresh = Visit(self.browser, self.server, self.viewport, context=page.context, page=page)
            fresh.settle()
            theirs = fresh.main()
        finally:
            page.goto("about:blank")  # the session ends
        if shown(mine) != shown(theirs):  # the title, every chart's numbers, every table (not one-time notices)
            raise Broken(f"the link {url} opened elsewhere shows another main area: {describe_difference(mine, theirs)}")

    # --- What the page shows ---

    def stepper(self) -> dict | None:
        """What the step component shows (None where the page has none)."""
        return self.page.evaluate(STEPS_JS)

    def main(self) -> dict | None:
        """The main area as data, every chart drawn first (also those waiting off the screen, with any update they missed)."""
        if self.page.evaluate("() => window.__attentionCharts ? window.__attentionCharts.drawAll() : 0"):
            self.settle()  # charts that waited off the screen are drawn (already settled when none waited)
        return self.page.evaluate(MAIN_JS)

    def controls(self) -> dict[str, dict]:
        """Every control on the page by its widget key, the step component's under the keys of the values they show."""
        found = {c["key"]: c for c in self.page.evaluate(CONTROLS_JS)}
        steps = self.stepper()
        path, _ = self.link()
        page = next((p for p in PAGES if p.path == path or (not path and p.default)), None)
        if steps is None or page is None:
            return found

        def control(name: str, kind: str, value: object, scope: str = page.id) -> None:
            if value is not None:
                key = key_class(f"{scope}.{name}")[len("st-key-"):]
                found[key] = {"key": key, "kind": kind, "value": value, "visible": True}

        control("stop" if page.id == "lesson" else "step", "number", steps["step"])
        control("head", "number", steps["head"])
        control("focus", "number", steps["focus"])
        control("walk", "text", steps["walk"])
        control("text", "text", steps["text"], "shared")
        for name, labels in SWITCHES.items():
            shown = [on for label, on in steps["switches"].items() if label in labels]
            control(name, "flag", shown[0] if shown else None)
        return found

    def link(self) -> tuple[str, dict[str, str]]:
        parts = urlsplit(self.page.url)
        return parts.path.strip("/"), dict(parse_qsl(parts.query, keep_blank_values=True))

    # --- Invariants ---

    def check(self, after: str) -> None:
        """What must hold after every action."""
        errors = self.server.new_errors()
        if errors:
            raise Broken(f"the server logged an error after {after}:\n{errors[-3000:]}")
        if self.page.locator("[data-testid=stException]").count():
            raise Broken(f"an exception is shown after {after}: {self.page.locator('[data-testid=stException]').first.inner_text()[:500]}")
        page = self.page.evaluate(PAGE_JS)  # as it is (the action settled): charts off the screen need not be drawn to see a blank page
        for words in ("This app has encountered an error", "Page not found"):  # Streamlit's own, in English only
            if words in page["body"]:
                raise Broken(f"{words!r} after {after} at {self.page.url}")
        if page["main"] is None or (not page["main"]["title"] and page["main"]["text"] < 20):
            raise Broken(f"a blank page after {after} at {self.page.url}")
        self.check_typed(after)
        self.check_page(after, page["main"]["title"])
        self.check_link(after)

    def check_page(self, after: str, title: str) -> None:
        """The address names the page shown: its path is the page whose title is on the screen (issue 34: a box left
        without Enter, then the menu, left the address of the page before)."""
        path, values = self.link()
        page = next((p for p in PAGES if p.path == path or (not path and p.default)), None)
        if page is None or not title:
            return
        expected = Texts(values.get("lang") if values.get("lang") in ("en", "zh") else "en")(f"{page.id}.title")
        if title != expected:
            raise Broken(f"after {after}, the address names the page {page.id!r} ({self.page.url}) but the page shown is {title!r}")

    def check_link(self, after: str) -> None:
        """Every value the link carries equals the value its control shows."""
        path, values = self.link()
        page = next((p for p in PAGES if p.path == path or (not path and p.default)), None)
        if page is None:
            return
        controls = self.controls()
        for name, text in values.items():
            scope = page.id if any(p.name == name for p in page.params) else "shared"
            param = next((p for p in (page.params if scope == page.id else SHARED) if p.name == name), None)
            control = controls.get(key_class(f"{scope}.{name}")[len("st-key-"):])
            if param is None or control is None or not control["visible"] or (self.typed and self.typed[0] == control["key"]):
                continue  # a box still being typed in holds text not yet committed
            shown = shown_value(param, control)
            if shown is not None and not same(param, shown, text):
                raise Broken(f"after {after}, the link says {name}={text!r} but its control shows {shown!r} ({page.id})")

    def check_typed(self, after: str) -> None:
        """Text the student typed is never silently replaced by another (it may only be committed)."""
        if self.typed is None or after.startswith("type"):
            return
        key, text = self.typed
        if getattr(self, "typed_in_steps", False) and not self.entered and not self.page.locator(
                ".steps form.sentence input[type=text]").count():
            self.typed = None  # the step component's box sends only with Enter: words never sent leave with its page
            return
        control = self.controls().get(key)
        if control is not None and control["kind"] == "text" and control["visible"] and control["value"] != text:
            raise Broken(f"after {after}, the box {key} shows {control['value']!r}: the student typed {text!r}")
        if control is not None and (self.entered or not self.focused(key)):  # committed by Enter, or once the focus left
            self.typed = None

    def focused(self, key: str) -> bool:
        """Does the element with widget key ``key`` hold the keyboard focus (a box still being typed in)? The step
        component's sentence box holds the text under the key of the sidebar's box it replaces on the walkthrough."""
        return self.page.evaluate("""(name) => { let a = document.activeElement;
          if (a && a.closest && a.closest('.st-key-' + name)) return true;
          while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
          return name === 'shared-text' && !!(a && a.matches && a.matches('form.sentence input')); }""", key)


ELSEWHERE: dict[tuple[int, str], object] = {}  # (browser, viewport) -> the page that opens links "elsewhere"


def elsewhere(browser, viewport: str):
    """Another browser's tab for links opened elsewhere: its own context (no cookies of the student's), kept for the
    browser's life and loaded afresh for each link."""
    key = (id(browser), viewport)
    page = ELSEWHERE.get(key)
    if page is None or page.is_closed():
        context = browser.new_context(**VIEWPORTS[viewport])
        context.set_default_timeout(SETTLE_TIMEOUT_MS)
        page = ELSEWHERE[key] = context.new_page()
        page.on("dialog", lambda dialog: dialog.dismiss())
    return page


def shown_value(param, control: dict) -> object | None:
    """The value a control shows, in the parameter's terms (None when it cannot be read without opening it)."""
    kind = control["kind"]
    if kind == "slider" and control["now"] is not None:
        if isinstance(param, Choice):  # a select_slider: the slider's value is the option's index
            return param.options[int(float(control["now"]))]
        return float(control["now"])
    if kind in ("text", "number"):
        return control["value"]
    if kind == "flag":
        return bool(control["value"])
    if kind == "segments" and control["index"] >= 0 and isinstance(param, Choice):
        return param.options[control["index"]]
    if kind in ("segments", "select") and isinstance(param, Int | Float):  # "3", or "3 · sat" (a position and its word)
        number = re.match(r"\s*(-?\d+(\.\d+)?)", control.get("text") or "")
        return number.group(1) if number else None
    return None


def same(param, shown: object, text: str) -> bool:
    """Does the control's value equal the link's text, read as the parameter reads it?"""
    value, _ = param.read(text)
    if isinstance(param, Flag):
        return bool(shown) == bool(value)
    if isinstance(param, Int | Float):
        try:
            return abs(float(shown) - float(value)) < 1e-9
        except (TypeError, ValueError):
            return False
    if isinstance(param, Text):
        return str(shown) == str(value)
    if isinstance(param, Choices):
        return True
    return str(shown) == str(value) or (_number(shown) is not None and _number(shown) == _number(value))


def _number(value: object) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def shown(main: dict | None) -> dict | None:
    """What must be the same on a link opened elsewhere: the title, every chart's numbers, every table, and what the step
    component shows (its step, matrices and focus tables; not its sentence box, a box being typed in)."""
    if main is None:
        return None
    steps = main.get("steps")
    if steps is not None:
        steps = {name: steps[name] for name in ("where", "head", "focus", "walk", "switches", "steps", "matrices", "tables")}
    return {"title": main["title"], "charts": main["charts"], "tables": main["tables"], "steps": steps}


def describe_difference(mine: dict | None, theirs: dict | None) -> str:
    if mine is None or theirs is None:
        return f"{mine is None=} {theirs is None=}"
    if mine["title"] != theirs["title"]:
        return f"title {mine['title']!r} vs {theirs['title']!r}"
    if len(mine["charts"]) != len(theirs["charts"]):
        return f"{len(mine['charts'])} charts vs {len(theirs['charts'])}: {[c['title'] for c in mine['charts']]} vs " \
               f"{[c['title'] for c in theirs['charts']]}"
    for a, b in zip(mine["charts"], theirs["charts"]):
        if a != b:
            return f"chart {a['title']!r} differs (vs {b['title']!r})"
    for a, b in zip(mine["tables"], theirs["tables"]):
        if a != b:
            return f"a table differs: {a[:200]!r} vs {b[:200]!r}"
    a, b = mine.get("steps") or {}, theirs.get("steps") or {}
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            return f"the steps' {name} differ: {str(a.get(name))[:300]!r} vs {str(b.get(name))[:300]!r}"
    return f"{len(mine['tables'])} tables vs {len(theirs['tables'])}"


def replay(browser, server: Server, viewport: str, steps: list) -> None:
    """Run a saved sequence of actions, checking every invariant after each (a regression test)."""
    visit = Visit(browser, server, viewport)
    try:
        for name, *args in steps:
            getattr(visit, name)(*args)
            visit.check(f"{name}{tuple(args)}")
        visit.main()  # at the end, every chart that waited off the screen is drawn too
        visit.check("the last action, every chart drawn")
    finally:
        visit.close()


def save(folder: Path, viewport: str, steps: list, error: str) -> Path:
    """A shrunk failing sequence as a regression file (the name is its content's hash)."""
    import hashlib

    text = json.dumps({"viewport": viewport, "steps": steps, "found": error.splitlines()[0][:300] if error else ""},
                      ensure_ascii=False, indent=1)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"found-{hashlib.sha1(json.dumps(steps).encode()).hexdigest()[:10]}.json"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def start_paths() -> tuple[str, ...]:
    """Where a visit may begin: every page of the registry, bare and with a sample link of its parameters."""
    paths = [f"/{page.path if not page.default else ''}" for page in PAGES]
    paths += ["/?text=the+cat+sat+on+the+mat&heads=2&step=3", "/?walk=pretrained&step=2", "/?walk=textbook&present=1",
              "/types?section=modes&tau=0.2", "/multi-head?heads=4&text=the+cat+sat+on+the+mat", "/?lang=zh",
              "/watch-it-learn?section=decode", "/positions-and-scale?section=fast", "/real-model?layer=3&head=4&lang=zh",
              "/real-model?section=layer&stage=4", "/vision?section=looks&digit=3", "/vision?section=draw&lang=zh",
              "/real-model?section=corpus&measure=entropy&versus=previous", "/positions-and-scale?section=latent&lang=zh",
              "/positions-and-scale?section=sparse&top_k=3", "/positions-and-scale?section=traffic&gpu=a100",
              # compare mode: walk B beside A (a preset's link, B with more heads, a real model's word pieces in Chinese)
              "/?text=the+cat+sat+on+the+mat&d_model=64&d_k=64&compare=score:dot&step=5",
              "/?text=the+cat+sat+on+the+mat&compare=heads:4,seed:2&step=7", "/?compare=walk:pretrained&lang=zh&step=5",
              "/?text=the+cat+sat+on+the+mat&compare=causal:1,temperature:0.5&step=5&lang=zh"]
    return tuple(paths)



# --- The live class: a phone in the class the visit teaches (views/live) ---


def live_phone(self: Visit, choice: int, seat: int) -> None:
    """A phone joins the class this tab teaches (by the code on its screen), taps a seat when the room has a map and an
    option of the vote open now; the phone's page must not break, and the teacher's page updates by itself. The phone is
    one browser kept for the browser's life (``elsewhere``): later actions are the same student, from its seat's cookie."""
    self.record("live_phone", choice, seat)
    shown = self.page.locator(".live-code, .live-code-small")
    if not shown.count():
        return
    code = shown.first.inner_text().strip()
    page = elsewhere(self.browser, "phone")
    phone = Visit(self.browser, self.server, "phone", context=page.context, page=page)
    page.goto(f"{self.server.url}/live?join={code}")
    phone.settle()
    for target, index in (("[class*=st-key-live-seat-row-] button", seat), ("[class*=st-key-live-answer-] label:has(input)", choice)):
        found = page.locator(target)
        if found.count():
            with contextlib.suppress(PlaywrightTimeout):  # moved away meanwhile (the teacher closed the vote)
                found.nth(index % found.count()).click(timeout=10_000)
            phone.settle()
    if page.locator("[data-testid=stException]").count():
        raise Broken(f"the phone in class {code} shows an exception: {page.locator('[data-testid=stException]').first.inner_text()[:500]}")
    self.settle()


Visit.live_phone = live_phone
