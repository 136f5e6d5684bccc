"""Walkthrough: a typed sentence through every step of self-attention."""

from views import page
from views.walkthrough import body

view = page.start("walkthrough")
page.part(body)(view)  # choices, steps and focus: a step, a head or a focus pick reruns only this part
