"""The one script that touches Streamlit's private DOM is the page script, ``assets/components/shell.js`` (the style sheets
``assets/theme.css`` and ``presenter.css`` only restyle it): every ``data-testid`` (and BaseWeb part) they name must still
be drawn by the pinned Streamlit's frontend. Fails on an upgrade that renames one, before a student meets a page script
or a style that silently does nothing."""

from __future__ import annotations

import re
from pathlib import Path

import streamlit

SHELL = Path(__file__).resolve().parent.parent / "assets" / "components" / "shell.js"
STATIC = Path(streamlit.__file__).parent / "static"


STYLES = [SHELL.parent.parent / "theme.css", SHELL.parent.parent / "presenter.css"]


def named(kind: str) -> set[str]:
    return {name for path in (SHELL, *STYLES) for name in re.findall(rf"data-{kind}=[\"']?([A-Za-z]+)", path.read_text())}


def test_every_private_name_the_page_script_uses_is_still_in_streamlits_frontend():
    bundle = "".join(path.read_text(errors="ignore") for path in STATIC.rglob("*.js"))
    testids, baseweb = named("testid"), named("baseweb")
    assert "stSidebarNavItems" in testids and "stMain" in testids  # the reading of shell.js still works
    missing = sorted(t for t in testids if f"`{t}`" not in bundle and f'"{t}"' not in bundle and f"'{t}'" not in bundle)
    assert not missing, f"Streamlit no longer draws these: {missing}"
    assert all(name in bundle for name in baseweb), baseweb
    # Two of Streamlit's attributes the page script reads: a collapsed sidebar (made inert) and an element of the run
    # before (not the new page's title to focus).
    shell = SHELL.read_text()
    for attribute in ("data-collapsed", "data-stale"):
        assert attribute in shell and f'"{attribute}"' in bundle, attribute
    # Plotly's parts (bundled by Streamlit) the page script reads: a chart's toolbar and its buttons (one Tab stop, the
    # full screen's button), its SVG and WebGL layers (hidden from a screen reader).
    for part in ("modebar", "modebar-btn", "main-svg", "gl-container", "js-plotly-plot"):
        assert part in shell and part in bundle, part


def test_no_other_file_reaches_into_streamlits_dom():
    """Pages and the step component use public APIs only: a data-testid anywhere else is a second private place."""
    root = SHELL.parent.parent.parent
    others = [path for folder in ("views", "pages", "assets/components") for path in (root / folder).rglob("*")
              if path.is_file() and path.suffix in (".py", ".js") and path != SHELL and "data-testid" in path.read_text()]
    assert not [str(p.relative_to(root)) for p in others]
