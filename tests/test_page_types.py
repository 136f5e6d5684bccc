"""AppTest for Attention types: the scores, modes and masks sections, every control, and a tampered link."""

import numpy as np
from conftest import SENTENCE, figure_titles, figures, open_app, z_values

from attention_core import explain

TYPES = "types"


def test_types_scores_section_and_the_score_picker():
    at = open_app(TYPES, text=SENTENCE)
    assert figure_titles(at).count("raw scores") == 3  # dot, scaled dot, cosine by default
    at.multiselect[0].set_value(["additive", "bilinear"]).run()
    assert not at.exception
    assert figure_titles(at).count("raw scores") == 2
    assert at.query_params["scores"] == "additive,bilinear"
    expected = explain(SENTENCE, score="bilinear", heads=1).trace.heads[0].weights
    np.testing.assert_allclose(z_values(figures(at)[4]), expected)


def test_types_modes_section_every_control():
    at = open_app(TYPES, text=SENTENCE, section="modes")
    titles = figure_titles(at)
    assert "Hard (argmax)" in titles and "Gumbel-softmax (τ = 1)" in titles and "Local (centre = own position)" in titles
    hard = z_values(figures(at)[titles.index("Hard (argmax)")])
    np.testing.assert_array_equal(np.sort(hard, axis=1)[:, -1], 1.0)
    at.select_slider(key="types.tau").set_value(0.01).run()
    gumbel = z_values(figures(at)[figure_titles(at).index("Gumbel-softmax (τ = 0.01)")])
    assert gumbel.max(axis=1).min() > 0.9  # nearly one-hot
    at.slider(key="types.window").set_value(0).run()  # window 0: only the centre key
    local = figures(at)[figure_titles(at).index("Local (centre = own position)")]
    np.testing.assert_allclose(z_values(local), np.eye(6))
    assert len(local["layout"]["shapes"]) == 6  # one frame per query
    assert at.query_params["tau"] == "0.01" and at.query_params["window"] == "0" and "scores" not in at.query_params


def test_types_masks_section_causal_and_temperature():
    at = open_app(TYPES, text=SENTENCE, section="masks")
    weights = z_values(figures(at)[0])
    np.testing.assert_array_equal(np.triu(weights, 1), 0.0)  # causal by default
    at.toggle(key="types.causal").set_value(False).run()
    assert np.triu(z_values(figures(at)[0]), 1).any()
    at.select_slider(key="types.temperature").set_value(10.0).run()
    flat = z_values(figures(at)[0])
    sharp = explain(SENTENCE, heads=1, temperature=0.1).trace.heads[0].weights
    assert flat.max() < sharp.max()
    assert at.query_params["temperature"] == "10" and at.query_params["causal"] == "0"
    entropy = figures(at)[1]["data"][0]
    assert entropy["type"] == "bar"


def test_types_tampered_url():
    at = open_app(TYPES, section="9", tau="-4")
    assert "section = 9 is not understood" in "\n".join(w.value for w in at.warning)
    at = open_app(TYPES, section="modes", tau="0.3")
    assert "τ = 0.3, which is not one of the choices; using the nearest, 0.2" in "\n".join(w.value.replace("\\", "") for w in at.warning)
