"""Small scripts in every page (assets/js/) for what Streamlit's page does not do by itself in a class.

shell.js, at the end of the page: a text box commits before the menu navigates; the sidebar closes after a page is
chosen on a phone; a help "?" inside a switch's label never flips the switch. charts.js, before the page's first
chart: a chart is drawn only once it comes near the screen. steps.js, on the walkthrough: ← and → press Previous
and Next, and no quick press is lost. Each is drawn in a container that assets/theme.css hides.

Streamlit runs HTML in an iframe, which it may remove and draw again; a listener, observer or timer made by a
removed iframe's script never fires again. So the iframe only adds the script to the page itself, once per tab.
"""

from __future__ import annotations

import functools
import json

import streamlit as st

from views.theme import ASSETS


@functools.cache
def script(name: str) -> str:
    """The HTML (for ``st.iframe``) that runs assets/js/<name>.js in the page's own window, once per tab."""
    code = json.dumps(f"(() => {{\n{(ASSETS / 'js' / f'{name}.js').read_text()}}})();").replace("</", "<\\/")  # its own scope
    return ("<script>const page = window.parent.document;"
            f"if (!page.getElementById('attention-{name}')) {{ const script = page.createElement('script');"
            f"script.id = 'attention-{name}'; script.textContent = {code}; page.head.appendChild(script); }}</script>")


def install_charts() -> None:
    """Before the page's first chart: charts wait until they come near the screen (assets/js/charts.js)."""
    with st.container(key="chart-script"):
        st.iframe(script("charts"), height=1)


def install() -> None:
    with st.container(key="page-scripts"):
        st.iframe(script("shell"), height=1)
