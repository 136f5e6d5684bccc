"""Attention types: score functions, soft / hard / local, masks and temperature, with entropy as a measure."""


from views import types
from views.shell import page

view = page.start("types")
T = view.T
base = types.sentence(view)  # the sidebar's sentence on one head, and the entropy's range for its length
section = view.widget("section", T("types.section"), style="segmented_control", format_func=lambda s: T(f"types.sections.{s}"))
page.section_heading(T(f"types.sections.{section}"))
types.SECTIONS[section](view, base)
