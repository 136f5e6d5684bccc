"""Attention types: score functions, soft / hard / local, masks and temperature, with entropy as a measure; each kind
drawn as a weight heatmap beside its entropy bars."""

from __future__ import annotations

import math

import numpy as np
import streamlit as st
from numpy.typing import NDArray

from attention_core import AttentionTrace, Explanation, entropy_bits, gumbel_noise, gumbel_softmax
from attention_plot import figures
from attention_plot.text import Texts
from views.shell.page import View, run_texts
from views.widgets.charts import chart, show
from views.widgets.inputs import explanation_or_stop

ONE_HEAD = dict(heads=1, mode="soft", score="scaled_dot")  # every kind is compared on one head


def weights_with_entropy(weights: NDArray, tokens: tuple[str, ...], key_tokens: tuple[str, ...], *, title: str, key: str,
                         outline: NDArray | None = None) -> None:
    """The weight heatmap (queries x keys) and, beside it, each query's entropy in bits (texts in this run's language)."""
    T = run_texts()
    left, right = st.columns([3, 1])
    with left:
        chart(weights, tokens, key_tokens, kind="weights", title=title, key=key, values=True,
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
        chart(head.raw_scores, tokens, tokens, kind="signed", title=T("types.scores.raw"), key=f"raw-{score}",
              values=True, rows_are="query", cols_are="key")
    with weights:
        chart(head.weights, tokens, tokens, kind="weights", title=T("types.scores.weights"), key=f"weights-{score}",
              values=True, rows_are="query", cols_are="key")
    max_bits = math.log2(max(len(tokens), 1))
    show(figures.entropy_bars(entropy_bits(head.weights), tokens, title=T("types.entropy"), x_title=T("types.entropy_axis"),
                              max_bits=max_bits), key=f"entropy-{score}")


def mode_panel(name: str, weights: NDArray, tokens: tuple[str, ...], T: Texts, *, outline: NDArray | None = None,
               **values: object) -> None:
    """One mode of attention: its name, its trade-off in a sentence, its weights and their entropy."""
    st.markdown(f"### {T(f'types.modes.{name}', **values)}")
    st.caption(T(f"types.modes.{name}_note"))
    weights_with_entropy(weights, tokens, tokens, title=T(f"types.modes.{name}", **values), key=f"mode-{name}",
                         outline=outline)


def window_outline(head: AttentionTrace) -> NDArray | None:
    """The local window of each query (for framing), or None outside the local modes."""
    return np.asarray(head.mask) if head.centres is not None else None


# --- The page's sections ---


def sentence(view: View) -> Explanation:
    """The sidebar's sentence on one head (soft, scaled dot product), with the entropy's range for its length."""
    settings, T = view.settings, view.T
    base = explanation_or_stop(settings, T, **ONE_HEAD)
    st.caption(T("types.entropy_note", n=len(base.tokens), max_bits=f"{np.log2(len(base.tokens)):.2f}"))
    return base


def scores_section(view: View, base: Explanation) -> None:
    """The score functions chosen, each with its formula, raw scores, weights and entropy."""
    settings, T = view.settings, view.T
    chosen = view.widget("scores", T("types.scores.pick"), format_func=lambda s: T(f"common.scores.{s}"))
    for score in chosen:
        score_panel(score, explanation_or_stop(settings, T, **ONE_HEAD | {"score": score}).trace.heads[0], base.tokens, T)
        st.divider()


def modes_section(view: View, base: Explanation) -> None:
    """Soft, hard, hard sampled, Gumbel-softmax at τ, and the two local modes in a window."""
    settings, T = view.settings, view.T
    tokens = base.tokens
    tau = view.widget("tau", T("types.modes.tau"), help=T("types.modes.tau_help"))
    window = view.widget("window", T("types.modes.window"))
    soft = base.trace.heads[0]
    mode_panel("soft", soft.weights, tokens, T)
    mode_panel("hard", explanation_or_stop(settings, T, **ONE_HEAD | {"mode": "hard"}).trace.heads[0].weights, tokens, T)
    sampled = explanation_or_stop(settings, T, **ONE_HEAD | {"mode": "hard"}, sample=True).trace.heads[0]
    mode_panel("hard_sample", sampled.weights, tokens, T)
    noise = gumbel_noise(soft.scaled_scores.shape, np.random.default_rng(settings.seed))
    mode_panel("gumbel", gumbel_softmax(soft.scaled_scores, tau, noise), tokens, T, tau=f"{tau:g}")
    for mode in ("local", "local-monotonic"):
        local = explanation_or_stop(settings, T, **ONE_HEAD | {"mode": mode}, window=window).trace.heads[0]
        mode_panel(mode, local.weights, tokens, T, outline=window_outline(local))


def masks_section(view: View, base: Explanation) -> None:
    """A causal mask and a temperature, on the same head."""
    settings, T = view.settings, view.T
    tokens = base.tokens
    causal = view.widget("causal", T("types.masks.causal"), help=T("types.masks.causal_help"))
    temperature = view.widget("temperature", T("types.masks.temperature"), help=T("types.masks.temperature_help"))
    st.caption(T("types.masks.causal_note"))
    masked = explanation_or_stop(settings, T, **ONE_HEAD, causal=causal, temperature=temperature).trace.heads[0]
    weights_with_entropy(masked.weights, tokens, tokens, title=T("types.masks.weights", temperature=f"{temperature:g}"),
                         key="masked")


SECTIONS = {"scores": scores_section, "modes": modes_section, "masks": masks_section}
