"""The browser half as the components run it: each entry of assets/components/ joined with what it imports
(attention_plot.javascript) is one valid ES module, every file is part of one, and the joining rules hold (relative,
unrenamed imports, no circle, no two files declaring one name). Node.js parses what the browser will run."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from attention_plot import javascript

ENTRIES = ("steps/component.js", "shell/shell.js", "shell/bell.js")
FILES = sorted(javascript.COMPONENTS.rglob("*.js"))
MOST_LINES = 300  # a file a newcomer reads at once (functions: at most 60, biome.json)


def node_check(text: str, tmp_path: Path) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    if node is None:
        pytest.fail("These tests parse the browser's modules in Node.js: apt-get install -y nodejs (make test does).")
    module = tmp_path / "joined.mjs"
    module.write_text(text)
    return subprocess.run([node, "--check", str(module)], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("entry", ENTRIES)
def test_each_component_is_one_valid_module(entry, tmp_path):
    text = javascript.join(entry)
    done = node_check(text, tmp_path)
    assert done.returncode == 0, done.stderr  # also: no two files declare the same top-level name
    assert "\nimport " not in text and not text.startswith("import ")
    assert text.count("export default") == 1
    names = [path.relative_to(javascript.COMPONENTS).as_posix() for path in javascript.order(javascript.COMPONENTS / entry)]
    assert names[-1] == entry and ("common.js" not in names or names.index("common.js") < names.index(entry))


def test_every_file_belongs_to_a_component_and_none_is_long():
    used = {path for entry in ENTRIES for path in javascript.order(javascript.COMPONENTS / entry)}
    assert set(FILES) == used, sorted(str(p) for p in set(FILES) ^ used)
    long = {path.name: n for path in FILES if (n := len(path.read_text().splitlines())) > MOST_LINES}
    assert not long, long


def test_the_module_keeps_the_code_and_drops_only_comments():
    for path in FILES:
        text = javascript.body(path)
        for name in re.findall(r"^export (?:function|class|const) (\w+)", path.read_text(), re.MULTILINE):
            assert re.search(rf"^export (?:function|class|const) {name}\b", text, re.MULTILINE), (path.name, name)
        comments = [line for line in text.splitlines() if re.fullmatch(r"\s*(//.*|/\*\*.*\*/)\s*", line)]
        assert not comments, (path.name, comments[:3])  # a cast (/** @type */ (x)) is code and stays


def test_an_import_that_breaks_the_joining_is_refused(tmp_path):
    (tmp_path / "a.js").write_text('import { b as c } from "./b.js";\n')
    (tmp_path / "b.js").write_text("export const b = 1;\n")
    with pytest.raises(ValueError, match="renames"):
        javascript.order(tmp_path / "a.js")
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\n')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";\nexport const b = 1;\n')
    with pytest.raises(ValueError, match="circle"):
        javascript.order(tmp_path / "a.js")
    (tmp_path / "b.js").write_text('import lodash from "lodash";\nexport const b = 1;\n')
    with pytest.raises(ValueError, match="relative path"):
        javascript.body(tmp_path / "b.js")
