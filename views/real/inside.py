"""The real model opened up (the real-model page's sections after its heads): one layer stage by stage, weights beside
the vectors they move, sinks, four measures of a word's importance, trained beside untrained, and √d_k on real heads.
Every number comes from attention_core.inside."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import inside
from attention_core.pretrained import SPECIAL_TOKENS, MiniLM, RealTrace, head_summary, kept_share
from attention_plot import figures, plot
from attention_plot.figures import label
from views.shell.page import View
from views.widgets import model as real
from views.widgets.charts import chart, dims, show
from views.widgets.tables import named_table

SNAPSHOT = Path(__file__).resolve().parents[2] / "assets" / "snapshots" / "importance.json"
SHARES = ("cls", "sep", "punctuation")
ROLES = ("previous", "next", "self", "cls", "sep")
COLOURS = {"x": "#555555", "attention": "#0072B2", "ffn": "#D55E00"}  # one quantity, one colour, on every chart here
MIN_RANKED = 3  # with two words a rank correlation can only be +1 or -1: no measure is compared below three
MEASURE_COLOURS = {"leave_one_out": "#000000", "attention": "#0072B2", "rollout": "#E69F00", "flow": "#009E73"}


def pick_layer(view: View, into=st) -> int:
    """The layer (0-based), from a button for each of the model's layers."""
    return view.widget("layer", view.T("real.layer"), into=into, style="segmented_control") - 1


def pick_head(view: View, into=st) -> int:
    """The head (0-based), on a slider over the layer's heads."""
    return view.widget("head", view.T("real.head"), into=into, style="select_slider") - 1


def shown_weights(weights: np.ndarray, tokens: tuple[str, ...], hide: bool) -> tuple[np.ndarray, tuple[str, ...]]:
    """The weights as the page draws them: all, or [CLS] and [SEP] hidden with every row renormalised to sum to 1."""
    if not hide:
        return weights, tokens
    kept, rest = inside.without_specials(weights, tokens)
    return rest, tuple(tokens[i] for i in kept)


LITTLE_KEPT = 0.25  # a row that kept less than this share of its weight after hiding [CLS] and [SEP] is named


def hide_note(T, weights: np.ndarray, tokens: tuple[str, ...]) -> None:
    """Under the hide switch: which rows kept little of their weight once [CLS] and [SEP] were hidden, so their
    renormalised pattern enlarges a remainder (a row with 2 % left is multiplied by 50)."""
    kept, share = kept_share(weights, tokens)
    little = [i for i, s in zip(kept, share) if s < LITTLE_KEPT]
    if not little:
        st.caption(T("inside.hide.fine", least=f"{share.min():.0%}"))
        return
    least = kept[int(np.argmin(share))]
    st.caption(T("inside.hide.little", count=len(little), rows=len(kept), below=f"{LITTLE_KEPT:.0%}", least=f"{share.min():.1%}",
                 token=f"{least} · {figures.plain(tokens[least])}", factor=f"{1 / max(share.min(), 1e-9):,.0f}"))


@st.cache_resource(max_entries=32, show_spinner=False)
def stages_of(_model: MiniLM, folder: str, text: str, layer: int) -> inside.LayerStages:
    return inside.layer_stages(_model, real.run(_model, folder, text).inputs[layer], layer)


# --- One layer, end to end ---


def grouped_bars(values: dict[str, np.ndarray], names: dict[str, str], colours: dict[str, str], labels: tuple[str, ...], *,
                 title: str, y_title: str) -> figures.Figure:
    """One group of bars per label (a token, a word), one bar per entry of ``values``, each in its own colour."""
    x = [f"{i + 1} {label(t)}" for i, t in enumerate(labels)]  # positions keep a repeated word apart
    traces = [dict(type="bar", name=names[key], x=x, y=np.asarray(series), marker=dict(color=colours[key]),
                   hovertemplate="%{x}: %{y:.3f}<extra>" + names[key] + "</extra>") for key, series in values.items()]
    layout = dict(title=dict(text=title, font=dict(size=14), x=0, xref="paper"), barmode="group", height=400,
                  margin=dict(l=10, r=10, t=110, b=10), yaxis=dict(title=dict(text=y_title)),  # room for a legend in two rows
                  legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"))
    return {"data": traces, "layout": layout}


def norm_bars(norms: dict[str, np.ndarray], tokens: tuple[str, ...], T) -> figures.Figure:
    """Per token, three bars: ‖x‖, what attention adds, what the feed-forward part adds."""
    return grouped_bars(norms, {name: T(f"inside.layer.norm_{name}") for name in norms}, COLOURS, tokens,
                        title=T("inside.layer.norms_title"), y_title=T("inside.layer.norm_axis"))


def layer_section(view: View, model: MiniLM, trace: RealTrace, text: str) -> None:
    T = view.T
    layer = pick_layer(view)
    stages = stages_of(model, str(model.folder), text, layer)
    norms = stages.norms
    stage = view.widget("stage", T("inside.layer.stage"), style="segmented_control", format_func=lambda s: T(f"inside.layer.stages.s{s}.name"))
    st.subheader(T(f"inside.layer.stages.s{stage}.title", layer=layer + 1))
    if view.layout.explains:
        st.markdown(T(f"inside.layer.stages.s{stage}.body"))
    st.latex(T(f"inside.layer.stages.s{stage}.formula"))
    matrix = (stages.x, stages.attention, stages.after_attention, stages.ffn, stages.output)[stage - 1]
    chart(matrix, trace.tokens, dims(matrix.shape[1]), kind="signed", title=T(f"inside.layer.stages.s{stage}.matrix", layer=layer + 1),
          key="layer-stage", values=False)
    if stage == 4:
        st.caption(T("inside.layer.hidden", d_ff=stages.hidden.shape[1], zero=f"{(stages.hidden <= 0).mean():.0%}"))
    show(norm_bars(norms, trace.tokens, T), key="layer-norms",
         alt=T("inside.layer.norms_alt", n=len(trace.tokens), x=f"{norms['x'].mean():.2f}", attention=f"{norms['attention'].mean():.2f}",
               ffn=f"{norms['ffn'].mean():.2f}"))
    share = stages.attention_share
    x, a, f = (float(norms[name].mean()) for name in ("x", "attention", "ffn"))
    st.markdown(T("inside.layer.share", layer=layer + 1, attention=f"{share:.0%}", ffn=f"{1 - share:.0%}", x=f"{x:.2f}", a=f"{a:.2f}",
                  f=f"{f:.2f}", ra=f"{a / x:.0%}", rf=f"{f / x:.0%}"))
    words = [i for i, token in enumerate(trace.tokens) if token not in SPECIAL_TOKENS]
    if words:  # [CLS]'s feed-forward update is tens of times the others' in the first layers: the words' share too
        ffn_norms = norms["ffn"]
        word_share = stages.share_over(words)
        st.markdown(T("inside.layer.share_words", cls_f=f"{ffn_norms[0]:.1f}", median_f=f"{np.median(ffn_norms[words]):.1f}",
                      words=f"{word_share:.0%}", words_ffn=f"{1 - word_share:.0%}"))
    exact = float(np.abs(stages.output - trace.inputs[layer + 1]).max())
    st.caption(T("inside.layer.checked", layer=layer + 1, error=f"{exact:.1e}"))


# --- Weight and weighted vector ---


def moved_section(view: View, model: MiniLM, trace: RealTrace) -> None:
    T = view.T
    pickers = st.columns(2)
    layer, head = pick_layer(view, pickers[0]), pick_head(view, pickers[1])
    weights, moved = inside.moved_norms(model, trace.inputs[layer], layer, head)
    tokens = trace.tokens
    if view["hide"]:  # the same rows and columns on both sides; the weights renormalised, the norms as they are
        hide_note(T, weights, tokens)
        kept, weights = inside.without_specials(weights, tokens)
        moved, tokens = moved[np.ix_(kept, kept)], tuple(tokens[i] for i in kept)
    left, right = st.columns(2)
    with left:
        chart(weights, tokens, tokens, kind="weights", title=T("inside.moved.weights", layer=layer + 1, head=head + 1), key="moved-weights",
              values=len(tokens) <= 12, rows_are="query", cols_are="key")
    shares = inside.arriving_shares(moved)
    with right:
        chart(shares, tokens, tokens, kind="weights", title=T("inside.moved.norms", layer=layer + 1, head=head + 1),
              key="moved-norms", values=len(tokens) <= 12, rows_are="query", cols_are="key")
    found = inside.large_but_little(weights, shares)[:4]
    if found:
        plain = tuple(figures.plain(t) for t in tokens)  # a repeated word named with its position
        named = T("inside.moved.separator").join(T("inside.moved.one", query=plot.token_name(plain, i), key=plot.token_name(plain, j),
                                                   weight=f"{weights[i, j]:.0%}", moved=f"{shares[i, j]:.0%}") for i, j in found)
        st.markdown(T("inside.moved.found", found=named))
    else:
        st.markdown(T("inside.moved.none"))
    if view["hide"]:  # the cells on [CLS] and [SEP], often the largest weights that bring least, are not among those checked
        st.markdown(T("inside.moved.only_shown"))
    if view.layout.explains:
        st.caption(T("inside.moved.how"))


# --- Sinks ---


def sinks_section(view: View, trace: RealTrace) -> None:
    T = view.T
    shares = inside.sink_shares(trace)
    layers, heads = (tuple(str(i) for i in range(1, n + 1)) for n in shares["cls"].shape)
    columns = st.columns(3) if view.layout.side_by_side else [st.container() for _ in SHARES]
    for column, name in zip(columns, SHARES):
        with column:
            chart(shares[name], layers, heads, kind="weights", title=T(f"inside.sinks.{name}"), key=f"sinks-{name}",
                  values=view.layout.explains, rows_are="layer", cols_are="head")
    first, last = ({name: f"{shares[name][layer].mean():.0%}" for name in SHARES} for layer in (0, -1))
    st.markdown(T("inside.sinks.said", cls_first=first["cls"], sep_first=first["sep"], punct_first=first["punctuation"],
                  cls_last=last["cls"], sep_last=last["sep"], punct_last=last["punctuation"]))
    if view.layout.explains:
        st.caption(T("inside.sinks.how"))


# --- Four measures of a word's importance ---


@st.cache_data(show_spinner=False)
def built_in() -> dict[str, list[float]]:
    """The built-in sentences' correlations, computed by scripts/make_snapshots.py (tests/test_page_real.py recomputes some)."""
    return json.loads(SNAPSHOT.read_text(encoding="utf-8"))


@st.cache_resource(max_entries=32, show_spinner=False)
def importance_of(_model: MiniLM, folder: str, text: str) -> inside.Importance:
    return inside.importance(_model, real.run(_model, folder, text), text)


def best_said(T, rho: dict[str, float], where: str = "best") -> str:
    """Which measure agrees best with leaving the word out, as measured (none, when no correlation is positive);
    ``where``: "best" (this sentence) or "best_set"."""
    finite = {m: r for m, r in rho.items() if np.isfinite(r)}
    if not finite:
        return T("inside.importance.too_short")
    best = max(finite, key=finite.get)
    if finite[best] <= 0:
        return T("inside.importance.none_agrees")
    return T(f"inside.importance.{where}", measure=T(f"inside.importance.measures.{best}"), rho=f"{finite[best]:.2f}")


def importance_section(view: View, model: MiniLM, text: str) -> None:
    T = view.T
    with st.spinner(T("inside.importance.computing")):  # one forward pass per word: seconds on a long sentence
        found = importance_of(model, str(model.folder), text)
    rho = {m: found.spearman(m) for m in inside.MEASURES}
    frame = pd.DataFrame({T("inside.importance.word"): list(found.words),  # as typed: the table escapes it for HTML
                          T("inside.importance.measures.leave_one_out"): found.leave_one_out,
                          **{T(f"inside.importance.measures.{m}"): getattr(found, m) for m in inside.MEASURES}})
    named_table(frame.assign(**{c: frame[c].map("{:.4f}".format) for c in frame.columns[1:]}), T("inside.importance.table"),
                row_headers=1, numbers=frame.columns[1:], height=420)  # the words in the sentence's order
    measures = ("leave_one_out", *inside.MEASURES)
    scaled = {m: getattr(found, m) / max(float(np.max(getattr(found, m))), 1e-12) for m in measures}
    show(grouped_bars(scaled, {m: T(f"inside.importance.measures.{m}") for m in measures}, MEASURE_COLOURS, found.words,
                      title=T("inside.importance.chart"), y_title=T("inside.importance.axis")), key="importance",
         alt=T("inside.importance.alt", n=len(found.words), top=found.words[int(np.argmax(found.leave_one_out))]
               if len(found.words) else "–"))
    st.markdown(T("inside.importance.here", attention=f"{rho['attention']:.2f}", rollout=f"{rho['rollout']:.2f}",
                  flow=f"{rho['flow']:.2f}", n=len(found.words)) + " " + (best_said(T, rho) if len(found.words) >= MIN_RANKED
                                                                else T("inside.importance.too_short")))
    stored = built_in()
    means = {m: float(np.nanmean(stored["spearman"][m])) for m in inside.MEASURES}
    st.markdown(T("inside.importance.set", count=len(stored["sentences"]), attention=f"{means['attention']:.2f}",
                  rollout=f"{means['rollout']:.2f}", flow=f"{means['flow']:.2f}") + " " + best_said(T, means, "best_set"))
    if view.layout.explains:
        st.caption(T("inside.importance.how", scale=f"{inside.FLOW_SCALE:,}"))
        with st.expander(T("inside.importance.sentences", count=len(stored["sentences"]))):
            rho_names = [T(f"inside.importance.measures.{m}") for m in inside.MEASURES]
            rho = {name: [f"{r:.2f}" if np.isfinite(r) else "–" for r in stored["spearman"][m]] for name, m in zip(rho_names, inside.MEASURES)}
            named_table(pd.DataFrame({T("inside.importance.sentence"): stored["sentences"], **rho}),
                        T("inside.importance.sentences", count=len(stored["sentences"])), numbers=rho_names, height=420)


# --- Trained beside untrained ---


@st.cache_resource(show_spinner=False)
def untrained(_model: MiniLM, folder: str) -> MiniLM:
    return inside.random_like(_model, seed=0)


@st.cache_resource(max_entries=32, show_spinner=False)
def untrained_run(_model: MiniLM, folder: str, text: str) -> RealTrace:
    return untrained(_model, folder).run(text)


def random_section(view: View, model: MiniLM, trace: RealTrace, text: str) -> None:
    T = view.T
    if view.layout.explains:
        st.markdown(T("inside.random.how"))
    pickers = st.columns(2)
    layer, head = pick_layer(view, pickers[0]), pick_head(view, pickers[1])
    other = untrained_run(model, str(model.folder), text)
    n = len(trace.tokens)
    for column, (name, run) in zip(st.columns(2), (("trained", trace), ("untrained", other))):
        with column:
            if view["hide"]:
                hide_note(T, run.attentions[layer, head], run.tokens)
            weights, tokens = shown_weights(run.attentions[layer, head], run.tokens, view["hide"])
            chart(weights, tokens, tokens, kind="weights", title=T(f"inside.random.{name}", layer=layer + 1, head=head + 1),
                  key=f"random-{name}", values=len(tokens) <= 10, rows_are="query", cols_are="key")
            entropy = inside.head_entropy(run) / np.log2(n)
            layers, heads = (tuple(str(i) for i in range(1, k + 1)) for k in entropy.shape)
            chart(entropy, layers, heads, kind="weights", title=T(f"inside.random.entropy_{name}"), key=f"entropy-{name}",
                  values=False, rows_are="layer", cols_are="head")
    trained_roles, random_roles = head_summary(trace), head_summary(other)
    st.table(pd.DataFrame({T("inside.random.role"): [T(f"real.columns_{r}") for r in ROLES],
                           T("inside.random.trained_mean"): [f"{trained_roles[r].mean():.2f}" for r in ROLES],
                           T("inside.random.trained_max"): [f"{trained_roles[r].max():.2f}" for r in ROLES],
                           T("inside.random.untrained_mean"): [f"{random_roles[r].mean():.2f}" for r in ROLES],
                           T("inside.random.untrained_max"): [f"{random_roles[r].max():.2f}" for r in ROLES]}), hide_index=True)
    bits = (inside.head_entropy(trace).mean(), inside.head_entropy(other).mean())
    st.markdown(T("inside.random.said", trained=f"{bits[0]:.2f}", untrained=f"{bits[1]:.2f}", even=f"{np.log2(n):.2f}",
                  previous=f"{trained_roles['previous'].max():.0%}", previous_random=f"{random_roles['previous'].max():.0%}"))


# --- √d_k on real heads ---


def spread_figure(found: inside.Spread, T) -> figures.Figure:
    """Per head (72, in layer order): std of q · k before and after ÷√d_k, and the unit-variance theory for each."""
    x = np.arange(1, found.raw.size + 1)
    names = [f"{T('real.layer')} {layer + 1}, {T('real.head')} {head + 1}" for layer in range(found.raw.shape[0])
             for head in range(found.raw.shape[1])]
    traces = [dict(type="scatter", mode="markers", x=x, y=getattr(found, name).ravel(), name=T(f"inside.scaling.{name}"), customdata=names,
                   marker=dict(color=colour, size=8, symbol=symbol), hovertemplate="%{customdata}: %{y:.2f}<extra></extra>")
              for name, colour, symbol in (("raw", "#D55E00", "circle"), ("scaled", "#0072B2", "diamond"))]
    traces += [dict(type="scatter", mode="lines", x=[1, found.raw.size], y=[value, value], line=dict(color=colour, dash="dot"),
                    name=T(f"inside.scaling.theory_{name}", value=f"{value:.2f}"), hoverinfo="skip")
               for name, value, colour in (("raw", found.theory, "#D55E00"), ("scaled", 1.0, "#0072B2"))]
    layout = dict(title=dict(text=T("inside.scaling.title"), font=dict(size=14), x=0, xref="paper"), height=420,
                  margin=dict(l=10, r=10, t=84, b=10), legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"),
                  xaxis=dict(title=dict(text=T("inside.scaling.x")), tickmode="array", tickvals=list(range(1, found.raw.size + 1, 12)),
                             ticktext=[f"{T('real.layer')} {k}" for k in range(1, found.raw.shape[0] + 1)]),
                  yaxis=dict(title=dict(text=T("inside.scaling.y")), **figures.DECADES))
    return {"data": traces, "layout": layout}


def scaling_section(view: View, model: MiniLM, trace: RealTrace) -> None:
    """The spread of q · k per head; the sentence's numbers are those of the table (its product from the rounded medians)."""
    T = view.T
    found = inside.spread(model, trace)
    show(spread_figure(found, T), key="spread",
         alt=T("inside.scaling.alt", low=f"{found.raw.min():.2f}", high=f"{found.raw.max():.2f}", theory=f"{found.theory:.2f}"))
    st.table(pd.DataFrame({T("inside.scaling.measure"): [T("inside.scaling.raw"), T("inside.scaling.scaled"), T("inside.scaling.q"),
                                                         T("inside.scaling.k"), T("inside.scaling.top_raw"), T("inside.scaling.top_scaled")],
                           T("inside.scaling.median"): [f"{np.median(getattr(found, name)):.2f}" for name in
                                                        ("raw", "scaled", "q", "k", "top_raw", "top_scaled")],
                           T("inside.scaling.range"): [f"{getattr(found, name).min():.2f} – {getattr(found, name).max():.2f}" for name in
                                                       ("raw", "scaled", "q", "k", "top_raw", "top_scaled")],
                           T("inside.scaling.unit"): [f"{found.theory:.2f}", "1.00", "1.00", "1.00", "–", "–"]}), hide_index=True)
    st.markdown(T("inside.scaling.said", median=f"{np.median(found.raw):.2f}", low=f"{found.raw.min():.2f}", high=f"{found.raw.max():.2f}",
                  theory=f"{found.theory:.2f}", q=f"{np.median(found.q):.2f}", k=f"{np.median(found.k):.2f}",
                  top_raw=f"{np.median(found.top_raw):.2f}", top_scaled=f"{np.median(found.top_scaled):.2f}",
                  saturated=int((found.top_raw > 0.9).sum()), heads=found.raw.size,
                  expected=f"{found.theory * round(float(np.median(found.q)), 2) * round(float(np.median(found.k)), 2):.2f}"))
