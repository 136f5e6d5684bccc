"""What every page does first: settings and language, its URL parameters, its title, introduction and notices."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from views import messages, page_state, sidebar
from views.state import Settings
from views.text import Texts


def start(texts: str, page: str = "", ints: dict[str, tuple[int, int, int]] | None = None,
          strings: Callable[[Texts], dict[str, str]] | None = None) -> tuple[Settings, Texts]:
    """Open a page whose texts live under ``texts`` in assets/.

    ``ints`` (lo, hi, default) and ``strings`` (defaults, given the page's language) are the page's
    own URL parameters, read on its first run; values changed on arrival are shown as notices.
    """
    settings = sidebar.current()
    T = Texts(settings.lang)
    notices = page_state.init_ints(page, ints) if ints else []
    if strings is not None:
        notices += page_state.init_texts(page, strings(T))
    st.title(T(f"{texts}.title"))
    st.markdown(T(f"{texts}.intro"))
    messages.show_notices(sidebar.url_notices() + notices, T)
    return settings, T
