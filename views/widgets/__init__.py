"""What several pages draw or share: heatmaps and charts, the caches, the sentence's input, the step component, named
tables, hands-on numbers and predict-then-reveal, asking the room, the loaded models and snapshots.

A widget imports the shell and other widgets, never a page's views (``views/<page id>``).
"""
