"""Attention at today's scale, exactly: latent attention (MLA) with its absorbed form and its cache, sparse top-k
attention chosen by a lightning indexer, and the memory traffic of standard attention and FlashAttention on a GPU's
roofline.

1. Latent attention (DeepSeek-V2, arXiv 2405.04434, section 2.1). The paper writes column vectors (c = W h); here rows
   (c = h W), so every W below is the paper's transposed. Per token h (d_model,):
       c_KV = h W_DKV (d_c,)   k_C = c_KV W_UK   v_C = c_KV W_UV   (heads * d_h,)   k_R = RoPE(h W_KR) (d_r,), one for all heads
       c_Q = h W_DQ (d_cq,)    q_C = c_Q W_UQ (heads * d_h,)         q_R = RoPE(c_Q W_QR) (heads * d_r,)
   head i scores [q_C,i; q_R,i] . [k_C,i; k_R] / sqrt(d_h + d_r). Only c_KV and k_R are cached: d_c + d_r numbers a token
   and layer. Absorbed: q_C,i . k_C,i = (q_C,i W_UK,i^T) . c_KV, so the keys never need rebuilding.
2. Sparse attention (DeepSeek-V3.2-Exp's DSA): a lightning indexer I_ts = sum_j w_tj ReLU(q^I_tj . k^I_s) scores the keys
   cheaply; each query keeps its top-k keys and attention runs on those only. With k = n it is dense attention exactly.
3. Memory traffic (FlashAttention, arXiv 2205.14135): elements read from and written to HBM by standard attention
   (Algorithm 0) and by FlashAttention's tiled loop (Algorithm 1), counted by formula and by running the loop; FLOPs,
   arithmetic intensity and a roofline (a model of the traffic, not a measurement).

Shapes: n tokens, H heads, (n_q, n_k) for query-key matrices, rows are queries. Row vectors throughout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_choice, check_int, check_matrix, frozen
from attention_core.attention import causal_mask, softmax
from attention_core.multihead import glorot_uniform
from attention_core.positions import rope

MAX_SMALL = 4096  # the largest width a small, computed example takes (d_model, d_c, d_h ...)

# --- 1. Latent attention (MLA) ---


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


# --- 2. Sparse top-k attention (DeepSeek-V3.2-Exp's DSA) ---


@dataclass(frozen=True)
class IndexerWeights:
    """A lightning indexer's projections: w_q (H_I, d_model, d_I) its query heads, w_k (d_model, d_I) its one key, shared by
    the heads, w_w (d_model, H_I) each head's weight for each query token."""

    w_q: NDArray
    w_k: NDArray
    w_w: NDArray

    def __post_init__(self) -> None:
        frozen(self)


def init_indexer(d_model: int, heads: int = 2, d_i: int = 2, seed: int = 0) -> IndexerWeights:
    """Glorot-initialised indexer weights (shapes in ``IndexerWeights``), drawn as W_Q's heads, W_K, W_w from
    ``default_rng(seed)``. Untrained: a real indexer is trained to follow the main attention."""
    d_model, heads, d_i = check_int("d_model", d_model, 1, MAX_SMALL), check_int("heads", heads, 1, 64), check_int("d_i", d_i, 1, 512)
    rng = np.random.default_rng(check_int("seed", seed, 0, 2**32 - 1))
    w_q = np.stack([glorot_uniform(d_model, d_i, rng) for _ in range(heads)])
    return IndexerWeights(w_q, glorot_uniform(d_model, d_i, rng), glorot_uniform(d_model, heads, rng))


@dataclass(frozen=True)
class IndexerTrace:
    """The lightning indexer on n tokens: q (H_I, n, d_I), k (n, d_I), head_weights (n, H_I) w_tj, per_head (H_I, n_q, n_k)
    ReLU(q_tj . k_s), and scores (n_q, n_k) I_ts = sum_j w_tj ReLU(q_tj . k_s)."""

    q: NDArray
    k: NDArray
    head_weights: NDArray
    per_head: NDArray
    scores: NDArray

    def __post_init__(self) -> None:
        frozen(self)


def lightning_indexer(x: NDArray, w: IndexerWeights) -> IndexerTrace:
    """DSA's index scores on token vectors x (n, d_model): I_ts = sum_j w_tj ReLU(q^I_tj . k^I_s), q^I = x W_Q^I per head,
    k^I = x W_K^I, w = x W_w. (DeepSeek-V3.2 also rotates part of q^I and k^I and runs it in FP8; left out here.)"""
    x = check_matrix("x", x, cols=w.w_k.shape[0])
    q = x[None] @ w.w_q  # (H_I, n, d_I)
    k = x @ w.w_k  # (n, d_I)
    head_weights = x @ w.w_w  # (n, H_I)
    per_head = np.maximum(q @ k.T, 0.0)  # (H_I, n_q, n_k)
    scores = np.einsum("tj,jts->ts", head_weights, per_head)  # (n_q, n_k)
    return IndexerTrace(q, k, head_weights, per_head, scores)


def top_k_keys(index_scores: NDArray, top_k: int, allowed: NDArray | None = None) -> NDArray:
    """Which keys each query keeps, (n_q, n_k) bool: the ``top_k`` allowed keys of highest index score in each row (all
    of them when fewer are allowed); among equal scores the earlier key. ``allowed`` (n_q, n_k), True where a query may
    attend (None: every key)."""
    scores = check_matrix("index_scores", index_scores)
    n_q, n_k = scores.shape
    top_k = check_int("top_k", top_k, 1, max(1, n_k))
    allowed = np.ones((n_q, n_k), dtype=bool) if allowed is None else np.asarray(allowed, dtype=bool)
    order = np.argsort(np.where(allowed, -scores, np.inf), axis=1, kind="stable")  # (n_q, n_k): best first, ties by position
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(n_k)[None, :].repeat(n_q, axis=0), axis=1)  # each key's place in its row
    return frozen((ranks < top_k) & allowed)


@dataclass(frozen=True)
class SparseTrace:
    """Top-k attention beside dense attention, both causal when asked: index_scores (n_q, n_k); kept (n_q, n_k) True where
    the query kept the key; scaled_scores (n_q, n_k) q k^T / sqrt(d_k); dense_weights, weights (n_q, n_k) softmax over the
    allowed keys and over the kept keys only; dense_output, output (n_q, d_v)."""

    top_k: int
    index_scores: NDArray
    kept: NDArray
    scaled_scores: NDArray
    dense_weights: NDArray
    weights: NDArray
    dense_output: NDArray
    output: NDArray

    def __post_init__(self) -> None:
        frozen(self)

    @property
    def distance(self) -> float:
        """max |output - dense_output|: how far top-k attention's output is from dense attention's."""
        return float(np.abs(self.output - self.dense_output).max()) if self.output.size else 0.0

    @property
    def kept_mass(self) -> float:
        """The share of dense attention's weight that falls on the kept keys, averaged over the queries (1 at k = n)."""
        return float((self.dense_weights * self.kept).sum(axis=1).mean()) if self.kept.size else 1.0


def sparse_attention(q: NDArray, k: NDArray, v: NDArray, index_scores: NDArray, top_k: int, causal: bool = True) -> SparseTrace:
    """q (n_q, d_k), k (n_k, d_k), v (n_k, d_v). Each query keeps its ``top_k`` keys by ``index_scores`` (n_q, n_k) among
    those it may see (``top_k_keys``); weights = softmax(q k^T / sqrt(d_k)) over the kept keys only, output = weights v.
    Dense attention (every allowed key) is computed beside it; with top_k = n_k the two are the same numbers exactly."""
    q, k, v = check_matrix("q", q), check_matrix("k", k, cols=np.shape(q)[1]), check_matrix("v", v)
    scores = check_matrix("index_scores", index_scores)
    if scores.shape != (q.shape[0], k.shape[0]) or v.shape[0] != k.shape[0]:
        raise ValueError(f"index_scores must be (n_q, n_k) = {(q.shape[0], k.shape[0])} and v must have {k.shape[0]} rows")
    allowed = causal_mask(q.shape[0], k.shape[0]) if causal else np.ones(scores.shape, dtype=bool)  # (n_q, n_k)
    kept = top_k_keys(scores, top_k, allowed)
    scaled_scores = q @ k.T / math.sqrt(q.shape[1])  # (n_q, n_k)
    dense_weights, weights = softmax(scaled_scores, allowed), softmax(scaled_scores, kept)
    return SparseTrace(int(top_k), scores, kept, scaled_scores, dense_weights, weights, dense_weights @ v, weights @ v)


@dataclass(frozen=True)
class SparseSweep:
    """Top-k attention for every k from 1 to n_k: top_k (n_k,); distance (n_k,) max |output - dense output|; kept_mass (n_k,)
    the dense weight on the kept keys; and the same by the main scores themselves (an indexer that were perfect):
    oracle_distance, oracle_mass (n_k,)."""

    top_k: NDArray
    distance: NDArray
    kept_mass: NDArray
    oracle_distance: NDArray
    oracle_mass: NDArray

    def __post_init__(self) -> None:
        frozen(self)


def sparse_sweep(q: NDArray, k: NDArray, v: NDArray, index_scores: NDArray, causal: bool = True) -> SparseSweep:
    """``sparse_attention`` for k = 1 .. n_k, keys chosen by the indexer and, for comparison, by the scores q k^T."""
    n_k = np.shape(k)[0]
    oracle = np.asarray(q, dtype=float) @ np.asarray(k, dtype=float).T
    runs = [(sparse_attention(q, k, v, index_scores, t, causal), sparse_attention(q, k, v, oracle, t, causal)) for t in range(1, n_k + 1)]
    return SparseSweep(np.arange(1, n_k + 1), np.array([r.distance for r, _ in runs]), np.array([r.kept_mass for r, _ in runs]),
                       np.array([o.distance for _, o in runs]), np.array([o.kept_mass for _, o in runs]))


def top_k_pairs(n: int, top_k: int) -> int:
    """Query-key pairs causal top-k attention scores over n tokens: sum_i min(k, i + 1) = n(n + 1)/2 for n <= k, else
    k(k + 1)/2 + (n - k) k: it grows as n k, not n^2."""
    n, top_k = check_int("n", n, 0, 10**9), check_int("top_k", top_k, 1, 10**9)
    return n * (n + 1) // 2 if n <= top_k else top_k * (top_k + 1) // 2 + (n - top_k) * top_k


@dataclass(frozen=True)
class SparseShape:
    """A published model's sizes for the cost of sparse attention: its heads; the multiply-adds a query-key pair costs a
    head (d_score for the score, d_value for the value); the indexer's heads H_I and width d_I; and its top-k."""

    heads: int
    d_score: int
    d_value: int
    index_heads: int
    index_dim: int
    top_k: int


# DeepSeek-V3.2-Exp: DSA on MLA in its MQA (absorbed) mode: a head scores the 512 + 64 numbers of the latent and the
# RoPE key and sums 512 latent numbers; 128 heads; the indexer has 64 heads of 128 and keeps 2048 keys per query.
SPARSE_SHAPES = {"deepseek-v3.2": SparseShape(heads=128, d_score=576, d_value=512, index_heads=64, index_dim=128, top_k=2048)}


@dataclass(frozen=True)
class SparseCost:
    """Multiply-adds of one layer's causal attention over n tokens (n,) each: dense (every earlier key), attention (the
    kept keys only) and indexer (every earlier key, cheaply); top-k attention costs attention + indexer."""

    n: NDArray
    dense: NDArray
    attention: NDArray
    indexer: NDArray

    def __post_init__(self) -> None:
        frozen(self)


def sparse_cost(shape: SparseShape, sizes: NDArray) -> SparseCost:
    """For each n in ``sizes``: dense = n(n + 1)/2 x heads x (d_score + d_value); attention = top_k_pairs(n, k) x heads x
    (d_score + d_value); indexer = n(n + 1)/2 x H_I x (d_I + 1) (a dot product and a weight per indexer head)."""
    sizes = np.asarray(sizes, dtype=np.int64)
    per_pair, per_index = shape.heads * (shape.d_score + shape.d_value), shape.index_heads * (shape.index_dim + 1)
    causal = np.array([check_int("n", int(n), 0, 10**9) * (int(n) + 1) // 2 for n in sizes], dtype=float)
    kept = np.array([top_k_pairs(int(n), shape.top_k) for n in sizes], dtype=float)
    return SparseCost(sizes.copy(), causal * per_pair, kept * per_pair, causal * per_index)


# --- 3. Memory traffic: standard attention and FlashAttention ---


@dataclass(frozen=True)
class Traffic:
    """Elements read from and written to HBM by one head's attention (forward), and its FLOPs (the two matrix products:
    4 N^2 d). ``bytes`` at a given size of element."""

    reads: int
    writes: int
    flops: int

    @property
    def elements(self) -> int:
        """Elements moved: reads + writes."""
        return self.reads + self.writes

    def bytes(self, bytes_per_element: int = 2) -> int:
        """Bytes moved, ``bytes_per_element`` each (2 in 16-bit numbers)."""
        return self.elements * bytes_per_element

    def intensity(self, bytes_per_element: int = 2) -> float:
        """Arithmetic intensity: FLOPs per byte moved."""
        return self.flops / self.bytes(bytes_per_element)


def attention_flops(n: int, d: int) -> int:
    """FLOPs of one head's forward attention, the two matrix products only: Q K^T (2 N^2 d) and P V (2 N^2 d)."""
    return 4 * n * n * d


def standard_traffic(n: int, d: int) -> Traffic:
    """Standard attention (FlashAttention's Algorithm 0), each matrix read once where it is used: read Q, K (2Nd), write S
    (N^2); read S, write P (N^2 each); read P, V (N^2 + Nd), write O (Nd). Reads 3Nd + 2N^2, writes 2N^2 + Nd: 4Nd + 4N^2."""
    n, d = check_int("N", n, 1, 10**7), check_int("d", d, 1, 4096)
    return Traffic(reads=3 * n * d + 2 * n * n, writes=2 * n * n + n * d, flops=attention_flops(n, d))


def flash_blocks(sram: int, d: int) -> tuple[int, int]:
    """FlashAttention's block sizes for an SRAM of ``sram`` elements (Algorithm 1, line 1): B_c = ceil(M / 4d) keys,
    B_r = min(ceil(M / 4d), d) queries."""
    sram, d = check_int("M", sram, 1, 10**9), check_int("d", d, 1, 4096)
    block_c = math.ceil(sram / (4 * d))
    return block_c, min(block_c, d)


def flash_sram_need(d: int, block_c: int, block_r: int) -> int:
    """Elements held on chip at once in Algorithm 1's inner step: K_j, V_j (2 B_c d), Q_i, O_i (2 B_r d), S_ij = P_ij
    (B_r B_c), and l_i, m_i with their block values (4 B_r)."""
    return 2 * block_c * d + 2 * block_r * d + block_r * block_c + 4 * block_r


def key_blocks(n: int, block_c: int) -> int:
    """T_c = ceil(N / B_c): the blocks of keys FlashAttention's outer loop runs over, each a pass over all the queries."""
    return math.ceil(check_int("N", n, 0, 10**7) / check_int("B_c", block_c, 1, 10**7))


def flash_traffic(n: int, d: int, block_c: int, block_r: int) -> Traffic:
    """FlashAttention's Algorithm 1, counted from its lines: O, l, m initialised in HBM (writes Nd + 2N); for each of the
    T_c = ceil(N / B_c) blocks of keys: K_j, V_j read once (2Nd over all blocks), then every block of queries reads Q_i, O_i,
    l_i, m_i (2Nd + 2N a pass) and writes O_i, l_i, m_i (Nd + 2N a pass). Reads 2Nd + T_c (2Nd + 2N), writes
    Nd + 2N + T_c (Nd + 2N): Theta(N^2 d^2 / M) with B_c = M / 4d. B_r changes what is held on chip, not the traffic."""
    n, d = check_int("N", n, 1, 10**7), check_int("d", d, 1, 4096)
    block_c, block_r = check_int("B_c", block_c, 1, 10**7), check_int("B_r", block_r, 1, 10**7)
    passes = key_blocks(n, block_c)  # T_c
    return Traffic(reads=2 * n * d + passes * (2 * n * d + 2 * n), writes=n * d + 2 * n + passes * (n * d + 2 * n),
                   flops=attention_flops(n, d))


def flash_against_standard(standard: Traffic, flash: Traffic) -> tuple[float, str]:
    """How FlashAttention's traffic compares with standard attention's: (factor, "fewer" | "more" | "same"), the factor
    always at least 1 (standard / flash elements when FlashAttention moves fewer, flash / standard when it moves more).
    With the paper's blocks (B_c = M / 4d) FlashAttention moves about 3 d^2 / M times as much: it saves only when d^2 is
    well below M (d = 128 with a small SRAM, d = 256 with any of today's, move more)."""
    if flash.elements == standard.elements:
        return 1.0, "same"
    if flash.elements < standard.elements:
        return standard.elements / flash.elements, "fewer"
    return flash.elements / standard.elements, "more"


class _Memory:
    """The simulation's HBM: named arrays; every load and store counts the elements it moves."""

    def __init__(self, **arrays: NDArray) -> None:
        self.arrays = {name: np.array(a, dtype=float) for name, a in arrays.items()}
        self.reads = self.writes = 0

    def load(self, name: str, rows: slice) -> NDArray:
        part = self.arrays[name][rows].copy()
        self.reads += part.size
        return part

    def store(self, name: str, rows: slice, value: NDArray) -> None:
        self.arrays[name][rows] = value
        self.writes += np.size(value)


@dataclass(frozen=True)
class TiledRun:
    """Attention run as a GPU kernel would, with HBM's loads and stores counted: output (N, d); reads and writes (elements)."""

    output: NDArray
    reads: int
    writes: int

    def __post_init__(self) -> None:
        frozen(self)


def simulate_standard(q: NDArray, k: NDArray, v: NDArray, block: int = 16) -> TiledRun:
    """Algorithm 0 run in blocks of ``block`` rows, counting HBM traffic: Q and K read (by blocks), S = Q K^T / sqrt(d)
    written; S read and P = softmax(S) written, row block by row block; P and V read, O = P V written."""
    memory = _Memory(Q=q, K=k, V=v, S=np.zeros((len(q), len(k))), P=np.zeros((len(q), len(k))), O=np.zeros(np.shape(v)))
    n, d = np.shape(q)
    blocks = [slice(start, min(start + block, n)) for start in range(0, n, block)]
    key = memory.load("K", slice(None))  # (N, d): all of K, once
    for rows in blocks:
        memory.store("S", rows, memory.load("Q", rows) @ key.T / math.sqrt(d))  # (B, N)
    for rows in blocks:
        memory.store("P", rows, softmax(memory.load("S", rows)))  # (B, N)
    value = memory.load("V", slice(None))  # (N, d): all of V, once
    for rows in blocks:
        memory.store("O", rows, memory.load("P", rows) @ value)  # (B, d)
    return TiledRun(memory.arrays["O"], memory.reads, memory.writes)


def simulate_flash(q: NDArray, k: NDArray, v: NDArray, block_c: int, block_r: int) -> TiledRun:
    """FlashAttention's Algorithm 1 run line by line, counting HBM traffic (scores scaled by 1 / sqrt(d), as the rest of
    the core): O = 0, l = 0, m = -inf stored; for each block of keys j: load K_j, V_j; for each block of queries i: load
    Q_i, O_i, l_i, m_i; S = Q_i K_j^T; m~ = rowmax(S), P~ = exp(S - m~), l~ = rowsum(P~); m' = max(m_i, m~),
    l' = e^(m_i - m') l_i + e^(m~ - m') l~; O_i <- (l_i e^(m_i - m') O_i + e^(m~ - m') P~ V_j) / l'; store O_i, l', m'."""
    n, d = np.shape(q)
    memory = _Memory(Q=q, K=k, V=v, O=np.empty((n, d)), l=np.empty(n), m=np.empty(n))
    everything = slice(None)
    memory.store("O", everything, np.zeros((n, d)))
    memory.store("l", everything, np.zeros(n))
    memory.store("m", everything, np.full(n, -np.inf))
    for start_c in range(0, n, block_c):
        cols = slice(start_c, min(start_c + block_c, n))
        k_j, v_j = memory.load("K", cols), memory.load("V", cols)  # (B_c, d) each
        for start_r in range(0, n, block_r):
            rows = slice(start_r, min(start_r + block_r, n))
            q_i, o_i, l_i, m_i = (memory.load(name, rows) for name in ("Q", "O", "l", "m"))
            s = q_i @ k_j.T / math.sqrt(d)  # (B_r, B_c), on chip only
            m_block = s.max(axis=1)
            p = np.exp(s - m_block[:, None])
            m_new = np.maximum(m_i, m_block)
            old, new = np.exp(m_i - m_new), np.exp(m_block - m_new)  # old is 0 before the first block (m_i = -inf)
            l_new = old * l_i + new * p.sum(axis=1)
            memory.store("O", rows, ((l_i * old)[:, None] * o_i + new[:, None] * (p @ v_j)) / l_new[:, None])
            memory.store("l", rows, l_new)
            memory.store("m", rows, m_new)
    return TiledRun(memory.arrays["O"], memory.reads, memory.writes)


@dataclass(frozen=True)
class GPU:
    """A GPU's two roofs: peak dense BF16 Tensor Core throughput (FLOP/s, without 2:4 sparsity) and HBM bandwidth
    (bytes/s), from NVIDIA's data sheets (assets/text names each)."""

    peak: float
    bandwidth: float

    @property
    def ridge(self) -> float:
        """The intensity (FLOP/byte) where the roofs meet: peak / bandwidth. Below it a kernel waits for memory."""
        return self.peak / self.bandwidth


# NVIDIA A100 Tensor Core GPU data sheet (A100 80GB SXM: BF16 Tensor Core 312 TFLOPS, 624 with sparsity; 2,039 GB/s).
# NVIDIA H100 Tensor Core GPU data sheet (H100 SXM: BF16 Tensor Core 1,979 TFLOPS with sparsity; 3.35 TB/s).
# NVIDIA H200 Tensor Core GPU data sheet (H200 SXM: BF16 Tensor Core 1,979 TFLOPS with sparsity; 4.8 TB/s).
# NVIDIA HGX B200 (8 GPUs: FP16/BF16 Tensor Core 36 PFLOPS with sparsity) and DGX B200 data sheet (64 TB/s HBM3e for 8).
GPUS = {
    "a100": GPU(peak=312e12, bandwidth=2.039e12),
    "h100": GPU(peak=1979e12 / 2, bandwidth=3.35e12),
    "h200": GPU(peak=1979e12 / 2, bandwidth=4.8e12),
    "b200": GPU(peak=36e15 / 8 / 2, bandwidth=64e12 / 8),
}


@dataclass(frozen=True)
class RooflinePoint:
    """A kernel on a GPU's roofline: intensity (FLOP/byte); attainable (FLOP/s) = min(peak, intensity x bandwidth);
    compute_time = FLOPs / peak and memory_time = bytes / bandwidth (s); time, the larger; bound "memory" or "compute"."""

    intensity: float
    attainable: float
    compute_time: float
    memory_time: float

    @property
    def time(self) -> float:
        """The roofline's time: max(compute_time, memory_time) (the two overlap at best)."""
        return max(self.compute_time, self.memory_time)

    @property
    def bound(self) -> str:
        """What limits it: "memory" below the ridge, else "compute"."""
        return "memory" if self.memory_time > self.compute_time else "compute"


def roofline(gpu: GPU, traffic: Traffic, bytes_per_element: int = 2) -> RooflinePoint:
    """Where ``traffic`` sits on ``gpu``'s roofline (a model: every byte at full bandwidth, every FLOP at peak, no caches)."""
    moved = traffic.bytes(bytes_per_element)
    intensity = traffic.flops / moved
    return RooflinePoint(intensity, min(gpu.peak, intensity * gpu.bandwidth), traffic.flops / gpu.peak, moved / gpu.bandwidth)
