"""AppTest for Self vs cross: cross attention between two texts, the pair switch, the text inputs and the link."""

import numpy as np
from conftest import all_text, figure_titles, figures, open_app, z_values

from attention_core import explain

CROSS = "cross"


def test_cross_attention_page():
    at = open_app(CROSS)
    titles = figure_titles(at)
    cross = figures(at)[titles.index("cross attention: target → source")]
    assert z_values(cross).shape == (6, 4)
    assert cross["layout"]["yaxis"]["ticktext"][0] == "我" and cross["layout"]["xaxis"]["ticktext"] == ["I", "am", "a", "student"]
    assert cross["layout"]["yaxis"]["title"]["text"] == "target tokens (queries)"
    causal = z_values(figures(at)[titles.index("decoder self-attention, causal")])
    np.testing.assert_array_equal(np.triu(causal, 1), 0.0)
    expected = explain("我是一个学生", context="I am a student", heads=1).trace.heads[0].weights
    np.testing.assert_allclose(z_values(cross), expected)


def test_cross_pair_switch_and_text_inputs():
    at = open_app(CROSS)
    at.segmented_control(key="cross.pair").set_value("reading").run()
    assert at.text_input(key="cross.target").value == "Where did the cat sit?"
    general = figures(at)[figure_titles(at).index("the question's vector over the passage")]
    assert z_values(general).shape[0] == 1
    at.text_input(key="cross.source").set_value("<script>alert(1)</script>").run()
    assert not at.exception and at.query_params["source"] == "<script>alert(1)</script>"
    at.text_input(key="cross.target").set_value("").run()
    assert "Type a target text" in all_text(at)


def test_cross_pair_from_the_url_sets_the_default_texts():
    at = open_app(CROSS, pair="reading")
    assert at.text_input(key="cross.source").value.startswith("The cat sat on the mat")
