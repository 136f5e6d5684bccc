"""Self vs cross (encoder-decoder) attention, and general vs self attention on a question and a passage."""

from __future__ import annotations

import streamlit as st

from attention_core import tokenize
from views.shell import messages
from views.shell.page import View, stop
from views.widgets import cache
from views.widgets.charts import chart


def use_pair(view: View) -> None:
    """A new pair brings its own source and target texts."""
    for side in ("source", "target"):
        view.set(side, view.T(f"cross.defaults.{view['pair']}_{side}"))


def texts(view: View) -> tuple[str, str]:
    """The pair (translation, question and passage) and its two texts, typed or the pair's own; stops while one is empty."""
    T = view.T
    view.widget("pair", T("cross.pair"), style="segmented_control",
                on_change=use_pair, args=(view,))
    source = view.widget("source", T("cross.source"))
    target = view.widget("target", T("cross.target"))
    if not tokenize(source) or not tokenize(target):
        st.info(T("cross.empty_source" if not tokenize(source) else "cross.empty_target"), icon=":material/edit:")
        stop()
    return source, target


def cross_section(view: View, source: str, target: str) -> None:
    """The target attending to the source beside the target attending to itself, causally."""
    settings, T = view.settings, view.T
    cross = cache.explanation_for(settings, target, heads=1, context=source)
    causal = cache.explanation_for(settings, target, heads=1, causal=True)
    for total, dropped in zip((len(cross.tokens), len(cross.context_tokens)), cross.dropped):
        messages.show_cut(total + dropped, dropped, T)

    st.header(T("cross.cross_title"))
    st.markdown(T("cross.cross_intro"))
    left, right = st.columns(2) if len(cross.context_tokens) <= 8 else (st.container(), st.container())
    with left:
        chart(cross.trace.heads[0].weights, cross.tokens, cross.context_tokens, kind="weights", title=T("cross.cross"), key="cross",
              values=True, rows_are="target", cols_are="source")
    with right:
        chart(causal.trace.heads[0].weights, causal.tokens, causal.tokens, kind="weights", title=T("cross.causal"), key="causal",
              values=True, rows_are="query", cols_are="key")
    st.caption(T("cross.causal_intro"))


def general_section(view: View, source: str, target: str) -> None:
    """General attention: one question vector over the passage, beside the passage's self-attention."""
    settings, T = view.settings, view.T
    st.header(T("cross.general_title"))
    st.markdown(T("cross.general_intro"))
    passage, question = cache.general_for(settings, target, source, heads=1)
    chart(question.weights, (T("cross.question_row"),), passage.tokens, kind="weights", title=T("cross.question"), key="general",
          values=True, rows_are="query", cols_are="key")
    chart(passage.trace.heads[0].weights, passage.tokens, passage.tokens, kind="weights", title=T("cross.passage_self"),
          key="passage-self", values=True, rows_are="query", cols_are="key")
