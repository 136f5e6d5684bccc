"""The lesson path: the article's order as stops (``views.widgets.questions``: each with a view to open, a question, and an
answer computed by the core), on a screen one under another, on a projector one at a time."""

from __future__ import annotations

import functools
from urllib.parse import urlencode, urlsplit

import streamlit as st

from attention_plot import figures
from attention_plot.text import Texts
from classroom.store import CLASS_HOURS
from views.shell import state
from views.shell.page import View
from views.shell.registry import BY_ID, LONG_EXAMPLE
from views.shell.script import cookie
from views.widgets import ask, steps
from views.widgets.compare import preset_params
from views.widgets.questions import SHORT, STOPS, Stop, answer_values


def view_url(page_id: str, params: dict[str, str]) -> str:
    """An absolute address of a page with its values (a link a teacher may copy, or open with Ctrl-click)."""
    here = urlsplit(st.context.url or "http://localhost:8501/")
    path = BY_ID[page_id].path
    return f"{here.scheme}://{here.netloc}/{path if not BY_ID[page_id].default else ''}?{urlencode(params)}"


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


def guess_keys(stop_id: str) -> tuple[str, str]:
    """The session (and widget) keys of a stop's guess and of its reveal."""
    return f"lesson.{stop_id}.guess", f"lesson.{stop_id}.reveal"


def restore_guesses() -> None:
    """The guesses and reveals outlive a visit to another page (``state.keep``, as every parameter), and a reload (a new
    session) gets them back from the browser's cookie."""
    state.keep(*(name for stop in STOPS for name in guess_keys(stop.id)))
    if "lesson.restored" in st.session_state:
        return
    st.session_state["lesson.restored"] = True
    for stop_id, (guess, revealed) in parse_guesses(str((st.context.cookies or {}).get(GUESSES_COOKIE, ""))).items():
        guess_key, reveal_key = guess_keys(stop_id)
        st.session_state.setdefault(guess_key, guess)
        st.session_state.setdefault(reveal_key, revealed)


def _clear() -> None:
    for stop in STOPS:
        for name in guess_keys(stop.id):
            st.session_state.pop(name, None)


def clear_button(T) -> None:
    """For the next class: every stop asks again, and the browser forgets the guesses. Always in its place (nothing
    moves at the first guess), and a second click confirms it (one click never wipes a class's guesses)."""
    with st.popover(T("lesson.clear"), icon=":material/restart_alt:"):
        st.markdown(T("lesson.clear_help"))
        st.button(T("lesson.clear_confirm"), on_click=_clear, type="primary", key="lesson-clear")


def remember_guesses() -> None:
    """The browser keeps the guesses and reveals drawn now (assets/components/shell/keep.js writes the cookie) for a class's hours."""
    session = st.session_state
    keys = {stop.id: guess_keys(stop.id) for stop in STOPS}
    guesses = {stop_id: (session[guess], bool(session.get(reveal))) for stop_id, (guess, reveal) in keys.items()
               if session.get(guess) is not None}
    value = format_guesses(guesses)
    if session.get("lesson.remembered", "") != value:
        session["lesson.remembered"] = value
        cookie(GUESSES_COOKIE, value, int(CLASS_HOURS * 3600) if value else 0)


def _stop_state(stop: Stop) -> tuple[int | None, bool]:
    """The class's guess for ``stop`` (an option's index, or None) and whether its answer was revealed."""
    guess_key, reveal_key = guess_keys(stop.id)
    guess = st.session_state.get(guess_key)
    return guess, bool(st.session_state.get(reveal_key)) and guess is not None


def presenter(view: View) -> None:
    """On a projector, one stop at a time in the step component: Previous / Next (or ← / →) walk the stops, the class's
    guess opens the view's links, and the answer waits for the reveal. A guess, a reveal or a question for the live
    class goes to the server (the same guesses as on the screen, kept over a reload)."""
    T = view.T
    stops = SHORT + tuple(stop for stop in STOPS if stop.longer)
    state_now = tuple(_stop_state(stop) for stop in stops)
    teaching = ask.teaching()
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
            st.session_state[guess_keys(stop.id)[0]] = guess["option"]
            remember_guesses()
            st.rerun()
    if isinstance(reveal, dict) and reveal.get("stop") in by_id:
        st.session_state[guess_keys(reveal["stop"])[1]] = bool(reveal.get("on"))
        remember_guesses()
        st.rerun()
    if isinstance(asked, dict) and asked.get("stop") in by_id and teaching:
        stop = by_id[asked["stop"]]
        ask.ask_now(T, ask.Item(f"lesson.{stop.id}", len(T.get(f"lesson.stops.{stop.id}.options")), stop.correct))


def _nothing() -> None:
    """An event of the lesson's step component: the page reruns and reads it."""


def view_token() -> str:
    return state.view_token("lesson")


@functools.lru_cache(maxsize=64)
def lesson_payload(lang: str, states: tuple, server: tuple, teaching: bool, base: str, token: str) -> bytes:
    """The stops as the step component's steps (``states``: each stop's guess and reveal; ``base``: the app's address)."""

    T = Texts(lang)
    stops = SHORT + tuple(stop for stop in STOPS if stop.longer)
    pack = steps.Pack(T)
    pack.header.update(page="lesson", id="lesson", token=token, variant="lesson", layout="projector", font=17, lang=lang,
                       texts=steps.component_texts(T, lang) | {"choices": T("lesson.choices"), "your_guess": T("lesson.your_guess"),
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
            "blocks": [{"type": "options", "stop": stop.id, "name": T("lesson.your_guess_on", title=T(f"lesson.stops.{stop.id}.title")),
                        "options": options, "correct": stop.correct, "guess": guess, "revealed": revealed,
                        "show": steps.markdown(T(f"lesson.stops.{stop.id}.show")),
                        "links": [{"label": T("lesson.open"), "href": f"{base}{_path(stop.page)}?{urlencode(params)}"},
                                  {"label": T("lesson.open_present"), "href": f"{base}{_path(stop.page)}?{urlencode(params | {'present': '1'})}"},
                                  *_side_by_side(stop, base, lang, T)],
                        "answer": steps.markdown(f"{verdict}  \n{T(f'lesson.stops.{stop.id}.answer', **values)}"),
                        "right": guess == stop.correct}],
        })
    pack.header["steps"] = entries
    return pack.bytes()


def side_by_side_params(stop: Stop, lang: str) -> dict[str, str]:
    """The link's values of the walkthrough's compare preset that shows the stop's claim side by side."""
    return preset_params(stop.compare, LONG_EXAMPLE) | {"lang": lang}  # "the" twice: positions tell them apart


def _side_by_side(stop: Stop, base: str, lang: str, T: Texts) -> list[dict[str, str]]:
    """The side-by-side link of a stop (none for a stop without a compare preset), for the projector's stop."""
    if not stop.compare:
        return []
    return [{"label": T("lesson.side_by_side"), "href": f"{base}{_path('walkthrough')}?{urlencode(side_by_side_params(stop, lang))}"}]


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
        guess_key, reveal_key = guess_keys(stop.id)
        if st.session_state.get(guess_key) not in (None, *range(len(options))):  # a tampered cookie
            del st.session_state[guess_key]
        guess = st.radio(T("lesson.your_guess_at", number=number), range(len(options)), index=None, key=guess_key,
                         format_func=lambda i: figures.plain(options[i]), horizontal=True)
        ask.ask_here(T, ask.Item(f"lesson.{stop.id}", len(options), stop.correct), key=f"{key}.live")
        if guess is None:  # the view shows the answer: it opens once the class has committed to a guess
            st.caption(T("lesson.guess_first"))
            return
        st.markdown(T(f"lesson.stops.{stop.id}.show"))
        params = stop.params | {"lang": view.settings.lang}
        open_here, open_projector = st.columns(2)
        open_here.link_button(T("lesson.open"), view_url(stop.page, params), icon=":material/open_in_new:", width="stretch")
        open_projector.link_button(T("lesson.open_present"), view_url(stop.page, params | {"present": "1"}),
                                   icon=":material/co_present:", width="stretch")
        if stop.compare:
            st.link_button(T("lesson.side_by_side"), view_url("walkthrough", side_by_side_params(stop, view.settings.lang)),
                           icon=":material/compare:", width="stretch")
        if st.toggle(T("lesson.reveal"), key=reveal_key):
            verdict = "lesson.right" if guess == stop.correct else "lesson.wrong"
            (st.success if guess == stop.correct else st.warning)(
                f"{T(verdict, option=options[stop.correct])}  \n{T(f'lesson.stops.{stop.id}.answer', **values)}",
                icon=":material/lightbulb:")


def screen(view: View) -> None:
    """On a screen: the class's length, the live class's banner, the clear button, then every stop one under another,
    the 45-minute class first and the two stops of a 60-minute class after it."""
    T = view.T
    longer = [stop for stop in STOPS if stop.longer]
    st.caption(T("lesson.total", minutes=sum(stop.minutes for stop in SHORT), stops=len(SHORT),
                 more=len(longer), longer=sum(stop.minutes for stop in STOPS)))
    ask.lesson_banner(T)
    clear_button(T)
    # anchors of their own: made from the words, the Chinese ones drop out, and "45 分钟的路线" would be the title's #45
    st.header(T("lesson.short_title", minutes=sum(stop.minutes for stop in SHORT)), anchor="short-path")
    for number, stop in enumerate(SHORT, 1):
        draw_stop(view, number, stop)
    st.header(T("lesson.longer_title"), anchor="longer-class")
    st.caption(T("lesson.longer_intro"))
    for number, stop in enumerate(longer, len(SHORT) + 1):
        draw_stop(view, number, stop)
