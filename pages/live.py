"""A live class: the teacher opens questions on the projector, students answer on their phones."""

from views import live
from views.shell import page

live.draw(page.start("live", intro=live.intro_key))
