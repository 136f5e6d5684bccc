"""Page styling from assets/*.css, and the shareable link to the current view."""

from __future__ import annotations

import functools
from urllib.parse import urlencode, urlsplit, urlunsplit

import streamlit as st

from views.text import ASSETS, Texts


@functools.cache
def _css(name: str) -> str:
    return (ASSETS / f"{name}.css").read_text()


def apply(present: bool) -> None:
    """Inject the app's CSS (and the presenter's when ``present``)."""
    st.html(f"<style>{_css('theme')}{_css('presenter') if present else ''}</style>")


def view_url() -> str:
    """The address of this exact view: the page's URL with every setting as a query parameter."""
    base = urlsplit(st.context.url or "http://localhost:8501/")
    return urlunsplit((base.scheme, base.netloc, base.path, urlencode(st.query_params.to_dict()), ""))


def copy_link(T: Texts) -> None:
    """A box with the link to this view and a copy button (st.code has one built in)."""
    st.caption(T("common.sidebar.share"))
    st.code(view_url(), language=None, wrap_lines=True)
