"""What the room learned, reported honestly: the concept check before and after (each item's % right with its count,
its normalised gain, and beside every gain its losses: the share who went right → wrong, and wrong → right), each
question's rounds and its similar question, the classes this teacher ran, and the exports. Nothing identifies a student.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from attention_plot.figures import plain
from attention_plot.text import Texts
from classroom import store
from classroom.tally import Changes, changes, gain, normalised_gain, percent_right, total_changes
from views.live import history
from views.live.common import concept_items, engine, one_line, refused, wording
from views.live.teacher import _act, _open_check, open_single
from views.shell.page import View
from views.widgets.questions import TEACHER


def percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f} %"


def check_scores(questions: list[store.Question], tally: store.Tally) -> list[tuple[str, float | None, float | None, int, int]]:
    """Per concept item: (item id, % right before, % right after, answers before, answers after); a % is None where that
    check was not given or answered."""
    scores = []
    for item in concept_items():
        shares, counts = [], []
        for phase in ("before", "after"):
            asked = [tally.of(q, 1) for q in questions if q.item == item.id and q.phase == phase]
            total = sum(sum(c) for c in asked)
            shares.append(100 * sum(c[item.correct] for c in asked) / total if total else None)
            counts.append(total)
        scores.append((item.id, *shares, *counts))
    return scores


def check_table(T: Texts, scores: list[tuple], moved: dict[str, dict[tuple[bool, bool], int]]) -> None:
    """Each item's % right before and after with its count, its gain g, and the losses and gains of the students who
    answered both times; the class's ⟨g⟩ with the losses and gains over every item below."""
    import pandas as pd

    rows = []
    for item_id, before, after, n_before, n_after in scores:
        moves = changes(moved.get(item_id, {}))
        g = gain(before, after)
        rows.append({T("live.teacher.item"): plain(T(f"live.concept.{item_id.partition('.')[2]}.question")),
                     T("live.teacher.before"): f"{percent(before)} (n = {n_before})",
                     T("live.teacher.after"): f"{percent(after)} (n = {n_after})",
                     "g": "–" if g is None else f"{g:.2f}",
                     T("live.teacher.losses"): percent(moves.share(moves.lost)),
                     T("live.teacher.gains"): percent(moves.share(moves.gained))})
    st.table(pd.DataFrame(rows), hide_index=True)
    g = normalised_gain([(item, before, after) for item, before, after, _, _ in scores])
    overall = total_changes([changes(moved.get(item_id, {})) for item_id, *_ in scores])
    st.markdown(T("live.teacher.gain", gain=f"{g:.2f}") if g is not None else T("live.teacher.gain_none"))
    if overall.students:
        st.markdown(T("live.teacher.losses_gains", lost=percent(overall.share(overall.lost)), gained=percent(overall.share(overall.gained)),
                      count=overall.students))


def check_finished(questions: list[store.Question], tally: store.Tally, phase: str) -> int:
    """How many students answered every item of the check: the smallest count of any item is a lower bound, and exact
    when students answer in order; the aggregate is all the projector reads."""
    counts = [sum(tally.of(q, 1)) for q in questions if q.phase == phase and q.state == "open"]
    return min(counts) if counts else 0


def check_answered(questions: list[store.Question], tally: store.Tally, phase: str) -> int:
    """How many students answered at least one item of a check: the largest count of any of its items (a lower bound)."""
    counts = [sum(tally.of(q, 1)) for q in questions if q.phase == phase]
    return max(counts) if counts else 0


def _close_check(question_ids: tuple[int, ...]) -> None:
    for question_id in question_ids:
        _act(store.close_question, question_id)


def moved_now(questions: list[store.Question]) -> dict[str, dict[tuple[bool, bool], int]]:
    """The students' moves per item, once both checks are closed (read from the store with the teacher's key)."""
    given = {q.phase for q in questions}
    if not {"before", "after"} <= given or any(q.state == "open" for q in questions):
        return {}
    code, key = st.session_state[TEACHER]
    return store.report(engine(), code, key).moved


@st.fragment(run_every=2.0)
def check_panel(view: View, class_id: int) -> None:
    """The concept check: open it before or after the lesson, how many finished (read every 2 s), each item's % right
    before and after with its count, the gains and the losses."""
    T = view.T
    try:
        questions = [q for q in store.open_questions(engine(), class_id) if q.phase]
        tally = store.tally(engine(), class_id)
        moved = moved_now(questions)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    with st.container(border=True):
        st.markdown(f"## {T('live.teacher.gain_title')}")
        open_now = tuple(q.id for q in questions if q.state == "open")
        given = {q.phase for q in questions}
        phase = next((q.phase for q in questions if q.state == "open"), "")
        if open_now:
            st.markdown(T("live.teacher.check_progress", done=check_finished(questions, tally, phase), seated=tally.seated,
                          answers=sum(sum(tally.of(q, 1)) for q in questions if q.id in open_now)))
            st.button(T("live.teacher.check_close"), key="live-check-close", on_click=_close_check, args=(open_now,), type="primary")
        else:
            single = open_single(class_id)
            if single is not None and not {"before", "after"} <= given:
                st.caption(T("live.teacher.check_replaces", question=plain(one_line(T, single).rstrip("。."))))
            for name in ("before", "after"):
                if name not in given:
                    st.button(T("live.teacher.check_open", phase=T(f"live.phase.{name}")), key=f"live-check-{name}",
                              on_click=_open_check, args=(name, single.id if single else None))
        scores = check_scores(questions, tally)
        if open_now:  # while a check is open its scores stay hidden: the first answers would sway the rest
            hidden = 1 if phase == "before" else 2
            scores = [tuple(None if i == hidden else value for i, value in enumerate(row)) for row in scores]
            st.caption(T("live.teacher.check_hidden"))
        if any(before is not None or after is not None for _, before, after, _, _ in scores):
            check_table(T, scores, moved)
        counts = {p: check_answered(questions, tally, p) for p in ("before", "after") if p in given}
        if counts:
            st.caption(" · ".join(T("live.teacher.check_answered", phase=T(f"live.phase.{p}"), count=n) for p, n in counts.items()))


# --- Times, in the teacher's time zone ---

def teacher_zone() -> tuple[tzinfo, str]:
    """The teacher's time zone as their browser reports it (its name, else its offset), else UTC; with its name. The
    answers' CSV, the list of classes and its CSV all give their times in it (the CSVs with the offset in each time)."""
    name = st.context.timezone
    if name:
        try:
            return ZoneInfo(name), name
        except (KeyError, ValueError, OSError):  # not a zone this server knows (or a tampered name): its offset instead
            pass
    offset = st.context.timezone_offset  # minutes behind UTC
    if isinstance(offset, int) and abs(offset) <= 18 * 60:
        zone = timezone(-timedelta(minutes=offset))
        return zone, zone.tzname(None)
    return UTC, "UTC"


def local_time(stamp: float, zone: tzinfo) -> datetime:
    return datetime.fromtimestamp(stamp, zone)


# --- The answers, one row each ---


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet shows as text, never runs as a formula (a nickname, an option such as "−0.5")."""
    return "'" + text if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text


def export_csv(found: store.Class, key: str, T: Texts, zone: tzinfo = UTC) -> str:
    """One row per answer and round, with the question and the chosen option in the teacher's language beside their
    numbers; its time in ``zone``, with the offset (ISO 8601: 2025-05-01T10:32:05+02:00)."""
    rows = store.export_rows(engine(), found.code, key)
    asked = {q.id: wording(T, q)[:2] for q in store.open_questions(engine(), found.id)}
    out = io.StringIO()
    names = (["class", "question", "item", "question_text", "phase", "round", "student", "answer", "answer_text", "correct", "time"]
             + (["nickname"] if found.nicknames else []))
    writer = csv.DictWriter(out, fieldnames=names)
    writer.writerow({name: T(f"live.csv.{name}") for name in names})  # headers in the teacher's language
    for row in rows:
        row["phase"] = T(f"live.phase.{row['phase']}") if row["phase"] else ""
        question, options = asked[row["question"]]
        row["question_text"] = spreadsheet_text(question.replace("  \n", " — "))  # as written: no markdown escapes in a cell
        row["answer_text"] = spreadsheet_text(options[row["answer"] - 1])
        stored = datetime.strptime(str(row["time"]), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)  # the store's: UTC
        row["time"] = stored.astimezone(zone).isoformat()
        if found.nicknames:
            row["nickname"] = spreadsheet_text(str(row["nickname"]))
    writer.writerows(rows)
    return out.getvalue()


def export(view: View, found: store.Class) -> None:
    key = st.session_state[TEACHER][1]
    zone = teacher_zone()[0]
    st.download_button(view.T("live.teacher.export"), data=lambda: export_csv(found, key, view.T, zone), file_name=f"live-class-{found.code}.csv",
                       mime="text/csv", key="live-export", icon=":material/download:")


# --- The classes a teacher ran, and what each measured ---


FIGURES = ("class", "date", "students", "kind", "item", "question_text", "round1_right_percent", "round1_answers",
           "round2_right_percent", "round2_answers", "similar_right_percent", "similar_answers", "before_right_percent",
           "before_answers", "after_right_percent", "after_answers", "gain", "losses_percent", "gains_percent")


def share(counts: list[int], correct: int) -> str:
    value = percent_right(counts, correct)
    return "" if value is None else f"{value:.1f}"


def class_figures(T: Texts, found: store.Report, zone: tzinfo = UTC) -> list[dict[str, object]]:
    """One row per question asked (its rounds and its similar question's share right, with counts) and per concept
    item (before, after, g, losses and gains): the class's figures, with no student in them; its date in ``zone``, with
    the offset."""
    tally = store.Tally(found.seated, found.counts)
    date = local_time(found.found.created, zone).isoformat(timespec="minutes")
    base = {"class": found.found.code, "date": date, "students": found.seated}
    rows = []
    asked = [q for q in found.questions if not q.phase]
    for question in asked:
        if question.follows is not None:
            continue  # reported beside the question it follows
        similar = [q for q in asked if q.follows == question.id]
        first, second = tally.of(question, 1), tally.of(question, 2)
        alone = [sum(x) for x in zip(*(tally.of(q, 1) for q in similar))] if similar else []
        right_alone = sum(tally.of(q, 1)[q.correct] for q in similar)
        rows.append({**base, "kind": T("live.csv.kind_question"), "item": question.item, "question_text": one_line(T, question),
                     "round1_right_percent": share(first, question.correct), "round1_answers": sum(first),
                     "round2_right_percent": share(second, question.correct) if question.round == 2 else "",
                     "round2_answers": sum(second) if question.round == 2 else "",
                     "similar_right_percent": f"{100 * right_alone / sum(alone):.1f}" if alone and sum(alone) else "",
                     "similar_answers": sum(alone) if alone else ""})
    scores = check_scores(found.questions, tally)
    for item_id, before, after, n_before, n_after in scores:
        if before is None and after is None:
            continue
        moves = changes(found.moved.get(item_id, {}))
        g = gain(before, after)
        rows.append({**base, "kind": T("live.csv.kind_concept_item"), "item": item_id,
                     "question_text": T(f"live.concept.{item_id.partition('.')[2]}.question"),
                     "before_right_percent": "" if before is None else f"{before:.1f}", "before_answers": n_before,
                     "after_right_percent": "" if after is None else f"{after:.1f}", "after_answers": n_after,
                     "gain": "" if g is None else f"{g:.3f}", "losses_percent": _share(moves, moves.lost),
                     "gains_percent": _share(moves, moves.gained)})
    return [{name: row.get(name, "") for name in FIGURES} for row in rows]


def _share(moves: Changes, count: int) -> str:
    value = moves.share(count)
    return "" if value is None else f"{value:.1f}"


def classes_csv(T: Texts, reports: list[store.Report], zone: tzinfo = UTC) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIGURES)
    writer.writerow({name: T(f"live.csv.{name}") for name in FIGURES})  # headers in the teacher's language
    for found in reports:
        writer.writerows({name: spreadsheet_text(str(value)) for name, value in row.items()} for row in class_figures(T, found, zone))
    return out.getvalue()


def summary(T: Texts, found: store.Report, zone: tzinfo = UTC, zone_name: str = "UTC") -> dict[str, str]:
    """A class in one row of the list: when (in ``zone``, named in the column's header), code, students, questions,
    each round's share right over its questions, the similar questions', ⟨g⟩ with the losses and gains."""
    tally = store.Tally(found.seated, found.counts)
    asked = [q for q in found.questions if not q.phase]

    def pooled(questions: list[store.Question], round_: int) -> str:
        counts = [(tally.of(q, round_)[q.correct], sum(tally.of(q, round_))) for q in questions]
        right, total = sum(c[0] for c in counts), sum(c[1] for c in counts)
        return f"{100 * right / total:.0f} % (n = {total})" if total else "–"

    originals = [q for q in asked if q.follows is None]
    scores = check_scores(found.questions, tally)
    g = normalised_gain([(item, before, after) for item, before, after, _, _ in scores])
    overall = total_changes([changes(found.moved.get(item_id, {})) for item_id, *_ in scores])
    return {T("live.report.date_in", zone=zone_name): local_time(found.found.created, zone).strftime("%Y-%m-%d %H:%M"),
            T("live.report.code"): found.found.code, T("live.report.students"): str(found.seated),
            T("live.report.questions"): str(len(originals)),
            T("live.report.round1"): pooled(originals, 1),
            T("live.report.round2"): pooled([q for q in originals if q.round == 2], 2),
            T("live.report.similar"): pooled([q for q in asked if q.follows is not None], 1),
            "⟨g⟩": "–" if g is None else f"{g:.2f}",
            T("live.report.losses_gains"): (f"{percent(overall.share(overall.lost))} / {percent(overall.share(overall.gained))}"
                                            if overall.students else "–")}


MAX_LISTED = 50  # classes listed (the newest)


@st.fragment
def classes_panel(view: View, key: str | None) -> None:
    """The classes started with this teacher key on this server, each with its figures, and their CSV; read only when
    the teacher opens the list (a part of the page that reruns alone)."""
    import pandas as pd

    T = view.T
    if key is None:
        return
    try:
        found = store.teacher_classes(engine(), key)[:MAX_LISTED]
    except (SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    if not found or not st.toggle(T("live.report.title", count=len(found)), key="live-classes", help=T("live.report.help")):
        return
    try:
        reports = [store.report(engine(), c.code, key) for c in found]
    except (store.Refused, SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    zone, zone_name = teacher_zone()
    st.table(pd.DataFrame([summary(T, r, zone, zone_name) for r in reports]), hide_index=True)
    st.download_button(T("live.report.export"), data=lambda: classes_csv(T, reports, zone), file_name="live-classes.csv", mime="text/csv",
                       key="live-classes-export", icon=":material/download:")
    history.panel(T, key)  # each question over these classes
