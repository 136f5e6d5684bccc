"""How attention is arranged: multi-head cost and diversity, general attention, hierarchical attention."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_int, frozen
from attention_core.attention import AttentionTrace, attend, softmax
from attention_core.embedding import MAX_SEED, embed, tokenize
from attention_core.explain import Explanation, explain
from attention_core.multihead import glorot_uniform


def multi_head_cost(n_q: int, n_k: int, d_model: int, d_k: int, d_v: int, heads: int) -> dict[str, int]:
    """Multiply-adds of one multi-head attention layer, part by part.

    Notes
    -----
    projections: n_q d_model h d_k + n_k d_model h (d_k + d_v);  scores: h n_q n_k d_k;
    weighted sum: h n_q n_k d_v;  output: n_q h d_v d_model.
    With d_k = d_v = d_model / h the total does not depend on h.
    """
    parts = {
        "projections": n_q * d_model * heads * d_k + n_k * d_model * heads * (d_k + d_v),
        "scores": heads * n_q * n_k * d_k,
        "weighted_sum": heads * n_q * n_k * d_v,
        "output": n_q * heads * d_v * d_model,
    }
    return parts | {"total": sum(parts.values())}


def jensen_shannon_bits(p: NDArray, q: NDArray) -> NDArray:  # (..., n), (..., n) -> (...)
    """Jensen-Shannon divergence between distributions, in bits: 0 when equal, 1 when disjoint."""
    p, q = np.broadcast_arrays(np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64))
    m = (p + q) / 2

    def kl(a: NDArray) -> NDArray:
        ratio = np.divide(a, m, out=np.ones_like(a), where=(a > 0) & (m > 0))
        return (a * np.log2(ratio)).sum(axis=-1)

    return frozen(np.clip((kl(p) + kl(q)) / 2, 0.0, 1.0))


def head_distances(heads: tuple[AttentionTrace, ...]) -> NDArray:  # -> (h, h)
    """How differently each pair of heads attends: mean over queries of the JS divergence (bits) of their weight rows."""
    weights = np.stack([head.weights for head in heads])  # (h, n_q, n_k)
    return frozen(jensen_shannon_bits(weights[:, None], weights[None, :]).mean(axis=-1))


def general_attention(question: str, passage: str, **options: object) -> tuple[Explanation, AttentionTrace]:
    """General attention vs self-attention on a passage (reading comprehension).

    Returns the passage's self-attention (query = key = value = passage) and the attention of
    one outside vector, the question's mean token vector, over the passage through the same
    W_Q, W_K, W_V of head 1: q = mean(X_question) W_Q, K = X_passage W_K, V = X_passage W_V.
    """
    passage_view = explain(passage, **options)  # type: ignore[arg-type]
    question_view = explain(question, **options)  # type: ignore[arg-type]
    d_k = passage_view.trace.heads[0].q.shape[1]
    d_v = passage_view.trace.heads[0].v.shape[1]
    w = passage_view.projections
    question_vector = question_view.x.mean(axis=0, keepdims=True)  # (1, d_model)
    trace = attend(question_vector @ w.w_q[:, :d_k], passage_view.x @ w.w_k[:, :d_k], passage_view.x @ w.w_v[:, :d_v],
                   score=str(options.get("score", "scaled_dot")))
    return passage_view, trace


SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")


def split_sentences(text: str) -> list[str]:
    """Split a document after . ! ? and 。！？ (the mark stays with its sentence); pieces without a word are dropped."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    return [piece.strip() for piece in SENTENCE_END.split(text) if any(token.isalnum() for token in tokenize(piece))]


@dataclass(frozen=True)
class Pooling:
    """Attention pooling of rows h (n, d) with a context vector: u = tanh(h W + b), a = softmax(u u_c), s = a h."""

    hidden: NDArray[np.float64]  # (n, d) the rows pooled
    projected: NDArray[np.float64]  # (n, d) u = tanh(h W + b)
    scores: NDArray[np.float64]  # (n,) u . u_c
    weights: NDArray[np.float64]  # (n,) softmax of the scores, sums to 1
    pooled: NDArray[np.float64]  # (d,) sum_t a_t h_t

    def __post_init__(self) -> None:
        frozen(self)


def attention_pool(hidden: NDArray, w: NDArray, b: NDArray, context: NDArray) -> Pooling:
    """Yang et al. (2016): u_t = tanh(h_t W + b), a_t = softmax_t(u_t . u_c), s = sum_t a_t h_t.

    hidden (n, d), W (d, d), b (d,), the context vector u_c (d,) -> Pooling: projected (n, d), scores and weights (n,),
    pooled (d,)."""
    hidden = np.array(hidden, dtype=np.float64)  # a copy: the pooling keeps it, read-only
    projected = np.tanh(hidden @ w + b)  # (n, d)
    scores = projected @ context  # (n,)
    weights = softmax(scores[None, :])[0]
    return Pooling(hidden=hidden, projected=projected, scores=scores, weights=weights, pooled=weights @ hidden)


@dataclass(frozen=True)
class HierarchicalTrace:
    """Two levels of attention: words within each sentence, then sentences within the document.

    sentences: the sentences used; tokens: each sentence's tokens; words: one Pooling per
    sentence (word weights); document: the Pooling over the sentence vectors (sentence
    weights and the document vector); dropped: (sentences cut, tokens cut).
    """

    sentences: tuple[str, ...]
    tokens: tuple[tuple[str, ...], ...]
    words: tuple[Pooling, ...]
    document: Pooling
    dropped: tuple[int, int]

    def __post_init__(self) -> None:
        frozen(self)


def hierarchical(document: str, *, d_model: int = 8, seed: int = 0, positions: bool = True,
                 max_sentences: int = 12, max_tokens: int = 48) -> HierarchicalTrace:
    """Hierarchical attention (Yang et al. 2016) over a document, with seeded parameters.

    Level 1: each sentence's token vectors X_i (n_i, d_model) are pooled with a word context
    vector into a sentence vector s_i. Level 2: the sentence vectors are pooled with a
    sentence context vector into the document vector. Parameters W, b, u are drawn from
    ``default_rng(seed)`` (Glorot-uniform W, zero b, unit-length u).
    """
    d_model = check_int("d_model", d_model, 1, 4096)
    seed = check_int("seed", seed, 0, MAX_SEED)
    max_sentences = check_int("max_sentences", max_sentences, 1, 1000)
    max_tokens = check_int("max_tokens", max_tokens, 1, 100_000)
    found = split_sentences(document)
    if not found:
        raise ValueError("there is nothing to attend to: type a document with at least one sentence")
    sentences = found[:max_sentences]
    token_lists = [tokenize(sentence) for sentence in sentences]
    cut_tokens = sum(max(len(tokens) - max_tokens, 0) for tokens in token_lists)
    token_lists = [tokens[:max_tokens] for tokens in token_lists]
    rng = np.random.default_rng(seed)
    w_word, w_sentence = glorot_uniform(d_model, d_model, rng), glorot_uniform(d_model, d_model, rng)
    u_word, u_sentence = (v / np.linalg.norm(v) for v in (rng.normal(size=d_model), rng.normal(size=d_model)))
    zero = np.zeros(d_model)
    words = tuple(attention_pool(embed(tokens, d_model, seed=seed, positions=positions), w_word, zero, u_word) for tokens in token_lists)
    sentence_vectors = np.stack([pool.pooled for pool in words])  # (n_sentences, d_model)
    return HierarchicalTrace(
        sentences=tuple(sentences), tokens=tuple(tuple(t) for t in token_lists), words=words,
        document=attention_pool(sentence_vectors, w_sentence, zero, u_sentence),
        dropped=(len(found) - len(sentences), cut_tokens),
    )


