"""The page registry and the one state mechanism: every page declared once, links of values, a sidebar that belongs to the page."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from conftest import ROOT, SENTENCE, open_app

from attention_plot.text import LANGUAGES, Texts, catalogue
from views.shell import state
from views.shell.params import Choice, Choices, Flag, Float, Int, Param, Text
from views.shell.registry import ALWAYS, OLD_LINK_NAMES, PAGES, SHARED, SHARED_BY_NAME

WALKS = ("random", "textbook", "pretrained")


def value_sets(page) -> list[dict]:
    """Values that change which settings and parameters a page uses (walks, sections, modes, switches)."""
    base = {p.name: p.default for p in SHARED + ALWAYS + page.params}
    sections = next((p.options for p in page.params if p.name == "section"), ())
    choices = {"walk": WALKS, "section": sections, "mode": ("soft", "local"), "split": (True, False), "heads": (1, 2)}
    names = [name for name in choices if name in base]
    return [base | dict(zip(names, combo)) for combo in itertools.product(*(choices[n] for n in names))]


def test_every_page_is_declared_once_with_its_file_and_texts():
    assert len({p.id for p in PAGES}) == len({p.path for p in PAGES}) == len(PAGES)
    assert [p.id for p in PAGES if p.default] == ["walkthrough"]
    assert sorted(path.stem for path in (ROOT / "pages").glob("*.py")) == sorted(p.id for p in PAGES)
    for lang in LANGUAGES:
        texts = catalogue(lang)
        for page in PAGES:
            for key in ("nav", "title", "intro"):
                assert f"{page.id}.{key}" in texts, (lang, page.id, key)
            for values in value_sets(page):
                for fixed in page.fixed_quantities(values):
                    assert f"{page.id}.fixed.{fixed.name}" in texts, (lang, page.id, fixed.name)


def test_every_value_a_link_holds_has_its_name_for_notices_in_both_languages():
    """A link's notice names the setting as the page does (``common.params.<name>``); without it a Chinese notice would
    show the URL key ("decimals")."""
    names = {p.name for page in PAGES for p in page.params} | {p.name for p in SHARED + ALWAYS}
    for lang in LANGUAGES:
        texts = catalogue(lang)
        assert not {name for name in names if f"common.params.{name}" not in texts}, lang


WIDGETS = ("slider", "select_slider", "selectbox", "toggle", "number_input", "text_input", "text_area", "radio", "checkbox",
           "segmented_control", "multiselect")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
@pytest.mark.parametrize("opened", [{}, {"present": "1"}, {"lang": "zh"}], ids=["screen", "presenter", "zh"])
def test_every_page_opens_with_its_title_and_its_shared_settings(page, opened):
    """The smoke test, from the registry: each page opened once on a screen, once in presenter mode and once in Chinese,
    with no exception (open_app), its title in the student's language, and a widget for every shared setting the
    registry says the page uses, the language and presenter mode too (the sentence of the walkthrough is its step
    component's box)."""
    at = open_app(page.id, **opened)
    assert Texts(opened.get("lang", "en"))(f"{page.id}.title") in [str(title.value) for title in at.title], page.id
    keys = {widget.key for kind in WIDGETS for widget in at.get(kind)}
    keys |= {state.key("shared", "text") for element in at.get("bidi_component") if b'"sentence":{' in element.proto.bytes}
    values = {p.name: p.default for p in SHARED + ALWAYS + page.params} | {"present": "present" in opened}
    missing = [name for name in (*page.shared_names(values), "lang", "present") if state.key("shared", name) not in keys]
    assert not missing, (page.id, opened, missing)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_no_two_controls_of_a_page_share_a_name(page):
    own = [p.name for p in page.params]
    assert len(own) == len(set(own)), own
    for values in value_sets(page):
        shared = page.shared_names(values)
        clash = set(own) & (set(shared) | {"lang", "present"})
        assert not clash, (page.id, clash, values)
        assert set(page.drawn(values)) <= set(p.name for p in SHARED)


def step_view(data: bytes) -> str:
    """A step component's payload without its session's token (two sessions, one view)."""
    from views.widgets.steps import read

    header, values = read(data)
    return json.dumps({**header, "token": None}, sort_keys=True) + values.tobytes().hex()


def signature(at) -> str:
    """Everything a student sees that carries numbers: figures, tables, metrics, text."""
    parts = [element.proto.spec for element in at.get("plotly_chart")]
    parts += [step_view(e.proto.bytes) for e in at.get("bidi_component") if e.proto.component_name == "attention_steps"]
    parts += [t.value.to_json() for t in at.table] + [str(m.value) for m in at.metric] + [str(m.value) for m in at.markdown]
    parts += [str(c.value) for c in at.caption]
    return json.dumps(parts)


def another(param: Param) -> str:
    """A valid value other than the default, as URL text."""
    if isinstance(param, Int):
        return str(param.default + 1 if param.default < param.hi else param.default - 1)
    if isinstance(param, Choice):
        return param.write(next(o for o in param.options if o != param.default))
    if isinstance(param, Flag):
        return param.write(not param.default)
    return "The animal didn't cross the street because it was too tired"


def controls_shown(page_id: str, **params: str) -> list[str]:
    """The shared settings a page shows (sidebar or body) and so promises to use."""
    from views.shell.page import settings  # noqa: F401  (imported for the state keys below)

    page = next(p for p in PAGES if p.id == page_id)
    at = open_app(page_id, **params)
    keys = {w.key for kind in ("slider", "selectbox", "toggle", "number_input", "text_input") for w in at.get(kind)}
    keys |= {state.key("shared", "text") for element in at.get("bidi_component") if b'"sentence":{' in element.proto.bytes}  # its box
    return [name for name in (p.name for p in SHARED) if state.key("shared", name) in keys and name in page.shared_names(
        {p.name: p.default for p in SHARED + ALWAYS + page.params} | params)]


VIEWS = [("walkthrough", {"walk": "random"}), ("walkthrough", {"walk": "pretrained"}), ("walkthrough", {"walk": "random", "mode": "local"}),
         ("multihead", {"split": "0"})] + [(p.id, {}) for p in PAGES if p.id != "walkthrough"]


@pytest.mark.parametrize(("page_id", "params"), VIEWS, ids=lambda v: v if isinstance(v, str) else "-".join(f"{k}={x}" for k, x in v.items()))
def test_every_control_shown_changes_what_the_page_shows(page_id, params):
    params = {"text": SENTENCE} | params
    before = signature(open_app(page_id, **params))
    shown = controls_shown(page_id, **params)
    page = next(p for p in PAGES if p.id == page_id)
    assert shown or not page.shared_names({p.name: p.default for p in SHARED + ALWAYS + page.params}), page_id
    for name in shown:
        changed = params | {name: another(SHARED_BY_NAME[name])}
        assert signature(open_app(page_id, **changed)) != before, (page_id, name)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_a_link_holds_this_pages_values_and_reproduces_the_view(page):
    params = {"text": SENTENCE, "d_model": "6", "seed": "3"}
    at = open_app(page.id, **params)
    link = dict(at.query_params)
    values = {p.name: p.default for p in SHARED + ALWAYS + page.params} | {"d_model": 6, "seed": 3}
    expected = set(page.shared_names(values)) | {p.name for p in page.own_params(values)} | {"lang"}
    expected -= set(page.browser)  # the step, head and word: the browser writes them (tests/test_browser_app.py)
    assert set(link) == expected, (page.id, set(link) ^ expected)
    again = open_app(page.id, **link)  # someone else opens the link: a new session
    assert dict(again.query_params) == link
    assert signature(again) == signature(at)
    assert not again.warning


def old_link(**params: str) -> dict[str, str]:
    """A link as the app wrote it before values replaced codes: every shared setting on every page."""
    defaults = {"text": SENTENCE, "d_model": "8", "d_k": "4", "heads": "1", "score": "scaled_dot", "mode": "soft", "window": "2",
                "pe": "1", "seed": "0", "lang": "en", "present": "0"}
    assert set(defaults) == set(OLD_LINK_NAMES)
    return defaults | params


@pytest.mark.parametrize(("page_id", "old", "new"), [
    ("scaling", {"dk": "12", "keys": "8", "samples": "6", "temp": "0"}, {"d_k": "4096", "n_keys": "512", "samples": "50000", "temperature": "0.25"}),
    ("types", {"section": "1", "tau": "6", "window": "3"}, {"section": "modes", "tau": "1", "window": "3"}),
    ("types", {"section": "0", "scores": "19"}, {"section": "scores", "scores": "dot,scaled_dot,cosine"}),
    ("types", {"section": "2", "temp": "6", "causal": "0"}, {"section": "masks", "temperature": "10", "causal": "0"}),
    ("cosine", {"length_a": "50", "length_b": "5"}, {"length_a": "5", "length_b": "0.5"}),
    ("rnn", {"d": "0", "step": "3"}, {"d": "64", "step": "3"}),
    ("cross", {"pair": "1"}, {"pair": "reading"}),
    ("multihead", {"fixed": "0"}, {"split": "0"}),
    ("walkthrough", {"example": "1", "step": "4"}, {"walk": "textbook"}),
    ("walkthrough", {"weights": "1", "layer": "2"}, {"walk": "pretrained", "layer": "2"}),
])
def test_links_made_before_values_replaced_codes_open_the_same_view(page_id, old, new):
    at = open_app(page_id, **old_link(**old))
    link = dict(at.query_params)
    assert link | new == link, (link, new)
    assert not at.warning, [w.value for w in at.warning]
    for name in ("dk", "keys", "temp", "example", "weights", "fixed"):
        assert name not in link
    if page_id == "walkthrough" and "step" in old:  # a value the browser keeps: the step component opens at it
        from conftest import payload

        assert payload(at)[0]["view"]["step"] == int(old["step"])


def test_a_local_window_on_one_page_never_changes_another():
    """The types page's window and the sidebar's window are two values; a link from one never touches the other."""
    at = open_app("walkthrough", text=SENTENCE, mode="local", window="12")
    at.switch_page(str(ROOT / "pages" / "types.py")).run()
    assert not at.warning, [w.value for w in at.warning]
    assert "window" not in at.query_params and "mode" not in at.query_params
    at.segmented_control(key="types.section").set_value("modes").run()
    assert at.query_params["window"] == "1" and at.slider(key="types.window").value == 1
    at.slider(key="types.window").set_value(5).run()
    at.switch_page(str(ROOT / "pages" / "walkthrough.py")).run()
    assert at.query_params["window"] == "12" and at.query_params["mode"] == "local"


def test_the_sidebar_shows_only_what_the_page_uses():
    real = open_app("real", text=SENTENCE)
    assert [w.key for w in real.sidebar.slider] == []  # 384 / 32 / 12 are the model's: shown as values, not sliders
    assert "d_model = 384" in " ".join(c.value for c in real.sidebar.caption)
    textbook = open_app("walkthrough", walk="textbook")
    assert not [w for w in textbook.sidebar.slider if w.key == "shared.d_k"]
    assert "d_k = 64" in " ".join(c.value for c in textbook.sidebar.caption)
    lab = open_app("scaling")
    assert [w.key for w in lab.sidebar.number_input] == ["shared.seed"] and not lab.sidebar.text_input
    walk = open_app("walkthrough", text=SENTENCE)
    assert "shared.window" not in [w.key for w in walk.sidebar.slider]  # only in the local modes
    assert "shared.window" in [w.key for w in open_app("walkthrough", mode="local").sidebar.slider]


@pytest.mark.parametrize("param", [Int("n", 3, lo=1, hi=9), Float("x", 2.0, lo=0.1, hi=5.0, step=0.1), Flag("f", True),
                                   Choice("c", 1.0, options=(0.5, 1.0, 2.0)), Choice("s", "a", options=("a", "b")),
                                   Choices("m", ("a",), options=("a", "b", "c")), Text("t", "x")], ids=lambda p: p.name)
def test_every_value_survives_its_own_link(param):
    """write then read gives the value back without a notice, for the default and another value."""
    for value in (param.default, {Int: 7, Float: 4.3, Flag: False, Choice: param.options[-1] if hasattr(param, "options") else None,
                                  Choices: ("b", "c"), Text: "hello, world"}[type(param)]):
        assert param.read(param.write(value)) == (value, None)


def test_the_readmes_table_of_page_ids_and_url_paths_is_the_registrys():
    """README.md's table of pages (id, URL path, views) lists every page of the registry, in its order, as declared."""
    rows = re.findall(r"^\| `([a-z_]+)` \| `/([^`]*)` \| `(views/[^`]+)` \|$", (ROOT / "README.md").read_text(), re.MULTILINE)
    expected = [(page.id, page.path, f"views/{page.id}.py" if (ROOT / "views" / f"{page.id}.py").exists() else f"views/{page.id}/")
                for page in PAGES]
    assert rows == expected, "README.md's page table differs from views/shell/registry.py:\n" + "\n".join(
        f"| `{page_id}` | `/{path}` | `{views}` |" for page_id, path, views in expected)
