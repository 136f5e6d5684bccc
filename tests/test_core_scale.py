"""Attention at today's scale (attention_core/scale.py): latent attention against the paper's formulas written per token
here, against a whole-matrix reference (RoPE as rotation matrices, masked scaled-dot-product attention) naive and absorbed,
and against multi_head when the latent is the model's width with no RoPE, absorbed = rebuilt to 1e-12; top-k attention against a loop
and against masked attention with the indexer's top-k mask built here, k = n equal to dense attention exactly; the traffic
formulas of standard attention and FlashAttention against the tiled loops run with every load and store counted; the
published sizes and the data sheets' figures pinned; hand-computed numbers throughout."""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.fast import full_attention
from attention_core.multihead import multi_head
from attention_core.scale import (
    CACHE_LAYOUTS,
    GPU,
    GPUS,
    LATENT_SHAPES,
    SPARSE_SHAPES,
    IndexerWeights,
    LatentWeights,
    Traffic,
    cache_numbers,
    equivalent_groups,
    flash_against_standard,
    flash_blocks,
    flash_sram_need,
    flash_traffic,
    init_indexer,
    init_latent,
    key_blocks,
    latent_attention,
    latent_cache_bytes,
    lightning_indexer,
    roofline,
    simulate_flash,
    simulate_standard,
    sparse_attention,
    sparse_cost,
    sparse_sweep,
    standard_traffic,
    top_k_keys,
    top_k_pairs,
)

# --- 1. Latent attention ---


def test_latent_attention_by_hand():
    """Two tokens, one head, d_h = d_c = d_cq = 1, d_r = 2: every number worked out on paper."""
    w = LatentWeights(w_dkv=np.array([[1.0], [2.0]]), w_uk=np.array([[3.0]]), w_uv=np.array([[-1.0]]), w_kr=np.eye(2),
                      w_dq=np.array([[1.0], [1.0]]), w_uq=np.array([[2.0]]), w_qr=np.array([[1.0, 1.0]]), heads=1)
    t = latent_attention(np.eye(2), w)
    c, s = math.cos(1.0), math.sin(1.0)  # position 1 turns the first (only) pair by 1 radian: theta_0 = 10000^0
    assert t.c_kv.tolist() == [[1.0], [2.0]] and t.k_c[0].tolist() == [[3.0], [6.0]] and t.v_c[0].tolist() == [[-1.0], [-2.0]]
    np.testing.assert_allclose(t.k_r, [[1.0, 0.0], [-s, c]], atol=1e-15)
    np.testing.assert_allclose(t.q_r[0], [[1.0, 1.0], [c - s, s + c]], atol=1e-15)
    assert t.raw_content[0].tolist() == [[6.0, 12.0], [6.0, 12.0]]
    np.testing.assert_allclose(t.raw_rope[0], [[1.0, c - s], [c - s, 1.0]], atol=1e-15)  # same position: the unturned dot, 1
    assert t.divisor == math.sqrt(3)  # sqrt(d_h + d_r)
    assert t.weights[0, 0].tolist() == [1.0, 0.0]  # causal: the first token sees itself only
    s0, s1 = (6 + c - s) / math.sqrt(3), 13 / math.sqrt(3)
    w1 = math.exp(s1) / (math.exp(s0) + math.exp(s1))
    np.testing.assert_allclose(t.weights[0, 1], [1 - w1, w1], rtol=1e-14)
    np.testing.assert_allclose(t.outputs[0, :, 0], [-1.0, -(1 - w1) - 2 * w1], rtol=1e-14)
    assert t.absorbed_q[0].tolist() == [[6.0], [6.0]]  # q_C W_UK^T = 2 x 3
    assert t.absorbed_content[0].tolist() == t.raw_content[0].tolist()


def turned(x: np.ndarray, position: int, base: float = 10_000.0) -> np.ndarray:
    """RoPE written again with complex numbers: pair i as x_2i + i x_2i+1, times e^(i position base^(-2i/d))."""
    d = x.size
    out = np.empty(d)
    for i in range(d // 2):
        z = complex(x[2 * i], x[2 * i + 1]) * cmath.exp(1j * position * base ** (-2 * i / d))
        out[2 * i], out[2 * i + 1] = z.real, z.imag
    return out


def mla_by_the_paper(x: np.ndarray, w: LatentWeights, causal: bool) -> np.ndarray:
    """DeepSeek-V2's equations 9-19, token by token and head by head, with column vectors (the paper's W = ours^T)."""
    H, d_h, d_r = w.heads, w.d_h, w.d_r
    n = len(x)
    W_DKV, W_UK, W_UV, W_KR, W_DQ, W_UQ, W_QR = (m.T for m in (w.w_dkv, w.w_uk, w.w_uv, w.w_kr, w.w_dq, w.w_uq, w.w_qr))
    c_kv = [W_DKV @ h for h in x]
    k_c = [W_UK @ c for c in c_kv]
    v_c = [W_UV @ c for c in c_kv]
    k_r = [turned(W_KR @ h, t) for t, h in enumerate(x)]
    c_q = [W_DQ @ h for h in x]
    q_c = [W_UQ @ c for c in c_q]
    q_r = [np.concatenate([turned((W_QR @ c)[i * d_r:(i + 1) * d_r], t) for i in range(H)]) for t, c in enumerate(c_q)]
    out = np.zeros((H, n, d_h))
    for i in range(H):
        for t in range(n):
            q = np.concatenate([q_c[t][i * d_h:(i + 1) * d_h], q_r[t][i * d_r:(i + 1) * d_r]])
            seen = range(t + 1) if causal else range(n)
            scores = [q @ np.concatenate([k_c[j][i * d_h:(i + 1) * d_h], k_r[j]]) / math.sqrt(d_h + d_r) for j in seen]
            top = max(scores)
            e = [math.exp(s - top) for s in scores]
            out[i, t] = sum(e_j / sum(e) * v_c[j][i * d_h:(i + 1) * d_h] for e_j, j in zip(e, seen))
    return out


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 9), d_model=st.integers(1, 10), heads=st.integers(1, 3), d_h=st.integers(1, 5), d_c=st.integers(1, 6),
       d_r=st.sampled_from([2, 4, 6]), d_cq=st.integers(1, 8), causal=st.booleans(), scale=st.floats(0.1, 20.0),
       seed=st.integers(0, 10**6))
def test_latent_attention_follows_the_paper_and_absorbed_equals_rebuilt(n, d_model, heads, d_h, d_c, d_r, d_cq, causal, scale, seed):
    w = init_latent(d_model, heads, d_h, d_c, d_r, d_cq, seed=seed)
    x = scale * np.random.default_rng(seed).standard_normal((n, d_model))
    t = latent_attention(x, w, causal=causal)
    size = max(1.0, float(np.abs(t.raw_content).max()))
    np.testing.assert_allclose(t.absorbed_content, t.raw_content, rtol=0, atol=1e-12 * size)  # folded W_UK: the same scores
    np.testing.assert_allclose(t.absorbed_outputs, t.outputs, rtol=0, atol=1e-12 * max(1.0, float(np.abs(t.v_c).max())))
    np.testing.assert_allclose(t.outputs, mla_by_the_paper(x, w, causal), rtol=0, atol=1e-11 * max(1.0, float(np.abs(t.v_c).max())))
    np.testing.assert_allclose(t.weights.sum(axis=-1), 1.0, rtol=1e-13)
    if causal:
        assert not t.weights[:, np.triu_indices(n, 1)[0], np.triu_indices(n, 1)[1]].any()
    assert t.c_kv.shape == (n, d_c) and t.k_r.shape == (n, d_r) and t.k_c.shape == t.v_c.shape == (heads, n, d_h)


def rotation(position: int, d: int, base: float = 10_000.0) -> np.ndarray:
    """RoPE as a matrix (d, d) acting on a row vector from the right: block-diagonal 2x2 rotations by position * theta_i,
    theta_i = base^(-2i/d), written out here rather than taken from attention_core.positions."""
    r = np.zeros((d, d))
    for i in range(d // 2):
        a = position * base ** (-2 * i / d)
        r[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]]  # row @ r turns the pair by a
    return r


def masked_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray, divisor: float) -> np.ndarray:
    """softmax(q k^T / divisor) v over the keys where mask (n_q, n_k) is True, -inf elsewhere: scaled_dot_product_attention
    with a boolean mask, written as its definition (max subtracted, then exp and a row sum)."""
    s = np.where(mask, q @ k.T / divisor, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ v


def mla_by_whole_matrices(x: np.ndarray, w: LatentWeights, causal: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """DeepSeek-V2's equations 9-19 on the whole sequence at once, as an independent reference: the naive path (keys and
    values rebuilt, q = [q_C; RoPE(q_R)], k = [k_C; RoPE(k_R)] with one k_R for all heads, masked softmax over
    q . k / sqrt(d_h + d_r)), and the absorbed path's content scores (q_C W_UK^T) c_KV^T. Returns (outputs (H, n, d_h),
    naive content scores (H, n, n), absorbed content scores (H, n, n))."""
    H, d_h, d_r = w.heads, w.d_h, w.d_r
    n = len(x)
    c_kv = x @ w.w_dkv
    k_r = np.stack([(x[t] @ w.w_kr) @ rotation(t, d_r) for t in range(n)])  # (n, d_r)
    c_q = x @ w.w_dq
    mask = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)
    outputs, naive, absorbed = np.zeros((H, n, d_h)), np.zeros((H, n, n)), np.zeros((H, n, n))
    for i in range(H):
        head, rope_part = slice(i * d_h, (i + 1) * d_h), slice(i * d_r, (i + 1) * d_r)
        k_c, v_c, q_c = c_kv @ w.w_uk[:, head], c_kv @ w.w_uv[:, head], c_q @ w.w_uq[:, head]
        q_r = np.stack([(c_q[t] @ w.w_qr[:, rope_part]) @ rotation(t, d_r) for t in range(n)])
        q, k = np.concatenate([q_c, q_r], axis=1), np.concatenate([k_c, k_r], axis=1)  # (n, d_h + d_r)
        outputs[i] = masked_attention(q, k, v_c, mask, math.sqrt(d_h + d_r))
        naive[i] = q_c @ k_c.T
        absorbed[i] = (q_c @ w.w_uk[:, head].T) @ c_kv.T  # W_UK folded into the query: keys never rebuilt
    return outputs, naive, absorbed


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 9), d_model=st.integers(1, 8), heads=st.integers(1, 3), d_h=st.integers(1, 5), d_c=st.integers(1, 6),
       d_r=st.sampled_from([2, 4, 6]), d_cq=st.integers(1, 7), causal=st.booleans(), seed=st.integers(0, 10**6))
def test_latent_attention_against_whole_matrix_reference_naive_and_absorbed(n, d_model, heads, d_h, d_c, d_r, d_cq, causal, seed):
    """The core's MLA equals, to 1e-12, a reference built here from the paper's equations with RoPE as explicit rotation
    matrices and softmax as masked scaled_dot_product_attention: outputs, the naive content scores q_C k_C^T and the
    absorbed scores (q_C W_UK^T) c_KV^T, and the RoPE scores (the whole scores less the content part)."""
    w = init_latent(d_model, heads, d_h, d_c, d_r, d_cq, seed=seed)
    x = np.random.default_rng(seed).standard_normal((n, d_model))
    t = latent_attention(x, w, causal=causal)
    outputs, naive, absorbed = mla_by_whole_matrices(x, w, causal)
    np.testing.assert_allclose(t.outputs, outputs, rtol=0, atol=1e-12)
    np.testing.assert_allclose(t.absorbed_outputs, outputs, rtol=0, atol=1e-12)
    np.testing.assert_allclose(t.raw_content, naive, rtol=0, atol=1e-12)
    np.testing.assert_allclose(t.absorbed_content, absorbed, rtol=0, atol=1e-12)
    np.testing.assert_allclose(absorbed, naive, rtol=0, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 8), d_model=st.integers(1, 6), heads=st.integers(1, 3), d_h=st.integers(1, 4), causal=st.booleans(),
       seed=st.integers(0, 10**6))
def test_latent_attention_with_a_full_width_latent_and_no_rope_is_multi_head_attention(n, d_model, heads, d_h, causal, seed):
    """W_DKV = W_DQ = I (d_c = d_cq = d_model) and W_KR = W_QR = 0 (the RoPE part adds nothing; d_r = 2 only widens the
    divisor to sqrt(d_h + 2)): keys and values are x W_UK, x W_UV, so MLA is attention_core's multi_head with W_K = W_UK,
    W_V = W_UV and W_Q = W_UQ under the dot score, W_Q prescaled by 1 / sqrt(d_h + 2)."""
    rng = np.random.default_rng(seed)
    w_q, w_k, w_v = (rng.standard_normal((d_model, heads * d_h)) for _ in range(3))
    eye = np.eye(d_model)
    w = LatentWeights(w_dkv=eye, w_uk=w_k, w_uv=w_v, w_kr=np.zeros((d_model, 2)), w_dq=eye, w_uq=w_q,
                      w_qr=np.zeros((d_model, heads * 2)), heads=heads)
    x = rng.standard_normal((n, d_model))
    t = latent_attention(x, w, causal=causal)
    mask = np.tril(np.ones((n, n), dtype=bool)) if causal else None
    mha = multi_head(x, x, w_q / math.sqrt(d_h + 2), w_k, w_v, np.eye(heads * d_h), heads=heads, score="dot", mask=mask)
    for i in range(heads):
        np.testing.assert_allclose(t.outputs[i], mha.heads[i].output, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.concatenate(list(t.outputs), axis=1), mha.output, rtol=0, atol=1e-12)


def test_the_cache_keeps_one_rope_key_for_every_head_and_mla_needs_only_it_and_the_latent():
    w = init_latent(8, 3, 4, 3, 2, 6, seed=1)
    x = np.random.default_rng(2).standard_normal((5, 8))
    t = latent_attention(x, w)
    np.testing.assert_allclose(t.k_c[1], t.c_kv @ w.w_uk[:, 4:8], rtol=0, atol=1e-15)  # head 2's keys, from the latent alone
    np.testing.assert_allclose(t.v_c[2], t.c_kv @ w.w_uv[:, 8:12], rtol=0, atol=1e-15)
    np.testing.assert_allclose(t.raw_rope[:, :, 0], t.q_r @ t.k_r[0], rtol=0, atol=1e-15)  # every head meets the same k_R
    with pytest.raises(ValueError, match="even"):
        init_latent(8, 1, 4, 3, 3, 6)


def test_the_published_caches_per_token_and_their_sources():
    v2, v3 = LATENT_SHAPES["deepseek-v2"], LATENT_SHAPES["deepseek-v3"]
    assert (v2.d_model, v2.layers, v3.d_model, v3.layers) == (5120, 60, 7168, 61)
    for shape in (v2, v3):
        assert (shape.heads, shape.d_h, shape.d_c, shape.d_cq, shape.d_r) == (128, 128, 512, 1536, 64)
        assert [cache_numbers(shape, layout) for layout in CACHE_LAYOUTS] == [32_768, 2 * 8 * 128, 256, 576]
        assert equivalent_groups(shape) == 2.25  # DeepSeek-V2, Table 1: "equal to GQA with only 2.25 groups"
    assert latent_cache_bytes(v2, "mla", 131_072) == 576 * 60 * 131_072 * 2 == 8.4375 * 2**30
    assert latent_cache_bytes(v2, "mha", 131_072) == 480 * 2**30
    assert latent_cache_bytes(v3, "mla", 1, bytes_per_number=1) == 576 * 61
    assert cache_numbers(v2, "gqa", groups=2) == 512
    with pytest.raises(ValueError, match="layout must be one of"):
        cache_numbers(v2, "mla2")


# --- 2. Sparse top-k attention ---


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


# --- 3. Memory traffic ---


def test_standard_attentions_traffic_by_hand():
    t = standard_traffic(4096, 64)
    assert (t.reads, t.writes) == (3 * 4096 * 64 + 2 * 4096**2, 2 * 4096**2 + 4096 * 64)
    assert t.elements == 4 * 4096 * 64 + 4 * 4096**2 == 68_157_440
    assert t.flops == 4 * 4096**2 * 64 and t.bytes() == 136_314_880 and t.intensity() == pytest.approx(4 * 4096 * 64 / (2 * 4 * (64 + 4096)))


def test_flashattentions_blocks_and_traffic_by_hand():
    assert flash_blocks(51_200, 64) == (200, 64)  # 100 KiB of 16-bit numbers: B_c = ceil(51200 / 256), B_r = min(200, 64)
    assert flash_blocks(1000, 64) == (4, 4) and flash_blocks(1024, 2) == (128, 2)
    t = flash_traffic(4096, 64, 200, 64)  # T_c = ceil(4096 / 200) = 21
    assert t.reads == 2 * 4096 * 64 + 21 * (2 * 4096 * 64 + 2 * 4096) == 11_706_368
    assert t.writes == 4096 * 64 + 2 * 4096 + 21 * (4096 * 64 + 2 * 4096) == 5_947_392
    assert (key_blocks(4096, 200), key_blocks(4096, 4096), key_blocks(4097, 4096), key_blocks(0, 8)) == (21, 1, 2, 0)
    small = flash_traffic(4, 2, 2, 2)  # T_c = 2: reads 2*8 + 2*(16 + 8), writes 8 + 8 + 2*(8 + 8)
    assert (small.reads, small.writes) == (64, 48)
    assert flash_sram_need(64, 200, 64) == 2 * 200 * 64 + 2 * 64 * 64 + 64 * 200 + 4 * 64 == 46_848 <= 51_200
    assert flash_traffic(4096, 64, 200, 64) == flash_traffic(4096, 64, 200, 8)  # B_r moves nothing: every query row, each pass


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), d=st.integers(1, 6), block_c=st.integers(1, 45), block_r=st.integers(1, 45), block=st.integers(1, 45),
       scale=st.floats(0.1, 20.0), seed=st.integers(0, 10**6))
def test_the_traffic_formulas_equal_the_loads_and_stores_of_the_loops_run(n, d, block_c, block_r, block, scale, seed):
    rng = np.random.default_rng(seed)
    q, k, v = scale * rng.standard_normal((n, d)), scale * rng.standard_normal((n, d)), rng.standard_normal((n, d))
    flash, standard = simulate_flash(q, k, v, block_c, block_r), simulate_standard(q, k, v, block)
    expected = flash_traffic(n, d, block_c, block_r)
    assert (flash.reads, flash.writes) == (expected.reads, expected.writes)
    expected = standard_traffic(n, d)
    assert (standard.reads, standard.writes) == (expected.reads, expected.writes)
    exact = full_attention(q, k, v)
    np.testing.assert_allclose(flash.output, exact, rtol=0, atol=1e-12 * max(1.0, np.abs(v).max()))
    np.testing.assert_allclose(standard.output, exact, rtol=0, atol=1e-12 * max(1.0, np.abs(v).max()))


@pytest.mark.parametrize("d", [32, 64, 128])
def test_the_traffic_grows_as_the_paper_says(d):
    """Standard: Theta(Nd + N^2), 4 elements per score at large N. FlashAttention: Theta(N^2 d^2 / M): with M = 4 d B_c,
    T_c (3Nd + 4N) = 4 N^2 d (3d + 4) / M, so the ratio to N^2 d^2 / M tends to 12 + 16/d."""
    n, sram = 2**20, 4 * d * 256
    block_c, block_r = flash_blocks(sram, d)
    assert standard_traffic(n, d).elements / n**2 == pytest.approx(4, rel=1e-3)
    assert flash_traffic(n, d, block_c, block_r).elements / (n**2 * d**2 / sram) == pytest.approx(12 + 16 / d, rel=1e-3)


def test_flashattention_against_standard_is_a_factor_of_at_least_one_with_its_direction():
    """At large N FlashAttention moves d (3d + 4) / M times standard attention's elements: fewer only when d^2 is well below M."""
    def compared(n, d, sram):
        return flash_against_standard(standard_traffic(n, d), flash_traffic(n, d, *flash_blocks(sram, d)))
    factor, direction = compared(4096, 64, 51_200)  # the page's default: 100 KiB, d = 64
    assert direction == "fewer" and factor == standard_traffic(4096, 64).elements / flash_traffic(4096, 64, 200, 64).elements > 3
    factor, direction = compared(4096, 256, 228 * 512)  # 228 KiB at d = 256: 3 d^2 is 384 KiB
    assert direction == "more" and factor == pytest.approx(1.64, abs=0.01)
    factor, direction = compared(2**20, 128, 48 * 512)  # 48 KiB at d = 128: about 3 d^2 / M = 2
    assert direction == "more" and factor == pytest.approx(128 * (3 * 128 + 4) / (48 * 512), rel=1e-2)
    same = Traffic(reads=3, writes=1, flops=8)
    assert flash_against_standard(same, same) == (1.0, "same")


def test_the_gpus_figures_are_the_data_sheets_dense_bf16_and_bandwidth():
    sheets = {"a100": (312, 2039), "h100": (989.5, 3350), "h200": (989.5, 4800), "b200": (2250, 8000)}  # TFLOPS, GB/s
    assert set(GPUS) == set(sheets)
    for name, (tflops, gb_per_s) in sheets.items():
        assert (GPUS[name].peak / 1e12, GPUS[name].bandwidth / 1e9) == pytest.approx((tflops, gb_per_s), rel=1e-12)
    assert GPUS["h100"].ridge == pytest.approx(989.5 / 3.35)


def test_the_roofline_by_hand():
    gpu = GPU(peak=100.0, bandwidth=10.0)  # ridge at 10 FLOP/byte
    at_ridge = roofline(gpu, Traffic(reads=6, writes=4, flops=200))  # 20 bytes, 200 FLOPs: 10 FLOP/byte
    assert (at_ridge.intensity, at_ridge.attainable, at_ridge.compute_time, at_ridge.memory_time) == (10.0, 100.0, 2.0, 2.0)
    low = roofline(gpu, Traffic(reads=25, writes=25, flops=100))  # 100 bytes: 1 FLOP/byte
    assert (low.attainable, low.time, low.bound) == (10.0, 10.0, "memory")
    high = roofline(gpu, Traffic(reads=1, writes=0, flops=1000))
    assert (high.attainable, high.time, high.bound) == (100.0, 10.0, "compute")
