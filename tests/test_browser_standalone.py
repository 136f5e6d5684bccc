"""A walk saved as one HTML file (issue 47), opened from disk in Debian's chromium with every request but the file's
own aborted: it steps through every step with the app's numbers, digit for digit, by Next and by ← / →, axe-core finds
nothing serious in it, and on a phone (390 px) it opens with nothing wider than the screen. What the file holds is
checked without a browser in tests/test_shell_standalone.py."""

from __future__ import annotations

import time
from urllib.parse import urlencode

import pytest
from conftest import SENTENCE
from test_browser_steps import idle
from test_shell_standalone import saved_file

from scripts.axe_scan import violations
from scripts.browser import matrix, steps_view, wait_for_step

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-2")]
LINK = {"text": SENTENCE, "heads": "2", "d_k": "4"}
OPENED_WITHIN_S = 1.0  # opened and its first step drawn (issue 47's budget)


def drawn(page) -> list[dict]:
    """Every matrix of the step shown: its id, title, labels and every cell's text."""
    shown = [matrix(page, i) for i in range(len(steps_view(page)["matrices"]))]
    return [{k: m[k] for k in ("id", "title", "x", "y", "cells")} for m in shown]


def walk_through(page) -> list[tuple[str, list[dict]]]:
    """Every step from the first, by Next: the step bar's words and its matrices."""
    total = int(steps_view(page)["where"].split(" of ")[1].split(":")[0])
    seen = []
    for step in range(1, total + 1):
        where = wait_for_step(page, f"Step {step} of {total}", timeout_ms=10000)["where"]
        seen.append((where, drawn(page)))
        if step < total:
            page.locator(".steps nav.bar .nav.next").click()
    return seen


def open_offline(chromium, path, viewport: dict) -> tuple[object, object, float, list[str]]:
    """The file opened from disk with every other request aborted: (context, page, seconds to the first step, requests)."""
    context = chromium.new_context(viewport=viewport)
    asked: list[str] = []

    def route(request_route):
        asked.append(request_route.request.url)
        if request_route.request.url == path.as_uri():
            request_route.continue_()
        else:
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    started = time.perf_counter()
    page.goto(path.as_uri())
    wait_for_step(page, "Step 1 of", timeout_ms=10000)
    return context, page, time.perf_counter() - started, asked


def test_the_saved_file_steps_offline_with_the_app_s_numbers(open_page, chromium, downloads, tmp_path, capsys):
    text, _ = saved_file(downloads, **LINK)
    path = tmp_path / "attention-walk.html"
    path.write_text(text)

    app = open_page(f"/walkthrough?{urlencode(LINK)}", layout="projector", viewport={"width": 1280, "height": 720})
    idle(app)
    in_app = walk_through(app)

    context, page, seconds, asked = open_offline(chromium, path, {"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    assert seconds <= OPENED_WITHIN_S, f"opened and drawn in {seconds:.2f} s"
    in_file = walk_through(page)
    assert [where for where, _ in in_file] == [where for where, _ in in_app]
    for (where, file_matrices), (_, app_matrices) in zip(in_file, in_app, strict=True):
        assert file_matrices == app_matrices, where  # every cell's text, digit for digit
    numbers = sum(len(row) for _, step in in_file for m in step for row in m["cells"])
    assert numbers > 500 and any(any("." in cell for row in m["cells"] for cell in row) for m in in_file[2][1]), numbers
    total = len(in_file)
    page.keyboard.press("ArrowLeft")
    assert steps_view(page)["said"] is not None
    wait_for_step(page, f"Step {total - 1} of {total}", timeout_ms=5000)
    page.keyboard.press("ArrowRight")
    wait_for_step(page, f"Step {total} of {total}", timeout_ms=5000)
    page.wait_for_function("() => document.querySelector('#walk').shadowRoot.querySelector('[aria-live]').textContent")
    serious = [v for v in violations(page) if v["impact"] in ("serious", "critical")]
    assert not serious, serious
    assert asked == [path.as_uri()] and not errors, (asked, errors)
    context.close()

    context, phone, phone_seconds, asked = open_offline(chromium, path, {"width": 390, "height": 844})
    wide = phone.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390 and asked == [path.as_uri()], (wide, asked)
    context.close()
    with capsys.disabled():
        print(f"\nsaved file {len(text.encode()) / 1000:.0f} kB: first step drawn in {seconds:.2f} s (1280 px), "
              f"{phone_seconds:.2f} s (390 px)")
