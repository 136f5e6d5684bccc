"""Hierarchical (multi-level) attention: words pooled into sentences, sentences into a document."""

import streamlit as st

from attention_core import split_sentences
from attention_plot import figures
from views.hierarchy import document_html
from views.shell import page
from views.shell.registry import MAX_TOKENS
from views.widgets import cache
from views.widgets.charts import chart, dims, show

MAX_SENTENCES = 12

view = page.start("hierarchy")
settings, T = view.settings, view.T
st.latex(T("hierarchy.formula"))
text = st.text_area(T("hierarchy.document"), key=view.key("doc"),
                    help=T("hierarchy.document_help", max_sentences=MAX_SENTENCES, max_tokens=MAX_TOKENS))
if not split_sentences(text):
    st.info(T("hierarchy.empty"), icon=":material/edit:")
    st.stop()
trace = cache.document(text, d_model=settings.d_model, seed=settings.seed, positions=settings.pe,
                       max_sentences=MAX_SENTENCES, max_tokens=MAX_TOKENS)
cut_sentences, cut_tokens = trace.dropped
if cut_sentences:
    st.warning(T("hierarchy.cut_sentences", total=len(trace.sentences) + cut_sentences, kept=len(trace.sentences)),
               icon=":material/content_cut:")
if cut_tokens:
    st.warning(T("hierarchy.cut_tokens", dropped=cut_tokens, max_tokens=MAX_TOKENS), icon=":material/content_cut:")

st.header(T("hierarchy.level1"))
st.markdown(T("hierarchy.level1_intro"))
st.html(document_html(trace, T("hierarchy.sentence", number="")))

st.header(T("hierarchy.level2"))
st.markdown(T("hierarchy.level2_intro"))
names = tuple(T("hierarchy.sentence", number=i + 1) for i in range(len(trace.sentences)))
show(figures.bars(trace.document.weights, names, title=T("hierarchy.level2"), y_title=T("hierarchy.word_axis")), key="sentences")
left, right = st.columns([3, 2])
with left:
    chart(trace.document.hidden, names, dims(trace.document.hidden.shape[1]), kind="signed", title=T("hierarchy.sentence_vectors"),
          key="sentence-vectors", T=T, values=True, rows_are="sentence")
with right:
    chart(trace.document.pooled[None, :], ("v",), dims(trace.document.pooled.shape[0]), kind="signed",
          title=T("hierarchy.document_vector"), key="document-vector", T=T, values=True, rows_are="document")
