"""Every page and section of the registry on a phone (390 px, touch) in English and in Chinese, on a projector (presenter
mode, 1280 x 720) and on a phone on its side (844 x 390) in English: each page opened by its link, then its other
sections by its section control.

Measured in Debian's chromium, never assumed: the sidebar is closed, chart text on a projector is at least 16 px
and the page's first figure (a chart, or word chips) starts on the first screen; a phone never scrolls sideways and shows no chart toolbar.
On every view axe-core (WCAG 2.0-2.2 A and AA rules, scripts/axe_scan.py) finds nothing serious or critical, and a Chinese
view says nothing a student reads or hears in English (its attributes and visible text; scripts/axe_scan.english_left).
Screenshots of each view go to tests/screenshots/layouts/ for a person to look at (with ATTENTION_SHOTS=1).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlencode

import pytest
from conftest import VIEWPORTS
from test_browser_keyboard import tab_to_first_control

from scripts.axe_scan import duplicate_ids, english_left, violations
from scripts.browser import CHROMIUM, MISSING_CHROMIUM, STEPS_ROOT_JS, serve
from tests.fuzz.driver import Server, Visit, key_class
from views.shell.params import Choice
from views.shell.registry import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
SHOTS = Path(__file__).resolve().parent / "screenshots" / "layouts"


def sectioned() -> list[tuple[str, str, tuple[str, ...]]]:
    """(page id, page path, its sections) for every page of the registry (sections ("",) where a page has none)."""
    found = []
    for page in PAGES:
        section = next((p for p in page.params if p.name == "section" and isinstance(p, Choice)), None)
        found.append((page.id, page.path, section.options if section else ("",)))
    return found


MEASURE_JS = r"""() => {
  const main = document.querySelector('[data-testid=stMain]');
  const sidebar = document.querySelector('[data-testid=stSidebar]');
  const box = sidebar ? sidebar.getBoundingClientRect() : {x: -1, width: 0};
  // The step component (the walkthrough, the lesson on a projector, the images' steps) draws in a shadow root.
  const steps = [...main.querySelectorAll('[data-testid=stBidiComponentIsolated]')].map(h => h.shadowRoot).filter(Boolean);
  const own = steps.flatMap(r => [...r.querySelectorAll('figure.matrix td > span:not(.sr-only), figure.matrix th .lab, ' +
    'figure.matrix figcaption, figure.matrix .x-title, figure.matrix .y-title, figure.matrix .legend .ticks span')])
    .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0);
  const texts = [...main.querySelectorAll('.js-plotly-plot text')].filter(t => t.textContent.trim() && t.getBBox().width > 0).concat(own);
  const figures = [...main.querySelectorAll('.js-plotly-plot, [data-testid=stHtml]'),  // charts, word chips, matrices
                   ...steps.flatMap(r => [...r.querySelectorAll('figure.matrix, .chips')])]
    .filter(f => f.getBoundingClientRect().height > 30);
  const bars = [...document.querySelectorAll('.modebar')].filter(m => getComputedStyle(m).display !== 'none' &&
    getComputedStyle(m).visibility !== 'hidden' && m.getBoundingClientRect().width > 0 && getComputedStyle(m).opacity !== '0');
  // A chart in a closed expander is not drawn where it can be measured: its title is wrapped once the expander opens.
  const cut = [...main.querySelectorAll('.js-plotly-plot')]
    .filter(gd => gd.querySelector('.g-gtitle .gtitle') && !gd.closest('details:not([open])')).filter(gd => {
    const chart = gd.getBoundingClientRect(), title = gd.querySelector('.g-gtitle .gtitle').getBoundingClientRect();
    return title.right > chart.right + 1 || title.top < chart.top - 1; }).map(gd => gd.layout.title.text);
  // A control another element covers (a tap at its centre would reach the other): every button, link, box and slider
  // of the page and of the step component whose centre is on the screen, hit-tested there in its own root.
  const hits = [], roots = [document, ...steps];
  // (a slider's range input is hidden inside its thumb, which Streamlit draws over it: the thumb is the target)
  const CONTROLS = 'button, a[href], input:not([type=hidden]):not([type=range]), select, textarea, summary';
  for (const root of roots) for (const el of root.querySelectorAll(CONTROLS)) {
    if (el.closest('[inert], [aria-hidden=true], [hidden], .attention-numbers, [data-testid=stSidebar]') || (root === document
        && !el.closest('[data-testid=stMain], [data-testid=stHeader]'))) continue;
    const b = el.getBoundingClientRect(), s = getComputedStyle(el);
    if (b.width < 4 || b.height < 4 || s.visibility === 'hidden' || s.opacity === '0' || !el.checkVisibility({opacityProperty: true,
        visibilityProperty: true})) continue;
    // its centre and four points 6 px in from its corners (a button half under another is missed at its edge)
    const d = Math.min(6, b.width / 4, b.height / 4);
    const points = [[b.left + b.width / 2, b.top + b.height / 2], [b.left + d, b.top + d], [b.right - d, b.top + d], [b.left + d, b.bottom - d],
        [b.right - d, b.bottom - d]];
    const hit = points.filter(([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight).map(([x, y]) => root.elementFromPoint(x, y))
      .find(h => h && h !== el && !el.contains(h) && !((w) => w
          && w.contains(el))(h.closest('label, [data-baseweb], [data-testid=stSlider], [data-testid=stCheckbox], .modebar-btn')));
    if (!hit) continue;  // a hidden input inside its own label or box counts as its box
    const said = (e) => (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30);
    hits.push(`${el.tagName} "${said(el)}" under ${hit.tagName}.${String(hit.className).slice(0, 40)} "${said(hit)}"`);
  }
  // Labels that pile on one another: a chart's column, row or colour-bar ticks, the step component's colour-bar ticks.
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const piled = [];
  const groups = [...main.querySelectorAll('.js-plotly-plot')].flatMap(gd => ['.xtick text', '.ytick text',
      '.colorbar .tick text, .colorbar g[class*=tick] text']
    .map(sel => [gd.layout && gd.layout.title ? gd.layout.title.text : '', [...gd.querySelectorAll(sel)]]))
    .concat(steps.flatMap(r => [...r.querySelectorAll('figure.matrix .legend .ticks')].map(t => [t.closest('figure').dataset.matrix,
        [...t.children]])));
  for (const [name, labels] of groups) {
    // Turned labels (Plotly turns them when they would touch) have boxes wider than their ink: not compared.
    const turned = (t) => /rotate\((?!0[,)])/.test(t.getAttribute('transform') || '');
    const boxes = labels.filter(t => t.textContent.trim() && getComputedStyle(t).display !== 'none' && !turned(t)).map(t => [t.textContent.trim(),
        t.getBoundingClientRect()]).filter(([, r]) => r.width > 0);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++)
      if (overlap(boxes[i][1], boxes[j][1])) piled.push(`${name}: ${boxes[i][0]} / ${boxes[j][0]}`);
  }
  // A chart's toolbar (shown on a touch screen) over its title.
  const underBar = [...main.querySelectorAll('.js-plotly-plot')].filter(gd => {
    const bar = gd.querySelector('.modebar'), title = gd.querySelector('.g-gtitle .gtitle');
    if (!bar || !title || getComputedStyle(bar).opacity === '0' || !bar.checkVisibility({opacityProperty: true,
        visibilityProperty: true})) return false;
    const m = bar.getBoundingClientRect();
    return m.width > 0 && overlap(m, title.getBoundingClientRect()); }).map(gd => gd.layout.title.text);
  return {covered: hits, piled, underBar, titlesCut: cut, smallest: texts.length ? Math.min(...texts
      .map(t => parseFloat(getComputedStyle(t).fontSize))) : null,
          firstFigure: figures.length ? Math.min(...figures.map(f => f.getBoundingClientRect().top)) + main.scrollTop : null,
          sidebarShown: box.x + box.width > 20, width: document.documentElement.scrollWidth,
          view: document.documentElement.clientWidth, toolbars: bars.length,
          drawn: [...main.querySelectorAll('.js-plotly-plot')].filter(gd => gd.querySelector('.main-svg')).length};
}"""


@pytest.fixture(scope="module")
def layout_server(tmp_path_factory):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(MISSING_CHROMIUM)
    log = tmp_path_factory.mktemp("layouts") / "server.log"
    with serve() as url:
        yield Server(url, log)




@pytest.fixture(scope="module")
def tabs(chromium, layout_server):
    """One tab per viewport, reused: each view is a new page load (a new session) with the browser's cache warm, as in
    a class where the app was opened once before."""
    opened: dict[str, Visit] = {}
    yield opened
    for visit in opened.values():
        visit.close()


def _open(tabs: dict, browser, server, viewport: str, path: str, params: dict) -> Visit:
    address = f"/{path}?{urlencode(params)}"
    if viewport not in tabs:
        tabs[viewport] = Visit(browser, server, viewport)
        tabs[viewport].open(address)
    else:
        tabs[viewport].goto(address)
    return tabs[viewport]


EVERY_PAGE = [(page_id, path, sections, lang) for lang in ("en", "zh") for page_id, path, sections in sectioned()]
# A Chinese page says the same words on every screen, so its axe and English checks run upright on a phone; a projector
# and a phone on its side are measured in English, whose words are the longest (the titles most likely to be cut).
PRESENTED = [case for case in EVERY_PAGE if case[3] == "en"]
# On its side, the pages whose layout a short, wide screen strains: the step bar under the sidebar's button, and the pages
# of the most charts side by side (the others lay out as upright, one column).
ON_ITS_SIDE = ("", "positions-and-scale", "real-model", "vision", "watch-it-learn")
PHONES = [(*case, "phone") for case in EVERY_PAGE] + [(*case, "landscape") for case in PRESENTED if case[1] in ON_ITS_SIDE]


# Each chart drawn (near the screen) holds its numbers as hidden tables: a chart's box whose tables are missing, empty or
# have a header with no text (charts off the screen are drawn when scrolled to, by the same code).
UNREAD_CHARTS_JS = """() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stPlotlyChart]')]
  .filter(box => box.querySelector('.main-svg')).map(box => {
    const tables = [...box.querySelectorAll(':scope > div.attention-numbers table')];
    const rows = tables.reduce((n, t) => n + (t.tBodies[0] ? t.tBodies[0].rows.length : 0), 0);
    const empty = tables.reduce((n, t) => n + [...t.querySelectorAll('th')].filter(th => !th.textContent.trim()).length, 0);
    return {label: (box.getAttribute('aria-label') || '').slice(0, 60), tables: tables.length, rows, empty};
  }).filter(c => !c.tables || !c.rows || c.empty)"""


def every_chart_has_a_table_of_its_numbers(page, where: str) -> None:
    try:
        page.wait_for_function(f"() => ({UNREAD_CHARTS_JS})().length === 0", timeout=10000)
    except Exception:
        pytest.fail(f"{where}: charts without a table of their numbers: {page.evaluate(UNREAD_CHARTS_JS)}")


# The headings of the main area in document order, into open shadow roots (the step component), not the charts' hidden
# tables: their levels.
OUTLINE_JS = """() => {
  const found = [];
  const walk = (root) => { for (const el of root.querySelectorAll('*')) {
    const shown = el.getClientRects().length && !el.closest('div.attention-numbers');
    if (/^H[1-6]$/.test(el.tagName) && shown) found.push([+el.tagName[1], el.textContent.trim()]);
    if (el.shadowRoot) walk(el.shadowRoot); } };
  walk(document.querySelector('[data-testid=stMain]'));
  return {levels: found.map(h => h[0])};
}"""



def shoot(page, name: str) -> None:
    """A screenshot of the view for a person to look at, when asked for (ATTENTION_SHOTS=1: make screenshots' pages)."""
    if os.environ.get("ATTENTION_SHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


def usable_by_everyone(page, lang: str, where: str, titled: bool = True) -> None:
    """axe-core's first violation of any impact fails (heading-order, region and empty-table-header too, which axe
    calls moderate or minor), naming the element; an id given twice (axe no longer checks); an outline that does not
    start at the page's title (``titled``: presenter mode shows none, the room reads the slide) or skips a level, or
    has no section; in Chinese, the first English text too."""
    levels = page.evaluate(OUTLINE_JS)["levels"]
    assert levels[:1] == [1 if titled else 2] and 2 in levels, (where, levels)
    assert all(level <= before + 1 for before, level in zip(levels, levels[1:])), (where, levels)
    for found in violations(page):
        pytest.fail(f"{where}: axe-core: {found['id']} ({found['impact']}): {found['help']}: {found['nodes'][0]}\n{found['why'][0]}")
    assert not duplicate_ids(page), f"{where}: ids given twice: {duplicate_ids(page)}"
    if lang == "zh":
        left = english_left(page)
        assert not left, f"{where}: English on a Chinese page: {left[:5]}"


def tabs_reach_the_first_control(page, where: str) -> None:
    """From the top of a page just opened (nothing focused yet: measured and scanned only), with the sidebar closed
    (presenter mode, a phone): Tab reaches the page's first control within 6 stops, each on the screen and named, none
    in the collapsed sidebar (on a laptop, with the sidebar open: tests/test_browser_keyboard.py)."""
    page.wait_for_function("() => !!window.__attentionShell", timeout=30000)
    tabs, _, stops = tab_to_first_control(page)
    assert not any(stop["sidebar"] for stop in stops), (where, [s for s in stops if s["sidebar"]][:3])
    assert tabs <= 6, (where, stops)


def every_section(tabs: dict, browser, server, viewport: str, page_id: str, path: str, sections: tuple[str, ...], params: dict):
    """Each section of a page in turn: the first opened by its link (a new session), the others by pressing the page's
    section control, as a student moves through them (a rerun of the page, not a new load: half the browser's work)."""
    visit = _open(tabs, browser, server, viewport, path, params | ({"section": sections[0]} if sections[0] else {}))
    for index, section in enumerate(sections):
        if index:
            visit.page.locator(f".{key_class(f'{page_id}.section')} [data-testid=stButtonGroup] button").nth(index).click()
            visit.settle()
            assert f"section={section}" in visit.page.url, (section, visit.page.url)
        yield visit, section


@pytest.mark.parametrize(("page_id", "path", "sections", "lang"), PRESENTED, ids=[f"{c[1] or 'walkthrough'}-en" for c in PRESENTED])
def test_presenter_mode_on_every_page(chromium, layout_server, tabs, page_id, path, sections, lang):
    for visit, section in every_section(tabs, chromium, layout_server, "projector", page_id, path, sections, {"present": 1, "lang": lang}):
        where = f"presenter {path or 'walkthrough'} {section} {lang}"
        shown = visit.page.evaluate(MEASURE_JS)
        shoot(visit.page, f"presenter-{path or 'walkthrough'}-{section or 'page'}-{lang}")
        assert not shown["sidebarShown"], (where, shown)
        assert not shown["titlesCut"], (where, shown)  # a title wider than its chart is wrapped (assets/js/charts.js)
        assert shown["smallest"] is None or shown["smallest"] >= 16, (where, shown)
        assert shown["firstFigure"] is None or shown["firstFigure"] < VIEWPORTS["projector"]["viewport"]["height"] - 100, (where, shown)
        assert not shown["covered"], (where, shown["covered"])
        usable_by_everyone(visit.page, lang, where, titled=False)
        if section == sections[0]:  # last: a Tab opens a control's tooltip, which axe would read half faded in
            tabs_reach_the_first_control(visit.page, where)


@pytest.mark.parametrize(("page_id", "path", "sections", "lang", "viewport"), PHONES, ids=[f"{c[1] or 'walkthrough'}-{c[3]}-{c[4]}" for c in PHONES])
def test_a_phone_shows_every_page(chromium, layout_server, tabs, page_id, path, sections, lang, viewport):
    """Upright (390 x 844) and on its side (844 x 390): the sidebar closed, nothing scrolls sideways, no title cut,
    no control under another (a tap on Previous never opens the sidebar), no tick labels on one another, and the
    chart toolbar (PNG, full screen) shown, off the title."""
    for visit, section in every_section(tabs, chromium, layout_server, viewport, page_id, path, sections, {"lang": lang}):
        where = f"{viewport} {path or 'walkthrough'} {section} {lang}"
        shown = visit.page.evaluate(MEASURE_JS)
        shoot(visit.page, f"{viewport}-{path or 'walkthrough'}-{section or 'page'}-{lang}")
        assert shown["width"] <= shown["view"] + 1, (where, shown)
        assert not shown["titlesCut"], (where, shown)
        assert not shown["sidebarShown"], (where, shown)
        assert not shown["covered"], (where, shown["covered"])
        assert not shown["piled"], (where, shown["piled"])
        assert not shown["underBar"], (where, shown["underBar"])
        assert shown["toolbars"] > 0 or shown["drawn"] == 0, (where, shown)  # PNG and full screen on a touch screen too
        if viewport == "phone":
            every_chart_has_a_table_of_its_numbers(visit.page, where)
        usable_by_everyone(visit.page, lang, where)
        if section == sections[0] and (viewport, lang) == ("phone", "en"):  # last, as in presenter mode
            tabs_reach_the_first_control(visit.page, where)


@pytest.mark.parametrize("viewport", ["phone", "landscape"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presenter_mode_on_a_phone_keeps_the_step_bar_clear_of_the_sidebar_button(chromium, layout_server, tabs, viewport, lang):
    """A teacher's phone in presenter mode, upright and on its side: the button that opens the sidebar covers no part
    of the step bar (a tap on the left of Previous opened the sidebar), and a tap on Previous goes back a step."""
    visit = _open(tabs, chromium, layout_server, viewport, "", {"present": 1, "lang": lang, "walk": "textbook", "step": 3})
    shown = visit.page.evaluate(MEASURE_JS)
    assert not shown["covered"], shown["covered"]
    assert not shown["sidebarShown"], shown
    previous = visit.page.evaluate(f"() => {{ const b = ({STEPS_ROOT_JS}()).querySelector('.bar .nav.previous').getBoundingClientRect();"
                                   " return [b.left + 4, b.top + 6]; }")
    visit.page.mouse.click(*previous)  # its top left corner, next to the sidebar's button
    visit.page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '2'", timeout=30000)
    assert not visit.page.evaluate(MEASURE_JS)["sidebarShown"]
