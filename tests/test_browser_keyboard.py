"""The keyboard and the focus, page by page, in Debian's chromium: a Tab never lands on something hidden, and the focus
goes where a keyboard user and a screen reader expect it when something opens, closes or changes.

- Every page of the registry, on a laptop (the sidebar open): Tab from the top of a fresh page reaches the page's first
  control, every stop on the way on the screen and named (on a projector in presenter mode and on a phone, with the
  sidebar collapsed, the layout sweep checks it too, and that the sidebar gives no stop: tests/test_browser_layouts.py).
  The counts are written to tests/screenshots/keyboard/tab-counts-laptop.md for the record.
- Every pop-over, dialog and full screen takes the focus in when it opens and gives it back when it closes (Escape).
- A page chosen from the menu takes the focus; the sidebar closed or opened by its button leaves the focus on the
  button that undoes it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import VIEWPORTS

from scripts.browser import wait_for_step
from tests.fuzz.driver import SETTLED_JS
from views.shell.registry import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-2")]
COUNTS = Path(__file__).resolve().parent / "screenshots" / "keyboard" / "tab-counts.md"

# Where the focus is, through the step component's shadow root: its name, whether it is a control in the page's main
# area, and whether any of it is on the screen.
STOP_JS = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body) return null;
  const box = el.getBoundingClientRect();
  const host = el.getRootNode().host, inMain = !!(host || el).closest('[data-testid=stMain]');
  const name = (el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent || el.value || '').trim().replace(/\\s+/g,
      ' ').slice(0, 60);
  const control = inMain
    && el.matches('button, a[href], input, select, textarea, [role=slider], [role=radio], [role=tab], [role=switch], [role=combobox]')
    && !el.matches('a.attention-skip, [data-testid=stSkipToContent], [data-testid=stHeaderActionElements] a');
  return {tag: el.tagName, name, control, inMain, cls: typeof el.className === 'string' ? el.className : '',
          sidebar: !!el.closest('[data-testid=stSidebar]'), inert: !!el.closest('[inert]'),
          onScreen: box.width > 0 && box.height > 0 && box.right > 0 && box.bottom > 0 && box.left < innerWidth && box.top < innerHeight};
}"""

LAYOUTS = {"laptop": (VIEWPORTS["projector"], {})}  # a laptop's screen at the projector's size, the sidebar open


def settle(page) -> None:
    """The page drawn (the fuzzer's test: no run going, every chart near the screen drawn, the same page three times
    100 ms apart) and the page script's first tidy done."""
    page.wait_for_function("() => !!window.__attentionShell && !!document.querySelector('[data-testid=stMain] h1')", timeout=60000)
    calm, last = 0, None
    for _ in range(600):
        now = page.evaluate(SETTLED_JS)
        calm, last = (calm + 1 if now and now == last else 0), now
        if calm >= 3:
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(300)


def tab_to_first_control(page, limit: int = 80) -> tuple[int, int | None, list[dict]]:
    """Tab from the top until a control of the page's main area has the focus: (Tabs to it, Tabs to Next if passed,
    every stop). Every stop is on the screen and never in an inert part."""
    stops, to_next = [], None
    for tabs in range(1, limit + 1):
        page.keyboard.press("Tab")
        stop = page.evaluate(STOP_JS)
        assert stop is not None, (tabs, stops[-3:])
        assert stop["onScreen"] and not stop["inert"], (tabs, stop, stops[-3:])
        stops.append(stop)
        if stop["cls"].startswith("nav next") and to_next is None:
            to_next = tabs
        if stop["control"]:
            return tabs, to_next, stops
    raise AssertionError(f"no control of the page within {limit} Tabs: {stops[-5:]}")


@pytest.fixture
def counts(request):
    """Tabs per page for this test's layout, written to its own file (xdist may run the layouts in different workers)."""
    found: dict[str, str] = {}
    yield found
    layout = request.node.callspec.params["layout"]
    COUNTS.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"| page | Tabs to the first control, {layout} |", "|---|---|"]
    lines += [f"| {page.path or 'walkthrough'} | {found.get(page.id, '')} |" for page in PAGES]
    COUNTS.with_name(f"tab-counts-{layout}.md").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("layout", ["laptop"])  # presenter mode and a phone: in the layout sweep's visits
def test_tab_reaches_every_pages_first_control_through_stops_on_the_screen(open_page, app_url, counts, layout):
    """Each page opened fresh; Tab walks to its first control. With the sidebar open, the menu comes first, every link
    scrolled into view as it is reached. (With it closed, presenter mode and a phone, no stop is in the sidebar and the
    first control is a few Tabs away: tests/test_browser_layouts.py checks it in its visit of each page.)"""
    options, params = LAYOUTS[layout]
    page = open_page(None, **options)
    for entry in PAGES:
        query = "&".join(f"{k}={v}" for k, v in ({"lang": "en"} | params).items())
        page.goto(f"{app_url}/{entry.path}?{query}")
        settle(page)
        tabs, to_next, _ = tab_to_first_control(page)
        counts[entry.id] = f"{tabs}" + (f" (Next {to_next})" if to_next else "")


FOCUS_JS = """() => { let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el && el !== document.body ? (el.getAttribute('aria-label') || el.getAttribute('data-title') || el.textContent
      || '').trim().replace(/\\s+/g, ' ') : null; }"""


def focus_is(page, text: str, timeout: int = 5000) -> None:
    page.wait_for_function(f"() => ({FOCUS_JS})()?.includes({text!r})", timeout=timeout)


def test_a_pop_over_takes_the_focus_in_and_gives_it_back(open_page):
    """The lesson's "Clear the class's guesses": Enter on its button puts the focus on the button inside, which has a
    name; Escape closes it and the focus is on its button again, and the next Tab goes on from there."""
    page = open_page("/lesson?lang=en")
    settle(page)
    opener = page.locator("[data-testid=stPopover] button").first
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("[data-testid=stPopoverBody]")
    dialog.wait_for(timeout=10000)
    assert dialog.get_attribute("role") == "dialog" and dialog.get_attribute("aria-label"), dialog.get_attribute("aria-label")
    focus_is(page, "Clear every stop")  # its first control, not 15 Tabs later
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached", timeout=10000)
    focus_is(page, "Clear the class")
    # Tab from its last control leaves it for what follows its button, and closes it (it fell to the page's body, open);
    # Shift+Tab from its first goes back to its button
    page.keyboard.press("Enter")
    dialog.wait_for(timeout=10000)
    focus_is(page, "Clear every stop")
    page.keyboard.press("Shift+Tab")
    dialog.wait_for(state="detached", timeout=10000)
    focus_is(page, "Clear the class")
    page.keyboard.press("Enter")
    dialog.wait_for(timeout=10000)
    focus_is(page, "Clear every stop")
    page.keyboard.press("Tab")
    dialog.wait_for(state="detached", timeout=10000)
    page.wait_for_timeout(300)
    after = page.evaluate(FOCUS_JS)
    assert after and "Clear" not in after, after  # on the next control of the page, not the body


def test_the_presenter_choices_open_on_their_first_control_and_close_back_to_their_button(open_page):
    """Presenter mode's ⚙: a named dialog, the focus inside it at once; Escape closes it onto ⚙. On the last step the
    skip link still leads to Next (which says it is the last step), not to Previous, so Enter never goes back."""
    page = open_page("/?lang=en&present=1&walk=textbook&step=6")
    wait_for_step(page, "Step 6 of 6")
    settle(page)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    focus_is(page, "Skip to the step")
    page.keyboard.press("Enter")
    focus_is(page, "Next")
    page.keyboard.press("Enter")  # nothing to go to: still step 6, still on Next
    page.wait_for_timeout(400)
    wait_for_step(page, "Step 6 of 6")
    focus_is(page, "Next")
    page.keyboard.press("Shift+Tab")  # the ⚙ before Next
    focus_is(page, "Choices")
    page.keyboard.press("Enter")
    dialog = page.locator(".steps [role=dialog]:not([hidden])")
    dialog.wait_for(timeout=10000)
    assert dialog.get_attribute("aria-label"), dialog.evaluate("d => d.outerHTML.slice(0, 200)")
    assert page.evaluate("() => { let el = document.activeElement; while (el && el.shadowRoot && el.shadowRoot.activeElement) "
                         "el = el.shadowRoot.activeElement; return !!el.closest('[role=dialog]'); }")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden", timeout=10000)
    focus_is(page, "Choices")


def test_full_screen_keeps_the_focus_on_its_button_both_ways(open_page):
    """A chart's full screen (in Plotly's toolbar): after Enter the focus is on "Close fullscreen"; after Escape it is
    on the same chart's "Fullscreen" again, never on the page's body."""
    page = open_page("/cosine?lang=en")
    settle(page)
    button = page.locator("[data-testid=stMain] .modebar-btn[data-title=Fullscreen]").first
    button.wait_for(state="attached", timeout=30000)
    button.focus()
    page.keyboard.press("Enter")
    focus_is(page, "Close fullscreen")
    page.keyboard.press("Escape")
    page.locator(".modebar-btn[data-title='Close fullscreen']").wait_for(state="detached", timeout=10000)
    focus_is(page, "Fullscreen")


# Whether the focus is in the chart shown full screen (the element whose toolbar has "Close fullscreen").
IN_FULL_SCREEN_JS = """() => { const place = document.activeElement && document.activeElement.closest('[data-testid=stElementContainer]');
  return !!place && !!place.querySelector(".modebar-btn[data-title='Close fullscreen']"); }"""


def test_full_screen_keeps_tab_and_shift_tab_inside_the_chart(chromium, app_url):
    """A chart full screen covers the page: Tab and Shift+Tab go round its own stops (its toolbar), never to the page
    under it; the arrow keys move along its toolbar; Escape, from any of its buttons, closes it onto "Fullscreen"."""
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{app_url}/cosine?lang=en")
    settle(page)
    button = page.locator("[data-testid=stMain] .modebar-btn[data-title=Fullscreen]").first
    button.wait_for(state="attached", timeout=30000)
    button.focus()
    page.keyboard.press("Enter")
    focus_is(page, "Close fullscreen")
    for key in ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]:
        page.keyboard.press(key)
        assert page.evaluate(IN_FULL_SCREEN_JS), (key, page.evaluate(STOP_JS))
    page.keyboard.press("ArrowLeft")
    focus_is(page, "Reset axes")
    page.keyboard.press("Tab")
    assert page.evaluate(IN_FULL_SCREEN_JS), page.evaluate(STOP_JS)
    page.keyboard.press("Escape")
    page.locator(".modebar-btn[data-title='Close fullscreen']").wait_for(state="detached", timeout=10000)
    focus_is(page, "Fullscreen")
    context.close()


TOOLBARS_JS = """() => [...document.querySelectorAll('[data-testid=stMain] .js-plotly-plot')].map(gd => ({
  bars: [...gd.querySelectorAll('.modebar')].map(bar => ({role: bar.getAttribute('role'), name: bar.getAttribute('aria-label'),
    stops: [...bar.querySelectorAll('.modebar-btn')].filter(b => b.tabIndex >= 0).map(b => b.getAttribute('data-title')),
    buttons: bar.querySelectorAll('.modebar-btn').length, shown: bar.checkVisibility()})),
  layers: [...gd.querySelectorAll('svg.main-svg')].map(svg => svg.getAttribute('aria-hidden'))}))"""


def test_a_charts_toolbar_is_one_tab_stop_and_its_drawing_is_no_image_of_numbers(chromium, app_url):
    """The scaling lab's charts, every one drawn: each toolbar is a named ARIA toolbar and one Tab stop (not five), ←, →,
    Home and End move along its buttons (the step keys stay off), the Tab stop stays where the arrows left it after a
    button redraws the chart. A screen reader meets each chart as a named figure holding its table of numbers and its
    toolbar: Plotly's SVG (the axes' numbers, the titles) is no unnamed image any more. In Chinese the toolbar is named in
    Chinese."""
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{app_url}/scaling-lab?lang=en")
    settle(page)
    if page.evaluate("() => window.__attentionCharts.drawAll()"):
        settle(page)
    charts = page.evaluate(TOOLBARS_JS)
    bars = [bar for chart in charts for bar in chart["bars"]]
    assert len(bars) >= 3, charts
    for bar in bars:
        assert bar["role"] == "toolbar" and bar["name"] == "Chart tools" and bar["buttons"] >= 4, bar
        assert len(bar["stops"]) == 1, bar
    assert all(chart["layers"] and set(chart["layers"]) == {"true"} for chart in charts), charts
    for figure in page.locator("[data-testid=stMain] [data-testid=stPlotlyChart]").all():
        if not figure.is_visible():  # in a closed expander: out of the accessibility tree
            continue
        tree = figure.aria_snapshot()
        assert re.match(r"- '?figure \"", tree) and "- table " in tree and '- toolbar "Chart tools"' in tree, tree[:400]
        assert not re.search(r"^\s*- img\b", tree, re.MULTILINE), [line for line in tree.splitlines() if "img" in line]
    # A whole lap of the Tab key: one stop for each toolbar.
    stops, first = [], None
    for _ in range(200):
        page.keyboard.press("Tab")
        stop = page.evaluate(STOP_JS)
        if stop is None:
            continue
        if first is not None and stop == first:
            break
        first = first or stop
        stops.append(stop)
    assert sum("modebar-btn" in stop["cls"] for stop in stops) == sum(bar["shown"] for bar in bars), [s["name"] for s in stops]
    toolbar = page.locator("[data-testid=stMain] .modebar").first
    address = page.url
    toolbar.locator(".modebar-btn").first.focus()
    page.keyboard.press("ArrowRight")
    focus_is(page, "Zoom in")
    page.keyboard.press("End")
    focus_is(page, "Fullscreen")
    page.keyboard.press("ArrowRight")  # round to the first
    focus_is(page, "Download plot")
    page.keyboard.press("ArrowLeft")
    focus_is(page, "Fullscreen")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    focus_is(page, "Zoom in")
    assert page.url == address  # the arrows moved along the toolbar, nothing else
    page.keyboard.press("Enter")  # zooms in: Plotly draws the chart (and its toolbar) again
    page.wait_for_timeout(800)
    assert toolbar.evaluate("bar => [...bar.querySelectorAll('.modebar-btn')].filter(b => b.tabIndex >= 0).map(b => b.dataset.title)") == ["Zoom in"]
    page.keyboard.press("Tab")  # and Tab leaves the toolbar
    assert "modebar-btn" not in page.evaluate(STOP_JS)["cls"]
    page.goto(f"{app_url}/cosine?lang=zh")
    settle(page)
    names = {bar["name"] for chart in page.evaluate(TOOLBARS_JS) for bar in chart["bars"]}
    assert names == {"图表工具"}, names
    context.close()


def test_a_page_chosen_from_the_menu_takes_the_focus_and_the_sidebar_button_keeps_it(open_page):
    """Enter on a menu link: the new page's title has the focus (a screen reader reads where it arrived). The sidebar
    collapsed by its button: its links are gone from the Tab order and the focus is on the button that opens it;
    opened by that (Enter), the focus is on the menu's first link, and Shift+Tab reaches the button that closes it
    (which Streamlit shows only under the mouse): the keyboard alone opens and closes the sidebar."""
    page = open_page("/?lang=en")
    settle(page)
    link = page.locator("[data-testid=stSidebarNavLink]", has_text="Cosine similarity")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/cosine**", timeout=30000)
    focus_is(page, "Cosine similarity", 15000)
    assert page.evaluate("() => document.activeElement.tagName") == "H1"
    page.locator("[data-testid=stSidebar]").hover()
    page.locator("[data-testid=stSidebarCollapseButton] button").click()
    focus_is(page, "Expand sidebar")
    assert page.evaluate("() => document.querySelector('[data-testid=stSidebar]').inert")
    page.mouse.move(900, 600)  # the pointer off the sidebar: from here on the keyboard alone
    page.keyboard.press("Enter")
    focus_is(page, "Walkthrough")  # the menu's first link
    assert not page.evaluate("() => document.querySelector('[data-testid=stSidebar]').inert")
    page.keyboard.press("Shift+Tab")  # the button that closes it again, shown while the keyboard is in the sidebar
    focus_is(page, "Collapse sidebar")
    page.keyboard.press("Enter")
    focus_is(page, "Expand sidebar")
    assert page.evaluate("() => document.querySelector('[data-testid=stSidebar]').inert")


# The control of the step component the focus is on (×, the walk, Leave), whether the presenter's dialog is open, what the live
# region said last and the walk chosen.
PART_JS = """() => { let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  const walks = (select) => select && select.tagName === 'SELECT' && [...select.options].some(o => o.value === 'random');
  const top = el && el.getRootNode().querySelector && el.getRootNode().querySelector('.steps');
  const dialog = top && top.querySelector('[role=dialog]'), walk = dialog && [...dialog.querySelectorAll('select')].find(walks);
  const part = !el || !el.matches ? null : el.matches('[role=dialog] button.close') ? 'close' : walks(el) ? 'walk'
    : el.matches('[role=dialog] button.plain') ? 'leave' : el.tagName.toLowerCase();
  return {part, open: !!dialog && !dialog.hidden, said: top ? (top.querySelector('[aria-live]') || {}).textContent || '' : '',
          walk: walk ? walk.value : null, walks: walk ? walk.options.length : 0}; }"""


def open_choices(page):
    """Presenter mode's ⚙ pressed from the keyboard: the dialog open, the focus on its first control (×)."""
    page.locator(".steps nav.bar button.choices-button").focus()
    page.keyboard.press("Enter")
    page.locator(".steps [role=dialog]:not([hidden])").wait_for(timeout=10000)
    page.wait_for_function(f"() => ({PART_JS})().part === 'close'", timeout=5000)


@pytest.mark.parametrize("step", [1, 5])
def test_the_presenters_walk_keeps_the_focus_and_says_the_step_it_lands_on(open_page, step):
    """A keyboard teacher in presenter mode: ⚙, Tab to the walk ("Numbers"), ArrowDown. The page reran with the new walk
    and the focus moved from the list to the dialog's ×, so a second ArrowDown did nothing; at step 1 the article's
    example opened at step 3 and nothing was said. Now the list keeps the focus (the dialog open) through each change,
    and the live region says the walk and the step it lands on."""
    page = open_page(f"/?lang=en&present=1&step={step}")
    wait_for_step(page, f"Step {step} of 6")
    settle(page)
    open_choices(page)
    page.keyboard.press("Tab")
    page.wait_for_function(f"() => ({PART_JS})().part === 'walk'", timeout=5000)
    first = page.evaluate(PART_JS)
    assert first["walk"] == "random", first
    page.keyboard.press("ArrowDown")  # the article's example
    page.wait_for_function(f"() => ({PART_JS})().walk === 'textbook'", timeout=30000)
    settle(page)
    page.wait_for_timeout(500)
    landed = 3 if step == 1 else step
    wait_for_step(page, f"Step {landed} of 6")
    now = page.evaluate(PART_JS)
    assert now["part"] == "walk" and now["open"], now  # not on ×, the dialog still open
    page.wait_for_function(f"() => ({PART_JS})().said.includes('Step {landed} of 6')", timeout=5000)
    if now["walks"] > 2:  # a real model installed: its walk is the third, reached with a second ArrowDown
        page.keyboard.press("ArrowDown")
        page.wait_for_function(f"() => ({PART_JS})().walk !== 'textbook'", timeout=60000)
        settle(page)
        page.wait_for_timeout(500)
        again = page.evaluate(PART_JS)
        assert again["part"] == "walk" and again["open"], again


def test_tab_from_the_presenters_last_choice_closes_it_and_goes_on(open_page):
    """Tab from "Leave presenter mode", the dialog's last control, put the focus on the matrix behind it while the dialog
    stayed open over the right half of the step (WCAG 2.4.11). Now Tab there closes it and goes on to Next, the control
    after ⚙; Shift+Tab from its first control (×) closes it back onto ⚙."""
    page = open_page("/?lang=en&present=1&step=3")
    wait_for_step(page, "Step 3 of 6")
    settle(page)
    open_choices(page)
    page.keyboard.press("Shift+Tab")
    page.locator(".steps [role=dialog]").wait_for(state="hidden", timeout=5000)
    focus_is(page, "Choices")
    open_choices(page)
    for _ in range(20):  # on to its last control
        if page.evaluate(PART_JS)["part"] == "leave":
            break
        page.keyboard.press("Tab")
    assert page.evaluate(PART_JS)["part"] == "leave", page.evaluate(PART_JS)
    page.keyboard.press("Tab")
    page.locator(".steps [role=dialog]").wait_for(state="hidden", timeout=5000)
    focus_is(page, "Next")
    assert page.evaluate("() => location.search").count("present=1") == 1  # still in presenter mode, on the same step
    wait_for_step(page, "Step 3 of 6")
