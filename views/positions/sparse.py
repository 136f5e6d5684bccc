"""The "Positions and scale" page's section on sparse top-k attention (DeepSeek-V3.2-Exp's DSA): the lightning
indexer's scores and the keys each query keeps on the typed sentence, top-k against dense attention, the distance as k
grows, and the cost with DeepSeek-V3.2's sizes as n grows.

Every number comes from attention_core.sparse; every bound and option of a control from views/shell/registry.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attention_core.fast import allowed_pairs
from attention_core.sparse import SPARSE_SHAPES, init_indexer, lightning_indexer, sparse_attention, sparse_cost, sparse_sweep, top_k_pairs
from attention_plot import figures
from views.shell.page import View
from views.widgets.charts import chart, show
from views.widgets.inputs import explanation_or_stop
from views.widgets.tables import named_table

INDEXER_HEADS, INDEXER_DIM = 4, 4  # the sentence's lightning indexer: 4 heads of 4 (DeepSeek-V3.2: 64 of 128)
COST_TOKENS = (1024, 4096, 16384, 65536, 131072)


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
              key="dsa-index", values=values, rows_are="query", cols_are="key", outline=t.kept)
    with right:
        chart(t.kept.astype(float), tokens, tokens, kind="weights", title=T("positions.sparse.kept", k=top_k), key="dsa-kept",
              values=False, rows_are="query", cols_are="key")
    left, right = st.columns(2)
    with left:
        chart(t.dense_weights, tokens, tokens, kind="weights", title=T("positions.sparse.dense"), key="dsa-dense", values=values,
              rows_are="query", cols_are="key")
    with right:
        chart(t.weights, tokens, tokens, kind="weights", title=T("positions.sparse.sparse", k=top_k), key="dsa-sparse", values=values,
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
