"""Inside a real model: one encoder layer stage by stage with what each stage adds, a head's weights beside the norms of
the vectors they move, attention sinks, and four measures of a word's importance to the sentence embedding.

All on ``MiniLM`` (attention_core.pretrained), row-vector convention:

- a layer: A = Concat(heads) W_O + b_O;  H = LN1(X + A);  F = GELU(H W_in + b_in) W_out + b_out;  Y = LN2(H + F)
- Kobayashi et al. (EMNLP 2020): head h moves f_h(x_j) = (x_j W_V^h + b_V^h) W_O^h into token i with weight α_ij;
  what arrives is ‖α_ij f_h(x_j)‖, not α_ij
- Abnar and Zuidema (ACL 2020): Â_l = ½ mean_h(A_l) + ½ I (the residual); rollout R = Â_L … Â_1; flow: the maximum
  flow from an input token through the layers of Â, capacities Â_l[i, j] on the edge from token j below to token i above
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import csr_array
from scipy.sparse.csgraph import maximum_flow
from scipy.stats import spearmanr

from attention_core._checks import check_int, frozen
from attention_core.attention import softmax
from attention_core.pretrained import MiniLM, RealTrace, gelu, layer_norm, without_specials  # noqa: F401 - part of this module's API

FLOW_SCALE = 1_000_000  # maximum_flow takes integer capacities: weights times this, rounded (a flow error below 1e-4)
MASK = "[MASK]"  # what a word left out is replaced by (its positions stay, as the pooling expects)


@dataclass(frozen=True)
class LayerStages:
    """One encoder layer's stages for n tokens (d = 384, d_ff = 1536); ``attention`` and ``ffn`` are what the two
    sublayers add to the residual stream before each LayerNorm."""

    x: NDArray  # (n, d) the layer's input
    concat: NDArray  # (n, d) the 12 heads' outputs side by side
    attention: NDArray  # (n, d) concat W_O + b_O
    after_attention: NDArray  # (n, d) LN1(x + attention)
    hidden: NDArray  # (n, d_ff) GELU(after_attention W_in + b_in)
    ffn: NDArray  # (n, d) hidden W_out + b_out
    output: NDArray  # (n, d) LN2(after_attention + ffn)

    def __post_init__(self) -> None:
        frozen(self)

    @property
    def norms(self) -> dict[str, NDArray]:
        """Per token (n,): ‖x‖, ‖what attention adds‖, ‖what the feed-forward part adds‖."""
        return frozen({"x": np.linalg.norm(self.x, axis=1), "attention": np.linalg.norm(self.attention, axis=1),
                       "ffn": np.linalg.norm(self.ffn, axis=1)})

    @property
    def attention_share(self) -> float:
        """Σ‖attention‖ / (Σ‖attention‖ + Σ‖ffn‖) over the tokens: attention's share of the layer's update."""
        return self.share_over(range(self.x.shape[0]))

    def share_over(self, rows) -> float:
        """Attention's share of the update over the tokens ``rows`` only (e.g. the words, without [CLS] and [SEP])."""
        rows = list(rows)
        attention, ffn = (float(self.norms[name][rows].sum()) for name in ("attention", "ffn"))
        return attention / (attention + ffn) if attention + ffn > 0 else float("nan")


def layer_stages(model: MiniLM, x: NDArray, layer: int) -> LayerStages:
    """The stages of encoder layer ``layer`` (0-based) on its input x (n, 384): A = Concat(heads) W_O + b_O,
    H = LN1(x + A), F = GELU(H W_in + b_in) W_out + b_out, Y = LN2(H + F)."""
    p = model.layers[check_int("layer", layer, 0, model.layers_count - 1)]
    heads = model.attention_layer(layer, x)
    after = layer_norm(x + heads.output, *p.norm1)
    hidden = gelu(after @ p.w_in + p.b_in)
    ffn = hidden @ p.w_out + p.b_out
    return LayerStages(x=np.array(x), concat=heads.concat, attention=heads.output, after_attention=after, hidden=hidden,
                       ffn=ffn, output=layer_norm(after + ffn, *p.norm2))


def moved_norms(model: MiniLM, x: NDArray, layer: int, head: int) -> tuple[NDArray, NDArray]:
    """Head ``head`` of ``layer`` on x (n, 384): (α (n, n), ‖α_ij f(x_j)‖ (n, n)) with f(x_j) = (x_j W_V^h + b_V^h) W_O^h."""
    p = model.layers[check_int("layer", layer, 0, model.layers_count - 1)]
    cols = slice(check_int("head", head, 0, model.heads - 1) * model.d_k, (head + 1) * model.d_k)
    weights = model.head_trace(layer, head, x).weights
    moved = (x @ p.w_v[:, cols] + p.b_v[cols]) @ p.w_o[cols, :]  # (n, 384): f(x_j), row j
    return frozen((weights, weights * np.linalg.norm(moved, axis=1)[None, :]))


def arriving_shares(moved: NDArray) -> NDArray:
    """(n, n) ‖α_ij f(x_j)‖ -> each key's share of what arrives at query i: m_ij / Σ_j m_ij (rows sum to 1, as α's do;
    a row that receives nothing stays 0). Comparable cell by cell with α: a row renormalised by a constant keeps its shares."""
    totals = moved.sum(axis=1, keepdims=True)
    return frozen(np.divide(moved, totals, out=np.zeros_like(moved, dtype=float), where=totals > 0))


def large_but_little(weights: NDArray, shares: NDArray, large: float = 0.2) -> list[tuple[int, int]]:
    """Cells (i, j) whose weight α_ij is at least ``large`` but whose share of what arrives at query i is at most half
    of it, largest gap (α_ij − share) first: where a weight overstates what key j brings (Kobayashi et al.)."""
    found = np.argwhere((weights >= large) & (shares <= weights / 2))
    return sorted(((int(i), int(j)) for i, j in found), key=lambda c: shares[c] - weights[c])


def is_punctuation(token: str) -> bool:
    """A word piece made only of punctuation (",", ".", "'", "##." …)."""
    text = token.removeprefix("##")
    return bool(text) and all(unicodedata.category(c).startswith("P") for c in text)


def sink_shares(trace: RealTrace) -> dict[str, NDArray]:
    """Per layer and head (L, H): the mean share of a query's weight on [CLS], on [SEP] and on punctuation."""
    columns = {"cls": [j for j, t in enumerate(trace.tokens) if t == "[CLS]"],
               "sep": [j for j, t in enumerate(trace.tokens) if t == "[SEP]"],
               "punctuation": [j for j, t in enumerate(trace.tokens) if is_punctuation(t)]}
    return frozen({name: trace.attentions[..., cols].sum(axis=-1).mean(axis=-1) if cols else np.zeros(trace.attentions.shape[:2])
                   for name, cols in columns.items()})


def with_residual(attentions: NDArray) -> NDArray:
    """(L, H, n, n) -> (L, n, n): Â_l = ½ mean over heads + ½ I, rows renormalised (Abnar and Zuidema)."""
    mean = attentions.mean(axis=1)
    joint = 0.5 * mean + 0.5 * np.eye(mean.shape[-1])
    return frozen(joint / joint.sum(axis=-1, keepdims=True))


def rollout(attentions: NDArray) -> NDArray:
    """(L, H, n, n) -> (n, n): R = Â_L … Â_1; R[i, j] is how much of output token i comes from input token j."""
    joint = with_residual(attentions)
    rolled = joint[0]
    for layer in joint[1:]:
        rolled = layer @ rolled
    return frozen(rolled)


def flow_graph(attentions: NDArray) -> tuple[csr_array, int]:
    """The layered graph of Â as integer capacities (FLOW_SCALE per unit): nodes l·n + j for token j at level l
    (level 0 the input, level L the output), an edge (l, j) -> (l + 1, i) of capacity Â_l[i, j], and a last node, the
    sink, that every output token reaches without limit. Returns (graph, sink)."""
    joint = with_residual(attentions)
    layers, n, _ = joint.shape
    sink = (layers + 1) * n
    rows, cols, caps = [], [], []
    for level, a in enumerate(joint):
        i, j = np.nonzero(a > 0)
        rows.append(level * n + j)
        cols.append((level + 1) * n + i)
        caps.append(np.rint(a[i, j] * FLOW_SCALE).astype(np.int64))
    rows.append(layers * n + np.arange(n))
    cols.append(np.full(n, sink))
    caps.append(np.full(n, n * FLOW_SCALE, dtype=np.int64))
    graph = csr_array((np.concatenate(caps).astype(np.int32), (np.concatenate(rows), np.concatenate(cols))),
                      shape=(sink + 1, sink + 1))
    return graph, sink


def flow(attentions: NDArray) -> NDArray:
    """(L, H, n, n) -> (n,): for each input token, the maximum flow from it through the layers to all outputs
    (Abnar and Zuidema's attention flow, towards the whole sentence as mean pooling reads it)."""
    graph, sink = flow_graph(attentions)
    n = attentions.shape[-1]
    return frozen(np.array([maximum_flow(graph, j, sink, method="dinic").flow_value for j in range(n)], dtype=np.float64) / FLOW_SCALE)


def sentence_embedding(hidden: NDArray) -> NDArray:
    """sentence-transformers' all-MiniLM-L6-v2 pipeline, (..., n, d) -> (..., d): the mean over tokens (all of them:
    no padding), e = mean / |mean|, unit length."""
    pooled = hidden.mean(axis=-2)
    return frozen(pooled / np.linalg.norm(pooled, axis=-1, keepdims=True))


@dataclass(frozen=True)
class Importance:
    """Each word's importance to the sentence embedding by four measures (words: the sentence's words, [CLS] and
    [SEP] excluded; a word's word pieces are summed), and each measure's Spearman correlation with leaving it out."""

    words: tuple[str, ...]
    leave_one_out: NDArray  # (w,) 1 − cos(e, e without the word)
    attention: NDArray  # (w,) the last layer's weight on the word, averaged over heads and queries
    rollout: NDArray  # (w,) the rollout's column, averaged over the output tokens
    flow: NDArray  # (w,) the maximum flow from the word's pieces to the outputs

    def __post_init__(self) -> None:
        frozen(self)

    def spearman(self, measure: str) -> float:
        """ρ between ``measure`` and leave-one-out (NaN when either is constant, as with one word)."""
        if len(self.words) < 2:
            return float("nan")
        return float(spearmanr(getattr(self, measure), self.leave_one_out).statistic)


APOSTROPHES = "'’"


def word_groups(model: MiniLM, text: str) -> tuple[list[int], tuple[str, ...], list[list[int]]]:
    """(piece ids, words, the piece positions of each word), cut as the model cuts (128 pieces). A word is a pre-token
    of the tokenizer (punctuation and each Chinese character stand alone), except that a contraction stays one word:
    "didn't" is not "didn", "'" and "t"."""
    encoding = model.tokenizer.encode(text)
    ids, _, dropped = model.encode(text)
    word_ids = list(encoding.word_ids)
    if dropped:
        word_ids = word_ids[: len(ids) - 1] + [None]
    spans: dict[int, list[int]] = {}
    for position, word in enumerate(word_ids):
        if word is not None:
            spans.setdefault(word, []).append(position)
    pieces: list[list[int]] = []
    previous_end = -1
    for _, positions in sorted(spans.items()):
        start, end = encoding.offsets[positions[0]][0], encoding.offsets[positions[-1]][1]
        piece_text, before = text[start:end], text[previous_end - 1:previous_end] if previous_end > 0 else ""
        touching = pieces and start == previous_end
        if touching and (piece_text in APOSTROPHES or (before in APOSTROPHES and piece_text.isalnum())):
            pieces[-1] = pieces[-1] + positions  # a contraction's apostrophe, or the letters after it
        else:
            pieces.append(list(positions))
        previous_end = end
    words = tuple("".join(encoding.tokens[p].removeprefix("##") for p in positions) for positions in pieces)
    return ids, words, pieces


def importance(model: MiniLM, trace: RealTrace, text: str) -> Importance:
    """The four measures, (w,) each for the w words of the sentence ``text`` whose forward pass is ``trace``:
    leave-one-out 1 - cos(e, e with the word's pieces as [MASK]), the last layer's mean weight, rollout and flow."""
    ids, words, pieces = word_groups(model, text)
    mask_id = model.tokenizer.token_to_id(MASK)
    batch = np.array([ids] + [[mask_id if position in positions else token for position, token in enumerate(ids)]
                              for positions in pieces], dtype=np.int64)
    embeddings = sentence_embedding(model.forward(batch, keep=False)[0]) if pieces else np.zeros((1, model.d_model))
    left_out = 1.0 - embeddings[1:] @ embeddings[0]
    last = trace.attentions[-1].mean(axis=0).mean(axis=0)  # (n,): the weight each key gets, over heads and queries
    rolled = rollout(trace.attentions).mean(axis=0)
    flows = flow(trace.attentions)

    def per_word(values: NDArray) -> NDArray:
        return np.array([values[positions].sum() for positions in pieces])

    return Importance(words=words, leave_one_out=left_out, attention=per_word(last), rollout=per_word(rolled), flow=per_word(flows))


class SeededRows:
    """An embedding table of N(0, scale²) rows drawn on demand: row i from a generator seeded by (seed, i), so the
    30,522 × 384 table of the untrained model is never held (``table[ids]`` as for an array)."""

    def __init__(self, seed: int, shape: tuple[int, int], scale: float) -> None:
        self.seed, self.shape, self.scale = seed, shape, scale

    def __getitem__(self, ids: NDArray) -> NDArray:
        """The rows of ``ids`` (any shape): (*ids.shape, d)."""
        ids = np.asarray(ids)
        rows = {int(i): np.random.default_rng([self.seed, int(i)]).normal(0.0, self.scale, self.shape[1]) for i in np.unique(ids)}
        return frozen(np.array([rows[int(i)] for i in ids.ravel()]).reshape(*ids.shape, self.shape[1]))


def random_like(model: MiniLM, seed: int = 0) -> MiniLM:
    """The same architecture and tokenizer with the weights it started from, before training, seeded: as BERT
    initialises (``initializer_range`` 0.02): every weight matrix and embedding N(0, 0.02²), every bias 0, every
    LayerNorm γ = 1 and β = 0. Weight matrices are kept in float32 (half the memory; the arithmetic is float64)."""
    from attention_core.pretrained import Layer

    rng = np.random.default_rng(seed)
    d, d_ff = model.d_model, model.layers[0].w_in.shape[1]

    def normal(*shape: int) -> NDArray:
        return rng.standard_normal(shape, dtype=np.float32) * np.float32(0.02)

    norm = (np.ones(d), np.zeros(d))
    layers = tuple(Layer(normal(d, d), np.zeros(d), normal(d, d), np.zeros(d), normal(d, d), np.zeros(d), normal(d, d), np.zeros(d),
                         norm, normal(d, d_ff), np.zeros(d_ff), normal(d_ff, d), np.zeros(d), norm) for _ in model.layers)
    word = SeededRows(seed, model.word.shape, 0.02)
    return MiniLM(model.folder, model.tokenizer, word, normal(*model.position.shape).astype(np.float64),
                  normal(*model.token_type.shape).astype(np.float64), norm, layers)


def head_entropy(trace: RealTrace) -> NDArray:
    """(L, H): each head's entropy in bits, −Σ_j α_ij log₂ α_ij, averaged over the queries (0: one key; log₂ n: even)."""
    a = trace.attentions
    return frozen(-(a * np.log2(np.where(a > 0, a, 1.0))).sum(axis=-1).mean(axis=-1))


@dataclass(frozen=True)
class Spread:
    """The √d_k argument on every head (L, H) of a sentence: the spread of q · k over all query–key pairs before and
    after ÷√d_k, the spread of the components of q and k, and the softmax's largest weight (averaged over the queries)
    with and without the division."""

    raw: NDArray  # std of q · k
    scaled: NDArray  # std of q · k / √d_k
    q: NDArray  # std of q's components
    k: NDArray  # std of k's components
    top_raw: NDArray  # mean over queries of max_j softmax(q · k)_j
    top_scaled: NDArray  # the same after ÷√d_k (the model's own weights)
    d_k: int

    def __post_init__(self) -> None:
        frozen(self)

    @property
    def theory(self) -> float:
        """For q and k of d_k independent N(0, 1) components: std(q · k) = √d_k (the scaling lab's argument)."""
        return float(np.sqrt(self.d_k))


def spread(model: MiniLM, trace: RealTrace) -> Spread:
    """q · k's spread on every head of ``trace``, (L, H) each (computed again from each layer's input and the model's
    W_Q, W_K): std(q · k), std(q · k) / √d_k, std of q's and k's components, mean max softmax before and after ÷√d_k."""
    shape = (model.layers_count, model.heads)
    out = {name: np.zeros(shape) for name in ("raw", "scaled", "q", "k", "top_raw", "top_scaled")}
    for layer, p in enumerate(model.layers):
        x = trace.inputs[layer]
        for head in range(model.heads):
            cols = slice(head * model.d_k, (head + 1) * model.d_k)
            q, k = x @ p.w_q[:, cols] + p.b_q[cols], x @ p.w_k[:, cols] + p.b_k[cols]
            raw_scores = q @ k.T  # (n, n)
            out["raw"][layer, head], out["scaled"][layer, head] = raw_scores.std(), raw_scores.std() / np.sqrt(model.d_k)
            out["q"][layer, head], out["k"][layer, head] = q.std(), k.std()
            out["top_raw"][layer, head] = softmax(raw_scores).max(axis=-1).mean()
            out["top_scaled"][layer, head] = softmax(raw_scores / np.sqrt(model.d_k)).max(axis=-1).mean()
    return Spread(**out, d_k=model.d_k)


# Sentences of different kinds (a pronoun to resolve, negation, lists, numbers, a question, a long clause) on which the
# four measures are compared: assets/snapshots/importance.json holds their correlations (scripts/make_snapshots.py).
BUILT_IN = (
    "The animal didn't cross the street because it was too tired.",
    "The cat sat on the mat.",
    "I am a student and I like attention.",
    "The bank raised its interest rates again this year.",
    "She sat on the river bank and watched the boats.",
    "Paris is the capital of France, and Berlin is the capital of Germany.",
    "The trophy would not fit in the suitcase because it was too big.",
    "Nobody expected the quiet student to win the national chess championship.",
    "Add two cups of flour, one egg and a pinch of salt.",
    "The film was not good at all, although the music was wonderful.",
    "Why do birds fly south for the winter?",
    "The meeting was moved from Monday to Thursday afternoon.",
    "A transformer computes attention between every pair of tokens.",
    "He bought apples, oranges, bananas and a large melon at the market.",
    "After the rain stopped, the children ran outside to play.",
    "The price of the old house fell by 20 percent in two years.",
    "My brother, who lives in Toronto, called me yesterday.",
    "The doctor told the nurse that she would be late.",
    "Water boils at 100 degrees Celsius at sea level.",
    "If you heat the metal, it expands, and if you cool it, it contracts.",
    "The keys to the cabinet are on the table.",
    "Thinking machines learn where to look.",
)
MEASURES = ("attention", "rollout", "flow")


def correlations(model: MiniLM, sentences: tuple[str, ...] = BUILT_IN) -> dict[str, NDArray]:
    """Each measure's Spearman ρ with leave-one-out, per sentence: {measure: (len(sentences),)}."""
    found = {measure: [] for measure in MEASURES}
    for sentence in sentences:
        result = importance(model, model.run(sentence), sentence)
        for measure in MEASURES:
            found[measure].append(result.spearman(measure))
    return frozen({measure: np.array(values) for measure, values in found.items()})
