"""Asking the room: the service a page calls where it has a question for the live class (a lesson stop, the
walkthrough's focused word, a real head's strongest key). In a session that teaches a class, one button opens the
question on the students' phones and a link goes to the live page where the answers come in; anywhere else it draws
nothing. Who teaches is decided here too, on every run (``take_teacher_link``: a teacher link, or the teacher's cookie).

The live class's own modules (``views.live``) are imported only inside the functions that run while this session
teaches a class: a page opened with no class open imports nothing of the live page. What both sides share (who
teaches, what can be asked) is ``views.widgets.questions``.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from attention_plot.text import Texts
from classroom import store
from classroom.store import MAX_OPTIONS
from views.shell.registry import BY_ID
from views.widgets import questions
from views.widgets.questions import LINK_KEPT, LINK_REFUSED, STUDENT, TEACHER, TEACHER_COOKIE, Item, focus_item, remember_walk

__all__ = ["MAX_OPTIONS", "STUDENT", "TEACHER", "Item", "ask_here", "ask_now", "focus_item", "lesson_banner", "remember_walk",
           "take_teacher_link", "teaching"]


def take_teacher_link() -> None:
    """A teacher link (``?join=CODE&teacher=KEY``) opened on another device: the session becomes the class's teacher, and
    the key leaves the address bar at once (it is never written back into a link). A reload of the teacher's own page
    (a new session) resumes from the browser's cookie, set by the live page (``views.live.teacher.remember``).

    A wrong or stale link (a key cut short, an old class's) seats nobody: the code leaves the address bar with the key,
    so that neither this run nor a reload joins the class as a student (the teacher would be counted), and the session
    keeps the refusal (``LINK_REFUSED``: the link's code and the refusal) until the teacher leaves it (the live page's
    ``link_refused``). A browser that teaches that class already (its cookie) stays its teacher (``LINK_KEPT``).

    The app calls it on every run, before the link is read; it needs the store only, never the live page's modules."""
    key = st.query_params.get("teacher")
    if key is None:
        if TEACHER not in st.session_state and STUDENT not in st.session_state and TEACHER_COOKIE in questions.cookies():
            resume_from_cookie()
        return
    code = st.query_params.get("join", "")
    del st.query_params["teacher"]
    try:
        found = store.check_teacher(store.connect(), code, key)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        if "join" in st.query_params:
            del st.query_params["join"]
        linked = store.normal_code(code) or ""
        if linked and ((st.session_state.get(TEACHER) or ("",))[0] == linked or resume_from_cookie(linked)):
            st.session_state[LINK_KEPT] = True
        else:
            st.session_state[LINK_REFUSED] = (linked, error)
        return
    st.session_state[TEACHER] = (found.code, key)
    st.session_state.pop(STUDENT, None)
    st.session_state.pop(LINK_REFUSED, None)


def resume_from_cookie(code: str | None = None) -> bool:
    """This browser's running class (its cookie), resumed as its teacher (only if it is ``code``'s, when given)."""
    kept_code, _, kept = questions.cookies().get(TEACHER_COOKIE, "").partition(".")
    if not kept or (code is not None and kept_code != code):
        return False
    try:
        found = store.check_teacher(store.connect(), kept_code, kept)
    except (store.Refused, SQLAlchemyError, OSError):
        return False
    if found.ended is not None:
        return False
    st.session_state[TEACHER] = (found.code, kept)
    st.session_state.pop(STUDENT, None)
    return True


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
