"""How attention runs at scale, exactly: shared keys and values (multi-head, grouped-query, multi-query), the
key-value cache's memory, softmax block by block (online softmax, the idea behind FlashAttention), and the cost
of full, sliding-window and sparse attention.

Shapes: n queries and keys, H query heads, G key-value heads (G divides H), d_k per head. Row vectors.
"""

from __future__ import annotations

import math
import timeit
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_int, frozen
from attention_core.attention import softmax


def kv_group(head: int, heads: int, kv_heads: int) -> int:
    """The key-value head that query head ``head`` reads: heads are split into kv_heads equal, consecutive groups."""
    if heads % kv_heads:
        raise ValueError("the number of key-value heads must divide the number of query heads")
    return head // (heads // kv_heads)


@dataclass(frozen=True)
class SharedKV:
    """Attention with G key-value heads for H query heads: q (H, n, d_k), k and v (G, n, d_k), weights (H, n, n),
    outputs (H, n, d_k), and which key-value head each query head read."""

    q: NDArray
    k: NDArray
    v: NDArray
    weights: NDArray
    outputs: NDArray
    groups: NDArray  # (H,) key-value head of each query head

    def __post_init__(self) -> None:
        frozen(self)


def shared_kv_attention(x: NDArray, w_q: NDArray, w_k: NDArray, w_v: NDArray, causal: bool = False) -> SharedKV:
    """Grouped-query attention on x (n, d): w_q (H, d, d_k), w_k and w_v (G, d, d_k). G = H is multi-head attention;
    G = 1 is multi-query attention. Query head h scores against key-value head g = h // (H / G):
    weights_h = softmax(q_h k_g^T / sqrt(d_k)) (causal: only keys at or before the query), outputs_h = weights_h v_g."""
    x = np.asarray(x, dtype=float)
    heads, kv_heads = w_q.shape[0], w_k.shape[0]
    groups = np.array([kv_group(h, heads, kv_heads) for h in range(heads)])
    q, k, v = x[None] @ w_q, x[None] @ w_k, x[None] @ w_v  # (H, n, d_k), (G, n, d_k), (G, n, d_k)
    scaled_scores = q @ k[groups].transpose(0, 2, 1) / math.sqrt(q.shape[-1])  # (H, n, n)
    weights = softmax(scaled_scores, np.tril(np.ones(scaled_scores.shape[-2:], dtype=bool)) if causal else None)
    return SharedKV(q, k, v, weights, weights @ v[groups], groups)


def full_attention(q: NDArray, k: NDArray, v: NDArray) -> NDArray:
    """softmax(q k^T / sqrt(d_k)) v, (n_q, d_v) from q (n_q, d_k), k (n_k, d_k), v (n_k, d_v), holding the whole
    n_q x n_k score matrix: what online softmax must equal."""
    return frozen(softmax(q @ k.T / math.sqrt(q.shape[1])) @ v)


def kv_cache_bytes(tokens: int, layers: int, kv_heads: int, d_k: int, bytes_per_number: int = 2, batch: int = 1) -> int:
    """Memory of a key-value cache: a key and a value per token, key-value head and layer:
    2 x tokens x layers x kv_heads x d_k x bytes (2 bytes in 16-bit floats), times the batch."""
    for name, value in (("tokens", tokens), ("layers", layers), ("kv_heads", kv_heads), ("d_k", d_k), ("batch", batch)):
        check_int(name, value, 0, 10**9)
    return 2 * tokens * layers * kv_heads * d_k * bytes_per_number * batch


@dataclass(frozen=True)
class ModelShape:
    """A published model's attention sizes: layers, query heads, key-value heads, d_k per head, its context (the
    longest sequence it reads, in tokens) and, where it has one, its sliding window (the keys each query sees)."""

    layers: int
    heads: int
    kv_heads: int
    d_k: int
    context: int
    window: int | None = None


# From the models' published configurations (GPT-2: n_ctx; Llama 2: Touvron et al., 2023; Mistral 7B: Jiang et al.,
# 2023, Table 1: context_len 8192, window_size 4096)
MODEL_SHAPES = {
    "llama-2-7b": ModelShape(layers=32, heads=32, kv_heads=32, d_k=128, context=4096),
    "llama-2-70b": ModelShape(layers=80, heads=64, kv_heads=8, d_k=128, context=4096),
    "mistral-7b": ModelShape(layers=32, heads=32, kv_heads=8, d_k=128, context=8192, window=4096),
    "gpt-2": ModelShape(layers=12, heads=12, kv_heads=12, d_k=64, context=1024),
}


def cached_tokens(model: ModelShape, tokens: int) -> int | None:
    """How many tokens' keys and values the cache holds after ``tokens`` tokens: min(tokens, window) with a sliding
    window (no query looks further back, so a rolling buffer of the last window tokens is enough), else all of
    them; None when ``tokens`` is beyond the model's context (it never reads that many)."""
    tokens = check_int("tokens", tokens, 0, 10**9)
    if tokens > model.context:
        return None
    return tokens if model.window is None else min(tokens, model.window)


def model_cache_bytes(model: ModelShape, tokens: int, kv_heads: int | None = None) -> int | None:
    """The model's key-value cache after ``tokens`` tokens, with its own key-value heads or ``kv_heads``:
    kv_cache_bytes(cached_tokens(model, tokens), layers, kv_heads, d_k), or None beyond its context."""
    held = cached_tokens(model, tokens)
    return None if held is None else kv_cache_bytes(held, model.layers, model.kv_heads if kv_heads is None else kv_heads, model.d_k)


@dataclass(frozen=True)
class OnlineSoftmax:
    """Attention computed one block of keys at a time. ``maxima`` and ``sums`` (blocks + 1, n): the running maximum
    m and running sum l of every query row after each block (column 0: before any, -inf and 0); ``outputs``
    (blocks + 1, n, d_v): the running, unnormalised output; ``output``: the final O = acc / l."""

    block: int
    maxima: NDArray
    sums: NDArray
    outputs: NDArray
    output: NDArray

    def __post_init__(self) -> None:
        frozen(self)

    @property
    def held(self) -> int:
        """Numbers of scores held at once: n x block (the full computation holds n x n)."""
        return self.maxima.shape[1] * self.block


def online_softmax_attention(q: NDArray, k: NDArray, v: NDArray, block: int) -> OnlineSoftmax:
    """softmax(q k^T / sqrt(d_k)) v, q (n, d_k), k (n_k, d_k), v (n_k, d_v), without ever holding the n x n_k scores:
    for each block of keys B,
        s = q k_B^T / sqrt(d_k);  m' = max(m, max_j s_j);  l' = l e^(m - m') + sum_j e^(s_j - m');
        acc' = acc e^(m - m') + e^(s - m') v_B,
    and at the end O = acc / l. Exactly softmax attention (Milakov & Gimelshein, 2018; Dao et al., 2022)."""
    q, k, v = (np.asarray(a, dtype=float) for a in (q, k, v))
    n_k = k.shape[0]
    block = check_int("block", block, 1, max(1, n_k))
    m = np.full(q.shape[0], -np.inf)
    total = np.zeros(q.shape[0])  # l, the running sum
    acc = np.zeros((q.shape[0], v.shape[1]))
    maxima, sums, outputs = [m], [total], [acc]
    for start in range(0, n_k, block):
        s = q @ k[start:start + block].T / math.sqrt(q.shape[1])  # (n, b): the only scores held
        new_m = np.maximum(m, s.max(axis=1))
        rescale = np.exp(m - new_m)  # 0 before the first block (m = -inf)
        p = np.exp(s - new_m[:, None])
        total = total * rescale + p.sum(axis=1)
        acc = acc * rescale[:, None] + p @ v[start:start + block]
        m = new_m
        maxima.append(m)
        sums.append(total)
        outputs.append(acc)
    return OnlineSoftmax(block, np.stack(maxima), np.stack(sums), np.stack(outputs), acc / total[:, None])


@dataclass(frozen=True)
class OnlineSoftmaxTrace:
    """Online softmax stopped after ``fold`` of its blocks of keys, as a student follows it block by block.

    ``scaled_scores`` (n_q, n_k) = q k^T / sqrt(d_k), the whole matrix the loop never holds (shown, not used);
    ``folded`` (n_q, n_k): True for the keys folded in so far (the first ``fold`` blocks); ``current`` (n_q, n_k): True
    for the block folded in last; ``maxima`` and ``sums`` (n_q, blocks): the running maximum m and running sum l of
    every query row after each block, NaN for the blocks not yet folded in; ``output`` (n_q, d_v) = acc / l after
    ``fold`` blocks, the output so far (the weights over the keys folded in); ``full_output`` (n_q, d_v) =
    softmax(scaled_scores) v, what ``output`` becomes once every block is folded in."""

    block: int
    fold: int
    scaled_scores: NDArray
    folded: NDArray
    current: NDArray
    maxima: NDArray
    sums: NDArray
    output: NDArray
    full_output: NDArray

    def __post_init__(self) -> None:
        frozen(self)

    @property
    def blocks(self) -> int:
        """Blocks of keys in all: ceil(n_k / block)."""
        return self.maxima.shape[1]

    @property
    def difference(self) -> float:
        """max |output - full_output|: 0 up to rounding once every block is folded in."""
        return float(np.abs(self.output - self.full_output).max(initial=0.0))

    @property
    def held(self) -> int:
        """Numbers of scores held at once: n_q x block (the full computation holds n_q x n_k)."""
        return self.maxima.shape[0] * self.block


def online_softmax_trace(q: NDArray, k: NDArray, v: NDArray, block: int, fold: int) -> OnlineSoftmaxTrace:
    """``online_softmax_attention`` stopped after ``fold`` blocks of ``block`` keys (1 <= fold <= ceil(n_k / block)):
    q (n_q, d_k), k (n_k, d_k), v (n_k, d_v). After block b (its keys B_b),
        m_b = max(m_(b-1), max_(j in B_b) s_j);  l_b = l_(b-1) e^(m_(b-1) - m_b) + sum_(j in B_b) e^(s_j - m_b);
    and the output so far is acc_fold / l_fold, softmax over the keys of the first ``fold`` blocks."""
    q, k, v = (np.asarray(a, dtype=float) for a in (q, k, v))
    run = online_softmax_attention(q, k, v, block)
    blocks = run.maxima.shape[0] - 1
    fold = check_int("fold", fold, 1, blocks)
    n_k = k.shape[0]
    key_block = np.arange(n_k) // run.block  # (n_k,) the block each key belongs to
    later = np.arange(blocks) >= fold  # (blocks,) blocks not yet folded in
    folded = np.broadcast_to(key_block < fold, (q.shape[0], n_k))
    current = np.broadcast_to(key_block == fold - 1, (q.shape[0], n_k))
    maxima = np.where(later[None, :], np.nan, run.maxima[1:].T)  # (n_q, blocks)
    sums = np.where(later[None, :], np.nan, run.sums[1:].T)  # (n_q, blocks)
    output = run.outputs[fold] / run.sums[fold][:, None]  # (n_q, d_v); l >= 1 after a block: e^0 for its largest score
    return OnlineSoftmaxTrace(run.block, fold, q @ k.T / math.sqrt(q.shape[1]), folded.copy(), current.copy(), maxima, sums,
                              output, full_attention(q, k, v))


def sliding_window_mask(n: int, window: int) -> NDArray:
    """Causal sliding window (n, n): query i sees keys i - window + 1 .. i (``window`` keys, itself included)."""
    n, window = check_int("n", n, 0, 100_000), check_int("window", window, 1, 100_000)
    distance = np.arange(n)[:, None] - np.arange(n)[None, :]
    return frozen((distance >= 0) & (distance < window))


def sparse_mask(n: int, window: int, global_tokens: int) -> NDArray:
    """Local + global (Longformer / BigBird style), causal, (n, n): the sliding window, plus the first ``global_tokens``
    keys for every query, plus every earlier key for those global tokens."""
    local = sliding_window_mask(n, window)
    g = check_int("global_tokens", global_tokens, 0, 100_000)
    causal = np.tril(np.ones((n, n), dtype=bool))
    is_global = np.arange(n) < g  # (n,)
    return frozen((local | is_global[None, :] | is_global[:, None]) & causal)


def allowed_pairs(kind: str, n: int, window: int = 64, global_tokens: int = 4) -> int:
    """Query-key pairs scored, by formula (no mask is built): full causal n(n + 1)/2; the sliding window,
    sum_i min(window, i + 1); sparse: a global query (i < g) sees its i + 1 keys, any other the window plus the global
    keys before it, max(0, min(g, i - window + 1))."""
    i = np.arange(check_int("n", n, 0, 10**7))
    if kind == "full":
        return int(n * (n + 1) // 2)
    inside = np.minimum(window, i + 1)
    if kind == "window":
        return int(inside.sum())
    if kind == "sparse":
        g = global_tokens
        return int(np.where(i < g, i + 1, inside + np.maximum(0, np.minimum(g, i - window + 1))).sum())
    raise ValueError('kind must be "full", "window" or "sparse"')


def time_full_attention(n: int, d_k: int = 64, repeat: int = 3, seed: int = 0) -> tuple[float, int]:
    """Measured seconds (best of ``repeat``, ``timeit.repeat``) of one full softmax(q k^T / sqrt(d_k)) v at n tokens in NumPy, and the
    bytes of the n x n score matrix it holds."""
    n = check_int("n", n, 1, 16_384)
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((n, d_k)) for _ in range(3))
    best = min(timeit.repeat(lambda: full_attention(q, k, v), repeat=check_int("repeat", repeat, 1, 1000), number=1))
    return best, n * n * 8
