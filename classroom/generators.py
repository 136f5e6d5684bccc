"""Similar questions, drawn afresh from a seed: a new sentence or new numbers, the answer and the distractors computed
by the NumPy core (``attention_core``), the words in each reader's language (assets/text/<lang>/live.toml
[generated]).

"The same question twice teaches the answer, not the idea": after a question is revealed the teacher sends "one more
like it", answered alone, and the share right on it is the class's transfer. Six kinds, one per kind of question in the
lesson and the concept check that has a computed answer:

=============  ===========================================================================================
most_weight    a query q and a key vector per word (d_k = 2): which key gets the most weight?
row_sum        a row of scores, then a change (add, multiply, set one, mask one): what do the weights add up to?
scale          two raw scores and d_k: the weight on the first key after ÷√d_k and softmax
causal         a word of a sentence: which keys does the causal mask hide from it?
cosine         two small integer vectors: their cosine similarity
pattern        a 5 × 5 matrix of weights: which pattern does the head show?
=============  ===========================================================================================

An instance is a pure function of (kind, seed): the same on every replica and in every language, so a question is
stored as ``gen.<kind>.<seed>`` and worded again wherever it is read. A sentence is an index into the texts' list
(English and Chinese sentences of the same length), so the answer never depends on the reader's language.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from attention_core import causal_mask, closeness, cosine_similarity, dot_scores_of, focus_row, softmax
from attention_plot.text import Texts

KINDS = ("most_weight", "row_sum", "scale", "causal", "cosine", "pattern")
SENTENCES = "live.generated.sentences"  # the texts' list (the same length in every language, sentence by sentence)
SENTENCE_TOKENS = (6, 6, 5, 6, 7, 5, 5, 6, 7, 6, 6)  # tokens of each sentence (tests/test_core_generators.py checks)
PATTERNS = ("previous", "self", "first", "next")
PATTERN_MARGIN = 0.15  # the pattern shown leads the next best by at least this much of each row's weight
MAX_DRAWS = 200  # sub-draws tried for an instance whose numbers would show an ambiguous answer


@dataclass(frozen=True)
class Option:
    """One option: its text key under ``live.generated.options``, a number as shown, or token positions (1-based)."""

    key: str
    number: str = ""
    positions: tuple[int, ...] = ()


@dataclass(frozen=True)
class Instance:
    """A drawn question: what it shows (``values``: numbers already written as shown; ``sentence``: an index into the
    texts' sentences; ``words``: token positions it names), its options, the correct one, and ``matrix``, the weights a
    pattern question shows (rows = queries, columns = keys)."""

    kind: str
    seed: int
    sentence: int
    words: dict[str, int]
    values: dict[str, str]
    options: tuple[Option, ...]
    correct: int
    query: tuple[int, ...] = ()  # most_weight: q
    vectors: tuple[tuple[int, ...], ...] = ()  # most_weight: each key's vector k_j
    matrix: NDArray[np.float64] | None = field(default=None, compare=False)

    @property
    def item(self) -> str:
        """The id a question is stored under."""
        return f"gen.{self.kind}.{self.seed}"


# --- Numbers as shown ---


def number(x: float, decimals: int = 2) -> str:
    """x with fixed decimals and a true minus sign; −0.00 shows as 0.00."""
    text = f"{round(float(x), decimals) + 0.0:.{decimals}f}"
    return text.replace("-", "−")


def whole(x: float) -> str:
    """A whole number (or a half) with a true minus sign."""
    return number(x, 0 if float(x).is_integer() else 1)


def vector(v) -> str:
    """(2, −1, 3)."""
    return "(" + ", ".join(whole(x) for x in v) + ")"


# --- The six kinds ---


def _sentence(rng: np.random.Generator, shortest: int = 5) -> tuple[int, int]:
    """A sentence index with at least ``shortest`` tokens, and its number of tokens."""
    choices = [s for s, n in enumerate(SENTENCE_TOKENS) if n >= shortest]
    index = int(rng.choice(choices))
    return index, SENTENCE_TOKENS[index]


def _shuffled(rng: np.random.Generator, answer: Option, distractors: list[Option]) -> tuple[tuple[Option, ...], int]:
    """The answer among the distractors at a place drawn from ``rng``: (options, index of the answer)."""
    options = [answer, *distractors]
    order = rng.permutation(len(options))
    shuffled = tuple(options[i] for i in order)
    return shuffled, int(np.flatnonzero(order == 0)[0])


def _numbers(rng: np.random.Generator, answer: str, candidates: list[float], wanted: int = 3) -> tuple[tuple[Option, ...], int] | None:
    """Numeric options: the answer and the first ``wanted`` candidates that show differently from it and from each
    other; None when too few do (the caller draws again)."""
    shown = [answer]
    for value in candidates:
        text = number(value)
        if math.isfinite(value) and text not in shown:
            shown.append(text)
    if len(shown) < wanted + 1:
        return None
    return _shuffled(rng, Option("number", answer), [Option("number", text) for text in shown[1:wanted + 1]])


def most_weight(rng: np.random.Generator, seed: int) -> Instance | None:
    """q and each key's k (d_k = 2, whole numbers in −3..3): which key does the word give the most weight? The core's
    scores q · k_j, ÷√2 and softmax; the largest score must be unique (softmax keeps the order)."""
    sentence, n = _sentence(rng)
    focus = int(rng.integers(n))
    q = rng.integers(-3, 4, size=2)
    keys = rng.integers(-3, 4, size=(n, 2))  # (n, d_k)
    if not q.any():
        return None
    row = focus_row(dot_scores_of(q.astype(float), keys.astype(float)), math.sqrt(2), keys.astype(float))
    top = np.sort(row.raw_scores)[-2:]
    if top[1] == top[0]:
        return None
    best = int(np.argmax(row.weights))
    options = tuple(Option("key", positions=(j + 1,)) for j in range(n))
    return Instance("most_weight", seed, sentence, {"word": focus + 1, "best": best + 1}, {"q": vector(q), "weight": number(row.weights[best])},
                    options, best, query=tuple(int(x) for x in q), vectors=tuple(tuple(int(x) for x in k) for k in keys))


CHANGES = ("add", "times", "set", "mask")


def row_sum(rng: np.random.Generator, seed: int) -> Instance | None:
    """A row of 4 scores (whole numbers in −3..3) and one change: what do the softmax weights add up to now? The core's
    softmax of the changed row (a masked key gets no weight); distractors: the changed scores' sum, the number of keys
    (that still count), the sum of the exponentials before dividing."""
    n = 4
    scores = rng.integers(-3, 4, size=n).astype(float)
    change = str(rng.choice(CHANGES))
    key = int(rng.integers(n))
    amount = float(rng.choice([-4, -3, -2, 2, 3, 4, 5])) if change in ("add", "set") else float(rng.choice([2, 3, 0.5]))
    new = scores + amount if change == "add" else scores * amount if change == "times" else scores.copy()
    if change == "set":
        new[key] = amount
    mask = np.ones(n, dtype=bool)
    if change == "mask":
        mask[key] = False
    weights = softmax(new[None, :], mask[None, :])[0]
    allowed = new[mask]
    found = _numbers(rng, number(weights.sum()), [allowed.sum(), float(mask.sum()), float(np.exp(allowed).sum())])
    if found is None:
        return None
    options, correct = found
    values = {"scores": vector(scores), "amount": whole(amount), "new": vector(new) if change != "mask" else "",
              "weight": number(weights[key])}
    return Instance("row_sum", seed, 0, {"key": key + 1, "change": CHANGES.index(change)}, values, options, correct)


def scale(rng: np.random.Generator, seed: int) -> Instance | None:
    """Two raw scores a > b of one query and d_k: the weight on the first key after ÷√d_k and softmax (the core's
    focus row). Distractors: softmax without the division, a / (a + b), softmax after ÷d_k, and 0.50."""
    sentence, n = _sentence(rng)
    first, second = (int(p) for p in rng.choice(n, size=2, replace=False))
    d_k = int(rng.choice([4, 16, 64, 256]))
    root = math.isqrt(d_k)
    gap = int(rng.choice([1, 2, 3, 4])) * root // 2  # a spread of ½ … 2 times √d_k
    a = int(rng.integers(2, 8)) * root
    b = a - gap
    if gap == 0 or b <= 0:
        return None
    scores = np.array([a, b], dtype=float)
    weight = focus_row(scores, math.sqrt(d_k), np.eye(2)).weights[0]
    plain = softmax(scores[None, :])[0, 0]
    by_d_k = focus_row(scores, float(d_k), np.eye(2)).weights[0]
    found = _numbers(rng, number(weight), [plain, a / (a + b), by_d_k, 0.5])
    if found is None:
        return None
    options, correct = found
    values = {"a": whole(a), "b": whole(b), "d_k": str(d_k), "root": str(root), "scaled_a": number(a / root), "scaled_b": number(b / root),
              "plain": number(plain)}
    return Instance("scale", seed, sentence, {"word": first + 1, "other": second + 1}, values, options, correct)


def causal(rng: np.random.Generator, seed: int) -> Instance | None:
    """A word at position i (2 ≤ i < n) of a sentence: which keys does the causal mask hide from its query? The core's
    causal mask, row i: the keys after i. Distractors: the keys before i, its own key, none."""
    sentence, n = _sentence(rng)
    i = int(rng.integers(2, n))  # 1-based position: some keys before it, some after
    allowed = causal_mask(n)[i - 1]  # (n,) True where the query may attend
    hidden = tuple(int(j) + 1 for j in np.flatnonzero(~allowed))
    answer = Option("keys", positions=hidden)
    distractors = [Option("keys", positions=tuple(range(1, i))), Option("keys", positions=(i,)), Option("none")]
    options, correct = _shuffled(rng, answer, distractors)
    return Instance("causal", seed, sentence, {"word": i}, {"n": str(n)}, options, correct)


def cosine(rng: np.random.Generator, seed: int) -> Instance | None:
    """Two vectors of 2 or 3 whole numbers in −4..4: their cosine similarity (the core's). Distractors: the dot
    product, the cosine's opposite, and q · k / ‖q‖ (one length forgotten)."""
    size = int(rng.choice([2, 3]))
    q, k = rng.integers(-4, 5, size=size), rng.integers(-4, 5, size=size)
    if not q.any() or not k.any():
        return None
    cos = cosine_similarity(q.astype(float), k.astype(float))
    dot = float(q @ k)
    found = _numbers(rng, number(cos), [dot, -cos, dot / float(np.linalg.norm(q))])
    if found is None:
        return None
    options, correct = found
    values = {"q": vector(q), "k": vector(k), "dot": whole(dot), "norm_q": number(np.linalg.norm(q)), "norm_k": number(np.linalg.norm(k))}
    return Instance("cosine", seed, 0, {}, values, options, correct)


def ideal(pattern: str, n: int, fill: bool = False) -> NDArray[np.float64]:  # -> [n, n]
    """The pattern's keys as 1s: previous (row i → i − 1), self (i → i), first (i → 1), next (i → i + 1); a row with
    no such key (the first has no previous word, the last no next one) is all zeros, or looks at itself when ``fill``
    (as a real head's first word does)."""
    target = {"previous": lambda i: i - 1, "self": lambda i: i, "first": lambda i: 0, "next": lambda i: i + 1}[pattern]
    out = np.zeros((n, n))
    for i in range(n):
        j = target(i)
        if 0 <= j < n or fill:
            out[i, j if 0 <= j < n else i] = 1.0
    return out


def pattern(rng: np.random.Generator, seed: int) -> Instance | None:
    """A head's 5 × 5 weights over a sentence's first five words: softmax(strength · pattern + noise), by the core.
    The answer is the pattern on whose keys the rows put the most weight (the core's ``closeness``), by a clear margin."""
    sentence, _ = _sentence(rng)
    n = 5
    drawn = str(rng.choice(PATTERNS))
    scores = rng.uniform(2.0, 4.0) * ideal(drawn, n, fill=True) + rng.normal(0.0, 0.7, size=(n, n))  # (n, n)
    weights = np.round(softmax(scores), 2)  # as shown: the answer is read from the numbers on the screen
    shares = np.array([closeness(weights, ideal(p, n)) for p in PATTERNS])
    order = np.argsort(shares)
    if shares[order[-1]] - shares[order[-2]] < PATTERN_MARGIN:
        return None
    best = int(order[-1])
    options = tuple(Option(p) for p in PATTERNS)
    values = {"share": number(shares[best]), "second": number(shares[order[-2]])}
    return Instance("pattern", seed, sentence, {"second": int(order[-2])}, values, options, best, matrix=weights)


DRAW = {"most_weight": most_weight, "row_sum": row_sum, "scale": scale, "causal": causal, "cosine": cosine, "pattern": pattern}


def draw(kind: str, seed: int) -> Instance:
    """The instance of ``kind`` for ``seed`` (a whole number 0 … 2³¹ − 1): the same on every call."""
    if kind not in DRAW:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**31:
        raise ValueError("seed must be a whole number from 0 to 2147483647")
    rng = np.random.default_rng([seed, KINDS.index(kind)])
    for _ in range(MAX_DRAWS):
        found = DRAW[kind](rng, seed)
        if found is not None:
            return found
    raise RuntimeError(f"no {kind} instance for seed {seed}")  # never seen: tests draw 1,000 of each


# Which kind of question is "like" a question of the lesson, the concept check, the walkthrough or a drawn one.
LIKE = {"concept.row_sum": "row_sum", "concept.equal": "row_sum", "concept.scale": "scale", "lesson.four_steps": "scale",
        "lesson.scaling": "scale", "concept.causal": "causal", "concept.cosine": "cosine", "lesson.real": "pattern",
        "lesson.learn": "pattern"}


def similar_kind(item: str) -> str | None:
    """The kind of question drawn as "one more like it" for a stored item id, or None when none is like it."""
    if item.startswith("walk."):
        return "most_weight"
    if item.startswith("gen."):
        return item.split(".")[1] if item.split(".")[1] in DRAW else None
    return LIKE.get(item)


def parse(item: str) -> Instance | None:
    """The instance a stored id names (``gen.<kind>.<seed>``), or None."""
    prefix, _, rest = item.partition(".")
    kind, _, seed = rest.rpartition(".")
    if prefix != "gen" or kind not in DRAW or not seed.isdigit() or len(seed) > 10 or int(seed) >= 2**31:
        return None
    return draw(kind, int(seed))


# --- Words ---


@dataclass(frozen=True)
class Wording:
    """A drawn question in one language: the question, its options, the explanation after the reveal, and a table
    to show under the question (header, rows), if any."""

    question: str
    options: list[str]
    explanation: str
    table: tuple[list[str], list[list[str]]] | None = None


def tokens_of(T: Texts, sentence: int) -> list[str]:
    from attention_core.embedding import tokenize

    return tokenize(str(T.get(SENTENCES)[sentence]))


def word(tokens: list[str], position: int) -> str:
    """A token named by its position: “2 · cat” (repeated words stay apart)."""
    return f"{position} · {tokens[position - 1]}"


def in_words(T: Texts, tokens: list[str], position: int) -> str:
    """A token named by its position inside a sentence: “flowers (word 6)” (“6 · flowers” there reads as a product)."""
    return T("live.generated.word", token=tokens[position - 1], position=position)


def option_text(T: Texts, option: Option, tokens: list[str]) -> str:
    if option.key == "number":
        return option.number
    if option.key == "key":
        return word(tokens, option.positions[0])
    if option.key == "keys":
        return T("live.generated.options.keys", keys=T("live.generated.list_separator").join(word(tokens, p) for p in option.positions))
    return T(f"live.generated.options.{option.key}")


def wording(T: Texts, instance: Instance) -> Wording:
    """The instance in ``T``'s language."""
    tokens = tokens_of(T, instance.sentence)
    named = {name: in_words(T, tokens, position) for name, position in instance.words.items() if name in ("word", "other", "best")}
    base = f"live.generated.{instance.kind}"
    options = [option_text(T, option, tokens) for option in instance.options]
    values = {**instance.values, **named, "sentence": " ".join(tokens) if T.lang == "en" else "".join(tokens)}
    table = None
    if instance.kind == "most_weight":
        scores = [int(np.dot(k, instance.query)) for k in instance.vectors]  # q · k_j, as the explanation lists them
        table = ([T("live.generated.key"), "k"], [[word(tokens, j + 1), vector(v)] for j, v in enumerate(instance.vectors)])
        values["scores"] = T("live.generated.list_separator").join(f"{in_words(T, tokens, j + 1)}: {whole(s)}" for j, s in enumerate(scores))
    elif instance.kind == "row_sum":
        change = CHANGES[instance.words["change"]]
        values["change"] = T(f"{base}.changes.{change}", key=instance.words["key"], amount=instance.values["amount"])
        values["key"] = str(instance.words["key"])
    elif instance.kind == "causal":
        values["allowed"] = T("live.generated.list_separator").join(in_words(T, tokens, p) for p in range(1, instance.words["word"] + 1))
    elif instance.kind == "pattern":
        table = ([T("live.generated.query_key")] + [word(tokens, j + 1) for j in range(5)],
                 [[word(tokens, i + 1)] + [number(x) for x in row] for i, row in enumerate(instance.matrix)])
        values["pattern"] = T(f"live.generated.options.{PATTERNS[instance.correct]}")
        values["second_pattern"] = T(f"live.generated.options.{PATTERNS[instance.words['second']]}")
    return Wording(T(f"{base}.question", **values), options, T(f"{base}.explanation", **values), table)
