"""Cookies the browser keeps for the server (a student's seat, a teacher's key), out of reach of the page's scripts.

A seat's cookie is a bearer secret: whoever holds it is that student. Streamlit 1.67 can read cookies
(``st.context.cookies``, from the websocket's handshake) but cannot set one, and a cookie a script sets cannot be
HttpOnly. So the value never reaches the page: a run asks to ``keep`` it and gets back a **ticket**, a random word of
no meaning that the page's script hands back at once to this server (``POST /-/cookie``, ``KeepCookies`` below, in
front of Streamlit: scripts/run.py installs it). The answer sets the cookie ``HttpOnly; SameSite=Strict`` (and
``Secure`` when the page came over TLS). A ticket is good once and for ``TICKET_SECONDS``; it is kept in this process
(the browser's next request comes back to the same replica: scripts/serve.py's balancer is sticky).

    ticket = keep("attention_seat", "ABC123.q9…", 8 * 3600)    # the page's script posts it back
    redeem(ticket) -> Kept("attention_seat", "ABC123.q9…", 28800)   # once; None after that, or when too old
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from typing import NamedTuple
from urllib.parse import quote

PATH = "/-/cookie"
TICKET_SECONDS = 120.0  # a page that was busy drawing still hands its ticket back in time
MAX_TICKETS = 20_000  # the oldest are dropped past this (a flood of runs never grows the memory without end)
NAME = re.compile(r"[a-z_]{1,40}")
TICKET = re.compile(r"[A-Za-z0-9_-]{20,64}")


class Kept(NamedTuple):
    """A cookie the server asked the browser to keep: ``age`` seconds (0: forget it)."""

    name: str
    value: str
    age: int


_tickets: dict[str, tuple[Kept, float]] = {}
_lock = threading.Lock()


def keep(name: str, value: str, age: int, now: float | None = None) -> str:
    """A ticket for the cookie ``name`` = ``value`` kept ``age`` seconds (0: forgotten), good once."""
    if not NAME.fullmatch(name):
        raise ValueError(f"not a cookie name: {name!r}")
    now = time.monotonic() if now is None else now
    ticket = secrets.token_urlsafe(24)
    with _lock:
        for old in [t for t, (_, made) in _tickets.items() if now - made > TICKET_SECONDS]:
            del _tickets[old]
        while len(_tickets) >= MAX_TICKETS:
            del _tickets[next(iter(_tickets))]
        _tickets[ticket] = (Kept(name, value, max(0, int(age))), now)
    return ticket


def redeem(ticket: str, now: float | None = None) -> Kept | None:
    """The cookie ``ticket`` stands for, once; None for an unknown, used or expired ticket."""
    if not TICKET.fullmatch(ticket):
        return None
    now = time.monotonic() if now is None else now
    with _lock:
        found = _tickets.pop(ticket, None)
    if found is None or now - found[1] > TICKET_SECONDS:
        return None
    return found[0]


def set_cookie(kept: Kept, secure: bool) -> str:
    """The Set-Cookie header that keeps ``kept``: HttpOnly, SameSite=Strict, the whole site, Secure over TLS."""
    parts = [f"{kept.name}={quote(kept.value, safe='')}", "Path=/", f"Max-Age={kept.age}", "HttpOnly", "SameSite=Strict"]
    return "; ".join([*parts, "Secure"] if secure else parts)


def _secure(scope: dict) -> bool:
    """Did the page come over TLS: this server's own scheme, or the balancer's X-Forwarded-Proto."""
    forwarded = dict(scope.get("headers") or []).get(b"x-forwarded-proto", b"").decode("latin-1")
    return scope.get("scheme") == "https" or forwarded.split(",")[0].strip() == "https"


class KeepCookies:
    """ASGI middleware: ``POST /-/cookie`` with a ticket as its body sets that ticket's cookie (204), else 404; every
    other request goes on to Streamlit."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope.get("type") != "http" or scope.get("path") != PATH:
            await self.app(scope, receive, send)
            return
        if scope.get("method") != "POST":
            await _answer(send, 405, [(b"allow", b"POST")])
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if len(body) > 256 or not message.get("more_body"):
                break
        kept = redeem(body.decode("ascii", "replace").strip()) if len(body) <= 256 else None
        if kept is None:
            await _answer(send, 404)
            return
        await _answer(send, 204, [(b"set-cookie", set_cookie(kept, _secure(scope)).encode("latin-1"))])


async def _answer(send, status: int, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"cache-control", b"no-store"), (b"content-length", b"0"), *(headers or [])]})
    await send({"type": "http.response.body", "body": b""})
