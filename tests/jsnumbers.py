"""Run the step component's pure functions (assets/components/numbers.js) in Node.js: a call per request, JSON in and out."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = """
import * as numbers from "./numbers.mjs";
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const decode = (x) => x === "nan" ? NaN : x === "-inf" ? -Infinity : x === "inf" ? Infinity : x;
  const out = JSON.parse(input).map(([name, args]) => {
    const result = numbers[name](...args.map((a) => Array.isArray(a) ? a.map(decode) : decode(a)));
    return JSON.stringify(result, (key, value) => typeof value === "bigint" ? value.toString() : value);
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def run(calls: list[tuple[str, list]]) -> list:
    """``[(function name, arguments), ...]`` -> their results, in one Node.js process (NaN and infinities as "nan", "inf",
    "-inf" in the arguments)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("These tests run the step component's numbers in Node.js: apt-get install -y nodejs (make test does).")
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "numbers.mjs").write_text((ROOT / "assets" / "components" / "numbers.js").read_text())
        Path(folder, "run.mjs").write_text(RUNNER)
        done = subprocess.run([node, "run.mjs"], cwd=folder, input=json.dumps(calls), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(item) for item in json.loads(done.stdout)]


def number(x: float) -> object:
    """A float as the runner reads it (JSON has no NaN or infinities)."""
    return "nan" if x != x else "inf" if x == float("inf") else "-inf" if x == float("-inf") else float(x)
