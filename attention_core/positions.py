"""Where words are: attention without positions (permutation-equivariant), and the ways models add them.

Row vectors throughout: X (n, d), Q = X W_Q (n, d_k). Four schemes beside "none":
    sinusoidal  X + PE (Vaswani et al., 2017), added to the input once
    learned     X + P[:n], P a trained table (MiniLM's, in ``pretrained``), added once
    rope        q_m -> R(m) q_m, k_n -> R(n) k_n, R(m) rotating each pair of dimensions (2i, 2i + 1) by m * theta_i,
                theta_i = base^(-2i / d_k) (Su et al., 2021): q_m . k_n then depends on m - n only
    alibi       scores s_mn - slope_h * (m - n) for keys n <= m (Press et al., 2022): a linear penalty per head,
                slopes 2^(-8 i / H) for H a power of two (other H: see ``alibi_slopes``)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_int, frozen
from attention_core.attention import softmax
from attention_core.embedding import positional_encoding

SCHEMES = ("none", "sinusoidal", "learned", "rope", "alibi")
SHUFFLES = ("reverse", "rotate", "swap")


def rope_angles(n: int, d_k: int, base: float = 10_000.0, start: int = 0) -> NDArray:
    """The rotation angle of each position and pair, (n, d_k / 2): (start + m) * base^(-2i / d_k)."""
    n = check_int("n", n, 0, 1_000_000)
    d_k = check_int("d_k", d_k, 2, 4096)
    if d_k % 2:
        raise ValueError("RoPE rotates pairs of dimensions: d_k must be even")
    theta = base ** (-np.arange(0, d_k, 2) / d_k)  # (d_k / 2,)
    return frozen((start + np.arange(n))[:, None] * theta[None, :])


def rope(x: NDArray, base: float = 10_000.0, start: int = 0) -> NDArray:
    """Rotate each row m of ``x`` (n, d_k) pair by pair: (x_2i, x_2i+1) -> (x_2i cos a - x_2i+1 sin a,
    x_2i sin a + x_2i+1 cos a), a = (start + m) theta_i. Lengths are kept; only directions turn."""
    x = np.asarray(x, dtype=float)
    angles = rope_angles(x.shape[0], x.shape[1], base, start)
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return frozen(out)


def rotary(x: NDArray, base: float = 10_000.0, start: int = 0) -> NDArray:
    """RoPE on (n, d) of any width: the first 2 * floor(d / 2) dimensions turned pair by pair (``rope``, theta_i over
    that even width), an odd last dimension kept as it is (models that rotate part of a head do the same, e.g. GPT-J's
    rotary_dim); d = 1 is kept whole."""
    x = np.asarray(x, dtype=float)
    pairs = x.shape[1] // 2 * 2
    if pairs == 0:
        return frozen(x.copy())
    return frozen(np.concatenate([rope(x[:, :pairs], base, start), x[:, pairs:]], axis=1))


def alibi_power_of_two(heads: int) -> int:
    """M, the largest power of two not above ``heads`` (M = H when H is a power of two)."""
    return 1 << (check_int("heads", heads, 1, 64).bit_length() - 1)


def alibi_slopes(heads: int) -> NDArray:
    """ALiBi's slope per head, (H,), by the rule of the authors' code and of BLOOM (what trained models use).

    H a power of two: 2^(-8 i / H) for heads i = 1 .. H, a geometric sequence from 2^(-8/H) down to 2^-8.
    Otherwise, with M = alibi_power_of_two(H): the M slopes of M heads, 2^(-8 i / M) for i = 1 .. M, then every other
    slope of 2M heads, 2^(-8 i / 2M) for i = 1, 3, 5, .., 2(H - M) - 1 (the paper's text gives 2^(-8 i / H) for any H).
    """
    m = alibi_power_of_two(heads)
    own = 2.0 ** (-8.0 * np.arange(1, m + 1) / m)
    between = 2.0 ** (-8.0 * np.arange(1, 2 * (heads - m), 2) / (2 * m))
    return frozen(np.concatenate([own, between]))


def alibi_bias(n: int, slope: float, causal: bool = True) -> NDArray:
    """The bias added to the scores, (n, n): -slope * (m - n) for keys at or before the query, and -inf after it
    when ``causal`` (else -slope * |m - n|)."""
    n = check_int("n", n, 0, 100_000)
    distance = np.arange(n)[:, None] - np.arange(n)[None, :]
    bias = -slope * np.abs(distance).astype(float)
    return frozen(np.where(distance < 0, -np.inf, bias) if causal else bias)


@dataclass(frozen=True)
class PositionedHead:
    """One head's attention under one position scheme: the vectors it scored, its masked scores, weights and output."""

    scheme: str
    x: NDArray  # (n, d) the input the projections saw (with added positions for sinusoidal and learned)
    q: NDArray  # (n, d_k) after RoPE's rotation where used
    k: NDArray  # (n, d_k) after RoPE's rotation where used
    v: NDArray  # (n, d_v)
    masked_scores: NDArray  # (n, n) the scaled scores q k^T / sqrt(d_k) (+ ALiBi's bias), -inf after the query when causal
    weights: NDArray  # (n, n) softmax(masked_scores)
    output: NDArray  # (n, d_v) weights v

    def __post_init__(self) -> None:
        frozen(self)


def positioned_head(tokens: NDArray, w_q: NDArray, w_k: NDArray, w_v: NDArray, scheme: str, *, added: NDArray | None = None,
                    slope: float = 0.5, causal: bool = False) -> PositionedHead:
    """One head of scaled dot-product attention over token vectors (n, d) with positions given by ``scheme``.

    ``w_q``, ``w_k`` (d, d_k), ``w_v`` (d, d_v); ``added`` (>= n, d) is the table added for "sinusoidal" and "learned";
    ``slope`` is ALiBi's; ``causal`` masks later keys.
    x = tokens (+ added[:n]); q = x W_Q, k = x W_K (each rotated by RoPE where used), v = x W_V;
    scaled scores q k^T / sqrt(d_k) (- slope |i - j| for ALiBi); masked scores -inf after the query when causal;
    weights = softmax(masked scores); output = weights v.
    """
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {SCHEMES}")
    tokens = np.asarray(tokens, dtype=float)
    n = tokens.shape[0]
    if scheme in ("sinusoidal", "learned") and added is None:
        raise ValueError(f"{scheme} positions need the table to add")
    x = np.array(tokens + added[:n] if scheme in ("sinusoidal", "learned") else tokens)  # (n, d), a copy the head keeps
    q, k = (rope(x @ w_q), rope(x @ w_k)) if scheme == "rope" else (x @ w_q, x @ w_k)  # (n, d_k) each
    v = x @ w_v  # (n, d_v)
    scaled_scores = q @ k.T / math.sqrt(q.shape[1])  # (n, n)
    biased_scores = scaled_scores + alibi_bias(n, slope, causal=False) if scheme == "alibi" else scaled_scores  # (n, n)
    allowed = np.tril(np.ones((n, n), dtype=bool)) if causal else None
    masked_scores = np.where(allowed, biased_scores, -np.inf) if causal else biased_scores  # (n, n)
    weights = softmax(masked_scores, allowed)
    return PositionedHead(scheme, x, q, k, v, masked_scores, weights, weights @ v)


def shuffle_order(shuffle: str, n: int) -> NDArray:
    """A shuffled sentence's order (n,) (its token i is the old token order[i]): "reverse"; "rotate" (the first word to
    the end); "swap" the 2nd and last words ("the dog bit the man" -> "the man bit the dog")."""
    if shuffle not in SHUFFLES:
        raise ValueError(f"shuffle must be one of {SHUFFLES}")
    order = np.arange(n)
    if shuffle == "reverse":
        return frozen(order[::-1].copy())
    if shuffle == "rotate":
        return frozen(np.roll(order, -1))
    if n > 2:
        order[[1, n - 1]] = order[[n - 1, 1]]
    return frozen(order)


def mean_distance(weights: NDArray) -> float:
    """How far a head looks, on average, from its weights (n, n): sum_j w_ij |i - j|, averaged over the queries."""
    n = weights.shape[0]
    return float((weights * np.abs(np.arange(n)[:, None] - np.arange(n)[None, :])).sum(axis=1).mean())


def rope_grid(q: NDArray, k: NDArray, span: int) -> NDArray:
    """(span, span): (R(m) q) . (R(n) k) / sqrt(d_k) with q (d_k,) placed at position m (row) and k (d_k,) at n (column)."""
    return frozen(rope(np.tile(q, (span, 1))) @ rope(np.tile(k, (span, 1))).T / math.sqrt(q.size))


def sinusoidal_grid(x_q: NDArray, x_k: NDArray, w_q: NDArray, w_k: NDArray, span: int) -> NDArray:
    """(span, span): ((x_q + PE_m) W_Q) . ((x_k + PE_n) W_K) / sqrt(d_k), the same two words x_q, x_k (d,) with
    positions added; W_Q, W_K (d, d_k)."""
    pe = positional_encoding(span, x_q.size)
    return frozen(((x_q + pe) @ w_q) @ ((x_k + pe) @ w_k).T / math.sqrt(w_q.shape[1]))


def diagonal_spread(grid: NDArray) -> float:
    """The largest spread (max - min) along any diagonal m - n = const of a square grid (n, n): 0 when the grid depends
    on m - n only."""
    n = grid.shape[0]
    return max(float(np.ptp(np.diagonal(grid, offset))) for offset in range(-(n - 1), n))


def permuted(head: PositionedHead, order: NDArray) -> tuple[NDArray, NDArray]:
    """What equivariance predicts for the shuffled sentence (token i of the new sentence = token order[i] of the old,
    ``order`` (n,)): the old weights (n, n) and outputs (n, d_v) with rows and columns taken in that order."""
    order = np.asarray(order)
    return frozen((head.weights[np.ix_(order, order)], head.output[order]))
