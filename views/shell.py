"""A small script in every page (assets/js/shell.js) for what Streamlit's page does not do by itself in a class.

A text box commits before the menu navigates; the sidebar closes after a page is chosen on a phone; a help "?"
inside a switch's label never flips the switch. Drawn in a container that assets/theme.css hides.
"""

from __future__ import annotations

import functools

import streamlit as st

from views.text import ASSETS


@functools.cache
def _script() -> str:
    return f"<script>{(ASSETS / 'js' / 'shell.js').read_text()}</script>"


def install() -> None:
    with st.container(key="page-scripts"):
        st.iframe(_script(), height=1)
