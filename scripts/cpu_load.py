"""Run a command while other processes load the CPU: how the app behaves on a busy school laptop or a loaded CI machine.

    .venv/bin/python scripts/cpu_load.py -- .venv/bin/python scripts/axe_scan.py --rounds 10
    .venv/bin/python scripts/cpu_load.py --workers 2 -- .venv/bin/python -m pytest tests/test_browser_app.py -k far_down

Each worker is a process that spins without pause (``os.nice(5)``: the command still gets the larger share, as a
browser on a busy machine does). The workers stop when the command ends; its exit code is this script's.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator


def _spin() -> None:
    os.nice(5)
    while True:
        pass


@contextlib.contextmanager
def busy(workers: int = 1) -> Iterator[None]:
    """``workers`` processes spinning on the CPU while the block runs."""
    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(workers)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()
        for spinner in spinners:
            spinner.join(timeout=5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1, help="processes that load the CPU (default 1)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("a command to run, after --")
    with busy(args.workers):
        return subprocess.call(command)


if __name__ == "__main__":
    sys.exit(main())
