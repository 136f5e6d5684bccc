"""A walk saved as one HTML file: the step component's code and styles, and its payload, in a page that needs no server.

The walkthrough offers it for download (views/walkthrough.py) and a notebook shows it where there is no live kernel:
``page(payload, lang=..., link=...)`` is a pure function of the payload's bytes (``views.widgets.steps.Pack.bytes``),
without Streamlit. The code is the app's own, read from assets/components/ when the file is made and joined as the app
joins it (``attention_plot.javascript``): the file and the app run the same files, never a copy kept in the repository.

In the file the payload's header says ``saved``: nothing that would ask a server is offered (the sentence box, another
walk or layer, the hands-on editor, a live class, leaving presenter mode); the page above the steps says which
sentence, settings and numbers made the walk, and links to the app to reopen it live. The float64 block travels as
base64 in a script element the browser does not run; a Content-Security-Policy (``default-src 'none'``) lets the file
ask nothing of any server, even by mistake. Every text from outside (the sentence, the settings) is escaped: the header's
JSON is inside the base64, and the page's own words are written with ``html.escape``.
"""

from __future__ import annotations

import base64
import html
import json
import struct
from collections.abc import Sequence
from typing import Any

from attention_plot import javascript
from attention_plot.text import Texts

ENTRY = "steps/component.js"
STYLE = javascript.COMPONENTS / "steps.css"
MAGIC = b"ATT1"
# Nothing is fetched, loaded or connected to: inline code and styles run; data: and blob: serve what the page makes
# itself (a CSV or PNG download, a picture of a matrix).
POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; "
          "font-src data:; connect-src data: blob:; base-uri 'none'; form-action 'none'")
# Dropped from the header: what asks the server (views/widgets/steps.py and views/walkthrough.py write them).
SERVER_ONLY = ("sentence", "walks")

PAGE_CSS = """
:root { color-scheme: light; }
body { margin: 0; background: #fff; color: #1f2430;
  font-family: "Source Sans", "Source Sans Pro", "Noto Sans CJK SC", sans-serif; line-height: 1.5; }
.saved { max-width: 1180px; margin: 0 auto; padding: 0.75rem 1.25rem 0; }
.saved h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.25rem 0 0.5rem; }
.saved dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 0.9rem; margin: 0 0 0.5rem; }
.saved dt { color: #4a4947; }
.saved dd { margin: 0; overflow-wrap: anywhere; }
.saved .offline { background: #e8f1fb; color: #0b3a66; border-radius: 0.5rem; padding: 0.5rem 0.8rem; margin: 0.25rem 0; }
.saved a { color: #0b4f8a; }
.saved a:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
main { max-width: 1180px; margin: 0 auto; padding: 0 1.25rem 2rem; }
@media (max-width: 640px) {
  .saved, main { padding-left: 0.75rem; padding-right: 0.75rem; }
  .saved h1 { font-size: 1.3rem; }
}
"""

# After the component's modules (one module scope, ``javascript.join``): the payload decoded and the component mounted
# as Streamlit mounts it (an open shadow root holding its styles; ``parentElement``), with nobody to send events to.
MOUNT_JS = """
const saved = document.getElementById("walk-payload");
const text = atob((saved?.textContent || "").trim());
const bytes = new Uint8Array(text.length);
for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
const host = document.getElementById("walk");
const shadow = host.attachShadow({ mode: "open" });
const style = document.createElement("style");
style.textContent = document.getElementById("walk-style")?.textContent || "";
shadow.append(style);
const nobody = () => {};
mountSteps({ data: bytes, parentElement: shadow, setStateValue: nobody, setTriggerValue: nobody });
"""


def read(payload: bytes) -> tuple[dict[str, Any], bytes]:
    """A payload's header and its float64 block as bytes (the format of views/widgets/steps.py)."""
    if payload[:4] != MAGIC:
        raise ValueError("not a step payload")
    (length,) = struct.unpack("<I", payload[4:8])
    return json.loads(payload[8 : 8 + length]), payload[8 + length :]


def write(header: dict[str, Any], block: bytes) -> bytes:
    """A payload from a header and a float64 block: magic, the header's length, the header, padding to 8 bytes, the block."""
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    padding = b" " * (-(8 + len(text)) % 8)
    return MAGIC + struct.pack("<I", len(text) + len(padding)) + text + padding + block


def offline(payload: bytes) -> bytes:
    """The payload as the file shows it: marked ``saved``, nothing that asks a server, its own token (a view kept by
    the browser for one saved walk never opens another)."""
    header, block = read(payload)
    for name in SERVER_ONLY:
        header[name] = None
    header |= {"saved": True, "ask": False, "teaching": False, "token": f"saved-{header.get('id', '')}"}
    return write(header, block)


def script_text(entry: str = ENTRY) -> str:
    """The component's module, joined from assets/components/ (as the app runs it), its default export named."""
    code = javascript.join(entry)
    if code.count("export default function") != 1:
        raise ValueError(f"{entry}: the entry must export one default function (the component's mount)")
    return code.replace("export default function", "const mountSteps = function", 1) + ";\n" + MOUNT_JS


def _inline(text: str, what: str) -> str:
    """Text put inside a <script> or <style> as it is: it must not end its element early."""
    if "</script" in text.lower():
        raise ValueError(f"{what} holds an end tag that would end the file's element early")
    return text


def page(payload: bytes, *, lang: str, link: str | None = None, sentence: str | None = None,
         settings: Sequence[tuple[str, str]] = (), numbers: str | None = None) -> str:
    """One HTML file that steps through ``payload`` with no server: the component's code and styles, the payload as
    base64, and above the steps what made the walk (``sentence``, ``settings`` as (name, value) pairs, ``numbers``:
    which weights) with ``link``, the app's address that reopens it live. ``lang`` ("en", "zh") is the page's words'."""
    T = Texts(lang)
    facts = []
    if sentence:
        facts.append((T("walkthrough.saved.sentence"), sentence))
    if settings:
        facts.append((T("walkthrough.saved.settings"), " \u00b7 ".join(f"{name} = {value}" for name, value in settings)))
    if numbers:
        facts.append((T("walkthrough.saved.numbers"), numbers))
    rows = "".join(f"<dt>{html.escape(name)}</dt><dd>{html.escape(value)}</dd>" for name, value in facts)
    reopen = (f' <a href="{html.escape(link, quote=True)}" rel="noopener">{html.escape(T("walkthrough.saved.reopen"))}</a>'
              if link else "")
    data = base64.b64encode(offline(payload)).decode("ascii")
    return "".join([
        "<!doctype html>\n",
        f'<html lang="{"zh-Hans" if lang == "zh" else "en"}">\n<head>\n<meta charset="utf-8">\n',
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<title>{html.escape(T('walkthrough.saved.title'))}</title>\n",
        f"<style>{_inline(PAGE_CSS, 'the page style')}</style>\n</head>\n<body>\n",
        f'<header class="saved"><h1>{html.escape(T("walkthrough.saved.title"))}</h1>',
        f"<dl>{rows}</dl>" if rows else "",
        f'<p class="offline">{html.escape(T("walkthrough.saved.offline"))}{reopen}</p></header>\n',
        # the helpers of scripts/browser.py find the component here as they find it in the app
        '<main><div id="walk" data-testid="stBidiComponentIsolated"></div>',
        f"<noscript><p>{html.escape(T('walkthrough.saved.noscript'))}</p></noscript></main>\n",
        f'<script type="text/css" id="walk-style">{_inline(STYLE.read_text(), "steps.css")}</script>\n',
        f'<script type="application/octet-stream" id="walk-payload">{data}</script>\n',
        f'<script type="module">\n{_inline(script_text(), "the component")}</script>\n',
        "</body>\n</html>\n",
    ])
