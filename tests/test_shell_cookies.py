"""Cookies set by the server for a ticket the page hands back (views/shell/cookies.py): good once, for a while, HttpOnly."""

from __future__ import annotations

import asyncio

import pytest

from views.shell import cookies


def test_a_ticket_is_good_once_and_stands_for_its_cookie():
    ticket = cookies.keep("attention_seat", "ABC123.seat-of-one", 3600, now=100.0)
    assert "seat-of-one" not in ticket and len(ticket) >= 20
    assert cookies.redeem(ticket, now=101.0) == cookies.Kept("attention_seat", "ABC123.seat-of-one", 3600)
    assert cookies.redeem(ticket, now=101.5) is None


def test_a_ticket_too_old_or_made_up_opens_nothing():
    old = cookies.keep("attention_seat", "X.y", 60, now=0.0)
    assert cookies.redeem(old, now=cookies.TICKET_SECONDS + 1) is None
    for made_up in ("", "short", "x" * 300, "a-b-c-d-e-f-g-h-i-j-k-l!", "A" * 32):
        assert cookies.redeem(made_up) is None


def test_a_name_that_is_not_a_cookies_is_refused():
    with pytest.raises(ValueError):
        cookies.keep("seat; Path=/evil", "x", 60)


def test_the_cookie_is_httponly_strict_and_secure_over_tls():
    kept = cookies.Kept("lesson_guesses", "four_steps.1.r", 7200)
    assert cookies.set_cookie(kept, secure=False) == "lesson_guesses=four_steps.1.r; Path=/; Max-Age=7200; HttpOnly; SameSite=Strict"
    assert cookies.set_cookie(kept, secure=True).endswith("; HttpOnly; SameSite=Strict; Secure")
    assert cookies.set_cookie(cookies.Kept("x", "a;b c", 0), False).startswith("x=a%3Bb%20c; Path=/; Max-Age=0;")


def _call(method: str, path: str, body: bytes = b"", headers=(), scheme: str = "http"):
    """The middleware's answer (status, headers) to one request, and whether Streamlit behind it was reached."""
    reached, sent = [], []

    async def streamlit(scope, receive, send):
        reached.append(scope["path"])

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "scheme": scheme, "headers": list(headers)}
    asyncio.run(cookies.KeepCookies(streamlit)(scope, receive, send))
    start = next((m for m in sent if m["type"] == "http.response.start"), None)
    return (start["status"] if start else None), dict(start["headers"]) if start else {}, bool(reached)


def test_the_server_sets_the_cookie_for_a_ticket_once_and_passes_everything_else_on():
    ticket = cookies.keep("attention_seat", "ABC123.seat", 28800)
    status, headers, reached = _call("POST", cookies.PATH, ticket.encode(), [(b"x-forwarded-proto", b"https")])
    assert (status, reached) == (204, False)
    assert headers[b"set-cookie"] == b"attention_seat=ABC123.seat; Path=/; Max-Age=28800; HttpOnly; SameSite=Strict; Secure"
    assert headers[b"cache-control"] == b"no-store"
    again, headers, _ = _call("POST", cookies.PATH, ticket.encode())
    assert again == 404 and b"set-cookie" not in headers
    assert _call("GET", cookies.PATH)[0] == 405
    assert _call("POST", cookies.PATH, b"x" * 5000)[0] == 404
    assert _call("GET", "/multi-head")[2] and _call("POST", "/_stcore/upload_file")[2]
