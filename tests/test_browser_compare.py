"""Compare mode in the browser (views/widgets/compare.py and compare_pack.py, assets/components/steps/contrast.js): walk B
beside walk A, stepped together by one Next, one step list and the arrow keys, as the sequences a student goes through
in Debian's chromium. What the server sends is checked without a browser in tests/test_shell_compare.py."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from conftest import SENTENCE
from test_browser_keyboard import settle
from test_browser_steps import frames, idle, wait_for_param

from scripts.axe_scan import english_left, violations
from scripts.browser import STEPS_ROOT_JS, matrix, steps_view, wait_for_matrix, wait_for_step, wait_for_steps

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-2")]

CONTRAST_JS = f"""() => {{
  const root = {STEPS_ROOT_JS}();
  const table = root && root.querySelector('.main table.contrast');
  if (!table) return null;
  return {{caption: table.caption.textContent, heads: [...table.tHead.querySelectorAll('th')].map(th => th.textContent),
          rows: [...table.tBodies[0].rows].map(tr => [...tr.cells].map(td => td.textContent)),
          sides: [...root.querySelectorAll('.main .side > h3')].map(h => h.textContent), said: root.querySelector('[aria-live]').textContent}};
}}"""


def contrast(page) -> dict | None:
    return page.evaluate(CONTRAST_JS)


def param(page, name: str) -> str | None:
    values = parse_qs(urlsplit(page.url).query)
    return values[name][0] if name in values else None


def test_a_preset_steps_both_sides_together_and_the_link_reopens_both(open_page, app_url):
    """The √d_k preset chosen from the list; Next ×3 and ← step A and B together, with no round trip, the contrast
    and the live region saying both sides' numbers; B's heads changed; Back in the browser; the link opened afresh."""
    page = open_page(None)
    sent = frames(page)
    page.goto(f"{app_url}/?{urlencode({'text': SENTENCE, 'lang': 'en'})}")
    idle(page)
    box = page.get_by_role("combobox", name="Compare with")  # Streamlit's select box
    box.click()
    page.get_by_role("option", name="why divide by √d_k (d_k 64, scaled or not)").click()
    wait_for_param(page, "compare", "score:dot", 30000)
    wait_for_steps(page, "v.matrices.includes('b-tokens-x')", 30000)
    assert param(page, "d_k") == "64"
    assert "What to look for" in page.evaluate(f"() => ({STEPS_ROOT_JS}()).querySelector('.note.look').textContent")
    idle(page)
    sent.clear()
    for step in (2, 3, 4):
        page.locator(".steps nav.bar button.nav.next").click()
        wait_for_param(page, "step", str(step), 5000)
    shown = wait_for_step(page, "Step 4 of 6: Scaled scores")
    assert {"scaled.1", "b-scaled.1", "diff-scaled.1"} <= set(shown["matrices"]), shown
    said = contrast(page)
    assert said["sides"] == ["A · scaled dot product", "B · dot product"], said
    assert said["rows"][0][0].startswith("Spread of its scaled scores"), said
    a, b = (float(x.replace("\u2212", "-")) for x in said["rows"][0][1:])
    assert b == pytest.approx(8 * a, abs=8 * 0.005 + 0.005), said  # unscaled: √64 = 8 times as wide (each rounded to 0.01)
    page.keyboard.press("ArrowRight")  # softmax: the live region says A's and B's largest weight and entropy
    wait_for_param(page, "step", "5", 5000)
    page.wait_for_function(f"() => ({CONTRAST_JS})().said.includes('Its largest weight: A ')", timeout=5000)
    page.locator(".steps select.word").select_option("3")  # the focused word, in the contrast's own list
    wait_for_param(page, "focus", "3", 5000)
    assert contrast(page)["caption"] == "The focused word, 3 · sat: what changed from A to B"
    page.wait_for_function("() => true")  # Playwright has delivered the frames sent so far
    page.wait_for_timeout(300)
    assert not sent, f"stepping and the word sent {len(sent)} frames: {sent[:2]!r}"  # no round trip
    page.get_by_role("button", name="B's settings").click()
    page.get_by_role("dialog").get_by_role("slider", name="heads").focus()  # B's heads, in B's pop-over
    page.keyboard.press("ArrowRight")
    wait_for_param(page, "compare", "heads:2,score:dot", 30000)
    assert sent, "B's heads reached the server: frames are counted"
    # B has two heads: the step list gains their last step (waited for: the link may change before the new steps come)
    shown = wait_for_steps(page, "v.matrices.includes('b-weights.1') && v.steps.length === 1 && v.where.startsWith('Step 5 of 7')",
                           30000)
    page.go_back()  # Back: the preset's view again
    wait_for_param(page, "compare", "score:dot", 30000)
    wait_for_steps(page, "v.where && v.where.startsWith('Step 5 of 6')", 30000)
    link = page.url
    cells = wait_for_matrix(page, "b-weights.1")["cells"]
    page.context.close()
    fresh = open_page(link)  # the link, in another browser: both sides, the step and the word
    shown = wait_for_step(fresh, "Step 5 of 6: Softmax")
    assert shown["focus"] == 3 and wait_for_matrix(fresh, "b-weights.1")["cells"] == cells
    assert matrix(fresh, "weights.1")["cells"] != cells  # A is scaled, B is not


@pytest.mark.parametrize(("lang", "layout", "spec"), [("zh", "phone", "causal:1,temperature:0.5"), ("en", "projector", "score:dot")])
def test_both_sides_read_by_everyone_on_a_phone_and_in_presenter_mode(open_page, app_url, lang, layout, spec):
    """One above the other on a phone, side by side on a projector in presenter mode (16 px numbers or more, two 8-token
    matrices whole on the 1280 x 720 screen): each
    side a heading and real tables, the contrast a table with its caption; axe finds nothing, no English on a Chinese
    page. On the phone, B masked and at another temperature: its masked scores' −∞ too."""
    text = SENTENCE if layout == "phone" else "the cat sat on the mat all day"  # a projector: two 8-token matrices
    params = {"text": text, "d_model": 64, "d_k": 64, "compare": spec, "step": 5, "lang": lang}
    page = open_page(f"/?{urlencode(params | ({'present': 1} if layout == 'projector' else {}))}", layout)
    shown = wait_for_steps(page, "v.matrices.includes('b-weights.1')", 60000)
    assert ("b-masked.1" in shown["matrices"]) == ("causal" in spec), shown
    idle(page)
    settle(page)  # the same page three times 100 ms apart: nothing fading in or out (an element dimmed while a run goes)
    boxes = page.evaluate(f"""() => [...({STEPS_ROOT_JS}()).querySelectorAll('.main .side')].map(s => {{
        const r = s.getBoundingClientRect(); return [r.left, r.top, r.width]; }})""")
    assert len(boxes) == 2
    if layout == "phone":
        assert boxes[1][1] > boxes[0][1] and boxes[0][2] > 300, boxes  # one above the other, each the page's width
    else:
        assert boxes[1][0] > boxes[0][0] + 300 and abs(boxes[1][1] - boxes[0][1]) < 2, boxes  # side by side
        smallest = page.evaluate(f"""() => Math.min(...[...({STEPS_ROOT_JS}()).querySelectorAll('.main table.mx td')]
            .map(td => parseFloat(getComputedStyle(td).fontSize)))""")
        assert smallest >= 16, smallest
        bottoms = page.evaluate(f"""() => [...({STEPS_ROOT_JS}()).querySelectorAll('.main .side table.mx')]
            .map(t => t.getBoundingClientRect().bottom)""")
        assert len(bottoms) == 2 and max(bottoms) <= 720, bottoms  # both whole on the screen, unscrolled
    for found in violations(page):
        pytest.fail(f"axe-core: {found['id']} ({found['impact']}): {found['help']}: {found['nodes'][0]}\n{found['why'][0]}")
    if lang == "zh":
        assert not english_left(page)
    assert steps_view(page)["where"]
