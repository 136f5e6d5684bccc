"""``streamlit run``, told first that pages/ holds this app's st.navigation pages.

Streamlit takes a pages/ folder beside the entry script for a legacy multipage app until the entry
first calls st.navigation; the very first request of a fresh server, if it is a link to a page
(``/scaling-lab?d_k=1024``), would then meet "Page not found". Addresses Streamlit cannot serve are redirected
(scripts/paths.py); cookies are set by the server, out of reach of the page's scripts (views/shell/cookies.py).
Usage: ``python scripts/run.py app.py [options]``.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from classroom import bell
from scripts import paths
from views.shell import cookies, private, process
from views.shell.registry import PAGES

if __name__ == "__main__":
    from classroom.network import live_class_line

    process.start()  # one BLAS thread; pages/ is st.navigation's before the server's first request
    # Two-level and unknown paths: redirected, never blank.
    paths.install(frozenset(page.path for page in PAGES), next(page.path for page in PAGES if page.default))
    # Cookies set by the server (HttpOnly), for tickets the page's script hands back: views/shell/cookies.py.
    private.add_server_middleware(cookies.KeepCookies)
    # A live class's phones wait on the server for the teacher's next move: classroom/bell.py.
    private.add_server_middleware(bell.LiveBell)
    print(live_class_line(sys.argv), flush=True)
    sys.exit(private.run_streamlit(["run", *sys.argv[1:]]))
