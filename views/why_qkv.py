"""Why Q, K and V: a shared matrix makes scores symmetric; V transforms what is handed over."""

from __future__ import annotations

import streamlit as st

from attention_core import Explanation, asymmetry, weighted_sum
from views.shell.page import View
from views.widgets.charts import chart, dims
from views.widgets.inputs import explanation_or_stop


def sentences(view: View) -> tuple[Explanation, Explanation]:
    """The sidebar's sentence on one head, with separate W_Q and W_K and with one matrix shared by both."""
    settings, T = view.settings, view.T
    st.info(T("why_qkv.roles"))
    separate = explanation_or_stop(settings, T, heads=1, score="scaled_dot", mode="soft")
    shared = explanation_or_stop(settings, T, heads=1, score="scaled_dot", mode="soft", shared_qk=True)
    return separate, shared


def asymmetry_section(view: View, separate: Explanation, shared: Explanation) -> None:
    """Each one's raw scores beside their asymmetry (S - Sᵀ): zero when Q and K share their matrix."""
    T = view.T
    tokens = separate.tokens
    st.header(T("why_qkv.asym_title"))
    st.markdown(T("why_qkv.asym_intro"))
    gaps = {}
    for name, e in (("separate", separate), ("shared", shared)):
        scores = e.trace.heads[0].raw_scores
        difference = asymmetry(scores)
        gaps[name] = f"{abs(difference).max():.4f}"
        left, right = st.columns(2)
        with left:
            chart(scores, tokens, tokens, kind="signed", title=T(f"why_qkv.{name}"), key=f"{name}-scores", values=True,
                  rows_are="query", cols_are="key")
        with right:
            chart(difference, tokens, tokens, kind="signed", title=T(f"why_qkv.{name}_diff"), key=f"{name}-diff", values=True,
                  rows_are="query", cols_are="key")
    st.markdown(f"**{T('why_qkv.largest', **gaps)}**")


def values_section(view: View, separate: Explanation) -> None:
    """The weights, and what they hand over without V (the inputs themselves) and with it."""
    T = view.T
    tokens = separate.tokens
    st.header(T("why_qkv.values_title"))
    st.markdown(T("why_qkv.values_intro"))
    head = separate.trace.heads[0]
    chart(head.weights, tokens, tokens, kind="weights", title=T("why_qkv.weights"), key="weights", values=True,
          rows_are="query", cols_are="key")
    left, right = st.columns(2)
    with left:
        without_v = weighted_sum(head.weights, separate.x)
        chart(without_v, tokens, dims(without_v.shape[1]), kind="signed", title=T("why_qkv.without_v"), key="without-v", values=True)
    with right:
        chart(head.output, tokens, dims(head.output.shape[1]), kind="signed", title=T("why_qkv.with_v"), key="with-v", values=True)
