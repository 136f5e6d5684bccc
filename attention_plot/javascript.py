"""The browser's code as one module: an entry file of ``assets/components/`` and every file it imports, joined in the
order of their imports (no bundler, nothing to build).

Each file is a plain ES module (linted by Biome, type-checked by tsc, its pure parts tested in Node): it imports what it
uses from its neighbours by relative path (``import { element } from "../common.js";``). A component is given one
module's text (``st.components.v2.component(js=...)``), so ``join`` writes each file once, after the files it imports,
without those import lines; their exports stay (a module may export many names). The rules that make this safe are
checked here and in tests/test_shell_javascript.py: imports are relative and unrenamed, no two files declare the same
top-level name, no file imports in a circle, only the entry exports a default.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

COMPONENTS = Path(__file__).resolve().parents[1] / "assets" / "components"

# An import of a neighbour, on one line or several: import { a, b } from "./x.js";
IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"(\.{1,2}/[^"]+)";[ \t]*\n', re.MULTILINE)
ANY_IMPORT = re.compile(r"^import\b", re.MULTILINE)
# Comments on lines of their own (a JSDoc block, a // line): for the reader and tsc, not the browser (half the bytes).
COMMENTS = re.compile(r"^[ \t]*(?:/\*\*(?:[^*]|\*(?!/))*\*/|//[^\n]*)[ \t]*\n", re.MULTILINE)


def imports(path: Path) -> list[tuple[Path, tuple[str, ...]]]:
    """The neighbours ``path`` imports, in order, with the names it takes from each."""
    found = []
    for names, target in IMPORT.findall(path.read_text()):
        taken = tuple(name.strip() for name in names.split(",") if name.strip())
        if any(" as " in name for name in taken):
            raise ValueError(f"{path.name}: an import renames a name ({names.strip()}); joined files share one scope")
        found.append(((path.parent / target).resolve(), taken))
    return found


def order(entry: Path) -> list[Path]:
    """``entry`` and every file it imports, each after the files it imports (depth first, in import order)."""
    done: list[Path] = []
    visiting: list[Path] = []

    def visit(path: Path) -> None:
        if path in done:
            return
        if path in visiting:
            circle = " -> ".join(p.name for p in [*visiting[visiting.index(path):], path])
            raise ValueError(f"the browser's modules import in a circle: {circle}")
        visiting.append(path)
        for target, _ in imports(path):
            visit(target)
        visiting.pop()
        done.append(path)

    visit(entry.resolve())
    return done


def body(path: Path) -> str:
    """A file's text without its imports of neighbours (any other import is an error: nothing loads at run time) and
    without its comments on lines of their own."""
    text = IMPORT.sub("", path.read_text())
    if ANY_IMPORT.search(text):
        raise ValueError(f"{path.name}: an import that is not of a neighbour by relative path")
    return COMMENTS.sub("", text)


@functools.cache
def join(entry: str) -> str:
    """The module a component runs: ``entry`` (relative to assets/components, e.g. "steps/steps.js") and what it imports."""
    files = order(COMPONENTS / entry)
    return "\n".join(f"// --- {path.relative_to(COMPONENTS)} ---\n{body(path)}" for path in files)
