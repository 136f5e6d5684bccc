"""The projections W_Q, W_K, W_V, W_O and multi-head attention (Vaswani et al. 2017), row-vector convention."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_int, check_matrix, frozen
from attention_core.attention import AttentionTrace, attend
from attention_core.embedding import MAX_D_MODEL, MAX_SEED
from attention_core.positions import rotary

MAX_HEADS = 64


@dataclass(frozen=True)
class Projections:
    """The projection matrices W_Q, W_K (d_model, heads*d_k), W_V (d_model, heads*d_v), W_O (heads*d_v, d_model); read-only."""

    w_q: NDArray[np.float64]
    w_k: NDArray[np.float64]
    w_v: NDArray[np.float64]
    w_o: NDArray[np.float64]

    def __post_init__(self) -> None:
        frozen(self)


@dataclass(frozen=True)
class MultiHeadTrace:
    """One AttentionTrace per head, their outputs side by side, and that times W_O.

    heads : tuple of AttentionTrace, one per head;  concat (n_q, heads*d_v);  output (n_q, d_model).
    """

    heads: tuple[AttentionTrace, ...]
    concat: NDArray[np.float64]
    output: NDArray[np.float64]

    def __post_init__(self) -> None:
        frozen(self)


def glorot_uniform(fan_in: int, fan_out: int, rng: np.random.Generator) -> NDArray:  # -> (fan_in, fan_out)
    """Glorot (Xavier) uniform: entries from U(-a, a), a = sqrt(6 / (fan_in + fan_out))."""
    limit = math.sqrt(6.0 / (fan_in + fan_out))
    return frozen(rng.uniform(-limit, limit, (fan_in, fan_out)))


def init_projections(d_model: int, d_k: int, d_v: int, heads: int, *, seed: int, shared_qk: bool = False) -> Projections:
    """Glorot-initialised W_Q, W_K, W_V, W_O, drawn in that order from ``default_rng(seed)``.

    With ``shared_qk`` the same matrix serves as W_Q and W_K (so Q = K and the score
    matrix Q K^T is symmetric); W_V and W_O are the same as without it.
    """
    d_model = check_int("d_model", d_model, 1, MAX_D_MODEL)
    d_k = check_int("d_k", d_k, 1, MAX_D_MODEL)
    d_v = check_int("d_v", d_v, 1, MAX_D_MODEL)
    heads = check_int("heads", heads, 1, MAX_HEADS)
    rng = np.random.default_rng(check_int("seed", seed, 0, MAX_SEED))
    w_q = glorot_uniform(d_model, heads * d_k, rng)
    w_k = glorot_uniform(d_model, heads * d_k, rng)
    w_v = glorot_uniform(d_model, heads * d_v, rng)
    w_o = glorot_uniform(heads * d_v, d_model, rng)
    return Projections(w_q=w_q, w_k=w_q if shared_qk else w_k, w_v=w_v, w_o=w_o)


def multi_head(
    x_q: NDArray, x_kv: NDArray, w_q: NDArray, w_k: NDArray, w_v: NDArray, w_o: NDArray, *, heads: int, rope: bool = False,
    **attend_options: object
) -> MultiHeadTrace:
    """Multi-head attention: queries from ``x_q``, keys and values from ``x_kv``.

    Parameters
    ----------
    x_q : (n_q, d_model);  x_kv : (n_k, d_model) (the same as x_q for self-attention).
    w_q, w_k : (d_model, heads*d_k);  w_v : (d_model, heads*d_v);  w_o : (heads*d_v, d_model).
    heads : number of heads h; head i uses columns i*d_k:(i+1)*d_k.
    rope : turn each head's queries and keys by their position (``positions.rotary``: query i by i, key j by j)
        before scoring; the traces' q and k are the turned ones.
    attend_options : passed to ``attend`` for every head (score, mask, mode, ...); one
        ``rng`` (default ``default_rng(0)``) serves all heads in order.

    Notes
    -----
    head_i = Attention(X_q W_Q^i, X_kv W_K^i, X_kv W_V^i);
    MultiHead = Concat(head_1, ..., head_h) W_O.
    """
    heads = check_int("heads", heads, 1, MAX_HEADS)
    x_q = check_matrix("x_q", x_q, copy=False)
    x_kv = check_matrix("x_kv", x_kv, cols=x_q.shape[1], copy=False)
    d_model = x_q.shape[1]
    w_q, w_k, w_v = (check_matrix(name, w, copy=False) for name, w in (("W_Q", w_q), ("W_K", w_k), ("W_V", w_v)))
    for name, w in (("W_Q", w_q), ("W_K", w_k), ("W_V", w_v)):
        if w.shape[0] != d_model or w.shape[1] % heads:
            raise ValueError(f"{name} must have d_model = {d_model} rows and a multiple of heads = {heads} columns, got {w.shape}")
    if w_k.shape != w_q.shape:
        raise ValueError(f"W_Q and W_K must have the same shape, got {w_q.shape} and {w_k.shape}")
    w_o = check_matrix("W_O", w_o, copy=False)
    if w_o.shape[0] != w_v.shape[1]:
        raise ValueError(f"W_O must have heads*d_v = {w_v.shape[1]} rows, got {w_o.shape[0]}")
    options = dict(attend_options)
    options.setdefault("rng", np.random.default_rng(0))
    q_all, k_all, v_all = x_q @ w_q, x_kv @ w_k, x_kv @ w_v  # (n_q, h*d_k), (n_k, h*d_k), (n_k, h*d_v)
    d_k, d_v = w_q.shape[1] // heads, w_v.shape[1] // heads
    turn = rotary if rope else (lambda m: m)
    traces = tuple(
        attend(turn(q_all[:, i * d_k : (i + 1) * d_k]), turn(k_all[:, i * d_k : (i + 1) * d_k]), v_all[:, i * d_v : (i + 1) * d_v], **options)  # type: ignore[arg-type]
        for i in range(heads)
    )
    concat = np.concatenate([trace.output for trace in traces], axis=1)  # (n_q, h*d_v)
    return MultiHeadTrace(heads=traces, concat=concat, output=concat @ w_o)
