"""Why divide by sqrt(d_k): seeded, vectorised Monte Carlo experiments on random queries and keys.

With q and k of d_k independent N(0, 1) components, q . k has mean 0 and variance d_k. Given
q, the scores q . k_j over independent keys are exactly N(0, |q|^2), and |q|^2 follows a
chi-square law with d_k degrees of freedom; sampling |q| and then the scores this way is exact
and needs memory for (samples, n_keys) numbers only, whatever d_k is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_float, check_int, frozen
from attention_core.attention import softmax
from attention_core.measures import entropy_bits

MAX_D_K = 4096
MAX_KEYS = 512
MAX_SAMPLES = 50_000
MEMORY_LIMIT_BYTES = 200 * 2**20
ARRAYS_PER_CELL = 6  # raw, scaled, exp, weights, and two temporaries for the statistics


def memory_bytes(samples: int, n_keys: int) -> int:
    """Peak bytes an experiment of (samples, n_keys) float64 scores needs (a few arrays of that size)."""
    return samples * n_keys * 8 * ARRAYS_PER_CELL


def check_lab(d_k: int, n_keys: int, samples: int) -> tuple[int, int, int]:
    """Validate the lab's sizes, including the memory they need (at most 200 MB)."""
    d_k = check_int("d_k", d_k, 1, MAX_D_K)
    n_keys = check_int("number of keys", n_keys, 2, MAX_KEYS)
    samples = check_int("samples", samples, 10, MAX_SAMPLES)
    need = memory_bytes(samples, n_keys)
    if need > MEMORY_LIMIT_BYTES:
        raise ValueError(f"samples x keys = {samples} x {n_keys} needs about {need / 2**20:.0f} MB, more than the "
                         f"{MEMORY_LIMIT_BYTES / 2**20:.0f} MB limit: use fewer samples or keys")
    return d_k, n_keys, samples


def sample_raw_scores(d_k: int, n_keys: int, samples: int, rng: np.random.Generator) -> NDArray:  # -> (samples, n_keys)
    """Raw scores q . k_j for ``samples`` random queries against ``n_keys`` random keys, all N(0, I_{d_k}).

    Exact in distribution: |q| = sqrt(chi2(d_k)) per query, then q . k_j = |q| z_j with z_j ~ N(0, 1).
    """
    d_k, n_keys, samples = check_lab(d_k, n_keys, samples)
    norms = np.sqrt(rng.chisquare(d_k, size=(samples, 1)))  # |q|
    return frozen(norms * rng.standard_normal((samples, n_keys)))


def direct_raw_scores(d_k: int, n_keys: int, samples: int, rng: np.random.Generator) -> NDArray:  # -> (samples, n_keys)
    """The same experiment done literally: draw q and every k, take the dot products q . k_j (for small sizes and tests)."""
    q = rng.standard_normal((samples, 1, d_k))
    k = rng.standard_normal((samples, n_keys, d_k))
    return frozen((q * k).sum(axis=-1))


def softmax_jacobian(weights: NDArray) -> NDArray:  # (n,) -> (n, n)
    """Jacobian of softmax at the point whose output is ``weights``: J_ij = p_i (delta_ij - p_j)."""
    p = np.asarray(weights, dtype=np.float64)
    return frozen(np.diag(p) - np.outer(p, p))


def jacobian_norms(weights: NDArray) -> NDArray:  # (..., n) -> (...)
    """Frobenius norm of the softmax Jacobian of each row, without building it.

    ||J||_F^2 = sum_i p_i^2 - 2 sum_i p_i^3 + (sum_i p_i^2)^2.
    """
    p2 = (weights * weights).sum(axis=-1)
    p3 = (weights * weights * weights).sum(axis=-1)
    return frozen(np.sqrt(np.maximum(p2 - 2 * p3 + p2 * p2, 0.0)))


def loser_gradients(weights: NDArray) -> NDArray:  # (..., n) -> (...)
    """Mean of da_j/ds_j = a_j (1 - a_j) over the keys j that are not the row's largest weight.

    The gradient that reaches the keys that are not winning now: what lets attention move to
    another key while learning. It falls towards 0 as softmax saturates (a_j -> 0).
    """
    p = np.asarray(weights, dtype=np.float64)
    own = p * (1.0 - p)  # (..., n): diagonal of the softmax Jacobian
    winner = np.take_along_axis(own, np.argmax(p, axis=-1)[..., None], axis=-1)[..., 0]  # (...)
    return frozen((own.sum(axis=-1) - winner) / max(p.shape[-1] - 1, 1))


@dataclass(frozen=True)
class SoftmaxStats:
    """Means over samples of softmax(raw / divisor): entropy (bits), largest weight, Jacobian norm, and the
    gradient reaching the keys that are not winning (``loser_gradient``); ``spread`` is the standard deviation of
    the scores softmax sees, raw / divisor."""

    divisor: float
    spread: float
    entropy: float
    max_weight: float
    gradient: float
    loser_gradient: float


def softmax_stats(raw: NDArray, divisor: float) -> SoftmaxStats:
    """Statistics of the softmax of raw scores (samples, n_keys) divided by ``divisor``: scaled = raw / divisor,
    weights = softmax(scaled), each statistic averaged over the samples."""
    divisor = check_float("divisor", divisor, 1e-9, 1e9)
    scaled_scores = raw / divisor
    weights = softmax(scaled_scores)
    return SoftmaxStats(divisor=divisor, spread=float(scaled_scores.std()), entropy=float(entropy_bits(weights).mean()),
                        max_weight=float(weights.max(axis=-1).mean()), gradient=float(jacobian_norms(weights).mean()),
                        loser_gradient=float(loser_gradients(weights).mean()))


BUG_D_MODEL = 512  # the article's model: d_model = 512 split over 8 heads
BUG_HEADS = 8


@dataclass(frozen=True)
class DivisorChoices:
    """One experiment's raw scores at d_k = d_model / heads, divided three ways: ``none`` by 1, ``right`` by
    sqrt(d_k), ``wrong`` by sqrt(d_model) (the bug). ``ratio`` = sqrt(d_model) / sqrt(d_k) = sqrt(heads): how much
    larger q . k must grow under the bug before softmax sees the scores it sees with sqrt(d_k)."""

    d_model: int
    heads: int
    d_k: int
    none: SoftmaxStats
    right: SoftmaxStats
    wrong: SoftmaxStats

    @property
    def ratio(self) -> float:
        """sqrt(d_model) / sqrt(d_k) = sqrt(heads)."""
        return self.wrong.divisor / self.right.divisor

    def ranked(self) -> tuple[str, ...]:
        """The three names, most gradient reaching the non-winning keys (``loser_gradient``) first."""
        return tuple(sorted(("none", "right", "wrong"), key=lambda name: -getattr(self, name).loser_gradient))

    def closest_spread(self) -> str:
        """The name whose scores reach softmax with the spread nearest 1 (what the division is meant to give)."""
        return min(("none", "right", "wrong"), key=lambda name: abs(getattr(self, name).spread - 1.0))


def divisor_choices(n_keys: int, samples: int, *, seed: int = 0, d_model: int = BUG_D_MODEL,
                    heads: int = BUG_HEADS) -> DivisorChoices:
    """Softmax statistics of the same seeded raw scores (d_k = d_model / heads) divided by 1, sqrt(d_k) and
    sqrt(d_model)."""
    d_model = check_int("d_model", d_model, 1, MAX_D_K)
    heads = check_int("heads", heads, 1, d_model)
    if d_model % heads:
        raise ValueError(f"heads must divide d_model = {d_model}")
    d_k = d_model // heads
    raw = sample_raw_scores(d_k, n_keys, samples, np.random.default_rng(check_int("seed", seed, 0, 2**32 - 1)))
    return DivisorChoices(d_model, heads, d_k, *(softmax_stats(raw, divisor) for divisor in (1.0, math.sqrt(d_k), math.sqrt(d_model))))


@dataclass(frozen=True)
class Sweep:
    """Softmax statistics over d_k = 1, 2, 4, ..., 4096, raw (unscaled) and scaled by sqrt(d_k) * temperature.

    Each array has one entry per d_k: variance of the raw scores, mean entropy (bits), mean
    largest weight, mean Jacobian norm and mean gradient reaching the non-winning keys, for raw
    and scaled scores.
    """

    d_k: NDArray[np.int64]
    variance: NDArray[np.float64]
    raw_entropy: NDArray[np.float64]
    scaled_entropy: NDArray[np.float64]
    raw_max_weight: NDArray[np.float64]
    scaled_max_weight: NDArray[np.float64]
    raw_gradient: NDArray[np.float64]
    scaled_gradient: NDArray[np.float64]
    raw_loser_gradient: NDArray[np.float64]
    scaled_loser_gradient: NDArray[np.float64]
    n_keys: int
    samples: int
    temperature: float
    seed: int

    def __post_init__(self) -> None:
        frozen(self)


SWEEP_D_K = tuple(2**i for i in range(13))  # 1 .. 4096


def sweep(n_keys: int, samples: int, *, seed: int = 0, temperature: float = 1.0) -> Sweep:
    """Run the experiment at every d_k in 1, 2, ..., 4096 with one seeded generator.

    The same standard normals z (samples, n_keys) serve every d_k (common random numbers),
    so the curves differ only through d_k: raw = |q| z with |q|^2 ~ chi2(d_k).
    Raw scores are divided by the temperature only; scaled ones by sqrt(d_k) * temperature.
    """
    check_lab(1, n_keys, samples)
    temperature = check_float("temperature", temperature, 1e-3, 1e3)
    rng = np.random.default_rng(check_int("seed", seed, 0, 2**32 - 1))
    z = rng.standard_normal((samples, n_keys))
    rows: dict[str, list[float]] = {name: [] for name in ("variance", "raw_entropy", "scaled_entropy", "raw_max_weight",
                                                          "scaled_max_weight", "raw_gradient", "scaled_gradient",
                                                          "raw_loser_gradient", "scaled_loser_gradient")}
    for d_k in SWEEP_D_K:
        raw = np.sqrt(rng.chisquare(d_k, size=(samples, 1))) * z
        rows["variance"].append(float(raw.var()))
        for kind, divisor in (("raw", temperature), ("scaled", math.sqrt(d_k) * temperature)):
            stats = softmax_stats(raw, divisor)
            rows[f"{kind}_entropy"].append(stats.entropy)
            rows[f"{kind}_max_weight"].append(stats.max_weight)
            rows[f"{kind}_gradient"].append(stats.gradient)
            rows[f"{kind}_loser_gradient"].append(stats.loser_gradient)
    return Sweep(d_k=np.array(SWEEP_D_K), **{name: np.array(values) for name, values in rows.items()},
                 n_keys=n_keys, samples=samples, temperature=temperature, seed=seed)


def score_histogram(values: NDArray, bins: int = 60, limit: float | None = None) -> tuple[NDArray, NDArray]:
    """(edges (bins + 1,), counts (bins,)) of ``values`` (any shape) in ``bins`` equal bins over [-limit, limit]
    (default: the largest |value|)."""
    values = np.asarray(values, dtype=np.float64).ravel()
    bound = float(np.abs(values).max()) if limit is None else float(limit)
    counts, edges = np.histogram(values, bins=bins, range=(-bound, bound) if bound > 0 else (-1, 1))
    return frozen((edges, counts))
