"""Multi-head attention: every head's weights, the concatenation, W_O, the cost, and how the heads differ."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from attention_core import Explanation, head_distances, multi_head_cost
from views.shell.page import View
from views.widgets.charts import chart, dims
from views.widgets.inputs import explanation_or_stop
from views.widgets.tables import named_table


@dataclass(frozen=True)
class Heads:
    """The heads as the page's controls set them: how many, each one's d_k, and the sentence explained with them."""

    heads: int
    d_k: int
    e: Explanation


def heads_controls(view: View) -> Heads:
    """The number of heads (the shared setting, drawn here) and whether they split d_model between them."""
    settings, T = view.settings, view.T
    heads = view.widget("heads", T("multihead.heads"), help=T("multihead.heads_help"))
    split = view.widget("split", T("multihead.split"), help=T("multihead.split_help"))
    d_k = max(1, settings.d_model // heads) if split else settings.d_k
    st.caption(T("multihead.split_note" if split else "multihead.free_note", d_model=settings.d_model, heads=heads, d_k=d_k))
    return Heads(heads, d_k, explanation_or_stop(settings, T, heads=heads, d_k=d_k))


def cost(view: View, chosen: Heads) -> None:
    settings, T, heads, d_k = view.settings, view.T, chosen.heads, chosen.d_k
    n = len(chosen.e.tokens)
    st.header(T("multihead.cost_title"))
    st.markdown(T("multihead.cost_intro", n=n))
    st.latex(T("multihead.cost_formula"))
    counts = multi_head_cost(n, n, settings.d_model, d_k, d_k, heads)
    baseline = multi_head_cost(n, n, settings.d_model, settings.d_model, settings.d_model, 1)
    names = [T(f"multihead.parts_{part}") for part in counts]
    one_head = T("multihead.one_head", d_model=settings.d_model)
    named_table(pd.DataFrame({T("multihead.part"): names, T("multihead.count"): [f"{counts[p]:,}" for p in counts],
                              one_head: [f"{baseline[p]:,}" for p in baseline]}),
                T("multihead.cost_caption", heads=heads, d_k=d_k, n=n), row_headers=1, numbers=[T("multihead.count"), one_head])


def grid(view: View, chosen: Heads) -> None:
    """Every head's weights side by side, two in a row up to four heads (four in a row would rotate the words into the title)."""
    T, heads, e = view.T, chosen.heads, chosen.e
    tokens = e.tokens
    st.header(T("multihead.grid_title"))
    per_row = min(heads, 2 if heads <= 4 else 4)
    for h, trace in enumerate(e.trace.heads):
        if h % per_row == 0:  # a row of columns at a time: a screen reader and the Tab key meet the heads in order 1, 2, 3, 4
            columns = st.columns(per_row)
        with columns[h % per_row]:
            chart(trace.weights, tokens, tokens, kind="weights", title=T("multihead.head", number=h + 1), key=f"head-{h}",
                  values=True, rows_are="query", cols_are="key")  # too small to read: hidden, with a note (theme.css)
    chart(e.trace.concat, tokens, dims(e.trace.concat.shape[1]), kind="signed", title=T("multihead.concat"), key="concat",
          values=True, column_groups=heads)
    left, right = st.columns(2)
    with left:
        chart(e.projections.w_o, dims(e.projections.w_o.shape[0]), dims(e.projections.w_o.shape[1]), kind="signed",
              title=T("multihead.w_o"), key="w-o", values=True, rows_are="dimension")
    with right:
        chart(e.trace.output, tokens, dims(e.trace.output.shape[1]), kind="signed", title=T("multihead.output"), key="output",
              values=True)


def diversity(view: View, chosen: Heads) -> None:
    T, heads = view.T, chosen.heads
    st.header(T("multihead.diversity_title"))
    st.markdown(T("multihead.diversity_intro"))
    if heads == 1:
        st.info(T("multihead.single"))
    else:
        labels = tuple(T("multihead.head", number=h + 1) for h in range(heads))
        chart(head_distances(chosen.e.trace.heads), labels, labels, kind="weights", title=T("multihead.diversity"), key="diversity",
              values=True, rows_are="head", cols_are="head", decimals=3)


def sections(view: View) -> tuple[Callable[[View, Heads], None], ...]:
    """On a screen the cost comes first, as in the article; on a projector the heads do, and the cost after them."""
    return (grid, diversity, cost) if view.layout.side_by_side else (cost, grid, diversity)
