"""Hierarchical (multi-level) attention: words pooled into sentences, sentences into a document; the document shown as
text, each word shaded by its weight, each sentence by its weight."""

from __future__ import annotations

import streamlit as st

from attention_core import HierarchicalTrace, split_sentences
from attention_plot import figures
from attention_plot.figures import ink, label
from views.shell.page import View, stop
from views.shell.registry import MAX_TOKENS
from views.widgets import cache
from views.widgets.charts import chart, dims, show

MAX_SENTENCES = 12

STYLE = (
    "<style>.han{font-size:1.1rem;line-height:2.4}.han-row{display:flex;gap:12px;align-items:baseline;margin:4px 0}"
    ".han-sentence-weight{min-width:5.5em;font-variant-numeric:tabular-nums;padding:0 6px;border-radius:4px}"
    ".han-word{display:inline-block;padding:0 4px;margin:1px;border-radius:4px;text-align:center}"
    ".han-word small{display:block;font-size:.7rem;line-height:1}</style>"
)


LIGHT, DARK = (247, 251, 255), (8, 48, 107)  # the ends of the weights' colour scale (ColorBrewer Blues)


def shade(weight: float) -> str:
    """An opaque light-to-dark blue background for a weight in [0, 1], with black or white text, whichever contrasts
    more with it (at least 4.58:1, in the light and the dark theme alike)."""
    t = max(0.0, min(1.0, weight))
    r, g, b = (round(lo + (hi - lo) * t) for lo, hi in zip(LIGHT, DARK))
    return f"background:rgb({r},{g},{b});color:{ink((r, g, b))}"


def document_html(trace: HierarchicalTrace, sentence_label: str) -> str:
    """Each sentence on a row: its weight in the document, then its words shaded by their weight in the sentence.

    Word shades are relative to the sentence's largest weight so each row reads at a glance;
    the exact weight is printed under every word. All text is escaped.
    """
    rows = []
    for i, (tokens, pool) in enumerate(zip(trace.tokens, trace.words)):
        top = max(float(pool.weights.max()), 1e-12)
        words = "".join(
            f'<span class="han-word" style="{shade(w / top)}" title="{label(t)}: {w:.4f}">{label(t)}<small>{w:.3f}</small></span>'
            for t, w in zip(tokens, pool.weights)
        )
        weight = float(trace.document.weights[i])
        rows.append(
            f'<div class="han-row"><span class="han-sentence-weight" style="{shade(weight)}" '
            f'title="{label(sentence_label)} {i + 1}">{i + 1}: {weight:.3f}</span><span>{words}</span></div>'
        )
    return STYLE + '<div class="han">' + "".join(rows) + "</div>"


def document(view: View) -> HierarchicalTrace:
    """The formula, the document box and its trace (cut to ``MAX_SENTENCES`` sentences of ``MAX_TOKENS`` tokens, said so);
    stops while the box is empty."""
    settings, T = view.settings, view.T
    st.latex(T("hierarchy.formula"))
    text = view.widget("doc", T("hierarchy.document"), style="text_area",
                       help=T("hierarchy.document_help", max_sentences=MAX_SENTENCES, max_tokens=MAX_TOKENS))
    if not split_sentences(text):
        st.info(T("hierarchy.empty"), icon=":material/edit:")
        stop()
    trace = cache.document_for(settings, text, max_sentences=MAX_SENTENCES)
    cut_sentences, cut_tokens = trace.dropped
    if cut_sentences:
        st.warning(T("hierarchy.cut_sentences", total=len(trace.sentences) + cut_sentences, kept=len(trace.sentences)),
                   icon=":material/content_cut:")
    if cut_tokens:
        st.warning(T("hierarchy.cut_tokens", dropped=cut_tokens, max_tokens=MAX_TOKENS), icon=":material/content_cut:")
    return trace


def words_section(view: View, trace: HierarchicalTrace) -> None:
    """Level 1: each sentence's words, shaded by their weight in it."""
    T = view.T
    st.header(T("hierarchy.level1"))
    st.markdown(T("hierarchy.level1_intro"))
    st.html(document_html(trace, T("hierarchy.sentence", number="")))


def sentences_section(view: View, trace: HierarchicalTrace) -> None:
    """Level 2: the sentences' weights in the document, their vectors and the document's vector."""
    T = view.T
    st.header(T("hierarchy.level2"))
    st.markdown(T("hierarchy.level2_intro"))
    names = tuple(T("hierarchy.sentence", number=i + 1) for i in range(len(trace.sentences)))
    show(figures.bars(trace.document.weights, names, title=T("hierarchy.level2"), y_title=T("hierarchy.word_axis")), key="sentences")
    left, right = st.columns([3, 2])
    with left:
        chart(trace.document.hidden, names, dims(trace.document.hidden.shape[1]), kind="signed", title=T("hierarchy.sentence_vectors"),
              key="sentence-vectors", values=True, rows_are="sentence")
    with right:
        chart(trace.document.pooled[None, :], ("v",), dims(trace.document.pooled.shape[0]), kind="signed",
              title=T("hierarchy.document_vector"), key="document-vector", values=True, rows_are="document")
