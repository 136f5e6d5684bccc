"""Caching in the UI layer: computations and figures shared by every session, bounded in size.

Traces and figures are immutable once built, so one copy serves all sessions
(st.cache_resource, no pickling); ``max_entries`` bounds the memory a stream of
distinct sentences can take.
"""

from __future__ import annotations

import functools
import time

import numpy as np
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
from attention_plot import figures


class Key:
    """An array as a dictionary key: equal when shape, dtype and bytes are equal (``.array`` is the array)."""

    __slots__ = ("_id", "array")

    def __init__(self, array: NDArray) -> None:
        self.array = np.ascontiguousarray(array)
        self._id = (self.array.shape, self.array.dtype.str, self.array.tobytes())

    def __hash__(self) -> int:
        return hash(self._id)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Key) and self._id == other._id


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
    hidden_note: str = "",
    ink: tuple[NDArray, float] | None = None,
    zmax: float = 1.0,
) -> figures.Spec:
    """``figures.heatmap`` as the JSON Plotly draws, built once per distinct input for every session.

    ``arithmetic`` = (q, k) adds q·k to the hover, term by term, adding up to the cells as shown. The last 2048
    distinct heatmaps are kept; ``ink`` (image, level) draws the image's outline over the cells (``figures.with_ink``).
    The key is the arrays' bytes, cheaper than ``st.cache_resource``'s signature and MD5 on
    every call (measured with ``make profile``: a fifth of a loaded server's time went to those keys).
    """
    return _heatmap(Key(matrix), rows, cols, kind, title, x_title, y_title, show_values, hover_rows, hover_cols,
                    None if arithmetic is None else (Key(arithmetic[0]), Key(arithmetic[1])), decimals, column_groups,
                    None if outline is None else Key(outline), font, hidden_note, None if ink is None else (Key(ink[0]), float(ink[1])), zmax)


@functools.lru_cache(maxsize=2048)
def _heatmap(matrix: Key, rows: tuple[str, ...], cols: tuple[str, ...], kind: str, title: str, x_title: str, y_title: str,
             show_values: bool, hover_rows: str, hover_cols: str, arithmetic: tuple[Key, Key] | None, decimals: int,
             column_groups: int, outline: Key | None, font: int, hidden_note: str, ink: tuple[Key, float] | None,
             zmax: float = 1.0) -> figures.Spec:
    extra = None
    if arithmetic is not None:
        q, k = arithmetic[0].array, arithmetic[1].array
        shown = np.where(np.isfinite(matrix.array), matrix.array, q @ k.T)  # a hidden row's hover is blanked by heatmap
        extra = figures.dot_arithmetic(q, k, shown, decimals)
    figure = figures.heatmap(
        matrix.array, rows, cols, kind=kind, title=title, x_title=x_title, y_title=y_title, show_values=show_values,
        hover_rows=hover_rows, hover_cols=hover_cols, hover_extra=extra, decimals=decimals, column_groups=column_groups,
        outline=None if outline is None else outline.array, font=font, hidden_note=hidden_note, zmax=zmax,
    )
    return figures.spec(figure if ink is None else figures.with_ink(figure, ink[0].array, ink[1]))
