"""What a live class can be asked, and who asks it: the lesson's stops (each a question whose answer the core computes,
drawn by the lesson page and asked by the live class), a focused word's question, and the session keys of the class's
teacher and students. Shared by the pages that ask (``views.widgets.ask``) and the live class itself (``views.live``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st

from attention_core import asymmetry, explain, softmax, textbook_example
from attention_core.positions import permuted, positional_encoding, positioned_head, shuffle_order
from attention_core.pretrained import head_summary
from views.shell.registry import LONG_EXAMPLE, MAX_TOKENS
from views.widgets import model as real
from views.widgets.snapshots import load_snapshot

TEACHER = "live.teacher"  # session: (code, key) of the class this session teaches
STUDENT = "live.student"  # session: (code, student id) of the class this session sits in
LINK_REFUSED = "live.link_refused"  # session: (the code, the refusal) of a teacher link that seated nobody
LINK_KEPT = "live.link_kept"  # session: a wrong teacher link opened where this browser teaches the class already
TEACHER_COOKIE = "attention_teacher"  # the teacher's browser: code.key of the running class, so that a reload stays the teacher
WALK_ITEM = "live-walk-item"  # the walkthrough's focused question as it last drew it (random, textbook or real head)


def cookies() -> dict[str, str]:
    """The browser's cookies as this run received them (who teaches, which seat)."""
    return {name: str(value) for name, value in (st.context.cookies or {}).items()}


@dataclass(frozen=True)
class Item:
    """A question the teacher can open: its stored id, how many options, the correct one, computed option labels."""

    id: str
    options: int
    correct: int
    labels: tuple[str, ...] = ()


def focus_item(weights, key_tokens: tuple[str, ...], focus: int, setting: str = "random-1") -> Item:
    """"Which key does the focused word give the most weight?": the options are the keys, the answer the row's largest
    weight (the walkthrough's own row, whatever head or model it shows). ``setting`` names the weights, for the wording:
    "random-{head}", "textbook" or "real-{layer}-{head}" (1-based); the id is "walk.{setting}.{focus}"."""
    labels = tuple(f"{j + 1} · {token}" for j, token in enumerate(key_tokens))
    return Item(f"walk.{setting}.{focus}", len(key_tokens), int(weights.argmax()), labels)


def remember_walk(item: Item | None) -> None:
    """The walkthrough's focused question, for the live page's list (None: this walk has no askable question)."""
    st.session_state[WALK_ITEM] = item


# --- The lesson's stops ---


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


def _learn() -> dict[str, object]:
    closeness = load_snapshot("induction").run.closeness  # (steps, layers, heads)
    best = int(np.argmax(closeness[-1, 1]))  # the layer-2 head that learns the pattern
    return {"before": f"{closeness[0, 1, best]:.2f}", "after": f"{closeness[-1, 1, best]:.2f}", "head": best + 1}


def _positions() -> dict[str, object]:
    e = explain(LONG_EXAMPLE, heads=1, score="scaled_dot", mode="soft", positions=False, max_tokens=MAX_TOKENS)
    vectors, p = e.token_vectors, e.projections
    order = shuffle_order("reverse", len(e.tokens))
    added = positional_encoding(*vectors.shape)
    gaps = {}
    for scheme in ("none", "sinusoidal"):  # as the positions page measures it (views/positions/__init__.py)
        head = positioned_head(vectors, p.w_q, p.w_k, p.w_v, scheme, added=added)
        shuffled = positioned_head(vectors[order], p.w_q, p.w_k, p.w_v, scheme, added=added)
        gaps[scheme] = float(np.abs(shuffled.weights - permuted(head, order)[0]).max())
    return {"none": f"{gaps['none']:.1e}", "sinusoidal": f"{gaps['sinusoidal']:.2f}"}


@dataclass(frozen=True)
class Stop:
    """One stop of the lesson: the page and values it opens, minutes, the right option, and the computed answer;
    ``longer``: a stop of the 60-minute class only."""

    id: str
    page: str
    params: dict[str, str]
    minutes: int
    correct: int  # index of the right option in the texts' list
    answer: Answer
    longer: bool = False
    compare: str = ""  # the walkthrough's compare preset that shows the stop's claim side by side (views/widgets/compare.py)


STOPS = (
    Stop("four_steps", "walkthrough", {"walk": "textbook", "step": "3"}, 8, 1, _textbook),
    Stop("your_sentence", "walkthrough", {"walk": "random", "text": LONG_EXAMPLE, "step": "5", "focus": "3", "predict": "1"}, 6, 1,
         _sentence),
    Stop("why_qkv", "why_qkv", {"text": LONG_EXAMPLE}, 5, 1, _shared_matrix),
    Stop("kinds", "types", {"text": LONG_EXAMPLE, "section": "modes"}, 6, 0, _hard, compare="hard"),
    Stop("multi_head", "multihead", {"text": LONG_EXAMPLE, "d_model": "16", "heads": "4", "split": "1"}, 5, 2, _heads,
         compare="heads"),
    Stop("cross", "cross", {"pair": "translation"}, 4, 1, _cross),
    Stop("rnn", "rnn", {"text": LONG_EXAMPLE, "step": "3"}, 4, 2, _rnn),
    Stop("scaling", "scaling", {"d_k": "64"}, 4, 0, _scaling, compare="scaling"),
    Stop("real", "real", {"text": "The animal didn't cross the street because it was too tired.", "layer": "1", "head": "3",
                          "predict": "1", "query": "8"}, 3, 1, _real, compare="trained"),  # the class predicts "it" first
    Stop("positions", "positions", {"text": LONG_EXAMPLE, "section": "positions", "shuffle": "reverse"}, 7, 1, _positions,
         longer=True, compare="positions"),
    Stop("learn", "learn", {"section": "watch", "task": "induction", "step": "0"}, 8, 1, _learn, longer=True),
)
SHORT = tuple(stop for stop in STOPS if not stop.longer)  # the 45-minute class


@st.cache_data(show_spinner=False)
def answer_values(stop_id: str) -> dict[str, object]:
    """The numbers a stop's answer states, computed once per server."""
    return next(stop for stop in STOPS if stop.id == stop_id).answer()
