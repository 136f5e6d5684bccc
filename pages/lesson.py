"""A lesson path: the article in its order, stop by stop, for a 45-minute class (and two more stops for 60 minutes)."""

from views import lesson
from views.shell import page

view = page.start("lesson")
lesson.restore_guesses()  # a reload gets the class's guesses back from the browser
if view.layout.extras:
    lesson.screen(view)  # every stop one under another
else:
    lesson.presenter(view)  # on a projector: one stop at a time, Previous / Next (or ← / →)
lesson.remember_guesses()
