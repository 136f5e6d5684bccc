"""A head over a corpus (the real-model page's section "corpus") in a real browser: a click, or one tap on a phone, on a
point of the scatter opens that head; the scatter's and the grid's numbers are tables a screen reader reads; sentences
pasted are scored with a progress bar, and a script among them is shown as text, never run."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
SECTION = "/real-model?section=corpus&text=The+animal+didn%27t+cross+the+street+because+it+was+too+tired&measure=previous&versus=cls"
IDLE_JS = "() => document.querySelector('[data-testid=stApp]').getAttribute('data-test-script-state') === 'notRunning'"

# The point of layer l, head h in the scatter (trace l - 1, point h - 1), in the page's pixels.
POINT_JS = """([layer, head]) => {
  const gd = document.querySelector('.st-key-corpus-scatter-pick .js-plotly-plot');
  const point = gd && gd._fullLayout && gd.calcdata && gd.calcdata[layer - 1] && gd.calcdata[layer - 1][head - 1];
  if (!point || !Number.isFinite(point.x) || !Number.isFinite(point.y)) return null;
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
  return {x: box.left + xa._offset + xa.l2p(point.x), y: box.top + ya._offset + ya.l2p(point.y)};
}"""


def wait_idle(page) -> None:
    page.wait_for_function(IDLE_JS, timeout=60000)
    page.wait_for_timeout(1500)  # the chart has settled


@pytest.mark.parametrize("layout", ["laptop", "phone"])
def test_a_click_or_a_tap_on_a_point_opens_that_head(open_page, layout):
    page = open_page(SECTION + "&layer=2&head=5", layout, **({"device_scale_factor": 1} if layout == "phone" else {}))
    scatter = page.locator(".st-key-corpus-scatter-pick")
    scatter.wait_for(state="attached", timeout=60000)
    scatter.scroll_into_view_if_needed()
    page.wait_for_function(POINT_JS, arg=[1, 3], timeout=30000)  # the previous-token head, alone at the right
    wait_idle(page)
    opened = "location.search.includes('layer=1') && location.search.includes('head=3')"
    for attempt in range(3):  # a chart still settling may miss the first click
        spot = page.evaluate(POINT_JS, [1, 3])
        if layout == "phone":
            page.touchscreen.tap(spot["x"], spot["y"])
        else:
            page.mouse.click(spot["x"], spot["y"])
        try:
            page.wait_for_function(f"() => {opened}", timeout=15000)
            break
        except Exception:
            if attempt == 2:
                raise
            wait_idle(page)
    page.get_by_role("heading", name="Layer 1, head 3 over the 417 built-in sentences").wait_for(timeout=30000)
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width  # nothing wider than the screen


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
