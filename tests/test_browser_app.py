"""A real browser (Debian's chromium through Playwright): what only a browser shows."""

from __future__ import annotations

import contextlib
from pathlib import Path
from urllib.parse import urlencode

import pytest

from scripts.browser import (
    IDLE_JS,
    STEPS_ROOT_JS,
    draw_charts,
    heatmap,
    matrix,
    serve,
    steps_view,
    wait_for_heatmap,
    wait_for_matrix,
    wait_for_step,
    wait_for_steps,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-2")]
SHOTS = Path(__file__).resolve().parent.parent / "tests" / "screenshots"




@pytest.fixture(scope="module")
def context(chromium):
    """One browser context for the module, so its cache is warm after the first page (as for a student)."""
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    yield context
    context.close()


@pytest.fixture(scope="module")
def _tab(context):
    """One tab for the module's tests, loaded afresh by each (a page load is a new session; a new tab costs chromium
    about twice the work of the load itself), with the page's errors and dialogs collected."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: (errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    yield page, errors
    page.close()


@pytest.fixture
def page(_tab):
    page, errors = _tab
    errors.clear()
    yield page
    page.goto("about:blank")  # the test's session ends
    assert not errors, errors


@pytest.fixture
def projector(open_page):
    """A fresh browser context at 1280 x 720 (a classroom projector), its page; closed after the test (a tab reused would
    carry what Streamlit keeps in the browser, such as a sidebar a test opened)."""
    return open_page(None, accept_downloads=True)


def test_type_a_sentence_move_d_k_and_the_matrix_redraws(app_url, page):
    SHOTS.mkdir(exist_ok=True)
    page.goto(f"{app_url}/?step=2")
    wait_for_matrix(page, "q.1", "m.rows === 2 && m.cols === 4")
    box = page.get_by_role("textbox", name="Sentence")  # the step component's sentence box, at the top of the page
    box.fill("the cat sat on the mat")
    box.press("Enter")
    q = wait_for_matrix(page, "q.1", "m.rows === 6")
    assert q["y"] == ["1·the", "cat", "sat", "on", "5·the", "mat"] and q["cols"] == 4 and "Q: queries" in q["title"]  # "the" twice
    slider = page.get_by_role("slider", name="d_k (size of each query and key)")
    slider.focus()
    slider.press("ArrowRight")
    q = wait_for_matrix(page, "q.1", "m.cols === 5")
    assert q["rows"] == 6
    page.screenshot(path=str(SHOTS / "browser-qkv.png"))
    page.get_by_role("button", name="Next ▶").click()
    scores = wait_for_matrix(page, 0, "m.title.includes('raw scores')")
    assert (scores["rows"], scores["cols"], scores["id"]) == (6, 6, "raw.1")
    assert scores["x"] == scores["y"] == ["1·the", "cat", "sat", "on", "5·the", "mat"]
    page.screenshot(path=str(SHOTS / "browser-raw-scores.png"))


HOSTILE = '<img src=x onerror=alert(1)> <script>alert(2)</script> [x](javascript:alert(3)) <b onmouseover=alert(4)>b</b>'


@pytest.mark.parametrize(("path", "params"), [
    ("", {"text": HOSTILE, "step": 3}),
    ("", {"text": HOSTILE, "step": 5, "focus": 2}),
    ("types", {"text": HOSTILE, "section": "modes"}),
    ("self-vs-cross", {"source": HOSTILE, "target": HOSTILE}),
    ("hierarchical", {"doc": HOSTILE + ". " + HOSTILE + "!"}),
    ("real-model", {"text": HOSTILE}),
])
def test_injected_html_never_runs_or_appears(app_url, page, path, params):
    """The page fixture fails the test on any dialog (alert) or page error; no injected element may exist."""
    page.goto(f"{app_url}/{path}?{urlencode(params)}")
    page.locator(".js-plotly-plot, .steps figure.matrix").first.wait_for(timeout=45000)  # a chart, or the step component's matrix
    page.wait_for_timeout(1000)
    page.mouse.move(600, 400)
    if not path:  # the walkthrough: the hostile words are drawn as text, in the matrices' labels and the tooltip
        labels = (matrix(page, 0) or {}).get("y", [])
        assert any("<img" in label or "<script>" in label or "onmouseover" in label for label in labels), labels
        page.locator(".steps figure.matrix td[data-i]").first.hover()
        page.locator(".steps div.tip[role=tooltip]").wait_for(timeout=5000)
    assert page.locator("img[src='x']").count() == 0
    assert page.locator("[onerror], [onmouseover]").count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
    assert page.evaluate("() => [...document.scripts].every(s => !s.textContent.includes('alert(2)'))")


def test_chinese_sentence_renders(app_url, page):
    page.goto(f"{app_url}/?{urlencode({'text': '她正在吃一个绿色的苹果', 'step': 5})}")
    weights = wait_for_matrix(page, "weights.1", "m.rows === 11")
    assert weights["x"][3] == "吃" and weights["y"][3] == "吃"
    page.screenshot(path=str(SHOTS / "browser-chinese.png"))


SCROLL_JS = """() => { const main = document.querySelector('[data-testid=stMain]');
  return {height: main.scrollHeight, view: main.clientHeight, width: document.documentElement.scrollWidth,
          viewWidth: document.documentElement.clientWidth}; }"""


DEEP_FOCUS_JS = """() => { let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;  // into the step component
  return e ? {tag: e.tagName, text: e.textContent.trim()} : null; }"""


def test_keyboard_alone_moves_to_the_next_step(app_url, page):
    page.goto(f"{app_url}/?text=the+cat+sat&step=1")
    wait_for_matrix(page, 0, "m.rows === 3")
    for _ in range(80):
        page.keyboard.press("Tab")
        focused = page.evaluate(DEEP_FOCUS_JS)
        if focused and focused["tag"] == "BUTTON" and focused["text"].startswith("Next"):
            break
    else:
        pytest.fail("Tab never reached the Next button")
    page.keyboard.press("Enter")
    wait_for_step(page, "Step 2 of 6", 30000)


def test_a_step_taken_in_the_browser_and_the_link_csv_and_sidebar_follow(open_page, projector, app_url):
    """Next steps in the browser (no rerun): the URL, the CSV and the sidebar's copied link still follow each change."""
    page, context = projector, projector.context
    page.goto(f"{app_url}/?text=the+cat+sat&step=1")
    wait_for_matrix(page, 0, "m.rows === 3")
    page.get_by_role("slider", name="d_k (size of each query and key)").wait_for()
    for step in (2, 3, 4):
        page.locator(".steps nav.bar button.nav.next").click()
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{step}'", timeout=30000)
        wait_for_step(page, f"Step {step} of 6")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=app_url)
    copy = page.locator("[data-testid=stSidebar]").get_by_role("button", name="Copy the link to this view")
    copy.click()
    page.locator("[data-testid=stSidebar]").get_by_role("button", name="Copied: paste it anywhere").wait_for()  # written (async)
    assert page.locator("[data-testid=stSidebar]").get_by_role("status").filter(has_text="Copied: paste it anywhere").count() == 1
    assert page.evaluate("navigator.clipboard.readText()") == page.url  # the link of step 4, not of the page first drawn
    with page.expect_download() as download:
        page.locator(".steps details.menu summary").click()
        page.get_by_role("button", name="This step's matrices (CSV)").click()
    titles = [line for line in Path(download.value.path()).read_text().splitlines() if line.startswith("# ")]
    assert titles == ["# scaled scores"], titles  # the step shown now, not every step passed through
    assert download.value.suggested_filename == "attention-walkthrough-scaled.csv"  # named after the step, not the first drawn
    page.locator(".steps details.menu summary").click()
    page.get_by_role("combobox", name="Numbers").select_option("textbook")  # the walk changes the sidebar: a full rerun
    page.wait_for_function("() => location.search.includes('walk=textbook')", timeout=30000)
    page.get_by_role("slider", name="d_k (size of each query and key)").wait_for(state="detached", timeout=30000)
    wait_for_step(page, "Step 4 of 6")
    other = open_page(page.url)  # the teacher's link, opened elsewhere
    scores = wait_for_matrix(other, 0, "m.rows === 2")
    assert scores["x"] == ["Thinking", "Machines"] and scores["id"] == "scaled.1"
    wait_for_step(other, "Step 4 of 6")


def test_a_step_seen_before_is_not_drawn_again_and_d_k_changes_only_what_follows_it(app_url, page):
    """A step is drawn once per view: Next then Previous shows the very step drawn before (the same elements, not drawn
    again). A d_k change brings new numbers: Q has a column more, while E, PE and X keep every number."""
    page.goto(f"{app_url}/?text=the+cat+sat&step=1")
    wait_for_matrix(page, "tokens-x", "m.rows === 3")
    before = {name: matrix(page, f"tokens-{name}") for name in ("embeddings", "positional", "x")}
    page.evaluate(f"() => {{ ({STEPS_ROOT_JS}()).querySelector('.main section.step').__before = true; }}")
    page.locator(".steps nav.bar button.nav.next").click()
    wait_for_step(page, "Step 2 of 6")
    page.locator(".steps nav.bar button.nav.previous").click()
    wait_for_step(page, "Step 1 of 6")
    assert page.evaluate(f"() => !!({STEPS_ROOT_JS}()).querySelector('.main section.step').__before")  # the same step, kept
    page.locator(".steps nav.bar button.nav.next").click()
    q = wait_for_matrix(page, "q.1", "m.rows === 3")
    page.get_by_role("slider", name="d_k (size of each query and key)").focus()
    page.keyboard.press("ArrowRight")
    assert wait_for_matrix(page, "q.1", f"m.cols === {q['cols'] + 1}")["rows"] == 3
    wait_for_step(page, "Step 2 of 6")  # the step is kept over new numbers
    page.locator(".steps nav.bar button.nav.previous").click()
    wait_for_step(page, "Step 1 of 6")
    for name, drawn in before.items():
        assert matrix(page, f"tokens-{name}")["cells"] == drawn["cells"], name  # E, PE, X: the same numbers


PRESENTER_JS = f"""() => {{
  const main = document.querySelector('[data-testid=stMain]');
  const sidebar = document.querySelector('[data-testid=stSidebar]');
  const root = {STEPS_ROOT_JS}();
  // The text of every matrix as drawn: the numbers in cells, row and column labels, axis titles, the legend's ticks.
  const texts = root ? [...root.querySelectorAll('figure.matrix td > span:not(.sr-only), figure.matrix th .lab, figure.matrix figcaption, ' +
    'figure.matrix .x-title, figure.matrix .y-title, figure.matrix .legend .ticks span')] : [];
  const sizes = texts.filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0).map(t => parseFloat(getComputedStyle(t).fontSize));
  return {{height: main.scrollHeight, view: main.clientHeight, sidebar: sidebar ? sidebar.getBoundingClientRect().width : 0,
          sidebarOpen: sidebar ? sidebar.getAttribute('aria-expanded') : null, smallest: Math.min(...sizes), texts: sizes.length,
          bottom: root ? root.getBoundingClientRect().bottom : null, innerHeight}};
}}"""
TWELVE = "the cat sat on the red mat today and it was warm"


@pytest.mark.parametrize(("lang", "width", "height", "text"), [
    ("en", 1280, 720, TWELVE), ("zh", 1280, 720, "她正在吃一个绿色的苹果"), ("en", 1920, 1080, TWELVE)])
def test_presenter_mode_lasts_a_whole_lesson(open_page, lang, width, height, text):
    """A teacher steps through every step with the → key: the sidebar stays closed, nothing scrolls, chart text is large."""
    n = len(text.split()) if lang == "en" else len(text)
    page = open_page(f"/?{urlencode({'present': 1, 'heads': 2, 'lang': lang, 'text': text, 'step': 1})}", viewport={"width": width, "height": height})
    wait_for_matrix(page, 0, f"m.rows === {n}")
    wait_for_steps(page, "v.layout === 'projector'")
    page.wait_for_function(IDLE_JS, timeout=45000)
    for step in range(1, 8):
        with contextlib.suppress(Exception):  # the step fitted to the screen (its rows made shorter once drawn)
            page.wait_for_function(f"() => ({PRESENTER_JS})().height <= {height + 2}", timeout=5000)
        shown = page.evaluate(PRESENTER_JS)
        assert shown["height"] <= shown["view"] + 2 and shown["bottom"] <= shown["innerHeight"], (step, shown)
        assert shown["sidebar"] < 50 or shown["sidebarOpen"] == "false", (step, shown)
        assert shown["texts"] > 0 and shown["smallest"] >= 16, (step, shown)
        page.screenshot(path=str(SHOTS / f"presenter-{lang}-{width}-step{step}.png"))
        if step < 7:
            page.keyboard.press("ArrowRight")
            wait_for_step(page, f"{'Step' if lang == 'en' else '第'} {step + 1} ", 30000)
    page.keyboard.press("ArrowLeft")
    wait_for_step(page, f"{'Step' if lang == 'en' else '第'} 6 ", 30000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lessons_predict_first_stop_fits_the_projector_before_and_after_the_reveal(projector, app_url, lang):
    """Lesson stop 2 on the projector (6 words, softmax step, Predict first): the question, then the verdict in one line
    beside "Guess again" and the whole 6 × 6 matrix, all on the first screen of 1280 × 720."""
    page = projector
    query = {"walk": "random", "text": "the cat sat on the mat", "step": 5, "focus": 3, "predict": 1, "present": 1, "lang": lang}
    page.goto(f"{app_url}/?{urlencode(query)}")
    which = page.locator(".steps .question .quiz select")  # the class's guess, above the step
    which.wait_for(timeout=45000)
    page.wait_for_function(IDLE_JS, timeout=45000)
    assert steps_view(page)["matrices"] == []  # the weights wait for the guess
    with contextlib.suppress(Exception):  # the step drawn whole (its formula and notice), then measured
        page.wait_for_function(f"() => ({PRESENTER_JS})().height <= 722", timeout=10000)
    shown = page.evaluate(PRESENTER_JS)
    assert shown["height"] <= 722 and shown["bottom"] <= 720, shown
    which.select_option("4")  # 5·the
    page.locator(".steps .question button.primary").click()
    wait_for_matrix(page, "weights.1", "m.rows === 6")
    page.locator(".steps .question .verdict").wait_for(timeout=5000)
    with contextlib.suppress(Exception):
        page.wait_for_function(f"() => ({PRESENTER_JS})().height <= 722 && ({PRESENTER_JS})().bottom <= 720", timeout=10000)
    shown = page.evaluate(PRESENTER_JS)
    page.screenshot(path=str(SHOTS / f"presenter-{lang}-predict-revealed.png"))
    assert shown["height"] <= shown["view"] + 2 and shown["bottom"] <= shown["innerHeight"], shown


def test_arrow_keys_step_right_after_presenter_mode_is_switched_on(projector, app_url):
    """The sidebar's toggle keeps the keyboard focus after the click: → must still press Next."""
    page = projector
    page.goto(f"{app_url}/?text=the+cat+sat&step=1")
    wait_for_matrix(page, 0, "m.rows === 3")
    page.get_by_text("Presenter mode").click()
    page.wait_for_function("() => location.search.includes('present=1')", timeout=30000)
    wait_for_steps(page, "v.layout === 'projector' && v.where.startsWith('Step 1 of 6')", 30000)  # the projector's layout is drawn
    page.wait_for_function(IDLE_JS, timeout=30000)
    page.keyboard.press("ArrowRight")
    wait_for_step(page, "Step 2 of 6", 30000)


def test_quick_presses_of_next_and_previous_are_each_a_step(projector, app_url):
    """A clicker sends → with no pause on a 40-word page, and a hand clicks Next twice at once: every press is a step, in
    order, and the link ends on the last."""
    page = projector
    words = " ".join(f"w{i}" for i in range(40))
    page.goto(f"{app_url}/?{urlencode({'text': words, 'heads': 4, 'step': 1, 'present': 1})}")
    wait_for_step(page, "Step 1 of 7", 45000)
    page.wait_for_function(IDLE_JS, timeout=45000)
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    wait_for_step(page, "Step 4 of 7", 5000)
    box = page.locator(".steps nav.bar button.nav.next").bounding_box()
    for _ in range(2):  # two clicks in a row, as fast as a hand
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_for_step(page, "Step 6 of 7", 5000)
    page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '6'", timeout=5000)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert steps_view(page)["where"].startswith("Step 6 of 7")  # no press counted twice
    assert wait_for_matrix(page, "output.1", "m.rows === 40")["id"] == "output.1"  # step 6 drawn


def test_presenter_choices_pop_over(projector, app_url):
    """The walk and the head stay reachable on the projector (a pop-over next to Next), and so does the way out."""
    page = projector
    page.goto(f"{app_url}/?present=1&heads=2&text=the+cat+sat&step=3")
    wait_for_matrix(page, 0, "m.rows === 3")
    page.wait_for_function(IDLE_JS, timeout=45000)
    page.locator(".steps nav.bar button.choices-button").click()
    dialog = page.locator(".steps div.dialog[role=dialog]")
    dialog.wait_for(timeout=5000)
    assert dialog.locator("select").first.evaluate("s => s.getRootNode().activeElement !== null")
    dialog.locator("select").first.select_option("textbook")
    scores = wait_for_matrix(page, 0, "m.rows === 2")
    assert scores["x"] == ["Thinking", "Machines"]
    leave = page.get_by_role("button", name="Leave presenter mode")
    if not leave.is_visible():  # the dialog is closed once the new numbers are drawn
        page.locator(".steps nav.bar button.choices-button").click()
    leave.click()
    page.wait_for_function("() => !location.search.includes('present=1')", timeout=30000)
    page.goto(f"{app_url}/cosine?present=1&text=the+cat+sat+on+the+mat")  # a page without the pop-over
    page.locator("[data-testid=stExpandSidebarButton]").click()
    page.get_by_text("Presenter mode").click()
    page.wait_for_function("() => !location.search.includes('present=1')", timeout=30000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_phone_width_has_no_sideways_scrolling(open_page, app_url, lang):
    page = open_page(None, "phone")
    for step in (2, 5):  # step 1 of every page is measured on a phone in tests/test_browser_layouts.py
        page.goto(f"{app_url}/?lang={lang}&text=the+cat+sat+on+the+mat&step={step}")
        wait_for_steps(page, f"v.where && v.where.includes('{step}') && v.matrices.length > 0")
        page.wait_for_function(IDLE_JS, timeout=45000)
        size = page.evaluate(SCROLL_JS)
        assert size["width"] <= size["viewWidth"] + 1, (step, size)
    page.screenshot(path=str(SHOTS / f"phone-{lang}.png"))


def test_a_fresh_server_opens_a_deep_link(open_page):
    """The first request a new server gets may be a link to a page (a teacher's shared link), not to "/"."""
    with serve() as url:
        page = open_page(f"{url}/scaling-lab?d_k=1024&lang=en", "laptop")
        page.get_by_role("heading", name="Scaling lab: why divide by √d_k?").wait_for(timeout=45000)
        page.wait_for_timeout(1500)
        body = page.inner_text("body")
        assert "Page not found" not in body and "encountered an error" not in body
        assert "d_k=1024" in page.url
        page.context.close()  # before its server stops


def test_watch_it_learn_scrubs_training_on_a_projector(projector, app_url):
    """A teacher opens the induction run at step 0 in presenter mode, steps through training with → (the step component:
    every snapshot sent once), and jumps to the end from the list of steps: every frame shows that step's snapshot, the
    link names the training step, and the sidebar stays closed."""
    page = projector
    page.goto(f"{app_url}/watch-it-learn?present=1&step=0")
    first = wait_for_matrix(page, 0, "m.title.includes('Layer 1, head 1')")
    assert first["rows"] == first["cols"] == 15
    total = wait_for_steps(page, "v.where && v.where.startsWith('Snapshot 1 of ')")["where"]
    page.wait_for_function(IDLE_JS, timeout=45000)
    page.keyboard.press("ArrowRight")
    shown = wait_for_steps(page, "v.where && v.where.startsWith('Snapshot 2 of ')", 5000)
    assert "step 30," in shown["where"], shown
    page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '30'", timeout=5000)  # the training step
    last = page.locator(".steps nav.bar select.where option").last.get_attribute("value")
    page.locator(".steps nav.bar select.where").select_option(last)
    shown = wait_for_steps(page, f"v.where && v.where.startsWith('Snapshot {last} of ')", 5000)
    assert "step 1500," in shown["where"] and total.split(":")[0].endswith(f"of {last}"), (shown, total)
    page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '1500'", timeout=5000)
    induction = wait_for_matrix(page, 2, "m.title.includes('0.93 on the induction pattern')")
    assert "Layer 2, head 1" in induction["title"]
    assert page.locator("[data-testid=stSidebar][aria-expanded=true]").count() == 0
    page.screenshot(path=str(SHOTS / "learn-presenter-1280.png"))


def test_train_it_yourself_in_the_browser_and_the_link_keeps_the_settings(open_page, page, app_url):
    page.goto(f"{app_url}/watch-it-learn?section=train&task=copy&steps=200&heads=1&d_k=8")
    page.get_by_role("button", name="Train").click()
    page.wait_for_function("() => document.body.innerText.includes('Trained 200 steps in')", timeout=60000)
    trained = wait_for_heatmap(page, 0, "h.title.includes('Layer 1, head 1')")
    assert trained["rows"] == 12
    page.screenshot(path=str(SHOTS / "learn-trained.png"), full_page=True)
    other = open_page(page.url)
    other.wait_for_function("() => document.body.innerText.includes('press Train')", timeout=30000)
    assert other.get_by_role("slider", name="Steps").get_attribute("aria-valuetext") in ("200", None)
    assert "steps=200" in other.url and "task=copy" in other.url


def test_a_hostile_prompt_is_shown_as_text(app_url, page):
    page.goto(f"{app_url}/watch-it-learn?{urlencode({'section': 'decode', 'prompt': HOSTILE})}")
    page.wait_for_function("() => document.body.innerText.includes('outside this task')", timeout=30000)
    page.mouse.move(600, 400)
    assert page.locator("img[src='x']").count() == 0 and page.locator("[onerror], [onmouseover]").count() == 0


def test_online_softmax_folds_block_by_block_on_a_projector_and_the_link_reopens_it(open_page, projector, app_url):
    """A teacher steps through the blocks with the slider's keys: each frame shows one more block, the exact result at
    the end, and the link opens the same step in a fresh browser."""
    page = projector
    page.goto(f"{app_url}/positions-and-scale?section=fast&n=12&block=4&fold=1&present=1")
    page.wait_for_function("() => document.body.innerText.includes('After 1 of 3 blocks')", timeout=45000)
    slider = page.get_by_role("slider", name="Blocks folded in")
    slider.focus()
    for fold in (2, 3):
        slider.press("ArrowRight")
        text = "All blocks folded in" if fold == 3 else f"After {fold} of 3 blocks"
        page.wait_for_function(f"() => document.body.innerText.includes('{text}')", timeout=30000)
    page.wait_for_function("() => location.search.includes('fold=3')", timeout=30000)
    assert "Held at once: 48 scores instead of 144 (33%)" in page.inner_text("body")
    page.screenshot(path=str(SHOTS / "positions-online-softmax-1280.png"))
    other = open_page(page.url)
    other.wait_for_function("() => document.body.innerText.includes('All blocks folded in')", timeout=45000)


def test_the_shuffled_sentence_is_drawn_with_the_shuffled_words(app_url, page):
    page.goto(f"{app_url}/positions-and-scale?{urlencode({'text': 'the dog bit the man', 'shuffle': 'swap'})}")
    # Found by its title, not its place (the page draws its charts as they come near the screen, in parts).
    wait_for_heatmap(page, 0, "h.rows === 5")
    count = draw_charts(page)
    titles = page.evaluate("() => [...document.querySelectorAll('[data-testid=stPlotlyChart] .js-plotly-plot')]"
                           ".map(p => String((p.layout && p.layout.title && p.layout.title.text) || ''))")
    assert len(titles) == count, titles
    shuffled = heatmap(page, next(i for i, title in enumerate(titles) if "Shuffled" in title))
    assert shuffled["rows"] == 5 and shuffled["x"] == ["the", "man", "bit", "the", "dog"], titles
    page.screenshot(path=str(SHOTS / "positions-permutation.png"))


def test_the_menu_lists_every_page_in_chinese_with_no_english_view_more(projector, app_url):
    """Streamlit folds a long menu under "View 3 more", in English only: the app's menu shows every page instead."""
    from views.shell.registry import PAGES

    projector.goto(f"{app_url}/?lang=zh")
    links = projector.locator("[data-testid=stSidebarNavLink]")
    links.first.wait_for(timeout=45000)
    assert links.count() == len(PAGES)
    assert projector.locator("[data-testid=stSidebarNavViewButton]").count() == 0
    assert "View" not in projector.inner_text("[data-testid=stSidebarNav]")


def test_nothing_is_fetched_from_outside_the_server(projector, app_url):
    """No request leaves the app's own server, through the menu's pages and their icons (Streamlit would fetch a
    page's Material icon for the tab from fonts.gstatic.com)."""
    outside: list[str] = []
    projector.on("request", lambda request: None if request.url.startswith((app_url, "data:", "blob:")) else outside.append(request.url))
    projector.goto(f"{app_url}/?lang=en")
    projector.get_by_role("heading", name="Self-attention, step by step").wait_for(timeout=30000)
    for name in ("Scaling lab", "Attention on images"):
        projector.locator("[data-testid=stSidebarNavLink]", has_text=name).first.click()
        projector.wait_for_timeout(2500)
    assert "/vision" in projector.url
    assert not outside, outside


def kept_cookie(page, name: str, wanted, timeout_s: float = 15) -> dict:
    """The browser's cookie ``name`` once ``wanted(value)`` holds (a missing cookie's value is ""): it is HttpOnly."""
    for _ in range(int(timeout_s * 10)):
        found = next((c for c in page.context.cookies() if c["name"] == name), None)
        if wanted(found["value"] if found else ""):
            return found or {}
        page.wait_for_timeout(100)
    raise AssertionError(f"cookie {name}: {[c for c in page.context.cookies() if c['name'] == name]}")


def test_a_reload_keeps_the_lesson_guesses_until_the_teacher_clears_them(open_page):
    """The class guesses stop 1 and the answer is revealed; a reload (a new session) shows the same guess, the answer and
    the view's links; "Clear the class's guesses" asks every stop again, and a reload after it stays cleared."""
    page = open_page("/lesson?lang=en")
    guess = page.locator(".st-key-lesson-four_steps-guess")
    guess.get_by_text("0.88", exact=True).wait_for(timeout=45000)
    guess.get_by_text("0.88", exact=True).click()
    page.get_by_text("Reveal the answer").first.click()
    page.get_by_text("Right: 0.88").wait_for(timeout=15000)
    assert kept_cookie(page, "lesson_guesses", lambda value: value.startswith("four_steps.1.r"))["httpOnly"]
    assert "lesson_guesses" not in page.evaluate("document.cookie")  # set by the server, out of the page's reach
    page.reload()
    page.get_by_text("Right: 0.88").wait_for(timeout=45000)
    page.locator(".st-key-lesson-four_steps-guess input[value='1']:checked").wait_for(state="attached", timeout=15000)
    assert page.get_by_role("link", name="Open this view").count() == 1
    page.get_by_role("button", name="Clear the class's guesses").click()  # a pop-over: one click never wipes them
    page.get_by_role("button", name="Clear every stop's guess and answer").click()
    page.get_by_text("Right: 0.88").wait_for(state="detached", timeout=15000)
    assert page.get_by_role("link", name="Open this view").count() == 0
    kept_cookie(page, "lesson_guesses", lambda value: "four_steps" not in value)
    page.reload()
    page.locator(".st-key-lesson-four_steps-guess input[value='1']").wait_for(state="attached", timeout=45000)
    assert page.locator(".st-key-lesson-four_steps-guess input:checked").count() == 0
    assert page.get_by_role("link", name="Open this view").count() == 0


def test_a_page_chosen_from_far_down_another_opens_at_its_top(projector, app_url):
    """Streamlit keeps the main area's scroll when the menu opens another page: the lesson scrolled 2,000 px down, the
    scaling lab opened from the menu used to open 2,000 px down, mid-page. It opens at its top; one Back (not two: the
    menu's page and the app's values are one history entry) returns to the lesson where it was left (about 2,000 px
    down: what is drawn late above moves it), and Forward to the scaling lab where it was left."""
    page = projector
    page.goto(f"{app_url}/lesson?lang=en")
    page.locator(".st-key-lesson-learn-guess").wait_for(timeout=45000)
    scroll_top = "() => document.querySelector('[data-testid=stMain]').scrollTop"
    page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 2000)")
    page.wait_for_function(f"() => ({scroll_top})() > 1500", timeout=5000)
    lesson_at, since = page.evaluate(scroll_top), 0  # what is drawn late above (a chart, a kept guess) moves it: settled
    for _ in range(40):
        page.wait_for_timeout(250)
        now = page.evaluate(scroll_top)
        since, lesson_at = (since + 1 if now == lesson_at else 0), now
        if since >= 4:
            break
    page.locator("[data-testid=stSidebarNav] a", has_text="Scaling lab").click()
    page.wait_for_function("() => location.pathname === '/scaling-lab'", timeout=30000)
    page.get_by_text("Scaling lab: why divide by √d_k?").first.wait_for(timeout=30000)
    page.wait_for_timeout(1000)
    assert page.evaluate(scroll_top) == 0
    page.mouse.move(800, 400)
    page.mouse.wheel(0, 1500)  # the teacher scrolls down the new page (a wheel: the page lets go of its top)
    page.wait_for_function(f"() => ({scroll_top})() > 1000", timeout=5000)
    page.wait_for_timeout(300)
    left_at = page.evaluate(scroll_top)
    page.go_back()
    page.wait_for_function("() => location.pathname === '/lesson'", timeout=30000)
    page.locator(".st-key-lesson-learn-guess").wait_for(timeout=30000)
    page.wait_for_function(f"() => Math.abs(({scroll_top})() - {lesson_at}) < 5", timeout=15000)  # where the teacher was
    page.go_forward()
    page.wait_for_function("() => location.pathname === '/scaling-lab'", timeout=30000)
    page.wait_for_function(f"() => Math.abs(({scroll_top})() - {left_at}) < 5", timeout=15000)
