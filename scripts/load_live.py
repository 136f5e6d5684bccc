"""make load LIVE=n: a live class of n students on phones voting twice (vote → discuss → vote again), over the app's
own websocket protocol (as make load does).

Every student is a real Streamlit session on the live page: it opens the join link (the app seats it and hands a
ticket for the seat's cookie, which the student redeems as the page's script does and its later connections carry),
waits as a phone does (on the server, ``GET /-/live/wait`` with its cookie, answered when the teacher moves on, then
the whole page drawn again; and its waiting part's own reading every few seconds, the server's auto-rerun), sees the
teacher's question, answers within 10 s, sometimes changes its answer, sometimes loses its connection and comes back
(the same seat, from the cookie). Then the teacher closes round 1 and opens round 2: the room is paired (timed),
every phone hears it, half the students change their answer, some reconnect first. The projector is the teacher's own session, rerunning its part as
chromium does; it reads how many answered and the histogram (the question is opened with the live histogram on).

Checked, per round: every student's final answer is counted exactly once in the database, and the projector's last
histogram equals the database's. Printed beside their goals: each round's p95 from a tap to the projector's count,
the teacher's click → the question on every phone, answers lost, counted twice, the pairing's time; also answers per
second, tap → acknowledged and the server's CPU per phone per minute. ``--replicas n``: the
class goes through nginx to n replicas sharing a local PostgreSQL (scripts/serve.py); ``--kill`` kills one replica
between the rounds (its phones reconnect).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import resource
import signal
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402  (installed with streamlit)
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from classroom.pairing import pair  # noqa: E402
from scripts.browser import serve_process  # noqa: E402
from scripts.load import first_contact, percentile, rerun_message  # noqa: E402

PAGE = "live"
ITEM, OPTIONS, CORRECT = "concept.rows", 4, 1
# assets/text/*/live.toml [student] your_answer and again: the radio of round 1 and of round 2
ROUND_OF_LABEL = {"Your answer": 1, "你的答案": 1, "Your answer, voting again": 2, "你的答案（第二次投票）": 2}
TICKET = re.compile(r'data-remember="([A-Za-z0-9_-]+)"')  # a cookie the page asks the server to set (views/shell/cookies.py)
SINCE = re.compile(rb'attention_bell.*"since":\s*"([0-9a-f]{12})"', re.DOTALL)  # the phone's wait (views/shell/script.bell)
ANSWER_WINDOW = 10.0  # s: every student answers within this long after the question reaches the phone
RUN_TIMEOUT = 60.0
GOALS = {1: (100, 2.0), 3: (300, 2.0)}  # replicas: (students, p95 s from a tap to the projector, each round)
PAIRING_GOAL = 0.1  # s to pair 300 students
PUSH_GOAL = 1.0  # s, p95 from the teacher's click to the question drawn on every phone
CHANGE_IN_ROUND_TWO = 0.5  # the share of students who change their answer after the discussion
RECONNECT_BEFORE_ROUND_TWO = 0.15  # … who lose their connection and come back before voting again


@dataclass
class Run:
    """What one script run sent: texts, widget ids by label, the link it wrote, the parts that rerun themselves."""

    texts: list[str] = field(default_factory=list)
    radios: dict[str, tuple[int, list[str]]] = field(default_factory=dict)  # the answer's radio: widget id -> (round, options)
    tickets: list[str] = field(default_factory=list)  # the cookies the page asks the server to set, as tickets
    since: str = ""  # the class's version the page was drawn from: its wait on the server starts there (classroom/bell.py)
    bell_part: str = ""  # the part the wait is drawn in: the teacher's move reruns that part alone
    query: str | None = None
    radio_part: str = ""
    auto: dict[str, float] = field(default_factory=dict)  # fragment id -> seconds between its reruns


class Session:
    """One browser tab over the websocket: sends reruns, reads each run to its end."""

    def __init__(self, ws_url: str, query: str, cookie: str = "") -> None:
        self.ws_url, self.query, self.cookie = ws_url, query, cookie
        self.ws = None
        self.auto: dict[str, float] = {}
        self.page_hash = ""  # the page's script hash, as the browser sends it back (a rerun the app asks for keeps the page)

    async def connect(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else None
        self.ws = await websockets.connect(self.ws_url, subprotocols=["streamlit"], max_size=None, open_timeout=RUN_TIMEOUT,
                                           additional_headers=headers)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def steady(self, widgets: list[WidgetState] = (), fragment: str = "", auto: bool = True) -> tuple[Run, int]:
        """``run``, and when the connection drops (a replica killed), what a browser does: connect again (nginx sends
        it to a live replica), draw the page anew (the seat from the cookie), and send the tap again. Returns (run,
        reconnects)."""
        for attempt in range(8):
            try:
                if attempt == 0:
                    return await self.run(widgets, fragment, auto), 0
                await asyncio.sleep(0.5 * attempt)
                await self.connect()
                self.auto = {}
                run = await self.run()  # a new session: the whole page (the seat from its cookie)
                if widgets:
                    run = await self.run(widgets)
                return run, attempt
            except (websockets.ConnectionClosed, OSError):  # a dropped connection (a run that never ends: a timeout, too)
                continue
        raise RuntimeError("the connection could not be made again")

    async def run(self, widgets: list[WidgetState] = (), fragment: str = "", auto: bool = True) -> Run:
        back = BackMsg()
        back.ParseFromString(rerun_message(self.query, list(widgets), PAGE))
        back.rerun_script.page_script_hash = self.page_hash
        if fragment:  # a part rerunning itself, as the browser asks for it
            back.rerun_script.fragment_id = fragment
            back.rerun_script.is_auto_rerun = auto
        await self.ws.send(back.SerializeToString())
        run = Run()
        while True:
            msg = ForwardMsg()
            msg.ParseFromString(await asyncio.wait_for(self.ws.recv(), RUN_TIMEOUT))
            kind = msg.WhichOneof("type")
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                element = msg.delta.new_element
                which = element.WhichOneof("type")
                if which == "radio" and element.radio.label in ROUND_OF_LABEL:  # not the sidebar's language
                    run.radios[element.radio.id] = (ROUND_OF_LABEL[element.radio.label], list(element.radio.options))
                    run.radio_part = msg.delta.fragment_id  # the part it is drawn in: a tap reruns that part only
                elif which == "html" and (kept := TICKET.search(element.html.body)):
                    run.tickets.append(kept.group(1))
                elif (bell := SINCE.search(element.SerializeToString())) is not None:
                    run.since, run.bell_part = bell.group(1).decode(), msg.delta.fragment_id
                elif which == "markdown":
                    run.texts.append(element.markdown.body)
                elif which == "alert":
                    run.texts.append(element.alert.body)
                elif which == "progress":
                    run.texts.append(element.progress.text)
                elif which == "exception":
                    raise RuntimeError(f"app exception: {element.exception.message}")
            elif kind == "navigation":  # st.navigation names the page it ran
                self.page_hash = msg.navigation.page_script_hash
            elif kind == "page_info_changed":
                run.query = msg.page_info_changed.query_string
            elif kind == "new_session" and not msg.metadata.run.fragment_ids:
                self.auto = {}  # a whole run: its parts are registered anew, under new ids (as the browser forgets the old)
            elif kind == "auto_rerun":
                self.auto[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                self.auto.pop(msg.stop_auto_rerun.fragment_id, None)
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # st.rerun: the run that follows is this one's end
                if run.query is not None:
                    self.query = run.query  # the link the app wrote (the class's code; never a seat)
                run.auto = dict(self.auto)
                return run


@dataclass
class Student:
    seat: str = ""
    choices: dict[int, list[int]] = field(default_factory=lambda: {1: [], 2: []})  # every answer acknowledged, per round
    taps: dict[int, list[tuple[float, float]]] = field(default_factory=lambda: {1: [], 2: []})  # (tap, acknowledged), perf_counter s
    reconnects: int = 0
    reached: dict[int, float] = field(default_factory=dict)  # round -> when its question was drawn on the phone (perf_counter s)
    rang: int = 0  # redraws the wait on the server asked for (the rest came from the phone's own reading)
    error: str = ""


@dataclass
class Rounds:
    """How many phones have joined, and how many students are done with each round (the teacher waits for them)."""

    seated: int = 0  # phones whose page is drawn (the room has joined when all are)
    all_seated: asyncio.Event = field(default_factory=asyncio.Event)
    done: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0})
    all_done: dict[int, asyncio.Event] = field(default_factory=lambda: {1: asyncio.Event(), 2: asyncio.Event()})
    students: int = 0

    def joined(self) -> None:
        self.seated += 1
        if self.seated >= self.students:
            self.all_seated.set()

    def finished(self, round_: int) -> None:
        self.done[round_] += 1
        if self.done[round_] >= self.students:
            self.all_done[round_].set()


def radio_of(run: Run, round_: int) -> tuple[str, list[str]] | None:
    return next(((radio, shown) for radio, (r, shown) in run.radios.items() if r == round_), None)


async def wait_on_server(base: str, cookie: str, since: str, timeout: float) -> str | None:
    """The page's wait on the server (``GET /-/live/wait``, the seat's cookie along), as its script holds it: the class's
    new version once it moved on; None when ``timeout`` passed first or the wait failed (the phone reads by itself)."""
    host, _, port = base.removeprefix("http://").partition(":")
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, int(port or 80)), 5)
    except (OSError, TimeoutError):
        return None
    try:
        writer.write(f"GET /-/live/wait?since={since} HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n"
                     "Connection: close\r\n\r\n".encode())
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), timeout)
    except (OSError, TimeoutError):
        return None
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    found = re.search(rb'"version":\s*"([0-9a-f]{12})"', body) if head.startswith(b"HTTP/1.1 200") else None
    return found.group(1).decode() if found and found.group(1).decode() != since else None


async def wait_for_round(session: Session, run: Run, round_: int, rng: random.Random, result: Student) -> Run:
    """Wait as the phone does until the round's radio is drawn (it may be already: a phone whose page was drawn just
    after the teacher opened the question): on the server, from the version its page was drawn from, which answers
    when the teacher moves on (then the whole page is drawn again); and, should that wait fail or take longer than its
    reading's interval, by its waiting part's own reading."""
    if radio_of(run, round_):
        result.reached.setdefault(round_, time.perf_counter())
        return run
    poll = next(iter(run.auto.values()), 8.0)
    deadline = time.monotonic() + 6 * RUN_TIMEOUT  # the room joining, round 1 answered and closed, before round 2
    base = session.ws_url.replace("ws://", "http://").removesuffix("/_stcore/stream")
    fragment = next(iter(run.auto), "")
    since, part = run.since, run.bell_part
    read_at = time.monotonic() + rng.uniform(0, poll)  # the phone's own reading, somewhere in its interval
    while True:
        rang = await wait_on_server(base, session.cookie, since, max(0.05, read_at - time.monotonic())) if since else None
        if rang is None and time.monotonic() < read_at:
            await asyncio.sleep(read_at - time.monotonic())
        if rang is not None:  # the class moved on: the part the wait is drawn in reruns (the component's trigger)
            run, again = await session.steady(fragment=part, auto=False)
            result.rang += 1
        else:  # the waiting part's own reading, which reruns the whole page when it sees the move
            run, again = await session.steady(fragment=fragment)
            read_at = time.monotonic() + poll
        result.reconnects += again
        since, part = (run.since, run.bell_part) if run.since else (since, part)  # a run without the part keeps its wait
        if radio_of(run, round_):
            result.reached.setdefault(round_, time.perf_counter())
            return run
        if time.monotonic() > deadline:
            raise RuntimeError(f"round {round_} never reached this phone: {run.texts[-3:]}")
        fragment = next(iter(run.auto), fragment)


async def tap(session: Session, run: Run, round_: int, choice: int, result: Student) -> Run:
    """Tap an option of the round's radio, as chromium sends a tap in a part; record when it was acknowledged."""
    radio, shown = radio_of(run, round_)
    state = WidgetState(id=radio)
    state.string_value = shown[choice]  # a radio's value is its option as shown (Streamlit's string_value)
    tapped = time.perf_counter()
    run, again = await session.steady([state], fragment=run.radio_part, auto=False)
    result.reconnects += again
    if any("not counted" in text or "未计入" in text for text in run.texts):
        raise RuntimeError(f"an answer in time was refused (round {round_})")
    result.taps[round_].append((tapped, time.perf_counter()))
    result.choices[round_].append(choice)
    return run


async def reconnect(session: Session, result: Student) -> Run:
    """The phone loses its connection and comes back: a new session, the same seat (its cookie)."""
    await session.close()
    await session.connect()
    result.reconnects += 1
    run, again = await session.steady()
    result.reconnects += again
    return run


def redeem(ws_url: str, cookie: str, ticket: str) -> tuple[str, str]:
    """Hand a ticket back as the page's script does (``POST /-/cookie``, the replica's cookie along): the cookie the
    server's answer sets, (name, value); ("", "") when it sets none."""
    base = ws_url.replace("ws://", "http://").removesuffix("/_stcore/stream")
    request = urllib.request.Request(f"{base}/-/cookie", data=ticket.encode(), method="POST", headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=RUN_TIMEOUT) as answer:
        name, _, rest = (answer.headers.get("Set-Cookie") or "").partition("=")
    return name, urllib.parse.unquote(rest.partition(";")[0])


async def phone(ws_url: str, code: str, cookie: str, rounds: Rounds, rng: random.Random) -> Student:
    """One student: join, wait for round 1, answer (maybe change, maybe reconnect), then for round 2 (maybe reconnect
    first), vote again: half of them another answer."""
    result = Student()
    session = Session(ws_url, urlencode({"join": code, "lang": rng.choice(["en", "zh"])}), cookie)
    marked: set[int] = set()  # the rounds this phone has told the teacher it is done with
    joined = False
    try:
        await session.connect()
        run = await session.run()
        kept = dict(await asyncio.gather(*(asyncio.to_thread(redeem, ws_url, cookie, ticket) for ticket in run.tickets)))
        seat = kept.get("attention_seat", "")
        result.seat = seat.partition(".")[2]
        if not result.seat:
            raise RuntimeError(f"not seated: {run.texts[-3:]}")
        session.cookie = "; ".join(part for part in (cookie, f"attention_seat={seat}") if part)  # as the browser keeps it
        rounds.joined()
        joined = True
        for round_ in (1, 2):
            try:
                run = await wait_for_round(session, run, round_, rng, result)  # waiting before the teacher clicks, as a phone does
                await asyncio.sleep(rng.uniform(0, ANSWER_WINDOW - 4))
                if round_ == 1:
                    answers = [rng.randrange(OPTIONS)] + ([rng.randrange(OPTIONS)] if rng.random() < 0.2 else [])
                else:
                    first = result.choices[1][-1] if result.choices[1] else rng.randrange(OPTIONS)
                    change = rng.random() < CHANGE_IN_ROUND_TWO
                    answers = [(first + rng.randrange(1, OPTIONS)) % OPTIONS if change else first]
                    if rng.random() < RECONNECT_BEFORE_ROUND_TWO:
                        run = await reconnect(session, result)
                for n, choice in enumerate(answers):
                    if n and rng.random() < 0.5:  # a phone that lost its connection comes back before changing its mind
                        run = await reconnect(session, result)
                    run = await tap(session, run, round_, choice, result)
            finally:
                marked.add(round_)
                rounds.finished(round_)
    except Exception as error:
        result.error = f"{type(error).__name__}: {error}"[:200]
    finally:
        if not joined:  # a phone that failed is done with what is left: the teacher waits no longer
            rounds.joined()
        for round_ in {1, 2} - marked:
            rounds.finished(round_)
        await session.close()
    return result


async def projector(ws_url: str, code: str, key: str, stop: asyncio.Event) -> list[tuple[float, int, int, list[int]]]:
    """The teacher's projector: its part reruns itself (as chromium does) and reads the round, the count and the
    histogram: (time, round, answered, bars)."""
    session = Session(ws_url, urlencode({"join": code, "teacher": key, "lang": "en", "present": "1"}))
    readings = []
    await session.connect()
    run, _ = await session.steady()
    while not stop.is_set():
        fragment, interval = next(iter(run.auto.items()), ("", 1.0))
        await asyncio.sleep(interval)
        run, _ = await session.steady(fragment=fragment)  # its replica may be the one killed: the projector reconnects
        answered = next((int(m.group(1)) for text in run.texts if (m := re.match(r"(\d+) of \d+ answered", text))), None)
        round_ = 2 if any(text.startswith("**Round 2: discuss") for text in run.texts) else 1
        bars = [int(m.group(1)) for text in run.texts if (m := re.search(r": (\d+) \(\d+%\)", text))]
        if answered is not None:
            readings.append((time.perf_counter(), round_, answered, bars))
    await session.close()
    return readings


def kill_one(balancer) -> None:
    """Kill a replica (SIGKILL), as a crash would; the watcher restarts it."""
    replica = balancer.replicas[-1]
    if replica.process is not None:
        os.kill(replica.process.pid, signal.SIGKILL)


def cpu_seconds(pids) -> float:
    """The CPU time (user + system, s) the server processes ``pids()`` have used so far (a process gone counts 0)."""
    total = 0.0
    for pid in pids():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def lesson(front: str, database: str, students: int, cookies: bool, seed: int, kill=None, pids=lambda: ()) -> dict:
    from classroom import store

    rng = random.Random(seed)
    ws_url = front.replace("http://", "ws://") + "/_stcore/stream"
    db = store.connect(database)
    code, key = store.start_class(db)
    jars = [first_contact(front)[0] if cookies else "" for _ in range(students)]
    stop = asyncio.Event()
    rounds = Rounds(students=students)
    cpu_before, wall_before = cpu_seconds(pids), time.perf_counter()
    watching = asyncio.create_task(projector(ws_url, code, key, stop))
    phones = []
    for n, jar in enumerate(jars):  # a room joining over a few seconds, not in one instant
        phones.append(asyncio.create_task(phone(ws_url, code, jar, rounds, random.Random(rng.random()))))
        if n % 20 == 19:
            await asyncio.sleep(0.5)
    found = store.class_by_code(db, code)
    await asyncio.wait([asyncio.create_task(rounds.all_seated.wait())], timeout=3 * RUN_TIMEOUT)  # the room has joined
    await asyncio.sleep(2.0)  # the teacher looks up from the join card
    question = store.open_question(db, code, key, ITEM, OPTIONS, CORRECT, live=True)
    began = {1: time.perf_counter()}
    await asyncio.wait([asyncio.create_task(rounds.all_done[1].wait())], timeout=4 * RUN_TIMEOUT)
    await asyncio.sleep(2.0)  # the projector's readings of the last answers
    store.close_question(db, code, key, question)
    if kill is not None:
        kill()  # a replica dies between the rounds: its phones reconnect when they next poll
    await asyncio.sleep(4.0)  # the teacher reads round 1's share and advice before "Discuss and vote again"
    voters = store.voters(db, question)
    paired = time.perf_counter()
    pair(voters)
    pairing = time.perf_counter() - paired
    opened = time.perf_counter()
    groups = store.open_round_two(db, code, key, question)
    opening = time.perf_counter() - opened
    began[2] = time.perf_counter()
    finished, late = await asyncio.wait(phones, timeout=6 * RUN_TIMEOUT)
    for task in late:  # a phone still busy after six minutes counts as an error, not as a hung benchmark
        task.cancel()
    done = [task.result() if task in finished else Student(error="still running after the benchmark's time") for task in phones]
    await asyncio.sleep(3.0)  # the projector's next readings
    stop.set()
    readings = await watching
    cpu = (cpu_seconds(pids) - cpu_before, time.perf_counter() - wall_before)
    counts = {r: store.tally(db, found.id).counts.get((question, r), {}) for r in (1, 2)}
    seated = store.tally(db, found.id).seated
    db.dispose()
    return {"students": done, "readings": readings, "counts": counts, "began": began, "pairing": pairing, "opening": opening,
            "voters": len(voters), "groups": len(groups), "seated": seated, "cpu": cpu}


def report(name: str, result: dict, students: int, goal: tuple[int, float]) -> float:
    """Print what the class measured beside its goals; returns the p95 from a tap to its acknowledgement (nan when
    nobody answered)."""
    done, readings, counts = result["students"], result["readings"], result["counts"]
    errors = [s.error for s in done if s.error]
    taps = sum(len(s.taps[r]) for s in done for r in (1, 2))
    print(f"\n{name}: {students} students ({result['seated']} seated: {'one each' if result['seated'] == students else 'NOT one each'}), "
          f"{taps} answers over two rounds, {sum(s.reconnects for s in done)} reconnects, {len(errors)} errors")
    acks = []
    for round_ in (1, 2):
        answered = [s for s in done if s.choices[round_]]
        expected: dict[int, int] = {}
        for s in answered:
            expected[s.choices[round_][-1]] = expected.get(s.choices[round_][-1], 0) + 1
        in_db = sum(counts[round_].values())
        lost = sum(max(0, expected.get(c, 0) - counts[round_].get(c, 0)) for c in range(OPTIONS))
        twice = max(0, in_db - len(answered))
        firsts = sorted((s.taps[round_][0] for s in answered), key=lambda t: t[1])  # first answers, in the order acknowledged
        to_ack = [ack - tap for tap, ack in firsts]
        acks += to_ack
        seen = [(at, count) for at, r, count, _ in readings if r == round_]
        to_projector = []
        for rank, (tap, _) in enumerate(firsts, start=1):  # the first reading that counts this many has counted this one
            when = next((at for at, count in seen if count >= rank and at >= tap - 5.0), None)
            if when is not None:
                to_projector.append(max(0.0, when - tap))
        all_acks = [ack for s in answered for _, ack in s.taps[round_]]
        span = max(all_acks) - result["began"][round_] if all_acks else float("nan")
        last = next((bars for _, r, _, bars in reversed(readings) if r == round_), [])
        changed = sum(1 for s in done if s.choices[1] and s.choices[2] and s.choices[1][-1] != s.choices[2][-1])
        print(f"  round {round_}: {len(answered)} answered ({sum(len(s.taps[round_]) for s in answered)} answers"
              + (f", {changed} changed their answer" if round_ == 2 else "") + f"), {len(to_ack) / span:.1f} answers/s over {span:.1f} s")
        if to_ack:
            print(f"    tap -> acknowledged: p50 {percentile(to_ack, 0.5):.2f} s, p95 {percentile(to_ack, 0.95):.2f} s")
        if to_projector:
            p95 = percentile(to_projector, 0.95)
            verdict = ("met" if p95 <= goal[1] else "not met") if students >= goal[0] else f"not measured: {students} students"
            print(f"    tap -> projector's count: p50 {percentile(to_projector, 0.5):.2f} s, p95 {p95:.2f} s "
                  f"(goal <= {goal[1]:.0f} s for {goal[0]} students: {verdict})")
        reached = [s.reached[round_] - result["began"][round_] for s in done if round_ in s.reached]
        if reached:
            p95 = percentile(reached, 0.95)
            verdict = ("met" if p95 <= PUSH_GOAL else "not met") if students >= 100 else f"not measured: {students} students"
            print(f"    teacher's click -> the question on every phone ({len(reached)} phones): p50 {percentile(reached, 0.5):.2f} s, "
                  f"p95 {p95:.2f} s, max {max(reached):.2f} s (goal p95 <= {PUSH_GOAL:.0f} s at 100 and 300: {verdict})")
        print(f"    lost: {lost} (goal 0); counted twice: {twice} (goal 0); database {in_db} = students who answered {len(answered)}: "
              f"{in_db == len(answered)}")
        if round_ == 2:  # the live histogram shows the round open now
            projector_ok = last == [counts[round_].get(c, 0) for c in range(OPTIONS)]
            print(f"    projector's histogram {last} equals the database's {[counts[round_].get(c, 0) for c in range(OPTIONS)]}: {projector_ok}")
    print(f"  pairing {result['voters']} voters into {result['groups']} groups: {1000 * result['pairing']:.1f} ms "
          f"(goal < {1000 * PAIRING_GOAL:.0f} ms at 300: {'met' if result['pairing'] < PAIRING_GOAL else 'not met'}); "
          f"opening round 2 with the groups stored: {1000 * result['opening']:.0f} ms")
    rang, cpu, wall = sum(s.rang for s in done), *result["cpu"]
    print(f"  the phones' redraws asked by their wait on the server: {rang}; the server's CPU: {cpu:.1f} s over {wall:.0f} s, "
          f"{60 * cpu / wall / max(1, students):.3f} s per phone per minute ({100 * cpu / wall:.0f} % of one core)")
    if errors:
        print("  first error:", errors[0])
    used = resource.getrusage(resource.RUSAGE_SELF)
    print(f"  this load generator (all {students} phones and the projector, in one process) used {used.ru_utime + used.ru_stime:.0f} s "
          f"of CPU since it started: it shares the machine's {os.cpu_count()} cores with the servers")
    return percentile(acks, 0.95) if acks else float("nan")


def floor(sessions: int, ack_p95: float) -> None:
    """The same number of sessions on a bare Streamlit script (one process, one slider moved by all at once, as
    make load's floor): a tap's acknowledgement is a rerun's round trip, so the ratio says what the live page costs."""
    from scripts.load import BARE, measure

    with tempfile.TemporaryDirectory() as folder:
        bare = Path(folder) / "bare.py"
        bare.write_text(BARE)
        found = measure(str(bare), sessions, "")
    print(f"  floor, a bare Streamlit script on one process, {sessions} sessions rerunning at once: rerun p95 {found['rerun_p95']:.2f} s; "
          f"tap -> acknowledged p95 / floor = {ack_p95 / found['rerun_p95']:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--replicas", type=int, default=0, help="through nginx to this many replicas sharing PostgreSQL")
    parser.add_argument("--kill", action="store_true", help="kill one replica between the rounds")
    parser.add_argument("--no-floor", action="store_true", help="skip the bare Streamlit script's floor")
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    students = max(1, min(args.students, 500))
    print(f"A live class over the websocket protocol; this machine has {os.cpu_count()} cores")
    if args.replicas:
        from scripts.serve import balanced

        with balanced(args.replicas) as balancer:
            database = balancer.replicas[0].database
            kill = (lambda: kill_one(balancer)) if args.kill else None
            pids = lambda: [r.process.pid for r in balancer.replicas if r.process is not None]
            result = asyncio.run(lesson(balancer.url, database, students, True, args.seed, kill, pids))
            name = f"nginx + {len(balancer.replicas)} replicas, PostgreSQL" + (", one replica killed between the rounds" if args.kill else "")
            ack = report(name, result, students, GOALS[3])
            print(f"  replicas restarted by the watcher: {sum(r.restarts for r in balancer.replicas)}"
                  + (" (one was killed on purpose)" if args.kill else ""))
        if not args.no_floor:
            floor(students, ack)
        return
    with tempfile.TemporaryDirectory() as folder:
        file = f"{folder}/live-class.sqlite3"
        with serve_process(env={"ATTENTION_CLASS_FILE": file}) as (url, pid):
            asyncio.run(lesson(url, f"sqlite:///{file}", 1, False, args.seed))  # the first session imports everything
            result = asyncio.run(lesson(url, f"sqlite:///{file}", students, False, args.seed, pids=lambda: [pid]))
            ack = report("one process, SQLite", result, students, GOALS[1])
    if not args.no_floor:
        floor(students, ack)


if __name__ == "__main__":
    main()
