"""Every use of a private part of Streamlit, in one place: one small function (or name) each, each saying why no public
API does the job in the pinned Streamlit (requirements.txt). Nothing else in the app imports a private Streamlit module or
touches ``st._...`` (tests/test_shell_private_parts.py checks it, and has a canary for each entry of ``RELIES_ON`` that fails
loudly on an upgrade that moves one). The browser's side of the same fence is assets/components/shell/.

Public APIs are used everywhere else: ``streamlit``, ``streamlit.components.v2``, ``streamlit.testing.v1`` and
``streamlit.column_config``. The test drivers scripts/load.py and scripts/load_live.py speak Streamlit's websocket
protocol themselves (``streamlit.proto``): they are the only other allowed readers.
"""

from __future__ import annotations

import sys

import streamlit as st
from streamlit.elements.lib.layout_utils import LayoutConfig
from streamlit.elements.lib.utils import compute_and_register_element_id
from streamlit.proto.PlotlyChart_pb2 import PlotlyChart
from streamlit.runtime.pages_manager import PagesManager

# What st.stop() raises. app.py tells a page that stopped early (its notices still to finish) from a run that a newer
# click interrupted (RerunException, which must finish nothing); Streamlit exports neither exception.
from streamlit.runtime.scriptrunner_utils.exceptions import StopException

__all__ = ["RELIES_ON", "StopException", "add_server_middleware", "pages_are_navigation_only", "run_streamlit", "send_plotly_chart"]

# The private names each function below relies on (module, attribute path): the canary tests import every one.
RELIES_ON: dict[str, tuple[tuple[str, str], ...]] = {
    "StopException": (("streamlit.runtime.scriptrunner_utils.exceptions", "StopException"),),
    "pages_are_navigation_only": (("streamlit.runtime.pages_manager", "PagesManager.uses_pages_directory"),),
    "send_plotly_chart": (("streamlit.elements.lib.utils", "compute_and_register_element_id"),
                          ("streamlit.elements.lib.layout_utils", "LayoutConfig"),
                          ("streamlit.proto.PlotlyChart_pb2", "PlotlyChart"),
                          ("streamlit", "_main._enqueue")),
    "add_server_middleware": (("streamlit.web.server.starlette.starlette_app", "create_streamlit_middleware"),),
    "run_streamlit": (("streamlit.web.cli", "main"),),
}


def pages_are_navigation_only() -> None:
    """pages/ holds this app's st.navigation pages, not a legacy multipage app.

    Streamlit takes a pages/ folder beside the entry for a legacy multipage app until the entry first calls
    st.navigation, so the very first request of a fresh server to /types would run pages/types.py on its own (or meet
    "Page not found"). No option turns that off; renaming the folder would, but the layout names it pages/. Called once
    per process by ``views.shell.process.start`` (scripts/run.py, before the server starts; app.main otherwise)."""
    PagesManager.uses_pages_directory = False


def send_plotly_chart(spec_json: str, config: str, key: str, alt: str | None, height: int) -> None:
    """The element ``st.plotly_chart(figure, key=key, config=..., theme="streamlit", alt=alt, width="stretch")`` sends,
    from Plotly JSON made once (``views.widgets.charts.send``).

    ``st.plotly_chart`` copies, validates and encodes the figure again on every run, a tenth of a loaded server's time
    (``make profile``); no public call takes a figure already encoded. Same element, same layout, same theme."""
    proto = PlotlyChart(spec=spec_json, config=config, theme="streamlit")
    if alt:
        proto.alt = alt
    proto.id = compute_and_register_element_id("plotly_chart", user_key=key, key_as_main_identity=False, dg=st._main,
                                               plotly_spec=spec_json, plotly_config=config, theme="streamlit", alt=alt)
    st._main._enqueue("plotly_chart", proto, layout_config=LayoutConfig(width="stretch", height=height))


def add_server_middleware(middleware: type) -> None:
    """Put the ASGI ``middleware`` in front of Streamlit's own in the server ``streamlit run`` starts (scripts/paths.py).

    ``streamlit run`` takes no middleware; the public ``st.App(..., middleware=[...])`` does, but it is served by an
    ASGI server (uvicorn) instead of ``streamlit run``, which scripts/run.py, scripts/serve.py, the Dockerfile and
    deploy/ start. Call before the server starts."""
    from starlette.middleware import Middleware
    from streamlit.web.server.starlette import starlette_app

    own = starlette_app.create_streamlit_middleware
    starlette_app.create_streamlit_middleware = lambda: [Middleware(middleware), *own()]


def run_streamlit(argv: list[str]) -> object:
    """``streamlit <argv>`` in this process (what the ``streamlit`` command runs; its module is not a public API): the
    two patches above apply to the server only when it starts in the process that made them."""
    from streamlit.web.cli import main

    sys.argv = ["streamlit", *argv]
    return main()
