"""Attention types: score functions, soft / hard / local, masks and temperature, with entropy as a measure."""

import streamlit as st

from views import types
from views.shell import page
from views.shell.registry import TYPE_SECTIONS

view = page.start("types")
T = view.T
base = types.sentence(view)  # the sidebar's sentence on one head, and the entropy's range for its length
section = st.segmented_control(T("types.section"), TYPE_SECTIONS, format_func=lambda s: T(f"types.sections.{s}"),
                               key=view.key("section"), required=True)
page.section_heading(T(f"types.sections.{section}"))
types.SECTIONS[section](view, base)
