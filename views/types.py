"""Panels for the pages that compare kinds of attention: a weight heatmap beside its entropy bars."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st
from numpy.typing import NDArray

from attention_core import AttentionTrace, entropy_bits
from attention_plot import figures
from attention_plot.text import Texts
from views.widgets.charts import chart, show


def weights_with_entropy(weights: NDArray, tokens: tuple[str, ...], key_tokens: tuple[str, ...], *, title: str, key: str,
                         T: Texts, outline: NDArray | None = None) -> None:
    """The weight heatmap (queries x keys) and, beside it, each query's entropy in bits."""
    left, right = st.columns([3, 1])
    with left:
        chart(weights, tokens, key_tokens, kind="weights", title=title, key=key, T=T, values=True,
              rows_are="query", cols_are="key", outline=outline)
    with right:
        max_bits = math.log2(max(len(key_tokens), 1))
        show(figures.entropy_bars(entropy_bits(weights), tokens, title=T("types.entropy"), x_title=T("types.entropy_axis"),
                                  max_bits=max_bits), key=f"{key}-entropy")


def score_panel(score: str, head: AttentionTrace, tokens: tuple[str, ...], T: Texts) -> None:
    """One score function: name, formula, when it is used, raw scores and the weights they give."""
    st.markdown(f"### {T(f'common.scores.{score}')}")
    st.latex(T(f"types.scores.formula_{score}"))
    st.caption(T(f"types.scores.note_{score}", divisor=f"{head.divisor:g}" if score == "cosine" else ""))
    raw, weights = st.columns(2)
    with raw:
        chart(head.raw_scores, tokens, tokens, kind="signed", title=T("types.scores.raw"), key=f"raw-{score}", T=T,
              values=True, rows_are="query", cols_are="key")
    with weights:
        chart(head.weights, tokens, tokens, kind="weights", title=T("types.scores.weights"), key=f"weights-{score}", T=T,
              values=True, rows_are="query", cols_are="key")
    max_bits = math.log2(max(len(tokens), 1))
    show(figures.entropy_bars(entropy_bits(head.weights), tokens, title=T("types.entropy"), x_title=T("types.entropy_axis"),
                              max_bits=max_bits), key=f"entropy-{score}")


def mode_panel(name: str, weights: NDArray, tokens: tuple[str, ...], T: Texts, *, outline: NDArray | None = None,
               **values: object) -> None:
    """One mode of attention: its name, its trade-off in a sentence, its weights and their entropy."""
    st.markdown(f"### {T(f'types.modes.{name}', **values)}")
    st.caption(T(f"types.modes.{name}_note"))
    weights_with_entropy(weights, tokens, tokens, title=T(f"types.modes.{name}", **values), key=f"mode-{name}", T=T,
                         outline=outline)


def window_outline(head: AttentionTrace) -> NDArray | None:
    """The local window of each query (for framing), or None outside the local modes."""
    return np.asarray(head.mask) if head.centres is not None else None
