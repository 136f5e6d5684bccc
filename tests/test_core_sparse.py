"""Sparse top-k attention (attention_core/sparse.py): the lightning indexer by hand and as its sum written out, top-k
attention against a loop and against masked attention with the indexer's top-k mask built here, k = n equal to dense
attention exactly; the sweep, the pairs and the cost with DeepSeek-V3.2's published sizes by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.fast import full_attention
from attention_core.sparse import (
    SPARSE_SHAPES,
    IndexerWeights,
    init_indexer,
    lightning_indexer,
    sparse_attention,
    sparse_cost,
    sparse_sweep,
    top_k_keys,
    top_k_pairs,
)


def masked_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray, divisor: float) -> np.ndarray:
    """softmax(q k^T / divisor) v over the keys where mask (n_q, n_k) is True, -inf elsewhere: scaled_dot_product_attention
    with a boolean mask, written as its definition (max subtracted, then exp and a row sum)."""
    s = np.where(mask, q @ k.T / divisor, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ v


def test_the_lightning_indexer_by_hand():
    w = IndexerWeights(w_q=np.array([[[1.0], [-1.0]]]), w_k=np.array([[2.0], [1.0]]), w_w=np.array([[1.0], [3.0]]))
    t = lightning_indexer(np.eye(2), w)
    assert t.q[0].tolist() == [[1.0], [-1.0]] and t.k.tolist() == [[2.0], [1.0]] and t.head_weights.tolist() == [[1.0], [3.0]]
    assert t.scores.tolist() == [[2.0, 1.0], [0.0, 0.0]]  # ReLU(-2), ReLU(-1): the second query's dots are cut to 0


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 10), d_model=st.integers(1, 8), heads=st.integers(1, 4), d_i=st.integers(1, 4), seed=st.integers(0, 10**6))
def test_the_indexer_is_its_sum_written_out(n, d_model, heads, d_i, seed):
    w = init_indexer(d_model, heads, d_i, seed=seed)
    x = np.random.default_rng(seed).standard_normal((n, d_model))
    scores = lightning_indexer(x, w).scores
    for t in range(n):
        for s in range(n):
            by_hand = sum((x[t] @ w.w_w)[j] * max(0.0, (x[t] @ w.w_q[j]) @ (x[s] @ w.w_k)) for j in range(heads))
            assert scores[t, s] == pytest.approx(by_hand, abs=1e-12)


def test_top_k_keys_by_hand_with_ties_to_the_earlier_key():
    scores = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 5.0], [1.0, 1.0, 1.0]])
    assert top_k_keys(scores, 2).tolist() == [[True, False, True], [False, True, True], [True, True, False]]
    assert top_k_keys(scores, 1).tolist() == [[True, False, False], [False, True, False], [True, False, False]]
    causal = np.tril(np.ones((3, 3), dtype=bool))
    assert top_k_keys(scores, 2, causal).tolist() == [[True, False, False], [True, True, False], [True, True, False]]
    assert top_k_keys(scores, 1, causal).tolist() == [[True, False, False], [False, True, False], [True, False, False]]
    with pytest.raises(ValueError, match="top_k must be between 1 and 3"):
        top_k_keys(scores, 4)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 12), d=st.integers(1, 5), causal=st.booleans(), ties=st.booleans(), data=st.data())
def test_top_k_attention_keeps_the_k_best_keys_and_k_equal_n_is_dense_attention_exactly(n, d, causal, ties, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 10**6)))
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    index = rng.integers(0, 3, (n, n)).astype(float) if ties else rng.standard_normal((n, n))
    top_k = data.draw(st.integers(1, n))
    t = sparse_attention(q, k, v, index, top_k, causal=causal)
    for i in range(n):  # the kept keys, by a loop: the allowed keys sorted by score, the earlier first among equals
        seen = range(i + 1) if causal else range(n)
        chosen = sorted(seen, key=lambda j: (-index[i, j], j))[:top_k]
        assert set(np.flatnonzero(t.kept[i])) == set(chosen)
    assert not t.weights[~t.kept].any()
    np.testing.assert_allclose(t.weights.sum(axis=1), 1.0, rtol=1e-13)
    dense = sparse_attention(q, k, v, index, n, causal=causal)
    np.testing.assert_array_equal(dense.output, dense.dense_output)  # k = n: the same numbers, not merely close
    np.testing.assert_array_equal(dense.weights, dense.dense_weights)
    assert dense.distance == 0.0 and dense.kept_mass == pytest.approx(1.0, abs=1e-15)
    if not causal:
        np.testing.assert_allclose(dense.output, full_attention(q, k, v), rtol=0, atol=1e-14)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 10), d_model=st.integers(1, 6), d=st.integers(1, 5), causal=st.booleans(), seed=st.integers(0, 10**6))
def test_top_k_attention_is_masked_attention_with_the_indexers_top_k(n, d_model, d, causal, seed):
    """For every k from 1 to n: the core's top-k output equals masked scaled_dot_product_attention (written in the test)
    with a boolean mask built here from the lightning indexer's scores: per query, the allowed keys sorted by score
    descending, ties to the earlier key (numpy's stable argsort of -score, as the core documents), the first k kept.
    At k = n it is dense (causal or full) attention."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model))
    index = np.round(lightning_indexer(x, init_indexer(d_model, 2, 2, seed=seed)).scores, 1)  # rounded: ties happen
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    allowed = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)
    for top_k in range(1, n + 1):
        mask = np.zeros((n, n), dtype=bool)
        for i in range(n):
            seen = [j for j in range(n) if allowed[i, j]]
            ranked = sorted(seen, key=lambda j, i=i: (-index[i, j], j))
            mask[i, ranked[:top_k]] = True
        t = sparse_attention(q, k, v, index, top_k, causal=causal)
        np.testing.assert_array_equal(t.kept, mask)
        np.testing.assert_allclose(t.output, masked_attention(q, k, v, mask, math.sqrt(d)), rtol=0, atol=1e-12)
    np.testing.assert_allclose(t.output, masked_attention(q, k, v, allowed, math.sqrt(d)), rtol=0, atol=1e-12)  # k = n: dense


def test_the_sweep_ends_at_dense_attention_and_the_oracle_keeps_the_most_weight():
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((7, 4)) for _ in range(3))
    sweep = sparse_sweep(q, k, v, rng.standard_normal((7, 7)))
    assert sweep.top_k.tolist() == list(range(1, 8))
    assert sweep.distance[-1] == 0.0 and sweep.oracle_distance[-1] == 0.0
    assert np.all(np.diff(sweep.oracle_mass) >= -1e-15)  # keeping the largest scores first: the kept weight only grows
    assert np.all(sweep.oracle_mass >= sweep.kept_mass - 1e-15)  # no choice of k keys holds more weight than the k largest


@pytest.mark.parametrize("n", [0, 1, 5, 6, 7, 40])
@pytest.mark.parametrize("top_k", [1, 6, 50])
def test_top_k_pairs_is_the_loop(n, top_k):
    assert top_k_pairs(n, top_k) == sum(min(top_k, i + 1) for i in range(n))


def test_the_cost_of_sparse_attention_with_deepseek_v3_2s_sizes_by_hand():
    shape = SPARSE_SHAPES["deepseek-v3.2"]
    assert (shape.heads, shape.d_score, shape.d_value, shape.index_heads, shape.index_dim, shape.top_k) == (128, 576, 512, 64, 128, 2048)
    cost = sparse_cost(shape, np.array([4096, 131_072]))
    pairs = 4096 * 4097 // 2
    assert cost.dense[0] == pairs * 128 * 1088 and cost.indexer[0] == pairs * 64 * 129
    assert cost.attention[0] == (2048 * 2049 // 2 + 2048 * 2048) * 128 * 1088
    assert cost.attention[1] / cost.dense[1] == pytest.approx((2048 * 2049 / 2 + (131_072 - 2048) * 2048) / (131_072 * 131_073 / 2))
    assert (cost.attention[1] + cost.indexer[1]) / cost.dense[1] < 0.1  # at 128K tokens, a tenth of the dense cost
