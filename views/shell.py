"""Small scripts in every page (assets/js/) for what Streamlit's page does not do by itself in a class.

shell.js, at the end of the page: a text box commits before the menu navigates; the sidebar closes after a page is
chosen on a phone; a help "?" inside a switch's label never flips the switch. charts.js, before the page's first
chart: a chart is drawn only once it comes near the screen. Each is drawn in a container that assets/theme.css hides.
"""

from __future__ import annotations

import functools

import streamlit as st

from views.text import ASSETS


@functools.cache
def _script(name: str) -> str:
    return f"<script>{(ASSETS / 'js' / f'{name}.js').read_text()}</script>"


def install_charts() -> None:
    """Before the page's first chart: charts wait until they come near the screen (assets/js/charts.js)."""
    with st.container(key="chart-script"):
        st.iframe(_script("charts"), height=1)


def install() -> None:
    with st.container(key="page-scripts"):
        st.iframe(_script("shell"), height=1)
