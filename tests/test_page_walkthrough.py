"""AppTest for the walkthrough: its payload (every step of every head, sent once), the URL round trip, the textbook
example, the focus tables and bad input; presenter mode, the JSON export, the link, hands-on numbers, predict-then-reveal
and the real model's weights. Stepping itself happens in the browser: tests/test_browser_app.py, test_browser_steps.py."""

import json

import numpy as np
import pytest
from conftest import SENTENCE, all_text, matrix, open_app, payload, step_ids, step_matrices, step_text, step_titles
from jsnumbers import number, run

from attention_core import explain, from_json
from attention_plot import figures
from attention_plot.text import Texts
from views.shell.registry import MAX_TOKENS

SIX = ("the", "cat", "sat", "on", "the", "mat")


def test_default_page_sends_every_step_of_the_default_sentence():
    at = open_app()
    header, _ = payload(at)
    assert at.title[0].value == "Self-attention, step by step"
    assert step_ids(header) == ["tokens", "qkv", "raw", "scaled", "softmax", "output"]
    assert header["steps"][0]["title"] == "Tokens and embeddings"
    chips = next(b for b in header["steps"][0]["blocks"] if b["type"] == "chips")
    assert chips["tokens"] == ["Thinking", "Machines"]
    assert step_titles(header, "tokens") == ["E: token embeddings", "PE: positional encoding", "X = E + PE"]
    assert header["view"] == {"step": 1, "head": 1, "focus": 1, "values": True, "all": False, "predict": False}
    assert header["sentence"]["text"] == "Thinking Machines"


def test_every_step_of_every_head_is_in_one_payload():
    at = open_app(heads="2", text="the cat sat on the mat")
    header, values = payload(at)
    assert step_ids(header) == ["tokens", "qkv", "raw", "scaled", "softmax", "output", "heads"]
    assert step_titles(header, "qkv") == ["W_Q", "Q: queries", "W_K", "K: keys", "W_V", "V: values"]
    assert step_titles(header, "raw") == ["raw scores"] and step_titles(header, "scaled") == ["scaled scores"]
    assert step_titles(header, "softmax") == ["attention weights"] and step_titles(header, "output") == ["Z: output"]
    assert step_titles(header, "heads") == ["Concat(Z₁ … Zₕ)", "W_O", "multi-head output"]
    e = explain("the cat sat on the mat", heads=2, d_model=8, d_k=4)
    for h, head in enumerate(e.trace.heads, 1):  # each head's own matrices, ready for the browser's head choice
        np.testing.assert_array_equal(matrix(header, values, f"weights.{h}"), head.weights)
        np.testing.assert_array_equal(matrix(header, values, f"q.{h}"), head.q)
        np.testing.assert_array_equal(matrix(header, values, f"wq.{h}"), e.projections.w_q[:, (h - 1) * 4 : h * 4])
    assert step_matrices(header, "raw", head=2) == ["raw.2"]
    assert "step" not in at.query_params and "head" not in at.query_params  # the browser writes what it shows


def test_every_number_comes_from_the_core():
    at = open_app(text="the cat sat on the mat", step="4", d_k="3", seed="5")
    header, values = payload(at)
    head = explain("the cat sat on the mat", d_k=3, seed=5, d_model=8).trace.heads[0]
    np.testing.assert_array_equal(matrix(header, values, "scaled.1"), head.scaled_scores)
    np.testing.assert_array_equal(matrix(header, values, "weights.1"), head.weights)
    np.testing.assert_array_equal(matrix(header, values, "raw.1"), head.raw_scores)
    assert "√d_k = √3 = 1.732" in step_text(header, "scaled")
    assert header["view"]["step"] == 4


def test_repeated_words_stay_separate_rows_and_columns():
    header, values = payload(open_app(text="the cat sat on the mat"))
    raw = header["matrices"]["raw.1"]
    assert matrix(header, values, "raw.1").shape == (6, 6)
    assert raw["rows"] == list(SIX) and raw["columns"] == list(SIX)
    assert raw["arithmetic"]["query"] == "q.1" and raw["arithmetic"]["key"] == "k.1"  # each score's tooltip adds up q·k


def test_a_link_to_all_steps_sets_the_view():
    header, _ = payload(open_app(all="1"))
    assert header["view"]["all"] is True


def test_url_round_trip():
    at = open_app(text="the cat sat", d_k="7", heads="2", score="cosine", mode="hard", pe="0", seed="42", step="3", head="2")
    assert at.slider(key="shared.d_k").value == 7
    assert at.slider(key="shared.heads").value == 2
    assert at.selectbox(key="shared.score").value == "cosine"
    assert at.toggle(key="shared.pe").value is False
    assert payload(at)[0]["view"]["step"] == 3 and payload(at)[0]["view"]["head"] == 2
    at.slider(key="shared.d_k").set_value(5).run()
    params = dict(at.query_params)
    assert params | {"d_k": "5"} == params
    assert params["text"] == "the cat sat" and params["seed"] == "42"
    header, values = payload(at)
    assert header["view"]["step"] == 3 and header["view"]["head"] == 2  # the server's view keeps what the link said
    again = open_app(**params)
    np.testing.assert_array_equal(matrix(*payload(again), "raw.1"), matrix(header, values, "raw.1"))


def test_a_new_link_sets_the_view_again_and_a_rerun_does_not():
    at = open_app(text="the cat sat", step="3")
    token = payload(at)[0]["token"]
    at.slider(key="shared.d_k").set_value(5).run()
    assert payload(at)[0]["token"] == token  # the browser keeps its own step across a rerun
    at.query_params["step"] = "5"  # Back to an older address, or a link opened in this tab
    at.run()
    assert payload(at)[0]["token"] != token and payload(at)[0]["view"]["step"] == 5


def test_changing_a_slider_sends_new_numbers():
    at = open_app()
    header, values = payload(at)
    assert matrix(header, values, "q.1").shape == (2, 4)
    at.slider(key="shared.d_k").set_value(6).run()
    header, values = payload(at)
    assert matrix(header, values, "q.1").shape == (2, 6)


def test_textbook_example_shows_the_articles_numbers():
    at = open_app(walk="textbook")
    header, values = payload(at)
    assert header["variant"] == "textbook" and header["enter"] == {"step": 3}  # it opens at its first number, the raw scores
    np.testing.assert_array_equal(matrix(header, values, "raw.1")[0], [112.0, 96.0])
    np.testing.assert_array_equal(matrix(header, values, "scaled.1")[0], [14.0, 12.0])
    assert "√d_k = √64 = 8" in step_text(header, "scaled")
    weights = matrix(header, values, "weights.1")[0]
    assert run([("cellText", [float(w), 2]) for w in weights]) == ["0.88", "0.12"]
    assert "0.88" not in step_text(header, "raw")  # the weights wait for the softmax step (lesson stop 1 asks)
    assert at.query_params["walk"] == "textbook" and "d_k" not in at.query_params  # the example fixes d_k = 64
    assert header["sentence"] is None  # its sentence is the article's


def focus_expected(head, keys: tuple[str, ...], query: int) -> dict:
    """The focused query's tables as the server's own helpers print them (an independent copy of the rules)."""
    from views.widgets.walk import FOCUS_DECIMALS, MAX_FOCUS_DIMS, focus_places

    places, terms = focus_places(head, query)
    shown = min(head.v.shape[1], MAX_FOCUS_DIMS)
    weights = figures.cell_text(head.weights[query], FOCUS_DECIMALS)
    divisor = figures.number_text(figures.units(head.divisor, places), places).rstrip("0").rstrip(".")
    return {
        "divisor": divisor,
        "scores": [[str(j + 1), key, figures.cell_text(head.raw_scores[query, j:j + 1], places)[0],
                    figures.cell_text(head.masked_scores[query, j:j + 1], FOCUS_DECIMALS)[0], weights[j]] for j, key in enumerate(keys)],
        "weighted": [[f"{weights[j]} × v{j + 1} ({key})", *figures.cell_text(head.weights[query, j] * head.v[j, :shown], terms)]
                     for j, key in enumerate(keys)],
        "sum": list(figures.cell_text(head.output[query, :shown], FOCUS_DECIMALS)), "shown": shown,
    }


@pytest.mark.parametrize(("text", "query", "mode"), [("the cat sat on the mat", 1, "soft"), ("她正在吃一个绿色的苹果", 4, "local"),
                                                     ("Thinking Machines", 0, "soft")])
def test_focus_on_one_word_is_the_articles_figure_as_tables(text, query, mode):
    at = open_app(text=text, mode=mode)
    header, values = payload(at)
    head = explain(text, mode=mode, d_model=8, d_k=4).trace.heads[0]
    keys = tuple(header["keys"])
    meta = header["focus"]["heads"][0]
    places, terms = values[meta["places"]["offset"] + 2 * query : meta["places"]["offset"] + 2 * query + 2]
    row = lambda id_: [number(x) for x in matrix(header, values, id_)[query]]
    (got,) = run([("focusTables", [row("raw.1"), row("masked.1"), row("weights.1"), [number(x) for x in matrix(header, values, "v.1").ravel()],
                                   head.v.shape[1], row("output.1"), meta["divisor"], int(places), int(terms), list(keys),
                                   header["focus"]["dims"], header["focus"]["decimals"]])])
    assert got == focus_expected(head, keys, query)
    np.testing.assert_allclose([float(s[4]) for s in got["scores"]], head.weights[query], atol=5e-5)


def test_empty_sentence_shows_a_prompt_and_the_box():
    header, _ = payload(open_app(text="   "))
    assert header["steps"] == [] and "Type a sentence above" in header["message"]
    assert header["sentence"]["text"] == "   "


def test_very_long_text_is_cut_with_a_message():
    at = open_app(text="word " * 2000)
    text = all_text(at)
    assert "only the first 2000 are used" in text
    assert f"only the first {MAX_TOKENS} are shown" in text
    assert len(payload(at)[0]["tokens"]) == MAX_TOKENS


@pytest.mark.parametrize(
    "text",
    ['<script>alert("x")</script>', '<img src=x onerror=alert(1)>', "[link](javascript:alert(1)) **bold** $x$", "I ❤️ attention 😀"],
)
def test_hostile_text_travels_as_data_never_as_html(text):
    header, _ = payload(open_app(text=text, focus="2"))
    html = [step["body"] for step in header["steps"]] + [b.get("html", "") for step in header["steps"] for b in step["blocks"]]
    assert not any("<script" in h or "<img" in h or "javascript:" in h for h in html)  # markup comes from assets/ only
    assert all("<" not in token or "&lt;" not in token for token in header["tokens"])  # tokens stay raw text, drawn as text


@pytest.mark.parametrize(
    ("params", "expect", "widget", "value"),
    [
        ({"d_k": "999"}, "d_k = 999, which is out of range (1–128); using 128", "shared.d_k", 128),
        ({"d_model": "-3"}, "d_model = -3, which is out of range (2–128); using 2", "shared.d_model", 2),
        ({"heads": "banana"}, "heads = banana is not understood; using the default 1", "shared.heads", 1),
        ({"heads": "77"}, "heads = 77, which is out of range (1–8); using 8", "shared.heads", 8),
        ({"score": "<b>x</b>"}, "not understood; using the default scaled_dot", "shared.score", "scaled_dot"),
        ({"seed": "nan"}, "seed = nan is not understood", "shared.seed", 0),
        ({"d_k": "inf"}, "using 128", "shared.d_k", 128),
        ({"pe": "maybe"}, "positional encoding = maybe is not understood", "shared.pe", True),
        ({"step": "99"}, "step = 99, which is out of range (1–6); using 6", None, None),  # the steps this view has
        ({"focus": "0"}, "word in focus = 0, which is out of range (1–2); using 1", None, None),  # the words this sentence has
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


@pytest.mark.parametrize(("score", "mode"), [("dot", "soft"), ("scaled_dot", "hard"), ("additive", "local"), ("bilinear", "local-monotonic"),
                                             ("cosine", "soft")])
def test_each_score_and_each_mode_sends_every_step(score, mode):
    """Each score and each mode once (not their 20 pairs: opening every page is the smoke test of test_shell_registry):
    every step's matrices, the masked scores in the local modes only, the raw scores' arithmetic for the dot products."""
    header, values = payload(open_app(score=score, mode=mode, text="the cat sat on the mat", heads="2"))
    assert len(step_ids(header)) == 7
    for step in step_ids(header):
        for h in (1, 2):
            for id_ in step_matrices(header, step, h):
                assert matrix(header, values, id_).size
    assert ("masked" in "".join(step_matrices(header, "softmax"))) == mode.startswith("local")
    assert ("arithmetic" in header["matrices"]["raw.1"]) == (score in ("dot", "scaled_dot"))


def test_chinese_sentence_and_language_switch():
    at = open_app(text="她正在吃一个绿色的苹果", step="3")
    assert len(payload(at)[0]["matrices"]["raw.1"]["columns"]) == 11
    at.radio(key="shared.lang").set_value("zh").run()
    assert at.query_params["lang"] == "zh"
    header, _ = payload(at)
    assert header["steps"][2]["title"] == "原始分数" and header["texts"]["next"] == "下一步 ▶"


@pytest.mark.parametrize("seed", range(6))
def test_every_querys_focus_decimals_at_once_are_each_querys_own(seed):
    """The payload computes the focus tables' decimals for every query at once: the same as one query at a time."""
    from views.widgets.walk import every_focus_places, focus_places

    text = ("the cat sat on the mat", "她正在吃一个绿色的苹果", "The animal didn't cross the street because it was too tired")[seed % 3]
    for head in explain(text, d_k=2 + seed, heads=2, d_model=8, seed=seed, mode=("soft", "local", "hard")[seed % 3],
                        score=("scaled_dot", "dot", "cosine")[seed % 3]).trace.heads:
        every = every_focus_places(head)
        assert [tuple(int(x) for x in row) for row in every] == [focus_places(head, i) for i in range(head.weights.shape[0])]


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
    assert next(s for s in header["steps"] if s["id"] == "qkv")["blocks"][0]["type"] == "row"


def test_json_export_round_trip(downloads):
    """The file the page's own "download JSON" button gives is this view (the sentence, two heads) and reads back."""
    at = open_app(text=SENTENCE, heads="2")
    button = at.get("download_button")
    keys = [b.proto.id for b in button]
    assert any("download-json" in key for key in keys)
    exported = downloads(next(b for b in button if "download-json" in b.proto.id))
    e = explain(SENTENCE, heads=2, max_tokens=48)
    from attention_core import to_json

    again = from_json(exported)
    np.testing.assert_array_equal(again.trace.output, e.trace.output)
    assert json.loads(exported)["options"]["heads"] == 2 and to_json(again) == exported


def test_every_matrix_has_a_description_and_the_page_has_no_second_csv():
    at = open_app(text=SENTENCE, all="1", heads="2")
    header, _ = payload(at)
    assert all(m["alt"].startswith("Heatmap “") and m["title"] in m["alt"] for m in header["matrices"].values())
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
        blocks = step["blocks"] + [inner for b in step["blocks"] if b["type"] == "row" for inner in b["children"]]
        hidden = [b["hide"] for b in blocks if b["type"] == "matrix" and b["matrix"] not in ("wq", "wk", "wv", "w_o")]  # weights W are no answer
        assert all(hidden) == (step["id"] in ("raw", "scaled", "softmax", "output", "heads")), step["id"]
        assert any(hidden) == (step["id"] in ("raw", "scaled", "softmax", "output", "heads")), step["id"]


def test_a_guess_is_right_with_the_key_and_the_weight_within_a_tenth():
    from views.widgets.hands_on import predict_verdict

    weights = np.array([0.1, 0.62, 0.28])
    assert predict_verdict(weights, 1, 0.55) == "right" and predict_verdict(weights, 1, 0.72) == "right"
    assert predict_verdict(weights, 1, 0.4) == "off_weight" and predict_verdict(weights, 2, 0.62) == "wrong_key"
    assert predict_verdict(weights, None, None) == "wrong_key"


def test_walkthrough_with_pretrained_weights(model):
    at = open_app(walk="pretrained", layer="2", head="4", step="2", text="the cat sat on the mat")
    header, values = payload(at)
    assert header["note"].startswith("Real weights of all-MiniLM-L6-v2, layer 2") and header["heads"] == 12
    assert header["view"]["head"] == 4 and header["walks"]["layer"] == 2
    trace = model.run("the cat sat on the mat")
    np.testing.assert_allclose(matrix(header, values, "weights.4"), trace.attentions[1][3], atol=1e-12)
    assert matrix(header, values, "raw.4").shape == (8, 8) and matrix(header, values, "tokens-x").shape == (8, 385)
    assert len(payload(at)[0]) and len(at.get("bidi_component")[0].proto.bytes) < 400_000  # 12 heads, no 385 × 32 W


def test_the_walks_parts_are_cached_by_its_identity_and_never_hash_the_walk():
    """``walk_parts`` is one ``st.cache_resource`` shared by every session: its key is the walk's identity (how its numbers
    were made), the layout, language and box; the walk itself (``_walk``) is carried past the key, never hashed."""
    from views.shell.page import SCREEN
    from views.walkthrough import Message, walk_parts

    class Unhashable(Message):
        def __reduce__(self):  # Streamlit's hasher would fall back to pickling an unknown object
            raise AssertionError("the walk was hashed")

    first = walk_parts(("message", "cached once"), Unhashable("cached once"), SCREEN, "en", None, "random", 1)
    again = walk_parts(("message", "cached once"), Unhashable("another walk"), SCREEN, "en", None, "random", 1)
    assert again is first
    other = walk_parts(("message", "cached once"), Unhashable("cached once"), SCREEN, "zh", None, "random", 1)
    assert other is not first
