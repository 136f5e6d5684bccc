"""Latent attention (MLA, DeepSeek-V2, arXiv 2405.04434, section 2.1), exactly: its steps, its absorbed form, and the
cache per token of published MLA models against multi-head, grouped-query and multi-query attention.

The paper writes column vectors (c = W h); here rows (c = h W), so every W below is the paper's transposed. Per token
h (d_model,):
    c_KV = h W_DKV (d_c,)   k_C = c_KV W_UK   v_C = c_KV W_UV   (heads * d_h,)   k_R = RoPE(h W_KR) (d_r,), one for all heads
    c_Q = h W_DQ (d_cq,)    q_C = c_Q W_UQ (heads * d_h,)         q_R = RoPE(c_Q W_QR) (heads * d_r,)
head i scores [q_C,i; q_R,i] . [k_C,i; k_R] / sqrt(d_h + d_r). Only c_KV and k_R are cached: d_c + d_r numbers a token
and layer. Absorbed: q_C,i . k_C,i = (q_C,i W_UK,i^T) . c_KV, so the keys never need rebuilding.

Shapes: n tokens, H heads, (n_q, n_k) for query-key matrices, rows are queries. Row vectors throughout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import MAX_SMALL, check_choice, check_int, check_matrix, frozen
from attention_core.attention import causal_mask, softmax
from attention_core.multihead import glorot_uniform
from attention_core.positions import rope


@dataclass(frozen=True)
class LatentWeights:
    """One layer's MLA projections, row-vector convention (the paper's matrices transposed):
    w_dkv (d_model, d_c) down to the key-value latent; w_uk, w_uv (d_c, heads * d_h) its up-projections to keys and values;
    w_kr (d_model, d_r) the decoupled RoPE key, one for all heads; w_dq (d_model, d_cq) down to the query latent;
    w_uq (d_cq, heads * d_h) up to the queries; w_qr (d_cq, heads * d_r) the queries' RoPE part. Head i uses columns
    i*d_h:(i+1)*d_h (and i*d_r:(i+1)*d_r)."""

    w_dkv: NDArray
    w_uk: NDArray
    w_uv: NDArray
    w_kr: NDArray
    w_dq: NDArray
    w_uq: NDArray
    w_qr: NDArray
    heads: int

    def __post_init__(self) -> None:
        frozen(self)

    @property
    def d_c(self) -> int:
        """The key-value latent's width d_c (DeepSeek-V2: 512)."""
        return self.w_dkv.shape[1]

    @property
    def d_h(self) -> int:
        """Each head's width for keys and values without RoPE, d_h (DeepSeek-V2: 128)."""
        return self.w_uk.shape[1] // self.heads

    @property
    def d_r(self) -> int:
        """The decoupled RoPE part's width per head, d_h^R (DeepSeek-V2: 64)."""
        return self.w_kr.shape[1]


def init_latent(d_model: int, heads: int, d_h: int, d_c: int, d_r: int, d_cq: int, seed: int = 0) -> LatentWeights:
    """Glorot-initialised MLA projections (shapes in ``LatentWeights``), drawn in the order W_DKV, W_UK, W_UV, W_KR, W_DQ,
    W_UQ, W_QR from ``default_rng(seed)``. d_r must be even: RoPE turns pairs of dimensions."""
    d_model, d_h, d_c, d_cq = (check_int(name, value, 1, MAX_SMALL) for name, value in
                               (("d_model", d_model), ("d_h", d_h), ("d_c", d_c), ("d_cq", d_cq)))
    heads = check_int("heads", heads, 1, 256)
    d_r = check_int("d_r", d_r, 2, MAX_SMALL)
    if d_r % 2:
        raise ValueError(f"the RoPE part's width d_r must be even (RoPE turns pairs of dimensions), got {d_r}")
    rng = np.random.default_rng(check_int("seed", seed, 0, 2**32 - 1))
    shapes = ((d_model, d_c), (d_c, heads * d_h), (d_c, heads * d_h), (d_model, d_r), (d_model, d_cq), (d_cq, heads * d_h),
              (d_cq, heads * d_r))
    return LatentWeights(*(glorot_uniform(fan_in, fan_out, rng) for fan_in, fan_out in shapes), heads=heads)


@dataclass(frozen=True)
class LatentTrace:
    """Every step of one MLA layer's attention over n tokens (H heads; causal when asked):

    c_kv (n, d_c) and k_r (n, d_r): what the cache keeps. k_c, v_c (H, n, d_h): keys and values rebuilt from c_kv.
    c_q (n, d_cq); q_c (H, n, d_h); q_r (H, n, d_r), rotated. raw_content (H, n_q, n_k) = q_c k_c^T; raw_rope (H, n_q, n_k)
    = q_r k_r^T; raw_scores = raw_content + raw_rope (= [q_c; q_r] . [k_c; k_r]); divisor = sqrt(d_h + d_r); scaled_scores;
    masked_scores (-inf after the query when causal); weights = softmax(masked_scores); outputs (H, n, d_h) = weights v_c.
    Absorbed: absorbed_q (H, n, d_c) = q_c W_UK,h^T; absorbed_content (H, n_q, n_k) = absorbed_q c_kv^T (equal to
    raw_content); latent_outputs (H, n, d_c) = weights c_kv; absorbed_outputs (H, n, d_h) = latent_outputs W_UV,h (equal to
    outputs)."""

    c_kv: NDArray
    k_r: NDArray
    k_c: NDArray
    v_c: NDArray
    c_q: NDArray
    q_c: NDArray
    q_r: NDArray
    raw_content: NDArray
    raw_rope: NDArray
    raw_scores: NDArray
    divisor: float
    scaled_scores: NDArray
    masked_scores: NDArray
    weights: NDArray
    outputs: NDArray
    absorbed_q: NDArray
    absorbed_content: NDArray
    latent_outputs: NDArray
    absorbed_outputs: NDArray

    def __post_init__(self) -> None:
        frozen(self)


def _split_heads(x: NDArray, heads: int) -> NDArray:  # (n, heads * d) -> (heads, n, d)
    """Columns i*d:(i+1)*d of ``x`` (n, heads * d) as head i: (heads, n, d)."""
    n, width = x.shape
    return x.reshape(n, heads, width // heads).transpose(1, 0, 2)


def latent_attention(x: NDArray, w: LatentWeights, causal: bool = True) -> LatentTrace:
    """MLA (DeepSeek-V2, section 2.1.2-2.1.3) on token vectors x (n, d_model), each step kept (``LatentTrace``):
    c_KV = x W_DKV, k_C = c_KV W_UK, v_C = c_KV W_UV, k_R = RoPE(x W_KR); c_Q = x W_DQ, q_C = c_Q W_UQ, q_R = RoPE(c_Q W_QR);
    scores_h = (q_C,h k_C,h^T + q_R,h k_R^T) / sqrt(d_h + d_r); weights_h = softmax(scores_h); o_h = weights_h v_C,h.
    The absorbed form computes the same without k_C and v_C: (q_C,h W_UK,h^T) c_KV^T and (weights_h c_KV) W_UV,h."""
    x = check_matrix("x", x, cols=w.w_dkv.shape[0])
    H, d_h = w.heads, w.d_h
    c_kv = x @ w.w_dkv  # (n, d_c): cached
    k_r = np.array(rope(x @ w.w_kr))  # (n, d_r): cached, shared by every head
    k_c = _split_heads(c_kv @ w.w_uk, H)  # (H, n, d_h)
    v_c = _split_heads(c_kv @ w.w_uv, H)  # (H, n, d_h)
    c_q = x @ w.w_dq  # (n, d_cq)
    q_c = _split_heads(c_q @ w.w_uq, H)  # (H, n, d_h)
    q_r = np.stack([rope(head) for head in _split_heads(c_q @ w.w_qr, H)])  # (H, n, d_r), each head rotated by position
    raw_content = q_c @ k_c.transpose(0, 2, 1)  # (H, n_q, n_k)
    raw_rope = q_r @ k_r.T  # (H, n_q, n_k)
    raw_scores = raw_content + raw_rope  # (H, n_q, n_k)
    divisor = math.sqrt(d_h + w.d_r)
    scaled_scores = raw_scores / divisor
    allowed = causal_mask(x.shape[0]) if causal else np.ones(raw_scores.shape[1:], dtype=bool)  # (n_q, n_k)
    masked_scores = np.where(allowed, scaled_scores, -np.inf)  # (H, n_q, n_k)
    weights = softmax(masked_scores, allowed)  # (H, n_q, n_k)
    w_uk, w_uv = _split_heads(w.w_uk, H), _split_heads(w.w_uv, H)  # (H, d_c, d_h) each
    absorbed_q = q_c @ w_uk.transpose(0, 2, 1)  # (H, n, d_c): W_UK folded into the query
    latent_outputs = weights @ c_kv  # (H, n, d_c)
    return LatentTrace(c_kv, k_r, k_c, v_c, c_q, q_c, q_r, raw_content, raw_rope, raw_scores, divisor, scaled_scores, masked_scores,
                       weights, weights @ v_c, absorbed_q, absorbed_q @ c_kv.T, latent_outputs, latent_outputs @ w_uv)


@dataclass(frozen=True)
class LatentShape:
    """A published model's attention sizes in DeepSeek-V2's notation: d_model, layers l, heads n_h, d_h per head, the
    key-value latent d_c, the query latent d_cq (d_c'), the decoupled RoPE width d_r (d_h^R) and its context in tokens."""

    d_model: int
    layers: int
    heads: int
    d_h: int
    d_c: int
    d_cq: int
    d_r: int
    context: int


# DeepSeek-V2 (arXiv 2405.04434, section 3.1.2): 60 layers, d_model 5120, 128 heads of 128, d_c 512, d_c' 1536, d_h^R 64,
# a 128K context. DeepSeek-V3 (arXiv 2412.19437, section 4.2): 61 layers, d_model 7168, the same MLA sizes, 128K.
LATENT_SHAPES = {
    "deepseek-v2": LatentShape(d_model=5120, layers=60, heads=128, d_h=128, d_c=512, d_cq=1536, d_r=64, context=131072),
    "deepseek-v3": LatentShape(d_model=7168, layers=61, heads=128, d_h=128, d_c=512, d_cq=1536, d_r=64, context=131072),
}
CACHE_LAYOUTS = ("mha", "gqa", "mqa", "mla")
GQA_GROUPS = 8  # the grouped-query row's key-value heads (as Llama 2 70B); DeepSeek-V2's Table 1 leaves n_g open


def cache_numbers(shape: LatentShape, layout: str, groups: int = GQA_GROUPS) -> int:
    """Numbers cached per token and layer (DeepSeek-V2, Table 1): MHA 2 n_h d_h; GQA 2 n_g d_h; MQA 2 d_h; MLA d_c + d_h^R."""
    layout = check_choice("layout", layout, CACHE_LAYOUTS)
    groups = check_int("groups", groups, 1, shape.heads)
    return {"mha": 2 * shape.heads * shape.d_h, "gqa": 2 * groups * shape.d_h, "mqa": 2 * shape.d_h, "mla": shape.d_c + shape.d_r}[layout]


def latent_cache_bytes(shape: LatentShape, layout: str, tokens: int, groups: int = GQA_GROUPS, bytes_per_number: int = 2) -> int:
    """The whole cache of one sequence: cache_numbers x layers x tokens x bytes (2 in 16-bit numbers)."""
    tokens = check_int("tokens", tokens, 0, 10**9)
    return cache_numbers(shape, layout, groups) * shape.layers * tokens * bytes_per_number


def equivalent_groups(shape: LatentShape) -> float:
    """The grouped-query attention with as large a cache as MLA's: (d_c + d_h^R) / (2 d_h) groups (DeepSeek-V2: 2.25)."""
    return (shape.d_c + shape.d_r) / (2 * shape.d_h)
