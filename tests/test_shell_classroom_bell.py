"""A phone hears the teacher move on (classroom/bell.py): one reader per class answers every wait at once when the
class's version changes, a wait with nothing new ends after its time, and only a seated phone may wait."""

from __future__ import annotations

import asyncio
import json

import pytest

from classroom import bell, store


@pytest.fixture
def db(tmp_path):
    url = f"sqlite:///{tmp_path}/class.sqlite3"
    yield store.connect(url)
    store._engines.pop(url).dispose()


def test_the_version_changes_with_every_move_a_phone_redraws_for_and_only_then(db):
    code, key = store.start_class(db)
    class_id = store.class_by_code(db, code).id
    seen = [bell.version(db, class_id)]
    question = store.open_question(db, code, key, "concept.rows", 4, 1)
    seen.append(bell.version(db, class_id))
    _, student = store.join(db, code, store.new_seat())
    store.answer(db, question, student, 2)  # an answer is no move of the teacher's: the phones are not woken
    assert bell.version(db, class_id) == seen[-1]
    store.close_question(db, code, key, question)
    seen.append(bell.version(db, class_id))
    store.open_round_two(db, code, key, question)
    seen.append(bell.version(db, class_id))
    store.reveal_question(db, code, key, question)
    seen.append(bell.version(db, class_id))
    store.end_class(db, code, key)
    seen.append(bell.version(db, class_id))
    assert len(set(seen)) == len(seen) == 6 and all(len(v) == 12 for v in seen), seen


def test_every_wait_hears_a_change_from_one_reader_and_a_quiet_class_ends_the_wait():
    reads, versions = [], {"v": "a"}

    def read(class_id: int) -> str:
        reads.append(class_id)
        return versions["v"]

    async def scene():
        ringing = bell.Bell(read, every=0.02)
        waits = [asyncio.create_task(ringing.wait(7, "a", timeout=5)) for _ in range(300)]
        old = asyncio.create_task(ringing.wait(7, "old", timeout=5))  # drawn from an older version: answered at once
        assert await old == "a"
        await asyncio.sleep(0.1)
        before = len(reads)
        versions["v"] = "b"
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert set(await asyncio.gather(*waits)) == {"b"}
        heard = loop.time() - start
        quiet = await ringing.wait(7, "b", timeout=0.1)  # nothing new: its own version back after its time
        await asyncio.sleep(0.1)
        return before, heard, quiet, ringing

    before, heard, quiet, ringing = asyncio.run(scene())
    assert heard < 0.5 and quiet == "b"
    assert before <= 0.1 / 0.02 + 2, f"{before} reads for 300 waits in 0.1 s: one reader for the class, not one per phone"
    assert not ringing.waiting and not ringing.readers  # nobody waits: nobody reads


def test_a_reading_that_fails_keeps_the_phones_waiting_until_it_works_again():
    answers = iter([RuntimeError("database away"), "new"])

    def read(class_id: int) -> str:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert asyncio.run(bell.Bell(read, every=0.01).wait(1, "old", timeout=3)) == "new"


def _get(middleware, path: str, query: bytes = b"", cookie: str = "", method: str = "GET"):
    sent, reached = [], []

    async def app(scope, receive, send):
        reached.append(scope["path"])

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    headers = [(b"cookie", cookie.encode())] if cookie else []
    scope = {"type": "http", "method": method, "path": path, "query_string": query, "headers": headers}
    asyncio.run(middleware(app)(scope, receive, send))
    start = next((m for m in sent if m["type"] == "http.response.start"), None)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return (start["status"] if start else None), body, bool(reached)


def test_only_a_seated_phone_waits_and_hears_its_own_class(db):
    code, _ = store.start_class(db)
    other, _ = store.start_class(db)
    seat = store.new_seat()
    store.join(db, code, seat)
    class_id = store.class_by_code(db, code).id
    now = bell.version(db, class_id)
    seats = bell.Seats(lambda: db)

    def middleware(app):
        return bell.LiveBell(app, bell.Bell(lambda c: bell.version(db, c), every=0.01), seats)

    status, body, _ = _get(middleware, bell.PATH, b"since=older", f"attention_seat={code}.{seat}; other=1")
    assert status == 200 and json.loads(body) == {"version": now}
    for cookie in ("", f"attention_seat={other}.{seat}", f"attention_seat={code}.{store.new_seat()}", "attention_seat=<script>"):
        assert _get(middleware, bell.PATH, b"since=x", cookie)[0] == 403, cookie
    assert _get(middleware, bell.PATH, method="POST")[0] == 405
    assert _get(middleware, "/live")[2] and _get(middleware, "/_stcore/stream")[2]
    assert seats.class_of(f"{code}.{seat}") == class_id and seats.class_of(f"{other}.{seat}") is None


def test_a_room_woken_at_once_reads_the_class_once_and_another_database_is_another_class(db, tmp_path):
    code, key = store.start_class(db)
    class_id = store.class_by_code(db, code).id
    snapshots = bell.Snapshots()
    drawn = bell.moves_of(*snapshots.read(db, class_id))[0]  # the phone shows the class as it was
    store.open_question(db, code, key, "concept.rows", 4, 1)
    assert snapshots.news(db, class_id, drawn, max_age=60)[0] != []  # nothing new kept: read, the question is there
    woken = bell.moves_of(*snapshots.read(db, class_id))  # the reader that wakes the room has read the move
    store.close_question(db, code, key, store.open_questions(db, class_id)[0].id)  # not seen by that reading
    found = snapshots.news(db, class_id, drawn, max_age=60)  # the room, woken: the reading kept, no query
    assert bell.moves_of(*found) == woken
    assert snapshots.news(db, class_id, woken[0], max_age=60)[0][0].state == "closed"  # nothing new to it: read
    assert snapshots.news(db, class_id, drawn, max_age=0)[0][0].state == "closed"  # too old: read
    other_url = f"sqlite:///{tmp_path}/other.sqlite3"
    other = store.connect(other_url)
    try:
        other_code, _ = store.start_class(other)
        assert store.class_by_code(other, other_code).id == class_id  # the same number, in another database
        assert snapshots.news(other, class_id, drawn, max_age=60)[0] == []
    finally:
        store._engines.pop(other_url).dispose()
