"""A page's structure as a screen reader and a phone meet it, in a real browser (the testers' findings of "Everyone,
everywhere"): an outline of headings that never skips a level, every chart's numbers as a table, multi-head's heads in
reading order, and a table wider than its box that says it scrolls sideways and can be scrolled with the keyboard. (The
outline, from the page's title down one level at a time, is checked on every page and section: tests/test_browser_layouts.py.)"""

from __future__ import annotations

import pytest

from scripts.browser import IDLE_JS
from views.shell.script import browser_texts

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

def opened(open_page, path: str, width: int = 1280, height: int = 720):
    page = open_page(path, viewport={"width": width, "height": height}, has_touch=width < 640, is_mobile=width < 640)
    page.wait_for_selector("[data-testid=stMain] h1", timeout=60000)
    page.wait_for_function(IDLE_JS, timeout=90000)
    return page


# Every chart drawn holds its numbers as hidden tables: checked on every section of every page in the layout sweep's
# visits on a phone (tests/test_browser_layouts.py, every_chart_has_a_table_of_its_numbers).


def test_the_real_models_overview_names_each_heads_largest_share(open_page):
    page = opened(open_page, "/real-model?section=heads")
    page.wait_for_selector(".st-key-overview-pick div.attention-numbers table", state="attached", timeout=30000)
    rows = page.evaluate("""() => [...document.querySelector('.st-key-overview-pick div.attention-numbers table').rows]
      .map(r => [...r.cells].map(c => c.textContent))""")
    assert len(rows) == 7 and len(rows[0]) == 13  # layers 1-6 x heads 1-12, with their headers
    assert all(cell.split()[-1].replace(".", "").isdigit() for row in rows[1:] for cell in row[1:]), rows[1]


def test_multi_heads_are_read_in_order_in_a_two_by_two_grid(open_page):
    page = opened(open_page, "/multi-head?heads=4")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=stMain] div.attention-numbers caption').length >= 4")
    heads = page.evaluate("""() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stPlotlyChart]')]
      .map(box => { const c = box.querySelector('div.attention-numbers caption'), r = box.getBoundingClientRect();
                    return {title: c ? c.textContent : '', left: Math.round(r.left), top: Math.round(r.top)}; })
      .filter(h => /^head \\d$/.test(h.title))""")
    assert [h["title"] for h in heads] == ["head 1", "head 2", "head 3", "head 4"], heads
    assert heads[0]["top"] == heads[1]["top"] < heads[2]["top"] == heads[3]["top"], heads  # still two rows of two
    assert heads[0]["left"] == heads[2]["left"] < heads[1]["left"] == heads[3]["left"], heads


SIDEWAYS_JS = """() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stTable] > div:has(> table)')].map(box => {
  const note = box.parentElement.querySelector(':scope > p.attention-sideways');
  return {wide: box.scrollWidth > box.clientWidth + 1, sideways: box.dataset.sideways || null, role: box.getAttribute('role'),
          name: box.getAttribute('aria-label'), tab: box.tabIndex, note: note && note.getClientRects().length ? note.textContent : null,
          shadow: getComputedStyle(box).boxShadow};
})"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_table_wider_than_a_phone_says_it_scrolls_sideways(open_page, lang):
    said = browser_texts()[lang]
    page = opened(open_page, f"/scaling-lab?lang={lang}", 390, 844)
    page.wait_for_function(f"() => ({SIDEWAYS_JS})().some(t => t.wide && t.note)", timeout=30000)
    tables = page.evaluate(SIDEWAYS_JS)
    for table in tables:
        if table["wide"]:
            # named by its columns' headers (a st.table has no caption): two such tables are told apart
            assert table["note"] == said["tables.sideways"] and table["name"].startswith("d_k, "), table
            assert table["name"].endswith(said["tables.sideways_named"].split("{caption}")[1]), table
            assert table["role"] == "region" and table["tab"] == 0 and table["sideways"] == "right" and table["shadow"] != "none", table
        else:
            assert table["note"] is None and table["sideways"] is None, table
    names = [table["name"] for table in tables if table["wide"]]
    assert len(set(names)) == len(names), names  # two tables, two names
    box = page.locator("[data-testid=stMain] [data-sideways]").first
    box.focus()
    page.keyboard.press("ArrowRight")  # the keyboard scrolls it: the shadow then shows on both sides
    page.wait_for_function("() => document.querySelector('[data-testid=stMain] [data-sideways]').dataset.sideways === 'both'",
                           timeout=5000)
    page.context.close()
    page = opened(open_page, f"/scaling-lab?lang={lang}")  # on a wide screen the same tables fit: no note, no shadow
    page.wait_for_timeout(500)
    assert not any(t["note"] or t["sideways"] for t in page.evaluate(SIDEWAYS_JS))
