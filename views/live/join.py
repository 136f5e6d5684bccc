"""A phone joins: by the QR code's link (in at once), by a typed code, or again (a reload, a new tab, a restarted server:
the seat's cookie makes it the same student, with no nickname to type again).

Wrong codes are limited per browser (a cookie, so a reload does not start afresh) and per address, whether typed or in
a link (``classroom.limits``); each is answered slowly.
"""

from __future__ import annotations

import ipaddress
import secrets
import time

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from classroom import limits, store
from views.live import common
from views.live.common import BROWSER_COOKIE, SEAT, SEAT_COOKIE, engine, refused, shown
from views.shell.page import View, want_focus
from views.shell.script import cookie
from views.widgets.questions import STUDENT

WRONG_DELAY = 1.0  # s: each wrong code is answered this slowly
BROWSERS = limits.Window(limits.BROWSER_LIMIT)  # wrong codes per browser (its cookie), this process
ADDRESSES = limits.Window(limits.ADDRESS_LIMIT)  # … per address
BROWSER = "live.browser"  # session: this browser's id for the limit
LINK_TRIED = "live.link_tried"  # session: the link's code this session tried (once: a rerun does not count it again)
CUT = "live.nickname_cut"  # session: the nickname as kept, when it had to be cut (said once)


def browser_key() -> str:
    """This browser's id for the wrong-code limit: its cookie's, or a new one it keeps from now on."""
    if BROWSER not in st.session_state:
        kept = common.cookies().get(BROWSER_COOKIE, "")
        fresh = not (16 <= len(kept) <= 32 and store.SEAT.fullmatch(kept))
        st.session_state[BROWSER] = secrets.token_urlsafe(12) if fresh else kept
        if fresh:
            cookie(BROWSER_COOKIE, st.session_state[BROWSER], 24 * 3600)
    return st.session_state[BROWSER]


def client_address() -> str | None:
    """The address the browser connects from: nginx's X-Forwarded-For when the connection comes from this machine's
    proxy, else the connection's own address."""
    address = getattr(st.context, "ip_address", None)
    forwarded = str((st.context.headers or {}).get("X-Forwarded-For", "")).split(",")[0].strip()
    try:
        local = address is None or ipaddress.ip_address(address).is_loopback
    except ValueError:
        local = False
    return forwarded or address if local else address


def wait_before_trying() -> float:
    """Seconds this browser (or its address) must wait before its next code (0: it may try now)."""
    return limits.waiting([(BROWSERS, browser_key()), (ADDRESSES, client_address())], time.time())


def count_wrong() -> None:
    now = time.time()
    BROWSERS.add(browser_key(), now)
    if client_address():
        ADDRESSES.add(client_address(), now)
    time.sleep(WRONG_DELAY)


def kept_seat(typed: str) -> str | None:
    """The seat this browser took in the class of ``typed`` (its cookie): the join link opened again in a new tab, or
    after the tab was closed, is the same student, not a second one."""
    code, _, seat = common.cookies().get(SEAT_COOKIE, "").partition(".")
    return seat if seat and store.SEAT.fullmatch(seat) and code == store.normal_code(typed) else None


def try_join(view: View, typed: str, nickname: str | None) -> bool:
    """Join with a code (typed, or from a link): a wrong one is answered slowly and counted; too many pause this
    browser. True once joined (the seat is kept in a cookie, never in the link)."""
    T = view.T
    wait = wait_before_trying()
    if wait > 0:
        st.error(T("live.refused.slow_down", seconds=int(wait) + 1), icon=":material/hourglass_top:")
        return False
    seat = kept_seat(typed) or st.session_state.get(SEAT) or store.new_seat()
    try:
        found, student = store.join(engine(), typed, seat, nickname)
    except store.Refused as error:
        if error.reason == "wrong_code":
            count_wrong()
        if error.reason == "nickname" and nickname is None:  # a code of a class asking for nicknames: the box shows now
            view.set("join", store.normal_code(typed) or "")
            st.rerun()
        refused(T, error)
        return False
    except (SQLAlchemyError, OSError) as error:
        refused(T, error)
        return False
    kept = store.clean_nickname(nickname) if found.nicknames and nickname else None
    if kept and kept != " ".join(str(nickname).split()):
        st.session_state[CUT] = kept
    st.session_state[STUDENT] = (found.code, student)
    st.session_state[SEAT] = seat
    view.set("join", found.code)
    return True


def rejoin(view: View) -> bool:
    """A browser seated before (its seat's cookie) comes back to its class, even from the bare page or after a restart,
    while the class runs; after it ended or expired, only from the class's own page (a reload: what was revealed stays
    readable). True once in."""
    code, _, seat = common.cookies().get(SEAT_COOKIE, "").partition(".")
    linked = view["join"]
    if not seat or (linked and linked != code) or not store.SEAT.fullmatch(seat):
        return False
    try:
        found = store.class_by_code(engine(), code, joining=linked != code)
        student = store.seated(engine(), found.id, seat)
    except (store.Refused, SQLAlchemyError, OSError):
        return False
    if student is None:
        return False
    st.session_state[STUDENT] = (found.code, student)
    st.session_state[SEAT] = seat
    view.set("join", found.code)
    return True


def join_form(view: View) -> bool:
    """The join box, the link's code filled in; a link's code needing nothing more joins at once (once per session:
    a wrong one is counted like a typed one). True once joined."""
    T = view.T
    linked = view["join"]
    nicknames = False
    if linked and st.session_state.get(LINK_TRIED) != linked:
        st.session_state[LINK_TRIED] = linked
        if try_join(view, linked, None):  # the QR code's link: in at once, nothing to type
            return True
    if linked:
        try:
            nicknames = store.class_by_code(engine(), linked, joining=False).nicknames
        except (store.Refused, SQLAlchemyError, OSError):
            nicknames = False
    with st.form("live-join", border=True):
        st.markdown(f"## {T('live.student.join')}")
        typed = st.text_input(T("live.student.code"), value=linked, max_chars=12, placeholder=T("live.student.code_placeholder"),
                              help=T("live.student.code_help"))
        nickname = None
        if nicknames:  # says why the box is there (it appears after a first Join with a typed code)
            st.info(T("live.student.nickname_why"), icon=":material/badge:")
            # A pasted name longer than the limit is cut with a notice, not refused by the box (which would leave it empty).
            nickname = st.text_input(T("live.student.nickname"), max_chars=10 * store.MAX_NICKNAME, help=T("live.student.nickname_help"))
        pressed = st.form_submit_button(T("live.student.go"), type="primary")
    if pressed and try_join(view, typed, nickname):
        want_focus("live-phone", lost_only=True)  # the join box goes: the focus goes to the question (or the notice to wait)
        st.rerun()  # the phone is in: drawn again without the join box
    return False


def nickname_notice(view: View) -> None:
    """Say once that a nickname was cut to the limit, as it is kept."""
    kept = st.session_state.pop(CUT, None)
    if kept:
        st.info(view.T("live.student.nickname_cut", limit=store.MAX_NICKNAME, nickname=shown(kept)), icon=":material/content_cut:")
