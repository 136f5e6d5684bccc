"""The sentence a page works on: a friendly prompt when empty, a message when cut or invalid."""

from __future__ import annotations

import streamlit as st

from attention_core import Explanation, tokenize
from attention_plot.text import Texts
from views.shell import messages
from views.shell.page import Settings, stop
from views.widgets import cache


def explanation_or_stop(settings: Settings, T: Texts, **overrides: object) -> Explanation:
    """The explanation of the sidebar's sentence (with ``overrides`` of its options), or stop the page.

    An empty sentence shows a prompt; a ValueError from the core shows its message; cut
    tokens are reported. The page never sees a traceback.
    """
    if not tokenize(settings.text):
        st.info(T("common.notices.empty"), icon=":material/edit:")
        stop()
    try:
        explanation = cache.explanation_for(settings, **overrides)
    except ValueError as error:
        messages.show_error(error, T)
        stop()
    messages.show_cut(len(explanation.tokens) + explanation.dropped[0], explanation.dropped[0], T)
    return explanation
