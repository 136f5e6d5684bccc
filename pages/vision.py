"""Attention on images, where the article says it was born: a digit as a sentence of patches, the walkthrough's steps
on it, where a tiny vision transformer trained in NumPy looks, glimpses of k patches, and a digit drawn by hand."""


from views import vision
from views.shell import page

view = page.start("vision")
T = view.T
section = view.widget("section", T("vision.section"), style="segmented_control", format_func=lambda s: T(f"vision.sections.{s}"))
page.section_heading(T(f"vision.sections.{section}"))
{"sentence": vision.sentence_section, "steps": vision.steps_section, "looks": vision.looks_section,
 "glimpse": vision.glimpse_section, "draw": vision.draw_section}[section](view)
