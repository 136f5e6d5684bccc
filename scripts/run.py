"""``streamlit run``, told first that pages/ holds this app's st.navigation pages.

Streamlit takes a pages/ folder beside the entry script for a legacy multipage app until the entry
first calls st.navigation; the very first request of a fresh server, if it is a link to a page
(``/scaling-lab?d_k=1024``), would then meet "Page not found". Usage: ``python scripts/run.py app.py [options]``.
"""

import sys

from streamlit.runtime.pages_manager import PagesManager
from streamlit.web.cli import main

PagesManager.uses_pages_directory = False

if __name__ == "__main__":
    sys.argv = ["streamlit", "run", *sys.argv[1:]]
    sys.exit(main())
