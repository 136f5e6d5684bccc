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
    st.slider(T(f"common.sidebar.{param.name}"), param.lo, param.hi, key=state.key("shared", param.name),
              help=T(f"common.sidebar.{param.name}_help"))


def _choice(param: Param, T: Texts) -> None:
    group = {"score": "scores", "mode": "modes"}[param.name]
    st.selectbox(T(f"common.sidebar.{param.name}"), param.options, key=state.key("shared", param.name),
                 format_func=lambda option: T(f"common.{group}.{option}"))


def _text(param: Param, T: Texts) -> None:
    st.text_input(T("common.sidebar.text"), key=state.key("shared", "text"), help=T("common.sidebar.text_help", max_tokens=MAX_TOKENS))
    st.selectbox(T("common.sidebar.examples"), EXAMPLES, index=None, key="example_pick",
                 placeholder=T("common.sidebar.examples_placeholder"), on_change=_use_example)


def _toggle(param: Param, T: Texts) -> None:
    st.toggle(T(f"common.sidebar.{param.name}"), key=state.key("shared", param.name), help=T(f"common.sidebar.{param.name}_help"))


def _seed(param: Param, T: Texts) -> None:
    st.number_input(T("common.sidebar.seed"), param.lo, param.hi, step=1, key=state.key("shared", "seed"),
                    help=T("common.sidebar.seed_help"))


CONTROLS: dict[str, Callable[[Param, Texts], None]] = {
    "text": _text, "d_model": _slider, "d_k": _slider, "heads": _slider, "score": _choice, "mode": _choice,
    "window": _slider, "pe": _toggle, "seed": _seed,
}


def render(page: Page) -> Texts:
    """Draw the sidebar for ``page``: only the shared settings it uses; the quantities it fixes, with why."""
    values = state.page_values(page)
    T = Texts(values["lang"])
    with st.sidebar:
        st.radio(T("common.sidebar.language"), SHARED_BY_NAME["lang"].options, key=state.key("shared", "lang"), horizontal=True,
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
        st.toggle(T("common.sidebar.present"), key=state.key("shared", "present"), help=T("common.sidebar.present_help"))
    return T
