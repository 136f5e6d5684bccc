"""What the server process sets once, at its start: one BLAS thread, and pages/ read as this app's st.navigation pages.

Importing ``views`` sets nothing (tests/test_shell_layout.py checks it). ``start`` is called by whatever starts the
process: scripts/run.py before the server starts (``make run``, scripts/serve.py's replicas, scripts/browser.py, the
Dockerfile and deploy/kubernetes.yaml all run it), and ``app.main`` on every run for a process started otherwise
(``streamlit run app.py``, AppTest through scripts/apptest.py), where only the first call does anything.
"""

from __future__ import annotations

import functools

from threadpoolctl import threadpool_limits

from views.shell import private


@functools.cache
def start() -> None:
    """Set the process up, once (later calls return at once).

    - One BLAS thread: idle BLAS threads that spin between calls slow a small server down. threadpoolctl finds the BLAS
      libraries on every call (2 % of a loaded server's time when it ran on every run), hence once.
    - pages/ holds this app's st.navigation pages, not a legacy multipage app (``private.pages_are_navigation_only``).
    """
    threadpool_limits(limits=1, user_api="blas")
    private.pages_are_navigation_only()
