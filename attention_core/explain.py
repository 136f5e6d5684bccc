"""The one call a page makes: text -> tokens -> X -> multi-head attention, every piece kept."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_int, frozen
from attention_core.attention import AttentionTrace, attend, causal_mask
from attention_core.embedding import positional_encoding, token_vector_table, tokenize
from attention_core.multihead import MultiHeadTrace, Projections, init_projections, multi_head

TEXTBOOK_TOKENS = ("Thinking", "Machines")
TEXTBOOK_D_K = 64
TEXTBOOK_SCORES = (112, 96)  # q_Thinking . k_Thinking and q_Thinking . k_Machines in the article's figure


@dataclass(frozen=True)
class ExplainOptions:
    """What an Explanation was made with: one field per argument of ``explain`` (text included),
    plus ``model`` and ``layer`` for a pretrained model's layer (pretrained.MiniLM.explanation)."""

    text: str | None = None  # the query-side text; None for a pretrained model's layer
    context: str | None = None  # the key/value-side text (cross-attention), or None for self-attention
    d_model: int = 8  # width of the token vectors X
    d_k: int = 4  # width of each head's queries and keys
    d_v: int | None = None  # width of each head's values; None: the same as d_k
    heads: int = 1  # number of heads h
    score: str = "scaled_dot"  # score function: dot, scaled_dot, additive, bilinear, cosine
    mode: str = "soft"  # soft, hard, local, local-monotonic
    seed: int = 0  # seed of the token vectors, the projections and any sampling
    positions: bool = True  # sinusoidal positional encoding added to the token vectors
    rope: bool = False  # each head's queries and keys turned by their position (RoPE) before scoring
    causal: bool = False  # query i attends only to keys j <= i
    temperature: float = 1.0  # the scaled scores are also divided by it
    window: int | None = None  # local window radius; None: the default
    sample: bool = False  # hard and local modes draw a key instead of taking the argmax
    max_tokens: int | None = None  # tokens kept of each text; None: all
    shared_qk: bool = False  # one matrix serves as W_Q and W_K
    model: str | None = None  # a pretrained model's package name; None: random projections
    layer: int | None = None  # the pretrained model's layer (0-based); None otherwise


@dataclass(frozen=True)
class Explanation:
    """Everything a page shows for one text and one set of options.

    tokens (n,) and context_tokens (n_k,): query-side and key/value-side tokens (the same
    for self-attention). token_vectors, positional, x (n, d_model): X = token vectors +
    positional encoding (zeros when off); x_kv (n_k, d_model) the same for the context.
    projections: the matrices W_Q, W_K, W_V, W_O. trace: the multi-head trace.
    options: what ``explain`` was called with.
    dropped: how many tokens were cut by ``max_tokens`` (query side, context side).
    """

    tokens: tuple[str, ...]
    context_tokens: tuple[str, ...]
    token_vectors: NDArray[np.float64]
    positional: NDArray[np.float64]
    x: NDArray[np.float64]
    x_kv: NDArray[np.float64]
    projections: Projections
    trace: MultiHeadTrace
    options: ExplainOptions
    dropped: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        frozen(self)

    @property
    def is_cross(self) -> bool:
        """True when keys and values come from a second text (encoder-decoder attention)."""
        return self.options.context is not None

    def projected(self, head: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Head ``head``'s (from 0) Q = X W_Q^i (n, d_k) and K = X_kv W_K^i (n_k, d_k) before any turn: with
        ``options.rope`` the trace's q and k are these turned by RoPE, else they are the trace's."""
        d_k = self.projections.w_q.shape[1] // len(self.trace.heads)
        columns = slice(head * d_k, (head + 1) * d_k)
        return frozen((self.x @ self.projections.w_q)[:, columns]), frozen((self.x_kv @ self.projections.w_k)[:, columns])  # as multi_head


def _tokens_for(text: str, max_tokens: int | None) -> tuple[list[str], int]:
    tokens = tokenize(text)
    if max_tokens is None or len(tokens) <= max_tokens:
        return tokens, 0
    return tokens[:max_tokens], len(tokens) - max_tokens


def _inputs(tokens: list[str], d_model: int, seed: int, positions: bool) -> tuple[NDArray, NDArray]:
    vectors = token_vector_table(tokens, d_model, seed=seed)  # (n, d_model)
    pe = positional_encoding(len(tokens), d_model) if positions else np.zeros_like(vectors)
    return vectors, pe


def explain(
    text: str,
    *,
    d_model: int = 8,
    d_k: int = 4,
    heads: int = 1,
    score: str = "scaled_dot",
    mode: str = "soft",
    seed: int = 0,
    positions: bool = True,
    rope: bool = False,
    context: str | None = None,
    d_v: int | None = None,
    causal: bool = False,
    temperature: float = 1.0,
    window: int | None = None,
    sample: bool = False,
    max_tokens: int | None = None,
    shared_qk: bool = False,
) -> Explanation:
    """Run ``text`` through self-attention (or cross-attention over ``context``).

    Parameters
    ----------
    text : the sentence; its tokens give the queries (and keys and values without context).
    d_model, d_k, heads, seed : sizes and the seed of embeddings and projections; d_v defaults to d_k.
    score, mode, temperature, window, sample : passed to ``attend`` for every head.
    positions : add the sinusoidal positional encoding to the token vectors.
    rope : turn each head's queries and keys by their position before scoring (RoPE, ``positions.rotary``).
    context : a second text for keys and values (encoder-decoder attention), or None.
    causal : allow query i to attend only to keys j <= i.
    max_tokens : keep at most this many tokens of each text (the rest are dropped and counted).
    shared_qk : use one matrix as both W_Q and W_K (then Q = K and the scores are symmetric).

    Notes
    -----
    X = E + PE;  Q = X W_Q, K = X_kv W_K, V = X_kv W_V (with rope: Q_i <- R(i) Q_i, K_j <- R(j) K_j);
    Z = Concat(head_1..head_h) W_O.
    """
    d_v = d_k if d_v is None else d_v
    if max_tokens is not None:
        max_tokens = check_int("max_tokens", max_tokens, 1, 100_000)
    projections = init_projections(d_model, d_k, d_v, heads, seed=seed, shared_qk=shared_qk)
    tokens, dropped_q = _tokens_for(text, max_tokens)
    context_tokens, dropped_k = (tokens, 0) if context is None else _tokens_for(context, max_tokens)
    if not tokens or not context_tokens:
        raise ValueError("there is nothing to attend to: type a sentence with at least one word")
    vectors, pe = _inputs(tokens, d_model, seed, positions)
    x = vectors + pe
    x_kv = x if context is None else np.add(*_inputs(context_tokens, d_model, seed, positions))
    mask = causal_mask(len(tokens), len(context_tokens)) if causal else None
    trace = multi_head(
        x, x_kv, projections.w_q, projections.w_k, projections.w_v, projections.w_o, heads=heads, rope=rope,
        score=score, mode=mode, mask=mask, temperature=temperature, window=window,
        sample=sample, rng=np.random.default_rng(seed),
    )
    options = ExplainOptions(
        text=text, context=context, d_model=d_model, d_k=d_k, d_v=d_v, heads=heads, score=score,
        mode=mode, seed=seed, positions=positions, rope=rope, causal=causal, temperature=temperature,
        window=window, sample=sample, max_tokens=max_tokens, shared_qk=shared_qk,
    )
    return Explanation(
        tokens=tuple(tokens), context_tokens=tuple(context_tokens), token_vectors=vectors,
        positional=pe, x=x, x_kv=x_kv.copy() if x_kv is x else x_kv, projections=projections,
        trace=trace, options=options, dropped=(dropped_q, dropped_k),
    )


def _key_with_dot(q: NDArray, target: int, rng: np.random.Generator) -> NDArray:  # (d,) -> (d,)
    """An integer key vector k near (target/|q|^2) q with q . k exactly ``target``."""
    k = np.round(target / (q @ q) * q + rng.normal(0.0, 1.0, q.shape)) + 0.0  # no -0.0
    ones = np.flatnonzero(np.abs(q) == 1)  # changing k there by 1 changes q . k by 1
    residual = int(target - q @ k)
    for step in range(abs(residual)):
        i = ones[step % len(ones)]
        k[i] += np.sign(residual) * q[i]
    return k


def textbook_example() -> AttentionTrace:
    """The article's "Thinking Machines" figure as a real computation, d_k = d_v = 64.

    Integer query and key vectors are built so that q_Thinking . k_Thinking = 112 and
    q_Thinking . k_Machines = 96 exactly; scaled by sqrt(64) = 8 they give 14 and 12,
    and softmax gives 0.8808 and 0.1192 (the figure's 0.88 and 0.12). Row 1 (the query
    of "Machines") is built the same way with no values to match.
    """
    rng = np.random.default_rng(2017)
    q = rng.integers(-2, 3, (2, TEXTBOOK_D_K)).astype(np.float64)  # (2, 64)
    q[:, :8] = [1, -1, 1, 1, -1, 1, -1, 1]  # make sure each query has +-1 entries to adjust on
    k = np.stack([_key_with_dot(q[0], target, rng) for target in TEXTBOOK_SCORES])  # (2, 64)
    v = np.round(rng.normal(0.0, 1.0, (2, TEXTBOOK_D_K)), 1) + 0.0  # (2, 64)
    return attend(q, k, v, score="scaled_dot")
