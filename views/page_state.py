"""Page-level state kept in st.session_state and mirrored in the URL (step, head, ...)."""

from __future__ import annotations

import streamlit as st

from views.state import MAX_TEXT_CHARS, Notice, parse_int


def init_ints(page: str, specs: dict[str, tuple[int, int, int]]) -> list[Notice]:
    """On a page's first run in a session, read each int parameter (lo, hi, default) from the URL.

    Returns the notices for values that were clamped or not understood.
    """
    notices: list[Notice] = []
    for name, (lo, hi, default) in specs.items():
        key = f"{page}_{name}"
        if key in st.session_state:
            continue
        given = st.query_params.get(name)
        value, changed = (default, False) if given is None else parse_int(given, lo, hi)
        if given is not None and changed:
            notices.append(Notice(name, given, str(default if value is None else value), "unknown" if value is None else "clamped"))
        st.session_state[key] = default if value is None else value
    return notices


def init_texts(page: str, defaults: dict[str, str]) -> list[Notice]:
    """On a page's first run in a session, read each text parameter from the URL (cut to MAX_TEXT_CHARS)."""
    notices: list[Notice] = []
    for name, default in defaults.items():
        key = f"{page}_{name}"
        if key in st.session_state:
            continue
        given = st.query_params.get(name)
        text = default if given is None else given[:MAX_TEXT_CHARS]
        if given is not None and len(given) > MAX_TEXT_CHARS:
            notices.append(Notice(name, str(len(given)), str(MAX_TEXT_CHARS), "cut"))
        st.session_state[key] = text
    return notices


def get(page: str, name: str):
    """The current value of a page parameter."""
    return st.session_state[f"{page}_{name}"]


def put(page: str, name: str, value: int | str) -> None:
    """Set a page parameter (in the session and, by ``publish``, the URL)."""
    st.session_state[f"{page}_{name}"] = value


def publish(page: str, names: list[str]) -> None:
    """Write the page's parameters to the URL so a copied link reproduces the view."""
    st.query_params.update({name: str(value if isinstance(value := get(page, name), str) else int(value)) for name in names})


def widget_key(page: str, name: str, to_widget=bool) -> str:
    """The key of the widget that edits a page parameter, initialised from it when new."""
    key = f"{page}_{name}_widget"
    if key not in st.session_state:
        st.session_state[key] = to_widget(get(page, name))
    return key
