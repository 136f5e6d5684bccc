
"""Addresses Streamlit cannot serve are redirected before it sees them (scripts/paths.py), on a real server."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from scripts.browser import serve
from scripts.paths import NOT_FOUND, redirect_for
from views.shell.registry import PAGES

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


@pytest.mark.parametrize(("lang", "words"), [("en", "nearest page"), ("zh", "最接近的页面")])
def test_an_address_that_is_not_a_page_names_the_nearest_page_with_the_links_values(app, lang, words):
    """/real?section=corpus (redirected to /?section=corpus&not_found=/real): the notice names real-model and links to its
    corpus section, in the student's language; said once."""
    at = app("walkthrough", not_found="/real", section="corpus", lang=lang)
    said = [w.value.replace("\\", "") for w in at.warning if words in w.value]
    assert len(said) == 1 and "/real-model?section=corpus" in said[0], [w.value for w in at.warning]
    link = at.get("page_link")[0].proto
    assert (link.page, link.query_string) == ("real-model", f"section=corpus&lang={lang}")
    at.run()
    assert not any(words in w.value for w in at.warning)


@pytest.mark.parametrize(("path", "meant", "section"), [
    ("/real", "real-model", None), ("/Scaling_Lab", "scaling-lab", None), ("/mulit-head", "multi-head", None),
    ("/walkthru", "walkthrough", None), ("/positions", "positions-and-scale", None), ("/corpus", "real-model", "corpus"),
    ("/why_qkv", "why-qkv", None), ("/no-such-page", None, None), ("/x", None, None), ("/" + "q" * 500, None, None),
])
def test_the_nearest_page_of_an_address(path, meant, section):
    from views.shell.registry import nearest_page

    found = nearest_page(path)
    assert (found and (found[0].path, found[1])) == (meant and (meant, section))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_every_page_mounts_the_page_script_first_through_the_public_component_api(page):
    """The page's script is a components-v2 component (views/shell/script.py), the first element of every run, with the
    browser's texts in both languages; a page whose step component keeps values also mounts the link keeper."""
    from conftest import open_app

    at = open_app(page.id, text="the cat sat on the mat")
    mounted = [e for e in at.get("bidi_component") if e.proto.component_name == "attention_shell"]
    assert [e.key for e in mounted][:1] == ["attention-shell"]
    data = json.loads(mounted[0].proto.json)
    assert data["kind"] == "shell" and data["texts"]["zh"]["plotly.zoom_in"] == "放大"
    assert ("attention-keep" in [e.key for e in mounted]) == bool(page.browser)
    first = next(iter(at.main.children.values()))  # the slot that holds it comes before anything the page draws
    assert "attention-script" in str(first.proto)


def test_the_server_adds_nothing_to_streamlits_page():
    """Streamlit's own page, as Streamlit serves it: no script put into its head (the scripts are components now)."""
    with serve() as url:
        with urllib.request.urlopen(f"{url}/multi-head?lang=zh") as response:
            page = response.read().decode()
        assert "attention-shell" not in page and "__attentionTexts" not in page
        with urllib.request.urlopen(f"{url}/_stcore/health") as response:
            assert response.read() == b"ok"
