"""Streamlit's private parts, fenced and pinned: fails on an upgrade that moves one, before a student meets a page
that silently does nothing.

The browser: the one script that touches Streamlit's private DOM is the page script, ``assets/components/shell/`` (the
style sheets ``assets/theme.css``, ``presenter.css`` and ``shell/shell.css`` only restyle it): every ``data-testid`` (and BaseWeb part) they
name must still be drawn by the pinned Streamlit's frontend.

The server: the one module that imports a private Streamlit module or touches ``st._...`` is ``views/shell/private.py``
(the protocol drivers scripts/load.py and scripts/load_live.py aside); each of its names has a canary here."""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import importlib.util
import inspect
import re
from pathlib import Path

import pytest
import streamlit

SHELL = Path(__file__).resolve().parent.parent / "assets" / "components" / "shell"
SCRIPTS = sorted(SHELL.glob("*.js"))
STATIC = Path(streamlit.__file__).parent / "static"


STYLES = [SHELL.parent.parent / "theme.css", SHELL.parent.parent / "presenter.css", SHELL / "shell.css"]


def named(kind: str) -> set[str]:
    return {name for path in (*SCRIPTS, *STYLES) for name in re.findall(rf"data-{kind}=[\"']?([A-Za-z]+)", path.read_text())}


def test_every_private_name_the_page_script_uses_is_still_in_streamlits_frontend():
    bundle = "".join(path.read_text(errors="ignore") for path in STATIC.rglob("*.js"))
    testids, baseweb = named("testid"), named("baseweb")
    assert "stSidebarNavItems" in testids and "stMain" in testids  # the reading of shell.js still works
    missing = sorted(t for t in testids if f"`{t}`" not in bundle and f'"{t}"' not in bundle and f"'{t}'" not in bundle)
    assert not missing, f"Streamlit no longer draws these: {missing}"
    assert all(name in bundle for name in baseweb), baseweb
    # Three of Streamlit's attributes the page script reads: a collapsed sidebar (made inert), an element of the run
    # before (not the new page's title to focus), and the connection's state (lost, then back: connection.js resumes).
    shell = "".join(path.read_text() for path in SCRIPTS)
    for attribute in ("data-collapsed", "data-stale", "data-test-connection-state"):
        assert attribute in shell and f'"{attribute}"' in bundle, attribute
    assert "e.CONNECTED=`CONNECTED`" in bundle and '"CONNECTED"' in shell
    # What the browser tests wait on between runs (scripts/browser.py IDLE_JS): the run's state on the app's root.
    assert '"data-test-script-state"' in bundle and "notRunning" in bundle
    # Plotly's parts (bundled by Streamlit) the page script reads: a chart's toolbar and its buttons (one Tab stop, the
    # full screen's button), its SVG and WebGL layers (hidden from a screen reader).
    for part in ("modebar", "modebar-btn", "main-svg", "gl-container", "js-plotly-plot"):
        assert part in shell and part in bundle, part


def test_no_other_file_reaches_into_streamlits_dom():
    """Pages and the step component use public APIs only: a data-testid anywhere else is a second private place."""
    root = SHELL.parent.parent.parent
    others = [path for folder in ("views", "pages", "assets/components") for path in (root / folder).rglob("*")
              if path.is_file() and path.suffix in (".py", ".js") and path.parent != SHELL and "data-testid" in path.read_text()]
    assert not [str(p.relative_to(root)) for p in others]


# --- Python: every private Streamlit name the app uses lives in views/shell/private.py, each with a canary ---

ROOT = SHELL.parent.parent.parent
PRIVATE = ROOT / "views" / "shell" / "private.py"
# Streamlit's public modules, usable anywhere; everything else under ``streamlit.`` is private.
PUBLIC = {"streamlit", "streamlit.components.v2", "streamlit.testing.v1", "streamlit.column_config"}
# The test drivers that speak Streamlit's websocket protocol themselves (its protobuf messages): allowed as they are.
PROTOCOL_DRIVERS = {ROOT / "scripts" / "load.py", ROOT / "scripts" / "load_live.py"}
PROJECT = ("app.py", "pages", "views", "scripts", "attention_core", "attention_plot", "classroom")


def is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, AttributeError, ValueError):  # a name inside a module, not a module
        return False


def relies_on() -> dict[str, tuple[tuple[str, str], ...]]:
    """``private.RELIES_ON``, read from the file (not imported: a name gone after an upgrade must fail here, by name)."""
    tree = ast.parse(PRIVATE.read_text())
    found = next(node.value for node in tree.body if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "RELIES_ON")
    return ast.literal_eval(found)


@pytest.mark.parametrize(("function", "module", "attribute"),
                         [(function, module, attribute) for function, names in relies_on().items() for module, attribute in names])
def test_every_private_name_the_fence_uses_is_still_in_streamlit(function, module, attribute):
    """The canary of each entry of views/shell/private.py: fails on an upgrade that moves or renames a name it uses."""
    where = f"{module}.{attribute}, which views/shell/private.py {function} relies on"
    try:
        found = importlib.import_module(module)
    except ImportError as error:
        pytest.fail(f"Streamlit {streamlit.__version__} has no module {module} any more ({error}): {where}. Find its new place "
                    "(or a public API) and update private.py.")
    for part in attribute.split("."):
        if not hasattr(found, part):
            pytest.fail(f"Streamlit {streamlit.__version__} no longer has {where}. Find its new name (or a public API) and update "
                        "private.py.")
        found = getattr(found, part)


def test_every_private_import_of_the_fence_is_listed_with_its_canary():
    """A private module private.py imports is named in RELIES_ON (so the canary above checks it)."""
    listed = {module for names in relies_on().values() for module, _ in names}
    imported = {f"{node.module}.{alias.name}" if is_module(f"{node.module}.{alias.name}") else node.module
                for node in ast.walk(ast.parse(PRIVATE.read_text())) if isinstance(node, ast.ImportFrom)
                and node.module and node.module.startswith("streamlit.") for alias in node.names}
    assert imported <= listed, f"private.py imports {sorted(imported - listed)} without a canary in RELIES_ON"


def test_the_stop_exception_is_what_st_stop_raises(tmp_path):
    """app.py catches ``private.StopException`` to tell a page that stopped early from one a newer click interrupted."""
    from streamlit.testing.v1 import AppTest

    def script(said: str):
        from pathlib import Path

        import streamlit as st

        from views.shell.private import StopException

        try:
            st.stop()
        except StopException:
            Path(said).write_text("caught")  # (the session's state written after st.stop() is not kept)
            raise
        except BaseException as error:
            Path(said).write_text(repr(error))
            raise

    said = tmp_path / "said.txt"
    AppTest.from_function(script, args=(str(said),)).run()
    assert said.exists() and said.read_text() == "caught", (
        f"st.stop() in Streamlit {streamlit.__version__} no longer raises private.StopException: "
        f"{said.read_text() if said.exists() else 'nothing'}")


def test_pages_are_navigation_only_turns_streamlits_pages_folder_off():
    """Streamlit decides once whether pages/ is a legacy multipage folder, only while its flag is None: False keeps it off."""
    from streamlit.runtime import pages_manager

    from views.shell import private

    private.pages_are_navigation_only()
    assert pages_manager.PagesManager.uses_pages_directory is False
    source = inspect.getsource(pages_manager)
    assert "if PagesManager.uses_pages_directory is None:" in source, (
        f"Streamlit {streamlit.__version__} decides about the pages/ folder differently: check private.pages_are_navigation_only")


def test_the_hand_built_chart_is_streamlits_plotly_chart_element():
    """``private.send_plotly_chart`` draws the element st.plotly_chart draws: its spec, config, theme, text and a key'd id."""
    from streamlit.delta_generator import DeltaGenerator
    from streamlit.elements.lib import utils
    from streamlit.elements.lib.layout_utils import LayoutConfig
    from streamlit.testing.v1 import AppTest

    names = inspect.signature(utils.compute_and_register_element_id).parameters
    assert {"element_type", "user_key", "dg", "key_as_main_identity"} <= set(names), (
        f"compute_and_register_element_id changed in Streamlit {streamlit.__version__}: {list(names)}")
    assert "layout_config" in inspect.signature(DeltaGenerator._enqueue).parameters
    assert {"width", "height"} <= set(inspect.signature(LayoutConfig).parameters)

    def script():
        import streamlit as st

        from views.shell import private

        with st.container():
            private.send_plotly_chart('{"data": [], "layout": {"height": 123}}', '{"locale": "zh-CN"}', "canary", "a chart", 123)

    at = AppTest.from_function(script).run()
    assert not at.exception, [e.message for e in at.exception]
    [chart] = at.get("plotly_chart")
    proto = chart.proto
    assert (proto.spec, proto.config, proto.theme, proto.alt) == ('{"data": [], "layout": {"height": 123}}', '{"locale": "zh-CN"}',
                                                                   "streamlit", "a chart")
    assert proto.id.endswith("-canary"), proto.id


def test_the_server_middleware_goes_in_front_of_streamlits_own(monkeypatch):
    """``private.add_server_middleware`` wraps the function Streamlit's Starlette server builds its middleware with."""
    from streamlit.web.server.starlette import starlette_app

    from views.shell import private

    monkeypatch.setattr(starlette_app, "create_streamlit_middleware", starlette_app.create_streamlit_middleware)  # restored after

    class Canary:
        def __init__(self, app) -> None:
            self.app = app

    own = [m.cls for m in starlette_app.create_streamlit_middleware()]
    private.add_server_middleware(Canary)
    assert [m.cls for m in starlette_app.create_streamlit_middleware()] == [Canary, *own]
    assert "middleware = create_streamlit_middleware()" in inspect.getsource(starlette_app), (
        f"Streamlit {streamlit.__version__}'s server no longer builds its middleware through create_streamlit_middleware")


def test_run_streamlit_is_what_the_streamlit_command_runs():
    entry = [e for e in importlib.metadata.entry_points(group="console_scripts") if e.name == "streamlit"]
    assert [e.value for e in entry] == ["streamlit.web.cli:main"], entry


def imports_of_streamlit(path: Path) -> list[str]:
    """What ``path`` takes from Streamlit's private parts: private modules imported, ``st._...`` or ``streamlit._...``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("streamlit.") and a.name not in PUBLIC]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.split(".")[0] == "streamlit":
            if node.module not in PUBLIC:
                found.append(node.module)
            elif node.module == "streamlit":
                found += [f"streamlit.{a.name}" for a in node.names
                          if a.name.startswith("_") or (is_module(f"streamlit.{a.name}") and f"streamlit.{a.name}" not in PUBLIC)]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("st", "streamlit") \
                and node.attr.startswith("_"):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_no_module_outside_the_fence_touches_streamlits_private_parts():
    """Only views/shell/private.py (and the two protocol drivers) import a private Streamlit module or touch ``st._...``;
    the tests that pin them are the canaries above (tests/ is not scanned)."""
    files = [ROOT / "app.py"] + [p for folder in PROJECT[1:] for p in (ROOT / folder).rglob("*.py")]
    outside = {str(p.relative_to(ROOT)): found for p in files if p != PRIVATE and p not in PROTOCOL_DRIVERS
               for found in [imports_of_streamlit(p)] if found}
    assert not outside, f"private Streamlit parts outside views/shell/private.py: {outside}"
    assert imports_of_streamlit(PRIVATE), "the scan finds nothing in private.py itself: the check is broken"
    drivers = {p.name: imports_of_streamlit(p) for p in PROTOCOL_DRIVERS}
    assert all(all(m.startswith("streamlit.proto.") for m in found) for found in drivers.values()), drivers


def test_streamlits_lost_connection_is_still_the_dialog_the_page_script_rewords():
    """After a restart Streamlit 1.67 says "Connection error … Are you connected to the internet?" in a dialog of its own
    for the 8–11 s it takes to reconnect (a classroom reads "the Wi-Fi is down"). No public setting changes it: not
    config.toml, the theme, ``st.set_page_config``, nor the host config Streamlit serves (``blockErrorDialogs`` is fixed
    False in /_stcore/host-config), so the page script rewords the dialog in the page's language (the texts:
    browser.connection.* in assets/text/*/browser.toml). An upgrade that changes the dialog fails here first."""
    from attention_plot.text import Texts

    bundle = "".join(path.read_text(errors="ignore") for path in STATIC.rglob("*.js"))
    assert "`Connection error`" in bundle and "Are you connected to the internet?" in bundle
    assert "`stDialog`" in bundle
    routes = (Path(streamlit.__file__).parent / "web" / "server" / "starlette" / "starlette_routes.py").read_text()
    assert '"blockErrorDialogs": False' in routes
    for lang in ("en", "zh"):
        said = Texts(lang)("browser.connection.message")
        assert "internet" not in said.lower() and Texts(lang)("browser.connection.title")
