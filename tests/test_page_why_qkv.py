"""AppTest for Why Q, K and V?: one shared matrix makes the scores symmetric, separate ones do not; without V."""

import numpy as np
from conftest import SENTENCE, all_text, figure_titles, figures, open_app, z_values

from attention_core import explain

WHY = "why_qkv"


def test_why_qkv_shared_matrix_is_symmetric():
    at = open_app(WHY, text=SENTENCE)
    titles = figure_titles(at)
    shared_diff = z_values(figures(at)[titles.index("shared: S − Sᵀ")])
    assert np.abs(shared_diff).max() <= 1e-12
    separate_diff = z_values(figures(at)[titles.index("separate: S − Sᵀ")])
    assert np.abs(separate_diff).max() > 0.1
    assert "with one shared matrix" in all_text(at)
    e = explain(SENTENCE, heads=1)
    np.testing.assert_allclose(z_values(figures(at)[titles.index("without V: A X")]), e.trace.heads[0].weights @ e.x)
