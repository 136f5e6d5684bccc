"""Caching in the UI layer: computations and figures shared by every session, bounded in size.

Traces and figures are immutable once built, so one copy serves all sessions
(st.cache_resource, no pickling); ``max_entries`` bounds the memory a stream of
distinct sentences can take.

A page hands its ``Settings`` (the sidebar's values) to ``explanation_for``, ``general_for`` or ``document_for``: they
turn them into the core's options here, beside the cached call (``core_options`` is the one place that knows the
core's names for them: ``pe`` is ``positions``, the token limit ``max_tokens``). A heatmap arrives as one
``figures.Heatmap`` and leaves as its JSON (``heatmap``).
"""

from __future__ import annotations

import functools
import timeit

import numpy as np
import streamlit as st

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
from views.shell.page import Settings
from views.shell.registry import MAX_TOKENS


def core_options(settings: Settings, **overrides: object) -> dict[str, object]:
    """The shared settings as keyword arguments of ``attention_core.explain`` (besides the text), with a page's
    ``overrides`` (one head, another score, a causal mask...) in the core's own names."""
    return dict(d_model=settings.d_model, d_k=settings.d_k, heads=settings.heads, score=settings.score, mode=settings.mode,
                window=settings.window, positions=settings.pe, seed=settings.seed, max_tokens=MAX_TOKENS) | overrides


def explanation_for(settings: Settings, text: str | None = None, **overrides: object) -> Explanation:
    """``text`` (the sidebar's sentence when None) explained with the settings and ``overrides`` (``core_options``)."""
    return explanation(settings.text if text is None else text, **core_options(settings, **overrides))


@st.cache_resource(max_entries=256, show_spinner=False)
def explanation(text: str, **options: object) -> Explanation:
    """``attention_core.explain(text, **options)``, computed once per distinct input."""
    return explain(text, **options)  # type: ignore[arg-type]


@st.cache_resource(show_spinner=False)
def textbook() -> AttentionTrace:
    """The article's "Thinking Machines" trace (112, 96 -> 14, 12 -> 0.88, 0.12)."""
    return textbook_example()


def general_for(settings: Settings, question: str, passage: str, **overrides: object) -> tuple[Explanation, AttentionTrace]:
    """General attention of ``question`` over ``passage`` with the settings and ``overrides`` (``core_options``)."""
    return general(question, passage, **core_options(settings, **overrides))


@st.cache_resource(max_entries=256, show_spinner=False)
def general(question: str, passage: str, **options: object) -> tuple[Explanation, AttentionTrace]:
    """``attention_core.general_attention``, computed once per distinct input."""
    return general_attention(question, passage, **options)


def document_for(settings: Settings, text: str, **overrides: object) -> HierarchicalTrace:
    """The hierarchical trace of a document with the settings it uses (d_model, seed, positions, the token limit) and
    ``overrides`` (``max_sentences``)."""
    options = core_options(settings)
    return document(text, **{name: options[name] for name in ("d_model", "seed", "positions", "max_tokens")} | overrides)


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

    The minimum of ``timeit.repeat`` (as timeit recommends) is the figure least disturbed by other work on the machine.
    """
    weights, projections = init_rnn(d, d, seed=0), init_projections(d, d, d, 1, seed=0)
    times: dict[str, list[float]] = {"rnn": [], "attention": []}
    w = projections
    for n in lengths:
        x = embed([f"w{i}" for i in range(n)], d)
        for name, run in (("rnn", lambda x=x: rnn(x, weights)),
                          ("attention", lambda x=x: multi_head(x, x, w.w_q, w.w_k, w.w_v, w.w_o, heads=1))):
            run()
            times[name].append(min(timeit.repeat(run, repeat=repeat, number=1)) * 1000)
    return times


@functools.lru_cache(maxsize=2048)
def heatmap(described: figures.Heatmap) -> figures.Spec:
    """``figures.heatmap`` as the JSON Plotly draws, built once per distinct description for every session.

    The last 2048 distinct heatmaps are kept. The description is its own key (its arrays' bytes), cheaper than
    ``st.cache_resource``'s signature and MD5 on every call (measured with ``make profile``: a fifth of a loaded server's
    time went to those keys).
    """
    return figures.spec(figures.heatmap(described))
