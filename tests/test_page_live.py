"""The live class through the app (AppTest), several sessions at once: vote → discuss → vote again → reveal → one more
like it; the seat map and whom to turn to; each finding of the teacher's and the sysadmin's run, replayed; a question
from open to reveal, wrong codes and tampered links, nicknames, the concept check, and questions asked from other
pages. (The store under it: test_shell_classroom_store.py.)"""

from __future__ import annotations

import csv
import io
import json
import re
import time

import pytest
from conftest import ROOT, open_app
from conftest import all_text as page_text
from hypothesis import HealthCheck, settings
from hypothesis import strategies as hyp
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlalchemy import update

from attention_plot.text import Texts
from classroom import generators, limits, store
from classroom.pairing import Voter, pair
from views import live
from views.live import common, join, report
from views.shell import cookies as shell_cookies
from views.widgets import questions


def all_text(at) -> str:
    """Every text on the page, the successes and the HTML too, without markdown's escapes."""
    return "\n".join([page_text(at), *(str(element.value) for element in at.get("success")),
                      *(element.proto.body for element in at.get("html"))]).replace("\\", "")


def start(rows: int = 0, seats: int = 0, nicknames: bool = False, **params):
    teacher = open_app("live", **params)
    if nicknames:
        teacher.toggle(key="live.nicknames").set_value(True).run()
    if rows:
        teacher.number_input(key="live-start-rows").set_value(rows).run()
        teacher.number_input(key="live-start-seats").set_value(seats).run()
    teacher.button(key="live-start").click().run()
    assert not teacher.exception, [e.message for e in teacher.exception]
    return teacher, teacher.session_state[live.TEACHER][0]


def opens(at, item_id: str) -> None:
    at.selectbox(key="live-pick").set_value(item_id).run()
    at.button(key="live-open").click().run()
    assert not at.exception, [e.message for e in at.exception]


def answer_radio(at):
    return next(r for r in at.radio if r.key and r.key.startswith("live-answer-"))


def answer_radios(at) -> list:
    return [r for r in at.radio if r.key and r.key.startswith("live-answer-")]


def pills(at, row: int):
    """The seat map's row ``row`` (st.pills) on a phone."""
    return next(p for p in at.get("button_group") if p.key == f"live-seat-row-{row}")


def answers_in(code: str) -> list[tuple[int, int, int, int]]:
    """Every stored answer of the class: (question, student, round, choice)."""
    db = store.connect()
    found = store.class_by_code(db, code, joining=False)
    with db.connect() as connection:
        rows = connection.execute(store.select(store.answers.c.question_id, store.answers.c.student_id, store.answers.c.round,
                                               store.answers.c.choice)
                                  .select_from(store.answers.join(store.questions, store.questions.c.id == store.answers.c.question_id))
                                  .where(store.questions.c.class_id == found.id)).all()
    return sorted(tuple(row) for row in rows)


def test_vote_discuss_vote_again_reveal_and_one_more_like_it():
    """A teacher and four phones (one in Chinese) in a 2 × 3 room: round 1 splits the room 50 %, the projector says why
    to discuss and hides the answers; round 2 pairs neighbours who answered differently; the phones keep their first
    answer in view; after round 2 both rounds side by side and the shift; the reveal; one more like it, answered alone."""
    teacher, code = start(rows=2, seats=3)
    phones = [open_app("live", join=code, lang=lang) for lang in ("en", "zh", "en", "en")]
    for phone, (row, seat) in zip(phones[:3], ((1, 1), (1, 2), (2, 3))):  # the fourth student taps no seat
        pills(phone, row).set_value(seat).run()
        assert not phone.exception, [e.message for e in phone.exception]
    ids = [phone.session_state[live.STUDENT][1] for phone in phones]
    assert [store.place_of(store.connect(), i) for i in ids] == [(1, 1), (1, 2), (2, 3), None]
    opens(teacher, "concept.cosine")  # correct: A. [−1, 1]
    for phone, choice in zip(phones, (0, 1, 0, 2)):  # A, B, A, C: 2 of 4 right
        phone.run()
        answer_radio(phone).set_value(choice).run()
    teacher.run()
    assert "4 of 4 answered" in all_text(teacher)
    teacher.button(key="live-close").click().run()
    shown = all_text(teacher)
    assert "Round 1: 50 % right (2 of 4)" in shown and "Between 30 % and 70 % right" in shown
    assert not teacher.get("progress")  # the first answers stay hidden: the room is not swayed
    teacher.toggle(key=next(t.key for t in teacher.toggle if t.key and t.key.startswith("live-show-first-"))).set_value(True).run()
    assert len(teacher.get("progress")) == 4  # only when the teacher asks
    teacher.toggle(key=next(t.key for t in teacher.toggle if t.key and t.key.startswith("live-show-first-"))).set_value(False).run()
    assert not teacher.get("progress")
    teacher.button(key="live-discuss").click().run()
    assert "Round 2: discuss with a neighbour, then vote again" in all_text(teacher) and "0 of 4 answered" in all_text(teacher)
    # The pairing, computed again here: seated 1 (A, row 1 seat 1), 2 (B, 1-2), 3 (A, 2-3); 4 (C) has no seat and is
    # alone of its kind, so joins the seated: 4 first (distance unknown counts 0) pairs with 1 (A ≠ C), then 2 with 3.
    groups = pair([Voter(ids[0], (1, 1), 0), Voter(ids[1], (1, 2), 1), Voter(ids[2], (2, 3), 0), Voter(ids[3], None, 2)])
    assert [set(g.members) for g in groups] == [{ids[0], ids[3]}, {ids[1], ids[2]}] and all(g.mixed for g in groups)
    phones[0].run()
    said = all_text(phones[0])
    assert "Find the student whose phone shows A1" in said and "Your first answer: A. [−1, 1]." in said
    assert "You answered differently" in said
    phones[1].run()
    assert "请转向第 2 排第 3 座的同学。" in all_text(phones[1]) and "你第一次的答案：B." in all_text(phones[1])
    phones[2].run()
    assert "Turn to the student at row 1, seat 2." in all_text(phones[2])
    assert answer_radio(phones[0]).value is None  # round 2's vote starts empty: a tap is a vote
    for phone, choice in zip(phones, (0, 0, 0, 0)):  # B → A and C → A: two change their minds
        phone.run()
        answer_radio(phone).set_value(choice).run()
    assert "Sent: A." in all_text(phones[3])
    teacher.run()
    assert "4 of 4 answered" in all_text(teacher)
    teacher.button(key="live-close").click().run()
    shown = all_text(teacher)
    assert "Round 1: 4 answers" in shown and "Round 2: 4 answers" in shown and "% right (" not in shown  # the share waits for the reveal
    shift = next(t.value for t in teacher.table if "First \\ second" in t.value.columns or "First \\\\ second" in t.value.columns)
    assert shift.iloc[:, 1:].values.tolist() == [[2, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]
    assert "4 students voted both times; 2 of them changed their answer." in shown
    teacher.button(key="live-reveal").click().run()
    assert "The answer: A." in all_text(teacher)
    assert "Round 1: 50 % right (2 of 4)" in all_text(teacher) and "Round 2: 100 % right (4 of 4)" in all_text(teacher)
    phones[1].run()
    assert "你第一次的答案：B. [0, 1]。第二次：A. [−1, 1]。" in all_text(phones[1]).replace("\\", "")
    question = store.open_questions(store.connect(), store.class_by_code(store.connect(), code).id)[-1]
    assert sorted(row[2:] for row in answers_in(code)) == sorted([(1, 0), (1, 1), (1, 0), (1, 2), (2, 0), (2, 0), (2, 0), (2, 0)])
    assert len(answers_in(code)) == 8  # once per student per round
    teacher.button(key="live-similar").click().run()
    similar = store.open_questions(store.connect(), question.id and store.class_by_code(store.connect(), code).id)[-1]
    assert similar.item.startswith("gen.cosine.") and similar.follows == question.id and similar.state == "open"
    instance = generators.parse(similar.item)
    assert similar.correct == instance.correct and similar.options == len(instance.options)
    assert "One more like it: answer alone, without discussing." in all_text(teacher)
    for phone, right in zip(phones, (True, True, False, True)):
        phone.run()
        assert "What is the cosine similarity" in all_text(phone) or "余弦相似度" in all_text(phone)
        answer_radio(phone).set_value(instance.correct if right else (instance.correct + 1) % 4).run()
    teacher.run()
    teacher.button(key="live-close").click().run()
    assert not [b for b in teacher.button if b.key == "live-discuss"]  # answered alone: no second round
    teacher.button(key="live-reveal").click().run()
    shown = all_text(teacher)
    assert "Round 1: 50 % right (2 of 4) · Round 2: 100 % right (4 of 4) · similar question: 75 % right (3 of 4)" in shown


def test_a_seat_never_travels_in_the_address_and_a_linked_one_is_ignored():
    """A student's seat is a secret of their browser: the address holds the code only, and a link carrying another
    student's seat neither shows their answer nor lets anyone change it."""
    teacher, code = start()
    opens(teacher, "concept.rows")
    phone = open_app("live", join=code)
    answer_radio(phone).set_value(2).run()
    seat = phone.session_state[common.SEAT]
    assert "seat" not in phone.query_params and seat not in str(dict(phone.query_params))
    stranger = open_app("live", join=code, seat=seat)
    assert "seat" not in stranger.query_params and stranger.session_state[common.SEAT] != seat
    assert answer_radio(stranger).value is None and "Sent:" not in all_text(stranger)
    answer_radio(stranger).set_value(0).run()
    found = store.class_by_code(store.connect(), code)
    assert store.tally(store.connect(), found.id).counts[(store.open_questions(store.connect(), found.id)[0].id, 1)] == {2: 1, 0: 1}


def test_a_nickname_class_takes_a_phone_back_from_its_cookie_after_a_reload_or_a_restart(monkeypatch):
    """Five phones join a class with nicknames; each new session (a reload, a new tab, a restarted server) carries only
    the browser's cookie, and is in again at once: no empty join form, the same student, the same answer."""
    teacher, code = start(nicknames=True)
    opens(teacher, "concept.rows")
    kept = {}
    for n in range(5):
        phone = open_app("live", join=code)
        phone.text_input[1].set_value(f"Student {n}")
        phone.button[0].click().run()
        answer_radio(phone).set_value(n % 4).run()
        kept[n] = (phone.session_state[common.SEAT], phone.session_state[live.STUDENT][1])
    for n, (seat, student) in kept.items():
        monkeypatch.setattr(common, "cookies", lambda seat=seat: {common.SEAT_COOKIE: f"{code}.{seat}"})
        again = open_app("live", join=code)
        assert f"You are in class {code}." in all_text(again) and not again.text_input  # no form to fill again
        assert again.session_state[live.STUDENT][1] == student and answer_radio(again).value == n % 4
        bare = open_app("live")  # the bare page (the link lost): the cookie's class, as long as it runs
        assert bare.session_state[live.STUDENT][1] == student
    assert store.tally(store.connect(), store.class_by_code(store.connect(), code).id).seated == 5


def test_wrong_codes_count_across_reloads_and_in_links(monkeypatch):
    """The limit follows the browser (its cookie), not the session: a reload does not start afresh, and a link's
    guessed code counts like a typed one."""
    monkeypatch.setattr(join, "WRONG_DELAY", 0.0)
    monkeypatch.setattr(join, "BROWSERS", join.limits.Window(join.limits.BROWSER_LIMIT))
    monkeypatch.setattr(common, "cookies", lambda: {common.BROWSER_COOKIE: "browser-of-a-guesser-01"})
    guesses = ["ZZZZZ2", "ZZZZZ3", "ZZZZZ4", "ZZZZZ5", "ZZZZZ6", "ZZZZZ7"]
    for n, guess in enumerate(guesses):  # each a new session, as a reload or a new tab is
        phone = open_app("live", join=guess)
        said = all_text(phone)
        assert ("No class has this code." in said) == (n < join.limits.BROWSER_LIMIT), (n, said)
        assert ("Too many wrong codes" in said) == (n >= join.limits.BROWSER_LIMIT)
    _, code = start()
    late = open_app("live", join=code)  # even the right code waits: the limit comes before the look-up
    assert "Too many wrong codes" in all_text(late) and live.STUDENT not in late.session_state


def test_a_right_to_left_override_in_a_link_is_not_echoed():
    evil = "AB\u202eCDEF"
    phone = open_app("live", join=evil)
    notices = [w.value for w in phone.warning]
    assert notices and all("\u202e" not in n for n in notices) and any("ABCDEF" in n for n in notices)


def test_an_expired_code_leaves_the_projector_with_a_notice_and_takes_no_more_answers():
    teacher, code = start()
    opens(teacher, "concept.rows")
    phone = open_app("live", join=code)
    db = store.connect()
    with db.begin() as connection:
        connection.execute(update(store.classes).where(store.classes.c.code == code).values(expires=1.0))
    teacher.run()
    shown = all_text(teacher)
    assert f"The join code of class {code} has expired" in shown
    assert not any('<p class="live-code"' in h.proto.body or '<img class="live-qr"' in h.proto.body for h in teacher.get("html"))
    answer_radio(phone).set_value(1).run()  # the phone still shows the question: the tap is refused, with a message
    assert "Voting on this question is closed" in all_text(phone)
    phone.run()
    assert "This class's code has expired: no more answers are taken." in all_text(phone)
    assert not [r for r in phone.radio if r.key and r.key.startswith("live-answer-")]


def test_a_teacher_at_localhost_gets_the_network_address_or_a_warning(monkeypatch):
    monkeypatch.setattr("views.live.teacher.network_address", lambda: "192.168.7.20")
    teacher = open_app("live")
    teacher.context["url"] = "http://localhost:8501/live"
    teacher.button(key="live-start").click().run()
    code = teacher.session_state[live.TEACHER][0]
    shown = all_text(teacher)
    assert f"http://192.168.7.20:8501/live?join={code}" in shown and "which phones cannot reach" in shown
    monkeypatch.setattr("views.live.teacher.network_address", lambda: None)
    teacher.run()
    assert "this machine has no network address" in all_text(teacher)
    teacher.context["url"] = "http://192.168.7.20:8501/live"
    teacher.run()
    assert "phones cannot reach" not in all_text(teacher) and f"http://192.168.7.20:8501/live?join={code}" in all_text(teacher)


def test_a_nickname_longer_than_the_limit_is_cut_with_a_notice():
    _, code = start(nicknames=True)
    phone = open_app("live", join=code)
    assert phone.text_input[1].max_chars > store.MAX_NICKNAME  # a pasted name reaches the app, which cuts it and says so
    phone.text_input[1].set_value("A very long nickname pasted from somewhere")
    phone.button[0].click().run()
    assert f"You are in class {code}." in all_text(phone)
    assert "Your nickname was longer than 24 characters: it is kept as “A very long nickname pas”." in all_text(phone)


def test_ending_is_on_the_projector_too_and_the_check_table_counts_each_item():
    teacher, code = start(present="1")
    # presenter mode keeps "Ask the class" and "End the class" in a closed box, drawn only while the teacher opens it
    assert not [b for b in teacher.button if b.key in ("live-end", "live-open")] and not teacher.selectbox
    assert [e.label for e in teacher.expander] == ["Ask the class, or end it"]
    teacher.session_state["live-controls"] = True  # the teacher opens it
    teacher.run()
    assert teacher.button(key="live-end").label == "Yes, end the class" and teacher.selectbox(key="live-pick")
    screen = open_app("live")  # on the teacher's own screen both are in the page, with no box
    screen.button(key="live-start").click().run()
    assert [b for b in screen.button if b.key == "live-end"] and [b for b in screen.button if b.key == "live-open"]
    assert not screen.expander or "Ask the class, or end it" not in [e.label for e in screen.expander]
    teacher.button(key="live-check-before").click().run()
    phone = open_app("live", join=code)
    first = answer_radio(phone)
    first.set_value(1).run()
    teacher.button(key="live-check-close").click().run()
    table = next(t.value for t in teacher.table if "before" in t.value.columns)
    assert table.iloc[0]["before"] == "100 % (n = 1)" and table.iloc[1]["before"] == "– (n = 0)"


def test_the_teachers_classes_are_listed_with_their_figures_and_exported_without_students(monkeypatch):
    teacher, first = start()
    opens(teacher, "concept.rows")
    phones = [open_app("live", join=first) for _ in range(3)]
    for phone, choice in zip(phones, (1, 1, 0)):
        answer_radio(phone).set_value(choice).run()
    teacher.run()
    teacher.button(key="live-close").click().run()
    teacher.button(key="live-reveal").click().run()
    key = teacher.session_state[live.TEACHER][1]
    teacher.button(key="live-end").click().run()
    monkeypatch.setattr(common, "cookies", lambda: {common.KEY_COOKIE: key})  # the browser keeps the teacher's key
    teacher = open_app("live")
    assert not [t for t in teacher.table if "Code" in t.value.columns]  # read only when asked for
    teacher.toggle(key="live-classes").set_value(True).run()
    assert next(t.value for t in teacher.table if "Code" in t.value.columns)["Code"].tolist() == [first]
    teacher.button(key="live-start").click().run()  # the same browser: the same teacher key, so both classes are listed
    second, again = teacher.session_state[live.TEACHER]
    assert again == key and second != first
    listed = next(t.value for t in teacher.table if "Code" in t.value.columns)
    assert list(listed["Code"]) == [second, first]
    row = listed[listed["Code"] == first].iloc[0]
    assert row["Students"] == "3" and row["Round 1 right"] == "67 % (n = 3)"
    reports = [store.report(store.connect(), c.code, key) for c in store.teacher_classes(store.connect(), key)]
    text = report.classes_csv(Texts("en"), reports)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["round1_right_percent"] for r in rows if r["class"] == first] == ["66.7"]
    assert "student" not in text.splitlines()[0].replace("students", "")  # figures only: nobody identified
    assert store.teacher_classes(store.connect(), "x" * 22) == [] and store.teacher_classes(store.connect(), "<b>") == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_new_views_read_in_each_language(lang):
    teacher, code = start(rows=1, seats=2, lang=lang)
    opens(teacher, "concept.row_sum")
    phone = open_app("live", join=code, lang=lang)
    answer_radio(phone).set_value(3).run()
    teacher.run()
    teacher.button(key="live-close").click().run()
    teacher.button(key="live-discuss").click().run()
    phone.run()
    assert not phone.exception and not teacher.exception
    if lang == "zh":
        assert "你第一次的答案" in all_text(phone) and "第 2 轮" in all_text(teacher)


def test_make_run_names_the_address_phones_open(monkeypatch):
    """`make run` prints localhost first (Streamlit's line); the line before it names the address phones can open."""
    from classroom import network

    monkeypatch.setattr(network, "network_address", lambda: "10.0.0.5")
    assert network.live_class_line(["app.py", "--server.port", "8600"]) == (
        "A live class: phones open http://10.0.0.5:8600/live (http://localhost:8600 works on this machine only).")
    monkeypatch.setattr(network, "network_address", lambda: None)
    assert "phones cannot open http://localhost:8501" in network.live_class_line(["app.py"])
    assert network.is_loopback("127.0.0.1") and network.is_loopback("localhost") and network.is_loopback("::1")
    assert not network.is_loopback("192.168.1.20") and not network.is_loopback("school.example")


def teacher_opens(at, item_id: str) -> None:
    at.selectbox(key="live-pick").set_value(item_id).run()
    at.button(key="live-open").click().run()
    assert not at.exception, [e.message for e in at.exception]


def check_tables(at) -> list:
    """The concept check's table (each item before and after), if shown."""
    return [t.value for t in at.table if "before" in t.value.columns]


def bars(at) -> list[str]:
    return [element.proto.text for element in at.get("progress")]


def teacher_starts(nicknames: bool = False):
    teacher = open_app("live")
    if nicknames:
        teacher.toggle(key="live.nicknames").set_value(True).run()
    teacher.button(key="live-start").click().run()
    assert not teacher.exception
    code, _ = teacher.session_state[live.TEACHER]
    assert teacher.query_params["join"] == code and "teacher" not in teacher.query_params
    return teacher, code


def test_a_teacher_and_three_students_run_a_question_from_open_to_reveal():
    teacher, code = teacher_starts()
    text = all_text(teacher)
    assert code in text and f"/live?join={code}" in text
    assert any(code in element.proto.body and "<img" in element.proto.body and "alt=" in element.proto.body
               for element in teacher.get("html"))  # the QR code, with its text alternative and its address
    students = [open_app("live", join=code) for _ in range(3)]  # the QR code's link: in at once
    for phone in students:  # the seat is a secret of the browser (its cookie), never in the address
        assert f"You are in class {code}." in all_text(phone) and "seat" not in phone.query_params
        assert len(phone.session_state[common.SEAT]) == 16
    teacher_opens(teacher, "concept.rows")
    for phone, choice in zip(students, (1, 0, 1)):
        phone.run()
        answer_radio(phone).set_value(choice).run()
        assert "Sent:" in all_text(phone)
    answer_radio(students[1]).set_value(1).run()  # a student changes the answer while voting is open
    teacher.run()
    assert "3 of 3 answered" in all_text(teacher) and not bars(teacher)  # open: how many, not what
    teacher.button(key="live-close").click().run()
    assert "Round 1: 100 % right (3 of 3)" in all_text(teacher) and not bars(teacher)  # closed: the share, not yet the answers
    assert "Over 70 % right: most have it." in all_text(teacher)
    late = students[2]
    late.run()
    assert "Voting is closed" in all_text(late)
    teacher.button(key="live-reveal").click().run()
    assert bars(teacher)[1].startswith("B. One query") and ": 3 (100%)" in bars(teacher)[1]
    assert "✓" in bars(teacher)[1] and "The answer: B." in all_text(teacher)
    for phone in students:
        phone.run()
        shown = all_text(phone)
        assert "You answered: B." in shown and "The answer: B." in shown and "Rows are queries" in shown
        assert "3 (100%)" not in shown  # a student sees their own answer and the truth, never the room's


def test_an_answer_sent_after_the_close_is_refused_with_a_message():
    teacher, code = teacher_starts()
    teacher_opens(teacher, "concept.cosine")
    phone = open_app("live", join=code)
    assert answer_radio(phone)  # the phone shows the open question
    teacher.button(key="live-close").click().run()
    answer_radio(phone).set_value(0).run()  # the phone had not polled yet: the tap reaches a closed question
    assert "Voting on this question is closed: your answer was not counted." in all_text(phone)
    teacher.run()
    assert "0 of 1 answered" in all_text(teacher) and "Round 1: no answers" in all_text(teacher)
    teacher.button(key="live-reveal").click().run()
    assert ": 0 (0%)" in bars(teacher)[0]


def test_the_teacher_link_resumes_the_class_elsewhere_and_leaves_the_address_bar():
    teacher, code = teacher_starts()
    teacher_opens(teacher, "concept.rows")
    link = next(element.value for element in teacher.code if "teacher=" in element.value)
    key = link.partition("teacher=")[2]
    elsewhere = open_app("live", join=code, teacher=key)
    assert "teacher" not in elsewhere.query_params and elsewhere.session_state[live.TEACHER] == (code, key)
    assert "0 of 0 answered" in all_text(elsewhere)
    elsewhere.button(key="live-close").click().run()
    teacher.run()
    assert "Voting is closed" in all_text(teacher)
    forged = open_app("live", join=code, teacher="not-the-key")
    assert f"This teacher link does not open class {code}" in all_text(forged) and live.TEACHER not in forged.session_state


@pytest.mark.parametrize("nicknames", [False, True])
def test_a_wrong_or_stale_teacher_link_seats_nobody_and_says_what_to_do(nicknames, monkeypatch):
    """A teacher link with a wrong key (cut short, or an old class's) in a class with or without nicknames: the teacher
    is not seated as a student (every "k of N answered" would be off by one), the refusal and what to do stay on screen
    over reruns, no join form or nickname box is offered, and the code leaves the address with the key (a reload must
    not join either). Leaving the message gives the page's start; a browser that teaches the class (its cookie) stays
    its teacher."""
    teacher, code = teacher_starts(nicknames=nicknames)
    teacher_opens(teacher, "concept.rows")
    key = teacher.session_state[live.TEACHER][1]
    stale, _ = store.start_class(store.connect())  # an older class's key: valid, but not this class's
    for wrong in ("not-the-key", key[:-3], "x" * 80, stale):
        forged = open_app("live", join=code, teacher=wrong)
        for _ in range(3):  # the refusal stays over reruns (a nickname class's join form reran it away)
            shown = all_text(forged)
            assert f"This teacher link does not open class {code}" in shown and "Teacher link (keep it private)" in shown
            assert live.STUDENT not in forged.session_state and live.TEACHER not in forged.session_state
            assert not forged.text_input and not answer_radios(forged) and "You are in class" not in shown
            assert "join" not in forged.query_params or not forged.query_params["join"]
            assert "teacher" not in forged.query_params
            forged.run()
    teacher.run()
    assert store.tally(store.connect(), store.class_by_code(store.connect(), code).id).seated == 0
    assert "0 of 0 answered" in all_text(teacher) and "Students in the class: 0" in all_text(teacher)
    forged.button(key="live-leave-link").click().run()  # the page's start: a class of one's own, or joining
    assert "does not open class" not in all_text(forged) and [b for b in forged.button if b.key == "live-start"]
    garbled = open_app("live", join="<b>", teacher="x")  # no class named at all: said so, nothing echoed
    assert "This teacher link does not open any class" in all_text(garbled) and "<b>" not in all_text(garbled)
    monkeypatch.setattr(questions, "cookies", lambda: {common.COOKIE: f"{code}.{key}"})  # the teacher's own browser
    kept = open_app("live", join=code, teacher="not-the-key")
    assert kept.session_state[live.TEACHER] == (code, key) and "this browser started the class" in all_text(kept)
    assert "0 of 0 answered" in all_text(kept)


def test_a_link_with_a_wrong_code_says_so_before_anything_is_typed():
    phone = open_app("live", join="ZZZZZZ")
    assert "No class has this code." in all_text(phone) and live.STUDENT not in phone.session_state
    assert not [b for b in phone.button if b.key == "live-start"]  # a phone from a link is not offered a class of its own


def test_a_wrong_code_is_answered_slowly_and_then_paused(monkeypatch):
    monkeypatch.setattr(join, "WRONG_DELAY", 0.05)
    phone = open_app("live")
    for n in range(limits.BROWSER_LIMIT + 1):
        phone.text_input[0].set_value("ZZZZZ2" if n % 2 else "not a code").run()
        began = time.monotonic()
        phone.button[0].click().run()
        if n < limits.BROWSER_LIMIT:
            assert "No class has this code." in all_text(phone) and time.monotonic() - began >= 0.05
    assert "Too many wrong codes" in all_text(phone)


def test_an_expired_code_and_a_tampered_link_get_a_message_not_a_traceback():
    db = store.connect()
    code, _ = store.start_class(db, hours=-1)
    phone = open_app("live", join=code)
    phone.button[0].click().run()
    assert "This class's code has expired." in all_text(phone)
    for linked in ("<script>alert(1)</script>", "0OI1l0", "A" * 5000):
        tampered = open_app("live", join=linked, seat="'; DROP TABLE answers; --")
        assert "Join a class" in all_text(tampered) and tampered.warning
        assert all("is not understood and is left out" in w.value for w in tampered.warning), [w.value for w in tampered.warning]


def test_a_nickname_is_asked_only_when_the_teacher_wants_one():
    teacher, code = teacher_starts(nicknames=True)
    phone = open_app("live", join=code)
    assert [box.label for box in phone.text_input] == ["Code from the board", "Nickname"]
    assert "This class asks for a nickname: type one below, then press Join." in all_text(phone)  # why the box is there
    phone.button[0].click().run()
    assert "Type a nickname to join this class." in all_text(phone)
    phone.text_input[1].set_value("<b>Ada</b>")
    phone.button[0].click().run()
    assert f"You are in class {code}." in all_text(phone)
    rows = report.export_csv(store.check_teacher(store.connect(), code, teacher.session_state[live.TEACHER][1]),
                             teacher.session_state[live.TEACHER][1], Texts("en"))
    assert rows.splitlines()[0] == "class,question,item,question_text,phase,round,student,answer,answer_text,correct,time,nickname"
    typed = open_app("live")  # the code typed by hand: the nickname box appears, then the student is in
    typed.text_input[0].set_value(code.lower())
    assert "asks for a nickname" not in all_text(typed)
    typed.button[0].click().run()  # the first Join: the box appears, and says why
    assert [box.label for box in typed.text_input] == ["Code from the board", "Nickname"]
    assert "This class asks for a nickname: type one below, then press Join." in all_text(typed)
    typed.text_input[1].set_value("=1+1")
    typed.button[0].click().run()
    assert f"You are in class {code}." in all_text(typed)
    question = store.open_question(store.connect(), code, teacher.session_state[live.TEACHER][1], "concept.rows", 4, 1)
    store.answer(store.connect(), question, typed.session_state[live.STUDENT][1], 1)
    exported = report.export_csv(store.check_teacher(store.connect(), code, teacher.session_state[live.TEACHER][1]),
                               teacher.session_state[live.TEACHER][1], Texts("zh"))
    assert exported.splitlines()[1].endswith(",'=1+1")  # never a formula in a spreadsheet
    row = next(csv.DictReader(io.StringIO(exported)))  # the question and the answer as the teacher reads them
    asked, options, _ = common.wording(Texts("zh"), store.open_questions(store.connect(), store.class_by_code(store.connect(), code).id)[0])
    said = lambda name: Texts("zh")(f"live.csv.{name}")  # the headers in the teacher's language
    assert row[said("question_text")] == asked and row[said("answer_text")] == options[1] and row[said("answer")] == "2"
    assert exported.splitlines()[0].startswith("课堂,题目编号,")
    anonymous, other = teacher_starts()
    assert "nickname" not in report.export_csv(store.check_teacher(store.connect(), other, anonymous.session_state[live.TEACHER][1]),
                                             anonymous.session_state[live.TEACHER][1], Texts("en"))


def test_a_concept_check_before_and_after_gives_each_items_scores_and_the_gain():
    teacher, code = teacher_starts()
    phones = [open_app("live", join=code) for _ in range(2)]
    correct = dict(common.CONCEPT)

    def take(phase: str, right: list[int]) -> None:
        teacher.button(key=f"live-check-{phase}").click().run()
        for phone, rights in zip(phones, right):
            phone.run()
            for n, name in enumerate(correct):
                radio = next(r for r in phone.radio if r.key and r.key.startswith("live-answer-") and
                             store.question_state(store.connect(), int(r.key.split("-")[2])).item == f"concept.{name}")
                radio.set_value(correct[name] if n < rights else (correct[name] + 1) % 4).run()
            assert "Done: 11 of 11 answered." in all_text(phone)
            assert "Why:" not in all_text(phone)  # no explanation while an answer can still change
        teacher.run()
        assert "2 of 2 students finished; 22 answers" in all_text(teacher)
        if phase == "before":  # open: how many, never how well (the first answers would sway the rest)
            assert "appear when it is closed" in all_text(teacher) and not check_tables(teacher)
        teacher.button(key="live-check-close").click().run()
        assert f"{phase}: 2 students answered" in all_text(teacher)
        for phone in phones:  # the check closed: the lesson's explanations come now, and only after the lesson
            phone.run()
            assert ("Why:" in all_text(phone)) == (phase == "after")

    take("before", [2, 4])  # 6 of 22 right: 27 %
    take("after", [8, 10])  # 18 of 22 right: 82 %
    pre, post = 100 * 6 / 22, 100 * 18 / 22
    assert f"= {(post - pre) / (100 - pre):.2f}" in all_text(teacher)
    table = check_tables(teacher)[0]
    assert list(table.iloc[0, 1:3]) == ["100 % (n = 2)", "100 % (n = 2)"] and list(table.iloc[9, 1:3]) == ["0 % (n = 2)", "50 % (n = 2)"]


def test_the_walkthroughs_question_is_computed_from_the_sentence():
    teacher, _ = teacher_starts()
    teacher.session_state["shared.text"] = "the cat sat on the mat"
    teacher.session_state["walkthrough.focus"] = 2
    teacher.run()
    from attention_core import explain

    weights = explain("the cat sat on the mat", d_model=8, d_k=4, heads=1, score="scaled_dot", mode="soft", window=2, positions=True,
                      seed=0, max_tokens=48).trace.heads[0].weights[1]
    teacher_opens(teacher, "walk.random-1.1")
    teacher.button(key="live-close").click().run()
    teacher.button(key="live-reveal").click().run()
    assert f"The answer: {'ABCDEF'[int(weights.argmax())]}. {int(weights.argmax()) + 1} · " in all_text(teacher)
    assert "Which key does “cat” give the most weight?" in all_text(teacher)
    assert "On the walkthrough's random weights (seeded), head 1." in all_text(teacher)  # which weights the room guesses


def test_the_live_page_is_chinese_in_chinese():
    teacher = open_app("live", lang="zh")
    teacher.button(key="live-start").click().run()
    text = all_text(teacher)
    assert "加入码" in text and "向全班提问" in text
    code = teacher.session_state[live.TEACHER][0]
    assert f"/live?join={code}&amp;lang=zh" in "".join(h.proto.body for h in teacher.get("html"))  # the QR's link joins in Chinese
    phone = open_app("live", join=code, lang="zh")
    assert f"你已加入课堂 {code}。" in all_text(phone)


def test_a_lesson_stop_and_the_focused_word_are_asked_from_their_own_pages():
    """A teacher with a live class asks a lesson stop's question from the lesson page and the focused word's from the
    walkthrough (its own head's row); a student's phone shows each; without a class, no button."""
    assert not [b for b in open_app("lesson").button if b.key and b.key.endswith(".live")]
    teacher, code = teacher_starts()
    phone = open_app("live", join=code)
    teacher.switch_page(str(ROOT / "pages" / "lesson.py")).run()
    assert not teacher.exception, [e.message for e in teacher.exception]
    teacher.button(key="lesson.why_qkv.live").click().run()
    phone.run()
    assert "Lesson stop 3: Why three matrices, Q, K and V?" in all_text(phone)
    teacher.switch_page(str(ROOT / "pages" / "walkthrough.py")).run()
    from conftest import payload  # the step component shows the teacher "Ask the class" (its click: tests/test_browser_app.py)

    assert payload(teacher)[0]["ask"] is True and payload(teacher)[0]["teaching"] is True
    teacher.switch_page(str(ROOT / "pages" / "live.py")).run()  # the walkthrough's focused word, as it last showed it
    teacher_opens(teacher, "walk.random-1.0")
    phone.run()
    assert "Which key does “Thinking” give the most weight?" in all_text(phone)
    assert [o.partition(". ")[2] for o in answer_radio(phone).options] == ["1 · Thinking", "2 · Machines"]


def test_a_second_question_says_it_closes_the_open_one_and_ending_asks_first():
    teacher, code = teacher_starts()
    teacher_opens(teacher, "concept.rows")
    teacher.selectbox(key="live-pick").set_value("concept.cosine").run()
    assert "Still open: “In a matrix of attention weights, what is one row?”" in all_text(teacher)
    assert teacher.button(key="live-open").label == "Close it and open this question"
    teacher.button(key="live-open").click().run()
    questions = store.open_questions(store.connect(), store.class_by_code(store.connect(), code).id)
    assert [(q.item, q.state) for q in questions] == [("concept.rows", "closed"), ("concept.cosine", "open")]
    phone = open_app("live", join=code)
    assert teacher.button(key="live-end").label == "Yes, end the class"  # inside "End the class": one more click
    teacher.button(key="live-end").click().run()
    shown = all_text(teacher)
    assert f"Class {code} has ended" in shown and not any('class="live-code"' in h.proto.body for h in teacher.get("html"))
    phone.run()
    assert "This class has ended." in all_text(phone) and not [r for r in phone.radio if r.key and r.key.startswith("live-answer-")]


def test_the_real_models_head_is_asked_from_its_page():
    """A teacher with a live class asks “which key does this word give the most weight?” on the real model's head."""
    teacher, code = teacher_starts()
    teacher.switch_page(str(ROOT / "pages" / "real.py"))
    teacher.query_params.update({"text": "the cat sat", "layer": "1", "head": "3", "query": "3"})
    teacher.run()
    teacher.button(key="real-live").click().run()
    questions = store.open_questions(store.connect(), store.class_by_code(store.connect(), code).id)
    assert len(questions) == 1 and questions[0].state == "open" and "3 · cat" in questions[0].labels


def test_the_live_list_asks_what_the_walkthrough_last_showed():
    """After the walkthrough switched to the article's example, the live page's focused-word question is that
    example's (Thinking, Machines; 112 and 96 → Thinking), not the random weights of the sidebar's sentence."""
    teacher, _ = teacher_starts()
    teacher.switch_page(str(ROOT / "pages" / "walkthrough.py")).run()
    teacher.session_state["walkthrough.walk"] = "textbook"
    teacher.run()
    assert not teacher.exception, [e.message for e in teacher.exception]
    teacher.switch_page(str(ROOT / "pages" / "live.py")).run()
    teacher_opens(teacher, "walk.textbook.0")
    teacher.button(key="live-close").click().run()
    teacher.button(key="live-reveal").click().run()
    assert "Which key does “Thinking” give the most weight?" in all_text(teacher) and "The answer: A. 1 · Thinking." in all_text(teacher)
    assert "On the article's example, “Thinking Machines”" in all_text(teacher)


def test_a_concept_check_closes_an_open_question_and_says_so_first():
    teacher, code = teacher_starts()
    teacher_opens(teacher, "concept.rows")
    assert "Opening the check closes it first" in all_text(teacher)
    teacher.button(key="live-check-before").click().run()
    questions = store.open_questions(store.connect(), store.class_by_code(store.connect(), code).id)
    assert ("concept.rows", "closed") in [(q.item, q.state) for q in questions if not q.phase]
    assert all(q.state == "open" for q in questions if q.phase == "before")


def test_a_phone_reads_a_students_introduction_and_after_the_end_no_call_to_wait():
    teacher, code = teacher_starts()
    teacher_opens(teacher, "concept.rows")
    teacher.button(key="live-close").click().run()
    phone = open_app("live", join=code)
    assert "Answer your teacher's questions here." in all_text(phone) and "the projector shows" not in all_text(phone)
    teacher.button(key="live-end").click().run()
    phone.run()
    shown = all_text(phone)
    assert "This class has ended." in shown and "You are in class" not in shown
    assert "Wait for the answer" not in shown and "Waiting for the teacher" not in shown and "class has ended before" in shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_teacher_reads_each_questions_statistics_over_six_classes(monkeypatch, lang):
    """The 6-class history (scripts/class_history.py): with the classes listed, each question's facility,
    discrimination and option shares in a table with a sentence each, the question the room keeps getting wrong flagged
    above, a chart with its text alternative, and the CSV (tests/test_core_history.py checks the numbers by hand)."""
    from scripts.class_history import make_history
    from views.live import history
    from views.live.history import in_classes

    key = make_history(store.connect())
    monkeypatch.setattr(common, "cookies", lambda: {common.KEY_COOKIE: key})
    teacher = open_app("live", lang=lang)
    assert not any("statistics" in str(b.label) or "统计" in str(b.label) for b in teacher.get("download_button"))  # only when asked
    teacher.toggle(key="live-classes").set_value(True).run()
    assert not teacher.exception, [e.message for e in teacher.exception]
    T = Texts(lang)
    table = next(t.value for t in teacher.table if T("history.panel.says") in t.value.columns)
    assert list(table[T("history.panel.number")]) == ["Q1", "Q2", f"{T('history.panel.flag_mark')} Q3", "Q4", "Q5"]
    assert list(table[T("history.panel.facility")]) == ["97 %", "50 %", "20 %", "67 %", "50 %"]
    assert list(table[T("history.panel.discrimination")]) == ["0.10", "0.60", "0.30", "0.50", "−0.40"]
    assert list(table[T("history.panel.facility_second")]) == ["–", "80 %", "33 %", "–", "–"]
    says = [text.replace("\\", "") for text in table[T("history.panel.says")]]  # the cells are markdown, escaped
    if lang == "en":
        assert says[0] == "Too easy: 97 % right in round 1 — skip the discussion."
        assert "Distractor “D. (−∞, ∞)” chosen by nobody in 6 classes" in says[1]
        assert says[2].startswith("Still wrong after discussion in 4 of 4 classes")
        assert "The weaker third did better than the stronger (discrimination −0.40)" in says[4]
        assert table[T("history.panel.options")][1].replace("\\", "") == "A ✓: 50 % · B: 33 % · C: 17 % · D: 0 %"
    else:
        assert says[0] == "太容易：第 1 轮有 97 % 答对 —— 可以跳过讨论。" and "在 6 个班级里没有人选" in says[1]
    flags = [str(w.value).replace("\\", "") for w in teacher.warning if str(w.value).startswith("Q")]
    assert len(flags) == 1 and flags[0].startswith("Q3") and T("history.findings.stuck", stuck=4, classes=in_classes(T, 4)) in flags[0]
    chart = next(c for c in teacher.get("plotly_chart") if json.loads(c.proto.spec)["layout"]["title"]["text"] == T("history.panel.chart_title"))
    spec = json.loads(chart.proto.spec)
    assert [t["text"] for t in spec["data"]] == [["Q1", "Q2", "Q4", "Q5"], ["Q3"]]  # the flagged one drawn apart (a diamond)
    assert T("history.panel.alt_flag") in chart.proto.alt and "Q3" in chart.proto.alt
    kept = history.history.read(store.connect(), key)
    asked, scores = history.history.asked_of(kept)
    text = history.csv_text(T, history.history.statistics(asked, scores), history.names(T, kept))
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][0] == T("history.csv.number") and len(rows) == 1 + 3 + 4 + 4 + 4 + 3  # a row per question and option
    unchosen = next(r for r in rows[1:] if r[1] == "concept.cosine" and r[14] == "D")
    assert unchosen[17:21] == ["0", "0.0", "6", "6"]  # chosen, share %, classes offered, classes where nobody chose it


# --- The projector before the reveal: nothing that names the answer, whatever the teacher does ---

VOTES = {1: (1, 0, 2, 1, 0, 1), 2: (1, 1, 2, 1, 0, 1)}  # six students: B, A, C, B, A, B, then B, B, C, B, A, B


def received(at) -> str:
    """Everything the page sent its browser in the last run, decoded: every element's and block's message, as a
    websocket frame carries it (hidden or not, a tooltip, a button's kind), the sidebar's too."""
    return "\n".join(node.proto.SerializeToString().decode("utf-8", "replace") for node in at._tree
                     if getattr(node, "proto", None) is not None)


def naming_the_answer(T: Texts, question: store.Question, tally: store.Tally) -> list[str]:
    """What would let the room find the answer of ``question``: each round's share right with its count (the one the
    projector says after the reveal), any share right, the advice (its band is the share), the truth, the mark, the
    explanation."""
    from views.live.projector import right_line

    _, options, explanation = common.wording(T, question)
    found = ["% right (", "✓", T("live.student.truth", option=common.option_name(options, question.correct)),
             T("live.teacher.advice_private"), *(T(f"live.teacher.advice.{said}") for said in ("discuss", "explain", "move_on", "none"))]
    for round_ in (1, 2):
        counts = tally.of(question, round_)
        if sum(counts):
            found.append(right_line(T, question, counts, round_))
    if explanation:
        found.append(explanation[:40])
    return found


class PresenterModeNeverNamesTheAnswer(RuleBasedStateMachine):
    """A teacher drives a question from the projector itself (presenter mode: asking and ending in a closed box) through
    any sequence of its controls: the answers shown as they arrive or not, six students voting in parts, voting
    closed, the first vote's answers shown and hidden again, discussing, voting again, revealing (also while voting is
    open), one more like it, another question asked instead. Before each reveal nothing the projector receives names the
    answer; after it the share right and the truth are there (so the search can find them)."""

    def __init__(self) -> None:
        super().__init__()
        self.db = store.connect()
        self.code, self.key = store.start_class(self.db)
        self.students = [store.join(self.db, self.code, store.new_seat())[1] for _ in range(6)]
        self.at = open_app("live", join=self.code, teacher=self.key, present="1")
        self.T = Texts("en")

    def question(self) -> store.Question | None:
        asked = [q for q in store.open_questions(self.db, store.class_by_code(self.db, self.code, joining=False).id) if not q.phase]
        return asked[-1] if asked else None

    def click(self, key: str) -> None:
        self.at.button(key=key).click().run()
        assert not self.at.exception, [e.message for e in self.at.exception]

    @initialize(item=hyp.sampled_from(["concept.rows", "concept.cosine", "concept.causal"]), live=hyp.booleans())
    def ask(self, item: str, live: bool) -> None:
        """From the closed box of asking and ending: the room sees neither until the teacher opens it."""
        assert not [b for b in self.at.button if b.key in ("live-open", "live-end")]
        self.at.session_state["live-controls"] = True
        self.at.run()
        self.at.toggle(key="live-live").set_value(live).run()
        self.at.selectbox(key="live-pick").set_value(item).run()
        self.click("live-open")
        assert self.at.session_state["live-controls"] is False  # closed again once the question is open

    @rule(item=hyp.sampled_from(["concept.rows", "concept.cosine", "concept.causal"]), live=hyp.booleans())
    def ask_another(self, item: str, live: bool) -> None:
        self.ask(item, live)

    @precondition(lambda self: self.question().state == "open")
    @rule(voters=hyp.integers(1, 6))
    def vote(self, voters: int) -> None:
        question = self.question()
        for student, choice in list(zip(self.students, VOTES[question.round]))[:voters]:
            store.answer(self.db, question.id, student, choice % question.options, round=question.round)
        self.at.run()

    @precondition(lambda self: self.question().state == "open")
    @rule()
    def close(self) -> None:
        self.click("live-close")

    @precondition(lambda self: self.question().state == "open")
    @rule()
    def reveal_while_open(self) -> None:
        self.click("live-reveal-open")

    @precondition(lambda self: (q := self.question()).state == "closed" and q.round == 1 and q.follows is None)
    @rule(show=hyp.booleans())
    def show_first(self, show: bool) -> None:
        self.at.toggle(key=f"live-show-first-{self.question().id}").set_value(show).run()

    @precondition(lambda self: (q := self.question()).state == "closed" and q.round == 1 and q.follows is None)
    @rule()
    def discuss(self) -> None:
        self.click("live-discuss")

    @precondition(lambda self: self.question().state == "closed")
    @rule()
    def reveal(self) -> None:
        self.click("live-reveal")

    @precondition(lambda self: (q := self.question()).state == "revealed" and generators.similar_kind(q.item) is not None)
    @rule()
    def one_more_like_it(self) -> None:
        self.click("live-similar")

    @rule()
    def poll(self) -> None:
        self.at.run()

    @invariant()
    def nothing_names_the_answer_before_the_reveal(self) -> None:
        question = self.question()
        if question is None:
            return
        tally = store.tally(self.db, store.class_by_code(self.db, self.code, joining=False).id)
        sent, needles = received(self.at), naming_the_answer(self.T, question, tally)
        if question.state == "revealed":
            said = self.T("live.student.truth", option=common.option_name(common.wording(self.T, question)[1], question.correct))
            assert said in sent  # the search finds what is there
        else:
            assert not [n for n in needles if n in sent], (question, [n for n in needles if n in sent])
        discuss = [b for b in self.at.button if b.key == "live-discuss"]
        assert not discuss or discuss[0].proto.type == "primary"  # the same whatever the share: it says nothing


TestPresenterModeNeverNamesTheAnswer = PresenterModeNeverNamesTheAnswer.TestCase
TestPresenterModeNeverNamesTheAnswer.settings = settings(max_examples=12, stateful_step_count=10, deadline=None,
                                                         suppress_health_check=[HealthCheck.too_slow])


def test_a_phone_reloaded_after_the_end_keeps_every_revealed_answer_and_why(monkeypatch):
    """Two questions revealed and a third closed unrevealed, then the class ends: the phone, and the same phone
    reloaded (a new session with its seat's cookie, on the class's page), shows every question with its answers, the
    truth and why; the unrevealed one says the class ended first. The bare page a day later is a join form."""
    teacher, code = teacher_starts()
    phone = open_app("live", join=code)
    for item, choice in (("concept.rows", 1), ("concept.cosine", 2), ("concept.causal", 2)):
        teacher_opens(teacher, item)
        phone.run()
        answer_radio(phone).set_value(choice).run()
        teacher.run()
        teacher.button(key="live-close").click().run()
        if item != "concept.causal":
            teacher.button(key="live-reveal").click().run()
    teacher.button(key="live-end").click().run()
    seat = phone.session_state[common.SEAT]
    monkeypatch.setattr(common, "cookies", lambda: {common.SEAT_COOKIE: f"{code}.{seat}"})
    reloaded = open_app("live", join=code)
    asked = "".join(h.proto.body for h in reloaded.get("html"))  # the run that asks for the seat's cookie
    for shown in (phone, reloaded):  # as it was, and reloaded
        shown.run()
        said = all_text(shown)
        assert "This class has ended." in said and not answer_radios(shown)
        assert "You answered: B." in said and "The answer: B." in said and "Rows are queries" in said
        assert "You answered: C." in said and "The answer: A." in said and "cos θ = q·k" in said
        assert "Voting closed, and the class has ended before the answer was shown." in said
        assert said.count("**Why:**") == 2
    # the seat's cookie is kept after the end (never forgotten, age 0), its value never in the page: a ticket stands for it
    tickets = re.findall(r'data-remember="([^"]+)"', asked)
    kept = [found for found in map(shell_cookies.redeem, tickets) if found and found.name == common.SEAT_COOKIE]
    assert kept and kept[0].value == f"{code}.{seat}" and kept[0].age > 0, kept
    assert seat not in asked
    bare = open_app("live")  # an ended class is not where the bare page takes the browser: it joins afresh
    assert live.STUDENT not in bare.session_state and "Join a class" in all_text(bare)


def test_the_answers_csv_and_the_class_list_give_times_in_the_teachers_zone():
    """The answers' CSV and the class list (and its CSV) give each time in the teacher's browser's time zone, the
    offset in each CSV time and the zone in the list's header; UTC when the browser gives none."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    def classes(at):
        return next(t.value for t in at.table if "Code" in t.value.columns)

    teacher = open_app("live")
    teacher.context["timezone"] = "Asia/Shanghai"  # UTC+8, no summer time
    teacher.run()
    teacher.button(key="live-start").click().run()
    code, key = teacher.session_state[live.TEACHER]
    teacher_opens(teacher, "concept.rows")
    phone = open_app("live", join=code)
    answer_radio(phone).set_value(1).run()
    found, shanghai = store.check_teacher(store.connect(), code, key), ZoneInfo("Asia/Shanghai")
    row = next(csv.DictReader(io.StringIO(report.export_csv(found, key, Texts("en"), shanghai))))
    assert row["time"].endswith("+08:00") and abs(datetime.fromisoformat(row["time"]).timestamp() - time.time()) < 120
    started = datetime.fromtimestamp(found.created, shanghai)
    teacher.toggle(key="live-classes").set_value(True).run()
    listed = classes(teacher)
    assert listed.columns[0] == "Started (Asia/Shanghai)" and listed.iloc[0, 0] == started.strftime("%Y-%m-%d %H:%M")
    assert row["time"][:16].replace("T", " ") >= listed.iloc[0, 0]  # one clock: answered after the start, as both read
    figures = report.classes_csv(Texts("en"), [store.report(store.connect(), code, key)], shanghai)
    assert next(csv.DictReader(io.StringIO(figures)))["date"] == started.isoformat(timespec="minutes")
    teacher.context["timezone"] = "Not/A_Zone"  # a zone this server does not know: its offset, else UTC
    teacher.context["timezone_offset"] = -120
    teacher.run()
    assert classes(teacher).columns[0] == "Started (UTC+02:00)"
    teacher.context = {}
    teacher.run()
    assert classes(teacher).columns[0] == "Started (UTC)"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_drawn_questions_words_are_named_in_words_not_as_a_product(lang):
    """"the query of 6 · flowers" read as a product: inside a sentence a word is “flowers” (word 6); the options and
    tables keep their short labels."""
    T = Texts(lang)
    for kind in ("most_weight", "scale", "causal"):
        for seed in range(20):
            words = generators.wording(T, generators.draw(kind, seed))
            assert " · " not in words.question.replace("q · k", "") and " · " not in words.explanation.replace("q · k", "")
            assert ("(word " in words.question) if lang == "en" else ("个词）" in words.question)
