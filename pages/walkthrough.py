"""Walkthrough: a typed sentence through every step of self-attention."""

from views import page
from views.walkthrough import focus_section, quiz_state, steps_part, walk_choice

view = page.start("walkthrough")
walk = page.part(steps_part, walk_choice)(view)  # choices, Previous / Next and the steps: a step reruns only this part
page.part(focus_section, quiz_state)(view, walk)  # one word against every key: predict, reveal, edit the numbers
