"""Caching in the UI layer: computations and figures shared by every session, bounded in size.

Traces and figures are immutable once built, so one copy serves all sessions
(st.cache_resource, no pickling); ``max_entries`` bounds the memory a stream of
distinct sentences can take.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st
from numpy.typing import NDArray

from attention_core import AttentionTrace, Explanation, explain, textbook_example
from views import figures


@st.cache_resource(max_entries=256, show_spinner=False)
def explanation(text: str, **options: object) -> Explanation:
    """``attention_core.explain(text, **options)``, computed once per distinct input."""
    return explain(text, **options)  # type: ignore[arg-type]


@st.cache_resource(show_spinner=False)
def textbook() -> AttentionTrace:
    """The article's "Thinking Machines" trace (112, 96 -> 14, 12 -> 0.88, 0.12)."""
    return textbook_example()


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
) -> go.Figure:
    """``figures.heatmap``, built once per distinct input; ``arithmetic`` = (q, k) adds the q·k sums to the hover."""
    extra = None if arithmetic is None else figures.dot_arithmetic(*arithmetic)
    return figures.heatmap(
        matrix, rows, cols, kind=kind, title=title, x_title=x_title, y_title=y_title, show_values=show_values,
        hover_rows=hover_rows, hover_cols=hover_cols, hover_extra=extra, decimals=decimals, column_groups=column_groups,
        outline=outline,
    )
