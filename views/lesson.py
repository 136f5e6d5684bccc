"""The lesson path: the article's order as stops, each with a view to open, a question, and an answer computed by the core."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

import numpy as np
import streamlit as st

from attention_core import asymmetry, explain, softmax, textbook_example
from attention_core.pretrained import head_summary
from attention_plot import figures
from attention_plot.text import Texts
from views import real
from views.shell.page import View
from views.shell.registry import BY_ID, LONG_EXAMPLE, MAX_TOKENS

Answer = Callable[[], dict[str, object]]  # the numbers the answer states, computed now


def _textbook() -> dict[str, object]:
    trace = textbook_example()
    return {"weight": f"{trace.weights[0, 0]:.2f}", "other": f"{trace.weights[0, 1]:.2f}", "scaled": f"{trace.scaled_scores[0, 0]:g}"}


def _sentence() -> dict[str, object]:
    weights = explain(LONG_EXAMPLE, max_tokens=MAX_TOKENS).trace.heads[0].weights
    return {"n": weights.shape[0], "cells": weights.size, "sums": f"{weights.sum(axis=1).min():.4f}"}


def _shared_matrix() -> dict[str, object]:
    shared = explain(LONG_EXAMPLE, heads=1, shared_qk=True, max_tokens=MAX_TOKENS).trace.heads[0].raw_scores
    separate = explain(LONG_EXAMPLE, heads=1, max_tokens=MAX_TOKENS).trace.heads[0].raw_scores
    return {"shared": f"{np.abs(asymmetry(shared)).max():.4f}", "separate": f"{np.abs(asymmetry(separate)).max():.2f}"}


def _hard() -> dict[str, object]:
    weights = explain(LONG_EXAMPLE, heads=1, mode="hard", max_tokens=MAX_TOKENS).trace.heads[0].weights
    return {"keys": int((weights > 0).sum(axis=1).max())}


def _heads() -> dict[str, object]:
    e = explain(LONG_EXAMPLE, d_model=16, d_k=4, heads=4, max_tokens=MAX_TOKENS)
    return {"d_k": e.trace.heads[0].q.shape[1], "concat": e.trace.concat.shape[1]}


def _cross() -> dict[str, object]:
    e = explain("我是一个学生", context="I am a student", heads=1)
    return {"rows": len(e.tokens), "cols": len(e.context_tokens)}


def _rnn() -> dict[str, object]:
    n = len(explain(LONG_EXAMPLE, max_tokens=MAX_TOKENS).tokens)
    return {"n": n, "rnn": n, "attention": 1}


def _scaling() -> dict[str, object]:
    raw = softmax(np.array([[112.0, 96.0]]))[0, 0]
    return {"std": f"{math.sqrt(64):g}", "unscaled": f"{raw:.7f}"}


def _real() -> dict[str, object]:
    model = real.model()
    if model is None:
        return {"share": "–"}
    trace = real.run(model, str(model.folder), "The animal didn't cross the street because it was too tired.")
    return {"share": f"{head_summary(trace)['previous'][0, 2]:.0%}"}


def _learn() -> dict[str, object]:
    from views.learn.data import load_snapshot  # the training page's module, read only by this stop

    closeness = load_snapshot("induction").run.closeness  # (steps, layers, heads)
    best = int(np.argmax(closeness[-1, 1]))  # the layer-2 head that learns the pattern
    return {"before": f"{closeness[0, 1, best]:.2f}", "after": f"{closeness[-1, 1, best]:.2f}", "head": best + 1}


def _positions() -> dict[str, object]:
    from attention_core.positions import permuted, positional_encoding, positioned_head, shuffle_order

    e = explain(LONG_EXAMPLE, heads=1, score="scaled_dot", mode="soft", positions=False, max_tokens=MAX_TOKENS)
    vectors, p = e.token_vectors, e.projections
    order = shuffle_order("reverse", len(e.tokens))
    added = positional_encoding(*vectors.shape)
    gaps = {}
    for scheme in ("none", "sinusoidal"):  # as the positions page measures it (views/positions.py)
        head = positioned_head(vectors, p.w_q, p.w_k, p.w_v, scheme, added=added)
        shuffled = positioned_head(vectors[order], p.w_q, p.w_k, p.w_v, scheme, added=added)
        gaps[scheme] = float(np.abs(shuffled.weights - permuted(head, order)[0]).max())
    return {"none": f"{gaps['none']:.1e}", "sinusoidal": f"{gaps['sinusoidal']:.2f}"}


@dataclass(frozen=True)
class Stop:
    """One stop of the lesson: the page and values it opens, minutes, the right option, and the computed answer;
    ``longer``: a stop of the 60-minute class only."""

    id: str
    page: str
    params: dict[str, str]
    minutes: int
    correct: int  # index of the right option in the texts' list
    answer: Answer
    longer: bool = False


STOPS = (
    Stop("four_steps", "walkthrough", {"walk": "textbook", "step": "3"}, 8, 1, _textbook),
    Stop("your_sentence", "walkthrough", {"walk": "random", "text": LONG_EXAMPLE, "step": "5", "focus": "3", "predict": "1"}, 6, 1,
         _sentence),
    Stop("why_qkv", "why_qkv", {"text": LONG_EXAMPLE}, 5, 1, _shared_matrix),
    Stop("kinds", "types", {"text": LONG_EXAMPLE, "section": "modes"}, 6, 0, _hard),
    Stop("multi_head", "multihead", {"text": LONG_EXAMPLE, "d_model": "16", "heads": "4", "split": "1"}, 5, 2, _heads),
    Stop("cross", "cross", {"pair": "translation"}, 4, 1, _cross),
    Stop("rnn", "rnn", {"text": LONG_EXAMPLE, "step": "3"}, 4, 2, _rnn),
    Stop("scaling", "scaling", {"d_k": "64"}, 4, 0, _scaling),
    Stop("real", "real", {"text": "The animal didn't cross the street because it was too tired.", "layer": "1", "head": "3",
                          "predict": "1", "query": "8"}, 3, 1, _real),  # the class predicts "it" before the head shows
    Stop("positions", "positions", {"text": LONG_EXAMPLE, "section": "positions", "shuffle": "reverse"}, 7, 1, _positions,
         longer=True),
    Stop("learn", "learn", {"section": "watch", "task": "induction", "step": "0"}, 8, 1, _learn, longer=True),
)
SHORT = tuple(stop for stop in STOPS if not stop.longer)  # the 45-minute class


@st.cache_data(show_spinner=False)
def answer_values(stop_id: str) -> dict[str, object]:
    """The numbers a stop's answer states, computed once per server."""
    return next(stop for stop in STOPS if stop.id == stop_id).answer()


def view_url(page_id: str, params: dict[str, str]) -> str:
    """An absolute address of a page with its values (a link a teacher may copy, or open with Ctrl-click)."""
    here = urlsplit(st.context.url or "http://localhost:8501/")
    path = BY_ID[page_id].path
    return f"{here.scheme}://{here.netloc}/{path if not BY_ID[page_id].default else ''}?{urlencode(params)}"


def kept(key: str) -> None:
    """A widget's value outlives a visit to another page (Streamlit forgets the value of a widget it does not draw):
    a copy under another key, put back before the widget is drawn again."""
    copy = f"kept.{key}"
    if key not in st.session_state and copy in st.session_state:
        st.session_state[key] = st.session_state[copy]


def keep(key: str) -> None:
    st.session_state[f"kept.{key}"] = st.session_state[key]


GUESSES_COOKIE = "lesson_guesses"  # the class's guesses and reveals, kept by the browser over a reload


def parse_guesses(text: str) -> dict[str, tuple[int, bool]]:
    """``"four_steps.1.r-why_qkv.0"`` → ``{"four_steps": (1, True), "why_qkv": (0, False)}``: each stop's guess (an
    option's index) and whether its answer was revealed. Anything else in the text (tampered, an old stop) is dropped."""
    ids, found = {stop.id for stop in STOPS}, {}
    for part in text.split("-"):
        stop_id, _, rest = part.partition(".")
        guess, _, revealed = rest.partition(".")
        if stop_id in ids and guess.isdigit() and int(guess) < 10 and revealed in ("", "r"):
            found[stop_id] = (int(guess), revealed == "r")
    return found


def format_guesses(guesses: dict[str, tuple[int, bool]]) -> str:
    """The inverse of ``parse_guesses``, stops in the lesson's order."""
    return "-".join(f"{stop.id}.{guesses[stop.id][0]}{'.r' if guesses[stop.id][1] else ''}" for stop in STOPS
                    if stop.id in guesses)


def restore_guesses() -> None:
    """A reload (a new session) gets the class's guesses and reveals back from the browser's cookie."""
    if "lesson.restored" in st.session_state:
        return
    st.session_state["lesson.restored"] = True
    for stop_id, (guess, revealed) in parse_guesses(str((st.context.cookies or {}).get(GUESSES_COOKIE, ""))).items():
        st.session_state.setdefault(f"kept.lesson.{stop_id}.guess", guess)
        st.session_state.setdefault(f"kept.lesson.{stop_id}.reveal", revealed)


def _clear() -> None:
    for stop in STOPS:
        for name in (f"lesson.{stop.id}.guess", f"lesson.{stop.id}.reveal"):
            st.session_state.pop(name, None)
            st.session_state.pop(f"kept.{name}", None)


def clear_button(T) -> None:
    """For the next class: every stop asks again, and the browser forgets the guesses. Always in its place (nothing
    moves at the first guess), and a second click confirms it (one click never wipes a class's guesses)."""
    with st.popover(T("lesson.clear"), icon=":material/restart_alt:"):
        st.markdown(T("lesson.clear_help"))
        st.button(T("lesson.clear_confirm"), on_click=_clear, type="primary", key="lesson-clear")


def remember_guesses() -> None:
    """The browser keeps the guesses and reveals drawn now (assets/js/shell.js writes the cookie) for a class's hours."""
    from views import live  # the live page reads the stops: imported here, not at the top

    state = st.session_state
    guesses = {stop.id: (state[f"lesson.{stop.id}.guess"], bool(state.get(f"lesson.{stop.id}.reveal"))) for stop in STOPS
               if state.get(f"lesson.{stop.id}.guess") is not None}
    value = format_guesses(guesses)
    if state.get("lesson.remembered", "") != value:
        state["lesson.remembered"] = value
        live.cookie(GUESSES_COOKIE, value, int(live.store.CLASS_HOURS * 3600) if value else 0)


def _stop_state(stop: Stop) -> tuple[int | None, bool]:
    """The class's guess for ``stop`` (an option's index, or None) and whether its answer was revealed."""
    kept(f"lesson.{stop.id}.guess")
    kept(f"lesson.{stop.id}.reveal")
    guess = st.session_state.get(f"lesson.{stop.id}.guess")
    return guess, bool(st.session_state.get(f"lesson.{stop.id}.reveal")) and guess is not None


def _set(name: str, value: object) -> None:
    st.session_state[name] = value
    keep(name)


def presenter(view: View) -> None:
    """On a projector, one stop at a time in the step component: Previous / Next (or ← / →) walk the stops, the class's
    guess opens the view's links, and the answer waits for the reveal. A guess, a reveal or a question for the live
    class goes to the server (the same guesses as on the screen, kept over a reload)."""
    from views import live  # the live page reads the stops: imported here, not at the top
    from views.widgets import steps

    T = view.T
    stops = SHORT + tuple(stop for stop in STOPS if stop.longer)
    state_now = tuple(_stop_state(stop) for stop in stops)
    teaching = live.TEACHER in st.session_state
    result = steps.show(lesson_payload(view.settings.lang, state_now, (view.clamp("stop", 1, len(stops)),), teaching,
                                       view_url("lesson", {}).split("/lesson")[0], view_token()),
                        key="lesson-steps", **{f"on_{name}_change": _nothing for name in ("guess", "reveal", "ask", "present")})
    guess, reveal, asked = result.guess, result.reveal, result.ask
    if result.present is not None:  # "Leave presenter mode" in the choices
        st.session_state["shared.present"] = bool(result.present)
        st.rerun()
    by_id = {stop.id: stop for stop in stops}
    if isinstance(guess, dict) and guess.get("stop") in by_id and isinstance(guess.get("option"), int):
        stop = by_id[guess["stop"]]
        if 0 <= guess["option"] < len(T.get(f"lesson.stops.{stop.id}.options")):
            _set(f"lesson.{stop.id}.guess", guess["option"])
            remember_guesses()
            st.rerun()
    if isinstance(reveal, dict) and reveal.get("stop") in by_id:
        _set(f"lesson.{reveal['stop']}.reveal", bool(reveal.get("on")))
        remember_guesses()
        st.rerun()
    if isinstance(asked, dict) and asked.get("stop") in by_id and teaching:
        stop = by_id[asked["stop"]]
        live.ask_now(T, live.Item(f"lesson.{stop.id}", len(T.get(f"lesson.stops.{stop.id}.options")), stop.correct))


def _nothing() -> None:
    """An event of the lesson's step component: the page reruns and reads it."""


def view_token() -> str:
    from views.shell import state

    return state.view_token("lesson")


@functools.lru_cache(maxsize=64)
def lesson_payload(lang: str, states: tuple, server: tuple, teaching: bool, base: str, token: str) -> bytes:
    """The stops as the step component's steps (``states``: each stop's guess and reveal; ``base``: the app's address)."""
    from views.walkthrough import component_texts
    from views.widgets import steps

    T = Texts(lang)
    stops = SHORT + tuple(stop for stop in STOPS if stop.longer)
    pack = steps.Pack()
    pack.header.update(page="lesson", id="lesson", token=token, variant="lesson", layout="projector", font=17, lang=lang,
                       texts=component_texts(T, lang) | {"choices": T("lesson.choices"), "your_guess": T("lesson.your_guess"),
                                                          "guess_first": T("lesson.guess_first"), "reveal": T("lesson.reveal"),
                                                          "step_of": T("lesson.stop_of"),
                                                          "steps": T("lesson.stops_label"), "first_step": T("lesson.first_stop"),
                                                          "last_step": T("lesson.last_stop")},
                       csv="attention-lesson", url={"step": "stop"}, heads=1, tokens=[], keys=[], focus=None, ask=teaching,
                       view={"step": server[0], "head": 1, "focus": 1, "values": True, "all": False, "predict": False})
    entries = []
    for stop, (guess, revealed) in zip(stops, states):
        values = answer_values(stop.id)
        options = [str(option).format(**values) for option in T.get(f"lesson.stops.{stop.id}.options")]
        params = stop.params | {"lang": lang}
        verdict = T("lesson.right" if guess == stop.correct else "lesson.wrong", option=options[stop.correct])
        entries.append({
            "id": stop.id, "title": T(f"lesson.stops.{stop.id}.title"), "badge": T("lesson.minutes", minutes=stop.minutes),
            "body": steps.markdown(f"**{T('lesson.ask')}** {T(f'lesson.stops.{stop.id}.ask', **values)}"),
            "blocks": [{"t": "options", "stop": stop.id, "name": T("lesson.your_guess_on", title=T(f"lesson.stops.{stop.id}.title")),
                        "options": options, "correct": stop.correct, "guess": guess, "revealed": revealed,
                        "show": steps.markdown(T(f"lesson.stops.{stop.id}.show")),
                        "links": [{"label": T("lesson.open"), "href": f"{base}{_path(stop.page)}?{urlencode(params)}"},
                                  {"label": T("lesson.open_present"), "href": f"{base}{_path(stop.page)}?{urlencode(params | {'present': '1'})}"}],
                        "answer": steps.markdown(f"{verdict}  \n{T(f'lesson.stops.{stop.id}.answer', **values)}"),
                        "right": guess == stop.correct}],
        })
    pack.header["steps"] = entries
    return pack.bytes()


def _path(page_id: str) -> str:
    return "/" if BY_ID[page_id].default else f"/{BY_ID[page_id].path}"


def draw_stop(view: View, number: int, stop: Stop) -> None:
    """One stop: the question first and the class's guess, then (only once the class has guessed) the view that shows
    the answer, here or on the projector, and the answer itself."""
    T = view.T
    key = f"lesson.{stop.id}"
    with st.container(border=True):
        st.markdown(f"### {number}. {T(f'lesson.stops.{stop.id}.title')}  \n{T('lesson.minutes', minutes=stop.minutes)}")
        values = answer_values(stop.id)
        st.markdown(f"**{T('lesson.ask')}** {T(f'lesson.stops.{stop.id}.ask', **values)}")
        options = [str(option).format(**values) for option in T.get(f"lesson.stops.{stop.id}.options")]
        if st.session_state.get(f"kept.{key}.guess") not in (None, *range(len(options))):  # a tampered cookie
            del st.session_state[f"kept.{key}.guess"]
        kept(f"{key}.guess")
        guess = st.radio(T("lesson.your_guess_at", number=number), range(len(options)), index=None, key=f"{key}.guess", on_change=keep,
                         args=(f"{key}.guess",), format_func=lambda i: figures.plain(options[i]), horizontal=True)
        from views import live  # the live page reads the stops: imported here, not at the top

        live.ask_here(T, live.Item(f"lesson.{stop.id}", len(options), stop.correct), key=f"{key}.live")
        if guess is None:  # the view shows the answer: it opens once the class has committed to a guess
            st.caption(T("lesson.guess_first"))
            return
        st.markdown(T(f"lesson.stops.{stop.id}.show"))
        params = stop.params | {"lang": view.settings.lang}
        open_here, open_projector = st.columns(2)
        open_here.link_button(T("lesson.open"), view_url(stop.page, params), icon=":material/open_in_new:", width="stretch")
        open_projector.link_button(T("lesson.open_present"), view_url(stop.page, params | {"present": "1"}),
                                   icon=":material/co_present:", width="stretch")
        kept(f"{key}.reveal")
        if st.toggle(T("lesson.reveal"), key=f"{key}.reveal", on_change=keep, args=(f"{key}.reveal",)):
            verdict = "lesson.right" if guess == stop.correct else "lesson.wrong"
            (st.success if guess == stop.correct else st.warning)(
                f"{T(verdict, option=options[stop.correct])}  \n{T(f'lesson.stops.{stop.id}.answer', **values)}",
                icon=":material/lightbulb:")
