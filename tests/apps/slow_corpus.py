"""The app on a slow server, for tests/test_browser_corpus.py: each run of the real model page's corpus section holds
for ``HOLD`` seconds once its scatter is drawn (a loaded school server takes seconds over the rest of the section), so
a tap on the scatter drawn again for a chosen head lands while the page is still running.

Served as ``scripts.browser.serve("tests/apps/slow_corpus.py")``; everything else is the app itself (``app.main``).
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

import app  # the project's root is importable from here on
from views.real import corpus

HOLD = 3.0

if not getattr(corpus.chosen_head, "held", False):  # the module is shared by every run: held once
    chosen = corpus.chosen_head

    def held(*args, **kwargs):
        time.sleep(HOLD)
        return chosen(*args, **kwargs)

    held.held = True
    corpus.chosen_head = held

app.main()
