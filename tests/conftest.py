"""Shared helpers for AppTest: open the app with URL parameters, read its figures."""

from __future__ import annotations

import base64
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Live classes made by the tests go to a database of this test process, never to the project's var/.
os.environ.setdefault("ATTENTION_CLASS_FILE", f"{tempfile.mkdtemp(prefix='attention-tests-')}/live-class.sqlite3")


def open_app(page: str = "walkthrough", **params: object):
    """Run the app opened on ``page`` (a registry id) with these URL parameters; fail on any exception."""
    from scripts.apptest import app_test

    at = app_test(page, **{name: str(value) for name, value in params.items()})
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def figures(at) -> list[dict]:
    """The Plotly figures on the page, as the JSON the browser receives."""
    return [json.loads(element.proto.spec) for element in at.get("plotly_chart")]


def figure_titles(at) -> list[str]:
    return [spec["layout"]["title"]["text"] for spec in figures(at)]


def z_values(spec: dict) -> np.ndarray:
    """The heatmap's z matrix, decoding Plotly's typed-array encoding when used."""
    z = spec["data"][0]["z"]
    if isinstance(z, dict):
        data = np.frombuffer(base64.b64decode(z["bdata"]), dtype=np.dtype(z["dtype"]))
        shape = z.get("shape")
        return data.reshape([int(n) for n in str(shape).split(",")]) if shape else data
    return np.array(z, dtype=float)


def all_text(at) -> str:
    """Every markdown, caption, info, warning and error text on the page, joined."""
    parts = []
    for kind in ("markdown", "caption", "info", "warning", "error", "title", "subheader"):
        parts += [str(element.value) for element in at.get(kind)]
    return "\n".join(parts)


@pytest.fixture
def app():
    return open_app


# The browser tests' server and chromium, one per test module: a sync Playwright left open past its module would make
# every later sync Playwright in the same xdist worker fail ("Sync API inside the asyncio loop").
@pytest.fixture(scope="module")
def app_url():
    from scripts.browser import CHROMIUM, MISSING_CHROMIUM, serve

    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(MISSING_CHROMIUM)
    with serve() as url:
        yield url


@pytest.fixture(scope="module")
def chromium():
    from scripts.browser import browser

    with browser() as instance:
        yield instance


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test that fails runs once more (pytest-rerunfailures): chromium's timing under a loaded CI machine can
    miss an event once; the summary still counts every rerun (R), so a test that fails twice, or often, stays visible."""
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.flaky(reruns=1))
