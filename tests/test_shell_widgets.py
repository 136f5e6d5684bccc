"""Each widget fact once: a registry parameter draws its own widget (``Param.widget``, ``View.widget``), so its bounds,
step and options live only in views/shell/registry.py, never again in a page; MiniLM's size is said once.

Read from the source (``ast``): no page draws a registry value's widget itself, passes a literal bound to ``widget``, or
gives a slider or number box literal bounds (but the few widgets of values no link holds). Then in the app (AppTest):
every value a view uses has its widget, with the registry's bounds, or narrower ones only where the run knows them.
And one mechanism keeps values across pages (``state.keep_values``, with ``state.keep`` for the lesson's guesses).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT, open_app

from attention_core.pretrained import MiniLM
from views.shell import state
from views.shell.params import Choice, Choices, Flag, Float, Int, Param, Text, Token
from views.shell.registry import ALWAYS, BY_ID, PAGES, SHARED, SHARED_BY_NAME, Page

# Streamlit's widgets that edit one value (a button edits none).
WIDGETS = {"slider", "select_slider", "number_input", "segmented_control", "pills", "selectbox", "radio", "toggle", "checkbox",
           "multiselect", "text_input", "text_area"}
BOUNDED = {"slider", "select_slider", "number_input"}
# Widgets of values no link holds, so no registry parameter declares them: they keep their bounds where they are drawn.
# (file, the text key of the widget's label)
NOT_PARAMETERS = {
    ("views/widgets/hands_on.py", "classroom.d_k"),  # the hands-on editor's d_k, which starts at the page's own d_k
    ("views/widgets/hands_on.py", "classroom.how_much"),  # a predicted share, 0 … 1
    ("views/live/teacher.py", "live.teacher.rows"),  # a class's seat map (classroom.store's limits)
    ("views/live/teacher.py", "live.teacher.seats"),
}
# Values whose widget offers only what this run has (tokens of the sentence, the tiny model's heads, a run's steps).
NARROWED = {("rnn", "step"), ("positions", "block"), ("positions", "fold"), ("learn", "top_k"), ("positions", "top_k"), ("learn", "generate"),
            ("learn", "head"), ("learn", "layer"), ("cosine", "query"), ("real", "query"), ("vision", "query"),
            ("vision", "training")}


def sources() -> list[Path]:
    """The pages and their views, but the registry (which says each fact) and the parameters (which draw them)."""
    files = [*(ROOT / "pages").glob("*.py"), *(ROOT / "views").rglob("*.py")]
    return sorted(path for path in files if path.relative_to(ROOT).as_posix() not in ("views/shell/registry.py", "views/shell/params.py"))


def calls(path: Path) -> list[ast.Call]:
    return [node for node in ast.walk(ast.parse(path.read_text(), filename=str(path))) if isinstance(node, ast.Call)]


def called(node: ast.Call) -> str:
    return node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id if isinstance(node.func, ast.Name) else ""


def keyword(node: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in node.keywords if k.arg == name), None)


def is_number(node: ast.expr | None) -> bool:
    """A number written in the source (``-180`` too)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool)


def is_literal(node: ast.expr | None) -> bool:
    """Numbers, or a tuple, list or ``range`` of numbers only, written in the source."""
    if isinstance(node, ast.Tuple | ast.List):
        return all(is_number(element) for element in node.elts)
    if isinstance(node, ast.Call) and called(node) == "range":
        return all(is_number(arg) for arg in node.args)
    return is_number(node)


def label_key(node: ast.Call) -> str:
    """The text key of a widget's label: ``T("cosine.angle_a")`` -> cosine.angle_a."""
    label = node.args[0] if node.args else keyword(node, "label")
    if isinstance(label, ast.Call) and label.args and isinstance(label.args[0], ast.Constant):
        return str(label.args[0].value)
    return ""


REGISTRY_KEYS = {state.key(scope, param.name) for scope, params in state.BY_SCOPE.items() for param in params}


def keyed_by_registry(node: ast.Call) -> bool:
    """Is the widget's key a registry value's: ``view.key(...)``, ``state.key(...)`` or such a key written out?"""
    key = keyword(node, "key")
    if isinstance(key, ast.Call) and called(key) == "key":
        return True
    return isinstance(key, ast.Constant) and key.value in REGISTRY_KEYS


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{node.lineno}"


def test_no_page_draws_a_registry_values_widget_itself():
    """A registry value's widget is drawn by its parameter (``view.widget(name, label)``), with the declared bounds,
    step and options; a page that calls ``st.slider(..., key=view.key(name))`` says them a second time."""
    found = [f"{where(path, node)}: st.{called(node)} for a registry value; draw it with view.widget"
             for path in sources() for node in calls(path) if called(node) in WIDGETS and keyed_by_registry(node)]
    assert not found, "\n".join(found)


def test_no_page_repeats_a_bound():
    """A bound, step or option list written as a literal number in a page: given to ``widget`` (it narrows the
    registry's only with a value the run computed), or to a slider or number box of any value (but the few no link
    holds), or a ``range`` of two literals (MiniLM's ``range(1, 13)`` was one)."""
    found = []
    for path in sources():
        for node in calls(path):
            name = called(node)
            if name == "widget":
                found += [f"{where(path, node)}: widget({k.arg}=<literal>)" for k in node.keywords
                          if k.arg in ("lo", "hi", "options", "min_value", "max_value", "step") and is_literal(k.value)]
            elif name in BOUNDED and (str(path.relative_to(ROOT)), label_key(node)) not in NOT_PARAMETERS:
                bounds = [*node.args[1:3], *(keyword(node, k) for k in ("min_value", "max_value", "options", "step"))]
                if name == "select_slider":
                    bounds = [*node.args[1:2], keyword(node, "options")]
                found += [f"{where(path, node)}: st.{name} with a literal bound" for bound in bounds if is_literal(bound)][:1]
            elif name == "range" and len(node.args) >= 2 and all(is_number(arg) for arg in node.args):
                found.append(f"{where(path, node)}: range of literals {ast.unparse(node)}")
    assert not found, "\n".join(found)


def test_the_exempt_widgets_still_exist():
    """Every widget ``NOT_PARAMETERS`` exempts is still drawn where it says (a stale exemption would hide a new one)."""
    for file, label in NOT_PARAMETERS:
        assert any(label_key(node) == label for node in calls(ROOT / file) if called(node) in BOUNDED), (file, label)


def test_minilm_s_size_is_said_once():
    """6 layers × 12 heads: the registry's layer and head bounds and what it says the real model fixes are MiniLM's."""
    for page_id in ("walkthrough", "real"):
        params = {p.name: p for p in BY_ID[page_id].params}
        assert (params["layer"].lo, params["layer"].hi) == (1, MiniLM.layers_count)
        assert (params["head"].lo, params["head"].hi) == (1, MiniLM.heads)
    fixed = {f.name: f.value for f in BY_ID["real"].fixed_quantities({})}
    assert (fixed["layers"], fixed["heads"], fixed["d_model"], fixed["d_k"]) == (MiniLM.layers_count, MiniLM.heads, MiniLM.d_model,
                                                                                MiniLM.d_k)
    # The walks and layers the walkthrough's step component offers (it draws their choice) are the registry's.
    from views import walkthrough

    walks, layers = walkthrough.WALKS, walkthrough.LAYERS
    assert walks == BY_ID["walkthrough"].param("walk").options
    assert layers == tuple(range(1, MiniLM.layers_count + 1))


# --- One mechanism keeps values across pages ---


def self_assignments(path: Path) -> list[ast.Assign]:
    """``st.session_state[k] = st.session_state[k]``: how Streamlit is told to keep a value whose widget is not drawn."""
    return [node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.value, ast.Subscript) and ast.unparse(node.targets[0]) == ast.unparse(node.value)]


def test_only_the_state_keeps_values_across_pages():
    """``state.keep_values`` keeps every value across pages (``state.keep`` adds those no link holds, the lesson's
    guesses); no page keeps its own copies (the lesson's ``kept.<key>`` was a second mechanism) or re-sets a value."""
    found = [f"{where(path, node)}: keeps a value itself; use state.keep" for path in sources() if path != ROOT / "views/shell/state.py"
             for node in self_assignments(path)]
    found += [f"{where(path, node)}: a copy under kept.*" for path in sources() for node in ast.walk(ast.parse(path.read_text()))
              if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("kept.")]
    assert not found, "\n".join(found)
    assert self_assignments(ROOT / "views/shell/state.py")  # the one place, still there


def test_the_lessons_guesses_outlive_presenter_mode_and_another_page():
    """In presenter mode the lesson draws no radio or toggle (its step component shows the stops): the guess and the
    reveal are kept by ``state.keep``, as a parameter is while its widget is not drawn, then on another page."""
    at = open_app("lesson")
    at.radio(key="lesson.four_steps.guess").set_value(1).run()
    at.toggle(key="lesson.four_steps.reveal").set_value(True).run()
    at.toggle(key=state.key("shared", "present")).set_value(True).run()
    assert not [radio for radio in at.radio if radio.key.startswith("lesson.")] and at.session_state["lesson.four_steps.guess"] == 1
    at.run()  # a second run without the widgets: Streamlit would forget a value it was not told to keep
    at.switch_page(str(ROOT / "pages" / "walkthrough.py")).run()
    at.switch_page(str(ROOT / "pages" / "lesson.py")).run()
    at.toggle(key=state.key("shared", "present")).set_value(False).run()
    assert at.radio(key="lesson.four_steps.guess").value == 1 and at.toggle(key="lesson.four_steps.reveal").value


# --- The kinds draw their widgets ---


class Recorder:
    """Stands in for ``st`` or a column: records the widget drawn, returns its arguments."""

    def __getattr__(self, style: str):
        return lambda *args, **kwargs: (style, args, kwargs)


def test_each_kind_draws_its_widget_from_its_declaration():
    into = Recorder()
    layer = Int("layer", 1, lo=1, hi=6)
    assert layer.widget(into, "Layer", "real.layer") == ("slider", ("Layer", 1, 6), {"key": "real.layer"})
    assert layer.widget(into, "Layer", "k", style="number_input") == ("number_input", ("Layer", 1, 6), {"key": "k", "step": 1})
    style, args, kwargs = layer.widget(into, "Layer", "k", style="segmented_control", help="?")
    assert (style, args, kwargs) == ("segmented_control", ("Layer", range(1, 7)), {"key": "k", "required": True, "help": "?"})
    assert layer.widget(into, "Layer", "k", style="selectbox", hi=3)[1] == ("Layer", range(1, 4))  # narrowed by the run
    assert Float("length", 2.0, lo=0.1, hi=5.0, step=0.1).widget(into, "L", "k") == ("slider", ("L", 0.1, 5.0), {"step": 0.1, "key": "k"})
    tau = Choice("tau", 1.0, options=(0.5, 1.0, 2.0))
    assert tau.widget(into, "τ", "k") == ("select_slider", ("τ", (0.5, 1.0, 2.0)), {"key": "k"})
    assert tau.widget(into, "τ", "k", style="radio", options=(1.0, 2.0))[1] == ("τ", (1.0, 2.0))
    assert Choices("scores", ("dot",), options=("dot", "cosine")).widget(into, "S", "k") == ("multiselect", ("S", ("dot", "cosine")), {"key": "k"})
    assert Flag("causal", True).widget(into, "C", "k") == ("toggle", ("C",), {"key": "k"})
    assert Text("doc", "hierarchy.default").widget(into, "D", "k", style="text_area") == ("text_area", ("D",), {"key": "k"})
    for param, style in ((layer, "toggle"), (tau, "slider"), (Flag("causal", True), "slider")):
        with pytest.raises(ValueError, match="is drawn as one of"):
            param.widget(into, "x", "k", style=style)
    with pytest.raises(ValueError):  # a code in a link, never a widget
        Token("join", "").widget(into, "x", "k")


# --- In the app: every value in use has its widget, with the registry's bounds ---


def view_values(page: Page, **params: object) -> dict:
    return {p.name: p.default for p in SHARED + ALWAYS + page.params} | params


# Views that draw every widget of every page (the walkthrough's, the lesson's and the browser's values are the step
# component's; test_the_views_cover_every_widget proves the list whole).
VIEWS = [("walkthrough", {"walk": "random", "mode": "local"}), ("cosine", {}), ("scaling", {}), ("multihead", {}), ("cross", {}),
         ("hierarchy", {}), ("rnn", {})]
VIEWS += [("types", {"section": s}) for s in BY_ID["types"].params[0].options]
VIEWS += [("positions", {"section": s}) for s in BY_ID["positions"].params[0].options]
VIEWS += [("learn", {"section": s}) for s in ("watch", "decode", "train")]
VIEWS += [("real", {"section": s}) for s in ("heads", "layer", "corpus")]
VIEWS += [("vision", {"section": s}) for s in ("sentence", "looks")]
# Chosen in the walkthrough's step component (its sentence box too, on a screen: Page.draws).
STEP_COMPONENT = {("walkthrough", "walk"), ("walkthrough", "layer"), ("walkthrough", "text")}


def drawn_here(page: Page, values: dict) -> dict[str, Param]:
    """The values a view draws widgets for, by session key: its shared settings (sidebar or body), its own in use."""
    shared = {state.key("shared", name): SHARED_BY_NAME[name] for name in (*page.shared_names(values), "lang", "present")
              if (page.id, name) not in STEP_COMPONENT}
    own = {state.key(page.id, p.name): p for p in page.own_params(values)
           if p.name not in page.browser and not isinstance(p, Token) and (page.id, p.name) not in STEP_COMPONENT}
    return shared | own


def test_the_views_cover_every_widget():
    """``VIEWS`` draws the widget of every value of every page that has one."""
    covered = {key for page_id, params in VIEWS for key in drawn_here(BY_ID[page_id], view_values(BY_ID[page_id], **params))}
    every = {state.key(page.id, p.name) for page in PAGES for p in page.params
             if p.name not in page.browser and not isinstance(p, Token) and (page.id, p.name) not in STEP_COMPONENT}
    every |= {state.key("shared", p.name) for p in SHARED + ALWAYS}
    assert every <= covered, every - covered


def bounds(widget) -> tuple:
    """What a drawn widget allows: (min, max) of a slider or number box, else the number of its options."""
    if widget.type in ("slider", "number_input"):
        return widget.min, widget.max
    return (len(widget.options),)


def declared(param: Param, widget) -> tuple:
    if isinstance(param, Int):
        return (param.lo, param.hi) if widget.type in ("slider", "number_input") else (param.hi - param.lo + 1,)
    if isinstance(param, Float):
        return param.lo, param.hi
    return (len(param.options),)


@pytest.mark.parametrize(("page_id", "params"), VIEWS, ids=lambda v: v if isinstance(v, str) else "-".join(map(str, v.values())))
def test_every_widget_has_the_registrys_bounds(page_id, params):
    """Each value the view uses has its widget, which allows what the registry declares: the same bounds or as many
    options; a value ``NARROWED`` by the run allows a part of them."""
    page = BY_ID[page_id]
    at = open_app(page_id, text="the cat sat on the mat", **params)
    widgets = {w.key: w for kind in ("slider", "select_slider", "number_input", "button_group", "selectbox", "radio", "multiselect",
                                      "toggle", "text_input", "text_area") for w in at.get(kind)}
    expected = drawn_here(page, view_values(page, **params))
    assert set(expected) <= set(widgets), f"no widget for {set(expected) - set(widgets)}"
    for key, param in expected.items():
        widget = widgets[key]
        if isinstance(param, Flag | Text):
            continue
        shown, allowed = bounds(widget), declared(param, widget)
        if (page_id, param.name) not in NARROWED:
            assert shown == allowed, (key, shown, allowed)
        elif len(shown) == 2:
            assert allowed[0] <= shown[0] <= shown[1] <= allowed[1], (key, shown, allowed)
        else:
            assert 0 < shown[0] <= allowed[0], (key, shown, allowed)
        if isinstance(param, Float):
            assert widget.step == pytest.approx(param.step), key
