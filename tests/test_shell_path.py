"""A short path for a value: the settings become the core's options beside the cache that calls the core, a heatmap is
one frozen description handed down unchanged (chart helper -> cache -> figure builder), and a run writes the link once."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from attention_core import explain
from attention_plot import figures, plot
from attention_plot.text import Texts


def settings(**changes):
    from views.shell.page import Settings

    values = dict(text="the cat sat on the mat", d_model=8, d_k=5, heads=2, score="scaled_dot", mode="soft", window=1, pe=False,
                  seed=3, lang="en", present=False)
    return Settings(**(values | changes))


def test_the_settings_become_the_cores_options_beside_the_cache():
    """Only the cache knows the core's names for the settings (pe -> positions, the token limit); a page hands it its
    Settings and, where it needs one, an override in the core's own words."""
    from views.shell.page import Settings
    from views.shell.registry import MAX_TOKENS
    from views.widgets import cache

    assert not hasattr(Settings, "explain_options")
    options = cache.core_options(settings())
    assert options == dict(d_model=8, d_k=5, heads=2, score="scaled_dot", mode="soft", window=1, positions=False, seed=3,
                           max_tokens=MAX_TOKENS)
    assert cache.core_options(settings(), heads=1, causal=True) == options | {"heads": 1, "causal": True}
    made = cache.explanation_for(settings(), heads=1)
    assert made is cache.explanation("the cat sat on the mat", **(options | {"heads": 1}))  # one cached entry for both
    expected = explain("the cat sat on the mat", **(options | {"heads": 1}))
    assert np.array_equal(made.trace.output, expected.trace.output) and made.options == expected.options


def described(**changes) -> figures.Heatmap:
    values = np.array([[0.25, 0.75], [1.0, 0.0]])
    return plot.heatmap(values, ("a", "b"), ("a", "b"), T=Texts("en"), kind="weights", title="weights", rows_are="query",
                        cols_are="key", **changes)


def test_a_heatmap_is_one_frozen_description_and_its_own_cache_key():
    values = np.array([[0.25, 0.75], [1.0, 0.0]])
    h = plot.heatmap(values, ("a", "b"), ("a", "b"), T=Texts("en"), kind="weights", title="weights", rows_are="query", cols_are="key",
                     outline=np.eye(2, dtype=bool))
    values[0, 0] = 9.0  # the page's array changes later: the description does not
    assert h.values[0, 0] == 0.25 and not h.values.flags.writeable and not h.outline.flags.writeable
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.title = "other"  # type: ignore[misc]
    with pytest.raises(ValueError):
        h.values[0, 0] = 1.0
    again = described(outline=np.eye(2, dtype=bool))
    assert again == h and hash(again) == hash(h) and again is not h
    assert described() != h and described(decimals=3) != described() and described(font=17) != described()
    text = plot.labels(Texts("en"), "weights", (2, 2), "query", "key", np.array([[0.25, 0.75], [1.0, 0.0]]), ("a", "b"), ("a", "b"),
                       "weights")  # its texts are made once, with it, from the values as they were
    assert (h.x_title, h.y_title, h.hover_rows, h.hover_cols, h.hidden_note, h.alt) == text
    assert h.alt.startswith("Heatmap “weights”") and h.x_title == "keys (columns)" and h.hover_rows == "query"


def test_the_description_is_handed_down_unchanged_to_the_cache_and_the_builder(monkeypatch):
    """charts.draw -> cache.heatmap -> figures.heatmap: the very object the helper built, and the JSON it makes is the
    builder's; an equal description is served from the cache."""
    from views.widgets import cache, charts

    seen, sent = [], []
    builder = figures.heatmap
    monkeypatch.setattr(figures, "heatmap", lambda h: seen.append(h) or builder(h))
    monkeypatch.setattr(charts, "send", lambda spec, key, alt=None: sent.append((spec, key, alt)))
    monkeypatch.setattr(charts, "shown_matrices", lambda: [])
    cache.heatmap.cache_clear()
    h = described(arithmetic=(np.eye(2), np.ones((2, 2))))
    charts.draw(h, "k")
    charts.draw(described(arithmetic=(np.eye(2), np.ones((2, 2)))), "k2")
    assert seen == [h] and seen[0] is h  # built once, from the object itself
    assert sent[0] == (figures.spec(builder(h)), "k", h.alt) and sent[1][0] is sent[0][0]


def test_arithmetic_and_ink_are_part_of_the_figure():
    q, k = np.array([[1.0, 2.0], [0.5, -1.0]]), np.array([[1.0, 0.0], [2.0, 1.0]])
    scores = q @ k.T
    h = plot.heatmap(scores, ("x", "y"), ("x", "y"), T=Texts("en"), rows_are="query", cols_are="key", arithmetic=(q, k))
    custom = figures.heatmap(h)["data"][0]["customdata"]
    assert all(str(line).startswith("<br>q<sub>") for line in np.ravel(custom[..., 2]))
    inked = figures.heatmap(dataclasses.replace(h, ink=(np.eye(2), 0.5)))
    assert [trace["type"] for trace in inked["data"]] == ["heatmap", "contour", "contour"]


def counting(monkeypatch) -> Counter:
    """Counts the link's writes: the address bar (Streamlit's message) and the link made (``state.link``)."""
    from streamlit.runtime.state.query_params import QueryParams

    from views.shell import state

    counts: Counter = Counter()
    send, link = QueryParams._send_query_param_msg, state.link

    def counted_send(self):
        counts["address bar"] += 1
        return send(self)

    def counted_link(page):
        counts["link"] += 1
        return link(page)

    monkeypatch.setattr(QueryParams, "_send_query_param_msg", counted_send)
    monkeypatch.setattr(state, "link", counted_link)
    return counts


@pytest.mark.parametrize(("page", "params"), [("walkthrough", {"text": "the cat sat"}), ("types", {"text": "the cat sat on the mat"})])
def test_a_d_k_move_writes_the_link_once(app, monkeypatch, page, params):
    counts = counting(monkeypatch)
    at = app(page, **params)
    for d_k in (5, 6):
        counts.clear()
        at.slider(key="shared.d_k").set_value(d_k).run()
        assert not at.exception and at.query_params["d_k"] == str(d_k)
        assert counts == {"address bar": 1, "link": 1}, counts


def test_a_page_that_stops_early_still_writes_its_link(app, monkeypatch):
    """An empty sentence stops the page (st.stop): the link is written as it stops, once."""
    counts = counting(monkeypatch)
    at = app("types", text="the cat sat on the mat")
    at.text_input(key="shared.text").set_value("").run()
    assert at.info and at.query_params["text"] == ""
    counts.clear()
    at.slider(key="shared.d_k").set_value(7).run()
    assert at.query_params["d_k"] == "7" and counts == {"address bar": 1, "link": 1}, counts


def test_every_page_stops_through_the_shell():
    """A page that stops early (``st.stop``) does it through ``views.shell.page.stop``, which writes the link first: after
    Streamlit's stop nothing more is written, so a page calling ``st.stop`` itself would leave the old link behind."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    stops = []
    for path in [root / "app.py", *sorted((root / "pages").rglob("*.py")), *sorted((root / "views").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "stop" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "st":
                stops.append(f"{path.relative_to(root)}:{node.lineno}")
    assert len(stops) == 1 and stops[0].startswith("views/shell/page.py:"), stops
