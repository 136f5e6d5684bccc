"""AppTest for Cosine similarity: every control, and the numbers it shows (cos θ, a · b, the cosine matrix)."""

import math

import numpy as np
from conftest import SENTENCE, figure_titles, figures, open_app, z_values

COSINE = "cosine"


def test_cosine_page_controls_and_numbers():
    at = open_app(COSINE, text=SENTENCE)
    at.slider(key="cosine.angle_a").set_value(0).run()
    at.slider(key="cosine.angle_b").set_value(60).run()
    cos_metric = next(m for m in at.metric if m.label == "cos θ")
    assert float(cos_metric.value) == 0.5
    at.slider(key="cosine.length_a").set_value(4.0).run()  # the cosine stays
    assert float(next(m for m in at.metric if m.label == "cos θ").value) == 0.5
    dot = float(next(m for m in at.metric if m.label == "a · b").value)
    assert math.isclose(dot, 4.0 * 3.0 * 0.5, abs_tol=1e-4)
    at.selectbox(key="cosine.query").set_value(3).run()
    assert "Weights of “sat”" in " ".join(figure_titles(at))
    scales = figures(at)[2]
    assert len(scales["data"]) == 6
    cosine_matrix = z_values(figures(at)[3])
    np.testing.assert_allclose(np.diag(cosine_matrix), 1.0)
    assert at.query_params["angle_b"] == "60" and at.query_params["length_a"] == "4" and at.query_params["query"] == "3"
