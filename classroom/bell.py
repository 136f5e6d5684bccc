"""A phone hears the teacher move on within a second, without reading the class every second.

Each waiting phone holds one request open (``GET /-/live/wait?since=<version>``, its seat in its HttpOnly cookie:
views/shell/cookies.py). One reader per class and server process reads the class's **version** (a hash of what a phone
redraws for: each open question's state and round, and whether the class ended) every ``EVERY`` seconds while anyone
waits, and answers every phone whose version is older at once; a phone whose class did not move hears back after
``WAIT_SECONDS`` and asks again. A room of 300 phones costs 4 database reads a second, not 300.

    version(engine, class_id) -> "3f9c0a1b2d4e"            # read now, kept in SNAPSHOTS for the phones it wakes
    await BELL.wait(class_id, since="3f9c0a1b2d4e")        # -> the newer version, or ``since`` after WAIT_SECONDS
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

from classroom import store

PATH = "/-/live/wait"
SEAT_COOKIE = "attention_seat"  # views/live/common.SEAT_COOKIE: code.seat
EVERY = 0.25  # seconds between two readings of a class while a phone waits on it
WAIT_SECONDS = 20.0  # a wait answered with nothing new (a proxy's idle timeout is longer)
SEATS_KEPT_SECONDS = 300.0  # a seat's class is looked up again after this
MAX_WAITING = 5000  # waits held at once by one process; past this a phone is told to read by itself


def moves_of(questions: list[store.Question], ended: bool) -> tuple[tuple, bool]:
    """What a phone redraws for: each open question's (id, state, round), and whether the class ended (or expired)."""
    return tuple((q.id, q.state, q.round) for q in questions), ended


def version_of(found: tuple[tuple, bool]) -> str:
    """``moves_of`` as 12 hex digits."""
    return hashlib.sha256(repr(found).encode()).hexdigest()[:12]


class Snapshots:
    """The class's open questions and whether it ended, as last read in this process: a hundred phones redrawn at once
    by the teacher's move read them once (the reader that woke them has just read them)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, int], tuple[list[store.Question], bool, float]] = {}  # (database, class) ->
        self.lock = threading.Lock()

    def read(self, engine, class_id: int) -> tuple[list[store.Question], bool]:
        """Read now, and keep."""
        questions, ended = store.open_questions(engine, class_id), store.has_ended(engine, class_id)
        with self.lock:
            if len(self.kept) > 10_000:
                self.kept.clear()
            self.kept[(str(engine.url), class_id)] = (questions, ended, time.monotonic())
        return questions, ended

    def news(self, engine, class_id: int, drawn: tuple | None, max_age: float = 2 * EVERY) -> tuple[list[store.Question], bool]:
        """What to draw a phone that shows ``drawn`` (the questions' ``moves_of``, None for nothing yet) from: the
        reading kept, when it is at most ``max_age`` seconds old and says something the phone does not show (the
        teacher's move that woke the room); else read now (a tap, a reload, a move the kept reading has not seen)."""
        with self.lock:
            kept = self.kept.get((str(engine.url), class_id))
        if kept and drawn is not None and time.monotonic() - kept[2] <= max_age and moves_of(kept[0], kept[1])[0] != drawn:
            return kept[0], kept[1]
        return self.read(engine, class_id)


SNAPSHOTS = Snapshots()


def version(engine, class_id: int) -> str:
    """The class's version now (read, and kept for the phones it wakes)."""
    return version_of(moves_of(*SNAPSHOTS.read(engine, class_id)))


class Bell:
    """The waits on each class, answered by one reader per class (``read(class_id) -> version``, run in a thread)."""

    def __init__(self, read: Callable[[int], str], every: float = EVERY) -> None:
        self.read, self.every = read, every
        self.waiting: dict[int, list[tuple[str, asyncio.Future]]] = {}
        self.readers: dict[int, asyncio.Task] = {}

    def count(self) -> int:
        return sum(len(waits) for waits in self.waiting.values())

    async def wait(self, class_id: int, since: str, timeout: float = WAIT_SECONDS) -> str:
        """The class's version once it differs from ``since``; ``since`` itself after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        entry = (since, future)
        self.waiting.setdefault(class_id, []).append(entry)
        if class_id not in self.readers:
            self.readers[class_id] = loop.create_task(self._read(class_id))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return since
        finally:
            waits = self.waiting.get(class_id, [])
            if entry in waits:
                waits.remove(entry)
            if not waits:
                self.waiting.pop(class_id, None)

    async def _read(self, class_id: int) -> None:
        try:
            while self.waiting.get(class_id):
                try:
                    now = await asyncio.to_thread(self.read, class_id)
                except Exception:  # the database away for a moment: the phones keep waiting, then read by themselves
                    await asyncio.sleep(1.0)
                    continue
                for since, future in list(self.waiting.get(class_id, ())):
                    if since != now and not future.done():
                        future.set_result(now)
                await asyncio.sleep(self.every)
        finally:
            self.readers.pop(class_id, None)


class Seats:
    """Which class a seat's cookie sits in (``code.seat``), looked up once in a while: None when it sits nowhere."""

    def __init__(self, engine: Callable[[], object], kept: float = SEATS_KEPT_SECONDS) -> None:
        self.engine, self.kept = engine, kept
        self.found: dict[str, tuple[int | None, float]] = {}
        self.lock = threading.Lock()

    def class_of(self, cookie: str, now: float | None = None) -> int | None:
        now = time.monotonic() if now is None else now
        with self.lock:
            known = self.found.get(cookie)
        if known and now - known[1] < self.kept:
            return known[0]
        code, _, seat = cookie.partition(".")
        class_id = None
        if code and store.SEAT.fullmatch(seat):
            try:
                found = store.class_by_code(self.engine(), code, joining=False)
                class_id = found.id if store.seated(self.engine(), found.id, seat) is not None else None
            except store.Refused:
                class_id = None
        with self.lock:
            if len(self.found) > 50_000:
                self.found.clear()
            self.found[cookie] = (class_id, now)
        return class_id


def _seat_cookie(headers: list[tuple[bytes, bytes]]) -> str:
    jar = SimpleCookie()
    for name, value in headers:
        if name == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except CookieError:
                continue
    morsel = jar.get(SEAT_COOKIE)
    return morsel.value if morsel else ""


class LiveBell:
    """ASGI middleware: ``GET /-/live/wait?since=<version>`` from a seated phone answers ``{"version": ...}`` once its
    class moved on (or after ``WAIT_SECONDS``); 403 without a seat, 503 when too many wait; everything else goes on."""

    def __init__(self, app, bell: Bell | None = None, seats: Seats | None = None) -> None:
        self.app = app
        self.bell = bell or Bell(lambda class_id: version(store.connect(), class_id))
        self.seats = seats or Seats(store.connect)

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") != "http" or scope.get("path") != PATH:
            await self.app(scope, receive, send)
            return
        if scope.get("method") != "GET":
            await _answer(send, 405, b"")
            return
        since = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("since") or [""])[0][:32]
        cookie = _seat_cookie(scope.get("headers") or [])
        class_id = await asyncio.to_thread(self.seats.class_of, cookie) if cookie else None
        if class_id is None:
            await _answer(send, 403, b"")
            return
        if self.bell.count() >= MAX_WAITING:
            await _answer(send, 503, b"")
            return
        now = await self.bell.wait(class_id, since)
        await _answer(send, 200, json.dumps({"version": now}).encode())


async def _answer(send, status: int, body: bytes) -> None:
    headers = [(b"cache-control", b"no-store"), (b"content-length", str(len(body)).encode())]
    if body:
        headers.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
