"""Chart text on a projector and a phone, in the figures the browser receives: large enough, readable tooltips, numbers
in cells that the browser sizes to the cells (assets/theme.css), and the note shown when they are too small."""

import numpy as np
import pytest
from conftest import figures, open_app

from attention_plot import figures as builders

PROJECTOR_FONT = 17


def explicit_sizes(value, path=""):
    """Every (path, size) of a font with an explicit numeric size in a figure's JSON."""
    if isinstance(value, dict):
        if path.endswith("font") and isinstance(value.get("size"), (int, float)):
            yield path, value["size"]
        for key, item in value.items():
            yield from explicit_sizes(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            yield from explicit_sizes(item, path)


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize(("page", "params"), [
    ("multihead", {"text": "the cat sat on the mat", "heads": 2}),
    ("real", {"text": "the cat sat on the mat"}),
    ("cosine", {"text": "the cat sat on the mat"}),
    ("scaling", {}),
])
def test_every_chart_text_is_large_on_a_projector(page, params):
    at = open_app(page, present=1, **params)
    specs = figures(at)
    assert specs
    for spec in specs:
        layout, heatmap = spec["layout"], spec["data"][0].get("type") == "heatmap" and "texttemplate" in spec["data"][0]
        for path, size in explicit_sizes({"layout": layout, "data": spec["data"]}):
            if heatmap and path == ".layout.font":  # Plotly's cap for numbers in cells, shown at 17 px by theme.css
                assert size == builders.CELL_CAP[PROJECTOR_FONT]
                continue
            assert size >= 16, (layout.get("title", {}).get("text"), path, size)
        if not any(key.startswith("xaxis") for key in layout) or heatmap:
            continue
        for name in [key for key in layout if key.startswith(("xaxis", "yaxis"))]:  # over Streamlit's own 14 px ticks
            assert layout[name]["tickfont"]["size"] >= 16, (layout.get("title", {}).get("text"), name)


def test_the_step_components_chart_text_is_large_on_a_projector():
    """The walkthrough's matrices are drawn by the browser at the layout's chart font (tests/test_browser_app.py measures)."""
    from conftest import payload

    assert payload(open_app(text="the cat sat on the mat", present=1))[0]["font"] == PROJECTOR_FONT
    assert payload(open_app(text="the cat sat on the mat"))[0]["font"] == 13


@pytest.mark.parametrize("present", [0, 1])
def test_tooltips_are_dark_on_white_and_large(present):
    at = open_app("multihead", text="the cat sat on the mat", heads=2, present=present)
    for spec in figures(at):
        label = spec["layout"]["hoverlabel"]
        assert contrast(label["font"]["color"], label["bgcolor"]) >= 4.5
        assert label["font"]["size"] >= (16 if present else 14)


def test_cell_numbers_are_sized_by_the_browser_and_a_note_waits_under_the_cells():
    """Numbers in cells: Plotly's auto size (at most the chart font, through theme.css), never a fixed size that runs
    numbers together on a phone; a note under the cells for when they are too small to read."""
    at = open_app("multihead", text="the cat sat on the mat", heads=2)
    for spec in [spec for spec in figures(at) if spec["data"][0].get("type") == "heatmap"]:
        trace, layout = spec["data"][0], spec["layout"]
        assert trace["textfont"]["size"] == "auto"
        assert layout["font"]["size"] == builders.CELL_CAP[13]
        (note,) = layout["annotations"]  # the first annotation: theme.css shows it only when the numbers are hidden
        assert note["text"] == "too narrow for numbers: hover or tap a cell" and note["yanchor"] == "top" and note["y"] == 0
    at = open_app("multihead", text="the cat sat on the mat", heads=2, lang="zh")
    assert next(s for s in figures(at) if s["data"][0].get("type") == "heatmap")["layout"]["annotations"][0]["text"].startswith("格子太窄")
    at = open_app("multihead", text="the cat sat on the mat", heads=2, present=1)  # a projector keeps its height for the matrix
    assert all(not spec["layout"].get("annotations") for spec in figures(at) if spec["data"][0].get("type") == "heatmap")


def test_sized_raises_small_text_and_keeps_larger():
    figure = builders.lines(np.arange(3), np.ones((2, 3)), ("a", "b"), title="t", x_title="x", y_title="y")
    figure["layout"]["annotations"] = [dict(text="n", font=dict(size=30)), dict(text="m")]
    big = builders.sized(figure, 17)
    assert big["layout"]["title"]["font"]["size"] == 18
    assert big["layout"]["xaxis"]["tickfont"]["size"] == 17 and big["layout"]["yaxis"]["title"]["font"]["size"] == 17
    assert big["layout"]["legend"]["font"]["size"] == 17 and big["layout"]["hoverlabel"]["font"]["size"] == 17
    assert [a["font"]["size"] for a in big["layout"]["annotations"]] == [30, 17]
    small = builders.sized(figure, 13)  # on a screen Streamlit's theme sizes ticks and legends (14 px): left to it
    assert "tickfont" not in small["layout"]["xaxis"] and "font" not in small["layout"]["legend"]
    assert figure["layout"]["title"]["font"]["size"] == 14  # the figure given is not changed


def test_a_small_number_in_a_charts_text_keeps_its_digits():
    """A gradient of 0.0003 read as "0.000" told a screen reader it was zero (the scaling lab's section 4)."""
    from attention_plot.plot import _short

    assert [_short(v) for v in (4096.0, 0.8808, 0.0006316, -0.0003158, 1.13e-07, 0.0)] == \
        ["4,096", "0.881", "0.000632", "−0.000316", "1.13e−07", "0"]


def test_a_chinese_tooltip_uses_the_full_width_colon():
    """A heatmap's tooltip in Chinese reads "词元：Thinking", not "词元: Thinking"; in English "token: Thinking"."""
    templates = {lang: [trace["hovertemplate"] for spec in figures(open_app("multihead", text="the cat sat on the mat", heads=2, lang=lang))
                        for trace in spec["data"] if trace.get("type") == "heatmap"] for lang in ("zh", "en")}
    assert templates["zh"] and all("：%{customdata[0]}" in t and ": %{" not in t for t in templates["zh"]), templates["zh"][:1]
    assert templates["en"] and all(": %{customdata[0]}" in t for t in templates["en"]), templates["en"][:1]
    assert builders.colon("词元") == "词元：" and builders.colon("token") == "token: "
