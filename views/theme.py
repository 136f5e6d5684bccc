"""Page styling from assets/*.css, and the shareable link to the current view."""

from __future__ import annotations

import functools
import html
import json
from pathlib import Path

import streamlit as st

from attention_plot.text import Texts

ASSETS = Path(__file__).resolve().parent.parent / "assets"  # the app's CSS, scripts and texts


@functools.cache
def _css(name: str) -> str:
    return (ASSETS / f"{name}.css").read_text()


def apply(present: bool) -> None:
    """Inject the app's CSS (and the presenter's when ``present``): style only, so it takes no room on the page."""
    st.html(f"<style>{_css('theme')}{_css('presenter') if present else ''}</style>")


COPY_LINK = """<!doctype html><style>
body{margin:0;font-family:"Source Sans Pro","Source Sans 3",system-ui,sans-serif}
button{width:100%;min-height:38px;padding:4px 12px;font:inherit;font-size:15px;color:#31333f;background:#fff;cursor:pointer;
       border:1px solid rgba(49,51,63,.2);border-radius:8px}
button:hover{border-color:#ff4b4b;color:#ff4b4b} button:focus-visible{outline:2px solid #ff4b4b}
</style><button type="button" id="copy">__LABEL__</button><script>
const button = document.getElementById("copy"), texts = __TEXTS__;
function copied(ok) { button.textContent = ok ? texts.copied : texts.failed; setTimeout(() => button.textContent = texts.label, 4000); }
button.addEventListener("click", () => {
  const link = window.parent.location.href;  // the view as it is now, also after a part of the page reran alone
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(link).then(() => copied(true), () => copied(fallback(link)));
  } else copied(fallback(link));
});
function fallback(link) {  // plain http on a school server: no Clipboard API
  const area = document.createElement("textarea"); area.value = link; document.body.appendChild(area); area.select();
  let ok = false; try { ok = document.execCommand("copy"); } catch (error) {} area.remove(); return ok;
}
</script>"""


def copy_link(T: Texts) -> None:
    """A button that copies the address of this view, as it is when clicked (the link holds every setting)."""
    st.caption(T("common.sidebar.share"))
    texts = {"label": T("common.sidebar.copy_link"), "copied": T("common.sidebar.copied"), "failed": T("common.sidebar.copy_failed")}
    st.iframe(COPY_LINK.replace("__LABEL__", html.escape(texts["label"])).replace("__TEXTS__", json.dumps(texts)), height=40)
