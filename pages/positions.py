"""Positions and scale: where words are (none, sinusoidal, learned, RoPE, ALiBi), shared keys and values with the
cache's memory, fast attention computed exactly block by block, with the cost as n grows, and attention at today's
scale: latent attention, sparse top-k attention and the memory traffic of FlashAttention."""


from views import positions
from views.positions import latent, sparse, traffic
from views.shell import page

view = page.start("positions")
T = view.T
section = view.widget("section", T("positions.section"), style="segmented_control", format_func=lambda s: T(f"positions.sections.{s}"))
page.section_heading(T(f"positions.sections.{section}"))
{"positions": positions.positions_section, "sharing": positions.sharing_section, "fast": positions.fast_section,
 "latent": latent.latent_section, "sparse": sparse.sparse_section, "traffic": traffic.traffic_section}[section](view)
