"""What every part of the live class shares: who a session is, the questions and their words, messages, cookies.

The class lives in the database (``classroom.store``); a session holds only who it is: the teacher's (code, key) or the
student's (code, student id) and its seat, a secret kept in a cookie, never in an address.
"""

from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st

from attention_plot.figures import plain
from attention_plot.text import Texts
from classroom import generators, store
from views.shell.messages import visible
from views.widgets import questions
from views.widgets.questions import STOPS, Item, answer_values

SEAT = "live.seat"  # session: this browser's seat (the secret that makes it the same student), from its cookie
ERROR = "live.error"  # session: a refusal or database error from a button's callback, shown on the next run
LINK_REFUSED = questions.LINK_REFUSED  # named where a teacher link is taken (views.widgets.ask)
LINK_KEPT = questions.LINK_KEPT
COOKIE = questions.TEACHER_COOKIE
KEY_COOKIE = "attention_teacher_key"  # the teacher's key: the classes started in this browser share it and are found by it
SEAT_COOKIE = "attention_seat"  # a student's browser: code.seat, so that a reload, a new tab or a restart is the same student
BROWSER_COOKIE = "attention_browser"  # a random id: the wrong-code limit holds across reloads
KEY_DAYS = 180  # how long a teacher's browser keeps the key that lists its classes
PROJECTOR_POLL = 1.0  # s between the projector's reads of the answers
PHONE_POLL = 8.0  # s between a phone's own reads of the questions: it hears the teacher at once (classroom/bell.py) and reads
# by itself only in case its wait failed (a restart, a proxy that cut it)
# The concept check: item id and the index of its correct option (assets/text/*/live.toml [concept.<id>]).
CONCEPT = (("rows", 1), ("row_sum", 3), ("scale", 1), ("values", 0), ("causal", 2), ("cosine", 0), ("heads", 2),
           ("explain", 1), ("order", 0), ("cache", 3), ("equal", 0))
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CSS = Path(__file__).resolve().parents[2] / "assets" / "live" / "live.css"


def engine():
    return store.connect()


def shown(text: str) -> str:
    """Typed text echoed inside markdown: bidirectional controls removed, every markdown character escaped."""
    return plain(visible(text))


def refused(T: Texts, error: Exception) -> None:
    """A refusal or a database failure as a message (never a traceback)."""
    if isinstance(error, store.Refused):
        st.error(T(f"live.refused.{error.reason}"), icon=":material/block:")
    else:
        st.error(T("live.refused.database", error=shown(str(error).splitlines()[0][:160])), icon=":material/cloud_off:")


def cookies() -> dict[str, str]:
    """The browser's cookies (``views.widgets.questions.cookies``, where a teacher link is taken too)."""
    return questions.cookies()


@functools.cache
def _css() -> str:
    return CSS.read_text()


def style() -> None:
    """The live class's own styles (the seat map, the discussion card, the rounds side by side)."""
    st.html(f"<style>{_css()}</style>")


# --- Questions and their words ---


def concept_items() -> list[Item]:
    return [Item(f"concept.{name}", 4, correct) for name, correct in CONCEPT]


def lesson_items(T: Texts) -> list[Item]:
    return [Item(f"lesson.{stop.id}", len(T.get(f"lesson.stops.{stop.id}.options")), stop.correct) for stop in STOPS]


def generated_item(kind: str, seed: int) -> Item:
    """A question drawn by the core (classroom.generators): its id names the kind and the seed."""
    instance = generators.draw(kind, seed)
    return Item(instance.item, len(instance.options), instance.correct)


def setting_words(T: Texts, setting: str) -> str:
    """The weights a walk question is asked on, in words ("" for an id stored before settings were named)."""
    kind, *numbers = setting.split("-")
    if kind == "random" and len(numbers) == 1:
        return T("live.items.setting.random", head=numbers[0])
    if kind == "real" and len(numbers) == 2:
        return T("live.items.setting.real", layer=numbers[0], head=numbers[1])
    return T("live.items.setting.textbook") if kind == "textbook" else ""


def wording(T: Texts, question: store.Question) -> tuple[str, list[str], str | None]:
    """A stored question in this reader's language: (question, options, explanation shown after the reveal)."""
    kind, _, rest = question.item.partition(".")
    if kind == "concept":
        return (T(f"live.concept.{rest}.question"), list(T.get(f"live.concept.{rest}.options")), T(f"live.concept.{rest}.explanation"))
    if kind == "lesson":
        number = next(i for i, stop in enumerate(STOPS, 1) if stop.id == rest)
        values = answer_values(rest)
        options = [str(option).format(**values) for option in T.get(f"lesson.stops.{rest}.options")]
        asked = f"{T('live.items.lesson', number=number, title=T(f'lesson.stops.{rest}.title'))}  \n{T(f'lesson.stops.{rest}.ask', **values)}"
        return asked, options, T(f"lesson.stops.{rest}.answer", **values)
    if kind == "gen":
        words = generators.wording(T, generators.parse(question.item))
        return words.question, words.options, words.explanation
    setting, _, focus = rest.rpartition(".")
    token = question.labels[int(focus)].partition(" · ")[2]
    said = setting_words(T, setting)
    asked = T("live.items.walk_focus", token=token) + (f"  \n{said}" if said else "")
    return asked, list(question.labels), None


def one_line(T: Texts, question: store.Question) -> str:
    """The question as one line of plain text (a select box, a notice quoting it, a cell of a CSV)."""
    return wording(T, question)[0].replace("  \n", " — ")


def table_of(T: Texts, question: store.Question) -> tuple[list[str], list[list[str]]] | None:
    """The table a drawn question shows under it (the keys' vectors, a head's weights), or None."""
    instance = generators.parse(question.item) if question.item.startswith("gen.") else None
    return generators.wording(T, instance).table if instance else None


def show_table(T: Texts, question: store.Question) -> None:
    import pandas as pd

    table = table_of(T, question)
    if table is not None:
        header, rows = table
        st.table(pd.DataFrame(rows, columns=header), hide_index=True)


def option_name(options: list[str], index: int) -> str:
    return f"{LETTERS[index]}. {plain(options[index])}" if index < len(LETTERS) else plain(options[index])


def question_of(item: Item) -> store.Question:
    """An item not yet asked, as a question (to word it in a list)."""
    return store.Question(0, item.id, "", item.options, item.correct, item.labels, "open", False, 0.0)
