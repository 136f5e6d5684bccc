"""Cosine similarity: its range [-1, 1], how length leaves it unchanged, and why softmax needs it scaled."""

import numpy as np
import streamlit as st

from attention_core import similarity_matrices, softmax_over_scales, stretch_sweep, vector_pair
from attention_core.scores import DEFAULT_COSINE_SCALE
from views import figures, page, page_state
from views.charts import chart, show
from views.inputs import explanation_or_stop

PAGE = "cosine"
PARAMS = {"angle_a": (-180, 180, 20), "length_a": (1, 50, 20), "angle_b": (-180, 180, 75), "length_b": (1, 50, 30), "query": (1, 48, 1)}
SCALES = np.logspace(0, 2, 81)  # 1 .. 100
LENGTHS = np.linspace(0.1, 5.0, 50)

settings, T = page.start("cosine", PAGE, PARAMS)

st.subheader(T("cosine.vectors"))
controls, picture = st.columns([1, 2])
with controls:
    angle_a = st.slider(T("cosine.angle_a"), -180, 180, key=page_state.widget_key(PAGE, "angle_a", int))
    length_a = st.slider(T("cosine.length_a"), 0.1, 5.0, step=0.1, key=page_state.widget_key(PAGE, "length_a", lambda v: v / 10))
    angle_b = st.slider(T("cosine.angle_b"), -180, 180, key=page_state.widget_key(PAGE, "angle_b", int))
    length_b = st.slider(T("cosine.length_b"), 0.1, 5.0, step=0.1, key=page_state.widget_key(PAGE, "length_b", lambda v: v / 10))
for name, value in (("angle_a", angle_a), ("length_a", round(length_a * 10)), ("angle_b", angle_b), ("length_b", round(length_b * 10))):
    page_state.put(PAGE, name, value)
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

st.subheader(T("cosine.scale_title"))
st.markdown(T("cosine.scale_intro", scale=f"{DEFAULT_COSINE_SCALE:g}"))
cosine = explanation_or_stop(settings, T, heads=1, score="cosine", mode="soft")
tokens = cosine.tokens
query_key = page_state.widget_key(PAGE, "query", lambda q: min(q, len(tokens)) - 1)
st.session_state[query_key] = min(st.session_state[query_key], len(tokens) - 1)
query = st.selectbox(T("cosine.pick"), range(len(tokens)), key=query_key, format_func=lambda i: f"{i + 1} · {tokens[i]}")
page_state.put(PAGE, "query", query + 1)
weights = softmax_over_scales(cosine.trace.heads[0].raw_scores[query], SCALES)  # (scales, keys)
show(figures.lines(SCALES, weights.T, tuple(f"{j + 1} · {t}" for j, t in enumerate(tokens)),
                   title=T("cosine.scale_chart", token=figures.label(tokens[query])), x_title=T("cosine.scale_axis"),
                   y_title=T("cosine.weight_axis"), log_x=True, mark_x=(1.0, DEFAULT_COSINE_SCALE)), key="scales")

st.subheader(T("cosine.matrices"))
st.markdown(T("cosine.matrices_intro"))
cos_matrix, dot_matrix = similarity_matrices(cosine.x)
left, right = st.columns(2)
with left:
    chart(cos_matrix, tokens, tokens, kind="signed", title=T("cosine.cosine_matrix"), key="cos-matrix", T=T, values=True, cols_are="token")
with right:
    chart(dot_matrix, tokens, tokens, kind="signed", title=T("cosine.dot_matrix"), key="dot-matrix", T=T, values=True, cols_are="token")
page_state.publish(PAGE, list(PARAMS))
