"""Watch it learn: ``sections`` draws the page's sections; ``data`` runs live trainings in ``worker`` processes.

Kept empty: ``python -m views.learn.worker`` imports this package first, and a worker needs none of the page's drawing.
"""
