"""The real pretrained model (all-MiniLM-L6-v2 in NumPy) beside the other caches: loaded once per server process, its
forward pass cached per sentence. The real-model page, the walkthrough's real layer, the positions page's learned
positions and the lesson's stop on a real head all read it from here."""

from __future__ import annotations

import streamlit as st

from attention_core.pretrained import MiniLM, ModelMissing, RealTrace, model_folder


@st.cache_resource(show_spinner=False)
def _load(folder: str) -> MiniLM:
    return MiniLM.load(folder)


def model() -> MiniLM | None:
    """The model, loaded once per server process; None when its package is missing."""
    try:
        return _load(str(model_folder()))
    except ModelMissing:
        return None


@st.cache_resource(max_entries=64, show_spinner=False)
def run(_model: MiniLM, folder: str, text: str) -> RealTrace:
    """The forward pass of ``text``, computed once per sentence (``folder`` keys the cache to the model)."""
    return _model.run(text)
