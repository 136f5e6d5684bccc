"""RNN vs attention: sequential steps against one parallel step, and their cost as the sentence grows."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import complexity, reach
from attention_plot import figures
from views.shell.page import View
from views.widgets import cache
from views.widgets.charts import chart, dims, show
from views.widgets.inputs import explanation_or_stop

LENGTHS = (8, 16, 32, 64, 128, 256, 512)
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def steps_section(view: View) -> None:
    """The two formulas, then step by step: what the RNN has read so far and its hidden states, beside attention's one
    parallel step and its outputs."""
    settings, T = view.settings, view.T
    left, right = st.columns(2)
    left.latex(T("rnn.rnn_formula"))
    right.latex(T("rnn.attention_formula"))
    e = explanation_or_stop(settings, T, heads=1, score="scaled_dot", mode="soft")
    tokens, n = e.tokens, len(e.tokens)
    hidden = cache.rnn_states(np.asarray(e.x), settings.d_model, settings.seed)

    view.clamp("step", 1, n)
    step = view.widget("step", T("rnn.step"), hi=max(n, 2), help=T("rnn.step_help"), disabled=n == 1)
    left, right = st.columns(2)
    with left:
        chart(reach(n, step, model="rnn").astype(float), tokens, tokens, kind="weights", title=T("rnn.rnn_reach", step=step, n=n),
              key="rnn-reach", values=False, rows_are="position", cols_are="word")
        computed = np.where(np.arange(n)[:, None] < step, hidden, np.nan)
        hidden_title = T("rnn.hidden", step=str(step).translate(SUBSCRIPTS)) if step > 1 else T("rnn.hidden_first")  # not "h₁ … h₁"
        chart(computed, tokens, dims(hidden.shape[1]), kind="signed", title=hidden_title, key="rnn-hidden",
              values=True)
    with right:
        chart(reach(n, 1, model="attention").astype(float), tokens, tokens, kind="weights", title=T("rnn.attention_reach"),
              key="attention-reach", values=False, rows_are="position", cols_are="word")
        chart(e.trace.heads[0].output, tokens, dims(e.trace.heads[0].output.shape[1]), kind="signed", title=T("rnn.outputs"),
              key="attention-out", values=True)


def table_section(view: View) -> int:
    """Table 1 of the article as curves over n for a width d (chosen here): compute, sequential steps, path length.
    Returns d."""
    T = view.T
    st.header(T("rnn.table_title"))
    d = view.widget("d", T("rnn.d"), help=T("rnn.d_help"))
    st.markdown(T("rnn.table_intro", d=d))
    ns = np.unique(np.round(np.logspace(0, np.log10(4 * d), 60)))
    table = complexity(ns, d)
    names = (T("rnn.rnn_series"), T("rnn.attention_series"))
    columns = st.columns(3)
    for column, measure in zip(columns, ("compute", "sequential", "path")):
        with column:
            curves = np.stack([table["rnn"][measure], table["attention"][measure]])
            show(figures.lines(ns, curves, names, title=T(f"rnn.{measure}"), x_title=T("rnn.n_axis"), y_title="", log_x=True,
                               log_y=True, mark_x=(d,) if measure == "compute" else ()), key=f"table-{measure}")
    return d


def measured_section(view: View, d: int) -> None:
    """One RNN layer and one attention layer of width d, timed on this server as n grows."""
    T = view.T
    names = (T("rnn.rnn_series"), T("rnn.attention_series"))
    st.header(T("rnn.measured_title"))
    st.markdown(T("rnn.measured_intro", d=d))
    times = cache.layer_times(d, LENGTHS)
    show(figures.lines(np.array(LENGTHS), np.stack([times["rnn"], times["attention"]]), names, title=T("rnn.measured_title"),
                       x_title=T("rnn.n_axis"), y_title=T("rnn.time_axis"), log_x=True, log_y=True, markers=True), key="measured")
