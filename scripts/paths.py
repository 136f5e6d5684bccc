"""Page addresses that Streamlit cannot serve, sent where they belong before Streamlit sees them.

- A path of two or more levels (``/pages/walkthrough``, ``/real-model/extra``): Streamlit answers with its
  page, whose scripts are linked relative to the address (``./static/...``), so the browser fetches
  ``/pages/static/...``, gets HTML back and shows a white page. It is redirected to the one-level page it names
  (``/walkthrough``, itself served at ``/``), else to its first level.
- An unknown page (``/no-such-page``): Streamlit opens the default page under an English-only dialog. It is
  redirected to ``/`` with ``not_found=<path>``, which the app turns into a notice in the student's language.

The query string is kept. ``install()`` adds this as an ASGI middleware in front of Streamlit's own
(``scripts/run.py`` calls it); it wraps one private function of Streamlit's Starlette server, pinned with
Streamlit in requirements.txt and checked by tests/test_paths.py.

``PageScripts``, behind Streamlit's own middleware, puts the page's scripts (assets/js: shell.js, charts.js, steps.js)
into the head of the page Streamlit serves, so they run before Streamlit's own code: before its first chart is drawn,
and never inside an iframe that Streamlit may remove (a listener or timer made there would never fire again).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

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


SCRIPTS = ("shell", "charts", "steps")
JS = Path(__file__).resolve().parent.parent / "assets" / "js"


NAMED_BY_SCRIPTS = ("walkthrough.choices",)  # texts of the pages that shell.js also gives a button as its name


def browser_texts() -> dict[str, dict[str, str]]:
    """The texts the browser draws (assets/text/*/browser.toml) in each language, by key without "browser.":
    ``{"en": {"plotly.zoom_in": "Zoom in", ...}, "zh": {"plotly.zoom_in": "放大", ...}}``."""
    from attention_plot.text import LANGUAGES, catalogue

    return {lang: {key.removeprefix("browser."): text for key, text in catalogue(lang).items()
                   if key.startswith("browser.") or key in NAMED_BY_SCRIPTS} for lang in LANGUAGES}


def page_scripts() -> bytes:
    """The <script> elements for the page's head: the browser's texts, then each script in its own scope."""
    texts = json.dumps(browser_texts(), ensure_ascii=False).replace("</", "<\\/")
    code = f"<script id=\"attention-texts\">window.__attentionTexts = {texts};</script>"
    code += "".join(f"<script id=\"attention-{name}\">(() => {{\n{(JS / f'{name}.js').read_text()}\n}})();</script>" for name in SCRIPTS)
    return code.encode()


class PageScripts:
    """ASGI middleware: the page's scripts in the head of every HTML page Streamlit serves (its index.html)."""

    def __init__(self, app) -> None:
        self.app = app
        self.scripts = page_scripts()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        start, body = None, []

        async def held(message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                kind = dict(message.get("headers", [])).get(b"content-type", b"")
                if message.get("status") != 200 or not kind.startswith(b"text/html"):
                    await send(message)
                    return
                start = message
                return
            if start is None:
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            page = b"".join(body).replace(b"</head>", self.scripts + b"</head>", 1)
            # Not Streamlit's file's validators: a browser revalidating them would keep a page with older scripts.
            headers = [(k, v) for k, v in start.get("headers", []) if k not in (b"content-length", b"etag", b"last-modified")]
            await send({**start, "headers": [*headers, (b"content-length", str(len(page)).encode())]})
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, held)


def install(pages: frozenset[str], default: str) -> None:
    """Put ``PagePaths`` in front of Streamlit's middleware for ``pages`` (the registry's URL paths; ``default`` at "/"),
    and ``PageScripts`` behind it (inside its gzip)."""
    global PAGE_PATHS, DEFAULT_PATH
    from starlette.middleware import Middleware
    from streamlit.web.server.starlette import starlette_app

    PAGE_PATHS, DEFAULT_PATH = frozenset(pages), default
    own = starlette_app.create_streamlit_middleware
    scripts = [Middleware(PageScripts)] if os.environ.get("ATTENTION_PAGE_SCRIPTS", "1") != "0" else []  # 0: a bare floor (bench)
    starlette_app.create_streamlit_middleware = lambda: [Middleware(PagePaths), *own(), *scripts]
