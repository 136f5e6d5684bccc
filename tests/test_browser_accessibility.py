"""Usable by keyboard, by screen reader and by low vision, in Debian's chromium (axe-core over every view: test_browser_layouts).

- The keyboard alone walks the walkthrough from step 1 to 7 and picks the focused word; every stop shows its focus.
- Every number printed in a heatmap's cell contrasts at least 4.5:1 with that cell's colour (the colour found here from
  the scale, independently of charts.js).
- A chart is a named figure with its key numbers, and its numbers follow as a table for a screen reader.
- A Chinese page is ``lang="zh"``, its chart toolbar and Streamlit's accessible names are Chinese, and a first visit from
  a Chinese browser opens in Chinese.
- Nothing moves for a student who asks for reduced motion.
- Every target is at least 24 × 24 px (WCAG 2.5.8).
- No id is given twice on a Chinese page (headings' anchors).
"""

from __future__ import annotations

import contextlib
import re

import numpy as np
import pytest

from attention_plot.figures import APPROVED_SCALES, contrast
from scripts.browser import IDLE_JS, STEPS_ROOT_JS, draw_charts, matrix, wait_for_matrix, wait_for_step

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

FOCUS_JS = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;  // into the step component
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el), box = el.getBoundingClientRect();
  const ring = (s) => (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) || (s.boxShadow && s.boxShadow !== 'none');
  const label = el.closest('label');
  return {tag: el.tagName, role: el.getAttribute('role'), name: el.getAttribute('aria-label') || el.textContent.trim().slice(0, 60),
          key: (el.closest('[class*=st-key-]') || {className: ''}).className.split(' ').find(c => c.startsWith('st-key-')) || '',
          part: el.closest('section.focus') ? 'focus' : el.closest('nav.bar') ? 'bar' : el.closest('figure.matrix') ? 'matrix' : '',
          matrix: el.closest('figure.matrix') ? el.closest('figure.matrix').dataset.matrix : null,
          cls: typeof el.className === 'string' ? el.className : '', disabled: el.getAttribute('aria-disabled'),
          ring: ring(style) || (label ? ring(getComputedStyle(label)) : false)
            || !!el.closest('[data-baseweb=input], [data-baseweb=select], [data-baseweb=textarea]'),
          shown: box.width > 0 && box.height > 0, outline: style.outlineColor};
}"""


def focused(page) -> dict | None:
    return page.evaluate(FOCUS_JS)


def test_the_keyboard_alone_walks_the_steps_and_picks_the_focused_word(open_page):
    """From a fresh page: the second Tab reaches the skip link, Enter puts the focus on Next; Enter six times walks
    steps 2 to 7 (two heads: seven steps) with the focus staying on Next, which says it is disabled on the last step;
    then Tab reaches the focused word's box in the focus section below (each matrix on the way one stop), the arrow
    keys pick the third word, and its table follows. Every stop shows its focus ring and Tab never stays on one element
    (no trap)."""
    page = open_page("/walkthrough?lang=en&text=the+cat+sat+down&heads=2&step=1")
    wait_for_step(page, "Step 1 of 7")
    page.locator("a.attention-skip:not([hidden])").wait_for(state="attached", timeout=10000)
    page.wait_for_function("() => getComputedStyle(document.querySelector('a.attention-skip')).position === 'fixed'")  # the app's style
    page.keyboard.press("Tab")  # Streamlit's "Skip to main content", then the app's
    assert focused(page)["name"] == "Skip to main content", focused(page)
    page.keyboard.press("Tab")
    stop = focused(page)
    assert stop and stop["tag"] == "A" and "Previous and Next" in stop["name"] and stop["ring"] and stop["shown"], stop
    page.keyboard.press("Enter")
    assert focused(page)["part"] == "bar" and focused(page)["cls"].startswith("nav next"), focused(page)
    for step in range(2, 8):
        page.keyboard.press("Enter")
        wait_for_step(page, f"Step {step} of 7", 30000)
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{step}'", timeout=30000)
        stop = focused(page)  # the focus stays on Next; on the last step it says it is disabled
        assert stop["cls"].startswith("nav next") and stop["ring"], stop
        assert stop["disabled"] == ("true" if step == 7 else "false"), stop
    seen, tabs = [], 0
    while tabs < 60:
        page.keyboard.press("Tab")
        tabs += 1
        stop = focused(page)
        assert stop is not None and stop["shown"], (tabs, stop, seen[-3:])
        assert stop["ring"], (tabs, stop)  # a visible focus on every stop
        assert not seen or stop != seen[-1], (tabs, stop)  # Tab moved on: no trap
        seen.append(stop)
        if stop["part"] == "focus":
            break
    assert stop["part"] == "focus" and stop["tag"] == "SELECT", seen  # the focused word's box, first in its section
    matrices = [s["matrix"] for s in seen if s["part"] == "matrix"]
    assert matrices == ["concat", "w_o", "mh-output"], seen  # step 7's three matrices: one Tab stop each
    page.keyboard.press("ArrowDown")  # the next word
    page.keyboard.press("ArrowDown")  # the third
    page.wait_for_function("() => new URLSearchParams(location.search).get('focus') === '3'", timeout=30000)
    page.locator(".steps section.focus table.plain caption", has_text="Query “sat”").first.wait_for(timeout=30000)


THUMB_JS = """() => {
  const input = document.activeElement;
  if (!input || input.type !== 'range') return null;
  const thumb = input.closest('[data-testid=stSlider] div[data-rac][style*=absolute]'), s = getComputedStyle(thumb);
  let back = thumb.closest('[data-testid=stSlider]'), colour = 'rgba(0, 0, 0, 0)';  // the ring lies outside the thumb
  while (back && (colour === 'rgba(0, 0, 0, 0)' || colour === 'transparent')) {
    colour = getComputedStyle(back).backgroundColor; back = back.parentElement; }
  return {name: input.getAttribute('aria-label'), value: input.value, style: s.outlineStyle, width: parseFloat(s.outlineWidth),
          ring: s.outlineColor, behind: colour};
}"""


def test_a_sliders_thumb_shows_its_focus_ring_and_moves_with_the_arrow_keys(open_page):
    """Streamlit's slider keeps the focus on a hidden range input inside the thumb: the thumb gets the app's 3 px ring
    (at least 3:1 against the sidebar behind it, WCAG 1.4.11 and 2.4.13), and the arrow keys move the value."""
    page = open_page("/walkthrough?lang=en&step=3")
    page.locator("[data-testid=stSlider]").first.wait_for(timeout=45000)
    wait_for_step(page, "Step 3 of")
    thumb = None
    for _ in range(60):
        page.keyboard.press("Tab")
        thumb = page.evaluate(THUMB_JS)
        if thumb and thumb["name"].startswith("d_k"):
            break
    assert thumb and thumb["name"].startswith("d_k"), thumb
    assert thumb["style"] == "solid" and thumb["width"] >= 3, thumb
    rgb = [np.array([int(v) for v in re.findall(r"\d+", colour)[:3]]) for colour in (thumb["ring"], thumb["behind"])]
    assert contrast(*rgb) >= 3.0, (thumb, contrast(*rgb))
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.search.includes('d_k=5')", timeout=30000)


def _cell_colour(scale: list, t: float) -> np.ndarray:
    """The colour Plotly paints at ``t`` in [0, 1] of ``scale``: RGB interpolated between the two stops around it."""
    stops = np.array([s for s, _ in scale])
    colours = np.array([[int(c[i:i + 2], 16) for i in (1, 3, 5)] for _, c in scale], dtype=float)
    return np.array([np.interp(t, stops, colours[:, k]) for k in range(3)])


CELLS_JS = f"""(id) => {{
  const figure = ({STEPS_ROOT_JS}()).querySelector(`figure.matrix[data-matrix="${{id}}"]`);
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  return [...figure.querySelectorAll('td[data-i]')].map(td => {{ const span = td.querySelector('span'), s = getComputedStyle(span);
    return {{i: +td.dataset.i, j: +td.dataset.j, background: rgb(getComputedStyle(td).backgroundColor), ink: rgb(s.color), text: span.textContent,
            shown: !span.classList.contains('sr-only') && span.getBoundingClientRect().width > 0}}; }});
}}"""


@pytest.mark.parametrize(("step", "kind", "query"), [(5, "weights", "text=the+cat+sat+on+the+mat"), (3, "signed", "text=the+cat+sat+on+the+mat"),
                                                     (2, "q", "text=the+cat+sat&d_k=4")])
def test_every_number_in_a_matrix_cell_contrasts_with_its_cell(open_page, step, kind, query):
    """Black or white per cell, whichever contrasts more: on the lightest and the darkest cells of the softmax weights,
    the raw scores' red-white-blue and Q's grey-white-blue, every printed number is at least 4.5:1 against its cell,
    whose colour is found here from the scale and the true value (independently of the step component's numbers.js)."""
    from attention_core import explain

    text = re.search(r"text=([^&]+)", query).group(1).replace("+", " ")
    head = explain(text, d_k=4).trace.heads[0]
    values, id_ = {"weights": (head.weights, "weights.1"), "signed": (head.raw_scores, "raw.1"), "q": (head.q, "q.1")}[kind]
    low, high = (0.0, 1.0) if kind == "weights" else (-np.abs(values).max(), np.abs(values).max())
    page = open_page(f"/walkthrough?lang=en&{query}&step={step}")
    wait_for_matrix(page, id_, f"m.shown === {values.size}")
    found = page.evaluate(CELLS_JS, id_)
    assert len(found) == values.size and all(cell["shown"] for cell in found), found[:3]
    scale, worst = APPROVED_SCALES[kind], 21.0
    for cell in found:
        z = values[cell["i"], cell["j"]]
        colour = _cell_colour(scale, (z - low) / (high - low))
        assert np.abs(colour - np.array(cell["background"])).max() <= 1.5, (cell, colour)  # the cell's colour is the value's
        ratio = contrast(tuple(colour), tuple(cell["ink"]))
        worst = min(worst, ratio)
        assert ratio >= 4.5, (cell, ratio)
    assert values.max() - values.min() > 0.5 * (high - low)  # light cells and dark cells were both checked
    assert worst >= 4.5


def test_a_chart_is_a_named_figure_with_its_numbers_as_a_table(open_page, app_url):
    """The softmax weights of the article's example: a figure whose name gives its size and key numbers (0.88 on
    "Thinking"), then a hidden table with the same numbers, row and column headers; a line chart is described too."""
    page = open_page("/walkthrough?lang=en&walk=textbook&step=5")
    wait_for_step(page, "Step 5 of 6")
    wait_for_matrix(page, "weights.1", "m.rows === 2")
    box = page.locator(".steps figure.matrix[data-matrix='weights.1']")
    name = box.get_attribute("aria-label")
    assert box.get_attribute("role") == "figure"
    assert "2 queries (rows) by 2 keys (columns)" in name, name
    assert "“Thinking” puts the most weight on “Thinking” (0.88); “Machines” puts the most weight on “Machines” (0.94)" in name, name
    table = box.locator("table.mx")  # the numbers once, as a real table: its caption, column and row headers
    assert table.count() == 1 and table.locator("caption").inner_text() == "attention weights"
    assert table.locator("th[scope=col]").all_inner_texts() == ["Thinking", "Machines"]
    assert table.locator("th[scope=row]").all_inner_texts() == ["Thinking", "Machines"]
    shown = matrix(page, "weights.1")["cells"]
    assert shown == [["0.88", "0.12"], ["0.06", "0.94"]], shown
    assert box.locator(".legend").get_attribute("aria-hidden") == "true"  # the colour bar's numbers are not read again
    page.goto(f"{app_url}/scaling-lab?lang=en")
    page.locator("[data-testid=stMain] [data-testid=stPlotlyChart][role=figure]").first.wait_for(timeout=45000)
    names = page.locator("[data-testid=stMain] [data-testid=stPlotlyChart]").evaluate_all("(boxes) => boxes.map(b => b.getAttribute('aria-label'))")
    assert all(names) and all(re.search(r"\d", n) for n in names), names  # every chart named, with numbers in the name


def test_a_chinese_page_is_chinese_to_a_screen_reader_and_a_chinese_browser_opens_it(open_page, app_url):
    """<html lang="zh">; the chart toolbar's buttons and Streamlit's "Help for …" and sidebar names are Chinese; a first
    visit from a zh-CN browser with no lang= in the link opens in Chinese, and the link's lang=en still wins."""
    page = open_page("/walkthrough?text=the+cat+sat&step=5", locale="zh-CN")
    wait_for_step(page, "第 5 步")
    page.wait_for_function("() => document.documentElement.lang === 'zh'", timeout=10000)
    assert "lang=zh" in page.url
    assert page.locator(".steps").get_attribute("lang") == "zh-Hans"  # the step component says its language too
    # The page script says Streamlit's English names in Chinese 60 ms after they are drawn: the sidebar's help buttons
    # may be drawn after the step (a Streamlit "Help for …" a moment before).
    page.wait_for_function("() => [...document.querySelectorAll('[aria-label]')].some(e => e.getAttribute('aria-label').endsWith('”的说明'))"
                           " && ![...document.querySelectorAll('[aria-label]')].some(e => e.getAttribute('aria-label').startsWith('Help for'))",
                           timeout=10000)
    labels = page.locator("[aria-label]").evaluate_all("(els) => els.map(e => e.getAttribute('aria-label'))")  # and inside it
    assert not [label for label in labels if label.startswith("Help for") or label in ("Collapse sidebar", "Fullscreen")], labels
    assert any(label.endswith("”的说明") for label in labels), labels
    assert any(re.search(r"[\u4e00-\u9fff]", label) for label in labels if label.startswith("热力图")), labels  # a matrix's name
    page.goto(f"{app_url}/multi-head?text=the+cat+sat&heads=2")  # a page of Plotly charts: its toolbar in Chinese
    draw_charts(page)
    with contextlib.suppress(Exception):  # said in Chinese 60 ms after each toolbar is drawn
        page.wait_for_function("() => [...document.querySelectorAll('.modebar-btn')]"
                               ".every(b => /[\\u4e00-\\u9fff]/.test(b.getAttribute('data-title') || ''))", timeout=10000)
    titles = page.locator(".modebar-btn").evaluate_all("(buttons) => buttons.map(b => b.getAttribute('data-title'))")
    assert titles and all(re.search(r"[\u4e00-\u9fff]", t) for t in titles), titles
    english = page.context.new_page()
    english.goto(f"{app_url}/walkthrough?lang=en&text=the+cat+sat&step=5")
    wait_for_step(english, "Step 5 of 6")
    english.wait_for_function("() => document.documentElement.lang === 'en'", timeout=10000)


def test_nothing_moves_when_reduced_motion_is_asked_for(open_page):
    """With prefers-reduced-motion: reduce, no element on the page has a transition or an animation longer than 1 ms."""
    page = open_page("/walkthrough?lang=en&text=the+cat+sat&step=3", reduced_motion="reduce")
    wait_for_matrix(page, "raw.1", "m.rows === 3")
    moving_js = """() => { const all = [...document.querySelectorAll('body *')];  // and inside the step component's shadow root
      for (let i = 0; i < all.length; i++) if (all[i].shadowRoot) all.push(...all[i].shadowRoot.querySelectorAll('*'));
      return all; }"""
    moving_js = f"""() => ({moving_js})().filter(e => {{
        const s = getComputedStyle(e), longest = (v) => Math.max(...v.split(',').map(parseFloat));
        return longest(s.transitionDuration) > 0.001 || (s.animationName !== 'none' && longest(s.animationDuration) > 0.001);
      }}).map(e => e.tagName + '.' + e.className).slice(0, 5)"""
    assert page.evaluate(f"() => ({STEPS_ROOT_JS}()).querySelectorAll('details.about summary').length") > 0  # it was looked into
    with contextlib.suppress(Exception):  # once the run has drawn the page's style (a loaded machine may be between two runs)
        page.wait_for_function(f"() => ({moving_js})().length === 0", timeout=15000)
    moving = page.evaluate(moving_js)
    assert not moving, moving


SMALL_TARGETS_JS = """() => {
  const small = [];
  const targets = 'button, a[href], [role=tab], [data-testid=stRadioOption], label[data-baseweb=checkbox], summary, ' +
                  'input:not([type=radio]):not([type=checkbox]):not([type=range]):not([role=combobox]), label.switch, select';
  const roots = [document];  // and the step component's shadow root
  for (let i = 0; i < roots.length; i++) for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  for (const el of roots.flatMap(root => [...root.querySelectorAll(targets)])) {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.right <= 0 || r.left >= innerWidth) continue;  // hidden, or in a closed sidebar
    if (el.tagName === 'A' && el.closest('p, li, td')) continue;  // a link inside a sentence: WCAG 2.5.8's inline exception
    const name = el.getAttribute('aria-label') || el.innerText.trim().slice(0, 30);
    if (r.width < 24 || r.height < 24) small.push(`${name} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return [...new Set(small)];
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_every_target_is_at_least_24_px_square(open_page, app_url, width):
    """WCAG 2.5.8: every button, link, tab, radio option, checkbox and box a student can press is at least 24 × 24 px:
    the lesson's answers, help "?" icons, a heading's link icon, a chart's toolbar, a chosen tag's remove "×", a select's
    arrow; at 1280 px and on a 390 px phone (links inside a sentence are exempt)."""
    page = open_page(None, viewport={"width": width, "height": 720})
    for address in ("walkthrough?lang=en&text=the+cat+sat&step=3", "lesson?lang=zh", "types?lang=en"):
        page.goto(f"{app_url}/{address}")
        page.locator("[data-testid=stMain]").wait_for(timeout=45000)
        with contextlib.suppress(Exception):  # the page drawn (its run over, its title shown) and its style applied
            page.wait_for_function(f"() => ({SMALL_TARGETS_JS})().length === 0 && ({IDLE_JS})()"
                                   " && !!document.querySelector('[data-testid=stMain] h1')", timeout=20000)
        assert not page.evaluate(SMALL_TARGETS_JS), (address, page.evaluate(SMALL_TARGETS_JS))


def test_a_device_that_prefers_dark_gets_the_light_page_its_colours_were_checked_on(open_page):
    """A phone in dark mode: Streamlit would follow it, and the captions, scales and numbers were checked only on white.
    The page stays light (.streamlit/config.toml), and axe-core finds nothing serious on it."""
    from scripts.axe_scan import violations

    page = open_page("/walkthrough?lang=en&text=the+cat+sat&step=5", viewport={"width": 390, "height": 844}, color_scheme="dark")
    wait_for_matrix(page, "weights.1", "m.rows === 3")
    assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")  # the device does ask for dark
    background = page.evaluate("() => getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor")
    assert background == "rgb(255, 255, 255)", background
    serious = [v for v in violations(page) if v["impact"] in ("serious", "critical")]
    assert not serious, serious[0]


def test_the_quiz_and_the_number_editor_are_chinese_and_pass_axe(open_page, app_url):
    """In 中文, with Predict first on (the quiz's choices and buttons) and the hands-on editor open and hovered (its
    toolbar: columns, download, search, full screen): nothing English is read or heard, and axe-core finds nothing
    serious. The editor's CSV header is Chinese too (views/charts.matrix_csv)."""
    from attention_plot.text import Texts
    from scripts.axe_scan import english_left, violations

    T = Texts("zh")
    page = open_page("/walkthrough?lang=zh&text=the+cat+sat&step=5&predict=1")
    page.get_by_role("button", name=T("classroom.reveal")).wait_for(timeout=45000)
    quiz = english_left(page)
    assert not quiz, quiz
    page.goto(f"{app_url}/walkthrough?lang=zh&text=the+cat+sat&step=5")
    wait_for_matrix(page, "weights.1", "m.rows === 3")
    page.get_by_text(T("classroom.hands_on")).click()
    editor = page.locator("[data-testid=stDataFrame]").first
    editor.wait_for(timeout=30000)
    editor.scroll_into_view_if_needed()
    editor.hover()
    page.wait_for_timeout(500)
    for button in page.locator("[data-testid=stElementToolbar] button").all()[:4]:
        button.hover()
        page.wait_for_timeout(200)
        left = english_left(page)
        assert not left, left
    serious = [v for v in violations(page) if v["impact"] in ("serious", "critical")]
    assert not serious, serious[0]
