"""make profile: where a loaded server's time goes, sampled with py-spy (no code changes, no AppTest).

Starts the app on a free local port, attaches ``py-spy record`` to it, and drives it with classrooms
of students (scripts/load.py: open the shared link, then everybody moves d_k). Prints the share of
the server's busy samples spent inside each part of a rerun, and the hottest functions; writes the
collapsed stacks (py-spy's raw format, for speedscope or flamegraph.pl) to --out. Usage: ``python scripts/profile.py [--rounds 6]``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.browser import serve_process  # noqa: E402
from scripts.load import LINK, classroom  # noqa: E402

# Parts of a rerun, recognised by a frame on the stack (the first entry that matches, from the top, wins).
PARTS = (
    ("Plotly: figure -> dict -> JSON, in st.plotly_chart", ("plotly_chart.py", "plotly_chart")),
    ("Plotly figures built (cache misses)", ("(attention_plot/figures.py", "")),
    ("the core's NumPy (cache misses)", ("(attention_core/", "")),
    ("st.cache_* keys: signatures, hashing arguments", ("caching/cache_utils.py", "_make_value_key")),
    ("element ids hashed (widgets)", ("elements/lib/utils.py", "compute_and_register_element_id")),
    ("elements handed to the event loop", ("script_runner.py", "_enqueue_forward_msg")),
    ("pandas tables", ("(pandas/", "")),
    ("texts: TOML lookups, formatting", ("(attention_plot/text.py", "")),
    ("threadpoolctl: BLAS threads limited", ("(threadpoolctl.py", "")),
    ("session state, link, notices", ("(views/shell/state.py", "")),
    ("other app code (app.py, pages/, views/)", ("(views/", "")),
    ("other app code (app.py, pages/, views/)", ("(app.py", "")),
    ("script runner: session state, widgets, rerun bookkeeping", ("(streamlit/runtime/scriptrunner", "")),
    ("event loop: messages serialised and sent (tornado, protobuf)", ("(streamlit/", "")),
    ("event loop: messages serialised and sent (tornado, protobuf)", ("(tornado/", "")),
)
OURS = ("(app.py", "(views/", "(attention_core/")


def part_of(stack: str) -> str:
    frames = stack.split(";")
    for name, (path, function) in PARTS:
        if any(path in frame and function in frame for frame in frames):
            return name
    return "other (asyncio, Python)"


def leaf(stack: str) -> str:
    """The innermost frame, without the line number: ``function (file)``."""
    frame = stack.rsplit(";", 1)[-1]
    return frame.rsplit(":", 1)[0] if frame.count(":") else frame


def ours(stack: str) -> set[str]:
    """Our functions on the stack (app.py, views/, the core), each once: for cumulative time."""
    return {frame.rsplit(":", 1)[0] + ")" for frame in stack.split(";") if any(o in frame for o in OURS)}


def summarise(raw: Path, top: int = 15) -> None:
    parts: collections.Counter[str] = collections.Counter()
    leaves: collections.Counter[str] = collections.Counter()
    cumulative: collections.Counter[str] = collections.Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack.strip():
            continue
        n = int(count)
        total += n
        parts[part_of(stack)] += n
        leaves[leaf(stack)] += n
        for function in ours(stack):
            cumulative[function] += n
    print(f"{total} samples of the server holding the GIL (100 Hz)")
    print("\nwhere the time goes:")
    for name, n in parts.most_common():
        print(f"  {100 * n / total:5.1f} %  {name}")
    print(f"\nthe app's functions, cumulative (top {top}):")
    for name, n in cumulative.most_common(top):
        print(f"  {100 * n / total:5.1f} %  {name}")
    print(f"\nhottest {top} functions (self time):")
    for name, n in leaves.most_common(top):
        print(f"  {100 * n / total:5.1f} %  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=6, help="classrooms, one after another")
    parser.add_argument("--sessions", type=int, default=15, help="students per classroom")
    parser.add_argument("--query", default=LINK, help="the link every student opens")
    parser.add_argument("--out", default="/tmp/attention-profile")
    args = parser.parse_args()
    spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if spy is None:
        raise SystemExit("py-spy is not installed: pip install -r requirements-dev.txt")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with serve_process("app.py") as (url, pid):
        asyncio.run(classroom(url, 1, args.query))  # imports and caches warmed, as on a server already in use
        raw = out / "stacks.txt"
        record = subprocess.Popen([spy, "record", "--pid", str(pid), "--gil", "--format", "raw", "--output", str(raw),
                                   "--rate", "100", "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(1.0)
        began = time.perf_counter()
        for _ in range(max(1, min(args.rounds, 50))):
            students = asyncio.run(classroom(url, max(1, min(args.sessions, 100)), args.query))
            errors = [s.error for s in students if s.error]
            if errors:
                print("errors:", errors[:3])
        print(f"{args.rounds} classrooms of {args.sessions} in {time.perf_counter() - began:.1f} s")
        record.send_signal(2)  # SIGINT: py-spy writes its output and stops
        record.wait(timeout=60)
    summarise(raw)
    print(f"\ncollapsed stacks: {raw}")


if __name__ == "__main__":
    main()
