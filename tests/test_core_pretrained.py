"""The NumPy BERT forward pass against the reference implementation, and the Real model page."""

import numpy as np
import pytest
from conftest import ROOT, all_text, figure_titles, figures, matrix, open_app, payload, tables, z_values

from attention_core.pretrained import MAX_WORD_PIECES, MiniLM, ModelMissing, head_summary, model_folder, overview

REFERENCE = np.load(ROOT / "tests" / "reference" / "minilm.npz")
REAL = "real"


@pytest.fixture(scope="module")
def model():
    return MiniLM.load()


@pytest.mark.parametrize("index", range(len(REFERENCE["sentences"])))
def test_matches_the_reference_implementation(model, index):
    """tests/reference/minilm.npz: transformers' BertModel in float64 (versions in the file; see scripts/make_reference.py)."""
    sentence = str(REFERENCE["sentences"][index])
    trace = model.run(sentence)
    ids, _, _ = model.encode(sentence)
    assert ids == REFERENCE[f"ids_{index}"].tolist()
    np.testing.assert_allclose(trace.attentions, REFERENCE[f"attentions_{index}"], atol=1e-4)
    np.testing.assert_allclose(trace.hidden, REFERENCE[f"hidden_{index}"], atol=1e-4)
    np.testing.assert_allclose(trace.inputs, REFERENCE[f"inputs_{index}"], atol=1e-4)
    np.testing.assert_allclose(trace.attentions.sum(axis=-1), 1.0)


def test_word_pieces_and_the_128_limit(model):
    trace = model.run("The animal didn't cross the street")
    assert trace.tokens[0] == "[CLS]" and trace.tokens[-1] == "[SEP]" and "didn" in trace.tokens
    long = model.run("word " * 200)
    assert len(long.tokens) == MAX_WORD_PIECES and long.tokens[-1] == "[SEP]" and long.dropped == 202 - MAX_WORD_PIECES


def test_the_walkthrough_view_of_a_layer_is_exact(model):
    trace = model.run("the cat sat on the mat")
    e = model.explanation(trace, 2)
    head = e.trace.heads[5]
    np.testing.assert_allclose(head.q, e.x @ e.projections.w_q[:, 160:192], atol=1e-12)
    np.testing.assert_allclose(head.weights, trace.attentions[2, 5], atol=1e-12)
    np.testing.assert_array_equal(e.x[:, -1], 1.0)


def test_head_summary_and_overview(model):
    trace = model.run("The animal didn't cross the street because it was too tired.")
    shares = head_summary(trace)
    assert shares["previous"].shape == (6, 12)
    assert shares["previous"][0, 2] > 0.9  # layer 1, head 3 attends to the previous token on this sentence
    for name in ("previous", "next", "self", "cls", "sep"):
        assert np.all((shares[name] >= 0) & (shares[name] <= 1 + 1e-12))
    n = len(trace.tokens)
    assert overview(trace).shape == (6 * (n + 1) - 1, 12 * (n + 1) - 1)


def test_missing_model_is_reported(monkeypatch, tmp_path):
    monkeypatch.setenv("MINILM_DIR", str(tmp_path))
    with pytest.raises(ModelMissing):
        model_folder()
    at = open_app(REAL)
    assert "not installed" in "\n".join(e.value for e in at.error) and not figures(at)
    walk = open_app(walk="pretrained", step="3")
    assert "not installed" in "\n".join(w.value for w in walk.warning)
    assert payload(walk)[0]["variant"] == "random"  # random weights instead
    for page in ("types", "scaling"):
        assert figures(open_app(page))


def test_real_page_controls():
    at = open_app(REAL, text="The animal didn't cross the street because it was too tired.")
    assert "layer 1 head 3" in all_text(at)
    at.segmented_control(key="real.layer").set_value(3).run()
    at.select_slider(key="real.head").set_value(8).run()
    assert "Layer 3, head 8: weights" in figure_titles(at)
    at.toggle(key="real.hide").set_value(True).run()
    head = figures(at)[0]
    assert "[CLS]" not in head["layout"]["xaxis"]["ticktext"] and z_values(head).shape == (14, 14)
    assert (at.query_params["layer"], at.query_params["head"], at.query_params["hide"]) == ("3", "8", "1")
    assert len(tables(at)["What each head does, measured"]) == 72  # every head in the page, not the ten a grid shows


def test_real_page_chinese_and_long_input():
    at = open_app(REAL, text="她正在吃一个绿色的苹果", lang="zh")
    assert "用英文训练" in all_text(at)
    long = open_app(REAL, text="word " * 300)
    assert "were cut" in all_text(long)


def test_walkthrough_with_pretrained_weights(model):
    at = open_app(walk="pretrained", layer="2", head="4", step="2", text="the cat sat on the mat")
    header, values = payload(at)
    assert header["note"].startswith("Real weights of all-MiniLM-L6-v2, layer 2") and header["heads"] == 12
    assert header["view"]["head"] == 4 and header["walks"]["layer"] == 2
    trace = model.run("the cat sat on the mat")
    np.testing.assert_allclose(matrix(header, values, "weights.4"), trace.attentions[1][3], atol=1e-12)
    assert matrix(header, values, "raw.4").shape == (8, 8) and matrix(header, values, "tokens-x").shape == (8, 385)
    assert len(payload(at)[0]) and len(at.get("bidi_component")[0].proto.bytes) < 400_000  # 12 heads, no 385 × 32 W


def test_the_batched_forward_pass_is_the_head_by_head_one(model):
    """``forward`` (every head at once, a batch of sentences) against ``attention_layer`` (each head through the core's
    ``attend``), layer by layer."""
    trace = model.run("The animal didn't cross the street because it was too tired.")
    for layer in range(6):
        heads = model.attention_layer(layer, trace.inputs[layer])
        np.testing.assert_allclose(trace.attentions[layer], np.stack([h.weights for h in heads.heads]), atol=1e-12)
