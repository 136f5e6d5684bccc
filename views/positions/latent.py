"""The "Positions and scale" page's section on latent attention (MLA), on the typed sentence in small sizes, step by
step: the latent and the RoPE key the cache keeps, keys and values rebuilt, the queries, one head's scores, the absorbed
form, and DeepSeek-V2/V3's published caches against MHA, GQA and MQA.

Every number comes from attention_core.latent; every bound and option of a control from views/shell/registry.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from attention_core import tokenize
from attention_core.latent import (
    CACHE_LAYOUTS,
    GQA_GROUPS,
    LATENT_SHAPES,
    LatentShape,
    cache_numbers,
    equivalent_groups,
    init_latent,
    latent_attention,
    latent_cache_bytes,
)
from attention_plot.text import Texts
from views.positions import readable_bytes
from views.shell.page import View
from views.shell.registry import LATENT_HEADS
from views.widgets.charts import chart, dims
from views.widgets.inputs import explanation_or_stop
from views.widgets.tables import named_table


def by_columns(heads: NDArray) -> NDArray:
    """(H, n, d) -> (n, H * d): the heads side by side, head i in columns i*d:(i+1)*d, as the projections lay them out."""
    return heads.transpose(1, 0, 2).reshape(heads.shape[1], -1)


def head_columns(heads: int, width: int, T: Texts) -> tuple[str, ...]:
    """Column labels of heads side by side: h1·1, h1·2, ..., h2·1, ..."""
    return tuple(T("positions.latent.column", h=h + 1, i=i + 1) for h in range(heads) for i in range(width))


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
        chart(t.c_kv, tokens, dims(d_c), kind="signed", title=T("positions.latent.c_kv", d_c=d_c), key="mla-c-kv", values=values)
    with right:
        chart(t.k_r, tokens, dims(d_r), kind="k", title=T("positions.latent.k_r", d_r=d_r), key="mla-k-r", values=values)
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
        chart(by_columns(t.k_c), tokens, labels, kind="k", title=T("positions.latent.k_c"), key="mla-k-c", values=values)
    with right:
        chart(by_columns(t.v_c), tokens, labels, kind="v", title=T("positions.latent.v_c"), key="mla-v-c", values=values)

    st.subheader(T("positions.latent.query_step"))
    left, right = st.columns(2)
    with left:
        chart(by_columns(t.q_c), tokens, labels, kind="q", title=T("positions.latent.q_c", d_cq=3 * d_c), key="mla-q-c", values=values)
    with right:
        chart(by_columns(t.q_r), tokens, head_columns(H, d_r, T), kind="q", title=T("positions.latent.q_r"), key="mla-q-r",
              values=values)

    st.subheader(T("positions.latent.score_step", head=head))
    if view.layout.explains:
        st.latex(T("positions.latent.formula"))
    future = ~np.tril(np.ones((n, n), dtype=bool))  # the causal mask hides these: left blank
    left, right = st.columns(2)
    with left:
        chart(np.where(future, np.nan, t.raw_content[h]), tokens, tokens, kind="signed", title=T("positions.latent.content", head=head),
              key="mla-content", values=values, rows_are="query", cols_are="key")
    with right:
        chart(np.where(future, np.nan, t.raw_rope[h]), tokens, tokens, kind="signed", title=T("positions.latent.rope", head=head),
              key="mla-rope", values=values, rows_are="query", cols_are="key")
    left, right = st.columns(2)
    with left:
        chart(t.weights[h], tokens, tokens, kind="weights", title=T("positions.latent.weights", head=head, divisor=f"{t.divisor:.3g}"),
              key="mla-weights", values=values, rows_are="query", cols_are="key")
    with right:
        chart(t.outputs[h], tokens, dims(d_h), kind="signed", title=T("positions.latent.output", head=head), key="mla-output", values=values)

    st.subheader(T("positions.latent.absorbed_step"))
    if view.layout.explains:
        st.markdown(T("positions.latent.absorbed_intro"))
        st.latex(T("positions.latent.absorbed_formula"))
    left, right = st.columns(2)
    with left:
        chart(t.absorbed_q[h], tokens, dims(d_c), kind="q", title=T("positions.latent.absorbed_q", head=head, d_c=d_c), key="mla-absorbed-q",
              values=values)
    with right:
        chart(np.where(future, np.nan, t.absorbed_content[h]), tokens, tokens, kind="signed",
              title=T("positions.latent.absorbed_content", head=head), key="mla-absorbed-content", values=values, rows_are="query",
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
