"""The "Watch it learn" page's sections: watch a default run, the decoder at work, train it yourself, the √d_k
experiment. Every number comes from ``attention_core`` (live) or from its snapshots (``make snapshots``)."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from attention_core import Task, TinyConfig, tiny_forward
from attention_core.tasks import Run, named_task
from attention_core.tiny import generate
from attention_plot import figures
from attention_plot.text import Texts
from views.learn import data
from views.shell import state
from views.shell.page import Layout, View
from views.shell.registry import LAST_STEP
from views.widgets import snapshots, steps
from views.widgets.charts import chart, show
from views.widgets.tables import named_table

TRAINED = "learn.trained"  # session key: the last live training (data.Trained)


def on_task_change(view: View) -> None:
    """A new task: its run from the end, and its own example prompt (another task's prompt is not in its alphabet)."""
    view.set("step", LAST_STEP)
    view.set("prompt", view.T(f"learn.prompts.{view['task']}"))


def symbols(task: Task, ids: NDArray) -> tuple[str, ...]:
    """How each token is shown on an axis: its symbol, a space as ␣."""
    return tuple("␣" if task.symbols[int(i)] == " " else task.symbols[int(i)] for i in ids)


def head_names(run: Run, T: Texts) -> tuple[str, ...]:
    layers, heads = run.closeness.shape[1:]
    return tuple(T("learn.head_name", layer=layer + 1, head=head + 1) for layer in range(layers) for head in range(heads))


def pattern_name(task_name: str, layers: int, layer: int, T: Texts) -> str | None:
    """The name of the pattern a head in ``layer`` (0-based) is scored against, or None (no pattern for that layer)."""
    which = layers - 1 - layer  # the task's patterns are listed from the last layer down
    names = T.get(f"learn.tasks.{task_name}.patterns")
    return names[which] if which < len(names) else None


def curves(run: Run, step: int | None, T: Texts, key: str) -> None:
    """Loss and accuracy against the training step, side by side; a dotted line at ``step``."""
    mark = () if step is None else (step,)
    left, right = st.columns(2)
    with left:
        blown_up = bool(np.nanmax(run.loss) > 100 * np.nanmin(run.loss))  # a linear axis would flatten the rest to 0
        show(figures.lines(run.steps, run.loss[None], (T("learn.loss"),), title=T("learn.loss_title"), x_title=T("learn.step"),
                           y_title="", mark_x=mark, log_y=blown_up), key=f"{key}-loss")
    with right:
        show(figures.lines(run.steps, run.accuracy[None], (T("learn.accuracy"),), title=T("learn.accuracy_title"),
                           x_title=T("learn.step"), y_title="", mark_x=mark, y_range=(0, 1.02)), key=f"{key}-accuracy")


def closeness_curves(run: Run, task_name: str, step: int | None, T: Texts, key: str) -> None:
    flat = run.closeness.reshape(len(run.steps), -1).T  # (heads over layers, S)
    scored = ~np.isnan(flat).all(axis=1)
    if scored.any():
        show(figures.lines(run.steps, flat[scored], tuple(np.array(head_names(run, T))[scored]), title=T("learn.closeness_title"),
                           x_title=T("learn.step"), y_title="", mark_x=() if step is None else (step,), y_range=(0, 1.02)),
             key=f"{key}-closeness")


HALF_WIDTH_VALUES = 8  # tokens up to which a half-width chart has room for the numbers in its cells
FULL_WIDTH_VALUES = 12


def attention_grid(weights: NDArray, closeness: NDArray, labels: tuple[str, ...], task_name: str, T: Texts, view: View,
                   key: str) -> None:
    """Every head's attention (layers, H, n, n) on the probe, two charts a row, each titled with its closeness."""
    layers, heads = weights.shape[:2]
    per_row = min(heads, 2)
    values = len(labels) <= (FULL_WIDTH_VALUES if per_row == 1 else HALF_WIDTH_VALUES)
    for layer in range(layers):
        pattern = pattern_name(task_name, layers, layer, T)
        for first in range(0, heads, per_row):
            columns = st.columns(per_row)
            for column, head in zip(columns, range(first, min(first + per_row, heads))):
                near = closeness[layer, head]
                title = T("learn.head_title", layer=layer + 1, head=head + 1)
                if pattern is not None and np.isfinite(near):
                    title += T("learn.head_closeness", closeness=f"{near:.2f}", pattern=pattern)
                with column:
                    chart(weights[layer, head], labels, labels, kind="weights", title=title, key=f"{key}-{layer}-{head}",
                          values=values, rows_are="query", cols_are="key")


# 1. Watch a default run

def watch(view: View, task_name: str) -> None:
    """The default run's snapshots in the step component: every head's attention at every watched step, sent once
    (0.1–0.9 MB a task); the browser scrubs through them (← / →, or the list of steps) and keeps the step in the link."""
    T = view.T
    snap = snapshots.snapshot(task_name)
    run, task = snap.run, named_task(task_name)
    at = data.nearest(run.steps, view["step"])
    if view.layout.explains:
        st.markdown(T("learn.watch.probe", probe=" ".join(symbols(task, run.probe))))
    parts = watch_parts(task_name, view.layout, T.lang)
    view_now = {"step": at + 1, "head": 1, "focus": 1, "values": parts[0]["values"], "all": False, "predict": False}
    steps.show(steps.assemble(parts, token=state.view_token(view.page.id), view=view_now), key="learn-steps")
    st.subheader(T("learn.headings.curves"))
    curves(run, None, T, "watch")
    st.subheader(T("learn.headings.closeness"))
    closeness_curves(run, task_name, None, T, "watch")
    if view.layout.explains:
        st.markdown(found(run, task_name, T))
        ideal = task.ideal(run.probe)
        labels = symbols(task, run.probe[:-1])
        with st.expander(T("learn.watch.ideal_title")):
            st.markdown(T("learn.watch.ideal_intro"))
            columns = st.columns(len(ideal))
            for column, pattern, name in zip(columns, ideal, T.get(f"learn.tasks.{task_name}.patterns")):
                with column:
                    chart(pattern, labels, labels, kind="weights", title=name, key=f"ideal-{name}", values=False,
                          rows_are="query", cols_are="key")
        st.caption(T("learn.watch.settings", **describe(snap.settings)))


@functools.lru_cache(maxsize=32)
def watch_parts(task_name: str, layout: Layout, lang: str) -> tuple:
    """Every watched step of the task's shipped run as a step of the component: its loss and accuracy, and every head's
    attention on the probe (titled with its closeness to its layer's pattern), shared by every session
    (``steps.Pack.parts``). The link says the training step itself (``url_values``)."""
    T = Texts(lang)
    run, task = snapshots.snapshot(task_name).run, named_task(task_name)
    labels = symbols(task, run.probe[:-1])
    watched = [int(s) for s in run.steps]
    layers, heads = run.weights.shape[1:3]
    values = len(labels) <= (FULL_WIDTH_VALUES if min(heads, 2) == 1 else HALF_WIDTH_VALUES)
    pack = steps.Pack(T)
    pack.header.update(page="learn", id=f"learn-{task_name}", variant=task_name, layout=layout.name, font=layout.chart_font,
                       lang=lang, texts=steps.component_texts(T, lang) | {"step_of": T("learn.watch.step_of"), "steps": T("learn.watch.step")},
                       csv=f"attention-learn-{task_name}", url={"step": "step"}, url_values={"step": [str(s) for s in watched]},
                       heads=1, tokens=[], keys=[], focus=None, enter={"step": len(watched)},  # another task opens at its end
                       values=values)
    entries = []
    for at, step in enumerate(watched):
        blocks = []
        for layer in range(layers):
            pattern = pattern_name(task_name, layers, layer, T)
            row = []
            for head in range(heads):
                near = run.closeness[at, layer, head]
                title = T("learn.head_title", layer=layer + 1, head=head + 1)
                if pattern is not None and np.isfinite(near):
                    title += T("learn.head_closeness", closeness=f"{near:.2f}", pattern=pattern)
                id_ = f"s{at}-l{layer}-h{head}"
                pack.matrix(id_, run.weights[at, layer, head], labels, labels, title=title, kind="weights", rows_are="query",
                            cols_are="key")
                row.append({"type": "matrix", "matrix": id_, "per_head": False, "hide": False})
            for first in range(0, len(row), 2):
                blocks.append({"type": "row", "children": row[first:first + 2]} if heads > 1 else row[first])
        status = T("learn.watch.status", step=step, loss=f"{run.loss[at]:.3f}", accuracy=f"{run.accuracy[at]:.0%}", total=watched[-1])
        entries.append({"id": f"step-{step}", "title": T("learn.watch.step_title", step=step, loss=f"{run.loss[at]:.3f}",
                                                          accuracy=f"{run.accuracy[at]:.0%}"),
                        "badge": T("learn.watch.step"), "body": steps.markdown(status), "blocks": blocks})
    pack.header["steps"] = entries
    return pack.parts()


def found(run: Run, task_name: str, T: Texts) -> str:
    """What the run found, in words chosen by its numbers: per scored layer, whether one head passed one half of its
    weight on the ideal pattern (and when), or the heads share the work; then the task's closing sentence."""
    values = {"loss_0": f"{run.loss[0]:.2f}", "loss": f"{run.loss[-1]:.2f}", "accuracy": f"{run.accuracy[-1]:.0%}"}
    layers = run.closeness.shape[1]
    sentences = []
    for layer in range(layers):
        near = run.closeness[:, layer]  # (S, H)
        pattern = pattern_name(task_name, layers, layer, T)
        if pattern is None or np.isnan(near).all():
            continue
        head = int(np.nanargmax(near[-1]))
        below = np.nonzero(near[:, head] < 0.5)[0]
        passed = np.nonzero((near[:, head] >= 0.5) & (np.arange(len(run.steps)) > (below[0] if below.size else -1)))[0]
        kind = "formed" if near[-1, head] >= 0.5 else "shared" if np.nansum(near[-1]) >= 0.5 else "none"
        if kind == "formed" and near[0, head] >= 0.5:
            kind = "formed_start"  # a random head already puts half its weight there (few keys to choose from)
        values[f"passed_{layer + 1}"] = str(int(run.steps[passed[0]])) if passed.size else "—"
        sentences.append(T(f"learn.found.{kind}", head=T("learn.head_name", layer=layer + 1, head=head + 1), pattern=pattern,
                           closeness=f"{near[-1, head]:.2f}", together=f"{np.nansum(near[-1]):.2f}", start=f"{near[0, head]:.2f}",
                           passed=values[f"passed_{layer + 1}"]))
    return " ".join([*sentences, T(f"learn.tasks.{task_name}.found", **values)])


def describe(settings: dict) -> dict[str, object]:
    config = settings["config"]
    return {"d_model": config["d_model"], "heads": config["heads"], "layers": config["layers"], "steps": settings["steps"],
            "lr": f"{settings['lr']:g}", "batch": settings["batch"], "seed": settings["seed"]}


# 2. The decoder at work

def decode(view: View, task_name: str) -> None:
    """The decoder at work on the shipped model of ``task_name``: one layer and head's masked scores and weights over the
    prompt and what it generates (n, n; rows = queries; the causal mask as its own stage, checked against the rows the
    key-value cache produced), the next token's probabilities (vocab,) with temperature and top-k, and generation one
    token at a time from the cache, each new token with its probability and the cache's size."""
    T = view.T
    snap, task = snapshots.snapshot(task_name), named_task(task_name)
    config = snap.config
    text = view.widget("prompt", T("learn.decode.prompt"))
    st.caption(T("learn.decode.alphabet", symbols=" ".join(symbols(task, range(task.vocab))), context=config.context))
    # Every control is drawn on every run, whatever the prompt: a control left out of a run loses its value.
    columns = st.columns(5)
    temperature = view.widget("temperature", T("learn.decode.temperature"), into=columns[0], help=T("learn.decode.temperature_help"))
    view.clamp("top_k", 0, task.vocab)
    top_k = view.widget("top_k", T("learn.decode.top_k"), into=columns[1], hi=task.vocab, help=T("learn.decode.top_k_help"))
    view.clamp("generate", 0, config.context - 1)
    wanted = view.widget("generate", T("learn.decode.generate"), into=columns[2], hi=config.context - 1,
                         help=T("learn.decode.generate_help", context=config.context))
    view.clamp("head", 1, config.heads)
    head = view.widget("head", T("learn.decode.head"), into=columns[3], style="segmented_control", hi=config.heads)
    view.clamp("layer", 1, config.layers)
    layer = view.widget("layer", T("learn.decode.layer"), into=columns[4], style="segmented_control", hi=config.layers)
    bad = task.unknown(text)
    if bad is not None:
        shown = figures.plain(bad) if bad.isprintable() else f"U+{ord(bad):04X}"  # a tab or a control character, named
        st.error(T("learn.decode.unknown", char=shown), icon=":material/error:")
        return
    prompt = task.encode(text)
    if prompt.size == 0:
        st.info(T("learn.decode.empty"), icon=":material/edit:")
        return
    if prompt.size > config.context:
        st.warning(T("learn.decode.cut", n=prompt.size, context=config.context), icon=":material/content_cut:")
        prompt = prompt[-config.context:]
    room = config.context - prompt.size
    new = min(wanted, room)
    if new < wanted:
        st.caption(T("learn.decode.room" if room else "learn.decode.no_room", wanted=wanted, room=room, context=config.context))
    gen = generate(snap.params, prompt, new, temperature, top_k, view.settings.seed)
    labels = symbols(task, gen.tokens)
    trace = tiny_forward(snap.params, gen.tokens)
    scores, weights = trace.layers[layer - 1].masked_scores[0, head - 1], trace.layers[layer - 1].weights[0, head - 1]

    st.subheader(T("learn.decode.mask_title"))
    if view.layout.explains:
        st.markdown(T("learn.decode.mask_intro"))
    left, right = st.columns(2)
    with left:
        chart(scores, labels, labels, kind="signed", title=T("learn.decode.scores", layer=layer, head=head), key="decode-scores",
              values=len(labels) <= HALF_WIDTH_VALUES, rows_are="query", cols_are="key", decimals=1)
    with right:
        chart(weights, labels, labels, kind="weights", title=T("learn.decode.weights", layer=layer, head=head),
              key="decode-weights", values=len(labels) <= HALF_WIDTH_VALUES, rows_are="query", cols_are="key")
    above = np.triu(np.ones_like(weights, dtype=bool), k=1)
    cached = gen.rows[layer - 1][head - 1]
    st.caption(T("learn.decode.mask_check", masked=int(above.sum()), largest=f"{weights[above].max(initial=0.0):g}",
                 difference=f"{np.abs(cached - weights).max():.1e}"))

    st.subheader(T("learn.decode.next_title"))
    p = gen.probabilities[0]
    show(figures.bars(p, symbols(task, range(task.vocab)), title=T("learn.decode.next", prompt=task.decode(prompt),
                                                                    temperature=f"{temperature:g}", top_k=top_k or T("learn.decode.all")),
                      y_title=T("learn.decode.probability")), key="decode-next")
    if view.layout.explains:
        st.markdown(T("learn.decode.next_intro"))

    st.subheader(T("learn.decode.generation_title"))
    generated = "".join(labels[gen.prompt:])  # spaces as ␣, so that the bold text keeps its ends
    st.markdown(T("learn.decode.generated", prompt=figures.plain("".join(labels[:gen.prompt])), generated=figures.plain(generated) or "—"))
    if view.layout.explains:
        st.markdown(T("learn.decode.generation_intro"))
    first = gen.prompt - 1  # the prompt's last row predicted the first new token
    chart(cached[first:], labels[first:], labels, kind="weights", title=T("learn.decode.rows", layer=layer, head=head),
          key="decode-rows", values=len(labels) <= FULL_WIDTH_VALUES, rows_are="query", cols_are="key")
    rows = []
    for i in range(gen.prompt, len(gen.tokens)):
        chosen = int(gen.tokens[i])
        rows.append({T("learn.decode.position"): str(i + 1), T("learn.decode.token"): labels[i],
                     T("learn.decode.probability"): f"{gen.probabilities[i - gen.prompt][chosen]:.3f}",
                     T("learn.decode.cache_kb"): f"{gen.cache_bytes[i] / 1024:.2f}"})
    if rows:
        named_table(pd.DataFrame(rows), T("learn.decode.table"), numbers=[T("learn.decode.probability"), T("learn.decode.cache_kb")])
    per_token = gen.cache_bytes[0]
    st.caption(T("learn.decode.cache", per_token=per_token, layers=config.layers, heads=config.heads, d_k=config.d_k,
                 total=f"{gen.cache_bytes[-1] / 1024:.1f}", n=len(gen.tokens)))


# 3. Train it yourself

def train(view: View, task_name: str) -> None:
    """Train it yourself: the task's model with the student's heads, d_k (d_model = heads x d_k), learning rate, steps and
    scaling, trained live in a worker process (at most ``data.MAX_SECONDS``; ``data.MAX_TRAININGS`` at once, else a queue)
    with a progress bar beside the button; then, for the settings it was trained with only, its result against the
    shipped run's, the trained heads' attention, the loss and accuracy curves and each head's closeness to the ideal."""
    T = view.T
    snap, task = snapshots.snapshot(task_name), named_task(task_name)
    columns = st.columns(5)
    heads = view.widget("heads", T("learn.train.heads"), into=columns[0])
    d_k = view.widget("d_k", T("learn.train.d_k"), into=columns[1])
    lr = view.widget("lr", T("learn.train.lr"), into=columns[2], format_func=lambda v: f"{v:g}")
    steps = view.widget("steps", T("learn.train.steps"), into=columns[3])
    scaled = view.widget("scaled", T("learn.train.scaled"), into=columns[4])
    config = TinyConfig(vocab=task.vocab, context=task.length, d_model=heads * d_k, heads=heads, layers=snap.config.layers,
                        scaled=scaled)
    settings = (task_name, config, steps, lr, view.settings.seed)
    button, status = st.columns([1, 5], vertical_alignment="center")  # the progress beside the button, in sight on a projector
    clicked = button.button(T("learn.train.start"), icon=":material/play_arrow:", type="primary", key="learn-train")
    st.caption(T("learn.train.model", d_model=config.d_model, layers=config.layers, parameters=f"{config.parameter_count:,}",
                 seconds=f"{data.MAX_SECONDS:.0f}", trainings=data.MAX_TRAININGS))
    trained: data.Trained | None = st.session_state.get(TRAINED)
    if not clicked and (trained is None or trained.settings != settings):
        status.caption(T("learn.train.press" if trained is None else "learn.train.changed"))
    if clicked:
        with status:
            bar = st.progress(0.0, text=T("learn.train.starting"))
            waiting = st.empty()

        def progress(done: int, total: int) -> None:
            waiting.empty()  # a queued training has started
            bar.progress(done / total, text=T("learn.train.progress", done=done, total=total))

        def queued() -> None:
            waiting.info(T("learn.train.queued", trainings=data.MAX_TRAININGS), icon=":material/hourglass_top:")

        result = data.train_live(task_name, config, steps, lr, view.settings.seed, progress=progress, queued=queued)
        waiting.empty()
        bar.empty()
        if result is None:
            st.warning(T("learn.train.busy"), icon=":material/hourglass_disabled:")
        else:
            st.session_state[TRAINED] = result
    trained = st.session_state.get(TRAINED)
    if trained is None or trained.settings != settings:
        return
    run = trained.run
    last = int(run.steps[-1])
    st.success(T("learn.train.done", steps=last, seconds=f"{trained.seconds:.1f}", loss=f"{run.loss[-1]:.3f}",
                 accuracy=f"{run.accuracy[-1]:.0%}", default_loss=f"{snap.run.loss[-1]:.3f}",
                 default_accuracy=f"{snap.run.accuracy[-1]:.0%}"), icon=":material/check_circle:")
    if trained.stopped_early:
        st.warning(T("learn.train.stopped", steps=last, seconds=f"{data.MAX_SECONDS:.0f}"), icon=":material/timer:")
    trouble = instability(run)
    if trouble:
        st.warning(T(f"learn.train.{trouble}", start=f"{run.loss[0]:.2f}", peak=f"{np.nanmax(run.loss):.1f}", end=f"{run.loss[-1]:.2f}"),
                   icon=":material/trending_up:")
    st.subheader(T("learn.headings.trained"))
    attention_grid(run.weights[-1], run.closeness[-1], symbols(task, run.probe[:-1]), task_name, T, view, "trained")
    st.subheader(T("learn.headings.curves"))
    curves(run, None, T, "trained")
    st.subheader(T("learn.headings.closeness"))
    closeness_curves(run, task_name, None, T, "trained")


def instability(run: Run) -> str | None:
    """"diverged" when the loss is not finite or ended above where it started; "unstable" when it went past twice its
    start on the way but ended lower; None otherwise."""
    loss = run.loss
    if not np.isfinite(loss).all() or loss[-1] > loss[0]:
        return "diverged"
    return "unstable" if np.max(loss) > 2 * loss[0] else None


# 4. The √d_k experiment

SCALED_RAW = (figures.SCALED_COLOUR, figures.RAW_COLOUR)


def scaling_section(view: View) -> None:
    T = view.T
    result = snapshots.scaling()
    settings = result.settings
    if view.layout.explains:
        st.markdown(T("learn.scaling.intro", task=T(f"learn.tasks.{settings['task']}.name"), steps=settings["steps"],
                      seeds=len(settings["seeds"]), lr=f"{settings['lr']:g}", batch=settings["batch"]))
    st.markdown(f"**{snapshots.scaling_summary(T)}**")
    names = (T("learn.scaling.scaled"), T("learn.scaling.raw"))  # scaled in blue, raw in vermillion, as on the scaling lab
    st.subheader(T("learn.headings.loss"), anchor="scaling-loss")
    columns = st.columns(2)
    for d, d_k in enumerate(result.d_k):
        with columns[d % 2]:
            show(figures.lines(result.steps, result.loss[d].mean(axis=1), names, title=T("learn.scaling.loss_title", d_k=int(d_k)),
                               x_title=T("learn.step"), y_title="", colours=SCALED_RAW), key=f"scaling-loss-{d_k}")
    st.subheader(T("learn.headings.gradients"), anchor="scaling-gradients")
    show(figures.lines(result.d_k, result.score_gradient[..., 0].mean(axis=-1).T, names, title=T("learn.scaling.gradient_title"),
                       x_title="d_k", y_title="", log_x=True, log_y=True, markers=True, log_ticks="auto", colours=SCALED_RAW),
         key="scaling-gradient")
    columns = st.columns(2)
    for column, d in zip(columns, (0, result.d_k.size - 1)):
        with column:
            show(figures.lines(result.steps, result.score_gradient[d].mean(axis=1), names, log_y=True, x_title=T("learn.step"),
                               y_title="", title=T("learn.scaling.gradient_training", d_k=int(result.d_k[d])), colours=SCALED_RAW),
                 key=f"scaling-gradient-{int(result.d_k[d])}")
    st.subheader(T("learn.headings.table"), anchor="scaling-table")
    st.table(snapshots.scaling_table(T), hide_index=True)
    if view.layout.explains:
        st.markdown(T("learn.scaling.reading"))
