"""Single-head attention, one named intermediate per step: attend() -> AttentionTrace."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_choice, check_float, check_int, check_matrix, frozen
from attention_core.scores import SCORE_FUNCTIONS, ScoreFunction

MODES = ("soft", "hard", "local", "local-monotonic")
MIN_TEMPERATURE, MAX_TEMPERATURE = 1e-6, 1e6
DEFAULT_WINDOW = 2
_BIG = np.finfo(np.float64).max


@dataclass(frozen=True)
class AttentionTrace:
    """Every intermediate of one attention head; arrays are read-only, rows = queries.

    q (n_q, d_k), k (n_k, d_k), v (n_k, d_v); raw_scores, scaled_scores, masked_scores,
    weights (n_q, n_k); output (n_q, d_v). ``divisor`` is the number actually divided by:
    scaled_scores = raw_scores / divisor (the score function's divisor, e.g. sqrt(d_k),
    times the temperature). masked_scores is -inf where attention is not
    allowed. ``mask`` (n_q, n_k) is the effective mask (True = allowed), including a
    local window; ``centres`` (n_q,) holds the local window centres (None otherwise).
    """

    q: NDArray[np.float64]
    k: NDArray[np.float64]
    v: NDArray[np.float64]
    raw_scores: NDArray[np.float64]
    divisor: float
    scaled_scores: NDArray[np.float64]
    masked_scores: NDArray[np.float64]
    weights: NDArray[np.float64]
    output: NDArray[np.float64]
    mask: NDArray[np.bool_]
    score: str = "scaled_dot"
    mode: str = "soft"
    centres: NDArray[np.intp] | None = None

    def __post_init__(self) -> None:
        frozen(self)


def _finite(scores: NDArray) -> NDArray:
    """NaN as 0 and infinities as the largest float64, so that no difference of two scores is NaN."""
    return np.clip(np.nan_to_num(scores), -_BIG, _BIG)


def softmax(scores: NDArray, mask: NDArray | None = None) -> NDArray:  # (..., n_k), (..., n_k) -> (..., n_k)
    """Softmax over the last axis (each query's row of keys), over the allowed entries only: the one softmax of the core.

    ``scores`` (..., n_k), e.g. (n_q, n_k) or (batch, heads, n_q, n_k); ``mask`` broadcastable to it, True where
    allowed (None allows all). A row with nothing allowed gets all zeros; -inf scores get weight exactly 0.

    Notes
    -----
    w_ij = exp(s_ij - m_i) / sum_j' exp(s_ij' - m_i), m_i = max over allowed j of s_ij.
    Subtracting the row maximum keeps exp() from overflowing.
    """
    if mask is None or mask.all():
        row_max = scores.max(axis=-1, keepdims=True)
        if not np.isfinite(row_max).all():  # a NaN, a +inf or a row of -inf somewhere: clean the scores first
            scores = _finite(scores)
            row_max = scores.max(axis=-1, keepdims=True)
        exps = np.exp(scores - row_max)  # -inf scores (a finite row maximum) give exactly 0
        return frozen(exps / exps.sum(axis=-1, keepdims=True))
    if not np.isfinite(scores).all():
        scores = _finite(scores)
    row_max = np.max(scores, axis=-1, where=mask, keepdims=True, initial=-np.inf)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)
    shifted = np.subtract(scores, row_max, where=mask, out=np.zeros(scores.shape))  # masked entries untouched
    exps = np.exp(shifted, where=mask, out=np.zeros(scores.shape))
    total = exps.sum(axis=-1, keepdims=True)
    return frozen(np.divide(exps, total, out=np.zeros(scores.shape), where=total > 0))


def one_hot_rows(index: NDArray, n_k: int, has_any: NDArray) -> NDArray:  # (n_q,), n_k, (n_q,) -> (n_q, n_k)
    """Row i is 1 at column index[i] and 0 elsewhere; all zeros where ``has_any`` (n_q,) is False. Shape (n_q, n_k)."""
    rows = np.zeros((len(index), n_k))
    rows[np.arange(len(index)), index] = 1.0
    return frozen(rows * has_any[:, None])


def pick_keys(weights: NDArray, *, sample: bool, rng: np.random.Generator) -> NDArray:  # (n_q, n_k) -> (n_q,)
    """One key per query from weights (n_q, n_k): the argmax of each row, or a draw from the row's distribution
    (the first key whose cumulative weight passes u ~ U(0, row total)). Shape (n_q,)."""
    if not sample:
        return frozen(np.argmax(weights, axis=1))
    cumulative = np.cumsum(weights, axis=1)  # (n_q, n_k)
    draws = rng.random((weights.shape[0], 1)) * cumulative[:, -1:]
    return frozen(np.minimum((cumulative <= draws).sum(axis=1), weights.shape[1] - 1))


def causal_mask(n_q: int, n_k: int | None = None) -> NDArray[np.bool_]:
    """Causal mask (n_q, n_k): query i may attend to keys j <= i (the decoder's view)."""
    n_q = check_int("n_q", n_q, 0, 1_000_000)
    n_k = n_q if n_k is None else check_int("n_k", n_k, 0, 1_000_000)
    return frozen(np.tril(np.ones((n_q, n_k), dtype=bool)))


def window_mask(n_q: int, n_k: int | None = None, *, radius: int, centres: NDArray | None = None) -> NDArray[np.bool_]:
    """Local window mask (n_q, n_k): key j allowed for query i when |j - c_i| <= radius.

    ``centres`` (n_q,) default to the query's own position i (clipped to the last key).
    """
    n_q = check_int("n_q", n_q, 0, 1_000_000)
    n_k = n_q if n_k is None else check_int("n_k", n_k, 0, 1_000_000)
    radius = check_int("window", radius, 0, 1_000_000)
    if centres is None:
        centres = np.minimum(np.arange(n_q), max(n_k - 1, 0))
    return frozen(np.abs(np.arange(n_k)[None, :] - np.asarray(centres)[:, None]) <= radius)


def resolve_params(
    function: ScoreFunction, params: Mapping[str, object] | None, d_q: int, d_k: int, rng: np.random.Generator
) -> dict[str, object]:
    """The score function's parameters: ``params`` where given, else drawn from ``rng``; arrays are read-only copies.

    additive: W (d_q, d_a), U (d_k, d_a), v (d_a,); bilinear: W (d_q, d_k); cosine: divisor; dot and scaled_dot: none.
    """
    defaults = function.default_params(d_q, d_k, rng)
    if params is None:
        return frozen(defaults)
    missing = sorted(set(defaults) - set(params))
    if missing:
        raise ValueError(f"the {function.name} score needs parameters {', '.join(sorted(defaults))}; missing {', '.join(missing)}")
    resolved = {name: params[name] for name in defaults}
    for name, default in defaults.items():
        if isinstance(default, np.ndarray):
            value = np.array(resolved[name], dtype=np.float64)  # a copy: the caller's array stays writeable
            if value.shape != default.shape:
                raise ValueError(f"parameter {name} of the {function.name} score must have shape {default.shape}, got {value.shape}")
            resolved[name] = value
    if "divisor" in defaults:
        resolved["divisor"] = check_float("cosine divisor", resolved["divisor"], 1e-6, 1e6)
    return frozen(resolved)


def _checked(
    q: NDArray, k: NDArray, v: NDArray, score: str, mask: NDArray | None, mode: str, temperature: float, window: int | None
) -> tuple[ScoreFunction, NDArray, NDArray, NDArray, NDArray, str, float, int]:
    """The arguments of ``attend`` checked and cleaned: (function, q, k, v, mask, mode, temperature, window).

    q, k, v become float64 copies; mask becomes a bool (n_q, n_k) copy (all True when None);
    window becomes the radius (DEFAULT_WINDOW when None). Raises ValueError naming what is valid.
    """
    function = SCORE_FUNCTIONS[check_choice("score", score, SCORE_FUNCTIONS)]
    mode = check_choice("mode", mode, MODES)
    q = check_matrix("q", q)  # (n_q, d_q)
    k = check_matrix("k", k, cols=q.shape[1] if function.same_size else None)  # (n_k, d_k)
    v = check_matrix("v", v)  # (n_k, d_v)
    if v.shape[0] != k.shape[0]:
        raise ValueError(f"k and v must have one row per key: k has {k.shape[0]} rows, v has {v.shape[0]}")
    n_q, n_k = q.shape[0], k.shape[0]
    mask = np.ones((n_q, n_k), dtype=bool) if mask is None else np.array(mask, dtype=bool)
    if mask.shape != (n_q, n_k):
        raise ValueError(f"mask must have shape (n_q, n_k) = ({n_q}, {n_k}), got {mask.shape}")
    temperature = check_float("temperature", temperature, MIN_TEMPERATURE, MAX_TEMPERATURE)
    window = DEFAULT_WINDOW if window is None else check_int("window", window, 0, 4096)
    return function, q, k, v, mask, mode, temperature, window


def local_centres(
    scaled_scores: NDArray, mask: NDArray, mode: str, *, sample: bool, rng: np.random.Generator
) -> NDArray | None:  # (n_q, n_k), (n_q, n_k) -> (n_q,) or None
    """The centre c_i (n_q,) of each query's local window: the argmax (or a draw) of the soft weights
    softmax(scaled_scores) for ``local``, the query's own position min(i, n_k - 1) for ``local-monotonic``,
    None for the modes without a window."""
    n_q, n_k = scaled_scores.shape
    if mode == "local-monotonic":
        return frozen(np.minimum(np.arange(n_q), max(n_k - 1, 0)))
    if mode == "local":
        return pick_keys(softmax(scaled_scores, mask), sample=sample, rng=rng)
    return None


def hard_weights(masked_scores: NDArray, mask: NDArray, *, sample: bool, rng: np.random.Generator) -> NDArray:  # -> (n_q, n_k)
    """Hard attention (n_q, n_k): one-hot at the argmax of softmax(masked_scores) (or at a draw from it);
    all zeros in a row with nothing allowed."""
    keys = pick_keys(softmax(masked_scores, mask), sample=sample, rng=rng)  # (n_q,)
    return one_hot_rows(keys, masked_scores.shape[1], mask.any(axis=1))


def attend(
    q: NDArray,
    k: NDArray,
    v: NDArray,
    *,
    score: str = "scaled_dot",
    mask: NDArray | None = None,
    mode: str = "soft",
    temperature: float = 1.0,
    window: int | None = None,
    params: Mapping[str, object] | None = None,
    rng: np.random.Generator | None = None,
    sample: bool = False,
) -> AttentionTrace:
    """Attention of queries over keys, keeping every intermediate.

    Parameters
    ----------
    q : (n_q, d_k) queries;  k : (n_k, d_k) keys;  v : (n_k, d_v) values.
    score : one of SCORE_FUNCTIONS: dot, scaled_dot, additive, bilinear, cosine.
    mask : (n_q, n_k) bool, True where query i may attend to key j; None allows all.
    mode : soft (softmax); hard (one-hot at the argmax, or a draw when ``sample``);
        local (centre c_i found by hard attention, then softmax inside |j - c_i| <= window);
        local-monotonic (centre c_i = i, the query's own position).
    temperature : > 0; the scores are also divided by it (low = sharper).
    window : local window radius in keys (default 2).
    params : the score function's own parameters; drawn from ``rng`` when None.
    rng : numpy Generator for params and sampling; ``default_rng(0)`` when None.
    sample : hard and local modes draw the key from the soft weights instead of the argmax.

    Returns
    -------
    AttentionTrace with output (n_q, d_v) = weights @ v.

    Notes
    -----
    raw = score(q, k);  scaled = raw / divisor, divisor = divisor(score, d_k) * temperature;
    masked = scaled where allowed else -inf (local modes allow only the window);
    weights = softmax(masked) (rows sum to 1; one-hot for hard attention);  output = weights @ v.
    """
    function, q, k, v, mask, mode, temperature, window = _checked(q, k, v, score, mask, mode, temperature, window)
    rng = np.random.default_rng(0) if rng is None else rng
    params = resolve_params(function, params, q.shape[1], k.shape[1], rng)
    n_q, n_k = mask.shape

    with np.errstate(over="ignore"):  # overflowing scores become +-inf and softmax copes
        raw_scores = function.scores(q, k, params)  # (n_q, d_q), (n_k, d_k) -> (n_q, n_k)
        divisor = float(function.divisor(k.shape[1], params)) * temperature
        scaled_scores = raw_scores / divisor  # (n_q, n_k)
    centres = local_centres(scaled_scores, mask, mode, sample=sample, rng=rng)  # (n_q,), None without a window
    allowed = mask if centres is None else mask & window_mask(n_q, n_k, radius=window, centres=centres)  # (n_q, n_k)
    masked_scores = np.where(allowed, scaled_scores, -np.inf)  # (n_q, n_k)
    weights = softmax(masked_scores, allowed) if mode != "hard" else hard_weights(masked_scores, allowed, sample=sample, rng=rng)  # (n_q, n_k)
    output = weights @ v  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v)

    return AttentionTrace(
        q=q, k=k, v=v, raw_scores=raw_scores, divisor=divisor, scaled_scores=scaled_scores,
        masked_scores=masked_scores, weights=weights, output=output, mask=allowed, score=score, mode=mode,
        centres=None if centres is None else np.asarray(centres, dtype=np.intp),
    )
