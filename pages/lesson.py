"""A lesson path: the article in its order, stop by stop, for a 45-minute class."""

import streamlit as st

from views import live, page
from views.lesson import STOPS, draw_stop

view = page.start("lesson")
st.caption(view.T("lesson.total", minutes=sum(stop.minutes for stop in STOPS), stops=len(STOPS)))
live.lesson_banner(view.T)
for number, stop in enumerate(STOPS, 1):
    draw_stop(view, number, stop)
