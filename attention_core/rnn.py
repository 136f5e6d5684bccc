"""A simple Elman RNN beside self-attention: sequential steps versus one parallel step."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_int, check_matrix, frozen
from attention_core.embedding import MAX_D_MODEL, MAX_SEED
from attention_core.multihead import glorot_uniform


@dataclass(frozen=True)
class RNNParameters:
    """The RNN's matrices and bias: W_x (d_model, d_h), W_h (d_h, d_h), b (d_h,)."""

    w_x: NDArray[np.float64]
    w_h: NDArray[np.float64]
    b: NDArray[np.float64]

    def __post_init__(self) -> None:
        frozen(self)


def init_rnn(d_model: int, d_hidden: int, *, seed: int) -> RNNParameters:
    """Glorot-uniform W_x and W_h (W_h scaled to spectral radius below 1) and zero b, from ``default_rng(seed)``."""
    d_model = check_int("d_model", d_model, 1, MAX_D_MODEL)
    d_hidden = check_int("d_hidden", d_hidden, 1, MAX_D_MODEL)
    rng = np.random.default_rng(check_int("seed", seed, 0, MAX_SEED))
    w_h = glorot_uniform(d_hidden, d_hidden, rng)
    radius = max(float(np.abs(np.linalg.eigvals(w_h)).max()), 1e-12)
    return RNNParameters(w_x=glorot_uniform(d_model, d_hidden, rng), w_h=w_h * min(1.0, 0.9 / radius), b=np.zeros(d_hidden))


def rnn(x: NDArray, params: RNNParameters) -> NDArray:  # (n, d_model) -> (n, d_h)
    """Elman RNN: h_t = tanh(x_t W_x + h_{t-1} W_h + b), h_0 = 0; one step after another.

    Returns the read-only hidden states, row t = h_t (it depends on x_1 .. x_t only).
    """
    x = check_matrix("x", x, cols=params.w_x.shape[0])
    inputs = x @ params.w_x + params.b  # (n, d_h): the part that could run in parallel
    hidden = np.zeros((x.shape[0], params.w_h.shape[0]))
    previous = np.zeros(params.w_h.shape[0])
    for t in range(x.shape[0]):  # the sequential part: step t needs step t-1
        previous = np.tanh(inputs[t] + previous @ params.w_h)
        hidden[t] = previous
    return frozen(hidden)


def reach(n: int, step: int, *, model: str) -> NDArray:  # -> (n, n) bool
    """Which words (columns) have reached which positions (rows) after ``step`` sequential steps.

    rnn: position i holds words 1..i once step i has run (step 1 computes h_1, ...);
    attention: one parallel step connects every position with every word.
    """
    n = check_int("n", n, 0, 100_000)
    step = check_int("step", step, 0, 100_000)
    if model == "attention":
        return frozen(np.full((n, n), step >= 1))
    if model != "rnn":
        raise ValueError(f"model must be one of rnn, attention; got {model!r}")
    rows = np.arange(n)[:, None]
    return frozen((np.arange(n)[None, :] <= rows) & (rows < step))


def complexity(n: NDArray, d: int) -> dict[str, dict[str, NDArray]]:
    """Table 1 of Vaswani et al. (2017) for one layer, as numbers for each sequence length n.

    rnn: compute n d^2, sequential operations n, maximum path length n;
    attention: compute n^2 d, sequential operations 1, maximum path length 1.
    The compute curves cross at n = d.
    """
    n = np.array(n, dtype=np.float64)  # a copy: the table holds it, read-only
    return frozen({
        "rnn": {"compute": n * d * d, "sequential": n, "path": n},
        "attention": {"compute": n * n * d, "sequential": np.ones_like(n), "path": np.ones_like(n)},
    })
