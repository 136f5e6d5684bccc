"""The live class on screen: the teacher's panel and projector, and the student's phone.

Vote → discuss → vote again → reveal → one more like it; a concept check before and after; the classes a teacher ran
with what each measured. The pieces:

- ``common``: who a session is, a question's words in each language, messages, cookies;
- ``join``: a phone joining (by link, by code, again by its seat's cookie), wrong codes limited;
- ``phone``: the student's questions round by round, whom to turn to, the seat map;
- ``teacher``: starting, the join card, asking (also for the pages that ask the room: ``views.widgets.ask``);
- ``projector``: the question as the room sees it, read once a second;
- ``report``: the concept check's gains and losses, the exports, the classes run before;
- ``history``: what those classes say about each question (facility, discrimination, distractors, stuck after
  discussion), shown with the classes run before.

Other pages ask the room through ``views.widgets.ask``, never from here; what both share (who teaches, what can be
asked, the lesson's stops) is ``views.widgets.questions``. The app takes a teacher link on every run through
``views.widgets.ask.take_teacher_link``, which imports nothing of this package.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from classroom import store
from views.live import report
from views.live.common import ERROR, SEAT_COOKIE, cookies, engine, refused, style
from views.live.phone import student
from views.live.projector import projector
from views.live.teacher import (
    ASK_DRAWN,
    ask,
    controls_box,
    end_button,
    join_url,
    kept_key,
    link_refused,
    open_single,
    remember,
    seat_map_panel,
    start_form,
)
from views.shell.page import View, focus_here
from views.widgets.questions import STUDENT, TEACHER

__all__ = ["STUDENT", "TEACHER", "draw", "intro_key", "store"]


def teacher_panel(view: View) -> None:
    """The teacher's panel: the join card, the question on the projector, asking, the concept check, the seat map, the
    exports, the classes run before, end."""
    T = view.T
    code, key = st.session_state[TEACHER]
    try:
        found = store.check_teacher(engine(), code, key)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    if view["join"] != found.code:
        view.set("join", found.code)
    error = st.session_state.pop(ERROR, None)
    if error is not None:
        refused(T, error)
    if found.ended is not None:  # no code or QR code any more: nobody can join
        focus_here("live-ended")
        st.info(T("live.teacher.ended", code=found.code), icon=":material/event_busy:")
    elif found.expired():  # the code's hours are over: nobody joins or answers; the figures and exports stay
        st.warning(T("live.teacher.expired", code=found.code), icon=":material/timer_off:")
    else:
        st.session_state[ASK_DRAWN] = open_single(found.id)
        if view.settings.present:  # the room sees this page: asking and ending wait in a closed box, above the question
            controls_box(view, found.id)
        projector(view, found)
        if not view.settings.present:
            ask(view, found.id)
        report.check_panel(view, found.id)
        if view.layout.extras:
            seat_map_panel(view, found)
    report.export(view, found)
    remember(found.code, key, found.ended is not None)
    if found.ended is None and not found.expired():
        if view.layout.extras:
            with st.expander(T("live.teacher.resume")):
                st.caption(T("live.teacher.resume_help"))
                st.code(f"{join_url(found.code, T.lang)}&teacher={key}", language=None)
        if not view.settings.present:
            end_button(T)
    if view.layout.extras:
        report.classes_panel(view, key)


def intro_key(view: View) -> str:
    """A phone that came by a join link, has joined, or has a seat's cookie (a student back) reads what a student does;
    anyone else, what the page is."""
    joining = TEACHER not in st.session_state and (view["join"] or STUDENT in st.session_state or bool(cookies().get(SEAT_COOKIE)))
    return "live.intro_student" if joining else "live.intro"


def draw(view: View) -> None:
    """The live page: the teacher's panel for the class's teacher, else the student's phone and a way to start a class
    (with the classes this browser's teacher ran before)."""
    T = view.T
    style()
    if link_refused(T) and TEACHER not in st.session_state and STUDENT not in st.session_state:
        return  # a wrong teacher link seats nobody: the refusal and what to do, nothing to join
    if TEACHER in st.session_state:
        teacher_panel(view)
        return
    error = st.session_state.pop(ERROR, None)
    if error is not None:
        refused(T, error)
    student(view)
    if STUDENT not in st.session_state and not view["join"]:  # a teacher may start on the projector too; a join link is a phone's
        start_form(view)
        if view.layout.extras:
            report.classes_panel(view, kept_key())

