"""The five score (similarity) functions of the article: dot, scaled_dot, additive, bilinear, cosine.

Each maps queries q (n_q, d_q) and keys k (n_k, d_k) to raw scores (n_q, n_k), rows =
queries, columns = keys, and names the divisor applied before softmax.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import frozen

ScoreParameters = Mapping[str, object]  # a score function's own parameters by name (W, U, v, divisor), as attend's ``params``

DEFAULT_COSINE_DIVISOR = 0.1  # softmax over cosines in [-1, 1] is nearly flat undivided


def dot_scores(q: NDArray, k: NDArray, params: ScoreParameters) -> NDArray:  # (n_q, d), (n_k, d) -> (n_q, n_k)
    """Dot product: s_ij = q_i . k_j."""
    return frozen(q @ k.T)


def additive_scores(q: NDArray, k: NDArray, params: ScoreParameters) -> NDArray:  # -> (n_q, n_k)
    """Additive (Bahdanau): s_ij = v^T tanh(W q_i + U k_j), here in rows: tanh(q_i W + k_j U) v.

    params: ``W`` (d_q, d_a), ``U`` (d_k, d_a), ``v`` (d_a,).
    """
    hidden = np.tanh((q @ params["W"])[:, None, :] + (k @ params["U"])[None, :, :])  # (n_q, n_k, d_a)
    return frozen(hidden @ params["v"])


def bilinear_scores(q: NDArray, k: NDArray, params: ScoreParameters) -> NDArray:  # -> (n_q, n_k)
    """Bilinear (multiplicative, Luong "general"): s_ij = q_i^T W k_j.  params: ``W`` (d_q, d_k)."""
    return frozen(q @ params["W"] @ k.T)


def cosine_scores(q: NDArray, k: NDArray, params: ScoreParameters) -> NDArray:  # -> (n_q, n_k) in [-1, 1]
    """Cosine similarity: s_ij = (q_i . k_j) / (|q_i| |k_j|); 0 where a vector is zero."""
    q_norm = np.linalg.norm(q, axis=1, keepdims=True)  # (n_q, 1)
    k_norm = np.linalg.norm(k, axis=1, keepdims=True)  # (n_k, 1)
    q_unit = np.divide(q, q_norm, out=np.zeros_like(q), where=q_norm > 0)
    k_unit = np.divide(k, k_norm, out=np.zeros_like(k), where=k_norm > 0)
    return frozen(np.clip(q_unit @ k_unit.T, -1.0, 1.0))


def _no_params(d_q: int, d_k: int, rng: np.random.Generator) -> dict[str, object]:
    return {}


def _additive_params(d_q: int, d_k: int, rng: np.random.Generator) -> dict[str, object]:
    """Glorot-uniform W (d_q, d_a), U (d_k, d_a), v (d_a,) with d_a = d_k."""
    d_a = d_k
    return frozen({
        "W": rng.uniform(-1, 1, (d_q, d_a)) * math.sqrt(6 / (d_q + d_a)),
        "U": rng.uniform(-1, 1, (d_k, d_a)) * math.sqrt(6 / (d_k + d_a)),
        "v": rng.uniform(-1, 1, d_a) * math.sqrt(6 / (d_a + 1)),
    })


def _bilinear_params(d_q: int, d_k: int, rng: np.random.Generator) -> dict[str, object]:
    """W (d_q, d_k) near the identity, so bilinear starts close to the dot product."""
    return frozen({"W": np.eye(d_q, d_k) + rng.normal(0.0, 1.0 / math.sqrt(d_k), (d_q, d_k))})


def _cosine_params(d_q: int, d_k: int, rng: np.random.Generator) -> dict[str, object]:
    """``divisor``: the cosines are divided by it before softmax."""
    return {"divisor": DEFAULT_COSINE_DIVISOR}


@dataclass(frozen=True)
class ScoreFunction:
    """A score function: raw scores, the divisor before softmax, and default parameters."""

    name: str
    scores: Callable[[NDArray, NDArray, ScoreParameters], NDArray]  # (q, k, params) -> (n_q, n_k)
    divisor: Callable[[int, ScoreParameters], float]  # (d_k, params) -> number the scores are divided by
    default_params: Callable[[int, int, np.random.Generator], dict[str, object]]
    same_size: bool  # True when q and k must have the same length d_k


SCORE_FUNCTIONS: dict[str, ScoreFunction] = {
    "dot": ScoreFunction("dot", dot_scores, lambda d_k, p: 1.0, _no_params, True),
    "scaled_dot": ScoreFunction("scaled_dot", dot_scores, lambda d_k, p: math.sqrt(d_k), _no_params, True),
    "additive": ScoreFunction("additive", additive_scores, lambda d_k, p: 1.0, _additive_params, False),
    "bilinear": ScoreFunction("bilinear", bilinear_scores, lambda d_k, p: 1.0, _bilinear_params, False),
    "cosine": ScoreFunction("cosine", cosine_scores, lambda d_k, p: float(p["divisor"]), _cosine_params, True),
}
SCORES = tuple(SCORE_FUNCTIONS)
