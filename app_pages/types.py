"""Attention types: score functions, soft / hard / local, masks and temperature, with entropy as a measure."""

import numpy as np
import streamlit as st

from attention_core import SCORES, gumbel_noise, gumbel_softmax
from views import page, page_state
from views.inputs import explanation_or_stop
from views.kinds import bitmask, from_bitmask, mode_panel, score_panel, weights_with_entropy, window_outline

PAGE = "types"
SECTIONS = ("scores", "modes", "masks")
TAUS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
TEMPERATURES = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
PARAMS = {"section": (0, 2, 0), "scores": (1, 31, 19), "tau": (0, len(TAUS) - 1, 6), "window": (0, 8, 1),
          "causal": (0, 1, 1), "temp": (0, len(TEMPERATURES) - 1, 3)}

settings, T = page.start("types", PAGE, PARAMS)
base = explanation_or_stop(settings, T, heads=1, mode="soft")
tokens = base.tokens
st.caption(T("types.entropy_note", n=len(tokens), max_bits=f"{np.log2(len(tokens)):.2f}"))

section = st.segmented_control(T("types.section"), range(3), format_func=lambda i: T(f"types.sections.{SECTIONS[i]}"),
                               key=page_state.widget_key(PAGE, "section", int), required=True)
page_state.put(PAGE, "section", section)

if SECTIONS[section] == "scores":
    chosen = st.multiselect(T("types.scores.pick"), SCORES, default=from_bitmask(page_state.get(PAGE, "scores"), SCORES),
                            format_func=lambda s: T(f"common.scores.{s}"))
    page_state.put(PAGE, "scores", bitmask(chosen, SCORES) or PARAMS["scores"][2])
    for score in chosen:
        score_panel(score, explanation_or_stop(settings, T, heads=1, mode="soft", score=score).trace.heads[0], tokens, T)
        st.divider()

elif SECTIONS[section] == "modes":
    tau = st.select_slider(T("types.modes.tau"), TAUS, key=page_state.widget_key(PAGE, "tau", lambda i: TAUS[i]),
                           help=T("types.modes.tau_help"))
    window = st.slider(T("types.modes.window"), 0, 8, key=page_state.widget_key(PAGE, "window", int))
    page_state.put(PAGE, "tau", TAUS.index(tau))
    page_state.put(PAGE, "window", window)
    soft = base.trace.heads[0]
    mode_panel("soft", soft.weights, tokens, T)
    mode_panel("hard", explanation_or_stop(settings, T, heads=1, mode="hard").trace.heads[0].weights, tokens, T)
    sampled = explanation_or_stop(settings, T, heads=1, mode="hard", sample=True).trace.heads[0]
    mode_panel("hard_sample", sampled.weights, tokens, T)
    noise = gumbel_noise(soft.scaled_scores.shape, np.random.default_rng(settings.seed))
    mode_panel("gumbel", gumbel_softmax(soft.scaled_scores, tau, noise), tokens, T, tau=f"{tau:g}")
    for mode in ("local", "local-monotonic"):
        local = explanation_or_stop(settings, T, heads=1, mode=mode, window=window).trace.heads[0]
        mode_panel(mode, local.weights, tokens, T, outline=window_outline(local))

else:
    causal = st.toggle(T("types.masks.causal"), key=page_state.widget_key(PAGE, "causal"), help=T("types.masks.causal_help"))
    temperature = st.select_slider(T("types.masks.temperature"), TEMPERATURES, help=T("types.masks.temperature_help"),
                                   key=page_state.widget_key(PAGE, "temp", lambda i: TEMPERATURES[i]))
    page_state.put(PAGE, "causal", int(causal))
    page_state.put(PAGE, "temp", TEMPERATURES.index(temperature))
    st.caption(T("types.masks.causal_note"))
    masked = explanation_or_stop(settings, T, heads=1, mode="soft", causal=causal, temperature=temperature).trace.heads[0]
    weights_with_entropy(masked.weights, tokens, tokens, title=T("types.masks.weights", temperature=f"{temperature:g}"),
                         key="masked", T=T)

st.caption(T("types.head_note"))
page_state.publish(PAGE, list(PARAMS))
