"""Page styling from assets/*.css, and the shareable link to the current view."""

from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st

from attention_plot.text import Texts

ASSETS = Path(__file__).resolve().parents[2] / "assets"  # the app's CSS, scripts and texts


@functools.cache
def _css(name: str) -> str:
    return (ASSETS / f"{name}.css").read_text()


def apply(present: bool) -> None:
    """Inject the app's CSS (and the presenter's when ``present``): style only, so it takes no room on the page."""
    st.html(f"<style>{_css('theme')}{_css('presenter') if present else ''}</style>")


COPY_CSS = """
button.attention-copy { width: 100%; min-height: 38px; padding: 4px 12px; font: inherit; font-size: 15px; color: #31333f;
  background: #fff; cursor: pointer; border: 1px solid rgba(49, 51, 63, .2); border-radius: 8px; }
button.attention-copy:hover { border-color: #c53948; color: #a1283a; }
button.attention-copy:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
.attention-copy-said { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
"""

# The button copies window.location.href when clicked (the view as it is then, also after a part reran alone); plain http
# on a school server has no Clipboard API, so a hidden text box is copied instead. What happened is said on the button
# for 4 s and, for a screen reader, in a live region.
COPY_JS = """
export default function ({parentElement, data}) {
  let button = parentElement.querySelector("button.attention-copy");
  if (!button) {
    button = document.createElement("button"); button.type = "button"; button.className = "attention-copy";
    const said = document.createElement("span"); said.className = "attention-copy-said"; said.setAttribute("role", "status");
    parentElement.append(button, said);
    button.addEventListener("click", () => {
      const link = window.location.href, texts = button.texts;
      const done = (ok) => { button.textContent = said.textContent = ok ? texts.copied : texts.failed;
        clearTimeout(button.back); button.back = setTimeout(() => { button.textContent = button.texts.label; said.textContent = ""; }, 4000); };
      const fallback = () => { const area = document.createElement("textarea"); area.value = link; document.body.appendChild(area); area.select();
        let ok = false; try { ok = document.execCommand("copy"); } catch (error) { ok = false; } area.remove(); return ok; };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).then(() => done(true), () => done(fallback()));
      else done(fallback());
    });
  }
  if (!button.texts || button.texts.label !== data.label) button.textContent = data.label;
  button.texts = data;
}
"""


@functools.cache
def _copy_component():
    # in the page itself (no shadow root, its CSS scoped by class), as the page's script: the tests and the benchmark
    # take every isolated component for a step component
    return st.components.v2.component("attention_copy_link", css=COPY_CSS, js=COPY_JS, isolate_styles=False)


def copy_link(T: Texts) -> None:
    """A button that copies the address of this view, as it is when clicked (the link holds every setting)."""
    st.caption(T("common.sidebar.share"))
    texts = {"label": T("common.sidebar.copy_link"), "copied": T("common.sidebar.copied"), "failed": T("common.sidebar.copy_failed")}
    _copy_component()(data=texts, key="attention-copy-link")
