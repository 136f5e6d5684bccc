"""Walkthrough: a typed sentence through every step of self-attention."""

from views.shell import page
from views.walkthrough import choose_walk, steps_part

view = page.start("walkthrough", own_intro=True)  # the step component draws the introduction
walk = choose_walk(view)  # random weights, the article's example or a real model's layer: the numbers
page.part(steps_part)(view, walk)  # the sentence box and every step of every head, stepped in the browser
