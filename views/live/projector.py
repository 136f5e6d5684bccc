"""The projector: the join card and the question as the room sees it, read once a second.

Vote → discuss → vote again (Crouch and Mazur 2001): while round 1 is open, how many answered (not what); once it
closes, the share right and what it suggests (30–70 %: discuss; below, explain; above, move on), the first answers only
if the teacher asks; round 2 open with whom to turn to on each phone; after round 2 both rounds side by side and the
shift from each answer to each; then the reveal and "one more like it", answered alone (the transfer).

Nothing drawn in presenter mode (``projected``: the room sees it) is derived from which option is correct before the
reveal: no share right, no advice (its band names the share), no button made primary by the advice, no mark; every
count the room sees is a count of answers, which says nothing of the truth. The share right and the advice are the
teacher's alone, on their own screen (presenter mode off): a student who remembered "3 of 6 right" would find the answer
in round 1's bars, shown later beside round 2's. The teacher's buttons come right under the question, before the
answers, so that they stay on a 1280 × 720 projector's screen whatever the answers below take.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from attention_plot.figures import plain
from attention_plot.text import Texts
from classroom import generators, store
from classroom.tally import advice, percent_right, shift_table, whole_percents
from views.live.common import LETTERS, PROJECTOR_POLL, engine, option_name, refused, show_table, wording
from views.live.teacher import ASK_DRAWN, _act, _act_on_question, _open_similar, join_card
from views.shell.page import View, focus_here


def histogram(T: Texts, options: list[str], counts: list[int], correct: int | None, key: str = "") -> None:
    """The room's answers: one bar per option with its count and share (whole percents adding up to 100); the correct
    one marked when revealed."""
    total = sum(counts)
    if not total:
        st.caption(T("live.teacher.no_answers"))
    for index, (count, percent) in enumerate(zip(counts, whole_percents(counts))):
        mark = f" ✓ **{T('live.teacher.correct_mark')}**" if index == correct else ""
        st.progress(count / total if total else 0.0, text=f"{option_name(options, index)}: {count} ({percent}%){mark}")


def right_line(T: Texts, question: store.Question, counts: list[int], round_: int) -> str:
    """"Round 1: 45 % right (9 of 20)"."""
    share = percent_right(counts, question.correct)
    if share is None:
        return T("live.teacher.round_none", round=round_)
    return T("live.teacher.round_right", round=round_, percent=f"{share:.0f}", right=counts[question.correct], count=sum(counts))


def advice_after_first(T: Texts, question: store.Question, counts: list[int]) -> None:
    """Why discuss (or not), on the teacher's own screen only: the share right on the first vote against the 30–70 %
    band, and a word that the projector (presenter mode) keeps it to itself."""
    share = percent_right(counts, question.correct)
    said = advice(share)
    with st.container(border=True, key="live-advice"):
        st.markdown(f"**{right_line(T, question, counts, 1)}**")
        st.info(T(f"live.teacher.advice.{said}"), icon=":material/forum:" if said == "discuss" else ":material/lightbulb:")
        st.caption(T("live.teacher.advice_private"))


def shift(T: Texts, question: store.Question, options: list[str]) -> None:
    """How each answer moved from round 1 to round 2: rows the first answer, columns the second (students who voted
    both times), with the number who changed."""
    import pandas as pd

    try:
        moves = store.shift(engine(), question.id)
    except (SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    table = shift_table(moves, question.options)
    letters = [LETTERS[i] if i < len(LETTERS) else str(i + 1) for i in range(question.options)]
    mark = {question.correct: " ✓"} if question.state == "revealed" else {}
    frame = pd.DataFrame(table, columns=[T("live.teacher.to", option=f"{letter}{mark.get(i, '')}") for i, letter in enumerate(letters)])
    frame.insert(0, T("live.teacher.from_to"), [T("live.teacher.from", option=f"{letter}{mark.get(i, '')}") for i, letter in enumerate(letters)])
    both = sum(map(sum, table))
    changed = both - sum(table[i][i] for i in range(question.options))
    st.markdown(f"**{T('live.teacher.shift_title')}**")
    st.table(frame, hide_index=True)
    st.caption(T("live.teacher.shift_note", both=both, changed=changed))


def both_rounds(T: Texts, question: store.Question, options: list[str], tally: store.Tally, revealed: bool) -> None:
    """Round 1 and round 2 side by side (counts; the share right once revealed), then the shift."""
    left, right = st.columns(2)
    for column, round_ in ((left, 1), (right, 2)):
        with column:
            counts = tally.of(question, round_)
            # the share right says which bar is the answer: it waits for the reveal
            line = right_line(T, question, counts, round_) if revealed else T("live.teacher.round_count", round=round_, count=sum(counts))
            st.markdown(f"**{line}**")
            histogram(T, options, counts, question.correct if revealed else None)
    shift(T, question, options)


def transfer(T: Texts, question: store.Question, questions: list[store.Question], tally: store.Tally) -> None:
    """A similar question revealed: the original's rounds beside it, each with its count."""
    original = next((q for q in questions if q.id == question.follows), None)
    if original is None:
        return
    parts = [right_line(T, original, tally.of(original, 1), 1)]
    if original.round == 2:
        parts.append(right_line(T, original, tally.of(original, 2), 2))
    counts = tally.of(question, 1)
    share = percent_right(counts, question.correct)
    parts.append(T("live.teacher.similar_right", percent="–" if share is None else f"{share:.0f}",
                   right=counts[question.correct], count=sum(counts)))
    st.info(T("live.teacher.transfer") + "  \n" + " · ".join(parts), icon=":material/trending_up:")


def actions(T: Texts, question: store.Question, counts: list[int], projected: bool) -> None:
    """The teacher's buttons for the question as it stands. On the teacher's own screen the advice after round 1 makes
    its button the primary one; projected, "Discuss" always is (a primary "Reveal" would say: over 70 % or under 30 %
    right)."""
    if question.state == "open":
        left, right = st.columns(2)
        left.button(T("live.teacher.close"), key="live-close", on_click=_act_on_question, args=(store.close_question, question.id),
                    type="primary", icon=":material/lock:")
        right.button(T("live.teacher.reveal"), key="live-reveal-open", on_click=_act_on_question, args=(store.reveal_question, question.id),
                     icon=":material/visibility:")
    elif question.state == "closed":
        discuss = question.round == 1 and question.follows is None  # "one more like it" is answered alone
        left, right = st.columns(2) if discuss else (None, st.container())
        discuss_first = discuss and (projected or advice(percent_right(counts, question.correct)) == "discuss")
        if discuss:
            left.button(T("live.teacher.discuss"), key="live-discuss", on_click=_act_on_question,
                        args=(store.open_round_two, question.id, question.show_first),
                        type="primary" if discuss_first else "secondary", icon=":material/forum:")
        right.button(T("live.teacher.reveal"), key="live-reveal", type="secondary" if discuss_first else "primary",
                     on_click=_act_on_question, args=(store.reveal_question, question.id), icon=":material/visibility:")
    elif generators.similar_kind(question.item) is not None:
        st.button(T("live.teacher.similar"), key="live-similar", on_click=_open_similar, args=(question,),
                  help=T("live.teacher.similar_help"), icon=":material/autorenew:")


def _show_first(question_id: int, widget: str) -> None:
    _act(store.set_show_first, question_id, bool(st.session_state.get(widget)))


@st.fragment(run_every=PROJECTOR_POLL)
def projector(view: View, found: store.Class) -> None:
    """The join card and the question on the projector, read once a second: how many answered while open (the answers
    only if the teacher chose so), the share right and the advice after round 1, both rounds and the shift after round
    2, the correct answer once revealed. The class ended or expired elsewhere redraws the whole page."""
    T = view.T
    try:
        db = engine()
        now = store.class_by_id(db, found.id)
        questions = [q for q in store.open_questions(db, found.id) if not q.phase]
        tally = store.tally(db, found.id)
    except (SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    if now is None or now.ended is not None or now.expired():  # ended on another device, or the code's hours are over
        st.rerun(scope="app")
    now_open = next((q.id for q in reversed(questions) if q.state == "open"), None)
    drawn = st.session_state.get(ASK_DRAWN)
    if now_open != (drawn.id if drawn else None):  # closed, revealed or opened since: "Ask the class" says so
        st.rerun(scope="app")
    focus_here("live-join")
    join_card(T, found.code, compact=bool(questions) and not view.layout.extras)
    st.caption(T("live.teacher.seated", count=tally.seated))
    if questions:
        question_card(T, questions[-1], questions, tally, projected=view.settings.present)


def question_card(T: Texts, question: store.Question, questions: list[store.Question], tally: store.Tally,
                  projected: bool) -> None:
    """The question as it stands, its buttons right under it, then the answers (``projected``: presenter mode, where
    nothing derived from the correct option shows before the reveal)."""
    asked, options, explanation = wording(T, question)
    counts = tally.of(question)
    focus_here("live-question")
    with st.container(border=True, key="live-question"):
        st.markdown(f"## {plain(asked)}")
        show_table(T, question)
        if question.follows is not None:
            st.caption(T("live.teacher.alone"))
        revealed = question.state == "revealed"
        if question.state == "open" and question.round == 2:
            st.markdown(f"**{T('live.teacher.round_two')}**")
        if question.state == "open" or (question.state == "closed" and question.round == 1):
            st.markdown(T("live.teacher.answered", count=sum(counts), seated=tally.seated))
        if question.state == "closed" and question.round == 1 and question.follows is None:
            if not projected:  # the room reads how many answered, never how many are right
                advice_after_first(T, question, counts)
            st.caption(T("live.teacher.closed_note"))
        actions(T, question, counts, projected)
        if revealed:
            st.success(T("live.student.truth", option=option_name(options, question.correct)), icon=":material/check_circle:")
        if question.state == "open":
            if question.live:
                histogram(T, options, counts, None)
            else:
                st.caption(T("live.teacher.waiting"))
                st.markdown("  \n".join(option_name(options, i) for i in range(len(options))))
            if question.round == 2 and question.show_first:
                first = tally.of(question, 1)
                st.markdown(f"**{T('live.teacher.round_count', round=1, count=sum(first))}**")  # not its share right: the answer
                histogram(T, options, first, None)
        elif question.round == 2:
            both_rounds(T, question, options, tally, revealed)
        elif question.state == "closed":
            if question.follows is None:
                widget = f"live-show-first-{question.id}"
                st.session_state[widget] = question.show_first
                st.toggle(T("live.teacher.show_first"), key=widget, on_change=_show_first, args=(question.id, widget),
                          help=T("live.teacher.show_first_help"))
            if question.show_first or question.follows is not None:
                histogram(T, options, counts, None)
        else:  # revealed after one round: its share right, as both rounds say theirs (one more like it: in the transfer)
            if question.follows is None:
                st.markdown(f"**{right_line(T, question, counts, 1)}**")
            histogram(T, options, counts, question.correct)
        if revealed:
            if explanation:
                st.markdown(plain(explanation))
            if question.follows is not None:
                transfer(T, question, questions, tally)
