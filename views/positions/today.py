"""The "Positions and scale" page's sections on attention at today's scale: latent attention (MLA) step by step with
its absorbed form and DeepSeek-V2/V3's cache, sparse top-k attention chosen by a lightning indexer with its cost, and the
memory traffic of standard attention and FlashAttention on a GPU's roofline (a model, computed, not measured).

Every number comes from attention_core.scale; every bound and option of a control from views/shell/registry.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from attention_core import tokenize
from attention_core.fast import allowed_pairs, full_attention
from attention_core.scale import (
    CACHE_LAYOUTS,
    GPUS,
    GQA_GROUPS,
    LATENT_SHAPES,
    SPARSE_SHAPES,
    LatentShape,
    cache_numbers,
    equivalent_groups,
    flash_against_standard,
    flash_blocks,
    flash_sram_need,
    flash_traffic,
    init_indexer,
    init_latent,
    key_blocks,
    latent_attention,
    latent_cache_bytes,
    lightning_indexer,
    roofline,
    simulate_flash,
    sparse_attention,
    sparse_cost,
    sparse_sweep,
    standard_traffic,
    top_k_pairs,
)
from attention_plot import figures
from attention_plot.text import Texts
from views.positions import readable_bytes
from views.shell.page import View
from views.shell.registry import LATENT_HEADS
from views.widgets.charts import chart, dims, show
from views.widgets.inputs import explanation_or_stop
from views.widgets.tables import named_table

INDEXER_HEADS, INDEXER_DIM = 4, 4  # the sentence's lightning indexer: 4 heads of 4 (DeepSeek-V3.2: 64 of 128)
COST_TOKENS = (1024, 4096, 16384, 65536, 131072)
BYTES = 2  # 16-bit numbers (BF16) everywhere in this section's sizes
SIMULATED = (64, 8, 16, 8)  # the tiled loop run on the page: N, d, B_c, B_r


def by_columns(heads: NDArray) -> NDArray:
    """(H, n, d) -> (n, H * d): the heads side by side, head i in columns i*d:(i+1)*d, as the projections lay them out."""
    return heads.transpose(1, 0, 2).reshape(heads.shape[1], -1)


def head_columns(heads: int, width: int, T: Texts) -> tuple[str, ...]:
    """Column labels of heads side by side: h1·1, h1·2, ..., h2·1, ..."""
    return tuple(T("positions.latent.column", h=h + 1, i=i + 1) for h in range(heads) for i in range(width))


# 4. Latent attention (MLA)


def latent_section(view: View) -> None:
    """MLA on the typed sentence in small sizes, step by step: the latent and the RoPE key (all the cache keeps), keys and
    values rebuilt, the queries, one head's scores (content + position), the absorbed form, and DeepSeek's caches."""
    T, settings = view.T, view.settings
    if not tokenize(settings.text):  # the published caches need no sentence
        st.info(T("common.notices.empty"), icon=":material/edit:")
        published_caches(view)
        return
    e = explanation_or_stop(settings, T, heads=1, score="scaled_dot", mode="soft", positions=False)
    tokens, x = e.tokens, e.token_vectors
    n, d_model = x.shape
    if view.layout.explains:
        st.markdown(T("positions.latent.intro"))
    columns = st.columns(3)
    d_c = view.widget("d_c", T("positions.latent.d_c"), into=columns[0], help=T("positions.latent.d_c_help"))
    d_r = view.widget("d_rope", T("positions.latent.d_r"), into=columns[1], style="segmented_control",
                      help=T("positions.latent.d_r_help"))
    head = view.widget("latent_head", T("positions.latent.head"), into=columns[2], style="segmented_control")
    d_h, H = settings.d_k, LATENT_HEADS
    w = init_latent(d_model, H, d_h, d_c, d_r, 3 * d_c, seed=settings.seed)  # d_c' = 3 d_c, as DeepSeek-V2's 1536 = 3 x 512
    t = latent_attention(x, w, causal=True)
    values = n <= 8
    h = head - 1

    st.subheader(T("positions.latent.cache_step"))
    left, right = st.columns(2)
    with left:
        chart(t.c_kv, tokens, dims(d_c), kind="signed", title=T("positions.latent.c_kv", d_c=d_c), key="mla-c-kv", T=T, values=values)
    with right:
        chart(t.k_r, tokens, dims(d_r), kind="k", title=T("positions.latent.k_r", d_r=d_r), key="mla-k-r", T=T, values=values)
    toy = LatentShape(d_model=d_model, layers=1, heads=H, d_h=d_h, d_c=d_c, d_cq=3 * d_c, d_r=d_r, context=n)
    kept, full = cache_numbers(toy, "mla", groups=H), cache_numbers(toy, "mha", groups=H)
    check = T("positions.latent.cache_check", kept=kept, d_c=d_c, d_r=d_r, full=full, heads=H, d_h=d_h)
    if kept >= full:  # small heads: the latent is no saving here, only at a model's sizes
        v2 = LATENT_SHAPES["deepseek-v2"]
        check += "\n\n" + T("positions.latent.cache_larger", kept=kept, full=full, mla=f"{cache_numbers(v2, 'mla'):,}",
                         mha=f"{cache_numbers(v2, 'mha'):,}")
    st.markdown(check)

    st.subheader(T("positions.latent.rebuild_step"))
    left, right = st.columns(2)
    labels = head_columns(H, d_h, T)
    with left:
        chart(by_columns(t.k_c), tokens, labels, kind="k", title=T("positions.latent.k_c"), key="mla-k-c", T=T, values=values)
    with right:
        chart(by_columns(t.v_c), tokens, labels, kind="v", title=T("positions.latent.v_c"), key="mla-v-c", T=T, values=values)

    st.subheader(T("positions.latent.query_step"))
    left, right = st.columns(2)
    with left:
        chart(by_columns(t.q_c), tokens, labels, kind="q", title=T("positions.latent.q_c", d_cq=3 * d_c), key="mla-q-c", T=T, values=values)
    with right:
        chart(by_columns(t.q_r), tokens, head_columns(H, d_r, T), kind="q", title=T("positions.latent.q_r"), key="mla-q-r", T=T,
              values=values)

    st.subheader(T("positions.latent.score_step", head=head))
    if view.layout.explains:
        st.latex(T("positions.latent.formula"))
    future = ~np.tril(np.ones((n, n), dtype=bool))  # the causal mask hides these: left blank
    left, right = st.columns(2)
    with left:
        chart(np.where(future, np.nan, t.raw_content[h]), tokens, tokens, kind="signed", title=T("positions.latent.content", head=head),
              key="mla-content", T=T, values=values, rows_are="query", cols_are="key")
    with right:
        chart(np.where(future, np.nan, t.raw_rope[h]), tokens, tokens, kind="signed", title=T("positions.latent.rope", head=head),
              key="mla-rope", T=T, values=values, rows_are="query", cols_are="key")
    left, right = st.columns(2)
    with left:
        chart(t.weights[h], tokens, tokens, kind="weights", title=T("positions.latent.weights", head=head, divisor=f"{t.divisor:.3g}"),
              key="mla-weights", T=T, values=values, rows_are="query", cols_are="key")
    with right:
        chart(t.outputs[h], tokens, dims(d_h), kind="signed", title=T("positions.latent.output", head=head), key="mla-output", T=T, values=values)

    st.subheader(T("positions.latent.absorbed_step"))
    if view.layout.explains:
        st.markdown(T("positions.latent.absorbed_intro"))
        st.latex(T("positions.latent.absorbed_formula"))
    left, right = st.columns(2)
    with left:
        chart(t.absorbed_q[h], tokens, dims(d_c), kind="q", title=T("positions.latent.absorbed_q", head=head, d_c=d_c), key="mla-absorbed-q",
              T=T, values=values)
    with right:
        chart(np.where(future, np.nan, t.absorbed_content[h]), tokens, tokens, kind="signed",
              title=T("positions.latent.absorbed_content", head=head), key="mla-absorbed-content", T=T, values=values, rows_are="query",
              cols_are="key")
    scores_gap = float(np.abs(t.absorbed_content - t.raw_content).max())
    outputs_gap = float(np.abs(t.absorbed_outputs - t.outputs).max())
    st.markdown(T("positions.latent.absorbed_check", scores=f"{scores_gap:.1e}", outputs=f"{outputs_gap:.1e}",
                  verdict=T("positions.latent.same" if max(scores_gap, outputs_gap) <= 1e-12 else "positions.latent.not_same")))
    published_caches(view)


def published_caches(view: View) -> None:
    """The cache per token of DeepSeek-V2 and V3 (their published sizes) with MLA, against MHA, GQA and MQA of the same heads."""
    T = view.T
    st.subheader(T("positions.latent.models_step"))
    if view.layout.explains:
        st.markdown(T("positions.latent.models_intro", groups=GQA_GROUPS))
    tokens = view.widget("context", T("positions.latent.context"), format_func=lambda count: f"{count:,}")
    layout_name = T("positions.latent.layout")
    rows = []
    v2 = LATENT_SHAPES["deepseek-v2"]
    for layout in CACHE_LAYOUTS:
        row = {layout_name: T(f"positions.latent.layouts.{layout}", heads=v2.heads, groups=GQA_GROUPS, d_c=v2.d_c, d_r=v2.d_r),
               T("positions.latent.per_layer"): f"{cache_numbers(v2, layout):,}"}
        for model, shape in LATENT_SHAPES.items():
            name = T(f"positions.latent.models.{model}")
            row[T("positions.latent.per_token", model=name, layers=shape.layers)] = readable_bytes(latent_cache_bytes(shape, layout, 1))
            row[T("positions.latent.total", model=name, tokens=f"{tokens:,}")] = readable_bytes(latent_cache_bytes(shape, layout, tokens))
        rows.append(row)
    frame = pd.DataFrame(rows)
    named_table(frame, T("positions.latent.table", tokens=f"{tokens:,}"), numbers=list(frame.columns[1:]))
    mla, mha = latent_cache_bytes(v2, "mla", tokens), latent_cache_bytes(v2, "mha", tokens)
    st.markdown(T("positions.latent.models_check", mla=f"{cache_numbers(v2, 'mla'):,}", mha=f"{cache_numbers(v2, 'mha'):,}",
                  share=f"{mla / mha:.2%}", groups=f"{equivalent_groups(v2):g}"))
    st.caption(T("positions.latent.sources"))


# 5. Sparse top-k attention


def sparse_section(view: View) -> None:
    """DSA on the typed sentence: the indexer's scores and the keys each query kept, top-k attention beside dense attention,
    the distance between them as k grows, and the cost with DeepSeek-V3.2's sizes as n grows."""
    T, settings = view.T, view.settings
    e = explanation_or_stop(settings, T, heads=1, score="scaled_dot", mode="soft", positions=False)
    tokens, x = e.tokens, e.token_vectors
    head = e.trace.heads[0]
    n = len(tokens)
    if view.layout.explains:
        st.markdown(T("positions.sparse.intro", heads=INDEXER_HEADS, dim=INDEXER_DIM))
    low = view.page.param("top_k").lo
    view.clamp("top_k", low, n)
    top_k = view.widget("top_k", T("positions.sparse.top_k"), hi=max(n, low + 1), help=T("positions.sparse.top_k_help"), disabled=n <= low)
    top_k = min(top_k, n)
    index = lightning_indexer(x, init_indexer(x.shape[1], INDEXER_HEADS, INDEXER_DIM, seed=settings.seed))
    t = sparse_attention(head.q, head.k, head.v, index.scores, top_k, causal=True)
    future = ~np.tril(np.ones((n, n), dtype=bool))
    values = n <= 8
    left, right = st.columns(2)
    with left:
        chart(np.where(future, np.nan, index.scores), tokens, tokens, kind="signed", title=T("positions.sparse.index", k=top_k),
              key="dsa-index", T=T, values=values, rows_are="query", cols_are="key", outline=t.kept)
    with right:
        chart(t.kept.astype(float), tokens, tokens, kind="weights", title=T("positions.sparse.kept", k=top_k), key="dsa-kept", T=T,
              values=False, rows_are="query", cols_are="key")
    left, right = st.columns(2)
    with left:
        chart(t.dense_weights, tokens, tokens, kind="weights", title=T("positions.sparse.dense"), key="dsa-dense", T=T, values=values,
              rows_are="query", cols_are="key")
    with right:
        chart(t.weights, tokens, tokens, kind="weights", title=T("positions.sparse.sparse", k=top_k), key="dsa-sparse", T=T, values=values,
              rows_are="query", cols_are="key", outline=t.kept)
    note = "positions.sparse.exact" if t.distance == 0.0 and top_k == n else "positions.sparse.check"
    st.markdown(T(note, k=top_k, n=n, distance=f"{t.distance:.2g}", mass=f"{t.kept_mass:.0%}"))

    sweep = sparse_sweep(head.q, head.k, head.v, index.scores, causal=True)
    names = (T("positions.sparse.by_indexer"), T("positions.sparse.by_scores"))
    left, right = st.columns(2)
    with left:
        show(figures.lines(sweep.top_k, np.stack([sweep.distance, sweep.oracle_distance]), names, markers=True, mark_x=(top_k,),
                           title=T("positions.sparse.distance_title"), x_title=T("positions.sparse.k_axis"),
                           y_title=T("positions.sparse.distance_axis")), key="dsa-distance")
    with right:
        show(figures.lines(sweep.top_k, np.stack([sweep.kept_mass, sweep.oracle_mass]), names, markers=True, mark_x=(top_k,),
                           y_range=(0, 1.05), title=T("positions.sparse.mass_title"), x_title=T("positions.sparse.k_axis"),
                           y_title=T("positions.sparse.mass_axis")), key="dsa-mass")
    if view.layout.explains:
        st.markdown(T("positions.sparse.sweep_note"))
    sparse_costs(view)


def sparse_costs(view: View) -> None:
    """Multiply-adds and pairs of one layer's causal attention as n grows, dense against top-k, DeepSeek-V3.2's sizes."""
    T = view.T
    shape = SPARSE_SHAPES["deepseek-v3.2"]
    st.subheader(T("positions.sparse.cost_title"))
    if view.layout.explains:
        st.markdown(T("positions.sparse.cost_intro", k=f"{shape.top_k:,}", heads=shape.heads, d_score=shape.d_score, d_value=shape.d_value,
                      index_heads=shape.index_heads, index_dim=shape.index_dim))
    sizes = np.array(COST_TOKENS)
    cost = sparse_cost(shape, sizes)
    kinds = ("dense", "attention", "indexer", "total")
    lines = np.stack([cost.dense, cost.attention, cost.indexer, cost.attention + cost.indexer])
    names = tuple(T(f"positions.sparse.costs.{kind}", k=f"{shape.top_k:,}") for kind in kinds)
    show(figures.lines(sizes, lines, names, log_x=True, log_y=True, markers=True, title=T("positions.sparse.cost_chart"),
                       x_title=T("positions.sparse.n_axis"), y_title=T("positions.sparse.cost_axis")), key="dsa-cost")
    tokens_name = T("positions.sparse.n_axis")
    frame = pd.DataFrame({
        tokens_name: [f"{size:,}" for size in sizes],
        T("positions.sparse.pairs_dense"): [f"{allowed_pairs('full', int(size)):,}" for size in sizes],
        T("positions.sparse.pairs_top_k", k=f"{shape.top_k:,}"): [f"{top_k_pairs(int(size), shape.top_k):,}" for size in sizes],
        names[0]: [f"{c:.2e}" for c in cost.dense],
        names[3]: [f"{c:.2e}" for c in cost.attention + cost.indexer],
        T("positions.sparse.ratio"): [f"{r:.2f}" for r in (cost.attention + cost.indexer) / cost.dense],
    })
    named_table(frame, T("positions.sparse.cost_table"), numbers=list(frame.columns[1:]))
    st.caption(T("positions.sparse.sources"))


# 6. Memory traffic


def traffic_section(view: View) -> None:
    """HBM traffic, FLOPs and arithmetic intensity of one head's forward attention, standard and FlashAttention, at the
    chosen N, d, SRAM, blocks and GPU; the traffic as N grows; both on the GPU's roofline; the formula checked by a run."""
    T = view.T
    st.info(T("positions.traffic.model_note"), icon=":material/calculate:")
    if view.layout.explains:
        st.markdown(T("positions.traffic.intro"))
    first, second = st.columns(3), st.columns(3)
    n = view.widget("seq", T("positions.traffic.n"), into=first[0], format_func=lambda v: f"{v:,}")
    d = view.widget("head_dim", T("positions.traffic.d"), into=first[1], style="segmented_control")
    sram_kib = view.widget("sram", T("positions.traffic.sram"), into=first[2], format_func=lambda kib: f"{kib} KiB",
                           help=T("positions.traffic.sram_help"))
    sram = sram_kib * 1024 // BYTES  # M, in 16-bit numbers
    paper_c, paper_r = flash_blocks(sram, d)
    block_c = view.widget("block_c", T("positions.traffic.block_c"), into=second[0], style="selectbox",
                          format_func=lambda b: T("positions.traffic.rule_c", b=paper_c) if b == 0 else str(b))
    block_r = view.widget("block_r", T("positions.traffic.block_r"), into=second[1], style="selectbox",
                          format_func=lambda b: T("positions.traffic.rule_r", b=paper_r) if b == 0 else str(b))
    gpu_name = view.widget("gpu", T("positions.traffic.gpu"), into=second[2], style="selectbox")
    block_c, block_r = block_c or paper_c, block_r or paper_r
    gpu = GPUS[gpu_name]
    standard, flash = standard_traffic(n, d), flash_traffic(n, d, block_c, block_r)
    need = flash_sram_need(d, block_c, block_r)
    if need > sram:
        st.warning(T("positions.traffic.too_big", need=f"{need:,}", sram=f"{sram:,}", kib=sram_kib), icon=":material/memory:")
    st.markdown(T("positions.traffic.blocks", block_c=block_c, block_r=block_r, passes=key_blocks(n, block_c), need=f"{need:,}", sram=f"{sram:,}"))

    points = {"standard": roofline(gpu, standard, BYTES), "flash": roofline(gpu, flash, BYTES)}
    names = {kind: T(f"positions.traffic.kinds.{kind}") for kind in points}
    frame = pd.DataFrame([{
        T("positions.traffic.kind"): names[kind],
        T("positions.traffic.reads"): f"{traffic.reads:,}",
        T("positions.traffic.writes"): f"{traffic.writes:,}",
        T("positions.traffic.moved"): f"{traffic.bytes(BYTES) / 1e6:,.1f}",
        T("positions.traffic.flops"): f"{traffic.flops / 1e9:,.2f}",
        T("positions.traffic.intensity"): f"{point.intensity:,.1f}",
        T("positions.traffic.memory_time"): f"{point.memory_time * 1e6:,.2f}",
        T("positions.traffic.compute_time"): f"{point.compute_time * 1e6:,.2f}",
        T("positions.traffic.bound"): T(f"positions.traffic.bounds.{point.bound}"),
    } for (kind, point), traffic in zip(points.items(), (standard, flash))])
    named_table(frame, T("positions.traffic.table", n=f"{n:,}", d=d, gpu=T(f"positions.traffic.gpus.{gpu_name}")),
                numbers=list(frame.columns[1:-1]))
    factor, direction = flash_against_standard(standard, flash)
    st.markdown(T("positions.traffic.check", compared=T(f"positions.traffic.{direction}", ratio=f"{factor:.1f}"), ridge=f"{gpu.ridge:.0f}",
                  gpu=T(f"positions.traffic.gpus.{gpu_name}"), standard=f"{points['standard'].intensity:.1f}",
                  flash=f"{points['flash'].intensity:.1f}"))

    sizes = np.array(view.page.param("seq").options)
    moved = np.array([[kind(int(size)).bytes(BYTES) / 1e6 for size in sizes]
                      for kind in (lambda s: standard_traffic(s, d), lambda s: flash_traffic(s, d, block_c, block_r))])
    left, right = st.columns(2)
    with left:
        show(figures.lines(sizes, moved, tuple(names.values()), log_x=True, log_y=True, markers=True, mark_x=(n,),
                           title=T("positions.traffic.growth_title", d=d, block_c=block_c), x_title=T("positions.traffic.n_axis"),
                           y_title=T("positions.traffic.mb_axis")), key="traffic-growth")
    with right:
        roof = figures.roofline(gpu.peak, gpu.bandwidth, tuple((names[kind], point.intensity) for kind, point in points.items()),
                                title=T("positions.traffic.roofline_title", gpu=T(f"positions.traffic.gpus.{gpu_name}")),
                                x_title=T("positions.traffic.intensity_axis"), y_title=T("positions.traffic.tflops_axis"),
                                roof_name=T("positions.traffic.roof"), ridge_name=T("positions.traffic.ridge"))
        show(roof, key="traffic-roofline", alt=T("positions.traffic.roofline_alt", gpu=T(f"positions.traffic.gpus.{gpu_name}"),
                                                peak=f"{gpu.peak / 1e12:,.0f}", bandwidth=f"{gpu.bandwidth / 1e12:.2f}",
                                                ridge=f"{gpu.ridge:.0f}", standard=f"{points['standard'].intensity:.1f}",
                                                flash=f"{points['flash'].intensity:.1f}"))
    counted_run(T)
    st.caption(T(f"positions.traffic.sources.{gpu_name}") + " " + T("positions.traffic.paper"))
    with st.expander(T("positions.traffic.all_sources")):
        st.markdown("\n".join(f"- {T(f'positions.traffic.sources.{g}')}" for g in view.page.param("gpu").options))


def counted_run(T: Texts) -> None:
    """Algorithm 1 run on a small case with every load and store counted, beside the formula's count."""
    n, d, block_c, block_r = SIMULATED
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    run, formula = simulate_flash(q, k, v, block_c, block_r), flash_traffic(n, d, block_c, block_r)
    gap = float(np.abs(run.output - full_attention(q, k, v)).max())
    st.markdown(T("positions.traffic.counted", n=n, d=d, block_c=block_c, block_r=block_r, reads=f"{run.reads:,}", writes=f"{run.writes:,}",
                  f_reads=f"{formula.reads:,}", f_writes=f"{formula.writes:,}", gap=f"{gap:.1e}"))
