"""Caching in the UI layer: computations and figures shared by every session, bounded in size.

Traces and figures are immutable once built, so one copy serves all sessions
(st.cache_resource, no pickling); ``max_entries`` bounds the memory a stream of
distinct sentences can take.
"""

from __future__ import annotations

import time

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from numpy.typing import NDArray

from attention_core import (
    AttentionTrace,
    Explanation,
    HierarchicalTrace,
    embed,
    explain,
    general_attention,
    hierarchical,
    init_projections,
    init_rnn,
    multi_head,
    rnn,
    textbook_example,
)
from views import figures


@st.cache_resource(max_entries=256, show_spinner=False)
def explanation(text: str, **options: object) -> Explanation:
    """``attention_core.explain(text, **options)``, computed once per distinct input."""
    return explain(text, **options)  # type: ignore[arg-type]


@st.cache_resource(show_spinner=False)
def textbook() -> AttentionTrace:
    """The article's "Thinking Machines" trace (112, 96 -> 14, 12 -> 0.88, 0.12)."""
    return textbook_example()


@st.cache_resource(max_entries=256, show_spinner=False)
def general(question: str, passage: str, **options: object) -> tuple[Explanation, AttentionTrace]:
    """``attention_core.general_attention``, computed once per distinct input."""
    return general_attention(question, passage, **options)


@st.cache_resource(max_entries=256, show_spinner=False)
def document(text: str, **options: object) -> HierarchicalTrace:
    """``attention_core.hierarchical``, computed once per distinct document."""
    return hierarchical(text, **options)  # type: ignore[arg-type]


@st.cache_resource(max_entries=64, show_spinner=False)
def rnn_states(x: np.ndarray, d_hidden: int, seed: int) -> np.ndarray:
    """The Elman RNN's hidden states for the rows of x."""
    return rnn(x, init_rnn(x.shape[1], d_hidden, seed=seed))


@st.cache_data(max_entries=8, show_spinner=False)
def layer_times(d: int, lengths: tuple[int, ...], repeat: int = 7) -> dict[str, list[float]]:
    """Fastest of ``repeat`` runs, in milliseconds, of one RNN layer and one self-attention layer per length.

    The minimum (as timeit recommends) is the figure least disturbed by other work on the machine.
    """
    weights, projections = init_rnn(d, d, seed=0), init_projections(d, d, d, 1, seed=0)
    times: dict[str, list[float]] = {"rnn": [], "attention": []}
    w = projections
    for n in lengths:
        x = embed([f"w{i}" for i in range(n)], d)
        for name, run in (("rnn", lambda x=x: rnn(x, weights)),
                          ("attention", lambda x=x: multi_head(x, x, w.w_q, w.w_k, w.w_v, w.w_o, heads=1))):
            run()
            samples = []
            for _ in range(repeat):
                start = time.perf_counter()
                run()
                samples.append((time.perf_counter() - start) * 1000)
            times[name].append(min(samples))
    return times


@st.cache_resource(max_entries=2048, show_spinner=False)
def heatmap(
    matrix: NDArray,
    rows: tuple[str, ...],
    cols: tuple[str, ...],
    kind: str,
    title: str,
    x_title: str,
    y_title: str,
    show_values: bool,
    hover_rows: str,
    hover_cols: str,
    arithmetic: tuple[NDArray, NDArray] | None = None,
    decimals: int = 2,
    column_groups: int = 1,
    outline: NDArray | None = None,
    font: int = 13,
) -> go.Figure:
    """``figures.heatmap``, built once per distinct input; ``arithmetic`` = (q, k) adds the q·k sums to the hover."""
    extra = None if arithmetic is None else figures.dot_arithmetic(*arithmetic)
    return figures.heatmap(
        matrix, rows, cols, kind=kind, title=title, x_title=x_title, y_title=y_title, show_values=show_values,
        hover_rows=hover_rows, hover_cols=hover_cols, hover_extra=extra, decimals=decimals, column_groups=column_groups,
        outline=outline, font=font,
    )
