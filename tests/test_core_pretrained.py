"""The NumPy BERT forward pass (attention_core.pretrained) against the reference implementation: word pieces, a layer
as the walkthrough shows it, the heads' summary, the batched pass, the specials hidden."""

import numpy as np
import pytest
from conftest import ROOT

from attention_core.pretrained import MAX_WORD_PIECES, head_summary, overview

REFERENCE = np.load(ROOT / "tests" / "reference" / "minilm.npz")


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


def test_the_batched_forward_pass_is_the_head_by_head_one(model):
    """``forward`` (every head at once, a batch of sentences) against ``attention_layer`` (each head through the core's
    ``attend``), layer by layer."""
    trace = model.run("The animal didn't cross the street because it was too tired.")
    for layer in range(6):
        heads = model.attention_layer(layer, trace.inputs[layer])
        np.testing.assert_allclose(trace.attentions[layer], np.stack([h.weights for h in heads.heads]), atol=1e-12)


def test_hiding_the_specials_says_how_much_each_row_kept_before_renormalising():
    """kept_share against an explicit loop: the weight each kept row had on the kept columns, whose reciprocal is how
    much the renormalisation enlarges it."""
    from attention_core.pretrained import kept_share, without_specials

    tokens = ("[CLS]", "a", "b", "[SEP]")
    weights = np.array([[0.7, 0.1, 0.1, 0.1], [0.5, 0.2, 0.1, 0.2], [0.01, 0.01, 0.01, 0.97], [0.25, 0.25, 0.25, 0.25]])
    kept, share = kept_share(weights, tokens)
    assert kept == [1, 2]
    np.testing.assert_allclose(share, [sum(weights[i, j] for j in (1, 2)) for i in (1, 2)])
    renormalised = without_specials(weights, tokens)[1]
    np.testing.assert_allclose(renormalised * share[:, None], weights[np.ix_(kept, kept)])
    assert renormalised[1, 1] == pytest.approx(0.5)  # 0.01 of 0.02 left: a row that kept 2 % shows a 50 % weight
