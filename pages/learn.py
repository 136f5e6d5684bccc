"""Watch it learn: a tiny causal transformer trained in NumPy, its heads forming step by step; the decoder at work;
training it yourself; and the √d_k argument tested by training."""

import streamlit as st

from views.learn import sections as learning
from views.shell import page
from views.shell.registry import LEARN_SECTIONS, LEARN_TASKS

view = page.start("learn")
T = view.T
section = st.segmented_control(T("learn.section"), LEARN_SECTIONS, format_func=lambda s: T(f"learn.sections.{s}"),
                               key=view.key("section"), required=True)
page.section_heading(T(f"learn.sections.{section}"))
if section == "scaling":
    learning.scaling_section(view)
else:
    task = st.segmented_control(T("learn.task"), LEARN_TASKS, format_func=lambda t: T(f"learn.tasks.{t}.name"),
                                key=view.key("task"), required=True, on_change=learning.on_task_change, args=(view,))
    if view.layout.explains:
        st.markdown(T(f"learn.tasks.{task}.idea"))
    draw = {"watch": learning.watch, "decode": learning.decode, "train": learning.train}[section]
    page.part(draw)(view, task)
