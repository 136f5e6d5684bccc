"""AppTest for Multi-head, Self vs cross, Hierarchical and RNN vs attention: every control, limits and bad input."""

import numpy as np
import pytest
from conftest import all_text, figure_titles, figures, open_app, tables, z_values

from attention_core import explain

MH, CROSS, HAN, RNN = "multihead", "cross", "hierarchy", "rnn"
SENTENCE = "the cat sat on the mat"


def test_multi_head_heads_slider_and_fixed_d_model():
    at = open_app(MH, text=SENTENCE, d_model="16")
    assert "d_k" not in at.query_params and not [s for s in at.sidebar.slider if s.key == "shared.d_k"]  # d_k = d_model / heads
    assert len([s for s in at.slider if s.key == "shared.heads"]) == 1  # one heads control, on the page
    at.slider(key="shared.heads").set_value(4).run()
    assert at.slider(key="shared.heads").value == 4 and at.query_params["heads"] == "4"
    titles = figure_titles(at)
    assert sorted(t for t in titles if t.startswith("head ")) == ["head 1", "head 2", "head 3", "head 4"]
    concat = figures(at)[titles.index("Concat(Z₁ … Zₕ): each head's output side by side")]
    assert z_values(concat).shape == (6, 16) and len(concat["layout"]["shapes"]) == 3
    costs = next(t for caption, t in tables(at).items() if caption.startswith("Multiply-adds of 4 heads"))
    assert costs.iloc[-1, 1] == costs.iloc[-1, 2]  # same total as one head of size d_model
    diversity = z_values(figures(at)[titles.index("divergence between heads (bits)")])
    assert diversity.shape == (4, 4)
    at.toggle(key="multihead.split").set_value(False).run()
    at.slider(key="shared.heads").set_value(2).run()  # d_k = 4 from the sidebar, not 16 / 2
    assert "from the sidebar" in all_text(at) and at.query_params["split"] == "0" and at.query_params["d_k"] == "4"
    costs = next(t for caption, t in tables(at).items() if caption.startswith("Multiply-adds of 2 heads"))
    assert costs.iloc[-1, 1] != costs.iloc[-1, 2]


def test_multi_head_single_head_says_so():
    at = open_app(MH, heads="1")
    assert "nothing to compare" in all_text(at)


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


def test_hierarchical_page_levels_and_limits():
    at = open_app(HAN)
    html = at.get("html")[0].proto.body
    assert "han-word" in html and "mailman" in html
    bars = figures(at)[0]["data"][0]
    assert len(bars["x"]) == 4 if isinstance(bars["x"], list) else True
    at.text_area(key="hierarchy.doc").set_value(" ".join(f"Sentence {i} is here." for i in range(15))).run()
    assert "only the first 12 are used" in all_text(at)
    at.text_area(key="hierarchy.doc").set_value("<img src=x onerror=alert(1)>. 😀 ok!").run()
    assert "<img" not in at.get("html")[0].proto.body
    at.text_area(key="hierarchy.doc").set_value("   ").run()
    assert "Type a document" in all_text(at)


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


@pytest.mark.parametrize("page", [MH, CROSS, HAN, RNN])
def test_chinese_and_tampered_urls(page):
    at = open_app(page, lang="zh", step="abc", d="99", fixed="7", pair="-2")
    text = all_text(at)
    assert not any(word in text for word in ("Multi-head attention", "Self vs cross", "Hierarchical attention", "RNN vs attention"))
