"""AppTest: every step, the controls, the URL round trip, the textbook example and bad input."""

import numpy as np
import pytest
from conftest import all_text, figure_titles, figures, open_app, z_values

from attention_core import explain
from views.registry import MAX_TOKENS


def step_heading(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Step"))


def test_default_page_shows_the_default_sentence_tokens():
    at = open_app()
    assert at.title[0].value == "Self-attention, step by step"
    assert step_heading(at) == "**Step 1 of 6: Tokens and embeddings**"
    chips = at.get("html")[0].proto.body
    assert "Thinking" in chips and "Machines" in chips
    assert figure_titles(at) == ["E: token embeddings", "PE: positional encoding", "X = E + PE"]


def test_next_and_previous_walk_through_every_step():
    at = open_app(heads="2", text="the cat sat on the mat")
    titles = []
    for number in range(1, 8):
        assert step_heading(at).startswith(f"**Step {number} of 7")
        titles.append(figure_titles(at))
        if number < 7:
            at.button(key="walk-next").click().run()
            assert not at.exception
    assert at.button(key="walk-next").disabled
    assert titles[1] == ["W_Q", "Q: queries", "W_K", "K: keys", "W_V", "V: values"]
    assert titles[2] == ["raw scores"] and titles[3] == ["scaled scores"] and titles[4] == ["attention weights"]
    assert titles[5] == ["Z: output"] and titles[6] == ["Concat(Z₁ … Zₕ)", "W_O", "multi-head output"]
    at.button(key="walk-previous").click().run()
    assert step_heading(at).startswith("**Step 6 of 7")
    assert at.query_params["step"] == "6"


def test_every_number_comes_from_the_core():
    at = open_app(text="the cat sat on the mat", step="4", d_k="3", seed="5")
    e = explain("the cat sat on the mat", d_k=3, seed=5, d_model=8)
    head = e.trace.heads[0]
    (scaled,) = figures(at)
    np.testing.assert_allclose(z_values(scaled), head.scaled_scores)
    assert "√d_k = √3 = 1.732" in all_text(at)
    at.button(key="walk-next").click().run()
    weights = figures(at)[0]
    np.testing.assert_allclose(z_values(weights), head.weights)
    assert weights["data"][0]["text"][0][0] == f"{head.weights[0, 0]:.2f}"


def test_repeated_words_stay_separate_rows_and_columns():
    at = open_app(text="the cat sat on the mat", step="3")
    spec = figures(at)[0]
    assert z_values(spec).shape == (6, 6)
    assert spec["layout"]["xaxis"]["ticktext"] == ["the", "cat", "sat", "on", "the", "mat"]
    assert spec["layout"]["yaxis"]["ticktext"] == ["the", "cat", "sat", "on", "the", "mat"]
    assert "q<sub>1</sub>·k<sub>2</sub> = " in spec["data"][0]["customdata"][0][1][2]


def test_all_steps_on_one_page():
    at = open_app(all="1")
    assert len(figures(at)) == 3 + 6 + 1 + 1 + 1 + 1
    assert not any(m.value.startswith("**Step") for m in at.markdown)


def test_url_round_trip():
    at = open_app(text="the cat sat", d_k="7", heads="2", score="cosine", mode="hard", pe="0", seed="42", step="3", head="2")
    assert at.slider(key="shared.d_k").value == 7
    assert at.slider(key="shared.heads").value == 2
    assert at.selectbox(key="shared.score").value == "cosine"
    assert at.toggle(key="shared.pe").value is False
    assert step_heading(at).startswith("**Step 3 of 7")
    at.slider(key="shared.d_k").set_value(5).run()
    params = dict(at.query_params)
    assert params | {"d_k": "5"} == params
    assert params["text"] == "the cat sat" and params["seed"] == "42" and params["step"] == "3" and params["head"] == "2"
    again = open_app(**params)
    np.testing.assert_allclose(z_values(figures(again)[0]), z_values(figures(at)[0]))


def test_changing_a_slider_redraws_with_the_new_size():
    at = open_app(step="2")
    assert z_values(figures(at)[1]).shape == (2, 4)
    at.slider(key="shared.d_k").set_value(6).run()
    assert z_values(figures(at)[1]).shape == (2, 6)


def test_example_menu_sets_the_sentence():
    at = open_app()
    at.selectbox(key="example_pick").set_value("她正在吃一个绿色的苹果").run()
    assert at.text_input(key="shared.text").value == "她正在吃一个绿色的苹果"
    assert "苹" in at.get("html")[0].proto.body


def test_textbook_example_shows_the_articles_numbers():
    at = open_app()
    at.segmented_control(key="walkthrough.walk").set_value("textbook").run()
    assert step_heading(at) == "**Step 3 of 6: Raw scores**"
    assert "112" in all_text(at) and "0.88" not in all_text(at)  # the weights wait for the softmax step (lesson stop 1 asks)
    np.testing.assert_array_equal(z_values(figures(at)[0])[0], [112.0, 96.0])
    at.button(key="walk-next").click().run()
    np.testing.assert_array_equal(z_values(figures(at)[0])[0], [14.0, 12.0])
    assert "√d_k = √64 = 8" in all_text(at)
    at.button(key="walk-next").click().run()
    assert figures(at)[0]["data"][0]["text"][0] == ["0.88", "0.12"]
    assert at.query_params["walk"] == "textbook" and "d_k" not in at.query_params  # the example fixes d_k = 64
    at.segmented_control(key="walkthrough.walk").set_value("random").run()
    assert at.query_params["walk"] == "random" and step_heading(at).startswith("**Step 5 of 6")  # the teacher keeps the place


def numbers(column) -> np.ndarray:
    """Table text (with true minus signs) back to numbers."""
    return np.array([float(str(cell).replace("−", "-")) for cell in column])


def test_focus_on_one_word_is_the_articles_figure_as_a_table():
    at = open_app(text="the cat sat on the mat", focus="2")
    tables = [table.value for table in at.table]
    scores = next(t for t in tables if "softmax weight" in t.columns)
    weighted = next(t for t in tables if t.iloc[-1, 0] == "sum = output")
    e = explain("the cat sat on the mat")
    head = e.trace.heads[0]
    np.testing.assert_allclose(numbers(scores.iloc[:, 2]), head.raw_scores[1], atol=5e-5)
    np.testing.assert_allclose(numbers(scores.iloc[:, 4]), head.weights[1], atol=5e-5)
    np.testing.assert_allclose(numbers(weighted.iloc[-1, 1:]), head.output[1], atol=5e-5)
    assert scores.iloc[0, 4] == f"{head.weights[1, 0]:.4f}"
    assert list(scores.iloc[:, 1]) == ["the", "cat", "sat", "on", "the", "mat"]


def test_empty_sentence_shows_a_prompt_not_charts():
    at = open_app(text="   ")
    assert "Type a sentence" in all_text(at)
    assert not figures(at)


def test_very_long_text_is_cut_with_a_message():
    at = open_app(text="word " * 2000)
    text = all_text(at)
    assert "only the first 2000 are used" in text
    assert f"only the first {MAX_TOKENS} are shown" in text
    assert len(figures(at)[0]["layout"]["yaxis"]["ticktext"]) == MAX_TOKENS


@pytest.mark.parametrize(
    "text",
    ['<script>alert("x")</script>', '<img src=x onerror=alert(1)>', "[link](javascript:alert(1)) **bold** $x$", "I ❤️ attention 😀"],
)
def test_hostile_text_is_shown_as_text(text):
    at = open_app(text=text, focus="2")
    chips = at.get("html")[0].proto.body
    assert "<script" not in chips and "<img" not in chips
    if "<" in text:
        assert "&lt;" in chips
    for spec in figures(at):
        assert "<script" not in str(spec["layout"]["yaxis"]["ticktext"])


@pytest.mark.parametrize(
    ("params", "expect", "widget", "value"),
    [
        ({"d_k": "999"}, "d_k = 999, which is out of range; using 128", "shared.d_k", 128),
        ({"d_model": "-3"}, "d_model = -3, which is out of range; using 2", "shared.d_model", 2),
        ({"heads": "banana"}, "heads = banana is not understood; using the default 1", "shared.heads", 1),
        ({"score": "<b>x</b>"}, "not understood; using the default scaled_dot", "shared.score", "scaled_dot"),
        ({"seed": "nan"}, "seed = nan is not understood", "shared.seed", 0),
        ({"d_k": "inf"}, "using 128", "shared.d_k", 128),
        ({"pe": "maybe"}, "pe = maybe is not understood", "shared.pe", True),
        ({"step": "99"}, "step = 99, which is out of range; using 6", None, None),  # the steps this view has
        ({"focus": "0"}, "focus = 0, which is out of range; using 1", None, None),
    ],
)
def test_tampered_url_values_are_clamped_with_a_notice(params, expect, widget, value):
    at = open_app(**params)
    assert expect in "\n".join(w.value.replace("\\", "") for w in at.warning)
    if widget:
        assert at.get_by_key(widget).value == value


def test_notice_goes_away_after_a_change():
    at = open_app(d_k="999")
    assert at.warning
    at.slider(key="shared.d_k").set_value(5).run()
    assert not [w for w in at.warning if "out of range" in w.value]


@pytest.mark.parametrize("score", ["dot", "scaled_dot", "additive", "bilinear", "cosine"])
@pytest.mark.parametrize("mode", ["soft", "hard", "local", "local-monotonic"])
def test_every_score_and_mode_renders_every_step(score, mode):
    at = open_app(score=score, mode=mode, all="1", text="the cat sat on the mat", heads="2")
    assert len(figures(at)) >= 13


def test_chinese_sentence_and_language_switch():
    at = open_app(text="她正在吃一个绿色的苹果", step="3")
    assert len(figures(at)[0]["layout"]["xaxis"]["ticktext"]) == 11
    at.radio(key="shared.lang").set_value("zh").run()
    assert at.query_params["lang"] == "zh"
