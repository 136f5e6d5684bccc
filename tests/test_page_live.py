"""The live class through the app (AppTest), several sessions at once: vote → discuss → vote again → reveal → one more
like it; the seat map and whom to turn to; and each finding of the teacher's and the sysadmin's run, replayed."""

from __future__ import annotations

import csv
import io

import pytest
from conftest import all_text as page_text
from conftest import open_app
from sqlalchemy import update

from attention_plot.text import Texts
from classroom import generators, store
from classroom.pairing import Voter, pair
from views import live
from views.live import common, join, report


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
    assert teacher.button(key="live-end").label == "Yes, end the class"  # presenter mode keeps "End the class"
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
