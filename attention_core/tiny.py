"""A tiny decoder-only, attention-only transformer in NumPy: forward with every intermediate, a hand-written
backward pass, Adam, and decoding with a key-value cache.

Shapes: B batch, n positions, d = d_model, H heads, d_k = d / H, V vocabulary. Row vectors (x W).
Per layer l, on the residual stream x (B, n, d):
    q_h = x W_Q[h], k_h = x W_K[h], v_h = x W_V[h]          (B, n, d_k) each
    scaled scores  s_h = q_h k_h^T / c,  c = sqrt(d_k) (or 1 unscaled)     (B, n, n)
    masked scores  m_h = s_h, -inf above the diagonal (causal)             (B, n, n)
    weights        a_h = softmax(m_h),   z_h = a_h v_h                     (B, n, n), (B, n, d_k)
    x  <- x + sum_h z_h W_O[h]                               (the heads' outputs concatenated, times W_O)
logits = x U (B, n, V); the loss is the mean cross-entropy of logits[:, i] against the token at i + 1.

The parameters are a read-only ``TinyParameters`` mapping name -> array (with its frozen ``TinyConfig``), made by
``init_tiny``: "embed" (V, d), "position" (n_max, d) when positions are learned, "l{l}.w_q", "l{l}.w_k", "l{l}.w_v"
(H, d, d_k), "l{l}.w_o" (H, d_k, d), "unembed" (d, V). Gradients come in the same mapping, name by name.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import frozen
from attention_core.attention import softmax
from attention_core.embedding import positional_encoding


@dataclass(frozen=True)
class TinyConfig:
    """A small model: vocabulary, longest context, width, heads and layers, positions, and whether scores are ÷ √d_k."""

    vocab: int
    context: int = 16  # longest sequence n_max
    d_model: int = 32
    heads: int = 2
    layers: int = 2
    positions: str = "learned"  # "learned" or "sinusoidal" (fixed)
    scaled: bool = True  # divide scores by sqrt(d_k); False: by 1

    def __post_init__(self) -> None:
        if not (2 <= self.vocab <= 512 and 1 <= self.context <= 256 and 1 <= self.layers <= 4):
            raise ValueError("vocab must be 2..512, context 1..256 and layers 1..4")
        if not (1 <= self.heads <= 16 and self.d_model % self.heads == 0 and self.d_model <= 256):
            raise ValueError("d_model (at most 256) must be divisible by heads (1..16)")
        if self.positions not in ("learned", "sinusoidal"):
            raise ValueError('positions must be "learned" or "sinusoidal"')

    @property
    def d_k(self) -> int:
        """Width of each head's queries, keys and values: d_k = d_model / heads."""
        return self.d_model // self.heads

    @property
    def divisor(self) -> float:
        """The number the raw scores q k^T are divided by: sqrt(d_k) when ``scaled``, else 1."""
        return math.sqrt(self.d_k) if self.scaled else 1.0

    @property
    def parameter_count(self) -> int:
        """Numbers in ``init_tiny``'s parameters: embeddings V d, learned positions n_max d, unembedding d V, and
        W_Q, W_K, W_V, W_O of H d d_k each per layer."""
        d = self.d_model
        positions = self.context * d if self.positions == "learned" else 0
        return 2 * self.vocab * d + positions + 4 * self.layers * self.heads * d * self.d_k


@dataclass(frozen=True, eq=False)
class TinyParameters(Mapping[str, NDArray]):
    """The tiny model's parameters (or their gradients): a read-only mapping name -> array, with the model's config.

    ``TinyParameters(config, {"embed": (V, d), ...})``; the names and shapes are in the module's docstring. The arrays
    are made read-only (a model is shared across sessions); a new mapping is built for new values (``adam``).
    """

    config: TinyConfig
    arrays: dict[str, NDArray] = field(repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "arrays", dict(self.arrays))  # the caller's dict may change; this one does not
        frozen(self)

    def __getitem__(self, name: str) -> NDArray:
        return self.arrays[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.arrays)

    def __len__(self) -> int:
        return len(self.arrays)


PROJECTIONS = ("w_q", "w_k", "w_v", "w_o")


def init_tiny(config: TinyConfig, seed: int = 0) -> TinyParameters:
    """Gaussian initial parameters, reproducible: embeddings (V, d) and positions (n_max, d) of std 1 (the stream's
    scale: there is no layer norm), projections W_Q, W_K, W_V (H, d, d_k), W_O (H, d_k, d) and the unembedding (d, V)
    of std 1/sqrt(d) (the fan-in), so scores and logits start with a spread near 1."""
    rng = np.random.default_rng(seed)
    d, h, d_k = config.d_model, config.heads, config.d_k
    arrays = {"embed": rng.normal(0, 1.0, (config.vocab, d))}
    if config.positions == "learned":
        arrays["position"] = rng.normal(0, 1.0, (config.context, d))
    for layer in range(config.layers):
        for name in ("w_q", "w_k", "w_v"):
            arrays[f"l{layer}.{name}"] = rng.normal(0, 1 / math.sqrt(d), (h, d, d_k))
        arrays[f"l{layer}.w_o"] = rng.normal(0, 1 / math.sqrt(d), (h, d_k, d))
    arrays["unembed"] = rng.normal(0, 1 / math.sqrt(d), (d, config.vocab))
    return TinyParameters(config, arrays)


def _positions(params: TinyParameters, n: int) -> NDArray:  # -> (n, d)
    config = params.config
    if n > config.context:
        raise ValueError(f"at most {config.context} positions, got {n}")
    return params["position"][:n] if config.positions == "learned" else positional_encoding(n, config.d_model)


@dataclass(frozen=True)
class LayerTrace:
    """One layer: its input, every head's q, k, v, masked scores, weights and output, and what it adds to the stream."""

    x: NDArray  # (B, n, d) input
    q: NDArray  # (B, H, n, d_k)
    k: NDArray  # (B, H, n, d_k)
    v: NDArray  # (B, H, n, d_k)
    masked_scores: NDArray  # (B, H, n, n): the scaled scores q k^T / c, -inf where masked (above the diagonal)
    weights: NDArray  # (B, H, n, n): softmax(masked_scores), exactly 0 where masked
    z: NDArray  # (B, H, n, d_k)
    added: NDArray  # (B, n, d): sum_h z_h W_O[h]

    def __post_init__(self) -> None:
        frozen(self)


@dataclass(frozen=True)
class TinyTrace:
    """The forward pass: token ids, the stream's start, each layer, the final stream and the logits."""

    tokens: NDArray  # (B, n) int
    x0: NDArray  # (B, n, d): embeddings + positions
    layers: tuple[LayerTrace, ...]
    x: NDArray  # (B, n, d): after the last layer
    logits: NDArray  # (B, n, V): x U
    config: TinyConfig = field(repr=False)

    def __post_init__(self) -> None:
        frozen(self)


def forward(params: TinyParameters, tokens: NDArray) -> TinyTrace:
    """Every intermediate of the forward pass for ``tokens`` (B, n) or (n,) of ids in [0, vocab).

    x0 = E[tokens] + P[:n] (B, n, d); each layer as in the module's docstring; logits = x U (B, n, V)."""
    config = params.config
    ids = np.array(np.atleast_2d(tokens))  # a copy: the trace keeps it, read-only
    if ids.dtype.kind not in "iu" or ids.size == 0 or ids.min() < 0 or ids.max() >= config.vocab:
        raise ValueError(f"tokens must be a non-empty integer array of ids in [0, {config.vocab})")
    x0 = params["embed"][ids] + _positions(params, ids.shape[1])
    layers, x = run_layers(params, x0, causal=True)
    return TinyTrace(ids, x0, layers, x, x @ params["unembed"], config)


def run_layers(params: TinyParameters, x: NDArray, causal: bool, keep: NDArray | None = None) -> tuple[tuple[LayerTrace, ...], NDArray]:
    """The attention layers on the stream x (B, n, d): each layer's trace and the final stream (B, n, d). ``causal``:
    keys after the query are masked (a decoder); else every key is seen (an encoder, as the vision model's). ``keep``
    (B, n) bool, when given, masks every other key for every query (hard attention: a glimpse of the chosen keys only).

    Per layer: scaled scores q k^T / c, masked scores (-inf where not allowed), weights = softmax(masked scores),
    z = weights v, x + sum_h z_h W_O[h]."""
    config = params.config
    x = np.array(x)  # a copy: the first layer's trace keeps it, read-only
    n = x.shape[1]
    allowed = np.tril(np.ones((n, n), dtype=bool)) if causal else np.ones((n, n), dtype=bool)  # (n, n): True = may attend
    if keep is not None:
        allowed = allowed & keep[:, None, None, :]  # (B, 1, 1, n): for every head and query
    layers = []
    for layer in range(config.layers):
        w = {name: params[f"l{layer}.{name}"] for name in PROJECTIONS}
        q, k, v = (x[:, None] @ w[name] for name in ("w_q", "w_k", "w_v"))  # (B, 1, n, d) @ (H, d, d_k) -> (B, H, n, d_k)
        scaled_scores = q @ k.transpose(0, 1, 3, 2) / config.divisor  # (B, H, n, n)
        masked_scores = np.where(allowed, scaled_scores, -np.inf)  # (B, H, n, n)
        weights = softmax(masked_scores)  # (B, H, n, n): -inf gives exactly 0
        z = weights @ v
        added = (z @ w["w_o"]).sum(axis=1)  # sum over heads of z_h W_O[h]
        layers.append(LayerTrace(x, q, k, v, masked_scores, weights, z, added))
        x = x + added  # the stream, one layer further
    return tuple(layers), frozen(x)


def logits(params: TinyParameters, tokens: NDArray) -> NDArray:
    """Next-token logits at every position, x U: (B, n, V), or (n, V) for a 1-D ``tokens``."""
    out = forward(params, tokens).logits
    return out[0] if np.ndim(tokens) == 1 else out


def _split(batch: NDArray) -> tuple[NDArray, NDArray]:
    batch = np.atleast_2d(np.asarray(batch))
    if batch.shape[1] < 2:
        raise ValueError("a batch is (batch, length + 1) token ids: inputs batch[:, :-1], targets batch[:, 1:]")
    return batch[:, :-1], batch[:, 1:]


def cross_entropy(logits: NDArray, targets: NDArray) -> tuple[float, NDArray]:
    """Mean cross-entropy of ``logits`` (..., V) against the target ids ``targets`` (...), and the probabilities
    (..., V): the one cross-entropy of the core (the tiny model's next tokens, the vision model's digits).

    log p = z - m - log sum_v exp(z_v - m), m the row maximum (log-sum-exp);  loss = -mean log p[target];
    probabilities = exp(log p), the softmax of the logits written through its logarithm."""
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]
    return float(-picked.mean()), frozen(np.exp(log_p))


def loss(params: TinyParameters, batch: NDArray) -> float:
    """Mean cross-entropy of predicting batch[:, 1:] from batch[:, :-1]; ``batch`` (B, n + 1) token ids."""
    inputs, targets = _split(batch)
    return cross_entropy(forward(params, inputs).logits, targets)[0]


def gradients(params: TinyParameters, batch: NDArray) -> TinyParameters:
    """d loss / d every parameter (same names and shapes) for ``batch`` (B, n + 1), by the chain rule written out layer
    by layer: d loss / d logits = (softmax(logits) - one-hot(target)) / (B n), then back through U, the layers, E, P."""
    return _backward(params, batch)[0]


def score_gradient(params: TinyParameters, batch: NDArray) -> NDArray:
    """The gradient reaching the attention scores, per layer (layers,): mean |d loss / d s| over the unmasked entries
    (s = q k^T / c, the scores softmax receives), averaged over the batch and heads."""
    d_scores = _backward(params, batch)[1]
    n = d_scores[0].shape[-1]
    kept = np.tril(np.ones((n, n), dtype=bool))
    return frozen(np.array([float(np.abs(d[..., kept]).mean()) for d in d_scores]))


def _backward(params: TinyParameters, batch: NDArray) -> tuple[TinyParameters, list[NDArray]]:
    """The gradients of every parameter, and d loss / d scores (B, H, n, n) of each layer (0 where masked)."""
    config = params.config
    inputs, targets = _split(batch)
    trace = forward(params, inputs)
    _, probs = cross_entropy(trace.logits, targets)
    count = targets.size
    d_logits = probs.copy()  # softmax - one-hot, averaged over every predicted position
    np.put_along_axis(d_logits, targets[..., None], np.take_along_axis(d_logits, targets[..., None], axis=-1) - 1, axis=-1)
    d_logits /= count
    grads: dict[str, NDArray] = {"unembed": np.einsum("bnd,bnv->dv", trace.x, d_logits)}
    d_x0, layer_grads, score_grads = layers_backward(params, trace.layers, d_logits @ params["unembed"].T)  # (B, n, d)
    grads.update(layer_grads)
    d_embed = np.zeros_like(params["embed"])
    np.add.at(d_embed, inputs, d_x0)
    grads["embed"] = d_embed
    if config.positions == "learned":
        d_position = np.zeros_like(params["position"])
        d_position[: inputs.shape[1]] = d_x0.sum(axis=0)
        grads["position"] = d_position
    return TinyParameters(config, {name: grads[name] for name in params}), score_grads


def layers_backward(params: TinyParameters, layers: tuple[LayerTrace, ...], dx: NDArray
                    ) -> tuple[NDArray, dict[str, NDArray], list[NDArray]]:
    """Back through the attention layers from d loss / d final stream ``dx`` (B, n, d). Returns d loss / d the first
    layer's input (B, n, d), each layer's W_Q, W_K, W_V, W_O gradients by name ("l{l}.w_q" ...), and each layer's
    d loss / d scores (B, H, n, n), 0 where masked: softmax's Jacobian, d s = a * (d a - sum_j a_j d a_j)."""
    config = params.config
    grads: dict[str, NDArray] = {}
    score_grads: list[NDArray] = [np.empty(0)] * config.layers
    for layer in reversed(range(config.layers)):
        t = layers[layer]
        w = {name: params[f"l{layer}.{name}"] for name in PROJECTIONS}
        grads[f"l{layer}.w_o"] = (t.z.transpose(0, 1, 3, 2) @ dx[:, None]).sum(axis=0)
        dz = dx[:, None] @ w["w_o"].transpose(0, 2, 1)  # (B, H, n, d_k)
        d_weights = dz @ t.v.transpose(0, 1, 3, 2)  # (B, H, n, n)
        dv = t.weights.transpose(0, 1, 3, 2) @ dz
        d_scores = t.weights * (d_weights - (d_weights * t.weights).sum(axis=-1, keepdims=True))  # softmax's Jacobian
        score_grads[layer] = d_scores
        dq = d_scores @ t.k / config.divisor
        dk = d_scores.transpose(0, 1, 3, 2) @ t.q / config.divisor
        dx_layer = dx.copy()  # the residual path
        for name, d_out in (("w_q", dq), ("w_k", dk), ("w_v", dv)):
            grads[f"l{layer}.{name}"] = (t.x[:, None].transpose(0, 1, 3, 2) @ d_out).sum(axis=0)
            dx_layer += (d_out @ w[name].transpose(0, 2, 1)).sum(axis=1)
        dx = dx_layer  # d loss / d this layer's input: the next layer down reads it as its output's gradient
    return frozen((dx, grads, score_grads))


@dataclass(frozen=True)
class AdamState:
    """Adam's step count and running first and second moments m, v per parameter (each the parameter's shape)."""

    step: int
    m: dict[str, NDArray]
    v: dict[str, NDArray]

    def __post_init__(self) -> None:
        frozen(self)


def adam_state(params: TinyParameters) -> AdamState:
    """Adam's state before the first step: step 0, m = v = 0 in every parameter's shape."""
    return AdamState(0, {k: np.zeros_like(a) for k, a in params.items()}, {k: np.zeros_like(a) for k, a in params.items()})


def adam(params: TinyParameters, grads: TinyParameters, state: AdamState, lr: float = 1e-2, beta1: float = 0.9,
         beta2: float = 0.999, eps: float = 1e-8) -> tuple[TinyParameters, AdamState]:
    """One Adam step (Kingma and Ba, 2015): new parameters and state; nothing is changed in place.

    m <- b1 m + (1 - b1) g;  v <- b2 v + (1 - b2) g^2;  theta <- theta - lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)."""
    step = state.step + 1
    m = {k: beta1 * state.m[k] + (1 - beta1) * grads[k] for k in params}
    v = {k: beta2 * state.v[k] + (1 - beta2) * grads[k] ** 2 for k in params}
    new = {k: params[k] - lr * (m[k] / (1 - beta1**step)) / (np.sqrt(v[k] / (1 - beta2**step)) + eps) for k in params}
    return TinyParameters(params.config, new), AdamState(step, m, v)


@dataclass(frozen=True)
class Cache:
    """Keys and values of every position decoded so far, per layer: (H, t, d_k) each."""

    keys: tuple[NDArray, ...]
    values: tuple[NDArray, ...]

    def __post_init__(self) -> None:
        frozen(self)

    @property
    def length(self) -> int:
        """t, the positions cached so far."""
        return self.keys[0].shape[1]

    def nbytes(self) -> int:
        """The cache's memory: 2 x layers x H x t x d_k numbers of 8 bytes."""
        return sum(a.nbytes for a in self.keys + self.values)


def empty_cache(params: TinyParameters) -> Cache:
    """The cache before the first token: per layer, keys and values of shape (H, 0, d_k)."""
    config = params.config
    empty = np.zeros((config.heads, 0, config.d_k))
    return Cache((empty,) * config.layers, (empty,) * config.layers)


def decode_step(params: TinyParameters, cache: Cache, token: int) -> tuple[NDArray, Cache, tuple[NDArray, ...]]:
    """Feed one more token: its next-token logits (V,), the cache with its keys and values appended, and each layer's
    new row of attention weights (H, t + 1). Only the new position's query is computed: one row per head and layer."""
    config = params.config
    t = cache.length
    if not 0 <= int(token) < config.vocab:
        raise ValueError(f"token must be in [0, {config.vocab})")
    x = params["embed"][int(token)] + _positions(params, t + 1)[t]  # (d,)
    keys, values, rows = [], [], []
    for layer in range(config.layers):
        w = {name: params[f"l{layer}.{name}"] for name in PROJECTIONS}
        q = np.einsum("d,hdk->hk", x, w["w_q"])
        k = np.concatenate([cache.keys[layer], np.einsum("d,hdk->hk", x, w["w_k"])[:, None]], axis=1)  # (H, t + 1, d_k)
        v = np.concatenate([cache.values[layer], np.einsum("d,hdk->hk", x, w["w_v"])[:, None]], axis=1)
        scaled_scores = np.einsum("hk,htk->ht", q, k) / config.divisor  # (H, t + 1): every cached key is at or before the query
        weights = softmax(scaled_scores)  # (H, t + 1)
        x = x + np.einsum("hk,hkd->d", np.einsum("ht,htk->hk", weights, v), w["w_o"])  # the stream, one layer further
        keys.append(k)
        values.append(v)
        rows.append(weights)
    return frozen((x @ params["unembed"], Cache(tuple(keys), tuple(values)), tuple(rows)))


def next_token_probabilities(logits: NDArray, temperature: float = 1.0, top_k: int = 0) -> NDArray:
    """Sampling probabilities (V,) from next-token logits (V,): softmax(logits / temperature) over the ``top_k`` largest
    logits (all when 0), exactly 0 elsewhere. Ties at the k-th value are all kept."""
    logits = np.asarray(logits, dtype=float)
    if not temperature > 0:
        raise ValueError("temperature must be positive")
    if not top_k >= 0:
        raise ValueError("top_k must be 0 (all) or positive")
    scaled = logits / temperature
    masked = np.where(scaled >= np.sort(scaled)[-top_k], scaled, -np.inf) if 0 < top_k < scaled.size else scaled
    return softmax(masked)


@dataclass(frozen=True)
class Generation:
    """A prompt fed through the cache, then ``new`` sampled tokens: every token, every layer's attention rows."""

    tokens: NDArray  # (t,) ids: prompt then generated
    prompt: int  # how many of them were the prompt
    rows: tuple[NDArray, ...]  # per layer (H, t, t): row i is position i's attention, from the cache (0 after i)
    probabilities: NDArray  # (new + 1, V): the sampling distribution at each generated token (and the next one)
    cache_bytes: NDArray  # (t,) the cache's size after each token
    cache: Cache

    def __post_init__(self) -> None:
        frozen(self)


def generate(params: TinyParameters, prompt: NDArray, new: int, temperature: float, top_k: int, seed: int) -> Generation:
    """Feed the prompt (t_0,) one token at a time through the key-value cache, then sample ``new`` tokens (seeded) from
    ``next_token_probabilities``: each new token computes one new row of attention per head and layer, from the cached
    keys and values. At most ``context`` tokens in all."""
    config = params.config
    rng = np.random.default_rng(seed)
    cache, tokens, layer_rows, sizes, probabilities = empty_cache(params), list(map(int, prompt)), [], [], []
    new = max(0, min(new, config.context - len(tokens)))
    position = 0
    while True:
        logits, cache, rows = decode_step(params, cache, tokens[position])
        layer_rows.append(rows)
        sizes.append(cache.nbytes())
        position += 1
        if position < len(tokens):
            continue
        p = next_token_probabilities(logits, temperature, top_k)
        probabilities.append(p)
        if len(tokens) - len(prompt) >= new:
            break
        tokens.append(int(rng.choice(p.size, p=p)))
    t = len(tokens)
    stacked = []
    for layer in range(config.layers):
        matrix = np.zeros((config.heads, t, t))
        for i, rows in enumerate(layer_rows):
            matrix[:, i, : i + 1] = rows[layer]
        stacked.append(matrix)
    return Generation(np.array(tokens), len(prompt), tuple(stacked), np.stack(probabilities), np.array(sizes), cache)
