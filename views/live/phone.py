"""A student's phone: the class's questions, round by round (the first answer kept in view while voting again, whom to
turn to for the discussion), the concept check, and where they sit (optional).

Streamlit has no push between sessions, so a phone rereads the questions every few seconds in a part that draws nothing
(one shared query per server process), and a tap reruns only the part with the answers.
"""

from __future__ import annotations

import html

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from attention_plot.figures import plain
from attention_plot.text import Texts
from classroom import store
from classroom.bell import SNAPSHOTS, moves_of, version_of
from views.live.common import ERROR, PHONE_POLL, SEAT, SEAT_COOKIE, engine, option_name, refused, show_table, wording
from views.live.join import join_form, nickname_notice, rejoin
from views.shell.page import View, focus_here, want_focus
from views.shell.script import bell, cookie
from views.widgets.questions import STUDENT

SHOWN = "live.phone_shown"  # session: what the phone last drew (the check's phase; the question's id, state and round)
OVER = "live.phone_over"  # session: (the class, whether it was over) as the phone last drew it
SAID = "live.phone_said"  # session: a number that grows with each change said
DRAWN = "live.phone_drawn"  # session: the class's moves its questions' part last drew from (what the reading compares with)


def say(words: str) -> None:
    """Said once by a screen reader through the page's own live region (shell.js, data-say), kept from the page's start:
    a change nobody on this phone pressed for (the teacher closed voting, revealed, asked anew, ended the class). A
    status drawn with its words already in it is often not heard; the region's words replace the last ones ("Sent: B").
    News (data-news) is said also in the page's first moments: the phone hears the teacher within a second now."""
    st.session_state[SAID] = st.session_state.get(SAID, 0) + 1
    st.html(f'<span class="live-said" hidden data-say="live-phone-{st.session_state[SAID]}" data-news '
            f'data-words="{html.escape(words)}"></span>')


def student(view: View) -> None:
    """A phone: the join box (the code from the link filled in), then the class's questions and the seat map."""
    T = view.T
    joined = st.session_state.get(STUDENT)
    if joined is not None and joined[0] != view["join"]:
        joined = None  # the link names another class
    if joined is None and not rejoin(view) and not join_form(view):
        return
    code, student_id = st.session_state[STUDENT]
    try:
        found = store.class_by_code(engine(), code, joining=False)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    over = found.ended is not None or found.expired()
    ending = over and st.session_state.get(OVER) == (found.id, False)  # ended (or expired) while this phone watched
    st.session_state[OVER] = (found.id, over)
    if ending:  # said, and the focus (lost with the vote's options) goes to the notice
        want_focus("live-phone-ended", lost_only=True)
        say(T("live.student.said_ended") if found.ended is not None else T("live.student.expired"))
    focus_here("live-phone-ended")
    if found.ended is not None:  # what was revealed stays readable; nothing more is asked
        st.info(T("live.refused.ended"), icon=":material/event_busy:")
    elif over:
        st.info(T("live.student.expired"), icon=":material/event_busy:")
    else:
        st.success(T("live.student.joined", code=found.code), icon=":material/groups:")
    nickname_notice(view)
    # kept after the end too: a reload of the class's page still shows what was revealed (a bare page joins afresh)
    cookie(SEAT_COOKIE, f"{found.code}.{st.session_state[SEAT]}", int(store.CLASS_HOURS * 3600))
    room(view, found, student_id, watching=not over)


def room(view: View, found: store.Class, student_id: int, watching: bool = True) -> None:
    """The questions open to this student, in a part a tap reruns alone, and that waits on the server for the teacher's
    next move (a question opened, closed, a round opened, revealed; the class ended: classroom/bell.py), which redraws
    that part alone within a second; beside it, a part that rereads the class's questions every few seconds in case
    that wait failed, and redraws the phone only when the teacher moved on."""
    answers_part(view, found.id, student_id, watching)
    if watching:  # an ended class asks nothing more: the phone stops reading (after the part drew: what it compares with)
        watch(found.id)
    if found.rows and watching:
        seat_part(view, found, student_id)


@st.fragment(run_every=PHONE_POLL)
def watch(class_id: int) -> None:
    """Draws nothing: a reading every few seconds, and a redraw when the teacher moved on from what the questions' part
    last drew (its wait on the server has redrawn it already, unless that wait failed)."""
    try:
        now, ended = moves_of(*SNAPSHOTS.read(engine(), class_id))
    except (SQLAlchemyError, OSError):
        return  # the next read tries again; the phone keeps what it shows
    if ended or (DRAWN in st.session_state and now != st.session_state[DRAWN]):
        st.rerun(scope="app")


@st.fragment
def answers_part(view: View, class_id: int, student_id: int, waiting: bool = True) -> None:
    """The questions; while the class goes on, drawn again alone when the server says the teacher moved on."""
    questions = None
    if waiting:
        try:
            questions, ended = SNAPSHOTS.news(engine(), class_id, st.session_state.get(DRAWN))  # read once for the room woken
        except (SQLAlchemyError, OSError):
            questions = None  # the part's own reading and the next wait try again
        if questions is not None:
            if ended:
                st.rerun(scope="app")  # the class ended: the whole page says so
            now = moves_of(questions, ended)
            st.session_state[DRAWN] = now[0]
            bell(version_of(now))
    questions_view(view, class_id, student_id, waiting, questions)


def _send(question_id: int, student_id: int, widget: str, round_: int) -> None:
    choice = st.session_state.get(widget)
    if choice is None:
        return
    try:
        store.answer(engine(), question_id, student_id, int(choice), round=round_)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        st.session_state[ERROR] = error


def questions_view(view: View, class_id: int, student_id: int, waiting: bool = True,
                   questions: list[store.Question] | None = None) -> None:
    """The class's open questions (``questions``: as just read for the room) with this student's answers."""
    T = view.T
    try:
        questions = store.open_questions(engine(), class_id) if questions is None else questions
        mine = store.my_answers(engine(), student_id)
    except (SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    error = st.session_state.pop(ERROR, None)
    if error is not None:
        refused(T, error)
    single = [q for q in questions if not q.phase]
    check = [q for q in questions if q.phase and q.state == "open"]
    follow_teacher(T, single[-1] if single else None, check[0].phase if check else None, waiting)
    focus_here("live-phone")  # joined: the first question, or the notice that none is open yet
    if check:
        phase = check[0].phase
        focus_here("live-phone-check")
        st.markdown(f"## {T('live.student.check', phase=T(f'live.phase.{phase}'))}")
        for number, question in enumerate(check, 1):
            one_question(T, question, mine, student_id, number, waiting=waiting)
        st.caption(T("live.student.check_done", count=sum((q.id, 1) in mine for q in check), total=len(check)))
    elif (after := [q for q in questions if q.phase == "after"]) and all(q.state != "open" for q in after):
        check_results(T, after, mine)  # the explanations come once the check is closed: no answer can change after them
    focus_here("live-phone-question")
    if single and not waiting:  # the class is over: every question asked, each with what was revealed and why
        for question in single:
            one_question(T, question, mine, student_id, waiting=False)
    elif single:
        one_question(T, single[-1], mine, student_id, waiting=waiting)
    elif not check and waiting:
        st.info(T("live.student.wait"), icon=":material/hourglass_empty:")


def follow_teacher(T: Texts, last: store.Question | None, check: str | None, waiting: bool) -> None:
    """The teacher moved on (a question asked, voting closed or opened again, the answer revealed, a concept check
    asked): the phone, which redraws itself, says so, and the focus, if it was lost with the vote's options, goes to the
    question. Nothing is said on the phone's first drawing, nor once the class is over (its notice says that)."""
    now = (check, (last.id, last.state, last.round) if last else None)
    before = st.session_state.get(SHOWN)
    st.session_state[SHOWN] = now
    if not waiting or before is None or before == now:
        return
    if last is not None and now[1] != before[1]:
        asked = " ".join(wording(T, last)[0].split())  # as read, not as markdown: said, never drawn
        if before[1] is None or before[1][0] != last.id:
            words = T("live.student.said_new", question=asked)
        elif last.state == "open":
            words = T("live.student.said_again", question=asked)
        else:
            words = T(f"live.student.said_{last.state}", question=asked)
        want_focus("live-phone-question", lost_only=True)
    elif check is not None and check != before[0]:
        words = T("live.student.said_new", question=T("live.student.check", phase=T(f"live.phase.{check}")))
        want_focus("live-phone-check", lost_only=True)
    else:
        return
    say(words)


def check_results(T: Texts, after: list[store.Question], mine: dict[tuple[int, int], int]) -> None:
    """The closed concept check (after the lesson): each item, the student's answer, the truth and why."""
    with st.expander(T("live.student.check_results"), expanded=False):
        for number, question in enumerate(after, 1):
            asked, options, explanation = wording(T, question)
            chosen = mine.get((question.id, 1))
            st.markdown(f"**{number}.** {plain(asked)}")
            you = T("live.student.you", option=option_name(options, chosen)) if chosen is not None else T("live.student.none")
            st.markdown(f"{you} {T('live.student.truth', option=option_name(options, question.correct))}  \n"
                        + T("live.student.explained", explanation=plain(explanation)))


def place_words(T: Texts, place: tuple[int, int] | None) -> str:
    return T("live.student.place", row=place[0], seat=place[1]) if place else T("live.student.no_place")


def discussion(T: Texts, question: store.Question, student_id: int) -> None:
    """Round 2: whom to turn to (the nearest who answered differently), the group's code shown on each member's phone."""
    try:
        group = store.partners_of(engine(), question.id, student_id)
    except (SQLAlchemyError, OSError):
        group = None
    with st.container(border=True, key=f"live-turn-{question.id}"):
        if group is None:
            st.markdown(T("live.student.discuss_anyone"))
            return
        seated = [place for place in group.others if place]
        unseated = len(group.others) - len(seated)
        who = T("live.student.list_separator").join(T("live.student.place", row=r, seat=s) for r, s in seated)
        lines = [T("live.student.turn_to", who=who) if seated else T("live.student.find_code", code=group.code)]
        if seated and unseated:
            lines.append(T("live.student.and_code", count=unseated, code=group.code))
        lines.append(T("live.student.differ" if group.mixed else "live.student.agree"))
        spelled = html.escape(T("live.student.group_code", code=" ".join(group.code)))  # a screen reader spells the code out
        st.html(f'<p class="live-group-code" role="text" aria-label="{spelled}">{html.escape(T("live.student.group_code", code=group.code))}</p>')
        st.markdown("  \n".join(lines))


def one_question(T: Texts, question: store.Question, mine: dict[tuple[int, int], int], student_id: int,
                 number: int | None = None, waiting: bool = True) -> None:
    """One question on a phone, as the teacher moved it: open (round 1, or round 2 with the first answer in view and
    whom to turn to), closed, revealed."""
    asked, options, explanation = wording(T, question)
    first, second = mine.get((question.id, 1)), mine.get((question.id, 2))
    state = "closed" if question.state == "open" and not waiting else question.state  # an ended or expired class asks nothing
    with st.container(border=True, key=f"live-q-{question.id}"):
        # a heading a screen reader moves to: the question (h2), or a concept check's item under its title (h3)
        (st.subheader if number else st.header)(f"{number}. {plain(asked)}" if number else plain(asked), anchor=False)
        show_table(T, question)
        if state == "open":
            if question.round == 2:
                discussion(T, question, student_id)
                st.markdown(T("live.student.first", option=option_name(options, first)) if first is not None else T("live.student.first_none"))
            chosen = second if question.round == 2 else first
            widget = f"live-answer-{question.id}-{question.round}"
            if widget not in st.session_state and chosen is not None:
                st.session_state[widget] = chosen
            # each group named apart (a concept check asks several at once); a tap sends, the arrow keys only move (shell.js)
            label = (T("live.student.again") if question.round == 2 else
                     T("live.student.your_answer_n", number=number) if number else T("live.student.your_answer"))
            st.radio(label, range(question.options), index=None, key=widget, width="stretch",
                     format_func=lambda i: option_name(options, i), on_change=_send, args=(question.id, student_id, widget, question.round))
            if chosen is not None:  # said by a screen reader too, each time it changes (data-say: shell.js)
                sent = html.escape(T("live.student.sent", option=option_name(options, chosen)))
                st.html(f'<p class="live-sent" data-say="live-sent-{question.id}-{question.round}">{sent}</p>')
            return
        answered = T("live.student.you", option=option_name(options, first)) if first is not None else T("live.student.none")
        if question.round == 2:
            answered = (T("live.student.you_twice", first=option_name(options, first) if first is not None else "–",
                          second=option_name(options, second) if second is not None else "–"))
        if state == "closed":
            st.markdown(answered)
            st.caption(T("live.student.closed" if waiting else "live.student.closed_ended"))
            return
        last = second if second is not None else first
        truth = T("live.student.truth", option=option_name(options, question.correct))
        if last is None and first is None:
            st.info(f"{truth}  \n{T('live.student.none')}", icon=":material/info:")
        else:
            right = last == question.correct
            verdict = T("live.student.right") if right else T("live.student.wrong")
            (st.success if right else st.warning)(f"{answered}  \n{truth} {verdict}", icon=":material/lightbulb:")
        if explanation:
            st.markdown(T("live.student.explained", explanation=plain(explanation)))


# --- Where the student sits ---


def _take(student_id: int, row: int, widget: str, rows: int) -> None:
    """A seat tapped in row ``row`` (its pills' value), or the tap undone: kept, and the other rows cleared."""
    seat = st.session_state.get(widget)
    for other in range(1, rows + 1):
        if other != row:
            st.session_state[f"live-seat-row-{other}"] = None
    try:
        store.take_place(engine(), student_id, row if seat else None, int(seat) if seat else None)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        st.session_state[ERROR] = error


@st.fragment
def seat_part(view: View, found: store.Class, student_id: int) -> None:
    """The room's seat map (rows × seats, the front first): a tap says where this student sits, never required; the
    discussion then names neighbours by row and seat."""
    T = view.T
    try:
        place = store.place_of(engine(), student_id)
    except (SQLAlchemyError, OSError):
        place = None
    with st.expander(T("live.student.seat_title", place=place_words(T, place)), expanded=place is None):
        st.caption(T("live.student.seat_help"))
        st.html(f'<p class="live-front">{T("live.student.front")}</p>')
        with st.container(key="live-seat-map"):
            for row in range(1, found.rows + 1):
                widget = f"live-seat-row-{row}"
                if widget not in st.session_state:
                    st.session_state[widget] = place[1] if place and place[0] == row else None
                st.pills(T("live.student.row", row=row), list(range(1, found.seats + 1)), key=widget,
                         on_change=_take, args=(student_id, row, widget, found.rows), width="stretch")
