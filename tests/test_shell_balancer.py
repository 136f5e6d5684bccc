"""Several app processes behind nginx (scripts/serve.py, make serve): sticky by cookie, websockets, downloads, failover."""

from __future__ import annotations

import asyncio
import collections
import os
import time
import urllib.request
from pathlib import Path

import pytest

from scripts.browser import wait_for_matrix, wait_for_step
from scripts.load import LINK, classroom
from scripts.serve import COOKIE, MISSING_NGINX, NGINX, balanced

pytestmark = [pytest.mark.load, pytest.mark.xdist_group("browser-2")]  # starts servers: in the second browser group (Makefile)


@pytest.fixture(scope="module")
def front():
    if not os.access(NGINX, os.X_OK):
        pytest.fail(MISSING_NGINX)
    with balanced(replicas=2) as balancer:
        yield balancer


def get(url: str, cookie: str = "") -> tuple[int, str, str]:
    """Status, the cookie nginx set (name=value, or ""), and the replica that answered."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, (response.headers.get("Set-Cookie") or "").split(";")[0], response.headers.get("X-Replica", "")


def test_each_browser_keeps_its_replica_and_a_class_behind_one_address_spreads(front):
    """All these clients share 127.0.0.1, as a class behind a school router shares one address: ip_hash would send them
    all to one replica; the cookie spreads them, and every later request of one browser reaches the same replica."""
    first = collections.Counter()
    for _ in range(24):
        status, cookie, replica = get(f"{front.url}/")
        assert status == 200 and cookie.startswith(f"{COOKIE}=")
        first[replica] += 1
        again = {get(f"{front.url}{path}", cookie)[2] for path in ("/", "/_stcore/health", "/types", "/_stcore/health")}
        assert again == {replica}
        assert get(f"{front.url}/", cookie)[1] == ""  # the cookie is set once, on first contact
    assert len(first) == 2 and min(first.values()) >= 3, first


def test_a_class_through_the_balancer_runs_on_every_replica_without_errors(front):
    for replica in front.replicas:  # warm: a replica's first session imports everything
        asyncio.run(classroom(f"http://127.0.0.1:{replica.port}", 1, LINK))
    students = asyncio.run(classroom(front.url, 16, LINK, cookies=True))
    assert [s.error for s in students if s.error] == []
    assert all(any("Queries, keys and values" in text for text in s.texts) for s in students)  # its walkthrough, sent again after the move
    served = collections.Counter(s.replica for s in students)
    assert len(served) == 2, served


def test_the_teachers_link_downloads_and_steps_through_the_balancer(front, open_page):
    """In chromium through nginx: the shared link opens its view (its numbers sent over the websocket by the replica
    holding the session), Next steps in the browser and the address follows, the CSV (made in the browser from those
    numbers) downloads every time, and the address a student copies opens the same view in a second browser."""
    link = f"{front.url}/?text=the+cat+sat+on+the+mat&d_k=6&step=3&lang=en"
    page = open_page(link, accept_downloads=True)
    scores = wait_for_matrix(page, "raw.1", "m.rows === 6")
    for step in (4, 5):
        page.locator(".steps nav.bar button.nav.next").click()
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{step}'", timeout=30000)
    weights = wait_for_matrix(page, "weights.1", "m.rows === 6")
    for _ in range(4):
        with page.expect_download() as download:
            if not page.locator(".steps details.menu[open]").count():
                page.locator(".steps details.menu summary").click()
            page.get_by_role("button", name="This step's matrices (CSV)").click()
        assert Path(download.value.path()).read_text().startswith("# attention weights")
        assert download.value.suggested_filename == "attention-walkthrough-softmax.csv"
    again = open_page(link)
    assert wait_for_matrix(again, "raw.1", "m.rows === 6")["cells"] == scores["cells"]  # the same numbers from either replica
    again.goto(page.url)  # the address after the steps
    wait_for_step(again, "Step 5 of 6")
    assert wait_for_matrix(again, "weights.1", "m.rows === 6")["cells"] == weights["cells"]


def test_a_replica_that_dies_is_skipped_then_restarted(front):
    victim = front.replicas[0]
    victim.process.kill()
    cookies = [get(f"{front.url}/")[1] for _ in range(8)]
    assert all(get(f"{front.url}/_stcore/health", cookie)[0] == 200 for cookie in cookies)  # nginx passes them to the other
    deadline = time.monotonic() + 60
    while not (victim.restarts and victim.healthy()):
        assert time.monotonic() < deadline, "the dead replica was not restarted"
        time.sleep(0.5)
    assert victim.process.poll() is None
