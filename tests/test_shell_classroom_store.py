"""The live class's store (classroom/store.py) on a real SQLite file and a local PostgreSQL: codes, keys, one answer per
student, refusals, a restart, two rounds and the seat map, migrations and privacy. (The flows through the app, several
sessions at once: test_page_live.py.)"""

from __future__ import annotations

import hashlib
import re
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from classroom import store
from classroom.pairing import Voter, pair


@pytest.fixture(scope="module")
def cluster():
    """One local PostgreSQL for the module (Debian's package, a scratch folder, a free port), stopped after."""
    from scripts.postgres import postgres

    with postgres(durable=False) as running:
        yield running


@pytest.fixture(params=["sqlite", "postgresql"])
def databases(request, tmp_path_factory):
    """A function making a new empty database of the backend: an SQLite file, or a new database in the local cluster."""
    made = []

    def new():
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path_factory.mktemp('class')}/class.sqlite3"
        else:
            from scripts.postgres import new_database

            url = new_database(request.getfixturevalue("cluster"), f"class_{len(made)}_{time.monotonic_ns()}")
        made.append(url)
        return store.connect(url)

    yield new
    for url in made:
        store._engines.pop(url).dispose()


@pytest.fixture
def db(databases):
    return databases()


# --- The store ---


def test_a_join_code_has_six_characters_and_no_look_alikes():
    assert not set("0O1Il") & set(store.ALPHABET)
    codes = {store.new_code() for _ in range(2000)}
    assert all(len(code) == 6 and set(code) <= set(store.ALPHABET) for code in codes)
    assert len(codes) > 1990  # 32**6 codes: draws rarely repeat
    assert store.normal_code(" ab-c 234 ") == "ABC234"
    for typed in ("ABC23", "ABC2345", "ABC0O1", "ABCI23", "", None, "<script>"):
        assert store.normal_code(typed) is None


def test_the_teacher_key_has_128_bits_and_only_its_hash_is_kept(db):
    code, key = store.start_class(db)
    assert len(key) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", key)  # token_urlsafe(16): 128 random bits
    with db.connect() as connection:
        row = connection.execute(select(store.classes)).one()
    assert key not in [str(value) for value in row]
    assert row.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert store.check_teacher(db, code.lower(), key).code == code


def test_only_the_teacher_key_opens_closes_reveals_ends_and_exports(db):
    code, key = store.start_class(db)
    other_code, other_key = store.start_class(db)
    question = store.open_question(db, code, key, "concept.rows", 4, 1)
    for wrong in ("", "x" * 22, other_key, key + "x", "k" * 5000):
        with pytest.raises(store.Refused, match="wrong_key"):
            store.open_question(db, code, wrong, "concept.rows", 4, 1)
        for action in (store.close_question, store.reveal_question):
            with pytest.raises(store.Refused, match="wrong_key"):
                action(db, code, wrong, question)
        with pytest.raises(store.Refused, match="wrong_key"):
            store.export_rows(db, code, wrong)
        with pytest.raises(store.Refused, match="wrong_key"):
            store.end_class(db, code, wrong)
    with pytest.raises(store.Refused, match="no_question"):  # another class's teacher cannot touch this question
        store.close_question(db, other_code, other_key, question)
    assert store.question_state(db, question).state == "open"


def test_every_field_is_validated_and_bounded(db):
    code, key = store.start_class(db)
    for item, options, correct, labels in (("x" * 81, 4, 0, ()), ("", 4, 0, ()), ("concept.rows", 1, 0, ()),
                                           ("concept.rows", 65, 0, ()), ("concept.rows", 4, 4, ()), ("walk.focus.0", 3, 0, ("a", "b"))):
        with pytest.raises(store.Refused):
            store.open_question(db, code, key, item, options, correct, labels)
    question = store.open_question(db, code, key, "walk.focus.0", 2, 1, ("1 · " + "a" * 500, "2 · <b>x</b>"))
    assert [len(label) for label in store.question_state(db, question).labels] == [80, 12]
    _, student = store.join(db, code, store.new_seat())
    for choice in (-1, 2, 64, 10**9, "1", 1.0, True, None):
        with pytest.raises(store.Refused):
            store.answer(db, question, student, choice)
    for seat in ("", "short", "x" * 33, "a b c d e f g h i j k", "<script>alert(1)</script>"):
        with pytest.raises(store.Refused, match="bad_seat"):
            store.join(db, code, seat)
    assert store.clean_nickname("  <b>Ada</b>\n\x00 Lovelace " + "x" * 50) == "<b>Ada</b> Lovelace xxxxx"[:24]
    assert store.clean_nickname(" \t ") is None


def test_a_code_expires_and_an_ended_class_takes_no_one(db):
    code, key = store.start_class(db, hours=3, now=1000.0)
    store.join(db, code, store.new_seat(), now=1000.0 + 3 * 3600 - 1)
    with pytest.raises(store.Refused, match="expired"):
        store.join(db, code, store.new_seat(), now=1000.0 + 3 * 3600 + 1)
    assert store.check_teacher(db, code, key).code == code  # the teacher may still export
    other, other_key = store.start_class(db)
    question = store.open_question(db, other, other_key, "concept.rows", 4, 1)
    _, student = store.join(db, other, store.new_seat())
    store.end_class(db, other, other_key)
    with pytest.raises(store.Refused, match="ended"):
        store.join(db, other, store.new_seat())
    with pytest.raises(store.Refused, match="closed"):
        store.answer(db, question, student, 0)
    with pytest.raises(store.Refused, match="wrong_code"):
        store.join(db, "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY", store.new_seat())


def test_a_student_answers_only_questions_of_their_own_class(db):
    code, key = store.start_class(db)
    other, _ = store.start_class(db)
    mine = store.open_question(db, code, key, "concept.rows", 4, 1)
    _, stranger = store.join(db, other, store.new_seat())
    with pytest.raises(store.Refused, match="closed"):
        store.answer(db, mine, stranger, 1)
    assert store.tally(db, store.class_by_code(db, code).id).counts == {}


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.booleans()), min_size=1, max_size=40),
       st.integers(0, 40))
def test_one_answer_per_student_per_question_whatever_the_taps(databases, taps, close_after):
    """Taps (student, choice, tapped twice) before and after the teacher closes: the tally holds each student's last
    answer before the close, once; every tap after it is refused and changes nothing."""
    db = databases()
    code, key = store.start_class(db)
    question = store.open_question(db, code, key, "concept.rows", 4, 1)
    found, _ = store.join(db, code, store.new_seat())
    seats = [store.join(db, code, store.new_seat())[1] for _ in range(5)]
    last: dict[int, int] = {}
    for n, (who, choice, twice) in enumerate(taps):
        if n == close_after:
            store.close_question(db, code, key, question)
        for _ in range(2 if twice else 1):
            if n < close_after:
                store.answer(db, question, seats[who], choice)
                last[seats[who]] = choice
            else:
                with pytest.raises(store.Refused, match="closed"):
                    store.answer(db, question, seats[who], choice)
    counts = store.tally(db, found.id).counts.get((question, 1), {})
    expected: dict[int, int] = {}
    for choice in last.values():
        expected[choice] = expected.get(choice, 0) + 1
    assert counts == expected
    assert store.tally(db, found.id).seated == 6
    assert {row["student"] for row in store.export_rows(db, code, key)} <= set(range(1, 7))


def test_a_reload_keeps_the_seat_and_a_restart_loses_nothing(databases):
    db = databases()
    url = str(db.url.render_as_string(hide_password=False))
    code, key = store.start_class(db)
    question = store.open_question(db, code, key, "concept.rows", 4, 1)
    seat = store.new_seat()
    found, student = store.join(db, code, seat)
    store.answer(db, question, student, 2)
    assert store.join(db, code, seat)[1] == student  # the same browser: the same student
    db.dispose()
    store._engines.pop(next(u for u, e in store._engines.items() if e is db))  # a new server process: a new engine
    again = store.connect(url)
    assert store.check_teacher(again, code, key).id == found.id
    assert store.question_state(again, question).state == "open"
    assert store.tally(again, found.id).counts == {(question, 1): {2: 1}}
    store.answer(again, question, student, 3)
    assert store.tally(again, found.id).counts == {(question, 1): {3: 1}}


def test_the_export_holds_only_what_the_teacher_chose_to_collect(db):
    code, key = store.start_class(db)
    question = store.open_question(db, code, key, "concept.rows", 4, 1, phase="before")
    _, student = store.join(db, code, store.new_seat(), nickname="Ada")
    store.answer(db, question, student, 1)
    rows = store.export_rows(db, code, key)
    assert rows == [{"class": code, "question": question, "student": 1, "item": "concept.rows", "phase": "before", "round": 1,
                     "answer": 2, "correct": True, "time": rows[0]["time"]}]
    named, named_key = store.start_class(db, nicknames=True)
    with pytest.raises(store.Refused, match="nickname"):
        store.join(db, named, store.new_seat(), nickname="   ")
    asked = store.open_question(db, named, named_key, "concept.rows", 4, 1)
    _, ada = store.join(db, named, store.new_seat(), nickname="<i>Ada</i>")
    store.answer(db, asked, ada, 0)
    assert store.export_rows(db, named, named_key)[0]["nickname"] == "<i>Ada</i>"


# --- Two rounds, the seat map, the groups ---


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.sampled_from([1, 2])), min_size=1, max_size=40),
       st.integers(0, 40), st.integers(0, 40))
def test_every_answer_is_kept_once_per_student_per_round(databases, taps, close_first, close_second):
    """Taps (student, choice, the round the phone showed) while the teacher closes round 1, opens round 2 and closes it:
    each round holds each student's last answer given while that round was open, once; a tap meant for another round,
    or after a close, is refused and changes nothing."""
    db = databases()
    code, key = store.start_class(db)
    question = store.open_question(db, code, key, "concept.rows", 4, 1)
    found, _ = store.join(db, code, store.new_seat())
    seats = [store.join(db, code, store.new_seat())[1] for _ in range(5)]
    close_second = max(close_first, close_second)
    last: dict[tuple[int, int], int] = {}
    for n, (who, choice, round_) in enumerate(taps):
        if n == close_first:
            store.close_question(db, code, key, question)
            store.open_round_two(db, code, key, question)
        if n == close_second:
            store.close_question(db, code, key, question)
        open_round = 1 if n < close_first else 2 if n < close_second else None
        if round_ == open_round:
            store.answer(db, question, seats[who], choice, round=round_)
            last[(round_, seats[who])] = choice
        else:
            with pytest.raises(store.Refused, match="closed"):
                store.answer(db, question, seats[who], choice, round=round_)
    counts = store.tally(db, found.id).counts
    for round_ in (1, 2):
        expected: dict[int, int] = {}
        for (r, _), choice in last.items():
            if r == round_:
                expected[choice] = expected.get(choice, 0) + 1
        assert counts.get((question, round_), {}) == expected
    moved = store.shift(db, question)  # students who voted in both rounds, from their first answer to their second
    both = [s for s in seats if (1, s) in last and (2, s) in last]
    assert sum(moved.values()) == len(both)
    assert all(moved.get((last[(1, s)], last[(2, s)]), 0) >= 1 for s in both)


def test_round_two_pairs_the_first_voters_and_only_the_teacher_moves_the_rounds(db):
    code, key = store.start_class(db, rows=3, seats=4)
    other, other_key = store.start_class(db)
    question = store.open_question(db, code, key, "concept.cosine", 4, 0)
    students = [store.join(db, code, store.new_seat())[1] for _ in range(5)]
    for student, place in zip(students, [(1, 1), (1, 2), (3, 4), None, (2, 2)]):
        if place:
            store.take_place(db, student, *place)
    for student, choice in zip(students, (0, 1, 0, 2)):  # the fifth does not vote
        store.answer(db, question, student, choice)
    with pytest.raises(store.Refused, match="no_question"):  # round 2 opens only after round 1 closed
        store.open_round_two(db, code, key, question)
    store.close_question(db, code, key, question)
    for wrong in ("", "x" * 22, other_key):
        with pytest.raises(store.Refused, match="wrong_key"):
            store.open_round_two(db, code, wrong, question)
        with pytest.raises(store.Refused, match="wrong_key"):
            store.set_show_first(db, code, wrong, question, True)
        with pytest.raises(store.Refused, match="wrong_key"):
            store.set_seat_map(db, code, wrong, 2, 2)
        with pytest.raises(store.Refused, match="wrong_key"):
            store.report(db, code, wrong)
    with pytest.raises(store.Refused, match="no_question"):  # another class's teacher
        store.open_round_two(db, other, other_key, question)
    groups = store.open_round_two(db, code, key, question)
    voters = [Voter(s, p, c) for s, p, c in zip(students, [(1, 1), (1, 2), (3, 4), None], (0, 1, 0, 2))]
    assert groups == pair(voters)  # what the phones read is the pure function's pairing of the first votes
    for group in groups:
        for member in group.members:
            mine = store.partners_of(db, question, member)
            assert mine.code == group.code and len(mine.others) == len(group.members) - 1
    assert store.partners_of(db, question, students[4]) is None  # did not vote: no group, a phone says "a neighbour"
    store.close_question(db, code, key, question)
    with pytest.raises(store.Refused, match="no_question"):  # no third round
        store.open_round_two(db, code, key, question)
    store.reveal_question(db, code, key, question)
    assert store.question_state(db, question).state == "revealed" and store.question_state(db, question).round == 2


def test_the_seat_map_is_bounded_and_a_smaller_map_forgets_the_seats_off_it(db):
    code, key = store.start_class(db, rows=4, seats=5)
    student = store.join(db, code, store.new_seat())[1]
    for row, seat in ((0, 1), (5, 1), (1, 6), (1, None), ("1", 1), (True, 1)):
        with pytest.raises(store.Refused, match="bad_map"):
            store.take_place(db, student, row, seat)
    store.take_place(db, student, 4, 5)
    assert store.place_of(db, student) == (4, 5)
    store.set_seat_map(db, code, key, 3, 5)
    assert store.place_of(db, student) is None
    for rows, seats in ((31, 2), (2, 0), (-1, 3)):
        with pytest.raises(store.Refused, match="bad_map"):
            store.set_seat_map(db, code, key, rows, seats)
    store.set_seat_map(db, code, key, None, None)
    with pytest.raises(store.Refused, match="bad_map"):  # no map: no seat to tap
        store.take_place(db, student, 1, 1)


def test_an_expired_class_takes_no_answer_and_opens_nothing(db):
    code, key = store.start_class(db, hours=1, now=time.time() - 7200)
    found = store.class_by_code(db, code, joining=False)
    with pytest.raises(store.Refused, match="expired"):
        store.open_question(db, code, key, "concept.rows", 4, 1)
    with db.begin() as connection:  # a question opened while the class ran, and a student seated then
        question = connection.execute(store.questions.insert().values(class_id=found.id, item="concept.rows", phase="", options=4,
                                                                      correct=1, labels="[]", state="open", live=False,
                                                                      opened=time.time() - 3600, round=1)).inserted_primary_key[0]
        student = connection.execute(store.students.insert().values(class_id=found.id, seat=store.new_seat(),
                                                                    joined=time.time() - 3600)).inserted_primary_key[0]
    with pytest.raises(store.Refused, match="closed"):
        store.answer(db, question, student, 1)
    assert store.has_ended(db, found.id)


def test_a_browser_seated_in_a_nickname_class_comes_back_without_typing_it(db):
    code, _ = store.start_class(db, nicknames=True)
    seat = store.new_seat()
    _, student = store.join(db, code, seat, nickname="Ada")
    assert store.join(db, code, seat)[1] == student  # the cookie's seat: no nickname asked again
    with pytest.raises(store.Refused, match="nickname"):
        store.join(db, code, store.new_seat())  # a new browser still types one


# --- Moving forward, and privacy ---


OLD_KEY = "k" * 22  # the teacher key of the class made by the old schema


def old_class(engine) -> None:
    """A class made by the schema of migration 0001 (the round did not exist): a question, two students, their answers."""
    with engine.begin() as db:
        db.exec_driver_sql("INSERT INTO classes (id, code, key_hash, nicknames, created, expires) VALUES "
                           f"(1, 'ABCDEF', '{hashlib.sha256(OLD_KEY.encode()).hexdigest()}', false, 1, 9999999999)")
        db.exec_driver_sql("INSERT INTO students (id, class_id, seat, joined) VALUES (1, 1, 'seatseatseatseat', 1), (2, 1, 'taestaestaestaes', 1)")
        db.exec_driver_sql("INSERT INTO questions (id, class_id, item, phase, options, correct, labels, state, live, opened) VALUES "
                           "(1, 1, 'concept.rows', '', 4, 1, '[]', 'closed', false, 1)")
        db.exec_driver_sql('INSERT INTO answers (question_id, student_id, choice, "first", at) VALUES (1, 1, 1, 1, 1), (1, 2, 3, 1, 1)')
        if engine.dialect.name == "postgresql":  # rows made by the app would have moved the ids' sequences on
            for table in ("classes", "students", "questions"):
                db.exec_driver_sql(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), 10)")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_0002_moves_a_class_forward_without_losing_an_answer(backend, tmp_path, request):
    from sqlalchemy import create_engine

    if backend == "sqlite":
        url = f"sqlite:///{tmp_path}/old.sqlite3"
    else:
        from scripts.postgres import new_database

        url = new_database(request.getfixturevalue("cluster"), f"old_{time.monotonic_ns()}")
    engine = create_engine(url)
    store.migrate(engine, "0001")
    old_class(engine)
    store.migrate(engine)  # what connect() does on the next start
    assert store.tally(engine, 1).counts == {(1, 1): {1: 1, 3: 1}}
    assert [(row["student"], row["round"], row["answer"]) for row in store.export_rows(engine, "ABCDEF", OLD_KEY)] == [(1, 1, 2), (2, 1, 4)]
    question = store.question_state(engine, 1)
    assert (question.round, question.show_first, question.follows, question.state) == (1, False, None, "closed")
    groups = store.open_round_two(engine, "ABCDEF", OLD_KEY, 1)  # the old class goes on: a second round on its question
    assert [g.members for g in groups] == [(1, 2)]
    store.answer(engine, 1, 1, 2, round=2)
    store.answer(engine, 1, 1, 0, round=2)
    assert store.tally(engine, 1).counts == {(1, 1): {1: 1, 3: 1}, (1, 2): {0: 1}}
    assert store.shift(engine, 1) == {(1, 0): 1}
    engine.dispose()


def test_the_sqlite_folder_and_files_are_the_servers_own(tmp_path, monkeypatch):
    """The folder 0700, the database, its WAL and shared-memory files 0600 (SQLite gives the last two the first's mode);
    a database kept in the old place moves into the private folder; another user reads nothing."""
    import os
    import stat
    import subprocess

    folder = tmp_path / "var" / "live-class"
    monkeypatch.setattr(store, "DEFAULT_FOLDER", folder)
    monkeypatch.setattr(store, "OLD_DEFAULT_FILE", tmp_path / "var" / "live-class.sqlite3")
    old = store.connect(f"sqlite:///{tmp_path}/var/live-class.sqlite3")  # a class kept before the private folder
    code, key = store.start_class(old)
    old.dispose()
    store._engines.pop(f"sqlite:///{tmp_path}/var/live-class.sqlite3")
    db = store.connect(f"sqlite:///{folder}/live-class.sqlite3")
    assert store.check_teacher(db, code, key).code == code  # moved, not lost
    store.join(db, code, store.new_seat())
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in ("live-class.sqlite3", "live-class.sqlite3-wal", "live-class.sqlite3-shm"):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
    if os.geteuid() == 0:  # as the sysadmin tried it: another local user reads nothing
        os.chmod(tmp_path, 0o755)
        os.chmod(tmp_path / "var", 0o755)
        tried = subprocess.run(["runuser", "-u", "nobody", "--", "cat", str(folder / "live-class.sqlite3")], capture_output=True)
        assert tried.returncode != 0 and b"Permission denied" in tried.stderr
    db.dispose()


def test_postgresql_asks_a_password_hides_its_socket_and_the_role_owns_only_the_class_database(cluster):
    import os
    import subprocess

    import psycopg

    plain_url = cluster.url.replace("postgresql+psycopg", "postgresql")
    with psycopg.connect(plain_url) as connection:
        role = connection.execute("SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls FROM pg_roles "
                                  "WHERE rolname = current_user").fetchone()
        owned = connection.execute("SELECT datname FROM pg_database WHERE datdba = (SELECT oid FROM pg_roles WHERE rolname = current_user)"
                                   ).fetchall()
    assert role == (False, False, False, False, False)
    assert {name for (name,) in owned} >= {"live_class"} and not {name for (name,) in owned} & {"postgres", "template1"}
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        psycopg.connect(plain_url.rsplit("/", 1)[0] + "/postgres").close()
    password = plain_url.split("@")[0].rsplit(":", 1)[1]
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(plain_url.replace(f":{password}@", ":wrong-password@")).close()
    assert oct(os.stat(cluster.sockets).st_mode & 0o777) == "0o700"
    folder = cluster.sockets.parent
    assert all(oct(os.stat(folder / name).st_mode & 0o777) == "0o600" for name in ("admin.password", "class.password"))
    hba = subprocess.run((["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []) + ["cat", str(folder / "data" / "pg_hba.conf")],
                         capture_output=True, text=True, check=True).stdout
    assert "trust" not in [word for line in hba.splitlines() if not line.startswith("#") for word in line.split()]
    if os.geteuid() == 0:  # as the sysadmin tried it: the user nobody, with no password
        for host in ("127.0.0.1", str(cluster.sockets)):
            for user in ("attention_class", "attention_admin", "postgres"):
                tried = subprocess.run(["runuser", "-u", "nobody", "--", str(cluster.bin / "psql"), "-h", host, "-p", str(cluster.port),
                                        "-U", user, "-d", "live_class", "-w", "-c", "SELECT count(*) FROM answers"],
                                       capture_output=True, text=True, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
                assert tried.returncode != 0 and ("no password supplied" in tried.stderr or "Permission denied" in tried.stderr), tried.stderr
        tried = subprocess.run(["runuser", "-u", "nobody", "--", "cat", str(folder / "class.password")], capture_output=True)
        assert tried.returncode != 0


def test_a_cluster_that_trusted_everyone_moves_forward_with_its_classes():
    """A cluster made by the old script (trust authentication, the superuser "attention", the classes in "postgres")
    starts with passwords, the class role owning the classes' database, and every class still there."""
    import os
    import shutil
    import subprocess

    from sqlalchemy import create_engine

    from scripts.browser import free_port
    from scripts.postgres import _as_owner, binaries, postgres

    scratch = Path(tempfile.mkdtemp(prefix="attention-old-postgres-"))  # under /tmp: the postgres user reaches it
    folder = scratch / "postgres"
    data = folder / "data"
    folder.mkdir()
    if os.geteuid() == 0:
        os.chmod(scratch, 0o755)
        os.chmod(folder, 0o755)
        shutil.chown(folder, "postgres", "postgres")
    subprocess.run(_as_owner([str(binaries() / "initdb"), "-D", str(data), "-U", "attention", "--auth=trust", "-E", "UTF8",
                              "--locale=C", "--no-sync"]), check=True, stdout=subprocess.DEVNULL)
    port = free_port()
    subprocess.run(_as_owner([str(binaries() / "pg_ctl"), "-D", str(data), "-o", f"-p {port} -k {data} -c listen_addresses=127.0.0.1",
                              "-w", "-l", str(data / "log"), "start"]), check=True, stdout=subprocess.DEVNULL)
    try:
        engine = create_engine(f"postgresql+psycopg://attention@127.0.0.1:{port}/postgres")
        store.migrate(engine, "0001")
        old_class(engine)
        engine.dispose()
    finally:
        subprocess.run(_as_owner([str(binaries() / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]), stdout=subprocess.DEVNULL)
    if os.geteuid() == 0:
        shutil.chown(folder, "root", "root")
    with postgres(folder, durable=False) as cluster:
        db = store.connect(cluster.url)
        assert store.tally(db, 1).counts == {(1, 1): {1: 1, 3: 1}}  # every answer, now a round-1 answer
        asked = store.open_question(db, "ABCDEF", OLD_KEY, "concept.cosine", 4, 0)  # the class role writes the old tables
        store.answer(db, asked, 2, 0)
        assert store.tally(db, 1).counts[(asked, 1)] == {0: 1}
        import psycopg

        with pytest.raises(psycopg.OperationalError):  # the old superuser's trust is gone
            psycopg.connect(f"host=127.0.0.1 port={cluster.port} user=attention dbname=live_class").close()
        db.dispose()
        store._engines.pop(cluster.url)
    shutil.rmtree(scratch, ignore_errors=True)

