"""Compare mode of the walkthrough: walk B, the same sentence as walk A under settings that differ, and the controls
that choose it (a preset for one of the article's claims, or B's own settings).

The link says what B changes, readably: ``compare=score:dot`` (B is A unscaled), ``compare=d_k:64,heads:4``,
``compare=walk:pretrained``. ``read_spec`` reads it with the settings' own parameters (a value out of range is
clamped, an unknown name dropped, each with a notice); ``write_spec`` writes it back.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import streamlit as st

from attention_core.embedding import tokenize
from attention_plot.text import Texts
from views.shell import state
from views.shell.page import Settings, View
from views.shell.params import Choice, Flag, Notice, Param
from views.shell.registry import SHARED_BY_NAME, TEMPERATURES

# What B may change, in the order a label says it.
CHANGEABLE = ("walk", "d_k", "heads", "score", "temperature", "mode", "causal", "pe", "rope", "seed")
# B's own settings beside the sidebar's: B walks a sentence (not the article's fixed example); the temperature divides
# the scaled scores once more; a causal mask lets word i see only words 1..i; RoPE turns each query and key by its
# word's position. A walks with none of them (1.0, off, off).
OWN = {"walk": Choice("walk", "random", options=("random", "pretrained")),
       "temperature": Choice("temperature", 1.0, options=TEMPERATURES),
       "causal": Flag("causal", False),
       "rope": Flag("rope", False)}
CORE_ONLY = ("temperature", "causal", "rope")  # the core's options that are no sidebar setting (``choose_walk``'s overrides)


def param_of(name: str) -> Param:
    return OWN.get(name) or SHARED_BY_NAME[name]


def read_spec(spec: str) -> tuple[dict[str, Any], list[Notice]]:
    """B's settings that differ from A's, from the link's text ("name:value,..."), and a notice for each part that had
    to change: a name B cannot change is dropped, a value is read (and clamped) by that setting's own parameter."""
    found: dict[str, Any] = {}
    notices: list[Notice] = []
    for part in filter(None, spec.split(",")):
        name, _, given = part.partition(":")
        if name not in CHANGEABLE or name in found:  # a name said twice: the first one counts
            notices.append(Notice("compare", part, "", "unknown"))
            continue
        value, notice = param_of(name).read(given)
        found[name] = value
        if notice is not None:
            notices.append(notice._replace(param=f"compare {name}"))
    return found, notices


def write_spec(changes: dict[str, Any]) -> str:
    """The link's text for B's changes, in ``CHANGEABLE``'s order (``read_spec`` reads it back)."""
    return ",".join(f"{name}:{param_of(name).write(changes[name])}" for name in CHANGEABLE if name in changes)


@dataclass(frozen=True)
class Preset:
    """One of the article's claims as a comparison: A's settings (``a``, with random weights) and what B changes."""

    a: dict[str, Any]
    b: dict[str, Any]
    repeated: bool = False  # what to look for needs a word said twice: a sentence without one becomes REPEATED's


PRESETS = {
    "scaling": Preset({"d_model": 64, "d_k": 64, "heads": 1, "score": "scaled_dot", "mode": "soft"}, {"score": "dot"}),
    "heads": Preset({"heads": 1, "score": "scaled_dot", "mode": "soft"}, {"heads": 4}),
    "hard": Preset({"heads": 1, "score": "scaled_dot", "mode": "soft"}, {"mode": "hard"}),
    "positions": Preset({"heads": 1, "score": "scaled_dot", "mode": "soft", "pe": False}, {"rope": True}, repeated=True),
    "trained": Preset({}, {"walk": "pretrained"}),
}
CHOICES = ("off", *PRESETS, "own")
REPEATED = {"en": "the cat sat on the mat", "zh": "小猫看小狗"}  # a word twice: "the" (1, 5), 小 (1, 4)


def repeats(text: str) -> bool:
    """Whether some token of ``text`` appears twice."""
    tokens = tokenize(text)
    return len(set(tokens)) < len(tokens)


def preset_params(name: str, text: str) -> dict[str, str]:
    """A preset as a link's values: the walkthrough's sentence, A's settings, B's changes, at the softmax step."""
    preset = PRESETS[name]
    return {"text": text, "walk": "random", **{k: param_of(k).write(v) for k, v in preset.a.items()},
            "compare": write_spec(preset.b), "step": "5"}


def a_value(view: View, name: str) -> Any:
    """A's value of a setting B may change (the walk is the page's own; temperature and mask their defaults; the rest
    are the sidebar's)."""
    if name == "walk":
        return view["walk"]
    return OWN[name].default if name in CORE_ONLY else getattr(view.settings, name)


def preset_of(view: View, changes: dict[str, Any]) -> str | None:
    """The preset the view shows now (A's settings and B's changes both as it sets them), or None."""
    for name, preset in PRESETS.items():
        if preset.b == changes and view["walk"] == "random" and all(a_value(view, k) == v for k, v in preset.a.items()):
            return name
    return None


def changes_of(view: View) -> dict[str, Any]:
    """B's changes as the view's link says them, without those equal to A's (B then differs in what it says)."""
    if view["walk"] == "textbook":
        return {}
    return differing(view, read_spec(view["compare"] or "")[0])


def differing(view: View, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` without those equal to A's, nor a temperature or mask beside a real model (a trained model's layer
    has its own scaling and no mask)."""
    if changes.get("walk", view["walk"]) == "pretrained":
        changes = {k: v for k, v in changes.items() if k not in CORE_ONLY}
    return {k: v for k, v in changes.items() if a_value(view, k) != v}


def b_settings(view: View, changes: dict[str, Any]) -> Settings:
    """B's shared settings: A's with B's changes (the walk aside: ``choose_walk``'s kind)."""
    return dataclasses.replace(view.settings, **{k: v for k, v in changes.items() if k != "walk" and k not in CORE_ONLY})


def b_overrides(changes: dict[str, Any]) -> dict[str, Any]:
    """B's options of the core that are no sidebar setting: ``temperature``, ``causal``, ``rope`` (``cache.core_options``)."""
    return {k: v for k, v in changes.items() if k in CORE_ONLY}


def describe(T: Texts, name: str, value: Any, layer: int) -> str:
    """One setting in a side's label: "d_k 64", "dot product", "4 heads", "MiniLM, layer 1"."""
    if name == "walk":
        return T(f"walkthrough.compare.describe.walk_{value}", layer=layer)
    if name in ("score", "mode"):
        return T(f"common.{name}s.{value}")
    if name in ("pe", "causal", "rope"):
        return T(f"walkthrough.compare.describe.{name}_{'on' if value else 'off'}")
    if name == "temperature":
        return T("walkthrough.compare.describe.temperature", value=f"{value:g}")
    if name == "heads":
        return T("walkthrough.compare.describe.one_head" if value == 1 else "walkthrough.compare.describe.heads", value=value)
    return T(f"walkthrough.compare.describe.{name}", value=value)


def labels(view: View, changes: dict[str, Any]) -> tuple[str, str]:
    """The two sides' names by the settings in which they differ: "A · scaled dot product", "B · dot product"."""
    layer = view["layer"]
    names = [name for name in CHANGEABLE if name in changes]
    a = ", ".join(describe(view.T, name, a_value(view, name), layer) for name in names)
    b = ", ".join(describe(view.T, name, changes[name], layer) for name in names)
    return f"A · {a}", f"B · {b}"


# --- The controls (a screen's walkthrough, above the step component) ---

CHOICE_KEY = "walkthrough.compare_choice"
BEFORE_KEY = "walkthrough.compare_before"  # A's settings as they were before a preset set them ("nothing" puts them back)
AUTO_SEED = "walkthrough.compare_auto_seed"  # "B's own settings" began B with another seed, until B's first own change
DRAWN_KEY = "walkthrough.compare_drawn"  # (B's changes, version) B's settings were last drawn for
FROM_B = "walkthrough.compare_from_b"  # B's changes were just written by one of B's own settings


def _b_key(name: str, version: int) -> str:
    """B's setting's widget key. Its version changes whenever B's changes come from elsewhere (a preset, a link, Back):
    a widget the browser kept with an older value (a closed pop-over's) is then never read again."""
    return f"walkthrough.compare_b.{version}.{name}"


def _chosen(view: View) -> None:
    """A preset chosen: A's settings and B's changes as it sets them (the whole page reruns: the sidebar shows A's),
    A's settings before kept; "own": B as it is (or A with its seed changed); "off": one walk, A's settings put back
    as they were before a preset."""
    choice = st.session_state.get(CHOICE_KEY, "off")
    st.session_state.pop(AUTO_SEED, None)
    if choice == "off":
        for name, value in st.session_state.pop(BEFORE_KEY, {}).items():
            st.session_state[state.key("shared", name)] = value
        view.set("compare", "")
    elif choice == "own":
        changes = changes_of(view)
        if not changes:  # B must differ in something: another seed, dropped at B's first change of its own
            changes = {"seed": view.settings.seed + 1}
            st.session_state[AUTO_SEED] = True
        view.set("compare", write_spec(changes))
    else:
        preset = PRESETS[choice]
        names = {"text"} | {name for each in PRESETS.values() for name in each.a}
        before = st.session_state.setdefault(BEFORE_KEY, {name: getattr(view.settings, name) for name in names})
        own = {"text": REPEATED[state.shared("lang")]} if preset.repeated and not repeats(before["text"]) else {}
        for name, value in (before | preset.a | own).items():  # from any preset before: A as it was, then this one's A
            st.session_state[state.key("shared", name)] = value
        view.set("walk", "random")
        view.set("compare", write_spec(preset.b))


def _b_changed(view: View, name: str, version: int) -> None:
    """B's setting ``name`` changed: that one change written into B's changes (left out where it equals A's)."""
    changes = dict(changes_of(view))
    if st.session_state.pop(AUTO_SEED, False) and name != "seed":
        changes.pop("seed", None)  # the seed "own" began with: B now differs in what the student chose
    value = st.session_state.get(_b_key(name, version))
    if value is None or value == a_value(view, name):
        changes.pop(name, None)
    else:
        changes[name] = value
    view.set("compare", write_spec(changes))
    st.session_state[FROM_B] = True


def _version(changes: dict[str, Any]) -> int:
    """The version of B's settings' widgets for these changes: the same while B's own settings make them."""
    spec = write_spec(changes)
    drawn, version = st.session_state.get(DRAWN_KEY, ("", 0))
    if drawn != spec and not st.session_state.pop(FROM_B, False):
        version += 1
    st.session_state[DRAWN_KEY] = (spec, version)
    return version


def controls(view: View, changes: dict[str, Any]) -> None:
    """"Compare with" (off, a preset or B's own settings) and, with B on, B's settings in a pop-over beside it, on one
    row; under it, the settings of A a preset set (a preset's "what to look for" is drawn by the step component)."""
    T = view.T
    current = preset_of(view, changes) or ("own" if changes else "off")
    st.session_state[CHOICE_KEY] = current
    choice, settings = st.columns([3, 1], vertical_alignment="bottom")
    choice.selectbox(T("walkthrough.compare.label"), CHOICES, key=CHOICE_KEY, on_change=_chosen, args=(view,),
                     format_func=lambda c: T(f"walkthrough.compare.choices.{c}"), help=T("walkthrough.compare.help"))
    if current in PRESETS:
        parts = [describe(T, name, value, view["layer"]) for name, value in PRESETS[current].a.items()]
        if PRESETS[current].repeated and st.session_state.get(BEFORE_KEY, {}).get("text", view.settings.text) != view.settings.text:
            parts.insert(0, T("walkthrough.compare.describe.text", value=view.settings.text))  # REPEATED's sentence
        set_a = ", ".join(parts)
        st.caption(T("walkthrough.compare.set_a", settings=set_a) if set_a else T("walkthrough.compare.set_none"))
    if not changes:
        return
    version = _version(changes)
    with settings.popover(T("walkthrough.compare.b_settings"), icon=":material/tune:", width="stretch"):
        st.caption(T("walkthrough.compare.b_settings_help"))
        for name in CHANGEABLE:
            key = _b_key(name, version)
            st.session_state[key] = changes.get(name, a_value(view, name))
            label = T("walkthrough.walk") if name == "walk" else T(f"walkthrough.compare.b_{name}") if name in CORE_ONLY \
                else T(f"common.sidebar.{name}")
            display: dict[str, Any] = {"on_change": _b_changed, "args": (view, name, version)}
            if name == "walk":
                display["format_func"] = lambda w: T(f"walkthrough.walks.{w}")
            elif name == "temperature":
                display["format_func"] = lambda t: f"{t:g}"
            elif name in ("score", "mode"):
                display["format_func"] = lambda o, g={"score": "scores", "mode": "modes"}[name]: T(f"common.{g}.{o}")
            style = "selectbox" if name in ("walk", "score", "mode", "temperature") else "number_input" if name == "seed" else None
            param_of(name).widget(st, label, key, style=style, **display)
