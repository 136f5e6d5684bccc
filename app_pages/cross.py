"""Self vs cross (encoder-decoder) attention, and general vs self attention on a question and a passage."""

import streamlit as st

from attention_core import tokenize
from views import cache, messages, page, page_state
from views.charts import chart
from views.state import MAX_TOKENS
from views.text import Texts

PAGE = "cross"
PAIRS = ("translation", "reading")


def first_texts(T: Texts) -> dict[str, str]:
    """Default source and target: those of the pair the link asks for."""
    pair = PAIRS[page_state.get(PAGE, "pair")]
    return {side: T(f"cross.defaults.{pair}_{side}") for side in ("source", "target")}


settings, T = page.start("cross", PAGE, {"pair": (0, 1, 0)}, first_texts)


def use_pair() -> None:
    pair = PAIRS[st.session_state["cross_pair_widget"]]
    for side in ("source", "target"):
        st.session_state[f"cross_{side}_widget"] = T(f"cross.defaults.{pair}_{side}")


pair = st.segmented_control(T("cross.pair"), range(2), format_func=lambda i: T.get("cross.pairs")[i], required=True,
                            key=page_state.widget_key(PAGE, "pair", int), on_change=use_pair)
source = st.text_input(T("cross.source"), key=page_state.widget_key(PAGE, "source", str))
target = st.text_input(T("cross.target"), key=page_state.widget_key(PAGE, "target", str))
for name, value in (("pair", pair), ("source", source), ("target", target)):
    page_state.put(PAGE, name, value)
page_state.publish(PAGE, ["pair", "source", "target"])
if not tokenize(source) or not tokenize(target):
    st.info(T("cross.empty_source" if not tokenize(source) else "cross.empty_target"), icon=":material/edit:")
    st.stop()
options = settings.explain_options() | {"heads": 1}
cross = cache.explanation(target, context=source, **options)
causal = cache.explanation(target, causal=True, **options)
for total, dropped in zip((len(cross.tokens), len(cross.context_tokens)), cross.dropped):
    messages.show_cut(total + dropped, dropped, T)

st.subheader(T("cross.cross_title"))
st.markdown(T("cross.cross_intro"))
left, right = st.columns(2)
with left:
    chart(cross.trace.heads[0].weights, cross.tokens, cross.context_tokens, kind="weights", title=T("cross.cross"), key="cross",
          T=T, values=True, rows_are="target", cols_are="source")
with right:
    chart(causal.trace.heads[0].weights, causal.tokens, causal.tokens, kind="weights", title=T("cross.causal"), key="causal",
          T=T, values=True, rows_are="query", cols_are="key")
st.caption(T("cross.causal_intro"))

st.subheader(T("cross.general_title"))
st.markdown(T("cross.general_intro"))
passage, question = cache.general(target, source, **(options | {"max_tokens": MAX_TOKENS}))
chart(question.weights, (T("cross.question_row"),), passage.tokens, kind="weights", title=T("cross.question"), key="general",
      T=T, values=True, rows_are="query", cols_are="key")
chart(passage.trace.heads[0].weights, passage.tokens, passage.tokens, kind="weights", title=T("cross.passage_self"),
      key="passage-self", T=T, values=True, rows_are="query", cols_are="key")
