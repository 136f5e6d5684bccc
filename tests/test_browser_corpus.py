"""A head over a corpus (the real-model page's section "corpus") in a real browser: a click, or one tap on a phone, on a
point of the scatter opens that head, also while the page is still running (a slow server: tests/apps/slow_corpus.py);
the scatter's legend meets none of its titles and ticks (presenter mode, a phone; both languages); the scatter's and the
grid's numbers are tables a screen reader reads; sentences pasted are scored with a progress bar, and a script among
them is shown as text, never run."""

from __future__ import annotations

import pytest

from scripts.browser import IDLE_JS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-2")]
SECTION = "/real-model?section=corpus&text=The+animal+didn%27t+cross+the+street+because+it+was+too+tired&measure=previous&versus=cls"

# The point of layer l, head h in the scatter (trace l - 1, point h - 1), in the page's pixels.
POINT_JS = """([layer, head]) => {
  const gd = document.querySelector('.st-key-corpus-scatter-pick .js-plotly-plot');
  const point = gd && gd._fullLayout && gd.calcdata && gd.calcdata[layer - 1] && gd.calcdata[layer - 1][head - 1];
  if (!point || !Number.isFinite(point.x) || !Number.isFinite(point.y)) return null;
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
  return {x: box.left + xa._offset + xa.l2p(point.x), y: box.top + ya._offset + ya.l2p(point.y)};
}"""

CHOSEN_JS = "([layer, head]) => { const q = new URLSearchParams(location.search); return q.get('layer') === layer && q.get('head') === head; }"


def wait_idle(page) -> None:
    page.wait_for_function(IDLE_JS, timeout=60000)
    page.wait_for_timeout(1500)  # the chart has settled


def settled_point(page, layer: int, head: int) -> dict:
    """Where the point of layer ``layer``, head ``head`` is once the page is idle and the point has stopped moving (a
    title or a legend wrapped onto more lines moves the plot down once drawn): where a student would tap it."""
    page.wait_for_function(POINT_JS, arg=[layer, head], timeout=30000)
    page.wait_for_function(IDLE_JS, timeout=60000)
    spot = page.evaluate(POINT_JS, [layer, head])
    for _ in range(20):
        page.wait_for_timeout(300)
        again = page.evaluate(POINT_JS, [layer, head])
        if again and abs(again["x"] - spot["x"]) < 0.5 and abs(again["y"] - spot["y"]) < 0.5:
            return again
        spot = again or spot
    raise AssertionError(f"the point of layer {layer} head {head} kept moving")


@pytest.mark.parametrize("layout", ["laptop", "phone"])
def test_a_click_or_a_tap_on_a_point_opens_that_head(open_page, layout):
    """One click, or one tap on a phone (390 x 844, touch, 2 device pixels a pixel), as the student makes it: once, on
    the page as it opens (layer 1 head 1 chosen, its name beside it), and once more on the chart drawn again for the head
    it chose. A tap used to show nothing on some openings: the page's hover-before-tap was added to a chart only when
    the page's script drew it, and Streamlit can draw the scatter before that script has loaded (the test clicked up
    to three times after an idle wait on another head, and on one device pixel a pixel)."""
    page = open_page(SECTION + "&layer=1&head=1", layout)
    scatter = page.locator(".st-key-corpus-scatter-pick")
    scatter.wait_for(state="attached", timeout=60000)
    scatter.scroll_into_view_if_needed()
    for (layer, head), heading in (((1, 3), "Layer 1, head 3 over the 417 built-in sentences"),
                                   ((1, 1), "Layer 1, head 1 over the 417 built-in sentences")):
        spot = settled_point(page, layer, head)  # the previous-token head, alone at the right; then the first head again
        if layout == "phone":
            page.touchscreen.tap(spot["x"], spot["y"])
        else:
            page.mouse.click(spot["x"], spot["y"])
        page.wait_for_function(CHOSEN_JS, arg=[str(layer), str(head)], timeout=15000)
        page.get_by_role("heading", name=heading).wait_for(timeout=30000)
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width  # nothing wider than the screen


NAMED_JS = """(name) => [...document.querySelectorAll('.st-key-corpus-scatter-pick .annotation-text')].some(t => t.textContent === name)"""
RUNNING_JS = "() => document.querySelector('[data-testid=stApp]').getAttribute('data-test-script-state') === 'running'"


def test_a_tap_while_the_page_is_still_running_opens_that_head(open_page):
    """On a slow server the scatter drawn again for a chosen head is on the screen seconds before the page's run ends (its
    top sentences are still being drawn): a tap on it then showed the point's label and chose nothing, even once the
    run had ended. Streamlit set how a click selects (clickmode, dragmode) from the browser after drawing, and a chart
    drawn again during a run could lose it; the figure now says it itself. The app here holds each run of the section
    for 3 s after the scatter (tests/apps/slow_corpus.py)."""
    from scripts.browser import serve

    with serve("tests/apps/slow_corpus.py") as url:
        page = open_page(url + SECTION + "&layer=1&head=1", "phone")
        scatter = page.locator(".st-key-corpus-scatter-pick")
        scatter.wait_for(state="attached", timeout=60000)
        scatter.scroll_into_view_if_needed()
        for first, then in (((2, 5), (1, 3)), ((2, 5), (1, 1))):  # twice: a chart drawn again lost it on most runs, not all
            spot = settled_point(page, *first)
            page.touchscreen.tap(spot["x"], spot["y"])  # the page is idle: this tap reruns it, and the run holds
            page.wait_for_function(NAMED_JS, arg=f"L{first[0]} H{first[1]}", timeout=30000)  # drawn again, the run still going
            page.wait_for_timeout(1000)  # drawn and still: where a student taps
            spot = page.evaluate(POINT_JS, list(then))
            assert page.evaluate(RUNNING_JS), "the run ended before the tap: the test no longer taps a running page"
            page.touchscreen.tap(spot["x"], spot["y"])
            page.wait_for_function(CHOSEN_JS, arg=[str(n) for n in then], timeout=30000)
            page.get_by_role("heading", name=f"Layer {then[0]}, head {then[1]} over the 417 built-in sentences").wait_for(timeout=30000)


# The scatter's title, legend, x axis title and tick labels, and the chosen head's name, as drawn (page pixels).
PARTS_JS = """() => {
  const gd = document.querySelector('.st-key-corpus-scatter-pick .js-plotly-plot');
  const boxes = (selector) => [...gd.querySelectorAll(selector)].map(n => n.getBoundingClientRect())
    .filter(r => r.width > 0 && r.height > 0).map(r => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom}));
  return {title: boxes('.g-gtitle .gtitle'), legend: boxes('.legend .traces'), xtitle: boxes('.g-xtitle text'),
          ticks: boxes('.xaxislayer-above .xtick text'), name: boxes('.annotation')};
}"""


def overlaps(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1 and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1


@pytest.mark.parametrize(("layout", "lang"), [("projector", "en"), ("projector", "zh"), ("phone", "en"), ("phone", "zh")])
def test_the_scatters_legend_meets_neither_its_titles_nor_its_ticks(open_page, layout, lang):
    """In presenter mode (1280 x 720, larger text) the x axis's title was printed over the legend ("layer 2"); on a phone
    the legend wraps onto two rows. Each legend entry is clear of the chart's title, the x axis's title and its tick labels."""
    page = open_page(SECTION + f"&lang={lang}" + ("&present=1" if layout == "projector" else ""), layout)
    scatter = page.locator(".st-key-corpus-scatter-pick")
    scatter.wait_for(state="attached", timeout=60000)
    scatter.scroll_into_view_if_needed()
    settled_point(page, 1, 3)
    parts = page.evaluate(PARTS_JS)
    assert len(parts["legend"]) == 6 and parts["xtitle"] and parts["title"], parts
    clashes = [(entry, other, kind) for entry in parts["legend"] for kind in ("title", "xtitle", "ticks", "name") for other in parts[kind]
               if overlaps(entry, other)]
    assert not clashes, clashes


def test_the_scatter_and_the_grid_are_tables_a_screen_reader_reads(open_page):
    page = open_page(SECTION, "laptop")
    page.wait_for_selector(".st-key-corpus-scatter-pick div.attention-numbers table", state="attached", timeout=60000)
    rows = page.evaluate("""() => [...document.querySelector('.st-key-corpus-scatter-pick div.attention-numbers table').rows]
      .map(r => [...r.cells].map(c => c.textContent))""")
    assert len(rows) == 73 and rows[0] == ["head", "previous token", "[CLS]"] and rows[3][0] == "L1 H3" and rows[3][1] == "1.00", rows[:4]
    label = page.locator(".st-key-corpus-scatter-pick [data-testid=stPlotlyChart]").first.get_attribute("aria-label")
    assert label and label.startswith("Scatter chart of the 72 heads"), label


def test_pasted_sentences_are_scored_and_a_script_is_text(open_page):
    page = open_page(SECTION.replace("section=corpus", "section=corpus&corpus=pasted"), "laptop")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    box = page.get_by_role("textbox", name="Your sentences: one a line works best (at most 200 sentences of 300 characters)")
    box.wait_for(timeout=60000)
    box.fill("<script>alert('run')</script> <img src=x onerror=alert(2)> is text.\nThe cat sat on the mat.\nI love tea 😀.")
    page.get_by_role("button", name="Score these sentences").click()
    page.get_by_text("The 72 heads over your 3 sentences").first.wait_for(timeout=60000)
    page.get_by_text("each read as [UNK]: 1").first.wait_for(timeout=30000)
    wait_idle(page)
    assert not dialogs, dialogs
    assert not page.evaluate("() => [...document.querySelectorAll('[data-testid=stMain] script, [data-testid=stMain] img[src=x]')].length")
