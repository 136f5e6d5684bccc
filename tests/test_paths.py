"""Addresses Streamlit cannot serve are redirected before it sees them (scripts/paths.py), on a real server."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from scripts.browser import serve
from scripts.paths import NOT_FOUND, redirect_for
from views.registry import PAGES

PATHS = frozenset(page.path for page in PAGES)
DEFAULT = next(page.path for page in PAGES if page.default)


@pytest.mark.parametrize(("path", "query", "target"), [
    ("/pages/walkthrough", "", "/"),
    ("/walkthrough", "step=3", "/?step=3"),  # the default page lives at /
    ("/real-model/extra", "lang=zh", "/real-model?lang=zh"),
    ("/a/b/c", "", f"/?{NOT_FOUND}=/a/b/c"),
    ("/no-such-page", "d_k=3", f"/?d_k=3&{NOT_FOUND}=/no-such-page"),
    ("/types", "section=modes", None),
    ("/", "", None),
    ("/static/js/index.js", "", None),
    ("/_stcore/health", "", None),
    ("/real-model/favicon.png", "", None),
    ("/walkthrough/_stcore/health", "", None),  # the browser looks for the server's base path this way
    ("/pages/static/js/index.js", "", None),
])
def test_where_an_address_goes(path, query, target):
    assert redirect_for(path, query, PATHS, DEFAULT) == target


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_the_server_redirects_two_level_and_unknown_paths():
    """Fails loudly if Streamlit's Starlette server stops building its middleware through the function paths.py wraps."""
    opener = urllib.request.build_opener(NoRedirect)
    with serve() as url:
        for path, location in (("/pages/walkthrough", "/"), ("/no-such-page?lang=zh", f"/?lang=zh&{NOT_FOUND}=/no-such-page")):
            with pytest.raises(urllib.error.HTTPError) as answer:
                opener.open(url + path)
            assert answer.value.code == 302 and answer.value.headers["location"] == location
        with opener.open(url + "/types") as page:
            assert page.status == 200


def test_an_unknown_page_says_so_in_the_students_language(app):
    at = app("walkthrough", not_found="/no-such-page", lang="zh")
    assert any("/no\\-such\\-page" in w.value and "没有" in w.value for w in at.warning), [w.value for w in at.warning]
    assert NOT_FOUND not in at.query_params
    at.run()  # said once
    assert not any("没有" in w.value for w in at.warning)


def test_the_page_scripts_are_in_the_head_of_every_page_streamlit_serves():
    """On the real server: Streamlit's page carries shell.js, charts.js and steps.js in its head (they run while the page
    is parsed; Streamlit's own module script only after), and no validator of Streamlit's file (a revalidated page would
    keep older scripts); other answers are untouched."""
    with serve() as url:
        with urllib.request.urlopen(f"{url}/multi-head?lang=zh") as response:
            page, headers = response.read().decode(), response.headers
        head = page[: page.index("</head>")]
        for name in ("shell", "charts", "steps"):
            assert f'<script id="attention-{name}">' in head
        assert "etag" not in {k.lower() for k in headers} and int(headers["content-length"]) == len(page.encode())
        with urllib.request.urlopen(f"{url}/_stcore/health") as response:
            assert response.read() == b"ok"
