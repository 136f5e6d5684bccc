"""Two walks of the same sentence side by side: the numbers that say what changed from A to B, per query row.

A compare view shows walk A and walk B (the same sentence under two settings) stepped together; beside each step it
says, for the focused word, the numbers that change the story: how spread out a row of scores is, how much weight its
largest key takes and how undecided the row is (entropy), how much weight moved between A and B, and how far B's output
row lies from A's. Every function here is per row so that the browser can pick the focused word without asking.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import frozen
from attention_core.attention import AttentionTrace
from attention_core.measures import entropy_bits


def row_spread(scores: NDArray) -> NDArray:  # (n_q, n_k) -> (n_q,)
    """The population standard deviation of each row's finite scores (masked keys, -inf, left out; 0 for a row with
    fewer than two): sigma_i = sqrt(mean_j (s_ij - mean_j s_ij)^2). Unscaled dot products of width d_k spread about
    sqrt(d_k) times as wide as scaled ones."""
    scores = np.asarray(scores, dtype=np.float64)
    finite = np.isfinite(scores)
    counts = finite.sum(axis=-1)
    safe = np.where(finite, scores, 0.0)
    means = safe.sum(axis=-1) / np.maximum(counts, 1)
    squares = np.where(finite, (safe - means[..., None]) ** 2, 0.0).sum(axis=-1)
    return frozen(np.where(counts >= 2, np.sqrt(squares / np.maximum(counts, 1)), 0.0))


def largest_weight(weights: NDArray) -> NDArray:  # (n_q, n_k) -> (n_q,)
    """Each row's largest weight: max_j a_ij (1 where one key takes everything, 1/n_k where all share alike)."""
    return frozen(np.asarray(weights, dtype=np.float64).max(axis=-1))


def weight_moved(a: NDArray, b: NDArray) -> NDArray:  # (n_q, n_k), (n_q, n_k) -> (n_q,)
    """How much of each row's weight sits on other keys in B than in A (total variation): 1/2 sum_j |b_ij - a_ij|,
    0 for the same row, 1 for rows on keys apart."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"weights of A {a.shape} and B {b.shape} must have the same shape")
    return frozen(0.5 * np.abs(b - a).sum(axis=-1))


def row_distance(a: NDArray, b: NDArray) -> NDArray:  # (n, d), (n, d) -> (n,)
    """The Euclidean distance between each row of A and the same row of B: sqrt(sum_j (b_ij - a_ij)^2)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"rows of A {a.shape} and B {b.shape} must have the same shape")
    return frozen(np.sqrt(((b - a) ** 2).sum(axis=-1)))


@dataclass(frozen=True)
class HeadMeasures:
    """One head's per-row numbers (each (n_q,)): the spread of its raw and scaled scores, its largest weight and the
    weights' entropy in bits."""

    raw_spread: NDArray[np.float64]
    scaled_spread: NDArray[np.float64]
    largest: NDArray[np.float64]
    entropy: NDArray[np.float64]

    def __post_init__(self) -> None:
        frozen(self)


def head_measures(head: AttentionTrace) -> HeadMeasures:
    """The per-row numbers of one head (``row_spread`` of its raw and scaled scores, ``largest_weight``,
    ``measures.entropy_bits`` of its weights)."""
    return HeadMeasures(row_spread(head.raw_scores), row_spread(head.scaled_scores), largest_weight(head.weights),
                        entropy_bits(head.weights))

