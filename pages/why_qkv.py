"""Why Q, K and V: a shared matrix makes scores symmetric; V transforms what is handed over."""

from views import why_qkv
from views.shell import page

view = page.start("why_qkv")
separate, shared = why_qkv.sentences(view)  # the sentence with W_Q and W_K apart, and with one matrix shared by both
why_qkv.asymmetry_section(view, separate, shared)  # raw scores beside S - Sᵀ: zero when the matrix is shared
why_qkv.values_section(view, separate)  # what the weights hand over without V and with it
