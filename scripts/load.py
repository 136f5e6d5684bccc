"""make load: a classroom of N students opening the teacher's link at once, then moving a slider.

Each student is a real Streamlit session over the app's own websocket protocol (the BackMsg /
ForwardMsg protobufs the browser sends), on 127.0.0.1 only. With ``--replicas n`` the class goes
through nginx in front of n app processes (scripts/serve.py), as browsers do: each student first
loads the page, keeps the cookie nginx sets, and opens the websocket with it. Reported: p50 / p95 of the time
until each session's run completes, errors, and the server's memory; and the same for the floor,
a bare Streamlit script with one slider, under the same load. Every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402  (installed with streamlit)
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from scripts.browser import serve_process  # noqa: E402
from views.widgets.steps import MAGIC, read  # noqa: E402

SLIDER = "d_k (size of each query and key)"
LINK = "text=the+cat+sat+on+the+mat&d_model=8&d_k=4&heads=1&step=2"
BARE = f"""import streamlit as st
d_k = st.slider({SLIDER!r}, 1, 128, 4)
st.write("d_k =", d_k)
"""
RUN_TIMEOUT = 60.0  # seconds allowed for one run before the session counts as an error
# Streamlit's defaults, which .streamlit/config.toml turns off for production (see the comments there).
DEFAULTS = ("--runner.postScriptGC", "true", "--server.fileWatcherType", "auto")


@dataclass
class Student:
    """What one session measured."""

    replica: str = ""  # which app process served it (through the balancer)
    open_s: float = 0.0
    rerun_s: float = 0.0
    error: str = ""
    texts: list[str] = field(default_factory=list)


def rerun_message(query: str, widgets: list[WidgetState], page: str = "") -> bytes:
    msg = BackMsg()
    msg.rerun_script.query_string = query
    msg.rerun_script.page_name = page  # the URL path of a page ("" for the default page)
    msg.rerun_script.widget_states.widgets.extend(widgets)
    return msg.SerializeToString()


async def run_until_finished(ws, student: Student, timeout: float = RUN_TIMEOUT) -> dict[str, str]:
    """Read ForwardMsgs until the script run finishes; return slider and button labels -> widget ids seen."""
    widgets: dict[str, str] = {}
    while True:
        msg = ForwardMsg()
        msg.ParseFromString(await asyncio.wait_for(ws.recv(), timeout))
        kind = msg.WhichOneof("type")
        if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            which = element.WhichOneof("type")
            if which in ("slider", "button"):
                widgets[getattr(element, which).label] = getattr(element, which).id
            elif which == "exception":
                raise RuntimeError(f"app exception: {element.exception.message}")
            elif which == "markdown":
                student.texts.append(element.markdown.body)
            elif which == "alert":
                student.texts.append(element.alert.body)
            elif which == "bidi_component" and element.bidi_component.bytes[:4] == MAGIC:  # the step component's payload
                header, _ = read(element.bidi_component.bytes)
                student.texts.extend(step.get("title", "") for step in header.get("steps", []))
        elif kind == "script_finished":
            return widgets


def first_contact(base_url: str) -> tuple[str, str]:
    """Load the page as a browser does first: the balancer's cookie (empty without one) and the replica that answered."""
    import urllib.request

    with urllib.request.urlopen(f"{base_url}/", timeout=RUN_TIMEOUT) as response:
        cookie = (response.headers.get("Set-Cookie") or "").split(";")[0]
        return cookie, response.headers.get("X-Replica", "")


async def student(ws_url: str, query: str, start: asyncio.Event, moved: asyncio.Barrier, cookie: str = "") -> Student:
    """Open the link, wait for everyone, then move the d_k slider from 4 to 5."""
    result = Student()
    headers = {"Cookie": cookie} if cookie else None
    try:
        async with websockets.connect(ws_url, subprotocols=["streamlit"], max_size=None, open_timeout=RUN_TIMEOUT,
                                      additional_headers=headers) as ws:
            result.replica = ws.response.headers.get("X-Replica", "")
            await start.wait()
            began = time.perf_counter()
            await ws.send(rerun_message(query, []))
            sliders = await run_until_finished(ws, result)
            result.open_s = time.perf_counter() - began
            await moved.wait()  # everyone moves the slider at once
            state = WidgetState(id=sliders[SLIDER])
            state.double_array_value.data.append(5)
            began = time.perf_counter()
            await ws.send(rerun_message(query, [state]))
            await run_until_finished(ws, result)
            result.rerun_s = time.perf_counter() - began
    except Exception as error:
        result.error = f"{type(error).__name__}: {error}"[:200]
    return result


async def classroom(base_url: str, sessions: int, query: str, cookies: bool = False) -> list[Student]:
    """``sessions`` students at once; with ``cookies``, each first loads the page for the balancer's cookie."""
    ws_url = base_url.replace("http://", "ws://") + "/_stcore/stream"
    start, moved = asyncio.Event(), asyncio.Barrier(sessions)
    jars = [first_contact(base_url)[0] if cookies else "" for _ in range(sessions)]
    tasks = [asyncio.create_task(student(ws_url, query, start, moved, jar)) for jar in jars]
    await asyncio.sleep(0.5)  # every websocket connected
    start.set()
    return await asyncio.wait_for(asyncio.gather(*tasks), timeout=RUN_TIMEOUT * 3)


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def measure(script: str, sessions: int, query: str, warm_model: bool = False, options: tuple[str, ...] = ()) -> dict[str, float]:
    """Start a server, warm it with one session, run the classroom, and summarise."""
    with serve_process(script, options=options) as (url, pid):
        if warm_model:  # load the pretrained model too, as a teacher showing the Real model page would
            asyncio.run(classroom(url, 1, LINK + "&walk=pretrained"))
        asyncio.run(classroom(url, 1, query))  # the first session imports everything
        students = asyncio.run(classroom(url, sessions, query))
        memory = rss_mb(pid)
    return summary(students, sessions, memory)


def measure_balanced(replicas: int, sessions: int, query: str) -> dict[str, float]:
    """The same classroom through nginx in front of ``replicas`` app processes (scripts/serve.py)."""
    from scripts.serve import balanced

    with balanced(replicas) as balancer:
        for replica in balancer.replicas:  # warm each replica directly: its first session imports everything
            asyncio.run(classroom(f"http://127.0.0.1:{replica.port}", 1, query))
        students = asyncio.run(classroom(balancer.url, sessions, query, cookies=True))
        memory = max(rss_mb(pid) for pid in balancer.pids())
    result = summary(students, sessions, memory)
    result["replicas"] = {replica: sum(s.replica == replica for s in students) for replica in sorted({s.replica for s in students})}
    return result


def summary(students: list[Student], sessions: int, memory: float) -> dict[str, float]:
    ok = [s for s in students if not s.error]
    errors = [s.error for s in students if s.error]
    if not ok:
        raise SystemExit(f"every session failed: {errors[:3]}")
    return {
        "sessions": sessions, "errors": len(errors), "open_p50": statistics.median(s.open_s for s in ok),
        "open_p95": percentile([s.open_s for s in ok], 0.95), "rerun_p50": statistics.median(s.rerun_s for s in ok),
        "rerun_p95": percentile([s.rerun_s for s in ok], 0.95), "memory_mb": memory,
        "redrawn": sum(any("Queries, keys and values" in t for t in s.texts) for s in ok), "first_error": errors[0] if errors else "",
    }


TRAINING = "section=train&task=induction&heads=4&d_k=32&steps=2000"  # d_model 128, 2 layers: a long training (time-capped)
LEARN_PAGE = "watch-it-learn"


async def trainer(ws_url: str, started: asyncio.Event) -> Student:
    """A student pressing Train on "Watch it learn", waiting for the training to finish (or to be refused)."""
    result = Student()
    try:
        async with websockets.connect(ws_url, subprotocols=["streamlit"], max_size=None, open_timeout=RUN_TIMEOUT) as ws:
            await ws.send(rerun_message(TRAINING, [], LEARN_PAGE))
            widgets = await run_until_finished(ws, result)
            click = WidgetState(id=widgets["Train"], trigger_value=True)
            began = time.perf_counter()
            await ws.send(rerun_message(TRAINING, [click], LEARN_PAGE))
            started.set()
            await run_until_finished(ws, result, timeout=4 * RUN_TIMEOUT)
            result.rerun_s = time.perf_counter() - began
    except Exception as error:
        result.error = f"{type(error).__name__}: {error}"[:200]
    finally:
        started.set()
    return result


async def classroom_while_training(url: str, sessions: int, trainings: int) -> tuple[list[Student], list[Student]]:
    ws_url = url.replace("http://", "ws://") + "/_stcore/stream"
    started = [asyncio.Event() for _ in range(trainings)]
    trainers = [asyncio.create_task(trainer(ws_url, event)) for event in started]
    await asyncio.wait_for(asyncio.gather(*(event.wait() for event in started)), RUN_TIMEOUT)
    await asyncio.sleep(2.0)  # the trainings are running in their workers
    students = await classroom(url, sessions, LINK)
    return students, await asyncio.gather(*trainers)


def main_trainings(sessions: int, trainings: int) -> None:
    """The classroom on one server, first alone, then while ``trainings`` students train on "Watch it learn"."""
    with serve_process("app.py") as (url, pid):
        asyncio.run(classroom(url, 1, LINK))
        alone = summary(asyncio.run(classroom(url, sessions, LINK)), sessions, rss_mb(pid))
        students, trainers = asyncio.run(classroom_while_training(url, sessions, trainings))
        during = summary(students, sessions, rss_mb(pid))
    print(f"{sessions} students open the link and move a slider; times in seconds; {os.cpu_count()} cores")
    print(f"{'':34}{'open p50':>9}{'open p95':>9}{'rerun p50':>10}{'rerun p95':>10}{'errors':>7}")
    for name, r in (("alone", alone), (f"while {trainings} trainings run", during)):
        print(f"{name:34}{r['open_p50']:>9.2f}{r['open_p95']:>9.2f}{r['rerun_p50']:>10.2f}{r['rerun_p95']:>10.2f}{r['errors']:>7}")
    print(f"rerun p95 while training / alone = {during['rerun_p95'] / alone['rerun_p95']:.2f}")
    for i, t in enumerate(trainers, 1):
        queued = any("already running" in text for text in t.texts)
        done = next((text for text in t.texts if text.startswith("Trained")), "")
        print(f"training {i}: {t.rerun_s:.1f} s{' (queued first)' if queued else ''}; {done[:90] or t.error or 'no result'}")


def main_balanced(sessions: int, replicas: int) -> None:
    """One process beside n replicas behind nginx, each with the same classroom."""
    results = {"one process": measure("app.py", sessions, LINK), f"nginx + {replicas} replicas": measure_balanced(replicas, sessions, LINK)}
    print(f"{sessions} concurrent sessions, each: load the page, open the shared link, then move the d_k slider (all at once); "
          "times in seconds")
    print(f"{'':22}{'open p50':>9}{'open p95':>9}{'rerun p50':>10}{'rerun p95':>10}{'errors':>7}{'memory':>13}")
    for name, r in results.items():
        print(f"{name:22}{r['open_p50']:>9.2f}{r['open_p95']:>9.2f}{r['rerun_p50']:>10.2f}{r['rerun_p95']:>10.2f}"
              f"{r['errors']:>7}{r['memory_mb']:>6.0f} MB each")
    balanced_result = results[f"nginx + {replicas} replicas"]
    print("sessions per replica:", ", ".join(f"{k}: {v}" for k, v in balanced_result["replicas"].items()))
    ratio = balanced_result["rerun_p95"] / results["one process"]["rerun_p95"]
    print(f"rerun p95 through the balancer / one process = {ratio:.2f} (this machine has {os.cpu_count()} cores)")
    for r in results.values():
        if r["first_error"]:
            print("first error:", r["first_error"])


BARE_STEPS = """import streamlit as st
step = st.session_state.setdefault("step", 3)
def move(by):
    st.session_state.step += by
st.button("Previous", on_click=move, args=(-1,), key="previous")
st.markdown(f"**Step {step}**")
st.button("Next", on_click=move, args=(1,), key="next")
"""
NEXT_LINK = "text=the+cat+sat+on+the+mat&heads=2&step=2"


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def next_burst(script: str, query: str, students: int, presses: int, next_button: str) -> dict:
    """``students`` browser tabs (one session each) open the page, then each presses Next ``presses`` times, all at once:
    the server's CPU time during the burst, per press, and the websocket messages the tabs sent."""
    from scripts.browser import browser

    with serve_process(script) as (url, pid), browser() as chromium:
        context = chromium.new_context(viewport={"width": 1280, "height": 720})
        pages, sent = [], [0]
        for _ in range(students):
            page = context.new_page()
            page.on("websocket", lambda ws: ws.on("framesent", lambda _: sent.__setitem__(0, sent[0] + 1)))
            page.goto(f"{url}/?{query}")
            pages.append(page)
        for page in pages:
            page.locator(next_button).first.wait_for(timeout=60_000)
        time.sleep(3.0)  # every session's first run is over
        sent[0], before, began = 0, cpu_seconds(pid), time.perf_counter()
        for round_ in range(presses):
            for page in pages:  # each tab's press, as fast as a class of hands
                page.evaluate("(selector) => { const find = (root) => root.querySelector(selector) || [...root.querySelectorAll("
                              "'[data-testid=stBidiComponentIsolated]')].map(h => h.shadowRoot && h.shadowRoot.querySelector(selector))"
                              ".find(Boolean); const b = find(document); if (b) b.click(); }", next_button if round_ % 2 == 0 else
                              next_button.replace("next", "previous").replace("Next", "Previous"))
        time.sleep(3.0)  # what the presses started on the server has ended
        spent = cpu_seconds(pid) - before  # the server's own idle ticks are part of it, and counted
        wall = time.perf_counter() - began
        context.close()
    total = students * presses
    return {"cpu_ms_per_press": spent * 1000 / total, "frames_per_press": sent[0] / total, "cpu_s": spent, "wall_s": wall, "presses": total}


def main_next_burst(students: int, presses: int = 6) -> None:
    """``make load NEXT=1``: a class pressing Next at once on the walkthrough, beside a bare Streamlit page whose Next is a
    button (a server round trip per press, as the walkthrough was)."""
    with tempfile.TemporaryDirectory() as folder:
        bare = str(Path(folder) / "steps.py")
        Path(bare).write_text(BARE_STEPS)
        floor = next_burst(bare, "", students, presses, ".st-key-next button")
    app = next_burst("app.py", NEXT_LINK, students, presses, ".nav.next")
    print(f"{students} students (browser tabs, a session each) press Next / Previous {presses} times each, all at once")
    print(f"{'':36}{'presses':>8}{'server CPU':>12}{'CPU per press':>15}{'messages per press':>20}")
    for name, r in (("floor: Streamlit button, 1 rerun each", floor), ("walkthrough: the step component", app)):
        print(f"{name:36}{r['presses']:>8}{r['cpu_s']:>10.2f} s{r['cpu_ms_per_press']:>12.2f} ms{r['frames_per_press']:>20.2f}")
    print("The walkthrough's Next sends nothing to the server: the server's CPU per press is its idle time over the burst "
          f"({app['wall_s']:.1f} s), not work done for a press.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--replicas", type=int, default=0, help="through nginx in front of this many app processes (0: no balancer)")
    parser.add_argument("--trainings", type=int, default=0, help="measure the class while this many students train on Watch it learn")
    parser.add_argument("--next-burst", action="store_true", help="a class pressing Next at once, in browser tabs")
    args = parser.parse_args()
    sessions = max(1, min(args.sessions, 200))
    if args.next_burst:
        return main_next_burst(sessions)
    if args.trainings:
        return main_trainings(sessions, max(1, min(args.trainings, 8)))
    if args.replicas:
        main_balanced(sessions, max(1, min(args.replicas, 16)))
        return
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        bare = str(Path(folder) / "bare.py")
        Path(bare).write_text(BARE)
        results["floor, Streamlit defaults"] = measure(bare, sessions, "", options=DEFAULTS)
        results["floor, production config"] = measure(bare, sessions, "")
    results["app, Streamlit defaults"] = measure("app.py", sessions, LINK, warm_model=True, options=DEFAULTS)
    results["app, production config"] = app = measure("app.py", sessions, LINK, warm_model=True)
    print(f"{sessions} concurrent sessions, each: open the shared link, then move the d_k slider (all at once); times in seconds")
    print(f"{'':28}{'open p50':>9}{'open p95':>9}{'rerun p50':>10}{'rerun p95':>10}{'errors':>7}{'memory':>9}")
    for name, r in results.items():
        print(f"{name:28}{r['open_p50']:>9.2f}{r['open_p95']:>9.2f}{r['rerun_p50']:>10.2f}{r['rerun_p95']:>10.2f}"
              f"{r['errors']:>7}{r['memory_mb']:>6.0f} MB")
    for config in ("Streamlit defaults", "production config"):
        ratio = results[f"app, {config}"]["rerun_p95"] / results[f"floor, {config}"]["rerun_p95"]
        print(f"{config}: app rerun p95 / floor rerun p95 = {ratio:.2f} (budget 3.0)")
    print(f"server memory with the model loaded: {app['memory_mb']:.0f} MB (budget 500 MB); errors: {app['errors']}")
    for r in results.values():
        if r["first_error"]:
            print("first error:", r["first_error"])


if __name__ == "__main__":
    main()
