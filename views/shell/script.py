"""The page's script on every page, through Streamlit's public component API (``st.components.v2.component``).

``assets/components/shell/`` (entry ``shell.js``, joined with what it imports: ``attention_plot.javascript``) is mounted
first in every run (``start``), in the page itself (``isolate_styles=False``: no iframe, no shadow root), with its styles
(``shell.css``), before the menu and the page's first chart are drawn: it makes Streamlit's page behave as a class and a
screen reader need where no public API does (a box commits before the menu navigates, the language of <html>, Streamlit's
English strings in Chinese, a skip link to the steps, scrolling on page changes; each repair made as Streamlit draws) and
draws Plotly charts near the screen with their numbers as a table. ``keep``, mounted last, puts the step component's
values back into the link after the server wrote it (the server leaves out the values the browser keeps: ``Page.browser``).
"""

from __future__ import annotations

import functools
import html
from pathlib import Path

import streamlit as st

from attention_plot import javascript
from attention_plot.text import LANGUAGES, catalogue
from views.shell import cookies, state
from views.shell.registry import Page

STYLE = Path(__file__).resolve().parents[2] / "assets" / "components" / "shell" / "shell.css"
SLOT = "attention-script"  # the container that holds it (shell.css: it takes no room)
NAMED_BY_SCRIPTS = ("walkthrough.choices",)  # texts of the pages that the script also gives a button as its name


@functools.cache
def _component():
    return st.components.v2.component("attention_shell", js=javascript.join("shell/shell.js"), css=STYLE.read_text(), isolate_styles=False)


@functools.cache
def browser_texts() -> dict[str, dict[str, str]]:
    """The texts the browser draws (assets/text/*/browser.toml) in each language, by key without "browser.":
    ``{"en": {"plotly.zoom_in": "Zoom in", ...}, "zh": {"plotly.zoom_in": "放大", ...}}``."""
    return {lang: {key.removeprefix("browser."): text for key, text in catalogue(lang).items()
                   if key.startswith("browser.") or key in NAMED_BY_SCRIPTS} for lang in LANGUAGES}


def _resumed() -> None:
    """The page's script asked a new session to go on from where its tab was (``state.resume`` reads it in the run)."""


def start() -> object:
    """Mount the page's script (first in the run); returns the slot where ``keep`` goes at the end.

    After the server restarted, the script of a tab that reconnects to a new session sends the address it shows
    (``resume``, once the connection is back and before the student's next action): the new session goes on from it
    (``state.resume``), so the screen, the link and the next move agree."""
    slot = st.container(key=SLOT)
    with slot:
        result = _component()(data={"kind": "shell", "texts": browser_texts()},
                              key="attention-shell", height=0, on_resume_change=_resumed)
    state.resume(getattr(result, "resume", None))
    return slot


def keep(slot: object, page: Page, link: dict[str, str]) -> None:
    """After ``link`` was written (``state.publish``): the values the browser keeps on ``page`` go back into it (the step
    component's)."""
    if not page.browser:
        return
    with slot:
        _component()(data={"kind": "keep", "page": page.id, "token": state.view_token(page.id), "names": list(page.browser),
                           "link": link}, key="attention-keep", height=0)


def _rang() -> None:
    """The class moved on: the run the page's script asked for redraws the phone (``bell``)."""


@functools.cache
def _bell():
    return st.components.v2.component("attention_bell", js=javascript.join("shell/bell.js"), isolate_styles=False)


def bell(since: str) -> None:
    """The page waits on the server until the live class moves on from ``since`` (classroom/bell.py), then the part it
    is drawn in reruns: a phone hears the teacher's click within a second instead of at its next reading. A component
    of its own (a few lines; the page's script is 65 KB), mounted in every run of that part."""
    _bell()(data={"since": since}, key="live-bell", height=0, on_rang_change=_rang)


SENT_COOKIES = "shell.cookies"  # session: {name: (value, age)} this session asked the browser to keep


def cookie(name: str, value: str, age: int) -> None:
    """The browser keeps ``value`` under ``name`` for ``age`` seconds (0: forgets it), out of reach of the page's
    scripts (views/shell/cookies.py): the page gets a ticket, its script hands it back to the server, whose answer sets
    the cookie HttpOnly. Asked once per session for the same value (a run that asks again sends nothing)."""
    sent = st.session_state.setdefault(SENT_COOKIES, {})
    if sent.get(name) == (value, age):
        return
    sent[name] = (value, age)
    ticket = cookies.keep(name, value, age)
    st.html(f'<span hidden data-remember="{html.escape(ticket)}"></span>')
