"""Self vs cross (encoder-decoder) attention, and general vs self attention on a question and a passage."""

from views import cross
from views.shell import page

view = page.start("cross")
source, target = cross.texts(view)  # the pair and its two texts (the page stops while one is empty)
cross.cross_section(view, source, target)  # the target attending to the source, beside causal self-attention
cross.general_section(view, source, target)  # one question vector over the passage, beside the passage's self-attention
