"""Multi-head cost and diversity, cross and general attention, hierarchical attention, the RNN."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import (
    complexity,
    embed,
    explain,
    general_attention,
    head_distances,
    hierarchical,
    init_rnn,
    jensen_shannon_bits,
    multi_head_cost,
    reach,
    rnn,
    split_sentences,
)


def test_multi_head_cost_by_hand():
    # n = 2, d_model = 4, d_k = d_v = 2, h = 2: projections 2*4*2*2 + 2*4*2*(2+2) = 32 + 64; scores 2*2*2*2 = 16;
    # weighted sum 16; output 2*2*2*4 = 32
    assert multi_head_cost(2, 2, 4, 2, 2, 2) == {"projections": 96, "scores": 16, "weighted_sum": 16, "output": 32, "total": 160}


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 64), st.sampled_from([1, 2, 4, 8]))
def test_fixed_d_model_costs_the_same_for_any_number_of_heads(n, heads):
    d_model = 64
    split = multi_head_cost(n, n, d_model, d_model // heads, d_model // heads, heads)
    assert split["total"] == multi_head_cost(n, n, d_model, d_model, d_model, 1)["total"]


def test_multi_head_shapes_and_concat():
    e = explain("the cat sat on the mat", d_model=8, d_k=3, d_v=2, heads=4)
    assert e.trace.concat.shape == (6, 8) and e.trace.output.shape == (6, 8)
    np.testing.assert_array_equal(e.trace.concat[:, 2:4], e.trace.heads[1].output)


def test_head_distances():
    e = explain("the cat sat on the mat", heads=3)
    distances = head_distances(e.trace.heads)
    assert distances.shape == (3, 3)
    np.testing.assert_allclose(np.diag(distances), 0.0, atol=1e-12)
    np.testing.assert_allclose(distances, distances.T)
    assert np.all((distances >= 0) & (distances <= 1))
    np.testing.assert_allclose(jensen_shannon_bits(np.array([1.0, 0.0]), np.array([0.0, 1.0])), 1.0)


def test_cross_attention_shapes_and_rows():
    e = explain("我是一个学生", context="I am a student", heads=2)
    for head in e.trace.heads:
        assert head.weights.shape == (6, 4)
        np.testing.assert_allclose(head.weights.sum(axis=1), 1.0)
    assert e.context_tokens == ("I", "am", "a", "student")


def test_general_attention_is_one_outside_query_over_the_passage():
    passage, question = general_attention("Where did the cat sit?", "The cat sat on the mat.")
    assert question.weights.shape == (1, len(passage.tokens))
    np.testing.assert_allclose(question.weights.sum(), 1.0)
    np.testing.assert_array_equal(question.k, passage.trace.heads[0].k)


def test_split_sentences():
    assert split_sentences("One. Two! Three? 四。五！六？") == ["One.", "Two!", "Three?", "四。", "五！", "六？"]
    assert split_sentences("no end mark") == ["no end mark"]
    assert split_sentences(" ... !!! ") == []


def test_hierarchical_weights_sum_to_one_per_level():
    trace = hierarchical("The cat sat. It slept! 狗叫了。", d_model=6)
    assert len(trace.words) == 3 and trace.tokens[2] == ("狗", "叫", "了", "。")
    for pool in trace.words:
        np.testing.assert_allclose(pool.weights.sum(), 1.0)
        np.testing.assert_allclose(pool.pooled, pool.weights @ pool.hidden)
    np.testing.assert_allclose(trace.document.weights.sum(), 1.0)
    np.testing.assert_allclose(trace.document.hidden, np.stack([p.pooled for p in trace.words]))


def test_hierarchical_limits():
    document = " ".join(f"Sentence number {i} " + "word " * 60 + "." for i in range(20))
    trace = hierarchical(document, max_sentences=12, max_tokens=48)
    assert len(trace.sentences) == 12 and trace.dropped[0] == 8
    assert all(len(tokens) == 48 for tokens in trace.tokens) and trace.dropped[1] == 12 * (3 + 60 + 1 - 48)
    with pytest.raises(ValueError, match="nothing to attend to"):
        hierarchical("...")


def test_rnn_state_depends_only_on_earlier_tokens():
    weights = init_rnn(8, 6, seed=1)
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    changed = tokens[:3] + ["under", "a", "chair"]
    a, b = rnn(embed(tokens, 8), weights), rnn(embed(changed, 8), weights)
    np.testing.assert_array_equal(a[:3], b[:3])
    assert not np.allclose(a[3:], b[3:])


def test_rnn_by_hand():
    from attention_core.rnn import RNNParameters

    params = RNNParameters(w_x=np.array([[1.0]]), w_h=np.array([[0.5]]), b=np.array([0.0]))
    h = rnn(np.array([[1.0], [0.0]]), params)
    np.testing.assert_allclose(h[:, 0], [np.tanh(1.0), np.tanh(0.5 * np.tanh(1.0))])


def test_reach():
    np.testing.assert_array_equal(reach(3, 2, model="rnn"), [[1, 0, 0], [1, 1, 0], [0, 0, 0]])
    assert reach(3, 1, model="attention").all() and not reach(3, 0, model="attention").any()
    with pytest.raises(ValueError, match="rnn, attention"):
        reach(3, 1, model="cnn")


def test_complexity_matches_table_one():
    n = np.array([1.0, 10.0, 64.0, 100.0])
    table = complexity(n, 64)
    np.testing.assert_array_equal(table["rnn"]["compute"], n * 64 * 64)
    np.testing.assert_array_equal(table["attention"]["compute"], n * n * 64)
    np.testing.assert_array_equal(table["rnn"]["sequential"], n)
    np.testing.assert_array_equal(table["attention"]["path"], 1.0)
    crossing = table["rnn"]["compute"] == table["attention"]["compute"]
    assert n[crossing].tolist() == [64.0]  # the curves cross at n = d
