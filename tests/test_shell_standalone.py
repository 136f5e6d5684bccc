"""A walk saved as one HTML file (issue 47, attention_plot/standalone.py): what the walkthrough's download gives holds
the component's every module as the app runs it (no copy), its styles and the payload, asks nothing of any server, and
keeps within 1 MB at 40 tokens x 4 heads. tests/test_browser_standalone.py opens it offline in chromium."""

from __future__ import annotations

import base64
import re
import shutil
import subprocess

import pytest
from conftest import open_app

from attention_plot import javascript, standalone
from views.widgets.steps import read

WORDS_40 = " ".join(f"w{i}" for i in range(40))
# What would make a browser ask a server: an element that loads (src, a stylesheet's href, srcset, poster, data), a
# form, CSS's url() or @import, and the script's own ways (fetch, XHR, a WebSocket, EventSource, a dynamic import, a
# beacon, a worker; a JSDoc type's {import("...")} is a comment).
LOADS = re.compile(r"""\b(?:src|srcset|poster|data|action|formaction)\s*=\s*["']?\s*(?:https?:)?//|<link\b|<base\b|<iframe\b"""
                   r"""|url\(\s*["']?\s*(?:https?:)?//|@import|\bfetch\(|XMLHttpRequest|new\s+WebSocket|EventSource"""
                   r"""|(?<![{<])\bimport\(|sendBeacon|new\s+(?:Shared)?Worker""", re.IGNORECASE)
ANCHOR = re.compile(r"""<a\b[^>]*\bhref\s*=\s*["']([^"']*)["']""", re.IGNORECASE)


APP = "http://school.example:8501/walkthrough"


@pytest.fixture
def address(monkeypatch):
    """The browser's address as the server hears it (``st.context.url``; AppTest has no browser)."""
    import streamlit as st

    monkeypatch.setattr(type(st.context), "url", property(lambda self: APP))


def saved_file(downloads, **params) -> tuple[str, bytes]:
    """The file the walkthrough's "Save this walk as one HTML file" gives, and the payload the app sent its steps."""
    at = open_app(**params)
    button = next(b for b in at.get("download_button") if "download-html" in b.proto.id)
    elements = [e for e in at.get("bidi_component") if getattr(e, "key", None) == "walk-steps"]
    return downloads(button), elements[0].proto.bytes


def payload_of(text: str) -> bytes:
    found = re.search(r'<script type="application/octet-stream" id="walk-payload">([^<]*)</script>', text)
    assert found, "no payload in the file"
    return base64.b64decode(found.group(1))


def test_the_saved_file_holds_every_module_asks_no_server_and_fits_1_mb(downloads, address):
    text, sent = saved_file(downloads, text=WORDS_40, heads="4", d_k="4")
    assert len(text.encode()) <= 1_000_000, len(text.encode())
    assert not LOADS.findall(text), LOADS.findall(text)[:5]
    anchors = ANCHOR.findall(text)  # the one link out is the app's, to reopen the walk live (a click, not a load)
    assert len(anchors) == 1 and anchors[0].startswith(f"{APP}?") and "text=w0+w1" in anchors[0], anchors
    assert "default-src 'none'" in text  # the policy forbids any load the checks above might miss
    for path in javascript.order(javascript.COMPONENTS / standalone.ENTRY):  # the app's files, as the app joins them
        code = javascript.body(path).replace("export default function", "const mountSteps = function")  # the entry's
        assert code in text, f"{path.name} is not in the file as the app runs it"
    assert (javascript.COMPONENTS / "steps.css").read_text() in text
    header, values = read(payload_of(text))
    app_header, app_values = read(sent)
    assert values.tobytes() == app_values.tobytes()  # every number, bit for bit
    assert header["saved"] and header["sentence"] is None and header["walks"] is None and not header["ask"]
    assert header["steps"] == app_header["steps"] and header["matrices"] == app_header["matrices"]
    assert len(header["tokens"]) == 40 and header["heads"] == 4


def test_the_file_s_script_is_one_valid_module(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed: apt-get install -y nodejs")
    module = tmp_path / "saved.mjs"
    module.write_text(standalone.script_text())
    done = subprocess.run([node, "--check", str(module)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_chinese_presenter_mode_and_a_hostile_sentence(downloads):
    """Presenter mode offers the file too, in Chinese; a sentence of markup and bidi controls is text in it, and the
    file's own three script elements are still the only ones."""
    hostile = "a </script><script>alert(1)</script> <img src=x onerror=alert(1)> \u202eevil b"
    text, _ = saved_file(downloads, text=hostile, lang="zh", present="1")
    assert '<html lang="zh-Hans">' in text and "保存的演示" in text
    assert len(re.findall(r"<script\b", text)) == 3 and "<img" not in text
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in text
    header, _ = read(payload_of(text))
    assert header["layout"] == "projector" and header["saved"]
