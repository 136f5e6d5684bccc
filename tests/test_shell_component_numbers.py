"""The step component prints numbers in the browser from the float64 values it receives: its formatting
(assets/components/numbers.js) must give exactly the server's text (attention_plot.figures), digit for digit, ties and
signs included, and a raw score's tooltip must be the server's arithmetic line for line. Run in Node.js."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsnumbers import number, run

from attention_plot import figures


def js_cell_text(values, decimals: int) -> list[str]:
    return run([("cellText", [number(v), decimals]) for v in values])


SPECIAL = [0.0, -0.0, 0.125, -0.125, 0.375, 2.5, -2.5, 0.5, 1.5, -1.5, 2.675, 1.005, 0.045, -0.045, 0.005, -0.005, 1e-9, -1e-9,
           123456.789, -98765.4321, 0.995, -0.995, 9.995, 0.0049999999, float("inf"), float("-inf"), float("nan")]


@pytest.mark.parametrize("decimals", [0, 1, 2, 3, 4, 5, 6])
def test_cell_text_is_the_servers_digit_for_digit(decimals):
    rng = np.random.default_rng(decimals)
    values = np.concatenate([SPECIAL, rng.normal(0, 1, 400), rng.normal(0, 100, 200), rng.integers(-2000, 2000, 200) / 8,
                             (rng.integers(-10**6, 10**6, 200) + 0.5) / 10**decimals])  # halves: ties at these decimals
    expected = figures.cell_text(values, decimals)
    assert js_cell_text(values, decimals) == list(expected)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=1, max_size=50), st.integers(0, 6))
def test_cell_text_agrees_for_any_float(values, decimals):
    values = np.asarray(values, dtype=float)
    limit = 1e15 / 10**decimals  # value x 10^decimals stays below 2^53, where np.round's product is exact; the app shows nothing larger
    values[np.abs(values) > limit] = limit
    assert js_cell_text(values, decimals) == list(figures.cell_text(values, decimals))


def sub_text(line: list) -> str:
    """A dotTerms line as the server writes it: subscripts in <sub>."""
    return "".join(part if isinstance(part, str) else f"<sub>{part['sub']}</sub>" for part in line)


@pytest.mark.parametrize(("d", "seed"), [(1, 0), (2, 1), (3, 2), (4, 3), (8, 4), (9, 5), (16, 6), (64, 7)])
def test_a_raw_scores_tooltip_is_the_servers_arithmetic(d, seed):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(0, 1.5, (5, d)), rng.normal(0, 1.5, (6, d))
    scores = q @ k.T
    expected = figures.dot_arithmetic(q, k, scores)
    places = figures.dot_terms(q, k, scores)[0] if d <= figures.MAX_TERMS else np.zeros(scores.shape)
    calls = [("dotTerms", [[float(x) for x in q[i]], [float(x) for x in k[j]], i, j, int(places[i, j]), float(scores[i, j])])
             for i in range(5) for j in range(6)]
    for (i, j), lines in zip([(i, j) for i in range(5) for j in range(6)], run(calls)):
        assert "<br>" + "<br>".join(sub_text(line) for line in lines) == expected[i, j]


def test_every_scales_colour_gets_black_or_white_text_at_least_4_5_to_1():
    checks = []
    for scale in figures.APPROVED_SCALES.values():
        for t in np.linspace(0, 1, 41):
            checks.append(("colourAt", [scale, float(t)]))
    colours = run(checks)
    inks = run([("inkOn", [colour]) for colour in colours])
    for colour, ink in zip(colours, inks):
        text = (0, 0, 0) if ink == "#000" else (255, 255, 255)
        assert figures.contrast(tuple(colour), text) >= 4.5, (colour, ink)
