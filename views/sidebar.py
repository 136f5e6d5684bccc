"""The shared sidebar: every setting as a widget, kept in st.session_state and in the URL."""

from __future__ import annotations

from dataclasses import asdict, fields

import streamlit as st

from attention_core import MODES, SCORES
from views.state import CHOICES, EXAMPLES, INT_RANGES, Notice, Settings, parse_params, to_params
from views.text import Texts

PREFIX = "setting_"
STARTED = "settings_started"
NOTICES = "settings_notices"


def _key(name: str) -> str:
    return PREFIX + name


def start_session() -> None:
    """On a session's first run, load the settings from the URL into the widgets' state."""
    if STARTED in st.session_state:
        return
    settings, notices = parse_params(st.query_params.to_dict())
    for name, value in asdict(settings).items():
        st.session_state[_key(name)] = value
    st.session_state[NOTICES] = (settings, notices)
    st.session_state[STARTED] = True


def current() -> Settings:
    """The settings as the widgets hold them now."""
    return Settings(**{field.name: st.session_state[_key(field.name)] for field in fields(Settings)})


def url_notices() -> list[Notice]:
    """The URL values that were changed on arrival, while the settings are still those of the link."""
    initial, notices = st.session_state.get(NOTICES, (None, []))
    return notices if initial == current() else []


def _use_example() -> None:
    picked = st.session_state.get("example_pick")
    if picked:
        st.session_state[_key("text")] = picked
    st.session_state["example_pick"] = None


def render() -> Settings:
    """Draw the sidebar, write every setting to the URL, and return the settings."""
    start_session()
    for field in fields(Settings):  # keep hidden widgets' values across reruns and pages
        st.session_state[_key(field.name)] = st.session_state[_key(field.name)]
    lang = st.session_state[_key("lang")]
    T = Texts(lang)
    with st.sidebar:
        st.radio(T("common.sidebar.language"), CHOICES["lang"], key=_key("lang"), horizontal=True,
                 format_func=lambda code: T(f"common.languages.{code}"))
        T = Texts(st.session_state[_key("lang")])
        st.text_input(T("common.sidebar.sentence"), key=_key("text"), help=T("common.sidebar.sentence_help"))
        st.selectbox(T("common.sidebar.examples"), EXAMPLES, index=None, key="example_pick",
                     placeholder=T("common.sidebar.examples_placeholder"), on_change=_use_example)
        st.slider(T("common.sidebar.d_model"), *INT_RANGES["d_model"], key=_key("d_model"), help=T("common.sidebar.d_model_help"))
        st.slider(T("common.sidebar.d_k"), *INT_RANGES["d_k"], key=_key("d_k"), help=T("common.sidebar.d_k_help"))
        st.slider(T("common.sidebar.heads"), *INT_RANGES["heads"], key=_key("heads"), help=T("common.sidebar.heads_help"))
        st.selectbox(T("common.sidebar.score"), SCORES, key=_key("score"), format_func=lambda s: T(f"common.scores.{s}"))
        st.selectbox(T("common.sidebar.mode"), MODES, key=_key("mode"), format_func=lambda m: T(f"common.modes.{m}"))
        if st.session_state[_key("mode")] in ("local", "local-monotonic"):
            st.slider(T("common.sidebar.window"), *INT_RANGES["window"], key=_key("window"), help=T("common.sidebar.window_help"))
        st.toggle(T("common.sidebar.pe"), key=_key("pe"), help=T("common.sidebar.pe_help"))
        st.number_input(T("common.sidebar.seed"), *INT_RANGES["seed"], step=1, key=_key("seed"), help=T("common.sidebar.seed_help"))
        st.toggle(T("common.sidebar.present"), key=_key("present"), help=T("common.sidebar.present_help"))
    settings = current()
    st.query_params.update(to_params(settings))
    return settings
