"""The browser fuzzer over every page, for a fixed budget: ``FUZZ_MINUTES`` (half a minute in ``make test``; ``make fuzz``
runs 30). One example per batch, so the budget is overrun by one example at most.

Seeded: the same budget explores the same sequences on the same machine (``FUZZ_SEED`` starts elsewhere). A failure is
shrunk by Hypothesis and saved in ``tests/fuzz/regressions/`` (``test_regressions.py`` replays every file there).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, seed, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.fuzz import machine
from tests.fuzz.driver import save

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-2")]
REGRESSIONS = Path(__file__).resolve().parent / "regressions"
STEPS = 12  # actions per example at most (6 for a budget under a minute: an example overruns it by at most that)


def test_a_student_never_breaks_the_app(fuzz_browser, fuzz_server):
    machine.RESOURCES.update(browser=fuzz_browser, server=fuzz_server)
    minutes = float(os.environ.get("FUZZ_MINUTES", "0.5"))
    first = int(os.environ.get("FUZZ_SEED", "2112"))
    deadline = time.monotonic() + 60 * minutes
    batch = first
    options = settings(max_examples=1, stateful_step_count=STEPS if minutes >= 1 else STEPS // 2, deadline=None, database=None, print_blob=False,
                       suppress_health_check=list(HealthCheck))
    try:
        while time.monotonic() < deadline:
            run_state_machine_as_test(seed(batch)(machine.Lesson), settings=options)
            batch += 1
    except BaseException as error:
        viewport, steps = machine.LAST
        path = save(REGRESSIONS, viewport, steps, str(error))
        raise AssertionError(f"the fuzzer broke the app; the shrunk sequence is saved in {path}") from error
    finally:
        print(f"\nfuzzer: {machine.COUNTS['actions']} actions in {machine.COUNTS['examples']} examples, seeds {first}..{batch}")
