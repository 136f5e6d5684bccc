"""Multi-head attention: every head's weights, the concatenation, W_O, the cost, and how the heads differ."""

from views import multihead
from views.shell import page

view = page.start("multihead")
heads = multihead.heads_controls(view)  # how many heads, and whether they split d_model between them
for section in multihead.sections(view):  # the cost, every head with the concatenation and W_O, how the heads differ
    section(view, heads)
