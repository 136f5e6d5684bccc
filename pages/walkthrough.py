"""Walkthrough: a typed sentence through every step of self-attention."""

from views import page
from views.walkthrough import bar, choose_walk, draw_steps, focus_section, step_navigation

view = page.start("walkthrough")
places = bar(view)  # where the choices and the step navigation go in this layout
walk = choose_walk(view, places.choices)  # random weights, the article's example or a real model's head; which head
steps = step_navigation(view, walk, places)  # Previous / Step n of N / Next, or every step
draw_steps(view, walk, steps)  # each step's explanation, formula and matrices, in the view's layout
focus_section(view, walk)  # one word against every key: predict, reveal, edit the numbers
