"""Messages a page shows about its input: URL values changed on arrival, tokens cut, errors."""

from __future__ import annotations

import re

import streamlit as st

from attention_plot.figures import plain
from attention_plot.text import Texts
from views.shell.params import Notice

# Bidirectional controls (embeddings, overrides, isolates, marks): echoed from a link or a typed value, they would
# reverse the text after them on the screen.
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """Typed or linked text as it may be echoed: bidirectional controls removed (escape it where it is shown)."""
    return BIDI.sub("", str(text))


def show_notices(notices: list[Notice], T: Texts) -> None:
    """One warning per URL value that was clamped, not understood, or cut."""
    for notice in notices:
        kind = "unknown_dropped" if notice.kind == "unknown" and not notice.used else notice.kind  # no default to name
        try:  # the setting as the page names it (common.params), not the link's key
            name = T(f"common.params.{notice.param}")
        except KeyError:
            name = notice.param
        used = T(notice.label.format(notice.used)) if notice.label else notice.used  # the option as the page names it
        text = T(f"common.notices.{kind}", param=plain(visible(name)), given=plain(visible(notice.given[:80])),
                 used=plain(visible(used)), allowed=plain(notice.allowed))
        st.warning(text, icon=":material/link:")


SHOWN = "messages_shown_this_run"  # page.start_run forgets it


def shown_this_run() -> set:
    """The messages already shown in this run (page.start_run forgets them), so a page never repeats one."""
    return st.session_state.setdefault(SHOWN, set())


def show_cut(total: int, dropped: int, T: Texts) -> None:
    """Say how many tokens were cut, when any were."""
    key = ("tokens_cut", total, dropped)
    if dropped and key not in shown_this_run():
        shown_this_run().add(key)
        st.warning(T("common.notices.tokens_cut", total=total, kept=total - dropped, dropped=dropped), icon=":material/content_cut:")


def show_error(error: ValueError, T: Texts) -> None:
    """A core ValueError as a message a student can act on (never a traceback)."""
    st.error(T("common.notices.error", message=plain(str(error))), icon=":material/error:")
