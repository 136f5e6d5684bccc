"""Watch it learn: a tiny causal transformer trained in NumPy, its heads forming step by step; the decoder at work;
training it yourself; and the √d_k argument tested by training."""

import streamlit as st

from views.learn import sections as learning
from views.shell import page

view = page.start("learn")
T = view.T
section = view.widget("section", T("learn.section"), style="segmented_control", format_func=lambda s: T(f"learn.sections.{s}"))
page.section_heading(T(f"learn.sections.{section}"))
if section == "scaling":
    learning.scaling_section(view)
else:
    task = view.widget("task", T("learn.task"), style="segmented_control", format_func=lambda t: T(f"learn.tasks.{t}.name"),
                       on_change=learning.on_task_change, args=(view,))
    if view.layout.explains:
        st.markdown(T(f"learn.tasks.{task}.idea"))
    draw = {"watch": learning.watch, "decode": learning.decode, "train": learning.train}[section]
    page.part(draw)(view, task)
