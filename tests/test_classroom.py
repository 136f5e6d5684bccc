"""Classroom features: presenter mode, exports, link, hands-on numbers, predict-then-reveal, languages, colour scales."""

import json

import numpy as np
import pytest
from conftest import all_text, figure_titles, figures, open_app, z_values

from attention_core import explain, from_json
from attention_plot.figures import APPROVED_SCALES
from attention_plot.text import Texts, catalogue
from views.registry import PAGES as REGISTRY

PAGES = [page.id for page in REGISTRY]
SENTENCE = "the cat sat on the mat"


def click(at, suffix):
    next(b for b in at.button if b.key and b.key.endswith(suffix)).click().run()


def test_presenter_mode_shows_only_the_step():
    at = open_app(present="1", step="3", text=SENTENCE)
    assert at.toggle(key="shared.present").value is True
    assert figure_titles(at) == ["raw scores"]
    text = all_text(at)
    assert "Focus on one word" not in text and "Load the textbook" not in text
    assert at.button(key="walk-next") and at.query_params["present"] == "1"


def test_presenter_mode_compact_steps():
    at = open_app(present="1", step="2", text=SENTENCE)
    assert figure_titles(at) == ["Q: queries", "K: keys", "V: values"]


def test_json_export_round_trip():
    at = open_app(text=SENTENCE, heads="2")
    button = at.get("download_button")
    keys = [b.proto.id for b in button]
    assert any("download-json" in key for key in keys)
    e = explain(SENTENCE, heads=2, max_tokens=48)
    from attention_core import to_json

    again = from_json(to_json(e))
    np.testing.assert_array_equal(again.trace.output, e.trace.output)
    assert json.loads(to_json(e))["options"]["heads"] == 2


def test_every_chart_has_a_description_and_its_matrix_in_the_csv():
    at = open_app(text=SENTENCE, all="1")
    charts = at.get("plotly_chart")
    assert all(chart.proto.alt for chart in charts)
    assert any("csv-steps" in b.proto.id for b in at.get("download_button"))
    assert not any("csv-all" in b.proto.id for b in at.get("download_button"))  # one CSV button: the steps' own
    from views.charts import MATRICES, all_matrices_csv

    matrices = at.session_state[MATRICES]
    assert len(matrices) == len(charts)
    text = all_matrices_csv(matrices)
    assert text.count("# ") == len(charts) and "# raw scores" in text and "1:the,2:cat,3:sat" in text
    assert "行,1:the" in all_matrices_csv(matrices, Texts("zh")("common.labels.row"))  # the first column's name in Chinese


def test_link_to_this_view_is_shown():
    """The address holds the view; the sidebar's button copies the address as it is when clicked (tested in the browser)."""
    at = open_app(text=SENTENCE, d_k="5", step="4")
    assert at.query_params["d_k"] == "5" and at.query_params["step"] == "4"
    buttons = [i for i in at.get("iframe") if "Copy the link to this view" in str(i.proto)]
    assert len(buttons) == 1 and "parent.location.href" in str(buttons[0].proto)


def test_hands_on_scores():
    at = open_app(text="Thinking Machines", focus="1")
    at.toggle(key="hands-on").set_value(True).run()
    e = explain("Thinking Machines")
    editor = at.data_editor[0].value
    np.testing.assert_allclose(editor["score"], e.trace.heads[0].raw_scores[0])
    tables = [t.value for t in at.table]
    assert any(t.shape[0] == 2 and t.iloc[0, -1] == f"{e.trace.heads[0].weights[0, 0]:.4f}" for t in tables)


def test_hands_on_d_k_changes_the_weights():
    at = open_app(walk="textbook", focus="1")
    at.toggle(key="hands-on").set_value(True).run()
    number = next(n for n in at.number_input if n.key and n.key.endswith("-d_k-64"))  # starts at the view's d_k
    assert number.value == 64
    number.set_value(1).run()  # divide by 1 instead of 8: 112 and 96 give 0.99999989
    tables = [t.value for t in at.table]
    assert any(t.iloc[0, -1] == "1.0000" and t.iloc[1, -1] == "0.0000" for t in tables if t.shape == (2, 4))


def test_predict_then_reveal_in_the_walkthrough():
    """While the class guesses, no matrix the answer could be read from is drawn, the focused row or any other."""
    at = open_app(text=SENTENCE, step="5", predict="1", focus="2")
    assert not figures(at) and "Hidden until the reveal" in all_text(at)
    assert "Before looking: which key will “cat” attend to most" in all_text(at)
    next(s for s in at.selectbox if s.key and s.key.endswith("-which")).set_value(1).run()
    click(at, "-reveal")
    assert figure_titles(at) == ["attention weights"] and not np.isnan(z_values(figures(at)[0])).any()
    assert any("Answer:" in m.value for m in list(at.success) + list(at.warning))
    at.button(key="walk-previous").click().run()  # stepping back keeps the reveal: the scaled scores show
    assert figure_titles(at) == ["scaled scores"]


@pytest.mark.parametrize("step", [3, 4, 5, 6, 7])
def test_the_quiz_hides_every_matrix_from_the_very_first_run_after_the_toggle(step):
    """Switching "Predict first" on hides, at once, every matrix of the steps that would give the answer away: the
    scores, the weights, the outputs and the heads' outputs (the weights can be read back from any row of them)."""
    at = open_app(text=SENTENCE, step=str(step), focus="2", heads="2")
    assert figures(at)
    at.toggle(key="walkthrough.predict").set_value(True).run()  # the very next frame
    assert not figures(at), step
    assert "Hidden until the reveal" in all_text(at)
    assert not [t for t in at.table if "softmax weight" in t.value.columns]  # the focus table waits for the guess too


def test_presenter_mode_asks_the_class_and_hides_the_answer():
    """On the projector the pop-over holds the word and "Predict first"; the question sits under Previous / Next."""
    at = open_app(text=SENTENCE, step="5", present="1")
    assert figure_titles(at) == ["attention weights"]
    next(s for s in at.selectbox if s.key == "walkthrough.focus").set_value(3).run()
    at.toggle(key="walkthrough.predict").set_value(True).run()
    assert not figures(at) and "which key will “sat” attend to most" in all_text(at)
    assert at.query_params["predict"] == "1" and at.query_params["focus"] == "3"
    next(s for s in at.selectbox if s.key and s.key.endswith("-which")).set_value(0).run()
    click(at, "-reveal")
    assert figure_titles(at) == ["attention weights"]
    linked = open_app(text=SENTENCE, step="5", present="1", predict="1", focus="3")  # the link a teacher shares
    assert not figures(linked) and "which key will “sat” attend to most" in all_text(linked)


def test_predict_then_reveal_on_the_real_model():
    """Nothing about the head shows until the reveal: its heatmap, its lines, its tile of the overview, the summary."""
    at = open_app("real", text=SENTENCE, predict="1", query="3")
    assert not figures(at) and not at.dataframe and "hidden until the reveal" in all_text(at)
    next(s for s in at.selectbox if s.key and s.key.endswith("-which")).set_value(1).run()
    click(at, "-reveal")
    assert not np.isnan(z_values(figures(at)[0])).any() and len(figures(at)) == 3 and at.dataframe


def test_only_approved_colour_scales():
    approved = [json.dumps(scale) for scale in APPROVED_SCALES.values()]
    for page in PAGES:
        for spec in figures(open_app(page, text=SENTENCE)):
            for trace in spec["data"]:
                if "colorscale" in trace:
                    assert json.dumps(trace["colorscale"]) in approved, (page, trace["colorscale"])
            assert spec["layout"].get("title", {}).get("text"), page


@pytest.mark.parametrize("page", PAGES)
def test_chinese_pages_show_no_english_text(page):
    english, chinese = catalogue("en"), catalogue("zh")
    sentences = {str(v) for k, v in english.items() if isinstance(v, str) and len(str(v).split()) >= 3 and chinese.get(k) != v
                 and "formula" not in k}
    at = open_app(page, lang="zh", text=SENTENCE)
    shown = all_text(at) + " ".join(str(t) for spec in figures(at) for t in (spec["layout"].get("title", {}).get("text", ""),))
    leaks = [s for s in sentences if "{" not in s and s in shown]
    assert not leaks, leaks[:3]


def test_a_guess_is_right_with_the_key_and_the_weight_within_a_tenth():
    from views.classroom import predict_verdict

    weights = np.array([0.1, 0.62, 0.28])
    assert predict_verdict(weights, 1, 0.55) == "right" and predict_verdict(weights, 1, 0.72) == "right"
    assert predict_verdict(weights, 1, 0.4) == "off_weight" and predict_verdict(weights, 2, 0.62) == "wrong_key"
    assert predict_verdict(weights, None, None) == "wrong_key"
