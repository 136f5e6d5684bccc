"""Start the app on a free local port and drive Debian's chromium with Playwright (no browser download)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]
MISSING_CHROMIUM = f"Browser tests need Debian's chromium at {CHROMIUM}: run 'apt-get install -y chromium'."


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serve(script: str = "app.py", timeout: float = 60.0, env: dict | None = None) -> Iterator[str]:
    """Run ``streamlit run script`` on 127.0.0.1 and a free port (``env``: extra environment); yield its base URL."""
    with serve_process(script, timeout, env=env) as (url, _):
        yield url


@contextlib.contextmanager
def serve_process(script: str = "app.py", timeout: float = 60.0, options: tuple[str, ...] = (),
                  log: Path | None = None, env: dict | None = None) -> Iterator[tuple[str, int]]:
    """Like ``serve``, yielding (base URL, server process id); ``options`` are extra ``--section.name value`` flags;
    the server's messages go to ``log`` when given."""
    port = free_port()
    command = [sys.executable, str(ROOT / "scripts" / "run.py"), script, "--server.port", str(port), "--server.address", "127.0.0.1",
               "--server.headless", "true", "--browser.gatherUsageStats", "false", *options]
    errors = open(log, "w") if log else subprocess.PIPE  # noqa: SIM115 - closed with the process below
    scratch = tempfile.mkdtemp(prefix="attention-class-")  # a test's live classes in a database of its own
    environment = {**os.environ, "ATTENTION_CLASS_FILE": f"{scratch}/live-class.sqlite3", **(env or {})}
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=errors, env=environment)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    said = log.read_text() if log else process.stderr.read().decode()
                    raise RuntimeError(f"the app did not start: {said[-2000:]}") from None
                time.sleep(0.2)
        yield url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        if log:
            errors.close()
        shutil.rmtree(scratch, ignore_errors=True)


class Restartable:
    """The app on a port of its own that a test can kill and start again on the same port (a server restarted under a
    class: the tabs open on it reconnect by themselves). ``url`` is its base URL."""

    def __init__(self, script: str = "app.py") -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.command = [sys.executable, str(ROOT / "scripts" / "run.py"), script, "--server.port", str(self.port),
                        "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"]
        self.scratch = tempfile.mkdtemp(prefix="attention-class-")
        self.env = {**os.environ, "ATTENTION_CLASS_FILE": f"{self.scratch}/live-class.sqlite3"}
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60.0) -> None:
        self.process = subprocess.Popen(self.command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self.env)
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2):
                    return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the app did not start") from None
                time.sleep(0.2)

    def kill(self) -> None:
        """Killed at once (kill -9): no goodbye to the tabs."""
        if self.process:
            self.process.kill()
            self.process.wait()
            self.process = None

    def restart(self) -> None:
        self.kill()
        self.start()

    def __enter__(self) -> Restartable:
        self.start()
        return self

    def __exit__(self, *_) -> None:
        self.kill()
        shutil.rmtree(self.scratch, ignore_errors=True)


@contextlib.contextmanager
def browser() -> Iterator[object]:
    """A headless Debian chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    if not os.access(CHROMIUM, os.X_OK):
        raise RuntimeError(MISSING_CHROMIUM)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


HEATMAP_JS = """(index) => {
  const plots = [...document.querySelectorAll('[data-testid=stPlotlyChart]')];
  const box = plots[index];
  const plot = box && box.querySelector('.js-plotly-plot');
  // Charts are drawn when they come near the screen: bring a waiting one there.
  if (box && (!(plot && plot.calcdata) || box.querySelector('[data-waiting]'))) box.scrollIntoView({block: 'center'});
  if (!plot || !plot.calcdata) return null;
  // A chart being redrawn may hold no heatmap for a moment: wait for it rather than fail.
  const z = plot.calcdata[0] && plot.calcdata[0][0] && plot.calcdata[0][0].z;
  if (!z || !z.length || !z[0] || !plot.layout || !plot.layout.xaxis) return null;
  const title = (plot.layout.title && plot.layout.title.text) || '';
  if (!plot.layout.xaxis.ticktext) return {rows: z.length, cols: z[0].length, first: z[0][0], x: [], y: [], title, count: plots.length};
  return {rows: z.length, cols: z[0].length, first: z[0][0], x: [...plot.layout.xaxis.ticktext], y: [...plot.layout.yaxis.ticktext],
          title, count: plots.length};
}"""


def draw_charts(page, timeout_ms: int = 45000) -> int:
    """Scroll to each chart of the main area in turn until it is drawn (charts are drawn near the screen); return how many."""
    boxes = page.locator("[data-testid=stMain] [data-testid=stPlotlyChart]")
    boxes.first.wait_for(state="attached", timeout=timeout_ms)
    for i in range(boxes.count()):
        boxes.nth(i).scroll_into_view_if_needed()
        boxes.nth(i).locator(".js-plotly-plot .main-svg").first.wait_for(state="attached", timeout=timeout_ms)
    return boxes.count()


def heatmap(page, index: int = 0) -> dict | None:
    """Rows, columns, tick labels and title of the index-th heatmap as the browser drew it."""
    return page.evaluate(HEATMAP_JS, index)


def wait_for_heatmap(page, index: int, check, timeout_ms: int = 45000) -> dict:
    """Wait until the index-th heatmap satisfies ``check`` (a JS predicate body on `h`); return it."""
    handle = page.wait_for_function(f"(index) => {{ const h = ({HEATMAP_JS})(index); return h && ({check}) ? h : null; }}",
                                    arg=index, timeout=timeout_ms)
    return handle.json_value()  # the heatmap that satisfied the check (it may be redrawn again a moment later)


# --- The step component (views/widgets/steps.py, assets/components/steps.js): the walkthrough, the lesson on a projector and the
# images page's steps. It is drawn in an open shadow root of [data-testid=stBidiComponentIsolated]: Playwright's CSS
# selectors pierce it (page.locator(".steps .nav.next")), page.evaluate reaches it through the host's shadowRoot.

# The app between runs: its script not running and nothing of the run before on the screen (Streamlit's attributes for
# tests; tests/test_shell_private_parts.py checks the pinned frontend still sets them).
IDLE_JS = """() => { const app = document.querySelector('[data-testid=stApp]');
  return app && app.getAttribute('data-test-script-state') === 'notRunning' && !document.querySelector('[data-stale=true]'); }"""
STEPS_ROOT_JS = """(() => [...document.querySelectorAll('[data-testid=stBidiComponentIsolated]')]
  .map(host => host.shadowRoot && host.shadowRoot.querySelector('.steps')).find(Boolean) || null)"""

MATRIX_JS = f"""(which) => {{
  const root = {STEPS_ROOT_JS}();
  if (!root) return null;
  const figures = [...root.querySelectorAll('.main figure.matrix')];
  const figure = typeof which === 'number' ? figures[which] : root.querySelector(`.main figure.matrix[data-matrix="${{which}}"]`);
  const table = figure && figure.querySelector('table.mx');
  if (!table || !table.tBodies[0]) return null;
  const text = (el) => el.textContent.trim();
  const x = [...table.tHead.querySelectorAll('th[scope=col]')].map(text);
  const y = [...table.tBodies[0].querySelectorAll('th[scope=row]')].map(text);
  const cells = [...table.tBodies[0].rows].map(tr => [...tr.querySelectorAll('td')].map(text));
  const spans = [...table.querySelectorAll('td > span')];
  const step = figure.closest('section.step');
  return {{id: figure.dataset.matrix, title: text(figure.querySelector('figcaption')), alt: figure.getAttribute('aria-label') || '',
          rows: y.length, cols: x.length, x, y, first: cells.length && cells[0].length ? cells[0][0] : null, cells,
          shown: spans.filter(s => !s.classList.contains('sr-only')).length, hidden: spans.filter(s => s.classList.contains('sr-only')).length,
          note: !!figure.querySelector(':scope > p.caption'), step: step ? step.dataset.step : null, count: figures.length}};
}}"""

STEPS_VIEW_JS = f"""() => {{
  const root = {STEPS_ROOT_JS}();
  if (!root) return null;
  const where = root.querySelector('nav.bar select.where'), live = root.querySelector('[aria-live]');
  const head = root.querySelector('.segmented.heads button[aria-checked=true]');
  const word = [...root.querySelectorAll('.focus-controls select, .dialog select, .contrast-box select')]  // the word's list: "1 · the", ...
    .find(s => s.options.length && [...s.options].every(o => /^\\d+ \u00b7 /.test(o.textContent)));
  return {{layout: root.classList.contains('projector') ? 'projector' : 'screen',
          where: where && where.selectedOptions[0] ? where.selectedOptions[0].textContent : null,
          steps: [...root.querySelectorAll('.main section.step')].map(s => s.dataset.step),
          matrices: [...root.querySelectorAll('.main figure.matrix')].map(f => f.dataset.matrix),
          said: live ? live.textContent : null, head: head ? parseInt(head.textContent, 10) : null,
          focus: word ? parseInt(word.value, 10) : null, search: location.search}};
}}"""


def steps_view(page) -> dict | None:
    """What the step component shows now: its layout, the step bar's text ("Step 3 of 6: Raw scores"), the steps and
    matrices drawn (ids), what its live region said last, the head, the focused word and the address's query."""
    return page.evaluate(STEPS_VIEW_JS)


def wait_for_steps(page, check: str, timeout_ms: int = 45000) -> dict:
    """Wait until the step component's view (``steps_view``) satisfies ``check`` (a JS predicate body on `v`); return it."""
    handle = page.wait_for_function(f"() => {{ const v = ({STEPS_VIEW_JS})(); return v && ({check}) ? v : null; }}", timeout=timeout_ms)
    return handle.json_value()


def wait_for_step(page, where: str, timeout_ms: int = 45000) -> dict:
    """Wait until the step bar reads ``where`` at its start ("Step 3 of 6", or the whole "Step 3 of 6: Raw scores")."""
    return wait_for_steps(page, f"v.where && v.where.startsWith({where!r})", timeout_ms)


def matrix(page, which: str | int = 0) -> dict | None:
    """A matrix of the step component as the browser drew it (by its id, e.g. "raw.1", or its place among those shown):
    title, text alternative, rows and columns, their labels, every cell's text, how many numbers are shown or hidden."""
    return page.evaluate(MATRIX_JS, which)


def wait_for_matrix(page, which: str | int, check: str = "true", timeout_ms: int = 45000) -> dict:
    """Wait until the matrix ``which`` is drawn and satisfies ``check`` (a JS predicate body on `m`); return it."""
    handle = page.wait_for_function(f"(which) => {{ const m = ({MATRIX_JS})(which); return m && ({check}) ? m : null; }}",
                                    arg=which, timeout=timeout_ms)
    return handle.json_value()
