"""Entry point: page config, the shared sidebar, navigation over the pages."""

import streamlit as st

from views import sidebar
from views.text import Texts

st.set_page_config(page_title="Attention, step by step", page_icon=":material/visibility:", layout="wide")
settings = sidebar.render()
T = Texts(settings.lang)
pages = [
    st.Page("app_pages/walkthrough.py", title=T("common.nav.walkthrough"), icon=":material/footprint:", url_path="walkthrough", default=True),
]
st.navigation(pages).run()
