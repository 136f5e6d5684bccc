"""The sidebar of a page: language, the shared settings this page uses, what it fixes itself, presenter mode."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from attention_plot.text import Texts
from views.shell import state
from views.shell.params import Param
from views.shell.registry import EXAMPLES, MAX_TOKENS, SHARED_BY_NAME, Page


def _use_example() -> None:
    picked = st.session_state.get("example_pick")
    if picked:
        st.session_state[state.key("shared", "text")] = picked
    st.session_state["example_pick"] = None


def _slider(param: Param, T: Texts) -> None:
    param.widget(st, T(f"common.sidebar.{param.name}"), state.key("shared", param.name), help=T(f"common.sidebar.{param.name}_help"))


def _choice(param: Param, T: Texts) -> None:
    group = {"score": "scores", "mode": "modes"}[param.name]
    param.widget(st, T(f"common.sidebar.{param.name}"), state.key("shared", param.name), style="selectbox",
                 format_func=lambda option: T(f"common.{group}.{option}"))


def _text(param: Param, T: Texts) -> None:
    param.widget(st, T("common.sidebar.text"), state.key("shared", "text"), help=T("common.sidebar.text_help", max_tokens=MAX_TOKENS))
    st.selectbox(T("common.sidebar.examples"), EXAMPLES, index=None, key="example_pick",
                 placeholder=T("common.sidebar.examples_placeholder"), on_change=_use_example)


def _toggle(param: Param, T: Texts) -> None:
    param.widget(st, T(f"common.sidebar.{param.name}"), state.key("shared", param.name), help=T(f"common.sidebar.{param.name}_help"))


def _seed(param: Param, T: Texts) -> None:
    param.widget(st, T("common.sidebar.seed"), state.key("shared", "seed"), style="number_input", help=T("common.sidebar.seed_help"))


CONTROLS: dict[str, Callable[[Param, Texts], None]] = {
    "text": _text, "d_model": _slider, "d_k": _slider, "heads": _slider, "score": _choice, "mode": _choice,
    "window": _slider, "pe": _toggle, "seed": _seed,
}


def render(page: Page) -> Texts:
    """Draw the sidebar for ``page``: only the shared settings it uses; the quantities it fixes, with why."""
    values = state.page_values(page)
    T = Texts(values["lang"])
    with st.sidebar:
        SHARED_BY_NAME["lang"].widget(st, T("common.sidebar.language"), state.key("shared", "lang"), style="radio", horizontal=True,
                                      format_func=lambda code: T(f"common.languages.{code}"))
        for name in page.shared_names(values):
            if name not in page.drawn(values):
                CONTROLS[name](SHARED_BY_NAME[name], T)
        fixed = page.fixed_quantities(values)
        if fixed:
            st.markdown(f"**{T('common.sidebar.fixed')}**")
            st.caption("  \n".join(T(f"{page.id}.fixed.{f.name}", value=f.value) for f in fixed))
        if not page.shared_names(values):
            st.caption(T("common.sidebar.nothing_shared"))
        SHARED_BY_NAME["present"].widget(st, T("common.sidebar.present"), state.key("shared", "present"),
                                         help=T("common.sidebar.present_help"))
    return T
