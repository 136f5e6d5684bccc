"""The core in a notebook: docs/notebook.ipynb runs and prints the article's numbers; attention_plot draws the app's own
figures; the wheel of `make dist` holds the core, the plots and their texts, and works on its own."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import numpy as np
import pytest
from conftest import open_app
from nbclient import NotebookClient

from attention_core import explain, textbook_example
from attention_plot import plot
from attention_plot.text import Texts

ROOT = Path(__file__).resolve().parent.parent


def outputs(cell) -> str:
    """What a code cell printed and returned, as text (a figure as its JSON)."""
    parts = []
    for output in cell.outputs:
        if output.output_type == "stream":
            parts.append(output.text)
        elif output.output_type in ("execute_result", "display_data"):
            parts.append(json.dumps(output.data.get("application/vnd.plotly.v1+json")) if "application/vnd.plotly.v1+json" in output.data
                         else output.data.get("text/plain", ""))
    return "\n".join(parts)


def test_the_notebook_walks_thinking_machines_to_the_articles_weights():
    notebook = nbformat.read(ROOT / "docs" / "notebook.ipynb", as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    cells = [outputs(cell) for cell in notebook.cells if cell.cell_type == "code"]
    assert not [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs if o.output_type == "error"]
    printed = "\n".join(cells)
    assert "raw scores of 'Thinking': [112.  96.]" in printed
    assert "divided by sqrt(64) = 8:   [14. 12.]" in printed
    assert "softmax:                   [0.88 0.12]" in printed
    assert "0.8808 0.1192" in printed  # by hand: 1 / (1 + e^-2)
    weights = next(json.loads(cell) for cell in cells if '"attention weights"' in cell and '"Thinking"' in cell and '"0.88"' in cell)
    assert weights["data"][0]["text"][0] == ["0.88", "0.12"]  # the numbers printed in the figure's cells


def test_a_plot_is_the_walkthroughs_own_matrix():
    """plot.step draws what the walkthrough sends for the same sentence and settings: numbers, labels, title, scale."""
    from conftest import matrix, payload

    header, values = payload(open_app(text="Thinking Machines", step=3, d_model=8, d_k=4, heads=1, seed=0, pe=1))
    drawn = plot.step(explain("Thinking Machines", d_model=8, d_k=4, seed=0), "raw").to_plotly_json()
    sent = header["matrices"]["raw.1"]
    assert drawn["layout"]["title"]["text"] == "raw scores" and drawn["data"][0]["type"] == "heatmap"
    np.testing.assert_array_equal(explain("Thinking Machines", d_model=8, d_k=4, seed=0).trace.heads[0].raw_scores, matrix(header, values, "raw.1"))
    assert [list(stop) for stop in drawn["data"][0]["colorscale"]] == header["scales"][sent["kind"]]
    assert list(drawn["layout"]["xaxis"]["ticktext"]) == sent["columns"] == ["Thinking", "Machines"]
    assert drawn["layout"]["title"]["text"] == sent["title"]


def test_every_step_and_both_languages():
    e = explain("the cat sat", heads=2)
    titles = {name: plot.step(e, name).layout.title.text for name in plot.STEPS}
    assert titles["softmax"] == "attention weights" and titles["qkv"] == "Q: queries"
    assert plot.step(e, "heads", matrix_name="w_o").to_plotly_json()["data"][0]["text"].shape == (8, 8)
    assert plot.weights(textbook_example(), lang="zh").layout.title.text == "注意力权重"
    with pytest.raises(ValueError, match="needs an Explanation"):
        plot.step(textbook_example(), "tokens")
    with pytest.raises(ValueError, match="unknown step"):
        plot.step(e, "logits")
    with pytest.raises(ValueError, match="head 3 does not exist"):
        plot.step(e, "raw", head=3)


def test_the_wheel_holds_the_core_and_the_plots_and_works_alone(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, cwd=tmp_path, capture_output=True)
    wheel = next(tmp_path.glob("attention_explainer-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "attention_plot/text/zh/walkthrough.toml" in names and "attention_core/attention.py" in names
    assert not [n for n in names if n.startswith(("views/", "pages/", "app.py"))]
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    assert "Provides-Extra: plot" in metadata and "Requires-Dist: plotly==7.1.0; extra == \"plot\"" in metadata
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)], check=True,
                   capture_output=True)
    script = ("import sys; sys.path.remove(''); from attention_plot import plot; from attention_core import textbook_example; "
              "import attention_plot; print(attention_plot.__file__); print(plot.weights(textbook_example(), lang='zh').layout.title.text)")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"})
    where, title = run.stdout.split()
    assert where.startswith(str(target)) and title == "注意力权重"


def test_a_heatmap_described_in_a_notebook_is_english_unless_given_texts_and_needs_no_streamlit():
    """The app's charts take their language from the run (views.shell.page.run_texts); attention_plot knows no run: a
    notebook passes ``T`` or gets English, and never imports streamlit. In a fresh interpreter."""
    code = ("import json, sys\nimport numpy as np\nfrom attention_plot import plot\nfrom attention_plot.text import Texts\n"
            "english = plot.heatmap(np.eye(2), ('a', 'b'), ('a', 'b'), kind='weights', rows_are='query', cols_are='key')\n"
            "chinese = plot.heatmap(np.eye(2), ('a', 'b'), ('a', 'b'), T=Texts('zh'), kind='weights', rows_are='query', cols_are='key')\n"
            "print(json.dumps([english.x_title, chinese.x_title, 'streamlit' in sys.modules]))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    english, chinese, streamlit = json.loads(result.stdout.strip().splitlines()[-1])
    assert not streamlit
    assert english == Texts("en")(plot.AXIS_TITLES["key"]) and chinese == Texts("zh")(plot.AXIS_TITLES["key"]) != english
