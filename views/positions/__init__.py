"""The "Positions and scale" page's sections: where words are (none, sinusoidal, learned, RoPE, ALiBi), sharing keys
and values (MHA, GQA, MQA, the cache's memory), and fast attention exactly (online softmax, cost curves). Attention at
today's scale has a module per section, named as its core module: latent.py, sparse.py, traffic.py."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from attention_core import positional_encoding, tokenize
from attention_core.fast import (
    MODEL_SHAPES,
    allowed_pairs,
    cached_tokens,
    kv_cache_bytes,
    model_cache_bytes,
    online_softmax_trace,
    shared_kv_attention,
    time_full_attention,
)
from attention_core.positions import (
    alibi_bias,
    alibi_power_of_two,
    alibi_slopes,
    diagonal_spread,
    mean_distance,
    permuted,
    positioned_head,
    rope_grid,
    shuffle_order,
    sinusoidal_grid,
)
from attention_core.scores import cosine_scores
from attention_plot import figures
from attention_plot.text import Texts
from views.shell.page import View
from views.widgets import model as real
from views.widgets.charts import chart, show
from views.widgets.inputs import explanation_or_stop
from views.widgets.tables import named_table

SIDE_BY_SIDE = ("none", "sinusoidal", "rope", "alibi")  # the schemes compared on one head ("learned" needs a trained table)
QUERY_HEADS = 8
COST_SIZES = (128, 256, 512, 1024, 2048, 4096)  # full attention measured up to 4096 tokens: a 128 MB score matrix
PAIR_SIZES = (1024, 4096, 16384, 65536, 131072)


# 1. Positions

def positions_section(view: View) -> None:
    """Where words are, on the sidebar's sentence with one head (weights (n, n), rows = queries): without positions,
    shuffled words give the same weights shuffled (the largest difference stated); the same head under none, sinusoidal,
    RoPE (even d_k only) and ALiBi with each one's mean distance and self-weight; RoPE's q . k for every pair of positions
    beside added sinusoidal positions; then the learned positions and ALiBi's slopes and bias."""
    T, settings = view.T, view.settings
    e = explanation_or_stop(settings, T, heads=1, score="scaled_dot", mode="soft", positions=False)
    tokens, vectors, p = e.tokens, e.token_vectors, e.projections
    n, d = vectors.shape
    even = p.w_q.shape[1] % 2 == 0  # RoPE turns pairs of dimensions
    schemes = SIDE_BY_SIDE if even else tuple(s for s in SIDE_BY_SIDE if s != "rope")
    causal = view.widget("causal", T("positions.causal"), help=T("positions.causal_help"))
    added = positional_encoding(n, d)
    slopes = alibi_slopes(view["slope_heads"])
    heads = {scheme: positioned_head(vectors, p.w_q, p.w_k, p.w_v, scheme, added=added, slope=float(slopes[0]), causal=causal)
             for scheme in schemes}

    st.subheader(T("positions.permutation.title"))
    if view.layout.explains:
        st.markdown(T("positions.permutation.intro"))
    shuffle = view.widget("shuffle", T("positions.shuffle"), style="segmented_control")
    order = shuffle_order(shuffle, n)
    moved = tuple(tokens[i] for i in order)
    differences = {}
    for scheme in ("none", "sinusoidal"):
        shuffled = positioned_head(vectors[order], p.w_q, p.w_k, p.w_v, scheme, added=added, causal=causal)
        differences[scheme] = float(np.abs(shuffled.weights - permuted(heads[scheme], order)[0]).max())
    shuffled_none = positioned_head(vectors[order], p.w_q, p.w_k, p.w_v, "none", causal=causal)
    left, right = st.columns(2)
    with left:
        chart(heads["none"].weights, tokens, tokens, kind="weights", title=T("positions.permutation.original"), key="perm-original",
              values=n <= 8, rows_are="query", cols_are="key")
    with right:
        chart(shuffled_none.weights, moved, moved, kind="weights", title=T("positions.permutation.shuffled"), key="perm-shuffled",
              values=n <= 8, rows_are="query", cols_are="key")
    st.markdown(T("positions.permutation.check", none=f"{differences['none']:.1e}", sinusoidal=f"{differences['sinusoidal']:.2f}",
                  causal=T("positions.permutation.causal_note") if causal else ""))

    st.subheader(T("positions.schemes.title"))
    if view.layout.explains:
        st.markdown(T("positions.schemes.intro"))
    if not even:
        st.warning(T("positions.odd_d_k", d_k=p.w_q.shape[1]), icon=":material/warning:")
    for first in range(0, len(schemes), 2):
        for column, scheme in zip(st.columns(2), schemes[first:first + 2]):
            head = heads[scheme]
            with column:
                chart(head.weights, tokens, tokens, kind="weights", title=T(f"positions.schemes.{scheme}"), key=f"scheme-{scheme}",
                      values=n <= 8, rows_are="query", cols_are="key")
                st.caption(T("positions.schemes.measures", distance=f"{mean_distance(head.weights):.2f}",
                             self_weight=f"{np.diag(head.weights).mean():.2f}"))

    st.subheader(T("positions.rope.title"))
    if view.layout.explains:
        st.markdown(T("positions.rope.intro", first=tokens[0], second=tokens[min(1, n - 1)]))
    if not even:
        st.warning(T("positions.odd_d_k", d_k=p.w_q.shape[1]), icon=":material/warning:")
    else:
        rope_grids(vectors, p, T)
    learned_section(view)
    alibi_section(view, n, tokens, causal)


def rope_grids(vectors: NDArray, p, T: Texts) -> None:
    """RoPE's q.k for one pair of words at every pair of positions, beside the same with sinusoidal positions added."""
    first, second = vectors[0], vectors[min(1, vectors.shape[0] - 1)]
    span = 12
    rotated = rope_grid(first @ p.w_q, second @ p.w_k, span)
    added_scores = sinusoidal_grid(first, second, p.w_q, p.w_k, span)
    positions = tuple(str(i) for i in range(span))
    left, right = st.columns(2)
    with left:
        chart(rotated, positions, positions, kind="signed", title=T("positions.rope.rope"), key="rope-grid", values=False,
              rows_are="query_position", cols_are="key_position")
    with right:
        chart(added_scores, positions, positions, kind="signed", title=T("positions.rope.sinusoidal"), key="sinusoidal-grid",
              values=False, rows_are="query_position", cols_are="key_position")
    st.markdown(T("positions.rope.check", rope=f"{diagonal_spread(rotated):.1e}", sinusoidal=f"{diagonal_spread(added_scores):.2f}"))


def learned_section(view: View) -> None:
    """MiniLM's learned positions: the cosine similarity of the first 32 position vectors (32, 32) beside the sinusoidal
    table's, with the mean similarity of neighbours and of positions 8 or more apart, and every pair as a table."""
    T = view.T
    st.subheader(T("positions.learned.title"))
    if view.layout.explains:
        st.markdown(T("positions.learned.intro"))
    model = real.model()
    if model is None:
        st.info(T("positions.learned.missing"), icon=":material/download:")
    else:
        shown = 32
        learned = cosine_scores(model.position[:shown], model.position[:shown], {})
        table = positional_encoding(shown, model.position.shape[1])
        sinusoidal = cosine_scores(table, table, {})
        labels = tuple(str(i) for i in range(shown))
        left, right = st.columns(2)
        with left:
            chart(learned, labels, labels, kind="signed", title=T("positions.learned.learned"), key="learned-similarity",
                  values=False, rows_are="position", cols_are="column_position")
        with right:
            chart(sinusoidal, labels, labels, kind="signed", title=T("positions.learned.sinusoidal"), key="sinusoidal-similarity",
                  values=False, rows_are="position", cols_are="column_position")
        st.caption(T("positions.learned.caption", neighbours=f"{np.diag(learned, 1).mean():.2f}",
                     far=f"{learned[np.triu_indices(shown, 8)].mean():.2f}", table=model.position.shape[0]))
        # 32 x 32 cells are about 7 px wide on a phone, too small to tap one by one (WCAG 2.5.8): every pair is also
        # read here, rows of text a finger or a screen reader moves through.
        with st.expander(T("positions.learned.numbers")):
            for matrix, title in ((learned, T("positions.learned.learned")), (sinusoidal, T("positions.learned.sinusoidal"))):
                frame = pd.DataFrame(figures.cell_text(matrix, 2), columns=labels)
                frame.insert(0, T("positions.learned.position"), labels)
                named_table(frame, title, row_headers=1, numbers=labels, height=360)


def alibi_section(view: View, n: int, tokens: tuple[str, ...], causal: bool) -> None:
    """ALiBi: the slopes of the chosen number of heads (the rule for a power of two, or the one for other counts), and
    the bias -slope x |distance| (n, n; -inf after the query when causal) of the steepest and the flattest head."""
    T = view.T
    st.subheader(T("positions.alibi.title"))
    if view.layout.explains:
        st.markdown(T("positions.alibi.intro"))
    count = view.widget("slope_heads", T("positions.alibi.heads"))
    slopes = alibi_slopes(count)
    show(figures.bars(slopes, tuple(T("positions.alibi.head", head=h + 1) for h in range(count)), title=T("positions.alibi.slopes"),
                      y_title=T("positions.alibi.slope"), x_title=T("positions.alibi.head_axis"), ticks=tuple(str(h + 1) for h in range(count))),
         key="alibi-slopes")
    m = alibi_power_of_two(count)
    if m == count:
        st.caption(T("positions.alibi.rule_power", heads=count))
    else:
        st.caption(T("positions.alibi.rule_other", heads=count, m=m, double=2 * m, first=m + 1,
                     odd=", ".join(str(i) for i in range(1, 2 * (count - m), 2))))
    shown_heads = sorted({int(np.argmax(slopes)), int(np.argmin(slopes))})  # the steepest and the flattest
    for column, h in zip(st.columns(2), shown_heads):
        with column:
            chart(alibi_bias(n, float(slopes[h]), causal=causal), tokens, tokens, kind="signed",
                  title=T("positions.alibi.bias", head=h + 1, slope=f"{slopes[h]:.4g}"), key=f"alibi-bias-{h}", values=n <= 8,
                  rows_are="query", cols_are="key", decimals=3)


# 2. Sharing keys and values

def sharing_section(view: View) -> None:
    """Sharing keys and values: 8 query heads reading 8, some or 1 key-value heads (multi-head, grouped-query, multi-query)
    on the sidebar's sentence; which key-value head each query head reads, the check that sharing equals multi-head with
    the shared keys and values repeated, every head's weights (n, n); then the cache's memory (``cache_section``)."""
    T, settings = view.T, view.settings
    if not tokenize(settings.text):  # the cache's memory needs no sentence
        st.info(T("common.notices.empty"), icon=":material/edit:")
        cache_section(view)
        return
    e = explanation_or_stop(settings, T, heads=1, score="scaled_dot", mode="soft")
    tokens, x = e.tokens, e.x
    d = x.shape[1]
    kv_heads = view.widget("kv_heads", T("positions.sharing.kv_heads"), style="segmented_control",
                           format_func=lambda g: T("positions.sharing.kind", g=g, kind=T(f"positions.sharing.kinds.{kind_of(g)}")))
    rng = np.random.default_rng(settings.seed)
    d_k = settings.d_k
    w_q = rng.standard_normal((QUERY_HEADS, d, d_k)) / math.sqrt(d)
    w_k = rng.standard_normal((kv_heads, d, d_k)) / math.sqrt(d)
    w_v = rng.standard_normal((kv_heads, d, d_k)) / math.sqrt(d)
    shared = shared_kv_attention(x, w_q, w_k, w_v)
    repeat = QUERY_HEADS // kv_heads
    full = shared_kv_attention(x, w_q, np.repeat(w_k, repeat, axis=0), np.repeat(w_v, repeat, axis=0))
    if view.layout.explains:
        st.markdown(T("positions.sharing.intro"))
    groups = np.zeros((QUERY_HEADS, kv_heads))
    groups[np.arange(QUERY_HEADS), shared.groups] = 1.0
    chart(groups, tuple(T("positions.sharing.query_head", h=h + 1) for h in range(QUERY_HEADS)),
          tuple(T("positions.sharing.kv_head", g=g + 1) for g in range(kv_heads)), kind="weights", title=T("positions.sharing.map"),
          key="kv-map", values=False, rows_are="head", cols_are="head")
    st.markdown(T("positions.sharing.check", difference=f"{np.abs(shared.outputs - full.outputs).max():.1e}", repeat=repeat,
                  kv_heads=kv_heads))
    per_row = 4 if view.layout.explains else 2  # on a projector the charts' larger text needs the room
    for first in range(0, QUERY_HEADS, per_row):
        for column, h in zip(st.columns(per_row), range(first, first + per_row)):
            with column:
                chart(shared.weights[h], tokens, tokens, kind="weights",
                      title=T("positions.sharing.head", h=h + 1, g=int(shared.groups[h]) + 1), key=f"gqa-{h}", values=False,
                      rows_are="query", cols_are="key")
    cache_section(view)


def cache_section(view: View) -> None:
    """The key-value cache's memory for a real model's size: multi-head, as shipped, multi-query."""
    T = view.T
    st.subheader(T("positions.sharing.cache_title"))
    if view.layout.explains:
        st.markdown(T("positions.sharing.cache_intro"))
    left, right = st.columns(2)
    model = view.widget("model", T("positions.sharing.model"), into=left, style="selectbox", format_func=lambda m: model_label(m, T))
    tokens_count = view.widget("tokens", T("positions.sharing.tokens"), into=right, format_func=lambda t: f"{t:,}")
    shape = MODEL_SHAPES[model]
    rows = []
    for name, g in (("mha", shape.heads), ("own", shape.kv_heads), ("mqa", 1)):
        size = model_cache_bytes(shape, tokens_count, g)
        rows.append({T("positions.sharing.layout"): T(f"positions.sharing.rows.{name}", g=g), T("positions.sharing.kv_heads_col"): g,
                     T("positions.sharing.per_token"): readable_bytes(kv_cache_bytes(1, shape.layers, g, shape.d_k)),
                     T("positions.sharing.total", tokens=f"{tokens_count:,}"):
                         T("positions.sharing.beyond", context=f"{shape.context:,}") if size is None else readable_bytes(size)})
    st.table(pd.DataFrame(rows), hide_index=True)
    notes = [T("positions.sharing.formula", layers=shape.layers, head_dim=shape.d_k, context=f"{shape.context:,}")]
    name, held = T(f"positions.sharing.models.{model}"), cached_tokens(shape, tokens_count)
    if held is None:
        notes.append(T("positions.sharing.beyond_note", model=name, context=f"{shape.context:,}", tokens=f"{tokens_count:,}"))
    elif shape.window is not None:
        key = "window_capped" if held < tokens_count else "window_note"
        notes.append(T(f"positions.sharing.{key}", model=name, window=f"{shape.window:,}", tokens=f"{tokens_count:,}"))
    st.caption("\n\n".join(notes))


def model_label(model: str, T: Texts) -> str:
    """The model's name with its layers, query heads and kind of sharing (MHA, GQA, MQA)."""
    shape = MODEL_SHAPES[model]
    kind = "mha" if shape.kv_heads == shape.heads else "mqa" if shape.kv_heads == 1 else "gqa"
    return T("positions.sharing.model_label", name=T(f"positions.sharing.models.{model}"), layers=shape.layers, heads=shape.heads,
             kind=T(f"positions.sharing.kinds.{kind}"))


def kind_of(kv_heads: int) -> str:
    return "mha" if kv_heads == QUERY_HEADS else "mqa" if kv_heads == 1 else "gqa"


def readable_bytes(count: float) -> str:
    """Bytes in the largest binary unit that keeps a number of at least 1, two decimals rounded half up (as a student
    rounds by hand: 70,272 B = 68.625 KiB is 68.63 KiB, where float formatting's half-to-even gave 68.62): 1.50 KiB, 8.44 GiB."""
    exact = Decimal(count)  # an int, or a float's exact value: the quotient below keeps 28 digits, none lost to binary
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= size:
            return f"{(exact / size).quantize(Decimal('0.01'), ROUND_HALF_UP):,} {unit}"
    return f"{exact.quantize(Decimal('1'), ROUND_HALF_UP):,} B"


# 3. Fast attention, exactly

@st.cache_resource(show_spinner=False)
def measured_costs() -> tuple[NDArray, NDArray]:
    """Seconds of one full attention (d_k = 64) at each of COST_SIZES, measured once per server (after a warm-up; the
    best of 9 runs for the small sizes, where a busy moment would dominate), and its score bytes."""
    time_full_attention(COST_SIZES[2])  # the first call pays for BLAS's start
    measured = [time_full_attention(n, repeat=9 if n <= 1024 else 3) for n in COST_SIZES]
    return np.array([m[0] for m in measured]), np.array([m[1] for m in measured])


def fast_section(view: View) -> None:
    """Fast attention, exactly: softmax folded in block by block on random q, k, v (n, 4) (``online_softmax_trace``: the
    scaled scores folded in so far, the running maximum m and sum l (n, blocks) after each block, and the output so far
    against the full computation); then full attention's measured time and score memory as n grows, and the pairs full,
    sliding-window and sparse attention score."""
    T, settings = view.T, view.settings
    if view.layout.explains:
        st.markdown(T("positions.fast.intro"))
    columns = st.columns(3)
    n = view.widget("n", T("positions.fast.n"), into=columns[0])
    view.clamp("block", 1, n)
    block = view.widget("block", T("positions.fast.block"), into=columns[1], hi=n)
    blocks = math.ceil(n / block)
    view.clamp("fold", 1, blocks)
    fold = view.widget("fold", T("positions.fast.fold"), into=columns[2], hi=max(blocks, 2), help=T("positions.fast.fold_help"),
                       disabled=blocks == 1)
    fold = min(fold, blocks)
    rng = np.random.default_rng(settings.seed)
    q, k, v = (rng.standard_normal((n, 4)) for _ in range(3))
    trace = online_softmax_trace(q, k, v, block, fold)
    labels = tuple(str(i + 1) for i in range(n))
    chart(np.where(trace.folded, trace.scaled_scores, np.nan), labels, labels, kind="signed",
          title=T("positions.fast.scores", fold=fold, blocks=blocks), key="online-scores", values=n <= 12, rows_are="query",
          cols_are="key", decimals=1, outline=trace.current)
    block_labels = tuple(T("positions.fast.after", b=b + 1) for b in range(blocks))
    left, right = st.columns(2)
    with left:
        chart(trace.maxima, labels, block_labels, kind="signed", title=T("positions.fast.maxima"), key="online-m",
              values=n <= 12 and blocks <= 6, rows_are="query", cols_are="block", decimals=2)
    with right:
        chart(trace.sums, labels, block_labels, kind="signed", title=T("positions.fast.sums"), key="online-l",
              values=n <= 12 and blocks <= 6, rows_are="query", cols_are="block", decimals=2)
    if fold == blocks:
        st.markdown(T("positions.fast.done", difference=f"{trace.difference:.1e}", held=trace.held, full=n * n,
                      share=f"{trace.held / (n * n):.0%}"))
    else:
        st.markdown(T("positions.fast.partial", fold=fold, blocks=blocks, difference=f"{trace.difference:.2f}"))
    if view.layout.explains:
        st.latex(T("positions.fast.formula"))

    st.subheader(T("positions.fast.cost_title"))
    if view.layout.explains:
        st.markdown(T("positions.fast.cost_intro"))
    seconds, score_bytes = measured_costs()
    left, right = st.columns(2)
    with left:
        show(figures.lines(np.array(COST_SIZES), np.stack([seconds * 1000]), (T("positions.fast.measured"),), log_x=True, log_y=True,
                           markers=True, title=T("positions.fast.time_title"), x_title=T("positions.fast.tokens"), y_title=T("positions.fast.ms")),
             key="cost-time")
    with right:
        show(figures.lines(np.array(COST_SIZES), np.stack([score_bytes / 2**20]), (T("positions.fast.scores_memory"),), log_x=True,
                           log_y=True, markers=True, title=T("positions.fast.memory_title"), x_title=T("positions.fast.tokens"),
                           y_title="MiB"), key="cost-memory")
    growth = seconds[-1] / seconds[-2]
    st.caption(T("positions.fast.growth", n=COST_SIZES[-1], previous=COST_SIZES[-2], growth=f"{growth:.1f}",
                 seconds=f"{seconds[-1] * 1000:.0f}", memory=f"{score_bytes[-1] / 2**20:.0f}"))
    columns = st.columns(2)
    window = view.widget("window", T("positions.fast.window"), into=columns[0], style="number_input")
    global_tokens = view.widget("global_tokens", T("positions.fast.globals"), into=columns[1], style="number_input")
    pairs = np.array([[allowed_pairs(kind, size, window, global_tokens) for size in PAIR_SIZES] for kind in ("full", "window", "sparse")])
    show(figures.lines(np.array(PAIR_SIZES), pairs, tuple(T(f"positions.fast.kinds.{kind}", window=window, g=global_tokens)
                                                           for kind in ("full", "window", "sparse")),
                       log_x=True, log_y=True, markers=True, title=T("positions.fast.pairs_title"), x_title=T("positions.fast.tokens"),
                       y_title=""), key="cost-pairs")
    st.table(pd.DataFrame({T("positions.fast.tokens"): [f"{size:,}" for size in PAIR_SIZES],
                           **{T(f"positions.fast.kinds.{kind}", window=window, g=global_tokens): [f"{int(c):,}" for c in row]
                              for kind, row in zip(("full", "window", "sparse"), pairs)}}), hide_index=True)
