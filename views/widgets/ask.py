"""Asking the room: the service a page calls where it has a question for the live class (a lesson stop, the
walkthrough's focused word, a real head's strongest key). In a session that teaches a class, one button opens the
question on the students' phones and a link goes to the live page where the answers come in; anywhere else it draws
nothing.

The live class's own modules (``views.live``) are imported only inside the functions that run while this session
teaches a class: a page opened with no class open imports nothing of the live page. What both sides share (who
teaches, what can be asked) is ``views.widgets.questions``.
"""

from __future__ import annotations

import streamlit as st

from attention_plot.text import Texts
from classroom.store import MAX_OPTIONS
from views.shell.registry import BY_ID
from views.widgets.questions import STUDENT, TEACHER, Item, focus_item, remember_walk

__all__ = ["MAX_OPTIONS", "STUDENT", "TEACHER", "Item", "ask_here", "ask_now", "focus_item", "lesson_banner", "remember_walk", "teaching"]


def teaching() -> bool:
    """Whether this session teaches a live class (it may ask the room)."""
    return TEACHER in st.session_state


def lesson_banner(T: Texts) -> None:
    """At the top of the lesson path: start a live class, or say which one runs and that each stop can ask the room."""
    live_page = BY_ID["live"].file_path
    if TEACHER in st.session_state:
        st.info(T("live.teacher.lesson_running", code=st.session_state[TEACHER][0]), icon=":material/groups:")
        st.page_link(live_page, label=T("live.teacher.see_answers"), icon=":material/groups:")
    else:
        st.page_link(live_page, label=T("live.teacher.lesson_start"), icon=":material/co_present:")


def ask_here(T: Texts, item: Item, key: str) -> None:
    """Where a question is asked (a lesson stop, the walkthrough's focused word): in a teacher's session with a live
    class, one button opens it for the room, and a link goes to the live page where the answers come in."""
    if TEACHER not in st.session_state:
        return
    from views.live import teacher  # on purpose here: only a session that teaches a class needs the live class's modules

    left, right = st.columns(2, vertical_alignment="center")
    if left.button(T("live.teacher.ask_live"), key=key, on_click=teacher.open_item, args=(item, None), icon=":material/how_to_vote:"):
        teacher.say_asked(T)
    right.page_link(BY_ID["live"].file_path, label=T("live.teacher.see_answers"), icon=":material/groups:")


def ask_now(T: Texts, item: Item) -> None:
    """Open ``item`` for the class this session teaches, from a component's event (no button callback): a toast says it
    is asked, or the refusal is shown. Called only where the page offered to ask (``teaching()``)."""
    from views.live import teacher  # on purpose here: only a session that teaches a class needs the live class's modules

    teacher.ask_now(T, item)
