"""make load LIVE=n: a live class of n students on phones, over the app's own websocket protocol (as make load does).

Every student is a real Streamlit session on the live page: it opens the join link (the app seats it), waits as a
phone does (its waiting part reruns itself every few seconds: the server's auto-rerun), sees the teacher's question,
answers within 10 s, sometimes changes its answer, sometimes loses its connection and comes back (the same seat, from
the link the app wrote). The projector is the teacher's own session, rerunning its part as chromium does; it reads
how many answered and the histogram (the question is opened with the live histogram on).

Checked: every student's final answer is counted exactly once in the database, and the projector's last histogram
equals the database's. Printed: answers per second, p95 from a tap to the server's acknowledgement and to the
projector's count, answers lost, counted twice. ``--replicas n``: the class goes through nginx to n replicas sharing
a local PostgreSQL (scripts/serve.py); ``--kill`` kills one replica mid-question (its phones reconnect).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402  (installed with streamlit)
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from scripts.browser import serve_process  # noqa: E402
from scripts.load import first_contact, percentile, rerun_message  # noqa: E402

PAGE = "live"
ITEM, OPTIONS, CORRECT = "concept.rows", 4, 1
ANSWER_LABELS = ("Your answer", "你的答案")  # assets/text/*/live.toml [student] your_answer
ANSWER_WINDOW = 10.0  # s: every student answers within this long after the question reaches the phone
RUN_TIMEOUT = 60.0
GOALS = {1: (100, 2.0), 3: (300, 2.0)}  # replicas: (students, p95 s from a tap to the projector)


@dataclass
class Run:
    """What one script run sent: texts, widget ids by label, the link it wrote, the parts that rerun themselves."""

    texts: list[str] = field(default_factory=list)
    radios: dict[str, list[str]] = field(default_factory=dict)  # the answer's radio: widget id -> its options as shown
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
        it to a live replica), draw the page anew from the link, and send the tap again. Returns (run, reconnects)."""
        for attempt in range(8):
            try:
                if attempt == 0:
                    return await self.run(widgets, fragment, auto), 0
                await asyncio.sleep(0.5 * attempt)
                await self.connect()
                self.auto = {}
                run = await self.run()  # a new session: the whole page (the seat from the link)
                if widgets:
                    run = await self.run(widgets)
                return run, attempt
            except (websockets.ConnectionClosed, OSError):  # not a timeout: a run that never ends is an error
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
                if which == "radio" and element.radio.label in ANSWER_LABELS:  # not the sidebar's language
                    run.radios[element.radio.id] = list(element.radio.options)
                    run.radio_part = msg.delta.fragment_id  # the part it is drawn in: a tap reruns that part only
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
            elif kind == "auto_rerun":
                self.auto[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                self.auto.pop(msg.stop_auto_rerun.fragment_id, None)
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # st.rerun: the run that follows is this one's end
                if run.query is not None:
                    self.query = run.query  # the link the app wrote (a student's seat)
                run.auto = dict(self.auto)
                return run


@dataclass
class Student:
    seat: str = ""
    choices: list[int] = field(default_factory=list)  # every answer acknowledged, in order
    taps: list[tuple[float, float]] = field(default_factory=list)  # (tap, acknowledged), perf_counter seconds
    reconnects: int = 0
    error: str = ""


async def phone(ws_url: str, code: str, cookie: str, opened: asyncio.Event, rng: random.Random) -> Student:
    """One student: join, wait for the question (polling as the phone does), answer, maybe change, maybe reconnect."""
    result = Student()
    session = Session(ws_url, urlencode({"join": code, "lang": rng.choice(["en", "zh"])}), cookie)
    try:
        await session.connect()
        run = await session.run()
        result.seat = dict(parse_qsl(session.query)).get("seat", "")
        if not result.seat:
            raise RuntimeError(f"not seated: {run.texts[-3:]}")
        await opened.wait()
        # The phone learns of the question at its next poll (its waiting part reruns itself every few seconds).
        poll = next(iter(run.auto.values()), 3.0)
        await asyncio.sleep(rng.uniform(0, poll))
        fragment = next(iter(run.auto), "")
        deadline = time.monotonic() + ANSWER_WINDOW + RUN_TIMEOUT
        while True:  # the waiting part's rerun sees the question and reruns the whole page, which shows it
            run, again = await session.steady(fragment=fragment)
            result.reconnects += again
            if run.radios:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the question never reached this phone: {run.texts[-3:]}")
            fragment = next(iter(run.auto), "")
            await asyncio.sleep(poll)
        await asyncio.sleep(rng.uniform(0, ANSWER_WINDOW - poll - 1))
        answers = [rng.randrange(OPTIONS)] + ([rng.randrange(OPTIONS)] if rng.random() < 0.2 else [])
        for n, choice in enumerate(answers):
            if n and rng.random() < 0.5:  # a phone that lost its connection comes back before changing its mind
                await session.close()
                await session.connect()
                result.reconnects += 1
                run, again = await session.steady()
                result.reconnects += again
            radio, shown = next(iter(run.radios.items()))
            state = WidgetState(id=radio)
            state.string_value = shown[choice]  # a radio's value is its option as shown (Streamlit's string_value)
            tapped = time.perf_counter()
            run, again = await session.steady([state], fragment=run.radio_part, auto=False)  # as chromium sends a tap in a part
            result.reconnects += again
            if any("not counted" in text or "未计入" in text for text in run.texts):
                raise RuntimeError("an answer in time was refused")
            result.taps.append((tapped, time.perf_counter()))
            result.choices.append(choice)
    except Exception as error:
        result.error = f"{type(error).__name__}: {error}"[:200]
    finally:
        await session.close()
    return result


async def projector(ws_url: str, code: str, key: str, stop: asyncio.Event) -> list[tuple[float, int, list[int]]]:
    """The teacher's projector: its part reruns itself (as chromium does) and reads the count and the histogram."""
    session = Session(ws_url, urlencode({"join": code, "teacher": key, "lang": "en", "present": "1"}))
    readings = []
    await session.connect()
    run, _ = await session.steady()
    while not stop.is_set():
        fragment, interval = next(iter(run.auto.items()), ("", 1.0))
        await asyncio.sleep(interval)
        run, _ = await session.steady(fragment=fragment)  # its replica may be the one killed: the projector reconnects
        answered = next((int(m.group(1)) for text in run.texts if (m := re.match(r"(\d+) of \d+ answered", text))), None)
        bars = [int(m.group(1)) for text in run.texts if (m := re.search(r": (\d+) \(\d+%\)", text))]
        if answered is not None:
            readings.append((time.perf_counter(), answered, bars))
    await session.close()
    return readings


def kill_one(balancer, after: float) -> None:
    """Kill a replica (SIGKILL) ``after`` seconds into the question, as a crash would; the watcher restarts it."""
    time.sleep(after)
    replica = balancer.replicas[-1]
    if replica.process is not None:
        os.kill(replica.process.pid, signal.SIGKILL)


async def lesson(front: str, database: str, students: int, cookies: bool, seed: int, kill=None) -> dict:
    from classroom import store

    rng = random.Random(seed)
    ws_url = front.replace("http://", "ws://") + "/_stcore/stream"
    db = store.connect(database)
    code, key = store.start_class(db)
    jars = [first_contact(front)[0] if cookies else "" for _ in range(students)]
    opened, stop = asyncio.Event(), asyncio.Event()
    watching = asyncio.create_task(projector(ws_url, code, key, stop))
    phones = []
    for n, jar in enumerate(jars):  # a room joining over a few seconds, not in one instant
        phones.append(asyncio.create_task(phone(ws_url, code, jar, opened, random.Random(rng.random()))))
        if n % 20 == 19:
            await asyncio.sleep(0.5)
    deadline = time.monotonic() + 3 * RUN_TIMEOUT
    found = store.class_by_code(db, code)
    while store.tally(db, found.id).seated < students and time.monotonic() < deadline and not all(p.done() for p in phones):
        await asyncio.sleep(0.5)
    question = store.open_question(db, code, key, ITEM, OPTIONS, CORRECT, live=True)
    began = time.perf_counter()
    opened.set()
    if kill is not None:
        asyncio.get_running_loop().run_in_executor(None, kill, ANSWER_WINDOW / 2)
    finished, late = await asyncio.wait(phones, timeout=6 * RUN_TIMEOUT)
    for task in late:  # a phone still busy after six minutes counts as an error, not as a hung benchmark
        task.cancel()
    done = [task.result() if task in finished else Student(error="still running after the benchmark's time") for task in phones]
    await asyncio.sleep(3.0)  # the projector's next readings
    stop.set()
    readings = await watching
    counts = store.tally(db, found.id).counts.get(question, {})
    db.dispose()
    return {"students": done, "readings": readings, "counts": counts, "began": began}


def report(name: str, result: dict, students: int, goal: tuple[int, float]) -> float:
    """Print what the class measured; returns the p95 from a tap to its acknowledgement (nan when nobody answered)."""
    done, readings, counts = result["students"], result["readings"], result["counts"]
    answered = [s for s in done if s.choices]
    errors = [s.error for s in done if s.error]
    expected: dict[int, int] = {}
    for s in answered:
        expected[s.choices[-1]] = expected.get(s.choices[-1], 0) + 1
    in_db = sum(counts.values())
    lost = sum(max(0, expected.get(c, 0) - counts.get(c, 0)) for c in range(OPTIONS))
    twice = max(0, in_db - len(answered))
    taps = sorted(tap for s in answered for tap in s.taps[:1])  # each student's first answer, in the order acknowledged
    taps.sort(key=lambda t: t[1])
    to_ack = [ack - tap for tap, ack in taps]
    to_projector = []
    for rank, (tap, _) in enumerate(taps, start=1):  # the first reading that counts this many has counted this one
        seen = next((at for at, count, _ in readings if count >= rank), None)
        if seen is not None:
            to_projector.append(seen - tap)
    all_acks = [ack for s in answered for _, ack in s.taps]
    span = max(all_acks) - result["began"] if all_acks else float("nan")
    last = readings[-1][2] if readings else []
    projector_ok = last == [counts.get(c, 0) for c in range(OPTIONS)]
    print(f"\n{name}: {students} students, {len(answered)} answered ({sum(len(s.taps) for s in answered)} answers, "
          f"{sum(s.reconnects for s in done)} reconnects), {len(errors)} errors")
    print(f"  answers per second: {sum(len(s.taps) for s in answered) / span:.1f} over {span:.1f} s")
    if to_ack:
        print(f"  tap -> acknowledged: p50 {percentile(to_ack, 0.5):.2f} s, p95 {percentile(to_ack, 0.95):.2f} s")
    if to_projector:
        p95 = percentile(to_projector, 0.95)
        print(f"  tap -> projector's count: p50 {percentile(to_projector, 0.5):.2f} s, p95 {p95:.2f} s "
              f"(goal {goal[1]:.0f} s for {goal[0]} students: {'met' if p95 <= goal[1] and students >= goal[0] else 'not met'})")
    print(f"  final answers lost: {lost}; counted twice: {twice}; database {in_db} = students who answered {len(answered)}: "
          f"{in_db == len(answered)}")
    print(f"  projector's histogram {last} equals the database's {[counts.get(c, 0) for c in range(OPTIONS)]}: {projector_ok}")
    if errors:
        print("  first error:", errors[0])
    return percentile(to_ack, 0.95) if to_ack else float("nan")


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
    parser.add_argument("--kill", action="store_true", help="kill one replica mid-question")
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    students = max(1, min(args.students, 500))
    print(f"A live class over the websocket protocol; this machine has {os.cpu_count()} cores")
    if args.replicas:
        from scripts.serve import balanced

        with balanced(args.replicas) as balancer:
            database = balancer.replicas[0].database
            kill = (lambda after: kill_one(balancer, after)) if args.kill else None
            result = asyncio.run(lesson(balancer.url, database, students, True, args.seed, kill))
            name = f"nginx + {len(balancer.replicas)} replicas, PostgreSQL" + (", one replica killed mid-question" if args.kill else "")
            ack = report(name, result, students, GOALS[3])
            print(f"  replicas restarted by the watcher: {sum(r.restarts for r in balancer.replicas)}"
                  + (" (one was killed on purpose)" if args.kill else ""))
        floor(students, ack)
        return
    with tempfile.TemporaryDirectory() as folder:
        file = f"{folder}/live-class.sqlite3"
        with serve_process(env={"ATTENTION_CLASS_FILE": file}) as (url, _):
            asyncio.run(lesson(url, f"sqlite:///{file}", 1, False, args.seed))  # the first session imports everything
            result = asyncio.run(lesson(url, f"sqlite:///{file}", students, False, args.seed))
            ack = report("one process, SQLite", result, students, GOALS[1])
    floor(students, ack)


if __name__ == "__main__":
    main()
