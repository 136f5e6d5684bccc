"""Attention types: score functions, soft / hard / local, masks and temperature, with entropy as a measure."""

import numpy as np
import streamlit as st

from attention_core import SCORES, gumbel_noise, gumbel_softmax
from views.shell import page
from views.shell.registry import TAUS, TEMPERATURES, TYPE_SECTIONS
from views.types import mode_panel, score_panel, weights_with_entropy, window_outline
from views.widgets.inputs import explanation_or_stop

view = page.start("types")
settings, T = view.settings, view.T
one_head = dict(heads=1, mode="soft", score="scaled_dot")
base = explanation_or_stop(settings, T, **one_head)
tokens = base.tokens
st.caption(T("types.entropy_note", n=len(tokens), max_bits=f"{np.log2(len(tokens)):.2f}"))
section = st.segmented_control(T("types.section"), TYPE_SECTIONS, format_func=lambda s: T(f"types.sections.{s}"),
                               key=view.key("section"), required=True)
page.section_heading(T(f"types.sections.{section}"))

if section == "scores":
    chosen = st.multiselect(T("types.scores.pick"), SCORES, key=view.key("scores"), format_func=lambda s: T(f"common.scores.{s}"))
    for score in chosen:
        score_panel(score, explanation_or_stop(settings, T, **one_head | {"score": score}).trace.heads[0], tokens, T)
        st.divider()

elif section == "modes":
    tau = st.select_slider(T("types.modes.tau"), TAUS, key=view.key("tau"), help=T("types.modes.tau_help"))
    window = st.slider(T("types.modes.window"), 0, 8, key=view.key("window"))
    soft = base.trace.heads[0]
    mode_panel("soft", soft.weights, tokens, T)
    mode_panel("hard", explanation_or_stop(settings, T, **one_head | {"mode": "hard"}).trace.heads[0].weights, tokens, T)
    sampled = explanation_or_stop(settings, T, **one_head | {"mode": "hard"}, sample=True).trace.heads[0]
    mode_panel("hard_sample", sampled.weights, tokens, T)
    noise = gumbel_noise(soft.scaled_scores.shape, np.random.default_rng(settings.seed))
    mode_panel("gumbel", gumbel_softmax(soft.scaled_scores, tau, noise), tokens, T, tau=f"{tau:g}")
    for mode in ("local", "local-monotonic"):
        local = explanation_or_stop(settings, T, **one_head | {"mode": mode}, window=window).trace.heads[0]
        mode_panel(mode, local.weights, tokens, T, outline=window_outline(local))

else:
    causal = st.toggle(T("types.masks.causal"), key=view.key("causal"), help=T("types.masks.causal_help"))
    temperature = st.select_slider(T("types.masks.temperature"), TEMPERATURES, help=T("types.masks.temperature_help"),
                                   key=view.key("temperature"))
    st.caption(T("types.masks.causal_note"))
    masked = explanation_or_stop(settings, T, **one_head, causal=causal, temperature=temperature).trace.heads[0]
    weights_with_entropy(masked.weights, tokens, tokens, title=T("types.masks.weights", temperature=f"{temperature:g}"),
                         key="masked", T=T)
