"""The core is pure NumPy: no module of attention_core imports streamlit, plotly or pandas."""

import ast
import subprocess
import sys
from pathlib import Path

import attention_core

UI_PACKAGES = ("streamlit", "plotly", "pandas")
CORE = Path(attention_core.__file__).parent
MODULES = sorted(f"attention_core.{path.stem}" for path in CORE.glob("*.py") if path.stem != "__init__")


def test_the_core_has_the_modules_this_test_imports():
    assert {"attention_core.attention", "attention_core.reference", "attention_core.pretrained"} <= set(MODULES)


def test_importing_every_module_loads_no_ui_package():
    code = (
        "import importlib, sys\n"
        f"for name in ['attention_core', *{MODULES!r}]:\n"
        "    importlib.import_module(name)\n"
        f"print(','.join(sorted(p for p in {UI_PACKAGES!r} if p in sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=CORE.parent, check=True, timeout=120)
    assert result.stdout.strip() == ""


def imported_packages(path: Path) -> set[str]:
    """The top-level packages a Python file imports, anywhere in it (functions included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    names |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
    return {name.split(".")[0] for name in names}


def test_no_core_file_imports_a_ui_package():
    offenders = {path.name: sorted(imported_packages(path) & set(UI_PACKAGES)) for path in sorted(CORE.glob("*.py"))}
    assert {name: found for name, found in offenders.items() if found} == {}
