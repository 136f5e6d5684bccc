"""Page addresses that Streamlit cannot serve, sent where they belong before Streamlit sees them.

- A path of two or more levels (``/pages/walkthrough``, ``/real-model/extra``): Streamlit answers with its
  page, whose scripts are linked relative to the address (``./static/...``), so the browser fetches
  ``/pages/static/...``, gets HTML back and shows a white page. It is redirected to the one-level page it names
  (``/walkthrough``, itself served at ``/``), else to its first level.
- An unknown page (``/no-such-page``): Streamlit opens the default page under an English-only dialog. It is
  redirected to ``/`` with ``not_found=<path>``, which the app turns into a notice in the student's language.

The query string is kept. ``install()`` adds this as an ASGI middleware in front of Streamlit's own
(``scripts/run.py`` calls it) through ``views.shell.private.add_server_middleware``, which wraps one private function of
Streamlit's Starlette server (pinned with Streamlit in requirements.txt, checked by tests/test_shell_paths.py and the canary
in tests/test_shell_private_parts.py). (The page's scripts are a component now:
views/shell/script.py.)
"""

from __future__ import annotations

from urllib.parse import quote

from views.shell import private

PAGE_PATHS: frozenset[str] = frozenset()  # set by install(): the registry's paths
DEFAULT_PATH = ""  # set by install(): the default page's path, which Streamlit serves at "/" only
NOT_FOUND = "not_found"
RESERVED = ("_stcore", "static", "media", "component", "app", "-", "favicon.png", "manifest.json", "robots.txt")


def redirect_for(path: str, query: str, pages: frozenset[str], default: str = "") -> str | None:
    """Where a GET of ``path`` should go instead, or None to let Streamlit serve it (``default``: the default page's
    path, served at "/")."""
    parts = [part for part in path.split("/") if part]
    if not parts or any(part in RESERVED for part in parts) or "." in parts[-1]:  # the app's own files and endpoints
        return None
    if len(parts) == 1 and parts[0] in pages and parts[0] != default:
        return None
    named = next((part for part in parts if part in pages), None)
    if named is not None:
        target = "/" if named == default else f"/{named}"
    else:
        target, extra = "/", f"{NOT_FOUND}={quote(path)}"
        query = f"{query}&{extra}" if query else extra
    return f"{target}?{query}" if query else target


class PagePaths:
    """ASGI middleware: redirect (302) page addresses Streamlit would serve blank or under an English dialog."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            target = redirect_for(scope["path"], scope.get("query_string", b"").decode("latin-1"), PAGE_PATHS, DEFAULT_PATH)
            if target is not None:
                await send({"type": "http.response.start", "status": 302,
                            "headers": [(b"location", target.encode("latin-1")), (b"content-length", b"0")]})
                await send({"type": "http.response.body", "body": b""})
                return
        await self.app(scope, receive, send)


def install(pages: frozenset[str], default: str) -> None:
    """Put ``PagePaths`` in front of Streamlit's middleware for ``pages`` (the registry's URL paths; ``default`` at "/")."""
    global PAGE_PATHS, DEFAULT_PATH
    PAGE_PATHS, DEFAULT_PATH = frozenset(pages), default
    private.add_server_middleware(PagePaths)
