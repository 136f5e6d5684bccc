"""A head over a corpus: what each of the real model's 72 heads does over many sentences, not on one.

A head that looks at the previous word on one sentence may do something else on the next: a head's behaviour over the
whole distribution rarely matches what one example suggests (Anthropic's HeadVis). Here every head gets nine scores per
sentence; the corpus keeps them all (S, L, H), so a page can show their means, their spread and the sentences where a
score is largest.

The scores of one head on one sentence, from its weights α (n, n) (rows = queries, columns = keys), the word pieces
``tokens`` (n,) with [CLS] first and [SEP] last as the tokenizer puts them:

- ``previous``: mean over the queries i = 1 … n−1 of α[i, i−1], the weight on the key one position before;
- ``next``: mean over the queries i = 0 … n−2 of α[i, i+1], the key one position after;
- ``self``: mean over the queries of α[i, i];
- ``cls``, ``sep``: mean over the queries of Σ_{j: token j is [CLS]} α[i, j] (and [SEP]);
- ``punctuation``: mean over the queries of Σ_{j: token j is punctuation} α[i, j] (``inside.is_punctuation``: a piece
  made only of punctuation); NaN for a sentence without punctuation;
- ``same_word``: mean, over the queries whose word occurs again in the sentence, of Σ_j α[i, j] over every piece j of
  every *other* occurrence of that word; NaN for a sentence without a repeated word. A word is a whole word, not a word
  piece: the tokenizer's pre-token with a contraction kept whole (``inside.word_groups``: "running" = run + ##ning, and
  "didn't" is one word), compared as the uncased tokenizer writes it (lower case), so "The" and "the" are the same word.
  Punctuation, [CLS] and [SEP] are no words here (their weight is ``punctuation``, ``cls``, ``sep``);
- ``entropy``: mean over the queries of H_i = −Σ_j α_ij log₂ α_ij, in bits; a uniform row has log₂ n bits;
- ``evenness``: ``entropy`` / log₂ n, the share of the uniform row's entropy (1: every row spread evenly; 0: every row on
  one key); NaN when n = 1;
- ``offset``: mean over the queries of |argmax_j α_ij − i|, how far (in positions) the largest weight sits from the
  query (the first key on a tie).

Every query row counts, [CLS] and [SEP] included, as ``pretrained.head_summary`` counts them: ``previous``, ``next``,
``self``, ``cls`` and ``sep`` are the page's one-sentence summary's numbers, exactly. Over a corpus each sentence counts
once (a mean over sentences of per-sentence means, NaN sentences left out).

A head's *verdict* is the page's summary's rule (views/real: a head is named for a position when more than half of its
weight goes there): the one of ``VERDICT_SHARES`` with the largest share when that share is above ``VERDICT_THRESHOLD``,
else none. The one-sentence verdict applies it to a sentence's shares, the corpus verdict to the corpus means. How often
they agree is said beside what always answering "no verdict" would score and beside Cohen's κ (agreement corrected for
chance), since "none" agreeing with "none" is most of the raw agreement.

A head's top sentences are ranked within bins of length (``length_bins``, ``top_by_length``), and samples are drawn
across its whole distribution (``decile_samples``, as Anthropic's HeadVis does): a per-sentence mean rewards short
sentences (see ``top_by_length``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_choice, check_int, frozen
from attention_core.inside import is_punctuation, word_groups
from attention_core.measures import entropy_bits
from attention_core.pretrained import MAX_WORD_PIECES, MiniLM

ASSETS = Path(__file__).resolve().parent.parent / "assets" / "corpus"
CORPUS_FILE = ASSETS / "sentences.txt"  # the built-in corpus, one sentence a line (assets/corpus/README.md)
SCORES_FILE = ASSETS / "scores.npz"  # its scores, precomputed by scripts/make_snapshots.py corpus (make corpus)
SCORES = ("previous", "next", "same_word", "self", "cls", "sep", "punctuation", "entropy", "evenness", "offset")
SHARE_SCORES = ("previous", "next", "same_word", "self", "cls", "sep", "punctuation", "evenness")  # in [0, 1]
VERDICT_SHARES = ("previous", "next", "self", "cls", "sep")  # the page's one-sentence summary's columns, in its order
VERDICT_THRESHOLD = 0.5  # more than half of the weight: the summary names the head
NO_VERDICT = -1
LENGTH_BINS = 3  # a head's top sentences: one from each third of the corpus by length (shortest, middle, longest)
MAX_SENTENCES = 200  # a pasted corpus: sentences scored (the rest are left out, and the page says how many)
MAX_SENTENCE_CHARS = 300  # a pasted sentence longer than this is cut at a word
MAX_PASTE_CHARS = 100_000  # pasted text beyond this is not read at all
MAX_PASTED_PIECES = 64  # and each pasted sentence is cut to this many word pieces (200 of them scored in about 10 s)
BATCH_CELLS = 40_000  # sentences of one length are run together, b * n * n at most this (memory: L * H * 8 bytes each)
MAX_BATCH = 64  # and at most this many (the layers' inputs are kept too: (L + 1, b, n, 384))


# --- One sentence ---


def same_word_mask(n: int, words: Sequence[str], pieces: Sequence[Sequence[int]]) -> NDArray[np.bool_]:  # -> (n, n)
    """M (n, n): M[i, j] is True when piece j belongs to another occurrence of the word that piece i belongs to.

    ``words`` (w,) and ``pieces`` (w lists of positions) as ``inside.word_groups`` gives them; positions outside every
    word ([CLS], [SEP]) and punctuation words have no True in their row or column."""
    n = check_int("n", n, 1, 10**6)
    occurrence = np.full(n, -1)  # (n,): which word each piece is part of, -1 for none
    for index, (word, positions) in enumerate(zip(words, pieces)):
        if not is_punctuation(word):
            occurrence[list(positions)] = index
    name = np.array([words[o] if o >= 0 else "" for o in occurrence], dtype=object)  # (n,)
    counted = occurrence >= 0
    mask = (name[:, None] == name[None, :]) & (occurrence[:, None] != occurrence[None, :])  # (n, n)
    return frozen(mask & counted[:, None] & counted[None, :])


def _mean_where(values: NDArray, rows: NDArray) -> NDArray:  # (..., n), (n,) bool -> (...)
    """The mean of ``values`` over the rows where ``rows`` is True (NaN where there is none)."""
    if not rows.any():
        return np.full(values.shape[:-1], np.nan)
    return values[..., rows].mean(axis=-1)


def sentence_scores(weights: NDArray, tokens: Sequence[str], same_word: NDArray) -> dict[str, NDArray]:
    """Every score of ``SCORES`` for each head: weights (..., n, n) (e.g. (L, H, n, n)), the n ``tokens``, and the
    ``same_word_mask`` (n, n) -> {score: (...)}. The formulas are in this module's docstring."""
    weights = np.asarray(weights, dtype=np.float64)  # (..., n, n)
    n = weights.shape[-1]
    if weights.shape[-2] != n or len(tokens) != n or np.shape(same_word) != (n, n):
        raise ValueError(f"weights must be (..., n, n) with n = {len(tokens)} tokens and a same-word mask (n, n); got "
                         f"{weights.shape} and {np.shape(same_word)}")
    rows = np.arange(n)
    is_cls = np.array([t == "[CLS]" for t in tokens])  # (n,)
    is_sep = np.array([t == "[SEP]" for t in tokens])
    is_punct = np.array([is_punctuation(t) for t in tokens])
    entropy = entropy_bits(weights)  # (..., n): H_i per query
    on_word = (weights * same_word).sum(axis=-1)  # (..., n): each query's weight on its word's other occurrences
    top = np.argmax(weights, axis=-1)  # (..., n): the key of each query's largest weight
    return frozen({
        "previous": _mean_where(weights[..., rows[1:], rows[1:] - 1], np.ones(n - 1, bool)),
        "next": _mean_where(weights[..., rows[:-1], rows[:-1] + 1], np.ones(n - 1, bool)),
        "same_word": _mean_where(on_word, same_word.any(axis=-1)),
        "self": weights[..., rows, rows].mean(axis=-1),
        "cls": weights[..., is_cls].sum(axis=-1).mean(axis=-1),
        "sep": weights[..., is_sep].sum(axis=-1).mean(axis=-1),
        "punctuation": weights[..., is_punct].sum(axis=-1).mean(axis=-1) if is_punct.any() else np.full(weights.shape[:-2], np.nan),
        "entropy": entropy.mean(axis=-1),
        "evenness": entropy.mean(axis=-1) / np.log2(n) if n > 1 else np.full(weights.shape[:-2], np.nan),
        "offset": np.abs(top - rows).mean(axis=-1),
    })


CLARK_SCORES = ("previous", "next", "self", "cls", "sep", "punctuation", "entropy")
DEFINITIONS = ("ours", "clark")  # the scores as this page defines them, or as Clark et al. 2019 did
CLARK_PUNCTUATION = (".", ",")
CLARK_SMOOTHING = 1e-4


def clark_scores(weights: NDArray, tokens: Sequence[str]) -> dict[str, NDArray]:
    """Clark et al. 2019's scores ("What does BERT look at?", their General_Analysis notebook) for each head: weights
    (..., n, n) and the n ``tokens`` -> {score: (...)}, every sum divided by all n queries:

    previous Σ_{i≥1} α[i, i−1] / n; next Σ_{i≤n−2} α[i, i+1] / n; self Σ α[i, i] / n; cls, sep, punctuation: the weight
    on [CLS], [SEP], or on "." and "," only, summed over keys, / n ([CLS] → [CLS] in self and cls, as in theirs);
    entropy in nats of each row smoothed to (1 − ε) α + ε / n (ε = 10⁻⁴), averaged over the queries."""
    weights = np.asarray(weights, dtype=np.float64)  # (..., n, n)
    n = weights.shape[-1]
    if weights.ndim < 2 or weights.shape[-2] != n or len(tokens) != n or n < 1:
        raise ValueError(f"weights must be (..., n, n) with n = {len(tokens)} tokens; got {weights.shape}")
    rows = np.arange(n)
    on = lambda keep: weights[..., np.array(keep, dtype=bool)].sum(axis=-1).sum(axis=-1) / n  # (..., n, n) -> (...)
    smooth = (1 - CLARK_SMOOTHING) * weights + CLARK_SMOOTHING / n
    return frozen({
        "previous": weights[..., rows[1:], rows[1:] - 1].sum(axis=-1) / n,
        "next": weights[..., rows[:-1], rows[:-1] + 1].sum(axis=-1) / n,
        "self": weights[..., rows, rows].sum(axis=-1) / n,
        "cls": on([t == "[CLS]" for t in tokens]),
        "sep": on([t == "[SEP]" for t in tokens]),
        "punctuation": on([t in CLARK_PUNCTUATION for t in tokens]),
        "entropy": -(smooth * np.log(smooth)).sum(axis=-1).mean(axis=-1),
    })


def score_cells(name: str, weights: NDArray, tokens: Sequence[str], same_word: NDArray, clark: bool = False) -> NDArray[np.bool_]:  # -> (n, n)
    """The cells (query i, key j) of one head's weights (n, n) whose weight the score ``name`` adds up: (i, i−1) for
    ``previous``, (i, i+1) for ``next``, the diagonal for ``self``, the [CLS], [SEP] or punctuation columns, the
    ``same_word`` mask, each row's largest weight for ``offset``; none for ``entropy`` and ``evenness`` (every weight
    counts); ``clark``: Clark et al.'s cells (their punctuation is "." and "," only; the other cells are the same)."""
    name = check_choice("score", name, SCORES)
    weights = np.asarray(weights, dtype=np.float64)
    n = weights.shape[0]
    cells = np.zeros((n, n), dtype=bool)
    rows = np.arange(n)
    punctuation = [(t in CLARK_PUNCTUATION) if clark else is_punctuation(t) for t in tokens]
    columns = {"cls": [t == "[CLS]" for t in tokens], "sep": [t == "[SEP]" for t in tokens], "punctuation": punctuation}
    if name == "previous":
        cells[rows[1:], rows[1:] - 1] = True
    elif name == "next":
        cells[rows[:-1], rows[:-1] + 1] = True
    elif name == "self":
        cells[rows, rows] = True
    elif name in columns:
        cells[:, np.array(columns[name], dtype=bool)] = True
    elif name == "same_word":
        cells = np.array(same_word, dtype=bool)
    elif name == "offset":
        cells[rows, np.argmax(weights, axis=-1)] = True
    return frozen(cells)


# --- A corpus ---


@dataclass(frozen=True)
class CorpusScores:
    """Every score of every head on every sentence of a corpus.

    values (S, K, L, H): score ``names[k]`` of layer l, head h on sentence s (NaN where the sentence has no such key);
    lengths (S,): word pieces n of each sentence, [CLS] and [SEP] included; unknown (S,): its [UNK] pieces (emoji and
    characters outside the vocabulary); dropped (S,): pieces cut by the model's 128 limit; clark (S, C, L, H): Clark et
    al.'s definition of each score of ``CLARK_SCORES`` (``clark_scores``), or None where it was not computed.
    """

    sentences: tuple[str, ...]
    values: NDArray[np.float64]
    lengths: NDArray[np.int64]
    unknown: NDArray[np.int64]
    dropped: NDArray[np.int64]
    names: tuple[str, ...] = SCORES
    clark: NDArray[np.float64] | None = None

    def __post_init__(self) -> None:
        frozen(self)

    def defined(self, name: str, definitions: str = "ours") -> bool:
        """Whether ``name`` is read by Clark et al.'s definition under ``definitions`` ("ours" or "clark"): only the
        scores of ``CLARK_SCORES``, where they were computed; any other is ours under either."""
        return check_choice("definitions", definitions, DEFINITIONS) == "clark" and self.clark is not None and name in CLARK_SCORES

    def score(self, name: str, definitions: str = "ours") -> NDArray[np.float64]:
        """(S, L, H): one score on every sentence, by our definition or Clark et al.'s (``defined``)."""
        check_choice("score", name, self.names)
        if self.defined(name, definitions):
            assert self.clark is not None
            return self.clark[:, CLARK_SCORES.index(name)]
        return self.values[:, self.names.index(name)]

    def means(self, definitions: str = "ours") -> NDArray[np.float64]:
        """(K, L, H): each score's mean over the sentences that have it (NaN where none has), by ``definitions``."""
        values = np.stack([self.score(name, definitions) for name in self.names], axis=1)  # (S, K, L, H)
        finite = np.isfinite(values)
        counts = finite.sum(axis=0)
        totals = np.where(finite, values, 0.0).sum(axis=0)
        return frozen(np.where(counts > 0, totals / np.maximum(counts, 1), np.nan))

    def mean(self, name: str, definitions: str = "ours") -> NDArray[np.float64]:
        """(L, H): one score's corpus mean."""
        return self.means(definitions)[self.names.index(check_choice("score", name, self.names))]

    def counted(self, name: str) -> int:
        """How many sentences have the score ``name`` (all but those without such a key: a repeated word, punctuation)."""
        return int(np.isfinite(self.score(name)[:, 0, 0]).sum())


def sentence_units(model: MiniLM, sentence: str, most: int = MAX_WORD_PIECES) -> tuple[list[int], tuple[str, ...], int, NDArray]:
    """What the forward pass and the scores need of one sentence: its piece ids and tokens, cut to ``most`` pieces as
    the model cuts to 128 (the first most − 1, then [SEP]), the pieces dropped, and its ``same_word_mask`` (n, n)."""
    most = check_int("most", most, 2, MAX_WORD_PIECES)
    ids, tokens, dropped = model.encode(sentence)
    _, words, pieces = word_groups(model, sentence)
    if len(ids) > most:
        dropped += len(ids) - most
        ids, tokens = ids[: most - 1] + ids[-1:], tokens[: most - 1] + tokens[-1:]
        kept = [[p for p in positions if p < most - 1] for positions in pieces]
        words, pieces = tuple(w for w, k in zip(words, kept) if k), [k for k in kept if k]
    return ids, tuple(tokens), dropped, same_word_mask(len(ids), words, pieces)


def corpus_scores(model: MiniLM, sentences: Sequence[str], progress: Callable[[int, int], None] | None = None,
                  most: int = MAX_WORD_PIECES) -> CorpusScores:
    """Every score of every head on each of ``sentences`` (S of them), each cut to ``most`` word pieces
    (``sentence_units``) -> CorpusScores with values (S, K, L, H).

    Sentences of one length run through the model together (``MiniLM.forward``, no padding: a batch of b sentences of n
    pieces at most ``BATCH_CELLS`` / n² of them); ``progress(done, S)`` is called after each batch."""
    sentences = tuple(sentences)
    if not sentences or not all(isinstance(s, str) for s in sentences):
        raise ValueError("sentences must be one or more strings")
    units = [sentence_units(model, s, most) for s in sentences]
    values = np.full((len(sentences), len(SCORES), model.layers_count, model.heads), np.nan)  # (S, K, L, H)
    clark = np.full((len(sentences), len(CLARK_SCORES), model.layers_count, model.heads), np.nan)  # (S, C, L, H)
    by_length: dict[int, list[int]] = {}
    for index, (ids, *_) in enumerate(units):
        by_length.setdefault(len(ids), []).append(index)
    done = 0
    for n, members in sorted(by_length.items()):
        size = min(MAX_BATCH, max(1, BATCH_CELLS // (n * n)))
        for start in range(0, len(members), size):
            batch = members[start: start + size]
            _, _, attentions = model.forward(np.array([units[i][0] for i in batch]))  # (L, b, H, n, n)
            for column, index in enumerate(batch):
                found = sentence_scores(attentions[:, column], units[index][1], units[index][3])  # {score: (L, H)}
                values[index] = np.stack([found[name] for name in SCORES])
                theirs = clark_scores(attentions[:, column], units[index][1])
                clark[index] = np.stack([theirs[name] for name in CLARK_SCORES])
            done += len(batch)
            if progress is not None:
                progress(done, len(sentences))
    return CorpusScores(sentences=sentences, values=values, lengths=np.array([len(u[0]) for u in units]),
                        unknown=np.array([u[1].count("[UNK]") for u in units]), dropped=np.array([u[2] for u in units]), clark=clark)


# --- Verdicts: one sentence against the corpus ---


def verdicts(shares: NDArray, threshold: float = VERDICT_THRESHOLD) -> NDArray[np.int64]:
    """shares (5, ...) in the order of ``VERDICT_SHARES`` -> (...): the index of the largest share where it is above
    ``threshold`` (the first on a tie), else ``NO_VERDICT`` (-1)."""
    shares = np.asarray(shares, dtype=np.float64)
    if shares.shape[:1] != (len(VERDICT_SHARES),):
        raise ValueError(f"shares must hold the {len(VERDICT_SHARES)} shares {', '.join(VERDICT_SHARES)} on its first axis, got {shares.shape}")
    largest = np.argmax(shares, axis=0)
    return frozen(np.where(np.take_along_axis(shares, largest[None], axis=0)[0] > threshold, largest, NO_VERDICT))


def cohen_kappa(first: NDArray, second: NDArray) -> float:
    """Cohen's κ of two labelings of the same items (any shape, equal; labels any integers): (p_o − p_e) / (1 − p_e),
    p_o the share of items labelled alike, p_e = Σ_c p_first(c) p_second(c) the share two independent labelings with
    these label frequencies would share. 1: always alike; 0: no more alike than chance; below 0: less. 1 when both give
    every item one and the same label (p_e = 1); NaN for no items."""
    first, second = np.asarray(first).ravel(), np.asarray(second).ravel()
    if first.shape != second.shape:
        raise ValueError(f"the two labelings must label the same items, got {first.size} and {second.size} labels")
    if not first.size:
        return float("nan")
    observed = float((first == second).mean())
    labels = np.union1d(first, second)
    expected = float(sum((first == c).mean() * (second == c).mean() for c in labels))
    return 1.0 if expected >= 1.0 else (observed - expected) / (1.0 - expected)


@dataclass(frozen=True)
class Agreement:
    """How often a head's verdict on one sentence is its verdict over the corpus.

    corpus (L, H): the corpus verdict (index into ``VERDICT_SHARES``, -1 none); per_sentence (S, L, H): each sentence's
    verdict; agrees (S, L, H): the two are the same (both none counts as agreeing); rate: the share of the S x L x H
    (sentence, head) pairs that agree; per_head (L, H): that share per head; baseline: the rate of always answering
    "no verdict" (the share of pairs whose corpus verdict is none); both_none: the share of pairs where both are none;
    kappa: Cohen's κ of the one-sentence verdicts against the corpus verdicts over the pairs; corpus_named_rate: among
    the pairs whose corpus verdict names a pattern, the share where one sentence names the same one; named_rate: among
    the pairs whose one-sentence verdict names a pattern, the share where the corpus names the same one (NaN when none
    does); named_heads: the heads some sentence names a pattern for; corpus_named_heads: the heads the corpus names one for.
    """

    corpus: NDArray[np.int64]
    per_sentence: NDArray[np.int64]
    agrees: NDArray[np.bool_]
    rate: float
    per_head: NDArray[np.float64]
    baseline: float
    both_none: float
    kappa: float
    corpus_named_rate: float
    named_rate: float
    named_heads: int
    corpus_named_heads: int

    def __post_init__(self) -> None:
        frozen(self)


def verdict_agreement(per_sentence: NDArray, corpus: NDArray) -> Agreement:
    """per_sentence (S, L, H) and corpus (L, H) verdicts (-1 none) -> their Agreement."""
    per_sentence, corpus = np.asarray(per_sentence), np.asarray(corpus)
    if per_sentence.shape[1:] != corpus.shape or per_sentence.ndim != 3:
        raise ValueError(f"verdicts must be (S, L, H) per sentence and (L, H) over the corpus, got {per_sentence.shape} and {corpus.shape}")
    wide = np.broadcast_to(corpus, per_sentence.shape)  # (S, L, H): each pair's corpus verdict
    agrees = per_sentence == wide
    named, corpus_named = per_sentence != NO_VERDICT, wide != NO_VERDICT
    return Agreement(corpus=corpus, per_sentence=per_sentence, agrees=agrees, rate=float(agrees.mean()), per_head=agrees.mean(axis=0),
                     baseline=float((~corpus_named).mean()), both_none=float((~named & ~corpus_named).mean()),
                     kappa=cohen_kappa(per_sentence, wide),
                     corpus_named_rate=float(agrees[corpus_named].mean()) if corpus_named.any() else float("nan"),
                     named_rate=float(agrees[named].mean()) if named.any() else float("nan"),
                     named_heads=int(named.any(axis=0).sum()), corpus_named_heads=int((corpus != NO_VERDICT).sum()))


def agreement(scores: CorpusScores) -> Agreement:
    """The one-sentence verdicts (per sentence) against the corpus verdict (the same rule on the corpus means)."""
    shares = np.stack([scores.values[:, scores.names.index(name)] for name in VERDICT_SHARES], axis=0)  # (5, S, L, H)
    means = np.stack([scores.mean(name) for name in VERDICT_SHARES])  # (5, L, H)
    return verdict_agreement(verdicts(shares), verdicts(means))


def percentile(values: NDArray, value: float) -> float:
    """The percentile rank of ``value`` among ``values`` (S,) (NaN left out): 100 x (the count below + half the count
    equal) / the count; NaN when ``value`` is NaN or no value is finite."""
    values = np.asarray(values, dtype=np.float64)
    values = values[np.isfinite(values)]
    if not values.size or not np.isfinite(value):
        return float("nan")
    return float(100.0 * ((values < value).sum() + 0.5 * (values == value).sum()) / values.size)


@dataclass(frozen=True)
class Standing:
    """Where one value stands among a corpus's values, compared as a page prints them (to ``decimals`` places): count
    (the finite values), below, equal and above (they add up to count), and the percentile rank 100 x (below + equal / 2)
    / count. ``ties_most``: more than half of the values print as this one, so a rank in the middle says little."""

    count: int
    below: int
    equal: int
    above: int
    percentile: float

    @property
    def ties_most(self) -> bool:
        """More than half of the values print as this one: 2 x equal > count."""
        return 2 * self.equal > self.count


def _shown_as(values: NDArray, decimals: int) -> NDArray[np.float64]:
    """``values`` rounded as the page prints them (f"{v:.2f}" for 2 decimals: the same digits, half-way cases included)."""
    return np.array([float(f"{v:.{decimals}f}") for v in np.asarray(values, dtype=np.float64).ravel()])


def standing(values: NDArray, value: float, decimals: int = 2) -> Standing | None:
    """``value`` among ``values`` (S,) (NaN left out), both as printed to ``decimals`` places (0.9996 and 0.9999 both
    print as 1.00: the student sees a tie); None when ``value`` is NaN or no value is finite."""
    decimals = check_int("decimals", decimals, 0, 12)
    values = np.asarray(values, dtype=np.float64)
    values = values[np.isfinite(values)]
    if not values.size or not np.isfinite(value):
        return None
    printed, here = _shown_as(values, decimals), float(_shown_as(np.array([value]), decimals)[0])
    below, equal = int((printed < here).sum()), int((printed == here).sum())
    return Standing(count=int(values.size), below=below, equal=equal, above=int(values.size) - below - equal,
                    percentile=100.0 * (below + 0.5 * equal) / values.size)


def top_sentences(values: NDArray, count: int) -> NDArray[np.int64]:
    """values (S,) -> (min(count, finite),): the indices of the largest finite values, largest first (the earlier
    sentence first on a tie)."""
    values = np.asarray(values, dtype=np.float64)
    count = check_int("count", count, 1, 1000)
    order = np.lexsort((np.arange(values.size), -np.where(np.isfinite(values), values, -np.inf)))  # by value, then index
    return frozen(order[: min(count, int(np.isfinite(values).sum()))])


# --- A head's sentences across lengths and across its distribution ---


def length_bins(lengths: NDArray, count: int = LENGTH_BINS) -> NDArray[np.int64]:
    """lengths (S,) in word pieces -> (S,): each sentence's bin, 0 (shortest) … at most ``count`` − 1, cut at the
    length quantiles 1/count, 2/count, …; sentences of one length share a bin, so with many ties there are fewer bins
    (bins are numbered 0, 1, … without gaps)."""
    lengths = np.asarray(lengths, dtype=np.float64)
    count = check_int("count", count, 1, 100)
    if not lengths.size:
        return frozen(np.zeros(0, dtype=np.int64))
    edges = np.unique(np.quantile(lengths, np.arange(1, count) / count))  # (≤ count − 1,)
    raw = np.searchsorted(edges, lengths, side="left")  # (S,): sentences equal to an edge go below it
    return frozen(np.unique(raw, return_inverse=True)[1].astype(np.int64).reshape(lengths.shape))


def top_by_length(values: NDArray, bins: NDArray) -> NDArray[np.int64]:
    """values (S,), bins (S,) from ``length_bins`` -> (B',): each bin's top sentence (its largest finite value, the
    earlier sentence on a tie), shortest bin first; a bin without a finite value gives none.

    Why ranks within bins of length, not a score relative to the uniform row's 1/n: a per-sentence mean of a share has a
    floor of about 1/n and a head is often sharper on a short sentence, so the raw top sentences are the shortest
    lines ("Help!"). Measuring the share above the uniform row's, (s − 1/n) / (1 − 1/n), does not change that on the
    shipped corpus (the "previous token" tops keep a median of 4 pieces: the floor is small beside a share near 1), and
    the uniform row has no such simple value for entropy or offset. Comparing a sentence only with sentences of about
    its length works for every score alike (on the shipped corpus the "previous token" tops go from a median of 4 word
    pieces to 13, the corpus's median being 14)."""
    values, bins = np.asarray(values, dtype=np.float64), np.asarray(bins)
    if values.shape != bins.shape or values.ndim != 1:
        raise ValueError(f"values and bins must be (S,) each, got {values.shape} and {bins.shape}")
    found = []
    for b in np.unique(bins):
        members = np.flatnonzero(bins == b)
        best = top_sentences(values[members], 1)
        found.extend(members[best])
    return frozen(np.array(found, dtype=np.int64))


def decile_samples(values: NDArray, count: int = 10) -> NDArray[np.int64]:
    """values (S,) -> (min(count, finite),): one sentence from each of ``count`` equal slices of the distribution, lowest
    first: sorted by value (NaN left out, the earlier sentence first on a tie), the sentence at rank ⌊(k + ½) m / count⌋
    for k = 0 … count − 1 of the m finite ones (the middle of each decile for count = 10)."""
    values = np.asarray(values, dtype=np.float64)
    count = check_int("count", count, 1, 1000)
    finite = np.flatnonzero(np.isfinite(values))
    order = finite[np.lexsort((finite, values[finite]))]  # (m,): ascending, ties by index
    if not order.size:
        return frozen(np.zeros(0, dtype=np.int64))
    ranks = np.unique(np.floor((np.arange(count) + 0.5) * order.size / count).astype(np.int64))
    return frozen(order[ranks])


# --- The built-in corpus and a pasted one ---


def corpus_sentences(path: Path = CORPUS_FILE) -> tuple[str, ...]:
    """The built-in corpus (assets/corpus/sentences.txt): one sentence a line, blank lines skipped."""
    return tuple(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def corpus_hash(path: Path = CORPUS_FILE) -> str:
    """The SHA-256 of the corpus file's bytes: a scores file made from another text is stale."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save_scores(scores: CorpusScores, path: Path = SCORES_FILE, source: Path = CORPUS_FILE) -> None:
    """Write ``scores`` compactly (float32 values, the score names and the corpus file's hash) to ``path`` (.npz)."""
    clark = {} if scores.clark is None else {"clark": scores.clark.astype(np.float32), "clark_names": np.array(CLARK_SCORES)}
    np.savez_compressed(path, values=scores.values.astype(np.float32), names=np.array(scores.names), lengths=scores.lengths.astype(np.int16),
                        unknown=scores.unknown.astype(np.int16), dropped=scores.dropped.astype(np.int16),
                        source_sha256=np.array(corpus_hash(source)), **clark)


class StaleScores(ValueError):
    """The shipped scores were made from another corpus text (or with other scores): run ``make corpus`` again."""


def load_scores(path: Path = SCORES_FILE, source: Path = CORPUS_FILE) -> CorpusScores:
    """The shipped scores of the built-in corpus (float64 again); ``StaleScores`` when the file does not match the
    corpus file (its hash, its number of sentences) or ``SCORES``."""
    sentences = corpus_sentences(source)
    with np.load(path) as data:
        stored = {name: data[name] for name in data.files}
    if str(stored["source_sha256"]) != corpus_hash(source) or tuple(stored["names"].tolist()) != SCORES or len(stored["values"]) != len(sentences) \
            or tuple(stored.get("clark_names", np.array([])).tolist()) != CLARK_SCORES:
        raise StaleScores(f"{path.name} was made from another {source.name}: run 'make corpus' to compute it again")
    return CorpusScores(sentences=sentences, values=stored["values"].astype(np.float64), lengths=stored["lengths"].astype(np.int64),
                        unknown=stored["unknown"].astype(np.int64), dropped=stored["dropped"].astype(np.int64),
                        clark=stored["clark"].astype(np.float64))


@dataclass(frozen=True)
class PastedCorpus:
    """Pasted text as sentences to score, and what was changed on the way.

    sentences: at most ``MAX_SENTENCES``, each at most ``MAX_SENTENCE_CHARS`` characters; found: the sentences the text
    held; left_out: found beyond the limit; cut: how many sentences were cut at a word; wordless: pieces dropped for
    holding no letter or digit (a line of emoji or punctuation); text_cut: characters beyond ``MAX_PASTE_CHARS`` not read.
    """

    sentences: tuple[str, ...]
    found: int
    left_out: int
    cut: int
    wordless: int
    text_cut: int


SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")  # after a mark and a space ("2.5" stays whole)


def cut_at_word(sentence: str, most: int) -> str:
    """``sentence`` if it has at most ``most`` characters, else its longest start of at most ``most`` ending at a space
    (or exactly ``most`` characters when there is no space)."""
    if len(sentence) <= most:
        return sentence
    start = sentence[:most]
    space = start.rfind(" ")
    return (start[:space] if space > 0 else start).rstrip()


def split_corpus(text: str, most: int = MAX_SENTENCES, longest: int = MAX_SENTENCE_CHARS) -> PastedCorpus:
    """Pasted text -> sentences: each line on its own, split after . ! ? followed by a space (and after 。！？); a piece
    without a letter or digit is dropped (``wordless``); long sentences are cut at a word; the first ``most`` are kept.
    HTML and scripts are text like any other (a page shows them as text)."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    most, longest = check_int("most", most, 1, 10_000), check_int("longest", longest, 10, 10_000)
    pieces = [piece.strip() for line in text[:MAX_PASTE_CHARS].splitlines() for piece in SENTENCE_BREAK.split(line)]
    pieces = [piece for piece in pieces if piece]
    sentences = [piece for piece in pieces if any(ch.isalnum() for ch in piece)]
    return PastedCorpus(sentences=tuple(cut_at_word(s, longest) for s in sentences[:most]), found=len(sentences),
                        left_out=max(0, len(sentences) - most), cut=sum(1 for s in sentences[:most] if len(s) > longest),
                        wordless=len(pieces) - len(sentences), text_cut=max(0, len(text) - MAX_PASTE_CHARS))
