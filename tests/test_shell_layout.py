"""The house's plan, derived from the page registry: a page's code is found by its page's name, pages are thin, the
shell and the widgets import no page, no page imports another's, and no import circle anywhere (README, "Layout"); a
page's tests are found by its page's name too, and every test file is named by what it tests.

Imports are read from the source (``ast``), at module level and inside functions alike: a circle that only a
function-level import closes is still a circle.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from views.shell.registry import PAGES

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("views", "attention_core", "attention_plot", "classroom", "scripts")  # with app.py and pages/: the project
PAGE_IDS = {page.id for page in PAGES}
MAX_PAGE_LINES = 30  # a page file opens its view and calls its views in a few lines (the longest today: 17)
HEAVY = ("numpy", "pandas", "plotly")  # a page's numbers are computed in views/<id> and attention_core, never in pages/
# The one import from the widgets into a page's views, on purpose and inside functions only: asking the room loads the
# live class's modules only while the session teaches a class (views/widgets/ask.py).
LATE_ON_PURPOSE = {("views.widgets.ask", "views.live.teacher")}
# Every test file is named by what it tests (README, "Layout"): a module or part of the core (attention_core, and the
# classroom's pure modules), one page by its registry id (AppTest), the frame or what crosses pages, or a real browser.
TEST_SCHEMES = ("test_core_", "test_page_", "test_shell_", "test_browser_")
LONG_FUNCTION = 40  # lines: a function of views/ longer than this says what it draws in a docstring
# Not yet: views/live is being reworked by its own owners, who add this one's docstring (then drop the entry).
UNDOCUMENTED_FOR_NOW: set[tuple[str, str]] = set()


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project by its dotted name (pages/<id>.py as ``pages.<id>``, app.py as ``app``)."""
    files = [root / "app.py", *(root / "pages").glob("*.py")]
    files += [path for package in PACKAGES for path in (root / package).rglob("*.py") if "migrations" not in path.parts]
    return {module_name(path, root): path for path in files}


def imports(name: str, modules: dict[str, Path]) -> dict[str, bool]:
    """The project modules the module ``name`` imports, each with True when some import of it sits at module level."""
    path = modules[name]
    tree = ast.parse(path.read_text(), filename=str(path))
    at_top = {id(node) for node in tree.body} | {id(child) for node in tree.body if isinstance(node, ast.If | ast.Try)
                                                 for child in ast.walk(node)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: dict[str, bool] = {}
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], *([base] if base else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for target in targets:
            while target and target not in modules:  # ``import views.widgets.charts`` imports that module
                target = target.rpartition(".")[0]
            if target:
                found[target] = found.get(target, False) or id(node) in at_top
    return found


def import_graph(root: Path = ROOT) -> dict[str, dict[str, bool]]:
    modules = project_modules(root)
    return {name: {target: top for target, top in imports(name, modules).items() if target != name} for name in modules}


def cycles(graph: dict[str, dict[str, bool]]) -> list[tuple[list[str], list[str]]]:
    """Every group of modules that import each other in a circle (a strongly connected group), each as one circle that
    goes through it (``a → b → a``) and the group's members."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[tuple[list[str], list[str]]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, {})):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append((circle_in(graph, set(group)), sorted(group)))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def circle_in(graph: dict[str, dict[str, bool]], group: set[str]) -> list[str]:
    """One circle through the group's first member, by breadth-first search: its modules in import order, closed."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node]):
            if target == start:
                return [*paths[node], start]
            if target in group and target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    return sorted(group)


def owner(module: str) -> str | None:
    """The page whose views ``module`` is (``views.real.inside`` → ``real``), or None (shell, widgets, not views)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "views" and len(parts) > 1 and parts[1] in PAGE_IDS else None


def test_the_registry_names_every_pages_views():
    """A page's code is found by its page's name: views/<id>.py, or views/<id>/__init__.py where the page is large."""
    for page in PAGES:
        single, package = ROOT / "views" / f"{page.id}.py", ROOT / "views" / page.id / "__init__.py"
        assert single.exists() != package.exists(), f"{page.id}: its views are views/{page.id}.py or views/{page.id}/, exactly one"
        assert (ROOT / page.file).exists(), page.file
    others = {path.stem for path in (ROOT / "views").iterdir() if path.name != "__init__.py" and not path.name.startswith((".", "_"))}
    assert others - PAGE_IDS == {"shell", "widgets"}, f"in views/ besides the pages' views, the shell and the widgets: {others - PAGE_IDS}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.id)
def test_a_page_file_is_thin(page):
    """pages/<id>.py opens its view and calls its own views: no NumPy, pandas or Plotly, no other page's or widget's code,
    at most ``MAX_PAGE_LINES`` lines."""
    path = ROOT / page.file
    lines = path.read_text().splitlines()
    assert len(lines) <= MAX_PAGE_LINES, f"{page.file}: {len(lines)} lines; its work belongs in views/{page.id}"
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [f"{node.module}.{alias.name}" if node.module == "views" else node.module or "" for alias in node.names]
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in HEAVY, f"{page.file} imports {name}: move the work into views/{page.id}"
            allowed = name in ("streamlit", "__future__") or name.startswith(("views.shell.", f"views.{page.id}")) or name == "views.shell"
            assert allowed, f"{page.file} imports {name}: a page file calls the shell and its own views/{page.id} only"


def test_no_import_circle():
    """No circle among the project's modules (views, pages, app, attention_core, attention_plot, classroom, scripts)."""
    found = cycles(import_graph())
    assert not found, "import circles: " + "; ".join(f"{' → '.join(circle)} (in a circle together: {', '.join(group)})"
                                                     for circle, group in found)


def test_the_cycle_finder_finds_a_circle():
    """The check above can fail: a circle only a function-level import closes is named."""
    graph = {"views.a": {"views.b": True}, "views.b": {"views.c": True}, "views.c": {"views.a": False}, "views.d": {}}
    assert cycles(graph) == [(["views.a", "views.b", "views.c", "views.a"], ["views.a", "views.b", "views.c"])]


def test_a_pages_views_import_no_other_pages():
    """views/<id> imports the shell, the widgets and its own modules; never another page's views."""
    crossing = [f"{name} → {target}" for name, targets in import_graph().items() if owner(name)
                for target in targets if owner(target) not in (None, owner(name))]
    assert not crossing, crossing


def test_the_shell_and_the_widgets_import_no_page():
    """The shell imports no page's views and no widget; the widgets import no page's views (but the one late import on
    purpose: ``LATE_ON_PURPOSE``, inside functions only)."""
    graph = import_graph()
    wrong = []
    for name, targets in graph.items():
        for target, at_top in targets.items():
            if name.startswith("views.shell") and (owner(target) or target.startswith("views.widgets")):
                wrong.append(f"{name} → {target}")
            elif name.startswith("views.widgets") and owner(target) and ((name, target) not in LATE_ON_PURPOSE or at_top):
                wrong.append(f"{name} → {target}{' (at module level)' if at_top else ''}")
    assert not wrong, wrong
    for name, target in LATE_ON_PURPOSE:  # still there, still late: else the exception is stale
        assert graph[name].get(target) is False, f"{name} no longer imports {target} inside a function: update LATE_ON_PURPOSE"


def test_without_a_class_open_no_page_imports_the_live_class():
    """The walkthrough (and every page but the live class's own) imports nothing of views.live: asking the room loads it
    only while a session teaches a class."""
    ids = sorted(PAGE_IDS - {"live"}, key=lambda page_id: page_id != "walkthrough")  # the walkthrough first
    code = ("import json, sys\nfound = {}\n"
            f"for page_id in {ids!r}:\n"
            "    __import__(f'views.{page_id}')\n"
            "    found[page_id] = sorted(m for m in sys.modules if m == 'views.live' or m.startswith('views.live.'))\n"
            "print(json.dumps(found))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["walkthrough"] == [], found["walkthrough"]
    assert not any(found.values()), {page_id: live for page_id, live in found.items() if live}


def test_a_session_that_never_teaches_never_imports_the_live_class():
    """The app itself does not import views.live (a teacher link is taken by ``views.widgets.ask``), neither on
    ``import app`` nor on a run of the walkthrough by a session that does not teach: in a fresh interpreter."""
    code = ("import json, sys\n"
            "live = lambda: sorted(m for m in sys.modules if m == 'views.live' or m.startswith('views.live.'))\n"
            "import app\n"
            "from scripts.apptest import app_test\n"
            "imported = live()\n"
            "at = app_test('walkthrough', text='the cat sat on the mat').run()\n"
            "assert not at.exception, at.exception\n"
            "print(json.dumps({'import app': imported, 'walkthrough run': live()}))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found == {"import app": [], "walkthrough run": []}, found


def test_importing_views_sets_nothing():
    """Importing ``views`` and every module under it leaves the process as it was: BLAS keeps its threads, Streamlit's
    pages/ flag and server middleware stay Streamlit's own. What the process sets once is ``views.shell.process.start``
    (called by scripts/run.py and app.main), and it does set them: in a fresh interpreter."""
    code = ("import json, pkgutil, numpy\n"
            "from threadpoolctl import threadpool_info, threadpool_limits\n"
            "from streamlit.runtime.pages_manager import PagesManager\n"
            "from streamlit.web.server.starlette import starlette_app\n"
            "threadpool_limits(limits=2, user_api='blas')\n"
            "state = lambda: {'blas': {i['filepath']: i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas'},\n"
            "                 'pages': PagesManager.uses_pages_directory,\n"
            "                 'middleware': starlette_app.create_streamlit_middleware.__module__}\n"
            "before = state()\n"
            "import views\n"
            "names = [m.name for m in pkgutil.walk_packages(views.__path__, 'views.')]\n"
            "for name in names:\n"
            "    __import__(name)\n"
            "after = state()\n"
            "from views.shell import process\n"
            "process.start()\n"
            "print(json.dumps({'before': before, 'after': after, 'started': state(), 'modules': len(names)}))")
    env = {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, env=env)
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["modules"] > 40, found  # every module was imported
    before, after, started = found["before"], found["after"], found["started"]
    assert set(before["blas"].values()) == {2} and before["pages"] is None, found  # the check can see a change
    # A BLAS library first loaded by an import (SciPy's, say) starts with its own default threads: those loaded before keep theirs.
    after["blas"] = {path: threads for path, threads in after["blas"].items() if path in before["blas"]}
    assert after == before, f"importing views changed the process: {before} -> {after}"
    assert set(started["blas"].values()) == {1} and started["pages"] is False, found


def test_every_long_function_of_the_views_has_a_docstring():
    """A section function of more than ``LONG_FUNCTION`` lines says what it draws (shapes and formulas where they help)."""
    found = set()
    for path in sorted((ROOT / "views").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and ast.get_docstring(node) is None and \
                    node.end_lineno - node.lineno + 1 > LONG_FUNCTION:
                found.add((str(path.relative_to(ROOT)), node.name))
    assert found - UNDOCUMENTED_FOR_NOW == set(), f"over {LONG_FUNCTION} lines without a docstring: {sorted(found - UNDOCUMENTED_FOR_NOW)}"
    assert found >= UNDOCUMENTED_FOR_NOW, f"documented now: drop {sorted(UNDOCUMENTED_FOR_NOW - found)} from UNDOCUMENTED_FOR_NOW"


def marks_browser(path: Path) -> bool:
    """Whether the file marks tests ``pytest.mark.browser`` (its ``pytestmark`` or a decorator), read from the source."""
    return any(isinstance(node, ast.Attribute) and node.attr == "browser" and isinstance(node.value, ast.Attribute)
               and node.value.attr == "mark" for node in ast.walk(ast.parse(path.read_text())))


def test_every_page_has_its_test_file():
    """A page's tests are found by its page's name, as its code is: tests/test_page_<id>.py for every page of the registry."""
    missing = [f"tests/test_page_{page.id}.py" for page in PAGES if not (ROOT / "tests" / f"test_page_{page.id}.py").exists()]
    assert not missing, f"no AppTest file for these pages: {missing}"


def test_every_test_file_is_named_by_what_it_tests():
    """tests/test_core_<module>.py, test_page_<id>.py (<id> a page of the registry), test_shell_<topic>.py and
    test_browser_<topic>.py, where a file is test_browser_ exactly when its tests drive chromium (marked ``browser``).
    Helpers (conftest.py, jsnumbers.py) are not named test_; tests/fuzz/ is the fuzzer's own folder."""
    wrong = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        name, marked = path.name, marks_browser(path)
        if not name.startswith(TEST_SCHEMES):
            wrong.append(f"{name}: not one of {', '.join(f'{scheme}<…>.py' for scheme in TEST_SCHEMES)}")
        elif name.startswith("test_page_") and path.stem.removeprefix("test_page_") not in PAGE_IDS:
            wrong.append(f"{name}: no page {path.stem.removeprefix('test_page_')!r} in the registry")
        elif name.startswith("test_browser_") != marked:
            wrong.append(f"{name}: {'marked browser, so test_browser_<topic>.py' if marked else 'test_browser_ but not marked browser'}")
    assert not wrong, wrong
