"""Measures and variants used to compare kinds of attention: entropy, Gumbel-softmax, asymmetry, cosine."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_float, check_matrix, frozen
from attention_core.attention import softmax
from attention_core.scores import cosine_scores


def entropy_bits(weights: NDArray) -> NDArray:  # (n_q, n_k) -> (n_q,)
    """Entropy of each row of attention weights (..., n_k), in bits, (...): H_i = -sum_j a_ij log2 a_ij (0 log 0 = 0).

    A uniform row over n keys has log2(n) bits; a one-hot row has 0.
    """
    weights = np.asarray(weights, dtype=np.float64)
    logs = np.log2(weights, out=np.zeros_like(weights), where=weights > 0)
    return frozen(np.maximum(-(weights * logs).sum(axis=-1), 0.0))


def gumbel_noise(shape: tuple[int, ...], rng: np.random.Generator) -> NDArray:
    """Standard Gumbel noise g = -log(-log u), u ~ U(0, 1), of the given shape."""
    uniform = rng.random(shape)
    return frozen(-np.log(-np.log(np.clip(uniform, 1e-300, 1.0 - 1e-16))))


def gumbel_softmax(scores: NDArray, temperature: float, noise: NDArray, mask: NDArray | None = None) -> NDArray:
    """Gumbel-softmax (Jang et al. 2017): a differentiable stand-in for sampling one key.

    Parameters
    ----------
    scores : (n_q, n_k) scaled scores (logits).
    temperature : tau > 0; as tau -> 0 each row approaches a one-hot sample, large tau flattens it.
    noise : (n_q, n_k) Gumbel noise (keep it fixed to watch one sample sharpen as tau falls).
    mask : (n_q, n_k) bool, True where allowed.

    Notes
    -----
    y_ij = exp((s_ij + g_ij) / tau) / sum_j' exp((s_ij' + g_ij') / tau).
    """
    temperature = check_float("temperature", temperature, 1e-6, 1e6)
    return softmax((np.asarray(scores) + np.asarray(noise)) / temperature, mask)


def asymmetry(scores: NDArray) -> NDArray:  # (n, n) -> (n, n)
    """S - S^T (n, n): zero everywhere exactly when the score matrix S (n, n) is symmetric (i looking for j = j looking
    for i)."""
    scores = check_matrix("scores", scores)
    if scores.shape[0] != scores.shape[1]:
        raise ValueError(f"asymmetry needs a square score matrix, got shape {scores.shape}")
    return frozen(scores - scores.T)


def weighted_sum(weights: NDArray, values: NDArray) -> NDArray:  # (n_q, n_k), (n_k, d) -> (n_q, d)
    """z_i = sum_j a_ij v_j, (n_q, d) from weights (n_q, n_k) and values (n_k, d): the attention output for any choice of
    values (V, or the raw inputs X)."""
    return frozen(np.asarray(weights, dtype=np.float64) @ np.asarray(values, dtype=np.float64))


def polar_vector(angle_degrees: float, length: float) -> NDArray:  # -> (2,)
    """The 2-D vector (2,) of the given length at the given angle (degrees): length * (cos a, sin a)."""
    angle = math.radians(check_float("angle", angle_degrees, -360.0, 360.0))
    length = check_float("length", length, 0.0, 1e6)
    return frozen(np.array([length * math.cos(angle), length * math.sin(angle)]))


def cosine_similarity(a: NDArray, b: NDArray) -> float:
    """cos(theta) = a.b / (|a| |b|) of two vectors (d,), in [-1, 1]; 0 when either vector is zero."""
    return float(cosine_scores(np.atleast_2d(a).astype(np.float64), np.atleast_2d(b).astype(np.float64), {})[0, 0])


def softmax_over_scales(scores: NDArray, scales: NDArray) -> NDArray:  # (n_k,), (m,) -> (m, n_k)
    """Softmax of one row of scores (n_k,) multiplied by each of the scales (m,): row m of the result (m, n_k) is
    softmax(scales[m] * scores)."""
    scores = np.asarray(scores, dtype=np.float64)
    return softmax(np.outer(np.asarray(scales, dtype=np.float64), scores))  # (m, n_k)


@dataclass(frozen=True)
class VectorPair:
    """Two 2-D vectors and how they compare: cos = a.b / (|a||b|), dot = a.b = |a||b| cos."""

    a: NDArray[np.float64]
    b: NDArray[np.float64]
    length_a: float
    length_b: float
    cos: float
    dot: float

    def __post_init__(self) -> None:
        frozen(self)


def vector_pair(angle_a: float, length_a: float, angle_b: float, length_b: float) -> VectorPair:
    """a and b (2,) from angles (degrees) and lengths, with their cosine similarity and dot product a.b = |a||b| cos."""
    a, b = polar_vector(angle_a, length_a), polar_vector(angle_b, length_b)
    return VectorPair(a=a, b=b, length_a=float(length_a), length_b=float(length_b), cos=cosine_similarity(a, b), dot=float(a @ b))


def stretch_sweep(a: NDArray, b: NDArray, lengths: NDArray) -> tuple[NDArray, NDArray]:  # -> (m,), (m,)
    """Cosine and dot product (m,) each of a (2,) with b (2,) rescaled to each of the lengths (m,): the cosine stays,
    the dot product grows linearly."""
    unit = np.asarray(b, dtype=np.float64) / max(float(np.linalg.norm(b)), 1e-300)
    stretched = np.outer(np.asarray(lengths, dtype=np.float64), unit)  # (m, 2)
    cosines = cosine_scores(stretched, np.atleast_2d(np.asarray(a, dtype=np.float64)), {})[:, 0]
    return frozen((cosines, stretched @ np.asarray(a, dtype=np.float64)))


def similarity_matrices(x: NDArray) -> tuple[NDArray, NDArray]:  # (n, d) -> (n, n), (n, n)
    """Cosine similarity and dot product (n, n) each of every pair of rows of x (n, d): x_i.x_j / (|x_i||x_j|), x_i.x_j."""
    x = check_matrix("x", x)
    return frozen((cosine_scores(x, x, {}), x @ x.T))


@dataclass(frozen=True)
class FocusRow:
    """One query's steps from its raw scores on: scaled_scores = raw_scores / divisor, weights = softmax(scaled_scores),
    output = weights V."""

    raw_scores: NDArray[np.float64]  # (n_k,)
    divisor: float
    scaled_scores: NDArray[np.float64]  # (n_k,)
    weights: NDArray[np.float64]  # (n_k,)
    output: NDArray[np.float64]  # (d_v,)

    def __post_init__(self) -> None:
        frozen(self)


def focus_row(raw_scores: NDArray, divisor: float, values: NDArray) -> FocusRow:
    """Recompute scaling (dividing by ``divisor``), softmax and the weighted sum for one query from its (edited) raw
    scores (n_k,) and the values V (n_k, d_v)."""
    raw_scores = np.array(raw_scores, dtype=np.float64).ravel()  # a copy: the row keeps it, read-only
    if not np.all(np.isfinite(raw_scores)):
        raise ValueError("every score must be a finite number")
    divisor = check_float("divisor", divisor, 1e-9, 1e9)
    values = check_matrix("values", values)
    if values.shape[0] != raw_scores.shape[0]:
        raise ValueError(f"there must be one value vector per score: {raw_scores.shape[0]} scores, {values.shape[0]} values")
    scaled_scores = raw_scores / divisor
    weights = softmax(scaled_scores[None, :])[0]
    return FocusRow(raw_scores=raw_scores, divisor=divisor, scaled_scores=scaled_scores, weights=weights, output=weights @ values)


def dot_scores_of(query: NDArray, keys: NDArray) -> NDArray:  # (d,), (n_k, d) -> (n_k,)
    """q . k_j for every key: the raw scores (n_k,) of one query q (d,) against keys (n_k, d)."""
    keys = check_matrix("keys", keys)
    query = np.asarray(query, dtype=np.float64).ravel()
    if query.shape[0] != keys.shape[1]:
        raise ValueError(f"q has {query.shape[0]} numbers but each key has {keys.shape[1]}")
    if not np.all(np.isfinite(query)):
        raise ValueError("every number of q must be finite")
    return frozen(keys @ query)
