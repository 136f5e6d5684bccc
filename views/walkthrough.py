"""The walkthrough: which numbers to walk through, and every step of every head sent once to the step component.

The server computes a walk (random weights, the article's example or a real model's layer) when the sentence or a
setting changes, and packs every step of every head (``views.widgets.walk``: one function per step returns the step's
blocks). The browser steps through them (``assets/components/steps/``); the server hears of the view only for a new
walk or layer (new numbers), the hands-on editor and a live class's question about the focused word.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from attention_core import Explanation, tokenize
from attention_plot import figures, standalone
from attention_plot.text import Texts
from views.shell import messages, state
from views.shell.page import Layout, Settings, View
from views.shell.params import MAX_TEXT_CHARS
from views.shell.registry import BY_ID, EXAMPLES, MAX_TOKENS
from views.widgets import ask, cache, compare, steps
from views.widgets import model as real
from views.widgets.compare_pack import pack_compare
from views.widgets.hands_on import edit_numbers
from views.widgets.walk import Walk, pack_steps, steps_for

# The walks and layers the step component offers (it draws their choice), as the registry declares them.
WALKS = BY_ID["walkthrough"].param("walk").options  # random, textbook, pretrained
_LAYER = BY_ID["walkthrough"].param("layer")
LAYERS = tuple(range(_LAYER.lo, _LAYER.hi + 1))  # all-MiniLM-L6-v2's layers
STEPS_KEY = "walk-steps"  # the step component's key on this page
TEXTBOOK_FIRST_STEP = 3  # the article's figure starts from q, k and v: its first number is a raw score


# --- Choosing the walk: random weights, the article's example, or a real model's layer ---


@dataclass(frozen=True)
class Message:
    """Nothing to walk through yet (an empty sentence, settings the core refuses): what to say instead."""

    text: str


def _pretrained(view: View) -> Explanation | Message | None:
    """A real model's layer as an explanation; None (with a message) when the model is missing."""
    model = real.model()
    if model is None:
        st.warning(view.T("walkthrough.model_missing"), icon=":material/download:")
        return None
    if not tokenize(view.settings.text):
        return Message(view.T("walkthrough.empty"))
    trace = real.run(model, str(model.folder), view.settings.text)
    if trace.dropped:
        st.warning(view.T("real.cut", total=len(trace.tokens) + trace.dropped, kept=len(trace.tokens), dropped=trace.dropped),
                   icon=":material/content_cut:")
    return model.explanation(trace, view["layer"] - 1)


def _random(view: View, settings: Settings, overrides: dict[str, Any]) -> Explanation | Message:
    """The sentence with random weights under ``settings`` (and the core's ``overrides``: compare mode's temperature or
    causal mask), or what keeps it from being computed (said in the step component)."""
    if not tokenize(settings.text):
        return Message(view.T("walkthrough.empty"))
    try:
        explanation = cache.explanation_for(settings, **overrides)
    except ValueError as error:
        return Message(view.T("common.notices.error", message=figures.plain(str(error))))
    messages.show_cut(len(explanation.tokens) + explanation.dropped[0], explanation.dropped[0], view.T)
    return explanation


def choose_walk(view: View, kind: str | None = None, settings: Settings | None = None,
                overrides: dict[str, Any] | None = None) -> Walk | Message:
    """The numbers to walk through: random weights, the article's example or a real model's layer; a ``Message`` when
    there is nothing to show yet (the sentence box stays on the screen). ``kind``, ``settings`` and ``overrides`` (the
    core's options beside the settings): compare mode's walk B (the view's own when None)."""
    kind = kind or view["walk"]
    settings = settings or view.settings
    if kind == "textbook":
        trace = cache.textbook()
        return Walk("textbook", ("Thinking", "Machines"), ("Thinking", "Machines"), (trace,), None)
    explanation = _pretrained(view) if kind == "pretrained" else None
    if explanation is None:
        kind = "random"
        explanation = _random(view, settings, overrides or {})
    if isinstance(explanation, Message):
        return explanation
    return Walk(kind, explanation.tokens, explanation.context_tokens, explanation.trace.heads, explanation,
                view["layer"] if kind == "pretrained" else None)


# --- The step component's part of the page ---


def _rerun_page() -> None:
    """An event of the component: the part reruns and ``_take`` reads what the browser asked for."""


def _keep_text() -> None:
    """The sentence sent from the steps' box, kept before the script's body runs. A trigger lives one run: when the
    next control (a slider the focus moved to, which sent the box's words) interrupts that run before ``_take``, the
    words would be lost; a callback runs before any interruption, and its session state stays."""
    sent = st.session_state.get(STEPS_KEY, {}).get("text")
    if isinstance(sent, str):
        st.session_state[state.key("shared", "text")] = sent[:MAX_TEXT_CHARS]


def _take(view: View, result: Any, walk: Walk | Message) -> None:
    """What the browser asked of the server: a sentence, another walk or layer (new numbers), leaving presenter mode,
    asking the live class about the focused word."""
    if isinstance(result.text, str):
        text = result.text[:MAX_TEXT_CHARS]
        if text != view.settings.text:
            st.session_state[state.key("shared", "text")] = text
            st.rerun(scope="app")
    if result.walk in WALKS and result.walk != view["walk"]:
        view.set("walk", result.walk)
        st.rerun(scope="app")
    if isinstance(result.layer, int) and result.layer in LAYERS and result.layer != view["layer"]:
        view.set("layer", result.layer)
        st.rerun(scope="app")
    if result.present is not None:
        st.session_state[state.key("shared", "present")] = bool(result.present)
        st.rerun(scope="app")
    if isinstance(result.ask, dict) and isinstance(walk, Walk):
        head, focus = _head_and_focus(result.ask, walk)
        view.set("predict", True)  # the room guesses: the teacher's screen hides the weights too (steps.js switches it on)
        item = live_item(walk, head, focus)
        ask.remember_walk(item)
        ask.ask_now(view.T, item)


def _head_and_focus(said: object, walk: Walk) -> tuple[int, int]:
    """The head and focused query (0-based) the browser reported, kept inside the walk (a tampered report is clamped)."""
    said = said if isinstance(said, dict) else {}

    def number(name: str, most: int) -> int:
        try:
            return min(max(int(said.get(name, 1)), 1), most) - 1
        except (TypeError, ValueError):
            return 0

    return number("head", len(walk.heads)), number("focus", len(walk.tokens))


def live_item(walk: Walk, head: int, focus: int) -> ask.Item:
    """The focused word's question for a live class, named by the weights this walk shows (``ask.focus_item``)."""
    return ask.focus_item(walk.heads[head].weights[focus], walk.key_tokens, focus, walk.setting(head))


def steps_part(view: View, walk: Walk | Message) -> None:
    """The step component with every step of the walk; below it, the hands-on editor for the reported word (a part of
    the page that reruns alone: a report reruns only this)."""
    T = view.T
    teaching = ask.teaching()
    askable = isinstance(walk, Walk) and teaching and 2 <= len(walk.key_tokens) <= ask.MAX_OPTIONS
    other = side_b(view, walk)
    server = view_values(view, walk, other) if isinstance(walk, Walk) else ()
    payload = walk_payload(walk, view, server, state.view_token(view.page.id), askable, teaching, other)
    events = {f"on_{name}_change": _rerun_page for name in ("report", "ask", "walk", "layer", "present")}
    result = steps.show(payload, key=STEPS_KEY, on_text_change=_keep_text, **events)
    _take(view, result, walk)
    if not isinstance(walk, Walk):
        return
    report = result.report if isinstance(result.report, dict) else {}
    head, focus = _head_and_focus(report, walk)
    if askable:
        ask.remember_walk(live_item(walk, head, focus))
    if report.get("hands") and view.layout.extras:
        trace = walk.heads[head]
        edit_numbers(trace, walk.key_tokens, focus, T, key=f"edit-{abs(hash((walk.tokens, head, focus)))}")
    if askable:
        st.page_link(BY_ID["live"].file_path, label=T("live.teacher.see_answers"), icon=":material/groups:")
    saved = functools.partial(saved_page, payload, view, walk, other, saved_link(view, server))
    into = st if view.layout.extras else st.sidebar  # presenter mode: the steps fill the screen, the file waits aside
    into.download_button(T("walkthrough.saved.download"), saved, file_name="attention-walk.html", mime="text/html",
                       key="download-html", on_click="ignore", icon=":material/download:", help=T("walkthrough.saved.download_help"))
    if view.layout.extras and walk.explanation is not None:
        sides = other is not None and other.explanation is not None
        names = compare.labels(view, compare.changes_of(view)) if sides else ("", "")
        made = functools.partial(_json_sides, walk.explanation, other.explanation, names) if sides else \
            functools.partial(_json, walk.explanation)
        st.download_button(T("walkthrough.download_json"), made, file_name="attention-compare.json" if sides else "attention-view.json",
                           mime="application/json", key="download-json", on_click="ignore", icon=":material/data_object:",
                           help=T("walkthrough.compare.json_help" if sides else "walkthrough.download_json_help"))


def saved_link(view: View, server: tuple) -> str | None:
    """The app's address of this walk, to reopen a saved file live: the page's link and the view the server knows."""
    base = st.context.url
    if not base:
        return None
    names = ("step", "head", "focus", "values", "all", "predict")
    params = state.link(view.page) | {name: str(int(value)) for name, value in zip(names, server, strict=False)}
    return f"{base}?{urlencode(params)}"


def saved_page(payload: bytes, view: View, walk: Walk, other: Walk | None, link: str | None) -> str:
    """This walk (and walk B beside it) as one HTML file that needs no server (attention_plot/standalone.py), in the
    reader's language, saying which sentence, settings and numbers made it."""
    T, s = view.T, view.settings
    settings: list[tuple[str, str]] = []
    if walk.kind == "random":
        settings = [("d_model", str(s.d_model)), ("d_k", str(s.d_k)), ("heads", str(s.heads)), ("score", s.score),
                    ("mode", s.mode), ("PE", "1" if s.pe else "0"), ("seed", str(s.seed))]
    elif walk.layer:
        settings = [(T("walkthrough.layer"), str(walk.layer))]
    if other is not None:
        settings.append((T("walkthrough.compare.label"), " / ".join(compare.labels(view, compare.changes_of(view)))))
    sentence = " ".join(walk.tokens) if walk.textbook else s.text
    return standalone.page(payload, lang=T.lang, link=link, sentence=sentence, settings=settings,
                           numbers=T(f"walkthrough.walks.{walk.kind}"))


def _json(explanation: Explanation) -> str:
    from attention_core import to_json

    return to_json(explanation)


def _json_sides(a: Explanation, b: Explanation, names: tuple[str, str]) -> str:
    """Compare mode's view: {"A": {"name", "view"}, "B": {...}}, each view as ``attention_core.from_json`` reads it."""
    import json

    return json.dumps({side: {"name": name, "view": json.loads(_json(e))} for side, name, e in (("A", names[0], a), ("B", names[1], b))},
                      ensure_ascii=False)


def view_values(view: View, walk: Walk, other: Walk | None = None) -> tuple:
    """The view the server knows (a link's, the session's), clamped to this walk (and walk B's steps and heads in
    compare mode): step, head, focus, numbers, all, predict."""
    total = len(set(steps_for(walk)) | set(steps_for(other) if other else ()))
    heads = max(len(walk.heads), len(other.heads) if other else 0)
    return (view.clamp("step", 1, total), view.clamp("head", 1, heads), view.clamp("focus", 1, len(walk.tokens)),
            bool(view["values"]), bool(view["all"]), bool(view["predict"]))


# --- Compare mode: walk B beside walk A ---


def side_b(view: View, walk: Walk | Message) -> Walk | None:
    """Walk B (views/widgets/compare.py) where the link or the session compares, with its controls above the steps on a screen
    and a notice for a comparison the link could not say as given; None for one walk."""
    if not isinstance(walk, Walk) or walk.textbook:
        return None
    spec = view["compare"] or ""
    read, notices = compare.read_spec(spec)
    if notices:  # said once: the link then says what is shown
        messages.show_notices(notices, view.T)
        view.set("compare", compare.write_spec(compare.differing(view, read)))
    changes = compare.changes_of(view)
    if view.layout.extras:
        compare.controls(view, changes)
    if not changes:
        return None
    kind = changes.get("walk", view["walk"])
    other = choose_walk(view, kind, compare.b_settings(view, changes), compare.b_overrides(changes))
    # the real model missing: B would be A's random walk under the real model's name (its warning says why there is none)
    return other if isinstance(other, Walk) and other.kind == kind else None


# --- The payload: every step of every head ---


def identity_of(walk: Walk | Message) -> tuple:
    """What names a walk's numbers (how they were made): its kind, layer, tokens, options and heads."""
    if isinstance(walk, Message):
        return ("message", walk.text)
    options = walk.explanation.options if walk.explanation is not None else None
    return (walk.kind, walk.layer, walk.tokens, options, len(walk.heads))


def walk_payload(walk: Walk | Message, view: View, server: tuple, token: str, askable: bool, teaching: bool,
                 other: Walk | None = None) -> bytes:
    """The step component's payload for this walk (and walk B beside it in compare mode): its steps and numbers made
    once for every session (``walk_parts``), with this session's token, view and live class; for a ``Message``, the
    sentence box and the message alone."""
    sides = None
    if other is not None:
        changes = compare.changes_of(view)
        preset = compare.preset_of(view, changes)
        sides = (*compare.labels(view, changes), f"walkthrough.compare.look.{preset}" if preset else None)
    identity = identity_of(walk) + ((identity_of(other), sides) if other else ())
    box = None if not view.layout.extras or view["walk"] == "textbook" else view.settings.text
    parts = walk_parts(identity, walk, view.layout, view.T.lang, box, view["walk"], view["layer"], other, sides)
    step, head, focus, values, all_, predict = server or (1, 1, 1, True, False, False)
    return steps.assemble(parts, token=token, ask=askable, teaching=teaching,
                          view={"step": step, "head": head, "focus": focus, "values": values, "all": all_, "predict": predict})


@st.cache_resource(max_entries=64, show_spinner=False)
def walk_parts(identity: tuple, _walk: Walk | Message, layout: Layout, lang: str, box: str | None, kind: str, layer: int,
               _other: Walk | None = None, sides: tuple[str, str, str | None] | None = None) -> tuple:
    """Every step of the walk (and of walk B beside it, ``_other``: ``sides`` names A and B, and a preset's hint) and its numbers
    (``steps.Pack.parts``), made once per walk (named by ``identity``: how its numbers were made), layout, language and
    sentence box, and shared by every session that shows them. ``_walk`` and ``_other`` are not part of the key
    (Streamlit hashes no argument whose name starts with "_"): ``identity`` names them already."""
    walk = _walk
    T = Texts(lang)
    pack = steps.Pack(T)
    pack.header.update(
        page="walkthrough", layout=layout.name, font=layout.chart_font, lang=lang, texts=steps.component_texts(T, lang),
        csv="attention-walkthrough", intro=steps.markdown(T("walkthrough.intro")) if layout.explains else None,
        url={"step": "step", "head": "head", "focus": "focus", "values": "values", "all": "all", "predict": "predict"},
        walks={"current": kind, "options": list(WALKS), "labels": [T(f"walkthrough.walks.{w}") for w in WALKS],
               "layers": list(LAYERS) if kind == "pretrained" else [], "layer": layer},
        sentence=None if box is None else {"text": box, "examples": list(EXAMPLES), "label": T("common.sidebar.text"),
                                           "help": T("common.sidebar.text_help", max_tokens=MAX_TOKENS), "show": T("walkthrough.show"),
                                           "examples_label": T("common.sidebar.examples"), "placeholder": EXAMPLES[0],
                                           "pick": T("common.sidebar.examples_placeholder"), "max": MAX_TEXT_CHARS},
    )
    if isinstance(walk, Message):
        pack.header.update(id="message", variant="message", steps=[], heads=1, tokens=[], keys=[], message=steps.markdown(walk.text))
        return pack.parts()
    pack.header.update(
        id=hashlib.sha1(repr(identity).encode()).hexdigest()[:12], variant=walk.kind,
        enter={"step": TEXTBOOK_FIRST_STEP} if walk.textbook else {},
        note=T("walkthrough.weights_pretrained", layer=walk.layer) if walk.layer else
        T("walkthrough.textbook.active") if walk.textbook else T("walkthrough.weights_random"),
    )
    if _other is not None and sides is not None:
        pack_compare(pack, walk, _other, T, layout, sides[:2], sides[2])
    else:
        pack_steps(pack, walk, steps_for(walk), T, layout)
    return pack.parts()
