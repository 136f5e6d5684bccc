"""A real model: all-MiniLM-L6-v2's 72 heads on the sidebar's sentence, computed by this app's NumPy core, and the
model opened up: one layer end to end, weights beside the vectors they move, sinks, what explains a word's importance,
trained beside untrained, the √d_k argument on real heads, and each head over a corpus."""


from views import real
from views.shell import page

view = page.start("real")
T = view.T
model, trace = real.model_and_run(view)  # the page stops when the model is missing or the sentence empty
section = view.widget("section", T("inside.section"), style="segmented_control", format_func=lambda s: T(f"inside.sections.{s}"))
page.section_heading(T(f"inside.sections.{section}"))
real.section(view, section, model, trace)
