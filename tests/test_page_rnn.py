"""AppTest for RNN vs attention: the step slider, d and the charts they move."""

import numpy as np
from conftest import SENTENCE, figure_titles, figures, open_app, z_values

RNN = "rnn"


def test_rnn_page_step_slider_and_d():
    at = open_app(RNN, text=SENTENCE)
    assert "RNN hidden state h₁ (the only one computed so far)" in figure_titles(at)  # step 1: not "h₁ … h₁"
    at.slider(key="rnn.step").set_value(3).run()
    assert "RNN hidden states h₁ … h₃ (computed so far)" in figure_titles(at)
    reach = z_values(figures(at)[0])
    np.testing.assert_array_equal(reach[:3], np.tril(np.ones((3, 6))))
    assert not reach[3:].any()
    hidden = figures(at)[1]["data"][0]["text"]
    assert hidden[2][0] != "" and hidden[3][0] == ""
    np.testing.assert_array_equal(z_values(figures(at)[2]), 1.0)
    at.select_slider(key="rnn.d").set_value(64).run()
    assert at.query_params["d"] == "64" and at.query_params["step"] == "3"
    compute = figures(at)[figure_titles(at).index("compute per layer")]
    assert compute["layout"]["shapes"][0]["x0"] == 64
