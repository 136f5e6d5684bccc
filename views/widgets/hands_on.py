"""Hands-on numbers (edit a score, q, k or d_k and see every later step) and predict-then-reveal."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import AttentionTrace, dot_scores_of, focus_row
from attention_plot import figures
from attention_plot.text import Texts
from views.widgets.charts import fixed

MAX_EDITABLE_D_K = 16


def edit_numbers(head: AttentionTrace, key_tokens: tuple[str, ...], query: int, T: Texts, key: str) -> None:
    """Editable scores (or q and k components) and d_k; scaling, softmax and the weighted sum follow at once."""
    d_k = head.q.shape[1]
    modes = ["scores"] + (["vectors"] if d_k <= MAX_EDITABLE_D_K and head.score in ("dot", "scaled_dot") else [])
    mode = st.radio(T("classroom.edit_what"), modes, horizontal=True, key=f"{key}-mode", format_func=lambda m: T(f"classroom.mode_{m}"))
    labels = [figures.plain(t) for t in key_tokens]
    if mode == "scores":
        table = pd.DataFrame({T("classroom.key"): labels, T("classroom.score"): head.raw_scores[query]})
        edited = st.data_editor(table, disabled=[T("classroom.key")], hide_index=True, key=f"{key}-scores",
                                column_config={T("classroom.score"): st.column_config.NumberColumn(format="%.4f", required=True)})
        scores = edited[T("classroom.score")].to_numpy(dtype=float)
    else:
        rows = ["q"] + [f"k{j + 1} ({label})" for j, label in enumerate(labels)]
        vectors = pd.DataFrame(np.vstack([head.q[query], head.k]), columns=[str(i + 1) for i in range(d_k)])
        vectors.insert(0, "", rows)
        edited = st.data_editor(vectors, disabled=[""], hide_index=True, key=f"{key}-vectors")
        numbers = edited.iloc[:, 1:].to_numpy(dtype=float)
        scores = dot_scores_of(numbers[0], numbers[1:])
    if head.score == "scaled_dot":
        chosen_d_k = st.number_input(T("classroom.d_k", d_k=d_k), 1, 4096, value=d_k, key=f"{key}-d_k-{d_k}")  # follows d_k
        divisor = math.sqrt(chosen_d_k)
    else:
        divisor = head.divisor
    try:
        row = focus_row(np.nan_to_num(scores), divisor, head.v)
    except ValueError as error:
        st.error(figures.plain(str(error)))
        return
    st.table(pd.DataFrame({T("classroom.key"): labels, T("classroom.score"): fixed(row.raw_scores),
                           T("classroom.scaled", divisor=f"{row.divisor:.4g}"): fixed(row.scaled_scores),
                           T("classroom.weight"): fixed(row.weights)}), hide_index=True)
    st.caption(T("classroom.output"))
    st.table(pd.DataFrame([fixed(row.output)], columns=[str(i + 1) for i in range(row.output.shape[0])]), hide_index=True)


WEIGHT_TOLERANCE = 0.1  # a guessed weight this close to the answer counts as right


def predict_verdict(weights: np.ndarray, guess_key: int | None, guess_weight: float | None) -> str:
    """"right" (the key, and the weight within 0.1), "off_weight" (the key, not the weight) or "wrong_key"."""
    best = int(np.argmax(weights))
    if guess_key != best:
        return "wrong_key"
    return "right" if guess_weight is not None and abs(guess_weight - weights[best]) <= WEIGHT_TOLERANCE + 1e-9 else "off_weight"


def predict_then_reveal(weights: np.ndarray, key_tokens: tuple[str, ...], T: Texts, key: str, token: str | None = None,
                        question: str | None = None, words: str = "classroom", compact: bool = False) -> bool:
    """Ask which key the query ``token`` gives the most weight (and how much) before showing it (``question``: the
    page's own wording of it; ``words``: the texts that name a key, e.g. a patch on the images page; ``compact``: the
    verdict in one paragraph beside its button, for a projector). Returns True once revealed; the guess and the reveal
    stay in the session (stepping away and back keeps them)."""
    revealed = st.session_state.setdefault("revealed", set())
    if key in revealed:
        guess_key, guess_weight = st.session_state.get(f"{key}-guess", (None, None))
        best = int(np.argmax(weights))
        label = lambda j: f"{j + 1} · {figures.plain(key_tokens[j])}"  # the position tells repeated words apart
        answer = T("classroom.answer", token=label(best), weight=f"{weights[best]:.2f}")
        mine = T("classroom.your_guess", token=label(guess_key) if guess_key is not None else "–",
                 weight=f"{guess_weight:.2f}" if guess_weight is not None else "–")
        verdict = predict_verdict(weights, guess_key, guess_weight)
        if verdict == "wrong_key" and guess_key is not None:
            detail = T(f"{words}.verdict.wrong_key", token=label(guess_key), weight=f"{weights[guess_key]:.2f}")
        else:
            detail = T(f"{words}.verdict.{verdict}")
        # On a projector one paragraph beside its button, so the matrix below keeps the first screen.
        said, again = st.columns([5, 1], vertical_alignment="center") if compact else (st.container(), st.container())
        box = said.success if verdict == "right" else said.warning
        if compact:  # the guess is said only when the weight was off (a right verdict and a wrong key's line say it)
            box(f"{detail} {mine} {answer}" if verdict == "off_weight" else f"{detail} {answer}", icon=":material/lightbulb:")
        else:
            box(f"{detail}  \n{mine}  \n{answer}", icon=":material/lightbulb:")
        if again.button(T("classroom.again"), key=f"{key}-again", width="stretch" if compact else "content"):
            revealed.discard(key)
            st.rerun()
        return True
    st.info(question or (T("classroom.predict_intro") if token is None else T("classroom.predict_word", token=figures.plain(token))),
            icon=":material/quiz:")
    guess = st.selectbox(T(f"{words}.which"), range(len(key_tokens)), index=None, key=f"{key}-which",
                         format_func=lambda j: f"{j + 1} · {key_tokens[j]}", placeholder=T(f"{words}.pick"))
    amount = st.slider(T("classroom.how_much"), 0.0, 1.0, 0.5, 0.05, key=f"{key}-amount")
    if st.button(T("classroom.reveal"), key=f"{key}-reveal", disabled=guess is None, type="primary"):
        st.session_state[f"{key}-guess"] = (guess, amount)
        revealed.add(key)
        st.rerun()
    return False
