"""A real model: all-MiniLM-L6-v2's 72 heads on the sidebar's sentence, computed by this app's NumPy core."""

import numpy as np
import streamlit as st

from attention_core import tokenize
from attention_core.embedding import contains_cjk
from attention_core.pretrained import MAX_WORD_PIECES, overview
from attention_plot import plot
from views import page, real
from views.charts import chart, show
from views.classroom import predict_then_reveal
from views.walkthrough import hide_row

view = page.start("real")
settings, T = view.settings, view.T
st.caption(T("real.credit"))
model = real.model()
if model is None:
    st.error(T("real.missing"), icon=":material/download:")
    st.stop()
if not tokenize(settings.text):
    st.info(T("common.notices.empty"), icon=":material/edit:")
    st.stop()
trace = real.run(model, str(model.folder), settings.text)
if trace.dropped:
    st.warning(T("real.cut", total=len(trace.tokens) + trace.dropped, kept=MAX_WORD_PIECES, dropped=trace.dropped),
               icon=":material/content_cut:")
if contains_cjk(settings.text):
    st.info(T("real.chinese"), icon=":material/translate:")

pickers = st.columns([3, 3, 2])  # six layer buttons need the room
layer = pickers[0].segmented_control(T("real.layer"), range(1, 7), key=view.key("layer"), required=True)
head = pickers[1].select_slider(T("real.head"), range(1, 13), key=view.key("head"))
hide = pickers[2].toggle(T("real.hide"), key=view.key("hide"), help=T("real.hide_help"))
kept = real.keep(trace, hide)
tokens = tuple(trace.tokens[i] for i in kept)
weights = trace.attentions[layer - 1, head - 1][np.ix_(kept, kept)]
pick, guess = st.columns([3, 2], vertical_alignment="bottom")
view.clamp("query", 1, len(tokens))
query = pick.selectbox(T("walkthrough.focus.pick"), range(1, len(tokens) + 1), key=view.key("query"),
                       format_func=lambda i: f"{i} · {tokens[i - 1]}") - 1
predict = guess.toggle(T("classroom.predict"), key=view.key("predict"), help=T("classroom.predict_help"))
quiz = f"real-{hash((trace.tokens, layer, head, hide, query))}"
revealed = not predict or predict_then_reveal(weights[query], tokens, T, quiz)
shown = weights if revealed else hide_row(weights, query)
left, right = st.columns([3, 2])
with left:
    chart(shown, tokens, tokens, kind="weights", title=T("real.heatmap", layer=layer, head=head), key="real-head", T=T,
          values=True, rows_are="query", cols_are="key")
with right:
    show(real.head_view(np.nan_to_num(shown), tokens, title=T("real.head_view"), left=T("real.queries"), right=T("real.keys")),
         key="head-view", alt=T("common.labels.alt_joined", first=T("real.head_view"), then=f"{T('real.head_view_note')} "
                                f"{plot.key_numbers(T, shown, tokens, tokens, 'weights')}"))
    st.caption(T("real.head_view_note"))

grid = overview(trace, hide=hide)
show(real.overview_figure(grid, layer - 1, head - 1, title=T("real.overview")), key="overview",
     alt=T("common.labels.alt_joined", first=T("real.overview"), then=T("real.overview_note")))
st.caption(T("real.overview_note"))

st.subheader(T("real.summary_title"))
st.markdown(T("real.summary_intro"))
st.markdown(real.findings(trace, T))
st.dataframe(real.summary_frame(trace, T), hide_index=True, height=320,
             column_config={T(f"real.columns_{n}"): st.column_config.ProgressColumn(format="%.2f", min_value=0.0, max_value=1.0)
                            for n in real.SUMMARY})
