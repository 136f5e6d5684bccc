"""Every page and section of the registry on a projector (presenter mode, 1280 x 720) and on a phone (390 px, touch), in
English and in Chinese: each page opened by its link, then its other sections by its section control.

Measured in Debian's chromium, never assumed: the sidebar is closed, chart text on a projector is at least 16 px
and the page's first figure (a chart, or word chips) starts on the first screen; a phone never scrolls sideways and shows no chart toolbar.
On every view axe-core (WCAG 2.0-2.2 A and AA rules, scripts/axe_scan.py) finds nothing serious or critical, and a Chinese
view says nothing a student reads or hears in English (its attributes and visible text; scripts/axe_scan.english_left).
Screenshots of each view go to tests/screenshots/layouts/ for a person to look at.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlencode

import pytest

from scripts.axe_scan import english_left, violations
from scripts.browser import CHROMIUM, MISSING_CHROMIUM, serve
from tests.fuzz.driver import VIEWPORTS, Server, Visit, key_class
from views.params import Choice
from views.registry import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
SHOTS = Path(__file__).resolve().parent / "screenshots" / "layouts"


def sectioned() -> list[tuple[str, str, tuple[str, ...]]]:
    """(page id, page path, its sections) for every page of the registry (sections ("",) where a page has none)."""
    found = []
    for page in PAGES:
        section = next((p for p in page.params if p.name == "section" and isinstance(p, Choice)), None)
        found.append((page.id, page.path, section.options if section else ("",)))
    return found


MEASURE_JS = """() => {
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
  return {titlesCut: cut, smallest: texts.length ? Math.min(...texts.map(t => parseFloat(getComputedStyle(t).fontSize))) : null,
          firstFigure: figures.length ? Math.min(...figures.map(f => f.getBoundingClientRect().top)) + main.scrollTop : null,
          sidebarShown: box.x + box.width > 20, width: document.documentElement.scrollWidth,
          view: document.documentElement.clientWidth, toolbars: bars.length};
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
IDS = [f"{path or 'walkthrough'}-{lang}" for _, path, _, lang in EVERY_PAGE]


def usable_by_everyone(page, lang: str, where: str) -> None:
    """axe-core's first serious or critical violation fails, naming the element; in Chinese, the first English text too."""
    for found in violations(page):
        if found["impact"] in ("serious", "critical"):
            pytest.fail(f"{where}: axe-core: {found['id']} ({found['impact']}): {found['help']}: {found['nodes'][0]}\n{found['why'][0]}")
    if lang == "zh":
        left = english_left(page)
        assert not left, f"{where}: English on a Chinese page: {left[:5]}"


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


@pytest.mark.parametrize(("page_id", "path", "sections", "lang"), EVERY_PAGE, ids=IDS)
def test_presenter_mode_on_every_page(chromium, layout_server, tabs, page_id, path, sections, lang):
    for visit, section in every_section(tabs, chromium, layout_server, "projector", page_id, path, sections, {"present": 1, "lang": lang}):
        where = f"presenter {path or 'walkthrough'} {section} {lang}"
        shown = visit.page.evaluate(MEASURE_JS)
        SHOTS.mkdir(parents=True, exist_ok=True)
        visit.page.screenshot(path=str(SHOTS / f"presenter-{path or 'walkthrough'}-{section or 'page'}-{lang}.png"))
        assert not shown["sidebarShown"], (where, shown)
        assert not shown["titlesCut"], (where, shown)  # a title wider than its chart is wrapped (assets/js/charts.js)
        assert shown["smallest"] is None or shown["smallest"] >= 16, (where, shown)
        assert shown["firstFigure"] is None or shown["firstFigure"] < VIEWPORTS["projector"]["viewport"]["height"] - 100, (where, shown)
        usable_by_everyone(visit.page, lang, where)


@pytest.mark.parametrize(("page_id", "path", "sections", "lang"), EVERY_PAGE, ids=IDS)
def test_a_phone_shows_every_page(chromium, layout_server, tabs, page_id, path, sections, lang):
    for visit, section in every_section(tabs, chromium, layout_server, "phone", page_id, path, sections, {"lang": lang}):
        where = f"phone {path or 'walkthrough'} {section} {lang}"
        shown = visit.page.evaluate(MEASURE_JS)
        SHOTS.mkdir(parents=True, exist_ok=True)
        visit.page.screenshot(path=str(SHOTS / f"phone-{path or 'walkthrough'}-{section or 'page'}-{lang}.png"))
        assert shown["width"] <= shown["view"] + 1, (where, shown)
        assert not shown["titlesCut"], (where, shown)
        assert not shown["sidebarShown"], (where, shown)
        assert shown["toolbars"] == 0, (where, shown)
        usable_by_everyone(visit.page, lang, where)
