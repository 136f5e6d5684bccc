"""Cosine similarity: its range [-1, 1], how length leaves it unchanged, and why softmax needs it divided."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import similarity_matrices, softmax_over_scales, stretch_sweep, vector_pair
from attention_core.scores import DEFAULT_COSINE_DIVISOR
from attention_plot import figures
from views.shell.page import View
from views.widgets.charts import chart, show
from views.widgets.inputs import explanation_or_stop

MULTIPLIERS = np.logspace(0, 2, 81)  # 1 .. 100: the cosines times these (divided by 1 .. 0.01)
LENGTHS = np.linspace(0.1, 5.0, 50)


def vectors_section(view: View) -> None:
    """Two vectors by angle and length: their arrows, cosine and dot product, and b stretched along its length."""
    T = view.T
    st.header(T("cosine.vectors"))
    controls, picture = st.columns([1, 2])
    with controls:
        angle_a = view.widget("angle_a", T("cosine.angle_a"))
        length_a = view.widget("length_a", T("cosine.length_a"))
        angle_b = view.widget("angle_b", T("cosine.angle_b"))
        length_b = view.widget("length_b", T("cosine.length_b"))
    pair = vector_pair(angle_a, length_a, angle_b, length_b)
    with picture:
        show(figures.vectors(pair.a, pair.b, names=("a", "b"), title=T("cosine.arrows")), key="arrows")
    cos_metric, dot_metric, product_metric = st.columns(3)
    cos_metric.metric(T("cosine.cos"), f"{pair.cos:.4f}")
    dot_metric.metric(T("cosine.dot"), f"{pair.dot:.4f}")
    product_metric.metric(T("cosine.product"), f"{pair.length_a * pair.length_b * pair.cos:.4f}")
    st.markdown(T("cosine.identity", la=f"{pair.length_a:g}", lb=f"{pair.length_b:g}", cos=f"{pair.cos:.4f}", dot=f"{pair.dot:.4f}"))
    st.info(T("cosine.range"))
    cosines, dots = stretch_sweep(pair.a, pair.b, LENGTHS)
    show(figures.lines(LENGTHS, np.stack([cosines, dots]), (T("cosine.series_cos"), T("cosine.series_dot")), title=T("cosine.length_title"),
                       x_title=T("cosine.length_axis"), y_title=T("cosine.value_axis"), mark_x=(length_b,)), key="stretch")


def sentence_sections(view: View) -> None:
    """On the sidebar's sentence: one query's weights as its cosines are multiplied (divided by less and less), then
    every pair's cosine beside its dot product."""
    settings, T = view.settings, view.T
    st.header(T("cosine.scale_title"))
    st.markdown(T("cosine.scale_intro", divisor=f"{DEFAULT_COSINE_DIVISOR:g}", multiplier=f"{1 / DEFAULT_COSINE_DIVISOR:g}"))
    cosine = explanation_or_stop(settings, T, heads=1, score="cosine", mode="soft")
    tokens = cosine.tokens
    view.clamp("query", 1, len(tokens))
    query = view.widget("query", T("cosine.pick"), style="selectbox", hi=len(tokens), format_func=lambda i: f"{i} · {tokens[i - 1]}") - 1
    weights = softmax_over_scales(cosine.trace.heads[0].raw_scores[query], MULTIPLIERS)  # (multipliers, keys)
    show(figures.lines(MULTIPLIERS, weights.T, tuple(f"{j + 1} · {t}" for j, t in enumerate(tokens)),
                       title=T("cosine.scale_chart", token=figures.label(tokens[query])), x_title=T("cosine.scale_axis"),
                       y_title=T("cosine.weight_axis"), log_x=True, mark_x=(1.0, 1 / DEFAULT_COSINE_DIVISOR)), key="scales")

    st.header(T("cosine.matrices"))
    st.markdown(T("cosine.matrices_intro"))
    cos_matrix, dot_matrix = similarity_matrices(cosine.x)
    left, right = st.columns(2)
    with left:
        chart(cos_matrix, tokens, tokens, kind="signed", title=T("cosine.cosine_matrix"), key="cos-matrix", values=True, cols_are="token")
    with right:
        chart(dot_matrix, tokens, tokens, kind="signed", title=T("cosine.dot_matrix"), key="dot-matrix", values=True, cols_are="token")
