"""Classroom features: presenter mode, exports, link, hands-on numbers, predict-then-reveal, languages, colour scales."""

import json

import numpy as np
import pytest
from conftest import all_text, figures, open_app, payload, step_titles, tables, z_values

from attention_core import explain, from_json
from attention_plot.figures import APPROVED_SCALES
from attention_plot.text import Texts, catalogue
from views.shell.registry import PAGES as REGISTRY

PAGES = [page.id for page in REGISTRY]
SENTENCE = "the cat sat on the mat"


def click(at, suffix):
    next(b for b in at.button if b.key and b.key.endswith(suffix)).click().run()


def test_presenter_mode_shows_only_the_step():
    at = open_app(present="1", step="3", text=SENTENCE)
    assert at.toggle(key="shared.present").value is True
    header, _ = payload(at)
    assert header["layout"] == "projector" and header["view"]["step"] == 3 and header["font"] == 17
    assert header["sentence"] is None and at.sidebar.text_input  # on a projector the sentence is the sidebar's
    assert step_titles(header, "raw") == ["raw scores"] and at.query_params["present"] == "1"
    assert "Focus on one word" not in all_text(at)


def test_presenter_mode_compact_steps():
    header, _ = payload(open_app(present="1", step="2", text=SENTENCE))
    assert step_titles(header, "qkv") == ["Q: queries", "K: keys", "V: values"]  # side by side, no W beside them
    assert next(s for s in header["steps"] if s["id"] == "qkv")["blocks"][0]["t"] == "row"


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


def test_every_matrix_has_a_description_and_the_page_has_no_second_csv():
    at = open_app(text=SENTENCE, all="1", heads="2")
    header, _ = payload(at)
    assert all(m["alt"].startswith("Heatmap “") and m["title"] in m["alt"] for m in header["m"].values())
    assert not any("csv-all" in b.proto.id for b in at.get("download_button"))  # the steps' own download menu has them
    assert Texts("zh")("common.labels.row") == "行" and payload(open_app(text=SENTENCE, lang="zh"))[0]["texts"]["row"] == "行"


def test_link_to_this_view_is_shown():
    """The address holds the view (the browser writes the step); the sidebar's button copies the address as it is when
    clicked (tested in the browser)."""
    at = open_app(text=SENTENCE, d_k="5", step="4")
    assert at.query_params["d_k"] == "5" and payload(at)[0]["view"]["step"] == 4
    buttons = [c for c in at.get("bidi_component") if "Copy the link to this view" in str(c.proto)]
    assert len(buttons) == 1 and "window.location.href" in str(buttons[0].proto)


def reported(page: str = "walkthrough", key: str = "walk-steps", **report) -> object:
    """The page as the step component leaves it after telling the server the head, the word and hands-on (its state)."""
    from scripts.apptest import app_test

    params = report.pop("params", {})
    at = app_test(page, **params)
    at.session_state[key] = {"report": report}
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_hands_on_scores():
    at = reported(params={"text": "Thinking Machines"}, head=1, focus=1, hands=True)
    e = explain("Thinking Machines")
    editor = at.data_editor[0].value
    np.testing.assert_allclose(editor["score"], e.trace.heads[0].raw_scores[0])
    tables = [t.value for t in at.table]
    assert any(t.shape[0] == 2 and t.iloc[0, -1] == f"{e.trace.heads[0].weights[0, 0]:.4f}" for t in tables)


def test_hands_on_follows_the_reported_head_and_word():
    at = reported(params={"text": SENTENCE, "heads": "2"}, head=2, focus=3, hands=True)
    e = explain(SENTENCE, heads=2)
    np.testing.assert_allclose(at.data_editor[0].value["score"], e.trace.heads[1].raw_scores[2])
    tampered = reported(params={"text": SENTENCE}, head=9, focus=-4, hands=True)  # a report is clamped into the walk
    np.testing.assert_allclose(tampered.data_editor[0].value["score"], explain(SENTENCE).trace.heads[0].raw_scores[0])
    assert not reported(params={"text": SENTENCE}, head=1, focus=1, hands=False).data_editor


def test_hands_on_d_k_changes_the_weights():
    at = reported(params={"walk": "textbook"}, head=1, focus=1, hands=True)
    number = next(n for n in at.number_input if n.key and n.key.endswith("-d_k-64"))  # starts at the view's d_k
    assert number.value == 64
    number.set_value(1).run()  # divide by 1 instead of 8: 112 and 96 give 0.99999989
    tables = [t.value for t in at.table]
    assert any(t.iloc[0, -1] == "1.0000" and t.iloc[1, -1] == "0.0000" for t in tables if t.shape == (2, 4))


def test_predict_first_hides_every_matrix_the_answer_could_be_read_from():
    """While the class guesses, the browser draws no matrix of the scores, the weights, the outputs or the heads'
    outputs (any row gives the head's pattern away): each is marked so in the payload; Q, K, V and X are not."""
    header, _ = payload(open_app(text=SENTENCE, heads="2", predict="1", focus="2"))
    assert header["view"]["predict"] is True and header["view"]["focus"] == 2
    for step in header["steps"]:
        blocks = step["blocks"] + [inner for b in step["blocks"] if b["t"] == "row" for inner in b["c"]]
        hidden = [b["hide"] for b in blocks if b["t"] == "m" and b["m"] not in ("wq", "wk", "wv", "w_o")]  # weights W are no answer
        assert all(hidden) == (step["id"] in ("raw", "scaled", "softmax", "output", "heads")), step["id"]
        assert any(hidden) == (step["id"] in ("raw", "scaled", "softmax", "output", "heads")), step["id"]


def test_predict_then_reveal_on_the_real_model():
    """Nothing about the head shows until the reveal: its heatmap, its lines, its tile of the overview, the summary."""
    at = open_app("real", text=SENTENCE, predict="1", query="3")
    assert not figures(at) and not tables(at) and "hidden until the reveal" in all_text(at)
    next(s for s in at.selectbox if s.key and s.key.endswith("-which")).set_value(1).run()
    click(at, "-reveal")
    assert not np.isnan(z_values(figures(at)[0])).any() and len(figures(at)) == 3 and tables(at)


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
    from views.widgets.hands_on import predict_verdict

    weights = np.array([0.1, 0.62, 0.28])
    assert predict_verdict(weights, 1, 0.55) == "right" and predict_verdict(weights, 1, 0.72) == "right"
    assert predict_verdict(weights, 1, 0.4) == "off_weight" and predict_verdict(weights, 2, 0.62) == "wrong_key"
    assert predict_verdict(weights, None, None) == "wrong_key"
