"""The teacher: start a class (a seat map if wanted), the join card, ask, the rounds on the projector, the concept check,
the exports, the classes run before, end. Only the teacher key opens, closes, pairs, reveals or exports (the store
checks it on every action).
"""

from __future__ import annotations

import base64
import html
import io
import secrets
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from attention_plot.figures import plain
from attention_plot.text import DEFAULT_LANGUAGE, Texts
from classroom import generators, store
from classroom.network import is_loopback, network_address
from views.live import common
from views.live.common import (
    COOKIE,
    ERROR,
    KEY_COOKIE,
    KEY_DAYS,
    LINK_KEPT,
    LINK_REFUSED,
    concept_items,
    engine,
    generated_item,
    lesson_items,
    one_line,
    question_of,
    refused,
)
from views.shell import state
from views.shell.page import View, want_focus
from views.shell.registry import MAX_TOKENS
from views.shell.script import cookie
from views.widgets import cache
from views.widgets.questions import STUDENT, TEACHER, WALK_ITEM, Item, focus_item

ASK_DRAWN = "live-ask-drawn"  # the open question "Ask the class" was drawn with (its id, or None)
CONTROLS = "live-controls"  # presenter mode's box of asking and ending: open or closed (its state, kept by Streamlit)


# --- The join card ---


def join_address(lang: str = DEFAULT_LANGUAGE) -> tuple[str, bool]:
    """(the address students open, was it moved off this machine's own name): this server as the teacher's browser
    reaches it, except that a browser at localhost (which phones cannot reach) gives this machine's network address;
    the teacher's language when it is not the default (a class taught in Chinese joins in Chinese)."""
    here = urlsplit(st.context.url or "http://localhost:8501/")
    host, moved = here.netloc, False
    if is_loopback(here.hostname or "") and (address := network_address()):
        host, moved = f"{address}:{here.port}" if here.port else address, True
    return f"{here.scheme}://{host}/live", moved


def join_url(code: str, lang: str = DEFAULT_LANGUAGE) -> str:
    params = {"join": code, **({"lang": lang} if lang != DEFAULT_LANGUAGE else {})}
    return f"{join_address(lang)[0]}?{urlencode(params)}"


def qr_image(url: str, alt: str) -> str:
    """An <img> of the QR code for ``url`` (segno, PNG as a data URI), with its alternative text."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="png", scale=8, border=2, dark="#111111")
    data = base64.b64encode(buffer.getvalue()).decode()
    return f'<img class="live-qr" src="data:image/png;base64,{data}" alt="{html.escape(alt)}" width="220" height="220">'


def join_card(T: Texts, code: str, compact: bool = False) -> None:
    """The code in letters large enough for the back of the room, the address to type, and the QR code of both;
    ``compact``: one line above a question on the projector (latecomers still see how to join). A browser at
    localhost is told that the address given is the machine's network address (or, without one, that phones cannot
    reach localhost)."""
    url = join_url(code, T.lang)
    spelled = " ".join(code)  # a screen reader spells the code out
    if compact:
        st.html(f'''<p class="live-join-line">{html.escape(T("live.teacher.join_at", url="")).strip()} <code>{html.escape(url)}</code>
<span class="live-code-small" role="text" aria-label="{html.escape(spelled)}">{html.escape(code)}</span></p>''')
        return
    st.html(f'''<div class="live-join"><div class="live-join-words"><h2 class="live-join-label">{html.escape(T("live.teacher.code"))}</h2>
<p class="live-code" role="text" aria-label="{html.escape(spelled)}">{html.escape(code)}</p>
<p>{html.escape(T("live.teacher.join_at", url="")).strip()} <code>{html.escape(url)}</code></p></div>
<figure class="live-qr-box">{qr_image(url, T("live.teacher.qr_alt", url=url))}</figure></div>''')
    here = urlsplit(st.context.url or "http://localhost:8501/")
    if is_loopback(here.hostname or ""):
        moved = join_address(T.lang)[1]
        st.warning(T("live.teacher.network_moved" if moved else "live.teacher.network_none", host=here.netloc),
                   icon=":material/wifi:")


# --- Who teaches ---


def _leave_refused_link() -> None:
    st.session_state.pop(LINK_REFUSED, None)


def link_refused(T: Texts) -> bool:
    """A refused teacher link: what happened (nobody joined, nobody counted) and what to do, kept on screen over reruns
    until the teacher leaves it for the page's start (a class of their own, or joining as a student). True when shown."""
    if st.session_state.pop(LINK_KEPT, False):
        st.warning(T("live.refused.teacher_link_kept"), icon=":material/link_off:")
    refusal = st.session_state.get(LINK_REFUSED)
    if refusal is None:
        return False
    code, error = refusal
    if isinstance(error, store.Refused):
        st.error(T("live.refused.teacher_link", code=code) if code else T("live.refused.teacher_link_none"), icon=":material/block:")
        st.info(T("live.refused.teacher_link_help"), icon=":material/key:")
    else:
        refused(T, error)
    st.button(T("live.refused.leave_link"), key="live-leave-link", on_click=_leave_refused_link)
    return True


def remember(code: str, key: str, ended: bool) -> None:
    """The browser keeps the teacher's code and key in a cookie (assets/js/shell.js sets it), so a reload stays the
    teacher; it forgets them when the class ends. It keeps the key alone longer: the classes it started are listed."""
    value = "" if ended else f"{code}.{key}"
    if st.session_state.get("live.remembered") == value:
        return
    st.session_state["live.remembered"] = value
    cookie(COOKIE, value, 0 if ended else int(store.CLASS_HOURS * 3600))
    cookie(KEY_COOKIE, key, KEY_DAYS * 24 * 3600)


def kept_key() -> str | None:
    """The teacher key this browser keeps (its classes share it), or None."""
    key = st.session_state[TEACHER][1] if TEACHER in st.session_state else common.cookies().get(KEY_COOKIE, "")
    return key if key and store.KEY.fullmatch(key) else None


def _start(nicknames_key: str, rows_key: str, seats_key: str) -> None:
    rows, seats = int(st.session_state.get(rows_key) or 0), int(st.session_state.get(seats_key) or 0)
    try:
        code, key = store.start_class(engine(), nicknames=bool(st.session_state.get(nicknames_key)), key=kept_key(),
                                      rows=rows if rows and seats else None, seats=seats if rows and seats else None)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        st.session_state[ERROR] = error
        return
    st.session_state[TEACHER] = (code, key)
    st.session_state.pop(STUDENT, None)
    st.session_state[state.key("live", "join")] = code
    want_focus("live-join")  # the start button is gone: the focus goes to the class's code


def seat_map_inputs(T: Texts, rows: int | None, seats: int | None, prefix: str) -> tuple[str, str]:
    """Rows and seats per row of the room (0: no seat map); the keys of the two inputs."""
    left, right = st.columns(2)
    left.number_input(T("live.teacher.rows"), 0, store.MAX_ROWS, value=rows or 0, step=1, key=f"{prefix}-rows",
                      help=T("live.teacher.map_help"))
    right.number_input(T("live.teacher.seats"), 0, store.MAX_SEATS, value=seats or 0, step=1, key=f"{prefix}-seats")
    return f"{prefix}-rows", f"{prefix}-seats"


def start_form(view: View) -> None:
    T = view.T
    with st.container(border=True):
        st.markdown(f"## {T('live.teacher.start')}")
        st.toggle(T("live.teacher.nicknames"), key="live.nicknames", help=T("live.teacher.nicknames_help"))
        st.markdown(T("live.teacher.map"))
        rows_key, seats_key = seat_map_inputs(T, None, None, "live-start")
        st.button(T("live.teacher.start"), key="live-start", type="primary", on_click=_start, args=("live.nicknames", rows_key, seats_key),
                  icon=":material/co_present:")


def _act(action, *args) -> None:
    """A teacher's button: the store's action with this session's code and key; a refusal is shown on the next run."""
    code, key = st.session_state[TEACHER]
    try:
        action(engine(), code, key, *args)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        st.session_state[ERROR] = error


def _act_on_question(action, *args) -> None:
    """A button under the question on the projector (close, discuss, reveal): its button goes, the focus goes to the
    question as it now stands."""
    _act(action, *args)
    want_focus("live-question")


def open_item(item: Item, live_key: str | None, follows: int | None = None, focus: bool = False) -> None:
    """Open ``item`` on the phones (the question open before is closed, its answers kept); ``focus``: from the live
    page, where the question is drawn above the button, which the focus then leaves for it."""
    code, key = st.session_state[TEACHER]
    try:
        db = engine()
        found = store.check_teacher(db, code, key)
        for question in store.open_questions(db, found.id, ("open",)):  # one question at a time (a check is separate)
            if not question.phase:
                store.close_question(db, code, key, question.id)
        store.open_question(db, code, key, item.id, item.options, item.correct, item.labels,
                            live=bool(live_key and st.session_state.get(live_key)), follows=follows)
    except (store.Refused, SQLAlchemyError, OSError) as error:
        st.session_state[ERROR] = error
        return
    if focus:
        want_focus("live-question")


def say_asked(T: Texts) -> None:
    """After ``open_item`` from another page: a toast says the question is asked, or the refusal is shown."""
    error = st.session_state.pop(ERROR, None)
    if error is not None:
        refused(T, error)
    else:
        st.toast(T("live.teacher.asked"), icon=":material/how_to_vote:")


def ask_now(T: Texts, item: Item) -> None:
    """Open ``item`` for the class this session teaches, from a component's event (no button callback): a toast says it
    is asked, or the refusal is shown."""
    open_item(item, None)
    say_asked(T)


def _open_similar(question: store.Question) -> None:
    """"One more like it": a question of the same kind drawn afresh from a new seed, answered alone."""
    kind = generators.similar_kind(question.item)
    if kind is not None:
        open_item(generated_item(kind, secrets.randbelow(2**31)), None, follows=question.id, focus=True)


def _open_check(phase: str, question_id: int | None = None) -> None:
    """Open the concept check's items; a question still open on the phones is closed first (its answers kept)."""
    if question_id is not None:
        _act(store.close_question, question_id)
    for item in concept_items():
        _act(lambda db, code, key, item=item: store.open_question(db, code, key, item.id, item.options, item.correct, phase=phase))


def _seat_map(rows_key: str, seats_key: str) -> None:
    rows, seats = int(st.session_state.get(rows_key) or 0), int(st.session_state.get(seats_key) or 0)
    _act(store.set_seat_map, rows if rows and seats else None, seats if rows and seats else None)


# --- Asking ---


def walk_item(view: View) -> Item | None:
    """The focused word's question as the walkthrough last showed it (its weights, head and focused word); before the
    walkthrough has been opened, the question on the session's sentence with the walkthrough's default random weights."""
    if WALK_ITEM in st.session_state:
        return st.session_state[WALK_ITEM]
    try:
        explained = cache.explanation_for(view.settings)
    except ValueError:
        return None
    tokens = explained.tokens[:MAX_TOKENS]
    if not 2 <= len(tokens) <= store.MAX_OPTIONS:
        return None
    focus = min(max(int(st.session_state.get(state.key("walkthrough", "focus"), 1)), 1), len(tokens)) - 1
    return focus_item(explained.trace.heads[0].weights[focus], tokens, focus)


def open_single(class_id: int) -> store.Question | None:
    """The one question open on the phones (not a concept check's item), or None."""
    try:
        still_open = [q for q in store.open_questions(engine(), class_id, ("open",)) if not q.phase]
    except (SQLAlchemyError, OSError):
        return None
    return still_open[-1] if still_open else None


def _open_from_list(item: Item, live_key: str, closes: str | None) -> None:
    """"Open the question": opened from the live page (the focus goes to it); the box it was asked from closes."""
    open_item(item, live_key, None, True)
    if closes is not None:
        st.session_state[closes] = False


def ask(view: View, class_id: int, closes: str | None = None) -> None:
    """"Ask the class": a question to choose, whether its answers show as they arrive, and the button that opens it
    (``closes``: the box it is drawn in, closed once the question is open)."""
    T = view.T
    still_open = st.session_state.get(ASK_DRAWN)
    # one line, without its own closing stop: the notice that quotes it ends the sentence
    open_now = one_line(T, still_open).rstrip("。.") if still_open else ""
    walk = walk_item(view)
    items = ([walk] if walk else []) + lesson_items(T) + concept_items()
    names = {item.id: one_line(T, question_of(item)) for item in items}
    with st.container(border=closes is None):
        if closes is None:  # in a box, the box's title says it
            st.markdown(f"## {T('live.teacher.ask')}")
        picked = st.selectbox(T("live.teacher.pick"), [item.id for item in items], index=None, key="live-pick",
                              format_func=lambda item_id: names[item_id], placeholder=T("live.teacher.pick_placeholder"))
        st.toggle(T("live.teacher.live"), key="live-live", help=T("live.teacher.live_help"))
        item = next((item for item in items if item.id == picked), None)
        if open_now:  # one question at a time: opening another closes this one, and says so first
            st.caption(T("live.teacher.replaces", question=plain(open_now)))
        st.button(T("live.teacher.open_instead" if open_now else "live.teacher.open"), key="live-open", type="primary",
                  disabled=item is None, on_click=_open_from_list, args=(item, "live-live", closes), icon=":material/how_to_vote:")


def controls_box(view: View, class_id: int) -> None:
    """Presenter mode: asking and ending in one box, closed, its insides drawn only while the teacher holds it open (the
    room sees its title, never the list of questions nor "End the class"); it closes again once a question is open."""
    box = st.expander(view.T("live.teacher.controls"), key=CONTROLS, on_change="rerun", icon=":material/tune:")
    if box.open:
        with box:
            ask(view, class_id, closes=CONTROLS)
            end_button(view.T)


def seat_map_panel(view: View, found: store.Class) -> None:
    """The room's seat map, changed during the class (0 rows: none; a map made smaller forgets the seats off it)."""
    T = view.T
    with st.expander(T("live.teacher.map_now", rows=found.rows, seats=found.seats) if found.rows else T("live.teacher.map_none")):
        rows_key, seats_key = seat_map_inputs(T, found.rows, found.seats, "live-map")
        st.button(T("live.teacher.map_set"), key="live-map-set", on_click=_seat_map, args=(rows_key, seats_key))


def _end() -> None:
    _act(store.end_class)
    want_focus("live-ended")


def end_button(T: Texts) -> None:
    """"End the class", one click more (ending cannot be undone); shown on the projector too. The pop-over opens with the
    focus on its question, not on "Yes, end the class": a second Enter must not end the class (shell.js, data-focus-first)."""
    with st.popover(T("live.teacher.end"), icon=":material/stop_circle:"):
        st.html(f'<p class="live-end-confirm" tabindex="-1" data-focus-first>{html.escape(T("live.teacher.end_confirm"))}</p>')
        st.button(T("live.teacher.end_now"), key="live-end", on_click=_end, type="primary",
                  icon=":material/stop_circle:")
