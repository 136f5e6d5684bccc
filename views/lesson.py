"""The lesson path: the article's order as stops, each with a view to open, a question, and an answer computed by the core."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st

from attention_core import asymmetry, explain, softmax, textbook_example
from attention_core.pretrained import head_summary
from attention_plot import figures
from views import real
from views.page import View
from views.registry import BY_ID, LONG_EXAMPLE, MAX_TOKENS

Answer = Callable[[], dict[str, object]]  # the numbers the answer states, computed now


def _textbook() -> dict[str, object]:
    trace = textbook_example()
    return {"weight": f"{trace.weights[0, 0]:.2f}", "other": f"{trace.weights[0, 1]:.2f}", "scaled": f"{trace.scaled_scores[0, 0]:g}"}


def _sentence() -> dict[str, object]:
    weights = explain(LONG_EXAMPLE, max_tokens=MAX_TOKENS).trace.heads[0].weights
    return {"n": weights.shape[0], "cells": weights.size, "sums": f"{weights.sum(axis=1).min():.4f}"}


def _shared_matrix() -> dict[str, object]:
    shared = explain(LONG_EXAMPLE, heads=1, shared_qk=True, max_tokens=MAX_TOKENS).trace.heads[0].raw_scores
    separate = explain(LONG_EXAMPLE, heads=1, max_tokens=MAX_TOKENS).trace.heads[0].raw_scores
    return {"shared": f"{np.abs(asymmetry(shared)).max():.4f}", "separate": f"{np.abs(asymmetry(separate)).max():.2f}"}


def _hard() -> dict[str, object]:
    weights = explain(LONG_EXAMPLE, heads=1, mode="hard", max_tokens=MAX_TOKENS).trace.heads[0].weights
    return {"keys": int((weights > 0).sum(axis=1).max())}


def _heads() -> dict[str, object]:
    e = explain(LONG_EXAMPLE, d_model=16, d_k=4, heads=4, max_tokens=MAX_TOKENS)
    return {"d_k": e.trace.heads[0].q.shape[1], "concat": e.trace.concat.shape[1]}


def _cross() -> dict[str, object]:
    e = explain("我是一个学生", context="I am a student", heads=1)
    return {"rows": len(e.tokens), "cols": len(e.context_tokens)}


def _rnn() -> dict[str, object]:
    n = len(explain(LONG_EXAMPLE, max_tokens=MAX_TOKENS).tokens)
    return {"n": n, "rnn": n, "attention": 1}


def _scaling() -> dict[str, object]:
    raw = softmax(np.array([[112.0, 96.0]]))[0, 0]
    return {"std": f"{math.sqrt(64):g}", "unscaled": f"{raw:.7f}"}


def _real() -> dict[str, object]:
    model = real.model()
    if model is None:
        return {"share": "–"}
    trace = real.run(model, str(model.folder), "The animal didn't cross the street because it was too tired.")
    return {"share": f"{head_summary(trace)['previous'][0, 2]:.0%}"}


@dataclass(frozen=True)
class Stop:
    """One stop of the lesson: the page and values it opens, minutes, the right option, and the computed answer."""

    id: str
    page: str
    params: dict[str, str]
    minutes: int
    correct: int  # index of the right option in the texts' list
    answer: Answer


STOPS = (
    Stop("four_steps", "walkthrough", {"walk": "textbook", "step": "3"}, 8, 1, _textbook),
    Stop("your_sentence", "walkthrough", {"walk": "random", "text": LONG_EXAMPLE, "step": "5", "focus": "3"}, 6, 1, _sentence),
    Stop("why_qkv", "why_qkv", {"text": LONG_EXAMPLE}, 5, 1, _shared_matrix),
    Stop("kinds", "types", {"text": LONG_EXAMPLE, "section": "modes"}, 6, 0, _hard),
    Stop("multi_head", "multihead", {"text": LONG_EXAMPLE, "d_model": "16", "heads": "4", "split": "1"}, 5, 2, _heads),
    Stop("cross", "cross", {"pair": "translation"}, 4, 1, _cross),
    Stop("rnn", "rnn", {"text": LONG_EXAMPLE, "step": "3"}, 4, 2, _rnn),
    Stop("scaling", "scaling", {"d_k": "64"}, 4, 0, _scaling),
    Stop("real", "real", {"text": "The animal didn't cross the street because it was too tired.", "layer": "1", "head": "3"}, 3, 1, _real),
)


@st.cache_data(show_spinner=False)
def answer_values(stop_id: str) -> dict[str, object]:
    """The numbers a stop's answer states, computed once per server."""
    return next(stop for stop in STOPS if stop.id == stop_id).answer()


def draw_stop(view: View, number: int, stop: Stop) -> None:
    """One stop: what to show (a link opening that exact view, presenter-ready), the question, predict, then reveal."""
    T = view.T
    key = f"lesson.{stop.id}"
    with st.container(border=True):
        st.markdown(f"#### {number}. {T(f'lesson.stops.{stop.id}.title')}  \n{T('lesson.minutes', minutes=stop.minutes)}")
        st.markdown(T(f"lesson.stops.{stop.id}.show"))
        page = BY_ID[stop.page]
        params = stop.params | {"lang": view.settings.lang}
        open_here, open_projector = st.columns(2)
        open_here.page_link(page.file_path, label=T("lesson.open"), icon=":material/open_in_browser:", query_params=params)
        open_projector.page_link(page.file_path, label=T("lesson.open_present"), icon=":material/co_present:",
                                 query_params=params | {"present": "1"})
        values = answer_values(stop.id)
        st.markdown(f"**{T('lesson.ask')}** {T(f'lesson.stops.{stop.id}.ask', **values)}")
        options = [str(option).format(**values) for option in T.get(f"lesson.stops.{stop.id}.options")]
        guess = st.radio(T("lesson.your_guess"), range(len(options)), index=None, key=f"{key}.guess",
                         format_func=lambda i: figures.plain(options[i]), horizontal=True)
        from views import live  # the live page reads the stops: imported here, not at the top

        live.ask_here(T, live.Item(f"lesson.{stop.id}", len(options), stop.correct), key=f"{key}.live")
        if st.toggle(T("lesson.reveal"), key=f"{key}.reveal", disabled=guess is None):
            verdict = "lesson.right" if guess == stop.correct else "lesson.wrong"
            (st.success if guess == stop.correct else st.warning)(
                f"{T(verdict, option=options[stop.correct])}  \n{T(f'lesson.stops.{stop.id}.answer', **values)}",
                icon=":material/lightbulb:")
