"""The colour scales for readers who cannot tell red from green, and the contrast of text drawn on colour.

Each scale is simulated under deuteranopia and protanopia (colorspacious: Machado et al. 2009 at severity 100, that is
dichromacy) and measured in CAM02-UCS, a space where distance is perceived difference:
- order: lightness J' falls steadily from white towards each end (a larger |value| always looks darker);
- sign: a value and its negative stay apart (distance at least 10 at half the range, at least 20 at the ends).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from colorspacious import cspace_convert
from conftest import SENTENCE, figures, open_app

from attention_plot.figures import APPROVED_SCALES, contrast, ink
from views.hierarchy import shade
from views.shell.registry import PAGES as REGISTRY

PAGES = [page.id for page in REGISTRY]
VISION = {"deuteranopia": "deuteranomaly", "protanopia": "protanomaly", "typical": None}


def colours(scale: list, ts: np.ndarray) -> np.ndarray:
    """The scale's colours at ``ts`` in [0, 1], sRGB in [0, 1], interpolated between stops as Plotly does."""
    stops = np.array([s for s, _ in scale])
    rgb = np.array([[int(c[i:i + 2], 16) for i in (1, 3, 5)] for _, c in scale], dtype=float) / 255
    return np.stack([np.interp(ts, stops, rgb[:, k]) for k in range(3)], axis=1)


def seen(rgb: np.ndarray, vision: str) -> np.ndarray:
    """The colours as a reader with ``vision`` sees them, in CAM02-UCS (J', a', b')."""
    cvd = VISION[vision]
    if cvd:
        rgb = np.clip(cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}, "sRGB1"), 0, 1)
    return cspace_convert(rgb, "sRGB1", "CAM02-UCS")


@pytest.mark.parametrize("vision", VISION)
@pytest.mark.parametrize("name", sorted(APPROVED_SCALES))
def test_every_scale_keeps_its_order_and_its_sign(name, vision):
    scale = APPROVED_SCALES[name]
    ts = np.linspace(0, 1, 41)
    lightness = seen(colours(scale, ts), vision)[:, 0]
    if name == "weights":  # sequential: 0 is lightest, 1 darkest
        assert np.all(np.diff(lightness) < 0), (name, vision, lightness)
        return
    middle = len(ts) // 2  # diverging around 0 (t = 0.5): darker towards both ends
    assert np.all(np.diff(lightness[middle:]) < 0) and np.all(np.diff(lightness[:middle + 1]) > 0), (name, vision, lightness)
    ucs = seen(colours(scale, ts), vision)
    apart = {k: float(np.linalg.norm(ucs[middle + k] - ucs[middle - k])) for k in (middle // 2, middle)}
    assert apart[middle // 2] >= 10 and apart[middle] >= 20, (name, vision, apart)


def test_v_keeps_its_sign_where_grey_did_not():
    """The reason V's negative end is purple: grey and V's green, at ± half the range, look alike to a deuteranope."""
    ts = np.array([0.25, 0.75])
    grey = seen(colours([[0.0, "#6b6b6b"], [0.5, "#ffffff"], [1.0, "#009E73"]], ts), "deuteranopia")
    assert np.linalg.norm(grey[0] - grey[1]) < 5


@pytest.mark.parametrize("name", sorted(APPROVED_SCALES))
def test_a_number_on_any_cell_of_any_scale_has_4_5_to_1(name):
    """The ink charts.js and the word chips choose (black or white) has at least 4.5:1 on every colour of every scale."""
    for rgb in colours(APPROVED_SCALES[name], np.linspace(0, 1, 201)) * 255:
        text = (0, 0, 0) if ink(tuple(rgb)) == "#000000" else (255, 255, 255)
        assert contrast(tuple(rgb), text) >= 4.5, (name, rgb)


def test_word_chips_have_4_5_to_1_at_every_weight():
    for weight in np.linspace(0, 1, 101):
        style = dict(part.split(":") for part in shade(float(weight)).split(";"))
        background = tuple(int(v) for v in style["background"][4:-1].split(","))
        text = (0, 0, 0) if style["color"] == "#000000" else (255, 255, 255)
        assert contrast(background, text) >= 4.5, (weight, style)


def test_contrast_matches_wcag_examples():
    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast((0x82, 0x81, 0x80), (255, 255, 255)) == pytest.approx(3.88, abs=0.01)  # Streamlit's caption grey
    assert contrast((0xC5, 0x39, 0x48), (0xF9, 0xEB, 0xED)) == pytest.approx(4.47, abs=0.01)  # its selected segment


def test_no_two_lines_of_a_chart_look_alike_and_each_stands_out_on_white():
    """Up to a sentence's most tokens (48) lines, each its own colour and dash; every colour at least 3:1 on white."""
    from attention_plot.figures import LINE_COLOURS, lines
    from views.shell.registry import MAX_TOKENS

    figure = lines(np.arange(3.0), np.zeros((MAX_TOKENS, 3)), tuple(str(i) for i in range(MAX_TOKENS)), title="", x_title="", y_title="")
    styles = [(t["line"]["color"], t["line"]["dash"]) for t in figure["data"]]
    assert len(set(styles)) == MAX_TOKENS
    rgb = lambda c: tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
    assert all(contrast(rgb(c), (255, 255, 255)) >= 3 for c in LINE_COLOURS)


def test_the_cosine_pages_lines_each_have_their_own_look():
    """The testers' sentence: 11 tokens, where 1 · 她 and 9 · 的 were both dark blue."""
    from conftest import figures, open_app

    at = open_app("cosine", lang="zh", text="她正在吃一个绿色的苹果")
    chart = next(f for f in figures(at) if len(f["data"]) == 11)
    styles = [(t["line"]["color"], t["line"]["dash"]) for t in chart["data"]]
    assert len(set(styles)) == len(styles)


def test_only_approved_colour_scales():
    approved = [json.dumps(scale) for scale in APPROVED_SCALES.values()]
    for page in PAGES:
        for spec in figures(open_app(page, text=SENTENCE)):
            for trace in spec["data"]:
                if "colorscale" in trace:
                    assert json.dumps(trace["colorscale"]) in approved, (page, trace["colorscale"])
            assert spec["layout"].get("title", {}).get("text"), page
