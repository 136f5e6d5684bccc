"""The core against numbers computed by hand (the working is in the comments)."""

import math

import numpy as np
import pytest

from attention_core import (
    SCORES,
    attend,
    causal_mask,
    embed,
    explain,
    init_projections,
    positional_encoding,
    softmax,
    textbook_example,
    tokenize,
    window_mask,
)

E2 = math.e**2  # softmax([2, 0]) = [e^2, 1] / (e^2 + 1)


def test_tokenize_words_punctuation_and_repeats():
    assert tokenize("the cat sat on the mat") == ["the", "cat", "sat", "on", "the", "mat"]
    assert tokenize("  Hello,   world!  ") == ["Hello", ",", "world", "!"]
    assert tokenize("The animal didn't cross") == ["The", "animal", "didn't", "cross"]


def test_tokenize_chinese_one_character_each():
    tokens = tokenize("她正在吃一个绿色的苹果")
    assert len(tokens) == 11
    assert tokens[:4] == ["她", "正", "在", "吃"]
    assert tokenize("我爱NLP。") == ["我", "爱", "NLP", "。"]


def test_tokenize_drops_control_and_invisible_characters():
    assert tokenize("a\x00b\u200b c\td\n") == ["ab", "c", "d"]
    assert tokenize("") == []
    assert tokenize(" \t\n ") == []
    assert tokenize("<b>hi</b>") == ["<", "b", ">", "hi", "<", "/", "b", ">"]
    assert tokenize("I ❤️ it 😀") == ["I", "❤", "it", "😀"]


def test_tokenize_rejects_non_text():
    with pytest.raises(ValueError, match="string"):
        tokenize(None)  # type: ignore[arg-type]


def test_positional_encoding_by_hand():
    pe = positional_encoding(2, 4)
    # pos 0: sin 0, cos 0, sin 0, cos 0;  pos 1: sin 1, cos 1, sin(1/100), cos(1/100)
    np.testing.assert_allclose(pe[0], [0, 1, 0, 1])
    np.testing.assert_allclose(pe[1], [0.8414709848, 0.5403023059, 0.0099998333, 0.9999500004], atol=1e-10)
    assert positional_encoding(3, 5).shape == (3, 5)


def test_embedding_is_a_function_of_the_token():
    a = embed(["cat", "sat"], 8, positions=False)
    b = embed(["the", "cat"], 8, positions=False)
    np.testing.assert_array_equal(a[0], b[1])
    assert not np.array_equal(a[0], embed(["cat"], 8, seed=1, positions=False)[0])
    with_pe = embed(["cat", "sat"], 8)
    np.testing.assert_allclose(with_pe - a, positional_encoding(2, 8))


def test_embedding_is_stable_across_runs():
    # Pinned: SHAKE-256 of "0\x1fThinking" through Box-Muller; changing it changes every saved link.
    np.testing.assert_allclose(
        embed(["Thinking"], 4, positions=False)[0],
        [0.04122467712559523, -0.4186665650063053, -0.5770909124571383, 0.2773155583516789],
        rtol=1e-12,
    )
    first = embed(["Thinking"], 2, positions=False)[0]
    np.testing.assert_allclose(embed(["Thinking"], 6, positions=False)[0, :2], first)


def test_softmax_by_hand():
    # [0, ln 3] -> [1, 3] / 4
    np.testing.assert_allclose(softmax(np.array([[0.0, math.log(3)]])), [[0.25, 0.75]])
    # mask out the second key: all weight on the first; a row with nothing allowed is all zeros
    weights = softmax(np.array([[1.0, 5.0], [1.0, 2.0]]), np.array([[True, False], [False, False]]))
    np.testing.assert_array_equal(weights, [[1.0, 0.0], [0.0, 0.0]])


def test_scaled_dot_by_hand():
    q = np.array([[1.0, 1.0, 1.0, 1.0]])
    k = np.array([[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]])
    v = np.array([[1.0, 0.0], [0.0, 1.0]])
    trace = attend(q, k, v)
    # raw = [4, 0]; divisor = sqrt(4) = 2; scaled = [2, 0]; weights = [e^2, 1] / (e^2 + 1)
    np.testing.assert_array_equal(trace.raw_scores, [[4.0, 0.0]])
    assert trace.divisor == 2.0
    np.testing.assert_array_equal(trace.scaled_scores, [[2.0, 0.0]])
    np.testing.assert_allclose(trace.weights, [[E2 / (E2 + 1), 1 / (E2 + 1)]])
    np.testing.assert_allclose(trace.weights, [[0.8807970779778823, 0.11920292202211755]])
    np.testing.assert_allclose(trace.output, trace.weights)  # v is the identity


def test_dot_bilinear_additive_cosine_by_hand():
    q = np.array([[1.0, 1.0]])
    k = np.array([[1.0, 0.0], [0.0, 1.0]])
    v = np.eye(2)
    assert attend(q, k, v, score="dot").divisor == 1.0
    np.testing.assert_array_equal(attend(q, k, v, score="dot").raw_scores, [[1.0, 1.0]])
    # bilinear q W k^T with W = diag(2, 1): [1*2*1, 1*1*1] = [2, 1]
    bilinear = attend(q, k, v, score="bilinear", params={"W": np.diag([2.0, 1.0])})
    np.testing.assert_array_equal(bilinear.raw_scores, [[2.0, 1.0]])
    # additive v^T tanh(q W + k U) with W = 0, U = I, v = [1, 1]: tanh(1) + tanh(0)
    additive = attend(q, k, v, score="additive", params={"W": np.zeros((2, 2)), "U": np.eye(2), "v": np.ones(2)})
    np.testing.assert_allclose(additive.raw_scores, [[0.7615941559557649, 0.7615941559557649]])
    # cosine of [1, 0] with [1, 0], [0, 1], [-1, 0]: 1, 0, -1; divided by the divisor 0.1
    cosine = attend(np.array([[3.0, 0.0]]), np.array([[2.0, 0.0], [0.0, 5.0], [-1.0, 0.0]]), np.eye(3), score="cosine")
    np.testing.assert_allclose(cosine.raw_scores, [[1.0, 0.0, -1.0]])
    np.testing.assert_allclose(cosine.scaled_scores, [[10.0, 0.0, -10.0]])
    flat = attend(np.array([[3.0, 0.0]]), np.array([[2.0, 0.0], [-1.0, 0.0]]), np.eye(2), score="cosine", params={"divisor": 1.0})
    np.testing.assert_allclose(flat.weights, [[E2 / (E2 + 1), 1 / (E2 + 1)]])


def test_every_score_works_with_only_q_k_v():
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
    for score in SCORES:
        trace = attend(q, k, v, score=score)
        assert trace.weights.shape == (3, 5)
        np.testing.assert_allclose(trace.weights.sum(axis=1), 1.0)


def test_temperature_divides_the_scores():
    q, k = np.array([[1.0, 1.0, 1.0, 1.0]]), np.array([[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]])
    trace = attend(q, k, np.eye(2), temperature=0.5)
    assert trace.divisor == 1.0  # sqrt(4) * 0.5
    np.testing.assert_array_equal(trace.scaled_scores, [[4.0, 0.0]])


def test_hard_attention_is_one_hot_at_the_argmax():
    q = np.array([[1.0, 0.0], [0.0, 1.0]])
    k = np.array([[2.0, 0.0], [0.0, 3.0], [1.0, 1.0]])
    trace = attend(q, k, np.eye(3), mode="hard")
    np.testing.assert_array_equal(trace.weights, [[1, 0, 0], [0, 1, 0]])
    np.testing.assert_array_equal(trace.output, trace.weights)


def test_hard_sampling_is_seeded():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(6, 3)), rng.normal(size=(6, 3))
    first = attend(q, k, np.eye(6), mode="hard", sample=True, rng=np.random.default_rng(5)).weights
    again = attend(q, k, np.eye(6), mode="hard", sample=True, rng=np.random.default_rng(5)).weights
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first.sum(axis=1), 1.0)


def test_masks_by_hand():
    np.testing.assert_array_equal(causal_mask(3), [[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    np.testing.assert_array_equal(
        window_mask(4, radius=1), [[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]]
    )
    np.testing.assert_array_equal(window_mask(2, 5, radius=1, centres=np.array([4, 2])), [[0, 0, 0, 1, 1], [0, 1, 1, 1, 0]])


def test_local_monotonic_softmax_inside_the_window():
    x = np.random.default_rng(2).normal(size=(5, 4))
    trace = attend(x, x, x, mode="local-monotonic", window=1)
    np.testing.assert_array_equal(trace.weights == 0, ~window_mask(5, radius=1))
    np.testing.assert_array_equal(trace.centres, np.arange(5))
    assert np.isneginf(trace.masked_scores[0, 3])


def test_local_centre_found_by_hard_attention():
    q = np.array([[0.0, 1.0]])
    k = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 5.0], [0.0, 0.0], [0.0, 0.0]])
    trace = attend(q, k, np.eye(6), mode="local", window=1)
    assert trace.centres.tolist() == [3]  # the argmax key
    np.testing.assert_array_equal(trace.weights[0] > 0, [0, 0, 1, 1, 1, 0])


def test_a_row_with_nothing_allowed_is_zero_not_nan():
    q = np.ones((2, 2))
    mask = np.array([[True, True], [False, False]])
    for mode in ("soft", "hard", "local"):
        trace = attend(q, q, q, mask=mask, mode=mode)
        np.testing.assert_array_equal(trace.weights[1], [0.0, 0.0])
        np.testing.assert_array_equal(trace.output[1], [0.0, 0.0])


def test_extreme_scores_and_temperatures_stay_finite():
    q = np.array([[1e3, 1e3]])
    k = np.array([[1e3, 1e3], [-1e3, 1e3]])
    for temperature in (1e-3, 1e-6, 1.0, 1e6):
        trace = attend(q, k, np.eye(2), score="dot", temperature=temperature)
        assert np.all(np.isfinite(trace.weights)) and np.all(np.isfinite(trace.output))
    huge = attend(np.array([[1e150, 1e150]]), np.array([[1e160, 1e160], [1.0, 1.0]]), np.eye(2), score="dot", temperature=1e-6)
    assert np.all(np.isfinite(huge.weights))


def test_textbook_numbers():
    trace = textbook_example()
    assert trace.q.shape == (2, 64) and trace.k.shape == (2, 64)
    assert trace.raw_scores[0].tolist() == [112.0, 96.0]
    assert trace.raw_scores[0, 0] == trace.q[0] @ trace.k[0]  # computed, not written in
    assert trace.divisor == 8.0
    assert trace.scaled_scores[0].tolist() == [14.0, 12.0]
    np.testing.assert_allclose(trace.weights[0], [0.8808, 0.1192], atol=5e-5)
    assert round(trace.weights[0, 0], 2) == 0.88 and round(trace.weights[0, 1], 2) == 0.12


def test_init_projections_shapes_glorot_range_and_shared_qk():
    w = init_projections(8, 4, 3, 2, seed=0)
    assert w.w_q.shape == (8, 8) and w.w_k.shape == (8, 8) and w.w_v.shape == (8, 6) and w.w_o.shape == (6, 8)
    assert np.abs(w.w_q).max() <= math.sqrt(6 / 16) and np.abs(w.w_o).max() <= math.sqrt(6 / 14)
    shared = init_projections(8, 4, 3, 2, seed=0, shared_qk=True)
    np.testing.assert_array_equal(shared.w_k, shared.w_q)
    np.testing.assert_array_equal(shared.w_v, w.w_v)  # W_V does not depend on sharing
    np.testing.assert_array_equal(init_projections(8, 4, 3, 2, seed=0).w_q, w.w_q)


def test_explain_pipeline():
    e = explain("the cat sat on the mat", d_model=8, d_k=4, heads=2)
    assert e.tokens == ("the", "cat", "sat", "on", "the", "mat")
    assert e.x.shape == (6, 8) and len(e.trace.heads) == 2
    np.testing.assert_allclose(e.x, e.token_vectors + e.positional)
    np.testing.assert_array_equal(e.token_vectors[0], e.token_vectors[4])  # the same word, the same vector
    assert not np.array_equal(e.x[0], e.x[4])  # ... at different positions
    head = e.trace.heads[0]
    np.testing.assert_allclose(head.q, e.x @ e.projections.w_q[:, :4])
    assert e.trace.output.shape == (6, 8)
    assert not e.is_cross


def test_explain_cuts_and_counts_tokens():
    e = explain("one two three four five", max_tokens=3)
    assert e.tokens == ("one", "two", "three") and e.dropped == (2, 0)


def test_explain_cross_attention():
    e = explain("Je suis étudiant", context="I am a student", d_model=8, d_k=4)
    assert e.is_cross
    assert e.trace.heads[0].weights.shape == (3, 4)
    np.testing.assert_allclose(e.trace.heads[0].weights.sum(axis=1), 1.0)


def test_trace_arrays_are_read_only():
    e = explain("Thinking Machines")
    with pytest.raises(ValueError):
        e.trace.heads[0].weights[0, 0] = 1.0
    with pytest.raises(ValueError):
        e.x[0, 0] = 1.0
    q = np.ones((2, 2))
    attend(q, q, q)
    q[0, 0] = 2.0  # the caller's arrays stay writable


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: explain("a b", d_k=0), "d_k must be between 1 and 4096, got 0"),
        (lambda: explain("a b", d_model=5000), "d_model must be between 1 and 4096, got 5000"),
        (lambda: explain("a b", heads=0), "heads must be between 1 and 64, got 0"),
        (lambda: explain("a b", score="dotty"), "score must be one of dot, scaled_dot, additive, bilinear, cosine"),
        (lambda: explain("a b", mode="medium"), "mode must be one of soft, hard, local, local-monotonic"),
        (lambda: explain("a b", temperature=0), "temperature must be between"),
        (lambda: explain("a b", seed=-1), "seed must be between 0 and"),
        (lambda: explain("   "), "nothing to attend to"),
        (lambda: attend(np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 2))), "k must have 3 columns"),
        (lambda: attend(np.ones((2, 3)), np.ones((2, 3)), np.ones((3, 2))), "one row per key"),
        (lambda: attend(np.full((1, 1), np.nan), np.ones((1, 1)), np.ones((1, 1))), "finite"),
        (lambda: attend(np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 2)), mask=np.ones((3, 3), bool)), "mask must have shape"),
        (lambda: attend(np.ones((1, 2)), np.ones((1, 2)), np.ones((1, 1)), score="bilinear", params={}), "needs parameters W"),
        (lambda: attend(np.ones((1, 2)), np.ones((1, 2)), np.ones((1, 1)), score="bilinear", params={"W": np.ones((3, 3))}), "shape"),
    ],
)
def test_bad_arguments_say_what_is_valid(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()
