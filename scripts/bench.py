"""make bench: figures, not timed tests. Prints measured / budget for the core, page reruns and the browser.

Each figure is the median of several runs (the count is printed). Run from the repository root.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attention_core import explain, sweep  # noqa: E402


def median_ms(run: Callable[[], object], repeat: int, warmup: int = 1) -> float:
    for _ in range(warmup):
        run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


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
                  "learn": ("learn.step", lambda i: 30 * (i % 51))}
PAGE_BUDGET = {"walkthrough": 3.0}  # x floor; every other page 5x (issue 14)


def bench_pages(repeat: int) -> list[tuple]:
    """Every page of the registry: one rerun after a control change, beside a bare Streamlit script's rerun (the floor).

    The machine is noisy, so each round measures the floor and then every page, and a page's ratio is the median over
    rounds of (page rerun / the same round's floor rerun).
    """
    from streamlit.testing.v1 import AppTest

    from scripts.apptest import app_test
    from views.registry import PAGES

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
# The same bare page drawing the app's own heatmap (hover with labels, colour bar, tick labels): what the chart itself
# costs in the browser, apart from the rest of the page.
BARE_APP_CHARTS = """import sys
sys.path.insert(0, {root!r})
import numpy as np
import streamlit as st
from attention_plot import figures
from views.charts import send
d_k = st.slider("d_k (size of each query and key)", 1, 64, 4)
tokens = tuple(f"w{{i}}" for i in range({rows}))
for c in range({charts}):
    matrix = np.sin(np.arange({rows} * (d_k + c)).reshape({rows}, d_k + c) + d_k)
    send(figures.spec(figures.heatmap(matrix, tokens, tuple(str(i + 1) for i in range(d_k + c)), kind="q", title=f"chart {{c}}",
         x_title="dimensions", y_title="tokens", show_values={rows} <= 20, hover_rows="token", hover_cols="dimension")), key=f"c{{c}}")
"""


# The floor for a step change: Previous / Next buttons and one heatmap whose title names the step.
BARE_STEPS = """import streamlit as st
import plotly.graph_objects as go
step = st.session_state.setdefault("step", 3)
def move(by):
    st.session_state.step += by
back, where, forward = st.columns([1, 4, 1])
back.button("Previous", on_click=move, args=(-1,))
where.markdown(f"**Step {step}**")
forward.button("Next", on_click=move, args=(1,))
z = [[float(step * i + j) for j in range(6)] for i in range(6)]
st.plotly_chart(go.Figure(go.Heatmap(z=z, texttemplate="%{z}"), layout=dict(title=dict(text=f"step {step}"))))
"""


def first_heatmap_ms(chromium, url: str, index: int, check: str, page=None) -> float:
    """Time from navigation to the index-th heatmap drawn (``check`` true), in a fresh context unless ``page``."""
    from scripts.browser import wait_for_heatmap

    own = page is None
    context = chromium.new_context(viewport={"width": 1280, "height": 720}) if own else None
    page = context.new_page() if own else page
    start = time.perf_counter()
    page.goto(url)
    wait_for_heatmap(page, index, check)
    elapsed = (time.perf_counter() - start) * 1000
    if own:
        context.close()
    return elapsed


def redraw_ms(page, index: int, steps: int) -> list[float]:
    """Press ArrowRight on the d_k slider ``steps`` times; time until the heatmap's first cell changes."""
    from scripts.browser import wait_for_heatmap

    slider = page.get_by_role("slider", name="d_k (size of each query and key)")
    slider.focus()
    times = []
    for _ in range(steps):
        page.wait_for_timeout(300)  # the last run has settled (every chart drawn)
        before = wait_for_heatmap(page, index, "true")
        start = time.perf_counter()
        slider.press("ArrowRight")
        wait_for_heatmap(page, index, f"h.cols !== {before['cols']} || h.first !== {before['first']!r}")
        times.append((time.perf_counter() - start) * 1000)
    return times


def step_ms(page, button: str, titles: tuple[str, str], steps: int) -> list[float]:
    """Click Next and Previous in turn; time until the first heatmap has the other step's title."""
    from scripts.browser import wait_for_heatmap

    times = []
    for i in range(steps):
        forward = i % 2 == 0
        start = time.perf_counter()
        page.locator(button.format("next" if forward else "previous")).first.click()
        wait_for_heatmap(page, 0, f"h.title.includes({titles[1 if forward else 0]!r})")
        times.append((time.perf_counter() - start) * 1000)
    return times


def bench_browser(repeat: int) -> list[tuple]:
    """In Debian's chromium at 1280 x 720: first visit with an empty cache, slider -> redraw, Next -> redraw, each beside
    the same on a bare Streamlit page in the same run (budgets as ratios, issue 14); and a 40-token sentence (budget 1 s)."""
    import tempfile

    from scripts.browser import browser, serve, wait_for_heatmap

    floors = {}
    with tempfile.TemporaryDirectory() as folder, browser() as chromium:
        bare, steps, chart = Path(folder) / "bare.py", Path(folder) / "steps.py", Path(folder) / "chart.py"
        bare.write_text(BARE_APP)
        steps.write_text(BARE_STEPS)
        for name, charts, rows in (("slider_chart", 1, 6), ("slider_charts40", 13, 40)):
            chart.write_text(BARE_APP_CHARTS.format(root=str(ROOT), charts=charts, rows=rows))
            with serve(str(chart), env=BARE) as url:
                context = chromium.new_context(viewport={"width": 1280, "height": 720})
                page = context.new_page()
                first_heatmap_ms(chromium, url, charts - 1, f"h.rows === {rows}", page)
                floors[name] = redraw_ms(page, charts - 1, repeat)
                context.close()
        with serve(str(bare), env=BARE) as url:
            floors["cold"] = [first_heatmap_ms(chromium, url, 0, "h.rows === 6") for _ in range(repeat + 1)][1:]
            context = chromium.new_context(viewport={"width": 1280, "height": 720})
            page = context.new_page()
            first_heatmap_ms(chromium, url, 0, "h.rows === 6", page)
            floors["slider"] = redraw_ms(page, 0, repeat)
            context.close()
        with serve(str(steps), env=BARE) as url:
            context = chromium.new_context(viewport={"width": 1280, "height": 720})
            page = context.new_page()
            first_heatmap_ms(chromium, url, 0, "h.rows === 6", page)
            floors["next"] = _bare_steps(page, repeat)
            context.close()
        app = {}
        with serve() as url:
            app["cold"] = [first_heatmap_ms(chromium, f"{url}/?step=3&seed={i}", 0, "h.rows === 2") for i in range(repeat + 1)][1:]
            context = chromium.new_context(viewport={"width": 1280, "height": 720})
            page = context.new_page()
            first_heatmap_ms(chromium, f"{url}/?step=3", 0, "h.rows === 2", page)
            app["warm"] = [first_heatmap_ms(chromium, f"{url}/?step=3&seed={i}", 0, "h.rows === 2", page) for i in range(repeat)]
            app["slider"] = redraw_ms(page, 0, repeat)
            page.goto(f"{url}/?step=3&text=the+cat+sat+on+the+mat")
            wait_for_heatmap(page, 0, "h.rows === 6")
            app["next"] = step_ms(page, ".st-key-walk-{} button", ("raw scores", "scaled scores"), repeat)
            page.goto(f"{url}/?step=2")
            wait_for_heatmap(page, 1, "h.rows === 2")
            app["six"] = redraw_ms(page, 1, repeat)
            page.goto(f"{url}/?step=5&text={FORTY_TOKENS.replace(' ', '+')}")
            wait_for_heatmap(page, 0, "h.rows === 40")
            app["slider40"] = redraw_ms(page, 0, repeat)
            page.goto(f"{url}/?step=3&text={FORTY_TOKENS.replace(' ', '+')}")
            wait_for_heatmap(page, 0, "h.rows === 40")
            app["next40"] = step_ms(page, ".st-key-walk-{} button", ("raw scores", "scaled scores"), repeat)
            page.goto(f"{url}/?all=1&heads=4&d_model=16&text={FORTY_TOKENS.replace(' ', '+')}")
            wait_for_heatmap(page, 4, "h.rows === 40")  # Q, after E, PE, X and W_Q
            app["all40"] = redraw_ms(page, 4, repeat)
            context.close()
    median = {name: statistics.median(times) for name, times in (floors | {f"app_{k}": v for k, v in app.items()}).items()}

    def against(name: str, what: str, floor: str, budget: float) -> tuple:
        ratio = median[f"app_{name}"] / median[floor]
        return ratio_row(what, median[f"app_{name}"], ratio, budget, repeat)

    return [
        row("floor: bare Streamlit + 1 Plotly heatmap, first visit (empty cache)", median["cold"], None, repeat),
        row("floor: bare page, slider -> heatmap redrawn", median["slider"], None, repeat),
        row("floor: bare page, Next -> heatmap redrawn", median["next"], None, repeat),
        ratio_row("bare page with the app's heatmap instead, slider -> redrawn", median["slider_chart"],
                  median["slider_chart"] / median["slider"], None, repeat),
        against("cold", "walkthrough: first visit (empty cache) -> first heatmap", "cold", 1.25),
        row("walkthrough: load with a warm cache -> first heatmap", median["app_warm"], None, repeat),
        against("slider", "walkthrough: d_k slider -> heatmap redrawn (step 3, 1 chart)", "slider", 1.3),
        against("next", "walkthrough: Next -> next step's heatmap drawn", "next", 1.5),
        row("walkthrough: d_k slider -> heatmaps redrawn (step 2, 6 charts)", median["app_six"], None, repeat),
        row("40 tokens: d_k slider -> weights redrawn (step 5)", median["app_slider40"], 1000, repeat),
        row("40 tokens: Next -> next step drawn", median["app_next40"], 1000, repeat),
        row("floor: bare page, slider -> 13 of the app's heatmaps of 40 rows redrawn", median["slider_charts40"], None, repeat),
        row(f"40 tokens, 4 heads, all steps (13 of 16 charts change): d_k slider -> redrawn "
            f"({median['app_all40'] / median['slider_charts40']:.1f}x that floor)", median["app_all40"], 1000, repeat),
    ]


def _bare_steps(page, repeat: int) -> list[float]:
    from scripts.browser import wait_for_heatmap

    times = []
    for i in range(repeat):
        forward = i % 2 == 0
        start = time.perf_counter()
        page.get_by_role("button", name="Next" if forward else "Previous").click()
        wait_for_heatmap(page, 0, f"h.title.includes('step {4 if forward else 3}')")
        times.append((time.perf_counter() - start) * 1000)
    return times


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
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE.format(root=str(ROOT))], capture_output=True, text=True, check=True)
    before, after = (float(v) for v in out.stdout.split())
    rows.append(("real model: extra server memory (RSS)", f"{after - before:.0f} MB", "250 MB", "ok" if after - before <= 250 else "OVER", "1"))
    return rows


WORKER_RSS = """
import sys, numpy as np
sys.path.insert(0, {root!r})
from attention_core import TinyConfig
from attention_core.tasks import Trainer
from views.learn import Worker
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
    from views.learn import load_snapshot
    from views.registry import LEARN_TASKS

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


# The charts near the screen drawn, in the browser: the run ended, nothing stale, ``count`` chart elements on the page,
# each one either drawn (with its data) or waiting off the screen (assets/js/charts.js draws it when it comes near), at
# least one drawn, and the drawn ones no longer ``before``. Returns their signature: each one's shape and corner values.
DRAWN_JS = """([count, before]) => {
  const app = document.querySelector('[data-testid=stApp]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-stale=true], [data-testid=stSkeleton], [data-testid=stSkeletonElement]')) return false;
  const boxes = [...document.querySelectorAll('[data-testid=stPlotlyChart]')];
  if (boxes.length !== count) return false;
  const drawn = boxes.filter(b => !b.querySelector('[data-waiting]')).map(b => b.querySelector('.js-plotly-plot'));
  if (!drawn.length || drawn.some(p => !p || !p.calcdata || !p._fullLayout)) return false;
  const sign = drawn.map(p => { const z = p.calcdata[0][0].z;
    return [z.length, z[0].length, z[0][0], z[z.length - 1][z[0].length - 1]].join('|'); }).join(' ');
  return sign !== before ? sign : false;
}"""
STATE_JS = """() => [document.querySelector('[data-testid=stApp]').getAttribute('data-test-script-state'),
  [...document.querySelectorAll('[data-stale=true], [data-testid=stSkeleton], [data-testid=stSkeletonElement]')].map(e => e.outerHTML.slice(0, 200)),
  ...[...document.querySelectorAll('[data-testid=stPlotlyChart]')].map(b => [Math.round(b.getBoundingClientRect().top),
  !!b.querySelector('[data-waiting]'), !!b.querySelector('.js-plotly-plot')])]"""
COUNT_JS = "() => document.querySelectorAll('[data-testid=stPlotlyChart]').length"
SIGN_JS = "() => (" + DRAWN_JS + ")([document.querySelectorAll('[data-testid=stPlotlyChart]').length, ''])"
BARE = {"ATTENTION_PAGE_SCRIPTS": "0"}  # a floor is Streamlit's own page, without the app's scripts (scripts/paths.py)


def sentence(n: int) -> str:
    words = ("the students watched how every word of a long sentence looks at all the others " * 4).split()
    return "+".join(words[:n])


def settled(page) -> int:
    """Wait until the page's run has ended and a chart is drawn, and stays so; the number of charts on the page."""
    ended = "() => document.querySelector('[data-testid=stApp]')?.getAttribute('data-test-script-state') === 'notRunning'"
    page.wait_for_function(f"() => ({ended})() && document.querySelector('.js-plotly-plot')", timeout=60_000)
    page.wait_for_timeout(1500)
    page.wait_for_function(ended, timeout=60_000)
    return page.evaluate(COUNT_JS)


def drawn_ms(page, act: Callable[[], object], count: int, before: str = "") -> float:
    """Time from ``act`` until the run ended and the ``count`` charts' ones on screen are drawn (no longer ``before``)."""
    start = time.perf_counter()
    act()
    try:
        page.wait_for_function(DRAWN_JS, arg=[count, before], timeout=60_000, polling=20)
    except Exception:
        print(f"never drawn ({count} charts, before {before!r}); the run, stale, the charts (top, waiting, drawn):", page.evaluate(STATE_JS),
              file=sys.stderr)
        raise
    return (time.perf_counter() - start) * 1000


def bench_heavy(repeat: int) -> list[tuple]:
    """Issue 21, item 5, in chromium at 1280 x 720 with a warm browser cache: the heaviest walkthrough views.

    Each figure runs until every chart of the page is drawn, not only the first; each run uses another seed, so the
    server computes and draws new matrices (no cached heatmap)."""
    import tempfile

    from scripts.browser import browser, serve

    rows = []
    with tempfile.TemporaryDirectory() as folder, browser() as chromium:
        bare = Path(folder) / "bare.py"
        bare.write_text(BARE_APP)
        with serve(str(bare), env=BARE) as url:  # the floor: a bare Streamlit page (1 slider, 1 heatmap) opened with a warm cache
            page = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
            page.goto(url)
            page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length === 1", timeout=60_000)
            floor_open = statistics.median(drawn_ms(page, lambda address=f"{url}/?i={i}": page.goto(address), 1) for i in range(repeat))
            page.context.close()
        charts = Path(folder) / "charts.py"
        charts.write_text(BARE_APP_CHARTS.format(root=str(ROOT), charts=16, rows=40))
        with serve(str(charts), env=BARE) as url:  # the floor: a bare page with 16 of the app's heatmaps, slider -> redrawn
            page = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
            page.goto(url)
            page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length === 16", timeout=60_000)
            page.wait_for_timeout(2000)
            slider = page.get_by_role("slider", name="d_k (size of each query and key)")
            slider.focus()
            floor_charts = []
            for _ in range(repeat):
                page.wait_for_timeout(300)
                before = page.evaluate(SIGN_JS)
                floor_charts.append(drawn_ms(page, lambda: slider.press("ArrowRight"), 16, before))
            floor_charts = statistics.median(floor_charts)
            page.context.close()
        rows += [row("floor: bare Streamlit page (1 slider, 1 heatmap), open with a warm cache -> drawn", floor_open, None, repeat),
                 row("floor: bare page with 16 of the app's heatmaps of 40 rows, slider -> all redrawn", floor_charts, None, repeat)]
    with browser() as chromium, serve() as url:
        page = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
        for n, heads, d_model, label in ((40, 4, 16, "40 tokens, 4 heads"), (48, 8, 64, "48 tokens, 8 heads")):
            base = f"{url}/?text={sentence(n)}&heads={heads}&d_model={d_model}&d_k={d_model // heads}"
            page.goto(f"{base}&step=3&seed=999")
            one = settled(page)
            page.goto(f"{base}&all=1&seed=998")
            every = settled(page)
            waiting = page.evaluate("() => document.querySelectorAll('[data-waiting]').length")
            opened, shown, moved, scrolled = [], [], [], []
            for i in range(repeat):
                opened.append(drawn_ms(page, lambda address=f"{base}&step=3&seed={100 + i}": page.goto(address), one))
                toggle = page.locator(".st-key-walkthrough-all label").first
                shown.append(drawn_ms(page, toggle.click, every))
                if i == 0:  # the first open of the tab may draw every chart (the lazy script came late): count after the toggle
                    waiting = page.evaluate("() => document.querySelectorAll('[data-waiting]').length")
                page.wait_for_timeout(300)  # Q, K and V on screen, as a student looks at them while moving d_k
                drawn_ms(page, lambda: page.evaluate("document.querySelector('.st-key-step-qkv').scrollIntoView()"), every, page.evaluate(SIGN_JS))
                page.wait_for_timeout(300)
                before = page.evaluate(SIGN_JS)
                slider = page.get_by_role("slider", name="d_k (size of each query and key)")
                slider.focus()
                moved.append(drawn_ms(page, lambda s=slider: s.press("ArrowLeft"), every, before))
                page.wait_for_timeout(300)
                before = page.evaluate(SIGN_JS)
                scrolled.append(drawn_ms(page, lambda: page.evaluate("document.querySelector('.st-key-step-heads').scrollIntoView()"), every,
                                         before))
            budget = 1000 if n == 40 else 2000
            median = statistics.median
            rows += [row(f"{label}: open a link at step 3 -> its {one} chart drawn ({median(opened) / floor_open:.1f}x the bare "
                         "page's open)", median(opened), budget, repeat),
                     row(f"{label}: Show all steps -> the charts near the screen drawn, {every - waiting} of {every} "
                         f"({median(shown) / floor_charts:.2f}x "
                         "16 bare heatmaps redrawn)", median(shown), budget, repeat),
                     row(f"{label}, all steps, at Q, K, V: d_k slider -> the charts near the screen redrawn ({median(moved) / floor_charts:.2f}x 16 "
                         "bare heatmaps)", median(moved), budget, repeat),
                     row(f"{label}, all steps: scroll to the last step -> its charts drawn", median(scrolled), budget, repeat)]
    return rows


def print_table(rows: list[tuple]) -> None:
    header = ("what", "measured", "budget", "", "runs")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(5)]
    for r in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(r, widths)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure (the median is printed)")
    parser.add_argument("--only", choices=["core", "model", "learn", "pages", "browser", "heavy"], action="append")
    args = parser.parse_args()
    sections = {"core": bench_core, "model": bench_model, "learn": bench_learn, "pages": bench_pages, "browser": bench_browser,
                "heavy": bench_heavy}
    rows = []
    for name in args.only or sections:
        rows += sections[name](args.repeat)
    print_table(rows)


if __name__ == "__main__":
    main()
