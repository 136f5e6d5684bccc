"""Positions and scale: where words are (none, sinusoidal, learned, RoPE, ALiBi), shared keys and values with the
cache's memory, and fast attention computed exactly block by block, with the cost as n grows."""


from views import positions
from views.shell import page

view = page.start("positions")
T = view.T
section = view.widget("section", T("positions.section"), style="segmented_control", format_func=lambda s: T(f"positions.sections.{s}"))
page.section_heading(T(f"positions.sections.{section}"))
{"positions": positions.positions_section, "sharing": positions.sharing_section, "fast": positions.fast_section}[section](view)
