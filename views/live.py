"""The live class on screen: the teacher's panel (start, ask, close, reveal, concept check, export) and the student's phone.

The class lives in the database (``classroom.store``); a session holds only who it is: the teacher's (code, key) or the
student's (code, student id). Streamlit has no push between sessions, so the projector polls one aggregate query
(``st.fragment(run_every=PROJECTOR_POLL)``) and a phone rereads the questions every few seconds in a part that
draws nothing (a tap reruns only the part with the answers).
"""

from __future__ import annotations

import base64
import csv
import html
import io
import time
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from attention_core import explain
from attention_plot.figures import plain
from attention_plot.text import DEFAULT_LANGUAGE, Texts
from classroom import store
from classroom.tally import normalised_gain, whole_percents
from views import state
from views.lesson import STOPS, answer_values
from views.page import View
from views.registry import BY_ID, MAX_TOKENS

TEACHER = "live.teacher"  # session: (code, key) of the class this session teaches
STUDENT = "live.student"  # session: (code, student id) of the class this session sits in
WRONG = "live.wrong_codes"  # session: when this browser session typed a wrong code (the rate limit)
LINK_REFUSED = "live.link_refused"
ERROR = "live.error"  # session: a refusal or database error from a button's callback, shown on the next run
COOKIE = "attention_teacher"  # the teacher's browser: code.key, so that a reload stays the teacher
SEAT_COOKIE = "attention_seat"  # a student's browser: code.seat, so that the join link opened again is the same student
PROJECTOR_POLL = 1.0  # s between the projector's reads of the answers
PHONE_POLL = 3.0  # s between a phone's reads of the questions (one small query)
WRONG_LIMIT, WRONG_WINDOW, WRONG_DELAY = 5, 60.0, 1.0  # wrong codes per window (s) before a pause; each is answered this slowly
# The concept check: item id and the index of its correct option (assets/text/*/live.toml [concept.<id>]).
CONCEPT = (("rows", 1), ("row_sum", 3), ("scale", 1), ("values", 0), ("causal", 2), ("cosine", 0), ("heads", 2),
           ("explain", 1), ("order", 0), ("cache", 3), ("equal", 0))
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Item:
    """A question the teacher can open: its stored id, how many options, the correct one, computed option labels."""

    id: str
    options: int
    correct: int
    labels: tuple[str, ...] = ()


def engine():
    return store.connect()


def refused(T: Texts, error: Exception) -> None:
    """A refusal or a database failure as a message (never a traceback)."""
    if isinstance(error, store.Refused):
        st.error(T(f"live.refused.{error.reason}"), icon=":material/block:")
    else:
        st.error(T("live.refused.database", error=plain(str(error).splitlines()[0][:160])), icon=":material/cloud_off:")


# --- Questions ---


def concept_items() -> list[Item]:
    return [Item(f"concept.{name}", 4, correct) for name, correct in CONCEPT]


def lesson_items(T: Texts) -> list[Item]:
    return [Item(f"lesson.{stop.id}", len(T.get(f"lesson.stops.{stop.id}.options")), stop.correct) for stop in STOPS]


def focus_item(weights, key_tokens: tuple[str, ...], focus: int, setting: str = "random-1") -> Item:
    """"Which key does the focused word give the most weight?": the options are the keys, the answer the row's largest
    weight (the walkthrough's own row, whatever head or model it shows). ``setting`` names the weights, for the wording:
    "random-{head}", "textbook" or "real-{layer}-{head}" (1-based); the id is "walk.{setting}.{focus}"."""
    labels = tuple(f"{j + 1} · {token}" for j, token in enumerate(key_tokens))
    return Item(f"walk.{setting}.{focus}", len(key_tokens), int(weights.argmax()), labels)


def setting_words(T: Texts, setting: str) -> str:
    """The weights a walk question is asked on, in words ("" for an id stored before settings were named)."""
    kind, *numbers = setting.split("-")
    if kind == "random" and len(numbers) == 1:
        return T("live.items.setting.random", head=numbers[0])
    if kind == "real" and len(numbers) == 2:
        return T("live.items.setting.real", layer=numbers[0], head=numbers[1])
    return T("live.items.setting.textbook") if kind == "textbook" else ""


WALK_ITEM = "live-walk-item"  # the walkthrough's focused question as it last drew it (random, textbook or real head)


def walk_item(view: View) -> Item | None:
    """The focused word's question as the walkthrough last showed it (its weights, head and focused word); before the
    walkthrough has been opened, the question on the session's sentence with the walkthrough's default random weights."""
    if WALK_ITEM in st.session_state:
        return st.session_state[WALK_ITEM]
    try:
        explained = explain(view.settings.text, **view.settings.explain_options())
    except ValueError:
        return None
    tokens = explained.tokens[:MAX_TOKENS]
    if not 2 <= len(tokens) <= store.MAX_OPTIONS:
        return None
    focus = min(max(int(st.session_state.get(state.key("walkthrough", "focus"), 1)), 1), len(tokens)) - 1
    return focus_item(explained.trace.heads[0].weights[focus], tokens, focus)


def remember_walk(item: Item | None) -> None:
    """The walkthrough's focused question, for the live page's list (None: this walk has no askable question)."""
    st.session_state[WALK_ITEM] = item


def lesson_banner(T: Texts) -> None:
    """At the top of the lesson path: start a live class, or say which one runs and that each stop can ask the room."""
    live_page = BY_ID["live"].file_path
    if TEACHER in st.session_state:
        st.info(T("live.teacher.lesson_running", code=st.session_state[TEACHER][0]), icon=":material/groups:")
        st.page_link(live_page, label=T("live.teacher.see_answers"), icon=":material/groups:")
    else:
        st.page_link(live_page, label=T("live.teacher.lesson_start"), icon=":material/co_present:")


def ask_here(T: Texts, item: Item, key: str) -> None:
    """Where a question is asked (a lesson stop, the walkthrough's focused word): in a teacher's session with a live
    class, one button opens it for the room, and a link goes to the live page where the answers come in."""
    if TEACHER not in st.session_state:
        return
    left, right = st.columns(2, vertical_alignment="center")
    if left.button(T("live.teacher.ask_live"), key=key, on_click=_open, args=(item, None), icon=":material/how_to_vote:"):
        error = st.session_state.pop(ERROR, None)
        if error is not None:
            refused(T, error)
        else:
            st.toast(T("live.teacher.asked"), icon=":material/how_to_vote:")
    right.page_link(BY_ID["live"].file_path, label=T("live.teacher.see_answers"), icon=":material/groups:")


def wording(T: Texts, question: store.Question) -> tuple[str, list[str], str | None]:
    """A stored question in this reader's language: (question, options, explanation shown after the reveal or answer)."""
    kind, _, rest = question.item.partition(".")
    if kind == "concept":
        return (T(f"live.concept.{rest}.question"), list(T.get(f"live.concept.{rest}.options")), T(f"live.concept.{rest}.explanation"))
    if kind == "lesson":
        number = next(i for i, stop in enumerate(STOPS, 1) if stop.id == rest)
        values = answer_values(rest)
        options = [str(option).format(**values) for option in T.get(f"lesson.stops.{rest}.options")]
        asked = f"{T('live.items.lesson', number=number, title=T(f'lesson.stops.{rest}.title'))}  \n{T(f'lesson.stops.{rest}.ask', **values)}"
        return asked, options, T(f"lesson.stops.{rest}.answer", **values)
    setting, _, focus = rest.rpartition(".")
    token = question.labels[int(focus)].partition(" · ")[2]
    said = setting_words(T, setting)
    asked = T("live.items.walk_focus", token=token) + (f"  \n{said}" if said else "")
    return asked, list(question.labels), None


def option_name(options: list[str], index: int) -> str:
    return f"{LETTERS[index]}. {plain(options[index])}" if index < len(LETTERS) else plain(options[index])


# --- The join card ---


def join_url(code: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The address students open: this server as the teacher's browser reaches it, the live page, the code, and the
    teacher's language when it is not the default (a class taught in Chinese joins in Chinese)."""
    here = urlsplit(st.context.url or "http://localhost:8501/")
    params = {"join": code, **({"lang": lang} if lang != DEFAULT_LANGUAGE else {})}
    return f"{here.scheme}://{here.netloc}/live?{urlencode(params)}"


def qr_image(url: str, alt: str) -> str:
    """An <img> of the QR code for ``url`` (segno, PNG as a data URI), with its alternative text."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="png", scale=8, border=2, dark="#111111")
    data = base64.b64encode(buffer.getvalue()).decode()
    return f'<img class="live-qr" src="data:image/png;base64,{data}" alt="{html.escape(alt)}" width="220" height="220">'


def join_card(T: Texts, code: str, compact: bool = False) -> None:
    """The code in letters large enough for the back of the room, the address to type, and the QR code of both;
    ``compact``: one line above a question on the projector (latecomers still see how to join)."""
    url = join_url(code, T.lang)
    spelled = " ".join(code)  # a screen reader spells the code out
    if compact:
        st.html(f'''<p class="live-join-line">{html.escape(T("live.teacher.join_at", url="")).strip()} <code>{html.escape(url)}</code>
<span class="live-code-small" role="text" aria-label="{html.escape(spelled)}">{html.escape(code)}</span></p>''')
        return
    st.html(f'''<div class="live-join"><div class="live-join-words"><p class="live-join-label">{html.escape(T("live.teacher.code"))}</p>
<p class="live-code" role="text" aria-label="{html.escape(spelled)}">{html.escape(code)}</p>
<p>{html.escape(T("live.teacher.join_at", url="")).strip()} <code>{html.escape(url)}</code></p></div>
<figure class="live-qr-box">{qr_image(url, T("live.teacher.qr_alt", url=url))}</figure></div>''')


# --- The teacher ---


def take_teacher_link() -> None:
    """A teacher link (``?join=CODE&teacher=KEY``) opened on another device: the session becomes the class's teacher, and
    the key leaves the address bar at once (it is never written back into a link). A reload of the teacher's own page
    (a new session) resumes from the browser's cookie, set by ``remember``."""
    key = st.query_params.get("teacher")
    if key is None:
        if TEACHER not in st.session_state and STUDENT not in st.session_state and COOKIE in (st.context.cookies or {}):
            code, _, kept = str(st.context.cookies[COOKIE]).partition(".")
            try:
                found = store.check_teacher(engine(), code, kept)
            except (store.Refused, SQLAlchemyError, OSError):
                return
            if found.ended is None:
                st.session_state[TEACHER] = (found.code, kept)
        return
    code = st.query_params.get("join", "")
    del st.query_params["teacher"]
    try:
        found = store.check_teacher(engine(), code, key)
    except (store.Refused, SQLAlchemyError, OSError):
        st.session_state[LINK_REFUSED] = True
        return
    st.session_state[TEACHER] = (found.code, key)
    st.session_state.pop(STUDENT, None)


def cookie(name: str, value: str, age: int) -> None:
    """The browser keeps ``value`` under ``name`` for ``age`` seconds (0: forgets it); assets/js/shell.js sets it."""
    st.html(f'<span hidden data-remember="{name}" data-value="{html.escape(value)}" data-age="{age}"></span>')


def kept_seat(typed: str) -> str | None:
    """The seat this browser took in the class of ``typed`` (its cookie): the join link opened again in a new tab, or
    after the tab was closed, is the same student, not a second one."""
    code, _, seat = str((st.context.cookies or {}).get(SEAT_COOKIE, "")).partition(".")
    return seat if seat and code == store.normal_code(typed) else None


def remember(code: str, key: str, ended: bool) -> None:
    """The browser keeps the teacher's code and key in a cookie for this path (assets/js/shell.js sets it), so a reload
    stays the teacher; it forgets them when the class ends."""
    value = "" if ended else f"{code}.{key}"
    if st.session_state.get("live.remembered") == value:
        return
    st.session_state["live.remembered"] = value
    cookie(COOKIE, value, 0 if ended else int(store.CLASS_HOURS * 3600))


def _start(nicknames_key: str) -> None:
    try:
        code, key = store.start_class(engine(), nicknames=bool(st.session_state.get(nicknames_key)))
    except (SQLAlchemyError, OSError) as error:
        st.session_state[ERROR] = error
        return
    st.session_state[TEACHER] = (code, key)
    st.session_state.pop(STUDENT, None)
    st.session_state[state.key("live", "join")] = code


def start_form(view: View) -> None:
    T = view.T
    with st.container(border=True):
        st.markdown(f"#### {T('live.teacher.start')}")
        st.toggle(T("live.teacher.nicknames"), key="live.nicknames", help=T("live.teacher.nicknames_help"))
        st.button(T("live.teacher.start"), key="live-start", type="primary", on_click=_start, args=("live.nicknames",),
                  icon=":material/co_present:")


def _act(action, *args) -> None:
    """A teacher's button: the store's action with this session's code and key; a refusal is shown on the next run."""
    code, key = st.session_state[TEACHER]
    try:
        action(engine(), code, key, *args)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        st.session_state[ERROR] = error


def _open(item: Item, live_key: str | None) -> None:
    code, key = st.session_state[TEACHER]
    try:
        db = engine()
        found = store.check_teacher(db, code, key)
        for question in store.open_questions(db, found.id, ("open",)):  # one question at a time (a check is separate)
            if not question.phase:
                store.close_question(db, code, key, question.id)
        store.open_question(db, code, key, item.id, item.options, item.correct, item.labels,
                            live=bool(live_key and st.session_state.get(live_key)))
    except (store.Refused, SQLAlchemyError, OSError) as error:
        st.session_state[ERROR] = error


def _open_check(phase: str, question_id: int | None = None) -> None:
    """Open the concept check's items; a question still open on the phones is closed first (its answers kept)."""
    if question_id is not None:
        _act(store.close_question, question_id)
    for item in concept_items():
        _act(lambda db, code, key, item=item: store.open_question(db, code, key, item.id, item.options, item.correct, phase=phase))


def _close_check(question_ids: tuple[int, ...]) -> None:
    for question_id in question_ids:
        _act(store.close_question, question_id)


def teacher(view: View) -> None:
    """The teacher's panel: the join card, the question on the projector, asking, the concept check, export, end."""
    T = view.T
    code, key = st.session_state[TEACHER]
    try:
        found = store.check_teacher(engine(), code, key)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    if view["join"] != found.code:
        view.set("join", found.code)
    error = st.session_state.pop(ERROR, None)
    if error is not None:
        refused(T, error)
    if found.ended is not None:  # no code or QR code any more: nobody can join
        st.info(T("live.teacher.ended", code=found.code), icon=":material/event_busy:")
    else:
        st.session_state[ASK_DRAWN] = open_single(found.id)
        projector(view, found.id, found.code)
        ask(view, found.id)
        check_panel(view, found.id)
    export(view, found)
    remember(found.code, key, found.ended is not None)
    if found.ended is None and view.layout.extras:
        with st.expander(T("live.teacher.resume")):
            st.caption(T("live.teacher.resume_help"))
            st.code(f"{join_url(found.code, T.lang)}&{urlencode({'teacher': key})}", language=None)
        with st.popover(T("live.teacher.end"), icon=":material/stop_circle:"):  # one click more: ending cannot be undone
            st.markdown(T("live.teacher.end_confirm"))
            st.button(T("live.teacher.end_now"), key="live-end", on_click=_act, args=(store.end_class,), type="primary",
                      icon=":material/stop_circle:")


ASK_DRAWN = "live-ask-drawn"  # the open question "Ask the class" was drawn with (its id, or None)


def open_single(class_id: int) -> store.Question | None:
    """The one question open on the phones (not a concept check's item), or None."""
    try:
        still_open = [q for q in store.open_questions(engine(), class_id, ("open",)) if not q.phase]
    except (SQLAlchemyError, OSError):
        return None
    return still_open[-1] if still_open else None


def ask(view: View, class_id: int) -> None:
    T = view.T
    still_open = st.session_state.get(ASK_DRAWN)
    # one line, without its own closing stop: the notice that quotes it ends the sentence
    open_now = wording(T, still_open)[0].replace("  \n", " — ").rstrip("。.") if still_open else ""
    walk = walk_item(view)
    items = ([walk] if walk else []) + lesson_items(T) + concept_items()
    names = {item.id: item_title(T, item) for item in items}
    with st.container(border=True):
        st.markdown(f"#### {T('live.teacher.ask')}")
        picked = st.selectbox(T("live.teacher.pick"), [item.id for item in items], index=None, key="live-pick",
                              format_func=lambda item_id: names[item_id], placeholder=T("live.teacher.pick_placeholder"))
        st.toggle(T("live.teacher.live"), key="live-live", help=T("live.teacher.live_help"))
        item = next((item for item in items if item.id == picked), None)
        if open_now:  # one question at a time: opening another closes this one, and says so first
            st.caption(T("live.teacher.replaces", question=plain(open_now)))
        st.button(T("live.teacher.open_instead" if open_now else "live.teacher.open"), key="live-open", type="primary",
                  disabled=item is None, on_click=_open, args=(item, "live-live"), icon=":material/how_to_vote:")


def item_title(T: Texts, item: Item) -> str:
    question = store.Question(0, item.id, "", item.options, item.correct, item.labels, "open", False, 0.0)
    return wording(T, question)[0].replace("  \n", " — ")  # a select box shows plain text: no markdown escapes


def counts_of(tally: store.Tally, question: store.Question) -> list[int]:
    got = tally.counts.get(question.id, {})
    return [got.get(choice, 0) for choice in range(question.options)]


def histogram(T: Texts, options: list[str], counts: list[int], correct: int | None) -> None:
    """The room's answers: one bar per option with its count and share (whole percents adding up to 100); the correct
    one marked when revealed."""
    total = sum(counts)
    if not total:
        st.caption(T("live.teacher.no_answers"))
    for index, (count, percent) in enumerate(zip(counts, whole_percents(counts))):
        mark = f" ✓ **{T('live.teacher.correct_mark')}**" if index == correct else ""
        st.progress(count / total if total else 0.0, text=f"{option_name(options, index)}: {count} ({percent}%){mark}")


@st.fragment(run_every=PROJECTOR_POLL)
def projector(view: View, class_id: int, code: str) -> None:
    """The join card and the question on the projector: how many answered while open (the answers only if the teacher
    chose so), the histogram once closed, the correct answer once revealed. Reads the answers once a second."""
    T = view.T
    try:
        db = engine()
        questions = [q for q in store.open_questions(db, class_id) if not q.phase]
        tally = store.tally(db, class_id)
    except (SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    now_open = next((q.id for q in reversed(questions) if q.state == "open"), None)
    drawn = st.session_state.get(ASK_DRAWN)
    if now_open != (drawn.id if drawn else None):  # closed, revealed or opened since: "Ask the class" says so
        st.rerun(scope="app")
    join_card(T, code, compact=bool(questions) and not view.layout.extras)
    st.caption(T("live.teacher.seated", count=tally.seated))
    if not questions:
        return
    question = questions[-1]
    asked, options, explanation = wording(T, question)
    counts = counts_of(tally, question)
    with st.container(border=True, key="live-question"):
        st.markdown(f"### {plain(asked)}")
        st.markdown(T("live.teacher.answered", count=sum(counts), seated=tally.seated))
        if question.state == "open":
            if question.live:
                histogram(T, options, counts, None)
            else:
                st.caption(T("live.teacher.waiting"))
                st.markdown("  \n".join(option_name(options, i) for i in range(len(options))))
            left, right = st.columns(2)
            left.button(T("live.teacher.close"), key="live-close", on_click=_act, args=(store.close_question, question.id),
                        type="primary", icon=":material/lock:")
            right.button(T("live.teacher.reveal"), key="live-reveal-open", on_click=_act, args=(store.reveal_question, question.id),
                         icon=":material/visibility:")
        else:
            revealed = question.state == "revealed"
            histogram(T, options, counts, question.correct if revealed else None)
            if revealed:
                st.success(T("live.student.truth", option=option_name(options, question.correct)), icon=":material/check_circle:")
                if explanation:
                    st.markdown(plain(explanation))
            else:
                st.caption(T("live.teacher.closed_note"))
                st.button(T("live.teacher.reveal"), key="live-reveal", on_click=_act, args=(store.reveal_question, question.id),
                          type="primary", icon=":material/visibility:")


def check_scores(questions: list[store.Question], tally: store.Tally) -> list[tuple[str, float | None, float | None]]:
    """Per concept item: (item id, % correct before, % correct after), None where that check was not given or answered."""
    scores = []
    for item in concept_items():
        shares = []
        for phase in ("before", "after"):
            asked = [q for q in questions if q.item == item.id and q.phase == phase]
            counts = [counts_of(tally, q) for q in asked]
            total = sum(sum(c) for c in counts)
            shares.append(100 * sum(c[item.correct] for c in counts) / total if total else None)
        scores.append((item.id, *shares))
    return scores


@st.fragment(run_every=2 * PROJECTOR_POLL)
def check_panel(view: View, class_id: int) -> None:
    """The concept check: open it before or after the lesson, how many finished (read every 2 s), each item's % correct
    before and after, and the normalised gain."""
    T = view.T
    try:
        questions = [q for q in store.open_questions(engine(), class_id) if q.phase]
        tally = store.tally(engine(), class_id)
    except (SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    with st.container(border=True):
        st.markdown(f"#### {T('live.teacher.gain_title')}")
        open_now = tuple(q.id for q in questions if q.state == "open")
        given = {q.phase for q in questions}
        if open_now:
            phase = next(q.phase for q in questions if q.state == "open")
            finished = check_finished(questions, tally, phase)
            st.markdown(T("live.teacher.check_progress", done=finished, seated=tally.seated,
                          answers=sum(sum(counts_of(tally, q)) for q in questions if q.id in open_now)))
            st.button(T("live.teacher.check_close"), key="live-check-close", on_click=_close_check, args=(open_now,), type="primary")
        else:
            single = open_single(class_id)
            if single is not None and not {"before", "after"} <= given:
                question = wording(T, single)[0].replace("  \n", " — ").rstrip("。.")
                st.caption(T("live.teacher.check_replaces", question=plain(question)))
            for phase in ("before", "after"):
                if phase not in given:
                    st.button(T("live.teacher.check_open", phase=T(f"live.phase.{phase}")), key=f"live-check-{phase}",
                              on_click=_open_check, args=(phase, single.id if single else None))
        scores = check_scores(questions, tally)
        if open_now:  # while a check is open its scores stay hidden: the first answers would sway the rest
            hidden = 1 if phase == "before" else 2
            scores = [tuple(None if i == hidden else value for i, value in enumerate(row)) for row in scores]
            st.caption(T("live.teacher.check_hidden"))
        if any(before is not None or after is not None for _, before, after in scores):
            gain_table(T, scores)
        counts = {p: check_answered(questions, tally, p) for p in ("before", "after") if p in given}
        if counts:
            st.caption(" · ".join(T("live.teacher.check_answered", phase=T(f"live.phase.{p}"), count=n) for p, n in counts.items()))


def check_finished(questions: list[store.Question], tally: store.Tally, phase: str) -> int:
    """How many students answered every item of the check: the smallest count of any item is a lower bound, and exact
    when students answer in order; the aggregate is all the projector reads."""
    counts = [sum(counts_of(tally, q)) for q in questions if q.phase == phase and q.state == "open"]
    return min(counts) if counts else 0


def check_answered(questions: list[store.Question], tally: store.Tally, phase: str) -> int:
    """How many students answered at least one item of a check: the largest count of any of its items (a lower bound)."""
    counts = [sum(counts_of(tally, q)) for q in questions if q.phase == phase]
    return max(counts) if counts else 0


def gain_table(T: Texts, scores: list[tuple[str, float | None, float | None]]) -> None:
    import pandas as pd

    def percent(value: float | None) -> str:
        return "–" if value is None else f"{value:.0f} %"

    rows = [{T("live.teacher.item"): plain(T(f"live.concept.{item_id.partition('.')[2]}.question")),
             T("live.teacher.before"): percent(before), T("live.teacher.after"): percent(after)} for item_id, before, after in scores]
    st.table(pd.DataFrame(rows), hide_index=True)
    gain = normalised_gain(scores)
    st.markdown(T("live.teacher.gain", gain=f"{gain:.2f}") if gain is not None else T("live.teacher.gain_none"))


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet shows as text, never runs as a formula (a nickname, an option such as "−0.5")."""
    return "'" + text if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text


def export_csv(found: store.Class, key: str, T: Texts) -> str:
    """One row per answer, with the question and the chosen option in the teacher's language beside their numbers."""
    rows = store.export_rows(engine(), found.code, key)
    asked = {q.id: wording(T, q)[:2] for q in store.open_questions(engine(), found.id)}
    out = io.StringIO()
    names = (["class", "question", "item", "question_text", "phase", "student", "answer", "answer_text", "correct", "time"]
             + (["nickname"] if found.nicknames else []))
    writer = csv.DictWriter(out, fieldnames=names)
    writer.writeheader()
    for row in rows:
        question, options = asked[row["question"]]
        row["question_text"] = spreadsheet_text(question.replace("  \n", " — "))  # as written: no markdown escapes in a cell
        row["answer_text"] = spreadsheet_text(options[row["answer"] - 1])
        if found.nicknames:
            row["nickname"] = spreadsheet_text(str(row["nickname"]))
    writer.writerows(rows)
    return out.getvalue()


def export(view: View, found: store.Class) -> None:
    key = st.session_state[TEACHER][1]
    st.download_button(view.T("live.teacher.export"), data=lambda: export_csv(found, key, view.T), file_name=f"live-class-{found.code}.csv",
                       mime="text/csv", key="live-export", icon=":material/download:")


# --- The student ---


def _too_many_wrong(now: float) -> float:
    """Seconds this browser session must still wait before trying another code (0: it may try now)."""
    recent = [at for at in st.session_state.get(WRONG, []) if now - at < WRONG_WINDOW]
    st.session_state[WRONG] = recent
    return 0.0 if len(recent) < WRONG_LIMIT else WRONG_WINDOW - (now - recent[0])


def try_join(view: View, typed: str, nickname: str | None, quiet: bool = False) -> bool:
    """Join with a typed code: a wrong code is answered slowly and counted; too many in a minute pause this session.
    True once joined (the link then carries the code and the seat: a reload comes back to the same seat)."""
    T = view.T
    wait = _too_many_wrong(time.time())
    if wait > 0:
        st.error(T("live.refused.slow_down", seconds=int(wait) + 1), icon=":material/hourglass_top:")
        return False
    seat = view["seat"] or kept_seat(typed) or store.new_seat()
    try:
        found, student = store.join(engine(), typed, seat, nickname)
    except store.Refused as error:
        if quiet and error.reason in ("wrong_code", "nickname"):  # a link's code: the box below says what is wrong when used
            return False
        if error.reason == "wrong_code":
            st.session_state.setdefault(WRONG, []).append(time.time())
            time.sleep(WRONG_DELAY)
        if error.reason == "nickname" and nickname is None:  # a typed code of a class asking for nicknames: the box shows now
            view.set("join", store.normal_code(typed) or "")
            st.rerun()
        refused(T, error)
        return False
    except (SQLAlchemyError, OSError) as error:
        refused(T, error)
        return False
    st.session_state[STUDENT] = (found.code, student)
    view.set("join", found.code)
    view.set("seat", seat)
    return True


def student(view: View) -> None:
    """A phone: the join box (the code from the link filled in), then the class's questions."""
    T = view.T
    joined = st.session_state.get(STUDENT)
    if joined is not None and joined[0] != view["join"]:
        joined = None  # the link names another class
    if joined is None:
        if not join_form(view):
            return
        joined = st.session_state[STUDENT]
    code, student_id = joined
    try:
        found = store.class_by_code(engine(), code, joining=False)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    if found.ended is not None:  # what was revealed stays readable; nothing more is asked
        st.info(T("live.refused.ended"), icon=":material/event_busy:")
    else:
        st.success(T("live.student.joined", code=found.code), icon=":material/groups:")
    cookie(SEAT_COOKIE, f"{found.code}.{view['seat']}", 0 if found.ended is not None else int(store.CLASS_HOURS * 3600))
    room(view, found.id, student_id, watching=found.ended is None)


def join_form(view: View) -> bool:
    """The join box, the link's code filled in; a link's code needing nothing more joins at once. True once joined."""
    T = view.T
    linked = view["join"]
    nicknames = False
    if linked:
        try:
            nicknames = store.class_by_code(engine(), linked, joining=False).nicknames
        except store.Refused as error:  # a mistyped or tampered link: said at once, the box below to type the code
            refused(T, error)
            nicknames = False
        except (SQLAlchemyError, OSError):
            nicknames = False
        # The QR code's link, or a phone coming back (a reload: the same seat): in at once, nothing to type.
        if not nicknames and not st.session_state.get(WRONG) and try_join(view, linked, None, quiet=True):
            return True
    with st.form("live-join", border=True):
        st.markdown(f"#### {T('live.student.join')}")
        typed = st.text_input(T("live.student.code"), value=linked, max_chars=12, placeholder=T("live.student.code_placeholder"),
                              help=T("live.student.code_help"))
        nickname = (st.text_input(T("live.student.nickname"), max_chars=store.MAX_NICKNAME, help=T("live.student.nickname_help"))
                    if nicknames else None)
        pressed = st.form_submit_button(T("live.student.go"), type="primary")
    if pressed and try_join(view, typed, nickname):
        st.rerun()  # the phone is in: drawn again without the join box
    return False


def room(view: View, class_id: int, student_id: int, watching: bool = True) -> None:
    """The questions open to this student, in a part a tap reruns alone; beside it, a part that rereads the class's
    questions every few seconds and redraws the phone only when the teacher moved on (a question opened, closed,
    revealed)."""
    try:
        questions = store.open_questions(engine(), class_id)
    except (SQLAlchemyError, OSError) as error:
        refused(view.T, error)
        return
    if watching:  # an ended class asks nothing more: the phone stops reading
        try:
            drawn = class_moves(class_id)[0]  # what the waiting part compares with: the same (cached) reading
        except (SQLAlchemyError, OSError):
            drawn = signature(questions)
        watch(class_id, drawn)
    answers_part(view, class_id, student_id, watching)


def signature(questions: list[store.Question]) -> tuple:
    """What the teacher decides (each question and its state): a change redraws the phone."""
    return tuple((q.id, q.state) for q in questions)


@st.cache_data(ttl=PHONE_POLL / 2, max_entries=256, show_spinner=False)
def class_moves(class_id: int) -> tuple[tuple, bool]:
    """What a waiting phone reads: (its questions' signature, has the class ended). Read from the database at most once
    per half poll for the whole server process, however many phones wait: a room of 100 is one query, not 100."""
    return signature(store.open_questions(engine(), class_id)), store.has_ended(engine(), class_id)


@st.fragment(run_every=PHONE_POLL)
def watch(class_id: int, drawn: tuple) -> None:
    """Draws nothing: one (shared) reading every few seconds, and a redraw when the teacher moved on."""
    try:
        now, ended = class_moves(class_id)
    except (SQLAlchemyError, OSError):
        return  # the next read tries again; the phone keeps what it shows
    if now != drawn or ended:
        st.rerun(scope="app")


@st.fragment
def answers_part(view: View, class_id: int, student_id: int, waiting: bool = True) -> None:
    questions_view(view, class_id, student_id, waiting)


def _send(question_id: int, student_id: int, widget: str) -> None:
    choice = st.session_state.get(widget)
    if choice is None:
        return
    try:
        store.answer(engine(), question_id, student_id, int(choice))
    except (store.Refused, SQLAlchemyError, OSError) as error:
        st.session_state[ERROR] = error


def questions_view(view: View, class_id: int, student_id: int, waiting: bool = True) -> None:
    T = view.T
    try:
        questions = store.open_questions(engine(), class_id)
        mine = store.my_answers(engine(), student_id)
    except (SQLAlchemyError, OSError) as error:
        refused(T, error)
        return
    error = st.session_state.pop(ERROR, None)
    if error is not None:
        refused(T, error)
    single = [q for q in questions if not q.phase]
    check = [q for q in questions if q.phase and q.state == "open"]
    if check:
        phase = check[0].phase
        st.markdown(f"#### {T('live.student.check', phase=T(f'live.phase.{phase}'))}")
        for number, question in enumerate(check, 1):
            one_question(T, question, mine.get(question.id), student_id, number, explain_after_answer=phase == "after")
        st.caption(T("live.student.check_done", count=sum(q.id in mine for q in check), total=len(check)))
    if single:
        one_question(T, single[-1], mine.get(single[-1].id), student_id, waiting=waiting)
    elif not check and waiting:
        st.info(T("live.student.wait"), icon=":material/hourglass_empty:")


def one_question(T: Texts, question: store.Question, chosen: int | None, student_id: int, number: int | None = None,
                 explain_after_answer: bool = False, waiting: bool = True) -> None:
    asked, options, explanation = wording(T, question)
    with st.container(border=True, key=f"live-q-{question.id}"):
        st.markdown(f"**{number}.** {plain(asked)}" if number else f"**{plain(asked)}**")
        widget = f"live-answer-{question.id}"
        if question.state == "open":
            if widget not in st.session_state and chosen is not None:
                st.session_state[widget] = chosen
            st.radio(T("live.student.your_answer"), range(question.options), index=None, key=widget, width="stretch",
                     format_func=lambda i: option_name(options, i), on_change=_send, args=(question.id, student_id, widget))
            if chosen is not None:
                st.caption(T("live.student.sent", option=option_name(options, chosen)))
                if explain_after_answer and explanation:
                    st.markdown(T("live.student.explained", explanation=plain(explanation)))
            return
        if question.state == "closed":
            st.markdown(T("live.student.you", option=option_name(options, chosen)) if chosen is not None else T("live.student.none"))
            st.caption(T("live.student.closed" if waiting else "live.student.closed_ended"))
            return
        truth = T("live.student.truth", option=option_name(options, question.correct))
        if chosen is None:
            st.info(f"{truth}  \n{T('live.student.none')}", icon=":material/info:")
        else:
            verdict = T("live.student.right") if chosen == question.correct else T("live.student.wrong")
            (st.success if chosen == question.correct else st.warning)(
                f"{T('live.student.you', option=option_name(options, chosen))}  \n{truth} {verdict}", icon=":material/lightbulb:")
        if explanation:
            st.markdown(T("live.student.explained", explanation=plain(explanation)))


# --- The page ---


def intro_key(view: View) -> str:
    """A phone that came by a join link (or has joined) reads what a student does; anyone else, what the page is."""
    joining = TEACHER not in st.session_state and (view["join"] or STUDENT in st.session_state)
    return "live.intro_student" if joining else "live.intro"


def draw(view: View) -> None:
    """The live page: the teacher's panel for the class's teacher, else the student's phone and a way to start a class."""
    T = view.T
    if st.session_state.pop(LINK_REFUSED, False):
        st.error(T("live.refused.wrong_key"), icon=":material/block:")
    if TEACHER in st.session_state:
        teacher(view)
        return
    error = st.session_state.pop(ERROR, None)
    if error is not None:
        refused(T, error)
    student(view)
    if STUDENT not in st.session_state and not view["join"]:  # a teacher may start on the projector too; a join link is a phone's
        start_form(view)
