"""Open one page of the app in Streamlit's AppTest, as a link to it would: the page under test is the default."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _entry(root: str, page_id: str) -> None:
    """The app with ``page_id`` as its default page (AppTest runs this function as a script)."""
    import sys

    if root not in sys.path:
        sys.path.insert(0, root)
    import app

    app.main(default=page_id)


def app_test(page_id: str = "walkthrough", timeout: float = 60, **params: str):
    """An AppTest of the app opened on ``page_id`` with these URL parameters (not yet run).

    The entry runs from a temporary folder, so Streamlit never mistakes ``pages/`` for a legacy
    multipage app; the navigation is built from the registry exactly as in the browser.
    """
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_entry, args=(str(ROOT), page_id), default_timeout=timeout)
    for name, value in params.items():
        at.query_params[name] = str(value)
    return at
