"""One real server (its log read after every action) and one Debian chromium per test module: a sync Playwright left open
would make every later sync Playwright in the same worker fail ("Sync API inside the asyncio loop")."""

from __future__ import annotations

import os

import pytest

from scripts.browser import CHROMIUM, MISSING_CHROMIUM, browser
from tests.fuzz.driver import server


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(MISSING_CHROMIUM)
    with server(tmp_path_factory.mktemp("fuzz") / "server.log") as running:
        yield running


@pytest.fixture(scope="module")
def fuzz_browser():
    with browser() as instance:
        yield instance
