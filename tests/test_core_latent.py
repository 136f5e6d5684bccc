"""Latent attention (attention_core/latent.py): against the paper's formulas written per token here, against a
whole-matrix reference (RoPE as rotation matrices, masked scaled-dot-product attention) naive and absorbed, and against
multi_head when the latent is the model's width with no RoPE, absorbed = rebuilt to 1e-12; the published caches pinned;
hand-computed numbers throughout."""

from __future__ import annotations

import cmath
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.latent import (
    CACHE_LAYOUTS,
    LATENT_SHAPES,
    LatentWeights,
    cache_numbers,
    equivalent_groups,
    init_latent,
    latent_attention,
    latent_cache_bytes,
)
from attention_core.multihead import multi_head


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
