"""make bench: figures, not timed tests. Prints measured / budget for the core, page reruns and the browser.

Each figure is the median of several runs (the count is printed). Run from the repository root.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attention_core import explain, sweep  # noqa: E402


def median_ms(run: Callable[[], object], repeat: int, warmup: int = 1) -> float:
    """Median milliseconds of ``repeat`` calls of ``run`` after ``warmup`` calls; the garbage collector stays on (timeit
    turns it off by default), as it is while a student waits."""
    for _ in range(warmup):
        run()
    return statistics.median(timeit.repeat(run, setup="gc.enable()", repeat=repeat, number=1, globals={"gc": gc})) * 1000


def row(name: str, measured_ms: float, budget_ms: float | None, runs: int) -> tuple[str, str, str, str, str]:
    verdict = "" if budget_ms is None else ("ok" if measured_ms <= budget_ms else "OVER")
    budget = "" if budget_ms is None else f"{budget_ms:g} ms"
    return name, f"{measured_ms:.2f} ms", budget, verdict, str(runs)


CORE_BUDGETS = {(16, 64, 1): 1.0, (16, 64, 8): 1.0, (256, 512, 8): 50.0}


def bench_core(repeat: int) -> list[tuple]:
    """explain() for n tokens, d_model, heads (d_k = d_model / heads)."""
    rows = []
    for n in (2, 16, 64, 256):
        text = " ".join(f"w{i}" for i in range(n))
        for d_model in (64, 512):
            for heads in (1, 8):
                options = dict(d_model=d_model, d_k=d_model // heads, heads=heads)
                ms = median_ms(lambda text=text, options=options: explain(text, **options), repeat)
                rows.append(row(f"explain n={n} d_model={d_model} heads={heads}", ms, CORE_BUDGETS.get((n, d_model, heads)), repeat))
    rows.append(row("scaling sweep, d_k 1..4096 (64 keys, 2000 samples)", median_ms(lambda: sweep(64, 2000, seed=0), repeat), 300, repeat))
    return rows + bench_scale(repeat)


def bench_scale(repeat: int) -> list[tuple]:
    """Positions and scale: RoPE, grouped-query attention, online softmax beside full attention (n = 1024, d_k = 64)."""
    import numpy as np

    from attention_core.fast import online_softmax_attention, shared_kv_attention, time_full_attention
    from attention_core.positions import rope

    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((1024, 64)) for _ in range(3))
    x = rng.standard_normal((256, 512))
    w_q, w_kv = rng.standard_normal((8, 512, 64)), rng.standard_normal((2, 512, 64))
    full = min(time_full_attention(1024, repeat=repeat)[0] for _ in range(2)) * 1000
    rows = [row("RoPE on 1024 x 64", median_ms(lambda: rope(q), repeat), 10.0, repeat),
            row("grouped-query attention, 256 tokens, d_model 512, 8 heads, 2 kv heads", median_ms(
                lambda: shared_kv_attention(x, w_q, w_kv, w_kv), repeat), 50.0, repeat),
            row("full attention, 1024 tokens, d_k 64 (holds 1024 x 1024 scores)", full, None, repeat)]
    for block in (64, 256):
        ms = median_ms(lambda block=block: online_softmax_attention(q, k, v, block), repeat)
        rows.append(row(f"online softmax, 1024 tokens, blocks of {block} (holds 1024 x {block}): {ms / full:.1f}x full", ms, None, repeat))
    previous = None
    for n in (2048, 4096, 8192, 16384):  # the page measures up to 4096 (a class server); this machine allows 16384 (2 GiB of scores)
        seconds, score_bytes = time_full_attention(n, repeat=2)
        growth = "" if previous is None else f", {seconds / previous:.1f}x the time at n/2"
        rows.append(row(f"full attention, {n} tokens: {score_bytes / 2**20:,.0f} MiB of scores{growth}", seconds * 1000, None, 2))
        previous = seconds
    return rows


def set_value(at, key: str, value: object) -> None:
    """Set the widget with this key, whatever its kind."""
    for kind in ("slider", "select_slider", "number_input", "selectbox", "segmented_control", "toggle"):
        for widget in at.get(kind):
            if widget.key == key:
                widget.set_value(value)
                return
    raise KeyError(key)


def rerun_ms(at, change: Callable[[object, int], object], i: int) -> float:
    """Server time of one rerun after a control change, measured with AppTest (a new value each time: it is computed)."""
    change(at, i)
    start = time.perf_counter()
    at.run()
    elapsed = (time.perf_counter() - start) * 1000
    assert not at.exception, at.exception
    return elapsed


BARE_RERUN = """import streamlit as st
import plotly.graph_objects as go
d_k = st.slider("d_k", 1, 64, 4, key="d_k")
st.plotly_chart(go.Figure(go.Heatmap(z=[[float(i * j) for j in range(d_k)] for i in range(6)], texttemplate="%{z}")))
"""
# One control per page that changes its numbers: a shared setting where the page uses one, else its own first value.
BENCH_CONTROLS = {"scaling": ("scaling.d_k", lambda i: 2 ** (i % 13)), "real": ("real.head", lambda i: 1 + i % 12),
                  "learn": ("learn.task", lambda i: ("copy", "reverse", "sort", "induction", "text")[i % 5])}
PAGE_BUDGET = {"walkthrough": 3.0}  # x floor; every other page 5x (issue 14)


def bench_pages(repeat: int) -> list[tuple]:
    """Every page of the registry: one rerun after a control change, beside a bare Streamlit script's rerun (the floor).

    The machine is noisy, so each round measures the floor and then every page, and a page's ratio is the median over
    rounds of (page rerun / the same round's floor rerun).
    """
    from streamlit.testing.v1 import AppTest

    from scripts.apptest import app_test
    from views.shell.registry import PAGES

    bare = AppTest.from_string(BARE_RERUN, default_timeout=60)
    floor_change = lambda at, i: at.slider(key="d_k").set_value(2 + i % 60)
    runs = []  # (name, AppTest, change, budget)
    for page in PAGES:
        values = {p.name: p.default for p in page.params} | {"heads": 1, "lang": "en"}
        shared = [n for n in ("d_k", "d_model", "seed") if n in page.shared_names(values)]
        key, value = BENCH_CONTROLS.get(page.id, (f"shared.{shared[0]}", lambda i: 2 + i % 60) if shared else (None, None))
        at = app_test(page.id, text="the cat sat on the mat")
        change = (lambda at, i: None) if key is None else (lambda at, i, key=key, value=value: set_value(at, key, value(i)))
        what = "rerun" if key is None else f"rerun after {key.split('.')[1]} change"
        runs.append((f"{page.id}: {what}", at, change, PAGE_BUDGET.get(page.id, 5.0)))
    at = app_test("walkthrough", text="the cat sat on the mat", all="1", heads="2")
    runs.append(("walkthrough, all steps, 2 heads: rerun after d_k change", at, lambda at, i: set_value(at, "shared.d_k", 2 + i % 60), None))
    at = app_test("walkthrough", text=FORTY_TOKENS, step="5")
    runs.append(("walkthrough, 40 tokens, step 5: rerun after d_k change", at, lambda at, i: set_value(at, "shared.d_k", 2 + i % 60), None))
    at = app_test("walkthrough", text="the cat sat on the mat", compare="score:dot")  # compare mode: two walks a rerun
    runs.append(("walkthrough, compare mode (B not scaled): rerun after d_k change", at,
                 lambda at, i: set_value(at, "shared.d_k", 2 + i % 60), 3.0))
    bare.run()
    for _, at, _, _ in runs:
        at.run()
    floors, times = [], {name: [] for name, *_ in runs}
    for i in range(repeat + 1):
        floor = rerun_ms(bare, floor_change, i)
        for name, at, change, _ in runs:
            times[name].append(rerun_ms(at, change, i) / (floor if i else 1))
        floors.append(floor)
    floor = statistics.median(floors[1:])
    rows = [row("floor: bare script (1 slider, 1 heatmap) rerun", floor, None, repeat)]
    for name, _, _, budget in runs:
        ratio = statistics.median(times[name][1:])
        rows.append(ratio_row(name, ratio * floor, ratio, budget, repeat))
    return rows


# Sections that open from precomputed data or small sizes (issue 38): each opened fresh, as a link to it does.
SECTIONS = (("real", "corpus"), ("positions", "latent"), ("positions", "sparse"), ("positions", "traffic"))


def bench_sections(repeat: int) -> list[tuple]:
    """Each of ``SECTIONS`` opened by a fresh session (an AppTest run of its link), the server's caches warm: budget 1 s.
    Beside it, its ratio to the floor measured in the same rounds: a bare script (1 slider, 1 heatmap) opened fresh."""
    from streamlit.testing.v1 import AppTest

    from scripts.apptest import app_test

    def opened(make: Callable[[], object]) -> float:
        start = time.perf_counter()
        make().run()
        return (time.perf_counter() - start) * 1000

    bare = lambda: AppTest.from_string(BARE_RERUN, default_timeout=60)
    makers = {f"{p}?section={s}": (lambda p=p, s=s: app_test(p, section=s, text="the cat sat on the mat")) for p, s in SECTIONS}
    for make in (bare, *makers.values()):
        make().run()  # warm the server's caches once
    floors, times = [], {name: [] for name in makers}
    for _ in range(repeat):
        floors.append(opened(bare))
        for name, make in makers.items():
            times[name].append(opened(make))
    floor = statistics.median(floors)
    rows = [row("floor: bare script (1 slider, 1 heatmap) opened by a new session", floor, None, repeat)]
    for name, measured in times.items():
        ms = statistics.median(measured)
        rows.append(row(f"{name}: opened by a new session ({ms / floor:.1f}x floor)", ms, 1000, repeat))
    return rows


def ratio_row(name: str, measured_ms: float, ratio: float, budget: float | None, runs: int) -> tuple[str, str, str, str, str]:
    """A figure with its ratio to the floor measured in the same run; the budget is a ratio."""
    verdict = "" if budget is None else ("ok" if ratio <= budget else "OVER")
    return f"{name} ({ratio:.1f}x floor)", f"{measured_ms:.2f} ms", "" if budget is None else f"{budget:g}x floor", verdict, str(runs)


FORTY_TOKENS = " ".join(("the students watched how every word of a long sentence looks at all the others " * 3).split()[:40])


BARE_APP = """import streamlit as st
import plotly.graph_objects as go
d_k = st.slider("d_k (size of each query and key)", 1, 64, 4)
st.plotly_chart(go.Figure(go.Heatmap(z=[[float(i * j) for j in range(d_k)] for i in range(6)], texttemplate="%{z}")))
"""
# The floor for a step change: Previous / Next buttons and one heatmap of ``rows`` x ``rows`` whose title names the step
# (a server round trip per press, as Streamlit does it).
BARE_STEPS = """import streamlit as st
import plotly.graph_objects as go
step = st.session_state.setdefault("step", 3)
def move(by):
    st.session_state.step += by
back, where, forward = st.columns([1, 4, 1])
back.button("Previous", on_click=move, args=(-1,))
where.markdown(f"**Step {{step}}**")
forward.button("Next", on_click=move, args=(1,))
z = [[float((step * i + j) % 7) for j in range({rows})] for i in range({rows})]
st.plotly_chart(go.Figure(go.Heatmap(z=z, texttemplate="%{{z}}" if {rows} <= 16 else None), layout=dict(title=dict(text=f"step {{step}}"))))
"""
# A bare page drawing ``charts`` heatmaps of 40 x 40: the floor for a link that opens every step of 40 tokens.
BARE_CHARTS = """import streamlit as st
import plotly.graph_objects as go
for c in range({charts}):
    st.plotly_chart(go.Figure(go.Heatmap(z=[[float((i * j + c) % 11) for j in range(40)] for i in range(40)])), key=f"c{{c}}")
"""

# In the page: every node of the document and of the step component's shadow root is watched; ``t0`` is when the action
# started (performance.now()). ``drawn`` polls each frame for a condition; ``settled`` is the last change before 600 ms of
# quiet (the page's "settled" time).
ARM_JS = """() => {
  const roots = [document, ...[...document.querySelectorAll('[data-testid=stBidiComponentIsolated]')].map(h => h.shadowRoot).filter(Boolean)];
  const m = window.__bench = {t0: performance.now(), last: performance.now()};
  if (window.__benchObserver) window.__benchObserver.disconnect();
  const observer = window.__benchObserver = new MutationObserver(() => { m.last = performance.now(); });
  for (const root of roots) observer.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
}"""
DEEP_JS = """(selector) => { const direct = document.querySelector(selector); if (direct) return direct;
  for (const host of document.querySelectorAll('[data-testid=stBidiComponentIsolated]')) {
    const found = host.shadowRoot && host.shadowRoot.querySelector(selector); if (found) return found; } return null; }"""
CLICK_JS = "(selector) => { (" + DEEP_JS + ")(selector).click(); }"
DRAWN_JS = """async (condition) => { const test = new Function('deep', 'return (' + condition + ');');
  const deep = """ + DEEP_JS + """;
  const holds = () => { try { return test(deep); } catch { return false; } };  // a chart being redrawn may be missing
  for (let i = 0; i < 3000; i++) { if (holds()) return performance.now() - window.__bench.t0;
    await new Promise(r => requestAnimationFrame(r)); }
  return null; }"""
SETTLED_JS = """async () => { const m = window.__bench;
  while (performance.now() - m.last < 600) await new Promise(r => setTimeout(r, 50));
  return m.last - m.t0; }"""
VITALS_JS = """async () => {
  const lcp = await new Promise(resolve => { let last = 0;
    new PerformanceObserver(list => { for (const e of list.getEntries()) last = e.startTime; })
      .observe({type: 'largest-contentful-paint', buffered: true});
    setTimeout(() => resolve(last), 300); });
  return lcp; }"""
INP_JS = """() => new Promise(resolve => { let worst = 0;
  new PerformanceObserver(list => { for (const e of list.getEntries()) if (e.interactionId) worst = Math.max(worst, e.duration); })
    .observe({type: 'event', durationThreshold: 16, buffered: true});
  setTimeout(() => resolve(worst), 300); })"""


def step_press(page, selector: str, condition: str) -> tuple[float, float]:
    """Click ``selector`` in the page (an element of the document or of the step component); (ms until ``condition`` holds
    in the page, ms until the page settled: its last change before 600 ms of quiet)."""
    page.evaluate(ARM_JS)
    page.evaluate(CLICK_JS, selector)
    drawn = page.evaluate(DRAWN_JS, condition)
    settled = page.evaluate(SETTLED_JS)
    if drawn is None:
        raise RuntimeError(f"never drawn: {condition}")
    return drawn, settled


def key_press(page, focus: str, key: str, condition: str) -> float:
    """Focus ``focus`` (a Playwright locator), press ``key``; ms until ``condition`` holds (the slider's change drawn)."""
    page.evaluate(ARM_JS)
    page.keyboard.press(key)
    drawn = page.evaluate(DRAWN_JS, condition)
    page.evaluate(SETTLED_JS)
    if drawn is None:
        raise RuntimeError(f"never drawn: {condition}")
    return drawn


def preset_ms(chromium, url: str, repeat: int) -> float:
    """Compare mode's list, "why divide by √d_k" chosen and then "nothing" again: the median ms from the choice until B's
    weights are drawn (the page reruns: A's settings change in the sidebar too)."""
    page = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(url)
    page.wait_for_function(f"() => {{ const deep = {DEEP_JS}; return {STEP_IS.format(step='softmax')}; }}", timeout=60_000)
    times = []
    for i in range(repeat * 2):
        on = i % 2 == 0
        page.wait_for_timeout(400)
        page.get_by_role("combobox", name="Compare with").click()
        option = page.get_by_role("option", name="why divide by" if on else "nothing: one walk")
        option.wait_for()
        page.evaluate(ARM_JS)
        option.click()
        drawn = page.evaluate(DRAWN_JS, "!!deep('figure[data-matrix=\"b-weights.1\"] table.mx')" if on else
                              "!deep('figure[data-matrix=\"b-weights.1\"]') && !!deep('section.step table.mx')")
        page.evaluate(SETTLED_JS)
        if drawn is None:
            raise RuntimeError("compare mode's preset never drawn")
        if on:
            times.append(drawn)
    page.context.close()
    return statistics.median(times)


def opened_ms(chromium, url: str, condition: str) -> float:
    """A fresh browser context (empty cache) opens ``url``: ms from the navigation's start until ``condition`` holds."""
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(url)
    page.evaluate("() => { window.__bench = {t0: 0, last: 0}; }")
    elapsed = page.evaluate(DRAWN_JS, condition)
    context.close()
    if elapsed is None:
        raise RuntimeError(f"never drawn: {condition}")
    return elapsed


STEP_IS = "(() => {{ const s = deep('section.step'); return s && s.dataset.step === {step!r} && deep('section.step table.mx'); }})()"
TITLE_IS = "[...document.querySelectorAll('.js-plotly-plot .gtitle')].some(t => t.textContent.includes({title!r}))"
PLOTS = "[...document.querySelectorAll('.js-plotly-plot')].filter(p => p.calcdata && p._fullLayout).length >= {count}"  # drawn
Q_HEAD = 'figure[data-matrix="q.1"] thead'
MATRICES = "(() => {{ return [...document.querySelectorAll('[data-testid=stBidiComponentIsolated]')].some(h => h.shadowRoot && " \
           "h.shadowRoot.querySelectorAll('figure.matrix table.mx').length >= {count}); }})()"
BARE = {}  # a floor is a bare Streamlit script: none of the app's components


def bench_browser(repeat: int) -> list[tuple]:
    """Issue 34's table, in Debian's chromium at 1280 x 720: each action on the walkthrough beside the same action on a
    bare Streamlit page in the same run (a step, a slider, a first visit, a link to every step of 40 tokens), and the
    page's own vitals (largest contentful paint, interaction to next paint) from the browser's PerformanceObserver."""
    import tempfile

    from scripts.browser import browser, serve

    floors, app = {}, {}
    median = statistics.median
    said = lambda what: print(f"[bench browser] {what}", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as folder, browser() as chromium:
        scripts = {"steps8": BARE_STEPS.format(rows=8), "steps40": BARE_STEPS.format(rows=40), "slider": BARE_APP,
                   "charts": BARE_CHARTS.format(charts=16)}
        for name, code in scripts.items():
            (Path(folder) / f"{name}.py").write_text(code)
        for rows in (8, 40):
            with serve(str(Path(folder) / f"steps{rows}.py"), env=BARE) as url:
                page = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
                page.goto(url)
                page.wait_for_function(TITLE_IS.format(title="step 3"), timeout=60_000)
                page.wait_for_timeout(500)
                drawn, settled = [], []
                for i in range(repeat):
                    d, s = _bare_press(page, forward=i % 2 == 0)
                    drawn.append(d)
                    settled.append(s)
                floors[f"next{rows}"], floors[f"settled{rows}"] = median(drawn), median(settled)
                said(f"floor, Next with {rows} x {rows}: {floors[f'settled{rows}']:.0f} ms")
                page.context.close()
        with serve(str(Path(folder) / "slider.py"), env=BARE) as url:
            floors["cold"] = median([opened_ms(chromium, url, PLOTS.format(count=1)) for _ in range(repeat)])
            page = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
            page.goto(url)
            page.wait_for_function(f"() => {PLOTS.format(count=1)}", timeout=60_000)
            slider = page.get_by_role("slider", name="d_k (size of each query and key)")
            slider.focus()
            times = []
            for _ in range(repeat):
                page.wait_for_timeout(200)
                columns = page.evaluate("() => document.querySelector('.js-plotly-plot').data[0].z[0].length")
                times.append(key_press(page, slider, "ArrowRight", f"document.querySelector('.js-plotly-plot').data[0].z[0].length !== {columns}"))
            floors["slider"] = median(times)
            said(f"floor, first visit {floors['cold']:.0f} ms, slider {floors['slider']:.0f} ms")
            page.context.close()
        with serve(str(Path(folder) / "charts.py"), env=BARE) as url:
            floors["link40"] = median([opened_ms(chromium, url, PLOTS.format(count=16)) for _ in range(max(3, repeat // 2))])
            said(f"floor, 16 heatmaps opened: {floors['link40']:.0f} ms")
        with serve() as url:
            eight = "the+students+watched+how+every+word+of+a"
            forty = FORTY_TOKENS.replace(" ", "+")
            app["cold"] = median([opened_ms(chromium, f"{url}/?step=3&text={eight}&seed={i}", STEP_IS.format(step="raw"))
                                  for i in range(repeat)])
            forty_heads = f"heads=4&d_model=16&d_k=4&text={forty}"
            for label, address in (("8", f"{url}/?step=3&text={eight}"), ("40", f"{url}/?step=3&{forty_heads}"),
                                   ("c8", f"{url}/?step=3&heads=4&d_model=16&d_k=4&text={eight}&compare=score:dot"),  # compare mode:
                                   ("c40", f"{url}/?step=3&{forty_heads}&compare=score:dot")):  # two walks of 4 heads
                context = chromium.new_context(viewport={"width": 1280, "height": 720})
                page = context.new_page()
                page.goto(address)
                page.wait_for_function(f"() => {{ const deep = {DEEP_JS}; return {STEP_IS.format(step='raw')}; }}", timeout=60_000)
                page.wait_for_timeout(500)
                drawn, settled = [], []
                for i in range(repeat):
                    forward = i % 2 == 0
                    d, s = step_press(page, ".nav.next" if forward else ".nav.previous", STEP_IS.format(step="scaled" if forward else "raw"))
                    drawn.append(d)
                    settled.append(s)
                app[f"next{label}"], app[f"settled{label}"] = median(drawn), median(settled)
                said(f"app, Next at {label} tokens: drawn {app[f'next{label}']:.0f} ms, settled {app[f'settled{label}']:.0f} ms")
                if label == "8":  # a student's real presses (trusted events), for the browser's interaction timing
                    for i in range(6):
                        page.keyboard.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
                        page.wait_for_timeout(150)
                    app["inp"] = page.evaluate(INP_JS)
                    app["lcp"] = page.evaluate(VITALS_JS)
                    page.goto(f"{url}/?step=2&text={eight}")
                    page.wait_for_function(f"() => {{ const deep = {DEEP_JS}; return {STEP_IS.format(step='qkv')}; }}", timeout=60_000)
                    page.wait_for_timeout(800)
                    slider = page.get_by_role("slider", name="d_k (size of each query and key)")
                    slider.focus()
                    times = []
                    for _ in range(repeat):
                        page.wait_for_timeout(300)
                        columns = page.evaluate(f"() => ({DEEP_JS})({Q_HEAD!r}).querySelectorAll('th').length")
                        times.append(key_press(page, slider, "ArrowRight", f"deep({Q_HEAD!r})?.querySelectorAll('th').length !== {columns}"))
                    app["slider"] = median(times)
                context.close()
            app["preset"] = preset_ms(chromium, f"{url}/?step=5&text={eight}", repeat)
            said(f"app, a compare preset chosen: {app['preset']:.0f} ms")
            app["clink40"] = median([opened_ms(chromium, f"{url}/?step=5&{forty_heads}&compare=score:dot&seed={i}", MATRICES.format(count=3))
                                     for i in range(max(3, repeat // 2))])  # A's and B's weights, B - A
            every = f"{url}/?all=1&heads=4&d_model=16&d_k=4&text={forty}"
            count = 3 + 6 + 1 + 1 + 1 + 1 + 2  # E, PE, X; W and Q, K, V; raw; scaled; weights; output; concat, W_O and the output
            app["link40"] = median([opened_ms(chromium, f"{every}&seed={i}", MATRICES.format(count=count)) for i in range(max(3, repeat // 2))])
            context = chromium.new_context(viewport={"width": 1280, "height": 720})  # a student who opened the app before
            page = context.new_page()
            page.goto(f"{url}/?text={eight}")
            page.wait_for_function(f"() => {{ const deep = {DEEP_JS}; return deep('section.step table.mx'); }}", timeout=60_000)
            warm = []
            for i in range(max(3, repeat // 2)):
                page.goto(f"{every}&seed={50 + i}")
                page.evaluate("() => { window.__bench = {t0: 0, last: 0}; }")
                warm.append(page.evaluate(DRAWN_JS, MATRICES.format(count=count)))
            app["link40warm"] = median(warm)
            context.close()

    def against(name: str, what: str, floor: str, goal: str, met: bool) -> tuple:
        ratio = app[name] / floors[floor]
        verdict = "met" if met else "NOT MET"
        return f"{what} ({ratio:.2f}x floor)", f"{app[name]:.0f} ms", f"{floors[floor]:.0f} ms floor; goal {goal}", verdict, str(repeat)

    return [
        against("settled8", "walkthrough: Next -> page settled (8 tokens)", "settled8", "<= 100 ms", app["settled8"] <= 100),
        against("settled40", "walkthrough: Next -> page settled (40 tokens, 4 heads)", "settled40", "<= 100 ms", app["settled40"] <= 100),
        against("next8", "walkthrough: Next -> next step's matrix drawn (8 tokens)", "next8", "-", True),
        against("next40", "walkthrough: Next -> next step's matrix drawn (40 tokens, 4 heads)", "next40", "-", True),
        against("slider", "walkthrough: d_k slider -> matrix redrawn (step 2, Q)", "slider", "<= 1.3x", app["slider"] <= 1.3 * floors["slider"]),
        against("cold", "walkthrough: first visit, empty cache -> first matrix", "cold", "<= 1.25x", app["cold"] <= 1.25 * floors["cold"]),
        against("link40", "walkthrough: a link at 40 tokens x 4 heads, every step, empty cache -> all drawn (floor: 16 bare 40 x 40 "
                "heatmaps)", "link40", "<= 1500 ms", app["link40"] <= 1500),
        against("settledc8", "compare mode: Next -> page settled (8 tokens, two walks of 4 heads)", "settled8", "<= 100 ms",
                app["settledc8"] <= 100),
        against("settledc40", "compare mode: Next -> page settled (40 tokens, two walks of 4 heads)", "settled40", "<= 100 ms",
                app["settledc40"] <= 100),
        against("preset", "compare mode: a preset chosen -> B drawn (floor: a bare slider)", "slider", "<= 1.3x",
                app["preset"] <= 1.3 * floors["slider"]),
        against("clink40", "compare mode: a link at 40 tokens x 4 heads, the softmax step, empty cache -> A, B and B - A drawn "
                "(floor: 16 bare heatmaps)", "link40", "<= 1500 ms", app["clink40"] <= 1500),
        ("walkthrough: the same link, the app's files in the browser's cache -> all drawn", f"{app['link40warm']:.0f} ms", "<= 1500 ms",
         "met" if app["link40warm"] <= 1500 else "NOT MET", str(max(3, repeat // 2))),
        ("walkthrough: largest contentful paint (PerformanceObserver)", f"{app['lcp']:.0f} ms", "<= 2500 ms",
         "met" if app["lcp"] <= 2500 else "NOT MET", "1"),
        ("walkthrough: interaction to next paint, ← / → presses (worst of 6)", f"{app['inp']:.0f} ms", "<= 200 ms",
         "met" if app["inp"] <= 200 else "NOT MET", "6"),
    ]


def _bare_press(page, forward: bool) -> tuple[float, float]:
    """The bare page's Next or Previous (Streamlit's own buttons): drawn when its heatmap's title names the new step."""
    label = "Next" if forward else "Previous"
    page.evaluate(ARM_JS)
    page.evaluate("(label) => [...document.querySelectorAll('button')].find(b => b.textContent.trim() === label).click()", label)
    drawn = page.evaluate(DRAWN_JS, TITLE_IS.format(title=f"step {4 if forward else 3}"))
    settled = page.evaluate(SETTLED_JS)
    return drawn, settled


MEMORY_PROBE = """
import resource, sys
sys.path.insert(0, {root!r})
import numpy, scipy.special, safetensors, tokenizers, streamlit, plotly, pandas  # everything the app imports anyway
from attention_core.pretrained import MiniLM
def rss_mb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024
before = rss_mb()
model = MiniLM.load()
model.run("The animal didn't cross the street because it was too tired. " * 8)
print(before, rss_mb())
"""


def bench_model(repeat: int) -> list[tuple]:
    """The pretrained model: load once, forward pass at 32 and 128 word pieces, the importance measures, extra server
    memory."""
    import subprocess

    from attention_core.pretrained import MiniLM

    load = median_ms(MiniLM.load, max(3, repeat // 2), warmup=1)
    model = MiniLM.load()
    rows = [row("real model: load (safetensors + tokenizer)", load, 500, max(3, repeat // 2))]
    for pieces, budget in ((32, 30), (128, 150)):
        text = " ".join(["word"] * (pieces - 2))
        assert len(model.encode(text)[0]) == pieces
        rows.append(row(f"real model: forward pass, {pieces} word pieces", median_ms(lambda text=text: model.run(text), repeat), budget, repeat))
    from attention_core import inside

    text = " ".join(["word"] * 30)  # 32 pieces: rollout, flow and leave-one-out (30 words, 31 passes batched) together
    trace = model.run(text)
    rows.append(row("real model: rollout + flow + leave-one-out, 32 word pieces",
                    median_ms(lambda: inside.importance(model, trace, text), max(3, repeat // 2)), 1000, max(3, repeat // 2)))
    from attention_core import corpus

    sentences = corpus.corpus_sentences()[:300]  # 300 of the shipped sentences, batched by length (corpus_scores)
    rows.append(row("real model: corpus scores, 300 sentences (72 heads x 9 scores)",
                    median_ms(lambda: corpus.corpus_scores(model, sentences), 3, warmup=0), 20_000, 3))
    rows.append(row("real model: the shipped corpus scores loaded (417 sentences)", median_ms(corpus.load_scores, repeat), 1000, repeat))
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE.format(root=str(ROOT))], capture_output=True, text=True, check=True)
    before, after = (float(v) for v in out.stdout.split())
    rows.append(("real model: extra server memory (RSS)", f"{after - before:.0f} MB", "250 MB", "ok" if after - before <= 250 else "OVER", "1"))
    return rows


WORKER_RSS = """
import sys, numpy as np
sys.path.insert(0, {root!r})
from attention_core import TinyConfig
from attention_core.tasks import Trainer
from views.learn.data import Worker
worker = Worker()
trainer = worker.advance(Trainer("induction", TinyConfig(vocab=12, context=15, d_model=32, heads=2, layers=2)), 25)
with open(f"/proc/{{worker.process.pid}}/status") as status:
    print(next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024)
worker.close()
"""


def bench_learn(repeat: int) -> list[tuple]:
    """Watch it learn: one training step at the default size, time to the default run's accuracy, snapshot loads, memory."""
    import subprocess

    import numpy as np

    from attention_core import TinyConfig
    from attention_core.tasks import TASKS, Trainer
    from attention_core.tiny import adam, adam_state, gradients, init_tiny
    from scripts.make_snapshots import DEFAULTS
    from views.shell.registry import LEARN_TASKS
    from views.widgets.snapshots import load_snapshot

    rows = []
    for name in ("induction", "text"):
        d_model, heads, layers, _, lr, batch = DEFAULTS[name]
        task = TASKS[name]()
        config = TinyConfig(vocab=task.vocab, context=task.length, d_model=d_model, heads=heads, layers=layers)
        params = init_tiny(config, 0)
        tokens = task.batch(np.random.default_rng(0), batch)
        state = adam_state(params)
        step = median_ms(lambda p=params, t=tokens, s=state, lr=lr: adam(p, gradients(p, t), s, lr=lr), repeat * 3)
        rows.append(row(f"learn: one training step, {name} (d_model {d_model}, {heads} heads, {layers} layers, batch {batch})",
                        step, {"induction": 10.0, "text": 20.0}[name], repeat * 3))
    for name, target in (("copy", 0.95), ("induction", 0.9)):
        d_model, heads, layers, steps, lr, batch = DEFAULTS[name]
        task = TASKS[name]()
        config = TinyConfig(vocab=task.vocab, context=task.length, d_model=d_model, heads=heads, layers=layers)
        trainer, began = Trainer(name, config, every=10, lr=lr, batch=batch, seed=0), time.perf_counter()
        while trainer.step < steps and trainer.run().accuracy[-1] < target:
            trainer.advance(10)
        seconds = time.perf_counter() - began
        budget = 30_000.0 if name == "induction" else 5_000.0
        rows.append(row(f"learn: time to {target:.0%} accuracy, {name} default run (reached at step {trainer.step})",
                        seconds * 1000, budget, 1))
    load = median_ms(lambda: [load_snapshot(name) for name in LEARN_TASKS], repeat)
    rows.append(row(f"learn: load the {len(LEARN_TASKS)} snapshots (npz, once per server)", load, 200.0, repeat))
    sizes = sum((ROOT / "assets" / "snapshots" / f"{name}.npz").stat().st_size for name in (*LEARN_TASKS, "scaling"))
    loaded = sum(a.nbytes for name in LEARN_TASKS for snap in [load_snapshot(name)]
                 for a in (*snap.params.values(), snap.run.weights, snap.run.closeness, snap.run.loss))
    rows.append(("learn: snapshots on disk / in memory", f"{sizes / 2**20:.2f} MB / {loaded / 2**20:.1f} MB", "5 MB", "ok"
                 if loaded <= 5 * 2**20 else "OVER", "1"))
    out = subprocess.run([sys.executable, "-c", WORKER_RSS.format(root=str(ROOT))], capture_output=True, text=True, check=True)
    worker = float(out.stdout.split()[-1])
    rows.append(("learn: a training worker's memory (RSS)", f"{worker:.0f} MB", "100 MB", "ok" if worker <= 100 else "OVER", "1"))
    return rows


def print_table(rows: list[tuple]) -> None:
    header = ("what", "measured", "budget", "", "runs")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(5)]
    for r in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(r, widths)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure (the median is printed)")
    parser.add_argument("--only", choices=["core", "model", "learn", "pages", "sections", "browser"], action="append")
    args = parser.parse_args()
    sections = {"core": bench_core, "model": bench_model, "learn": bench_learn, "pages": bench_pages, "sections": bench_sections,
                "browser": bench_browser}
    rows = []
    for name in args.only or sections:
        rows += sections[name](args.repeat)
    print_table(rows)


if __name__ == "__main__":
    main()
