"""Sparse top-k attention (DeepSeek-V3.2-Exp's DSA), exactly: a lightning indexer
I_ts = sum_j w_tj ReLU(q^I_tj . k^I_s) scores the keys cheaply; each query keeps its top-k keys and attention runs on
those only. With k = n it is dense attention exactly. Also the distance from dense attention as k grows, and the cost
O(n k) against O(n^2) with DeepSeek-V3.2's sizes.

Shapes: n tokens, (n_q, n_k) for query-key matrices, rows are queries. Row vectors throughout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import MAX_SMALL, check_int, check_matrix, frozen
from attention_core.attention import causal_mask, softmax
from attention_core.multihead import glorot_uniform


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
