"""``streamlit run``, told first that pages/ holds this app's st.navigation pages.

Streamlit takes a pages/ folder beside the entry script for a legacy multipage app until the entry
first calls st.navigation; the very first request of a fresh server, if it is a link to a page
(``/scaling-lab?d_k=1024``), would then meet "Page not found". Addresses Streamlit cannot serve are redirected
(scripts/paths.py). Usage: ``python scripts/run.py app.py [options]``.
"""

import sys
from pathlib import Path

from streamlit.runtime.pages_manager import PagesManager
from streamlit.web.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from scripts import paths
from views.registry import PAGES

PagesManager.uses_pages_directory = False
# Two-level and unknown paths: redirected, never blank.
paths.install(frozenset(page.path for page in PAGES), next(page.path for page in PAGES if page.default))



def live_class_address(argv: list[str]) -> str:
    """The line that tells a teacher which address phones can open (localhost reaches only this machine)."""
    from classroom.network import network_address

    port = next((argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--server.port"), "8501")
    address = network_address()
    if address is None:
        return (f"A live class: phones cannot open http://localhost:{port}; connect this machine to the room's network "
                "and open the app at its network address.")
    return f"A live class: phones open http://{address}:{port}/live (http://localhost:{port} works on this machine only)."


if __name__ == "__main__":
    print(live_class_address(sys.argv), flush=True)
    sys.argv = ["streamlit", "run", *sys.argv[1:]]
    sys.exit(main())
