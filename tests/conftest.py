"""What the tests share: AppTest helpers (open the app with URL parameters, read its figures, payloads, tables and
downloads), the sample sentences, the real model loaded once per worker, and for the browser tests the server, chromium,
the named screens (``VIEWPORTS``) and ``open_page``."""

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
from tests.fuzz.driver import VIEWPORTS as FUZZED  # noqa: E402 - the project's root is importable from here on

# The screens a browser test opens the app on (Playwright's new_context options), by name: the fuzzer's (a projector,
# 1280 x 720; a phone, 390 x 844, touch, 2 device pixels a pixel; a phone on its side) and a laptop's, 1280 x 900.
VIEWPORTS = {"laptop": {"viewport": {"width": 1280, "height": 900}}, **FUZZED}

SENTENCE = "the cat sat on the mat"  # the sample sentence: six tokens, "the" twice
REAL_SENTENCE = "The animal didn't cross the street because it was too tired."  # the real model's (the ``trace`` fixture)


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


def plotly_array(value: list | dict) -> np.ndarray:
    """One of a trace's data arrays (x, y, z, text...) as the browser receives it: a JSON list, or Plotly's typed-array
    encoding ``{dtype, bdata, shape}`` (what Plotly 6 sends for a NumPy array that went through ``go.Figure``)."""
    if isinstance(value, dict):
        data = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        return data.reshape([int(n) for n in str(shape).split(",")]) if shape else data
    return np.array(value)


def z_values(spec: dict) -> np.ndarray:
    """The heatmap's z matrix, decoding Plotly's typed-array encoding when used."""
    z = spec["data"][0]["z"]
    return plotly_array(z) if isinstance(z, dict) else np.array(z, dtype=float)


def payload(at, key: str = "walk-steps") -> tuple[dict, np.ndarray]:
    """The step component's payload as the browser receives it: (header, float64 values) (views/widgets/steps.py)."""
    from views.widgets.steps import read

    elements = [e for e in at.get("bidi_component") if getattr(e, "key", None) == key]
    assert elements, f"no step component {key!r} on the page"
    return read(elements[0].proto.bytes)


def step_ids(header: dict) -> list[str]:
    return [step["id"] for step in header["steps"]]


def step_matrices(header: dict, step: str, head: int = 1) -> list[str]:
    """The ids of the matrices a step draws for ``head`` (counted from 1), in order."""
    found = []

    def walk(block: dict) -> None:
        if block["type"] in ("row", "column"):  # a row's children; compare mode's side's blocks
            for inner in block.get("children", block.get("blocks", [])):
                walk(inner)
        elif block["type"] == "matrix":
            found.append(f"{block['matrix']}.{min(head, block.get('heads', head))}" if block["per_head"] else block["matrix"])

    for block in next(s for s in header["steps"] if s["id"] == step)["blocks"]:
        walk(block)
    return found


def step_titles(header: dict, step: str, head: int = 1) -> list[str]:
    return [header["matrices"][id_]["title"] for id_ in step_matrices(header, step, head)]


def matrix(header: dict, values: np.ndarray, id_: str) -> np.ndarray:
    from views.widgets.steps import values_of

    return values_of(header, values, id_)


def step_text(header: dict, step: str) -> str:
    """A step's words: its title, explanation and notes (HTML as the browser receives it)."""
    found = next(s for s in header["steps"] if s["id"] == step)
    notes = [b.get("html", "") for b in found["blocks"]] + [b.get("caption", "") for b in found["blocks"]]
    return "\n".join([found["title"], found["body"], *notes])


def all_text(at) -> str:
    """Every markdown, caption, info, warning and error text on the page, joined."""
    parts = []
    for kind in ("markdown", "caption", "info", "warning", "error", "title", "header", "subheader"):
        parts += [str(element.value) for element in at.get(kind)]
    return "\n".join(parts)


def tables(at) -> dict:
    """The named tables on the page (views/widgets/tables.py), by caption, cells as the screen shows them (text)."""
    from html.parser import HTMLParser

    import pandas as pd

    class Reader(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.caption, self.rows, self.cell, self.inside = "", [], None, None

        def handle_starttag(self, tag, attrs):
            if tag == "caption":
                self.inside = "caption"
            elif tag == "tr":
                self.rows.append([])
            elif tag in ("th", "td"):
                self.cell = ""

        def handle_endtag(self, tag):
            if tag == "caption":
                self.inside = None
            elif tag in ("th", "td"):
                self.rows[-1].append(self.cell)
                self.cell = None

        def handle_data(self, data):
            if self.inside == "caption":
                self.caption += data
            elif self.cell is not None:
                self.cell += data

    found = {}
    for element in at.get("html"):
        if 'class="named-table"' in element.proto.body:
            reader = Reader()
            reader.feed(element.proto.body)
            found[reader.caption] = pd.DataFrame(reader.rows[1:], columns=reader.rows[0])
    return found


@pytest.fixture
def app():
    return open_app


@pytest.fixture
def downloads(monkeypatch):
    """What a page's download button gives the student who clicks it: ``downloads(button)`` -> its data (str or bytes).

    AppTest's runtime keeps a run's files only while the run lasts, so the files are kept here as the page registers
    them (Streamlit's media file manager, not public API): data given at once, by its URL; data made on the click (a
    callable, a deferred download), by the button's file id, made here as the click would make it."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    made: dict[str, object] = {}
    add, add_deferred = MediaFileManager.add, MediaFileManager.add_deferred

    def keep(self, path_or_data, *args, **kwargs):
        url = add(self, path_or_data, *args, **kwargs)
        made[url] = path_or_data
        return url

    def keep_deferred(self, data_callable, *args, **kwargs):
        file_id = add_deferred(self, data_callable, *args, **kwargs)
        made[file_id] = data_callable
        return file_id

    monkeypatch.setattr(MediaFileManager, "add", keep)
    monkeypatch.setattr(MediaFileManager, "add_deferred", keep_deferred)

    def data(button) -> str | bytes:
        proto = button.proto
        if proto.HasField("deferred_file_id"):
            return made[proto.deferred_file_id]()
        return made[proto.url]

    return data


@pytest.fixture(scope="session")
def model():
    """The real model (all-MiniLM-L6-v2 in NumPy), loaded once per worker for every test that compares with it."""
    from attention_core.pretrained import MiniLM

    return MiniLM.load()


@pytest.fixture(scope="session")
def trace(model):
    """The real model's run of ``REAL_SENTENCE``."""
    return model.run(REAL_SENTENCE)


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


@pytest.fixture
def open_page(request, chromium):
    """``open_page(path, layout="projector", **options)``: a page of the app in a browser of its own (a new context: no
    cookie, cache or sidebar of another test) on the screen ``VIEWPORTS[layout]`` (laptop, projector, phone,
    landscape), ``options`` added to or replacing its Playwright context options (locale, reduced_motion, a viewport of
    its own...). ``path`` is the app's ("/", "/types?section=modes"; the module's server, ``app_url``), a whole address
    (another server, or a link copied from another page), or None to open nothing yet. Every context opened is closed
    after the test."""
    contexts = []

    def open_(path: str | None = "/", layout: str = "projector", **options):
        context = chromium.new_context(**(VIEWPORTS[layout] | options))
        contexts.append(context)
        page = context.new_page()
        if path is not None:
            page.goto(path if path.startswith(("http://", "https://")) else request.getfixturevalue("app_url") + path)
        return page

    yield open_
    for context in contexts:
        context.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test that fails runs once more (pytest-rerunfailures): chromium's timing under a loaded CI machine can
    miss an event once; the summary still counts every rerun (R), so a test that fails twice, or often, stays visible."""
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.flaky(reruns=1))
