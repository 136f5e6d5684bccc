"""Every sequence the fuzzer found (or a person reported), replayed with every invariant checked after each action."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fuzz.driver import replay

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-2")]
FILES = sorted((Path(__file__).resolve().parent / "regressions").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_sequence_that_once_broke_the_app(fuzz_browser, fuzz_server, path):
    saved = json.loads(path.read_text(encoding="utf-8"))
    replay(fuzz_browser, fuzz_server, saved["viewport"], saved["steps"])
