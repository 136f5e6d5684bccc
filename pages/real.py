"""A real model: all-MiniLM-L6-v2's 72 heads on the sidebar's sentence, computed by this app's NumPy core, and the
model opened up: one layer end to end, weights beside the vectors they move, sinks, what explains a word's importance,
trained beside untrained, and the √d_k argument on real heads."""

import streamlit as st

from attention_core import tokenize
from attention_core.embedding import contains_cjk
from attention_core.pretrained import MAX_WORD_PIECES
from views import real
from views.real import inside
from views.shell import page
from views.shell.registry import REAL_SECTIONS
from views.widgets import model as loaded

view = page.start("real")
settings, T = view.settings, view.T
st.caption(T("real.credit"))
model = loaded.model()
if model is None:
    st.error(T("real.missing"), icon=":material/download:")
    st.stop()
if not tokenize(settings.text):
    st.info(T("common.notices.empty"), icon=":material/edit:")
    st.stop()
trace = loaded.run(model, str(model.folder), settings.text)
if trace.dropped:
    st.warning(T("real.cut", total=len(trace.tokens) + trace.dropped, kept=MAX_WORD_PIECES, dropped=trace.dropped),
               icon=":material/content_cut:")
unknown = trace.tokens.count("[UNK]")
if contains_cjk(settings.text):  # says [UNK] too
    st.info(T("real.chinese"), icon=":material/translate:")
elif unknown:  # emoji and characters outside the model's vocabulary all become one shared token
    st.info(T("real.unknown", count=unknown), icon=":material/help:")
section = st.segmented_control(T("inside.section"), REAL_SECTIONS, format_func=lambda s: T(f"inside.sections.{s}"),
                               key=view.key("section"), required=True)
page.section_heading(T(f"inside.sections.{section}"))
if section in ("heads", "moved", "random"):
    st.toggle(T("real.hide"), key=view.key("hide"), help=T("real.hide_help"))
{"heads": lambda: real.heads_section(view, model, trace),
 "layer": lambda: inside.layer_section(view, model, trace, settings.text),
 "moved": lambda: inside.moved_section(view, model, trace),
 "sinks": lambda: inside.sinks_section(view, trace),
 "importance": lambda: inside.importance_section(view, model, settings.text),
 "random": lambda: inside.random_section(view, model, trace, settings.text),
 "scaling": lambda: inside.scaling_section(view, model, trace)}[section]()
