"""Entry point: page config, the shared sidebar, navigation over the pages."""

import streamlit as st
from threadpoolctl import threadpool_limits

from views import charts, sidebar, theme
from views.text import Texts

# One BLAS thread per script run: on a small server, idle BLAS threads that spin between calls slow
# everything else down, and concurrent students already keep the cores busy.
threadpool_limits(limits=1, user_api="blas")
starts_presenting = st.query_params.get("present") == "1" and "settings_started" not in st.session_state
lang = st.session_state.get(sidebar.PREFIX + "lang", st.query_params.get("lang", "en"))
st.set_page_config(page_title=Texts(lang)("common.app_title"), page_icon=":material/visibility:", layout="wide",
                   initial_sidebar_state="collapsed" if starts_presenting else "auto")
settings = sidebar.render()
T = Texts(settings.lang)
theme.apply(settings.present)
pages = [
    st.Page("app_pages/walkthrough.py", title=T("common.nav.walkthrough"), icon=":material/footprint:", url_path="walkthrough", default=True),
    st.Page("app_pages/why_qkv.py", title=T("common.nav.why_qkv"), icon=":material/key:", url_path="why-qkv"),
    st.Page("app_pages/types.py", title=T("common.nav.types"), icon=":material/tune:", url_path="types"),
    st.Page("app_pages/cosine.py", title=T("common.nav.cosine"), icon=":material/architecture:", url_path="cosine"),
    st.Page("app_pages/scaling.py", title=T("common.nav.scaling"), icon=":material/science:", url_path="scaling-lab"),
    st.Page("app_pages/multihead.py", title=T("common.nav.multihead"), icon=":material/view_column:", url_path="multi-head"),
    st.Page("app_pages/cross.py", title=T("common.nav.cross"), icon=":material/translate:", url_path="self-vs-cross"),
    st.Page("app_pages/hierarchy.py", title=T("common.nav.hierarchy"), icon=":material/account_tree:", url_path="hierarchical"),
    st.Page("app_pages/rnn.py", title=T("common.nav.rnn"), icon=":material/timeline:", url_path="rnn-vs-attention"),
    st.Page("app_pages/real.py", title=T("common.nav.real"), icon=":material/psychology:", url_path="real-model"),
]
charts.start_run()
try:
    st.navigation(pages).run()
finally:  # also after a page stops early (empty sentence, missing model)
    with st.sidebar:
        charts.download_matrices(T)
        theme.copy_link(T)
