"""A lesson path: the article in its order, stop by stop, for a 45-minute class (and two more stops for 60 minutes)."""

import streamlit as st

from views.lesson import SHORT, STOPS, clear_button, draw_stop, presenter, remember_guesses, restore_guesses
from views.shell import page
from views.widgets import ask

view = page.start("lesson")
T = view.T
restore_guesses()
longer = [stop for stop in STOPS if stop.longer]
if not view.layout.extras:  # on a projector: one stop at a time, Previous / Next (or ← / →)
    presenter(view)
else:
    st.caption(T("lesson.total", minutes=sum(stop.minutes for stop in SHORT), stops=len(SHORT),
                 more=len(longer), longer=sum(stop.minutes for stop in STOPS)))
    ask.lesson_banner(T)
    clear_button(T)
    st.header(T("lesson.short_title", minutes=sum(stop.minutes for stop in SHORT)))
    for number, stop in enumerate(SHORT, 1):
        draw_stop(view, number, stop)
    st.header(T("lesson.longer_title"))
    st.caption(T("lesson.longer_intro"))
    for number, stop in enumerate(longer, len(SHORT) + 1):
        draw_stop(view, number, stop)
remember_guesses()
