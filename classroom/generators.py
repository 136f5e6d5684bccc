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

An instance is a pure function of (kind, seed, revision): the same on every replica and in every language, so a
question is stored as ``gen.<kind>.<seed>.<revision>`` and worded again wherever it is read. A sentence is an index into
the texts' list (English and Chinese sentences of the same length), so the answer never depends on the reader's language.

Every distractor comes from a named misconception (``Option.misconception``, worded in assets/text/<lang>/history.toml
[misconceptions]): forgot to scale, divided by d_k, took the largest weight for the sum, one length forgotten … Since
revision 2 (issue #45) a numeric option always lies inside the answer's possible range (``RANGE``: a weight and a row's
sum in [0, 1], a cosine in [−1, 1]) and two options always show at least ``APART`` hundredths apart (never 1.00 beside
1.01); the key question offers the answer and three keys a misconception would pick, not every key. Revision 1 (ids
``gen.<kind>.<seed>``, before #45) is drawn as it was, so a class kept from then reads as its students saw it.
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
REVISION = 2  # the distractors' newest revision (1: before #45, stored without a suffix)
REVISIONS = (1, 2)
RANGE = {"row_sum": (0.0, 1.0), "scale": (0.0, 1.0), "cosine": (-1.0, 1.0)}  # every value the answer could take
APART = 2  # hundredths: two numeric options shown at least this far apart (revision 2)


@dataclass(frozen=True)
class Option:
    """One option: its text key under ``live.generated.options``, a number as shown, or token positions (1-based), and
    for a distractor the misconception it comes from (``history.misconceptions.<name>``)."""

    key: str
    number: str = ""
    positions: tuple[int, ...] = ()
    misconception: str = ""  # a distractor's: the name of the mistake that gives it ("" for the answer)


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
    revision: int = REVISION
    query: tuple[int, ...] = ()  # most_weight: q
    vectors: tuple[tuple[int, ...], ...] = ()  # most_weight: each key's vector k_j
    matrix: NDArray[np.float64] | None = field(default=None, compare=False)

    @property
    def item(self) -> str:
        """The id a question is stored under (revision 1 without a suffix, as it was stored)."""
        return f"gen.{self.kind}.{self.seed}" + ("" if self.revision == 1 else f".{self.revision}")

    @property
    def distractors(self) -> tuple[Option, ...]:
        return tuple(option for n, option in enumerate(self.options) if n != self.correct)


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


def hundredths(text: str) -> int:
    """An option as shown, in display units: "−0.55" -> −55."""
    return round(float(text.replace("−", "-")) * 100)


Candidate = tuple[str, float]  # (misconception, the value it gives)


def _numbers(rng: np.random.Generator, answer: str, candidates: list[Candidate], revision: int,
             bounds: tuple[float, float] = (-math.inf, math.inf), wanted: int = 3) -> tuple[tuple[Option, ...], int] | None:
    """Numeric options: the answer and the first ``wanted`` candidates that fit; None when too few do (the caller draws
    again). Revision 1: shown differently from the answer and each other. Revision 2: also shown inside ``bounds`` and
    at least ``APART`` hundredths from the answer and from each other."""
    shown, chosen = [answer], []
    for name, value in candidates:
        text = number(value)
        if not math.isfinite(value) or text in shown:
            continue
        if revision > 1 and not (bounds[0] * 100 <= hundredths(text) <= bounds[1] * 100
                                 and all(abs(hundredths(text) - hundredths(other)) >= APART for other in shown)):
            continue
        shown.append(text)
        chosen.append(Option("number", text, misconception=name))
    if len(chosen) < wanted:
        return None
    return _shuffled(rng, Option("number", answer), chosen[:wanted])


def key_candidates(q: NDArray, keys: NDArray, focus: int) -> list[tuple[str, int]]:  # [d_k], [n, d_k] -> [(name, j)]
    """The keys a misconception picks for "which key gets the most weight?", in order: the word's own key (a word
    attends most to itself), the longest key (length over direction), the most negative score (its size taken for a
    weight), the key closest in direction (cosine, length ignored), the next word (the one beside it). Ties: the first."""
    scores = keys @ q  # (n,)
    lengths = (keys ** 2).sum(axis=1)  # (n,)
    found = [("own_word", focus), ("longest_key", int(np.argmax(lengths)))]
    if scores.min() < 0:
        found.append(("largest_size", int(np.argmin(scores))))
    pointing = [j for j in range(len(keys)) if lengths[j] > 0]
    cosines = [scores[j] / math.sqrt(lengths[j]) for j in pointing]  # ‖q‖ is the same for every key
    found.append(("closest_direction", pointing[int(np.argmax(cosines))]))
    found.append(("neighbour", focus + 1 if focus + 1 < len(keys) else focus - 1))
    return found


def _keys(rng: np.random.Generator, best: int, candidates: list[tuple[str, int]], wanted: int = 3) -> tuple[tuple[Option, ...], int] | None:
    """The answer's key and the first ``wanted`` other keys the candidates name (each once), shuffled; None if too few."""
    taken, chosen = {best}, []
    for name, j in candidates:
        if j not in taken:
            taken.add(j)
            chosen.append(Option("key", positions=(j + 1,), misconception=name))
    if len(chosen) < wanted:
        return None
    return _shuffled(rng, Option("key", positions=(best + 1,)), chosen[:wanted])


def most_weight(rng: np.random.Generator, seed: int, revision: int = REVISION) -> Instance | None:
    """q and each key's k (d_k = 2, whole numbers in −3..3): which key does the word give the most weight? The core's
    scores q · k_j, ÷√2 and softmax; the largest score must be unique (softmax keeps the order). Options: every key
    (revision 1), or the answer and three keys a misconception picks (``key_candidates``)."""
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
    if revision == 1:
        options, correct = tuple(Option("key", positions=(j + 1,)) for j in range(n)), best
    else:
        found = _keys(rng, best, key_candidates(q.astype(float), keys.astype(float), focus))
        if found is None:
            return None
        options, correct = found
    return Instance("most_weight", seed, sentence, {"word": focus + 1, "best": best + 1}, {"q": vector(q), "weight": number(row.weights[best])},
                    options, correct, revision, query=tuple(int(x) for x in q), vectors=tuple(tuple(int(x) for x in k) for k in keys))


CHANGES = ("add", "times", "set", "mask")


def row_sum(rng: np.random.Generator, seed: int, revision: int = REVISION) -> Instance | None:
    """A row of 4 scores (whole numbers in −3..3) and one change: what do the softmax weights add up to now? The core's
    softmax of the changed row (a masked key gets no weight). Distractors, revision 2, all in [0, 1]: the masked key's
    weight dropped without dividing again (1 − its weight before), the largest weight taken for the sum, the changed
    key's own weight, one key's equal share 1 / n. Revision 1: the changed scores' sum, the number of keys, the sum of
    the exponentials before dividing."""
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
    if revision == 1:
        candidates = [("scores_sum", allowed.sum()), ("key_count", float(mask.sum())), ("exp_sum", float(np.exp(allowed).sum()))]
    else:
        before = softmax(scores[None, :])[0]
        candidates = ([("not_renormalised", 1.0 - before[key])] if change == "mask" else []) + [
            ("largest_weight", float(weights.max())), ("changed_weight", float(weights[key])), ("equal_share", 1.0 / mask.sum())]
    found = _numbers(rng, number(weights.sum()), candidates, revision, RANGE["row_sum"])
    if found is None:
        return None
    options, correct = found
    values = {"scores": vector(scores), "amount": whole(amount), "new": vector(new) if change != "mask" else "",
              "weight": number(weights[key])}
    return Instance("row_sum", seed, 0, {"key": key + 1, "change": CHANGES.index(change)}, values, options, correct, revision)


def scale(rng: np.random.Generator, seed: int, revision: int = REVISION) -> Instance | None:
    """Two raw scores a > b of one query and d_k: the weight on the first key after ÷√d_k and softmax (the core's
    focus row). Distractors, all in [0, 1]: softmax without the division (forgot to scale), after ÷d_k, a / (a + b)
    (the scores divided by their sum instead of the softmax), the other key's weight 1 − w (revision 2), 0.50."""
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
    if revision == 1:
        candidates = [("unscaled", plain), ("score_ratio", a / (a + b)), ("by_d_k", by_d_k), ("equal", 0.5)]
    else:
        candidates = [("unscaled", plain), ("by_d_k", by_d_k), ("score_ratio", a / (a + b)), ("other_key", 1.0 - weight), ("equal", 0.5)]
    found = _numbers(rng, number(weight), candidates, revision, RANGE["scale"])
    if found is None:
        return None
    options, correct = found
    values = {"a": whole(a), "b": whole(b), "d_k": str(d_k), "root": str(root), "scaled_a": number(a / root), "scaled_b": number(b / root),
              "plain": number(plain)}
    return Instance("scale", seed, sentence, {"word": first + 1, "other": second + 1}, values, options, correct, revision)


def causal(rng: np.random.Generator, seed: int, revision: int = REVISION) -> Instance | None:
    """A word at position i (2 ≤ i < n) of a sentence: which keys does the causal mask hide from its query? The core's
    causal mask, row i: the keys after i. Distractors: the keys before i (the mask reversed), its own key (the mask
    hides the word itself), none (the mask dropped)."""
    sentence, n = _sentence(rng)
    i = int(rng.integers(2, n))  # 1-based position: some keys before it, some after
    allowed = causal_mask(n)[i - 1]  # (n,) True where the query may attend
    hidden = tuple(int(j) + 1 for j in np.flatnonzero(~allowed))
    answer = Option("keys", positions=hidden)
    distractors = [Option("keys", positions=tuple(range(1, i)), misconception="reversed"),
                   Option("keys", positions=(i,), misconception="hides_itself"), Option("none", misconception="no_mask")]
    options, correct = _shuffled(rng, answer, distractors)
    return Instance("causal", seed, sentence, {"word": i}, {"n": str(n)}, options, correct, revision)


def cosine(rng: np.random.Generator, seed: int, revision: int = REVISION) -> Instance | None:
    """Two vectors of 2 or 3 whole numbers in −4..4: their cosine similarity (the core's). Distractors, revision 2, all
    in [−1, 1] (a candidate outside is skipped): q · k / ‖q‖ (one length forgotten), q · k / (‖q‖² ‖k‖²) (the square
    roots forgotten), q · k (no division), −cos (the sign turned), q · k / (‖q‖₁ ‖k‖₁) (lengths as sums of sizes),
    1 − cos (the cosine distance). Revision 1: the dot product, −cos, q · k / ‖q‖."""
    size = int(rng.choice([2, 3]))
    q, k = rng.integers(-4, 5, size=size), rng.integers(-4, 5, size=size)
    if not q.any() or not k.any():
        return None
    cos = cosine_similarity(q.astype(float), k.astype(float))
    dot = float(q @ k)
    norm_q, norm_k = float(np.linalg.norm(q)), float(np.linalg.norm(k))
    if revision == 1:
        candidates = [("dot_product", dot), ("opposite", -cos), ("one_length", dot / norm_q)]
    else:
        candidates = [("one_length", dot / norm_q), ("squared_lengths", dot / (norm_q ** 2 * norm_k ** 2)), ("dot_product", dot),
                      ("opposite", -cos), ("city_block", dot / float(np.abs(q).sum() * np.abs(k).sum())), ("distance", 1.0 - cos)]
    found = _numbers(rng, number(cos), candidates, revision, RANGE["cosine"])
    if found is None:
        return None
    options, correct = found
    values = {"q": vector(q), "k": vector(k), "dot": whole(dot), "norm_q": number(norm_q), "norm_k": number(norm_k)}
    return Instance("cosine", seed, 0, {}, values, options, correct, revision)


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


def misread(answer: str, shown: str) -> str:
    """The misconception that reads pattern ``shown`` in a head whose pattern is ``answer``: rows and columns swapped
    (previous ↔ next), the diagonal or a bright first column catching the eye, a band one below or one above the
    diagonal read for it."""
    if {answer, shown} == {"previous", "next"}:
        return "transposed"
    return {"self": "diagonal", "first": "first_column", "previous": "off_by_one_back", "next": "off_by_one_ahead"}[shown]


def pattern(rng: np.random.Generator, seed: int, revision: int = REVISION) -> Instance | None:
    """A head's 5 × 5 weights over a sentence's first five words: softmax(strength · pattern + noise), by the core.
    The answer is the pattern on whose keys the rows put the most weight (the core's ``closeness``), by a clear margin;
    each other pattern is a distractor labelled by ``misread``."""
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
    options = tuple(Option(p, misconception="" if p == PATTERNS[best] else misread(PATTERNS[best], p)) for p in PATTERNS)
    values = {"share": number(shares[best]), "second": number(shares[order[-2]])}
    return Instance("pattern", seed, sentence, {"second": int(order[-2])}, values, options, best, revision, matrix=weights)


DRAW = {"most_weight": most_weight, "row_sum": row_sum, "scale": scale, "causal": causal, "cosine": cosine, "pattern": pattern}


def draw(kind: str, seed: int, revision: int = REVISION) -> Instance:
    """The instance of ``kind`` for ``seed`` (a whole number 0 … 2³¹ − 1) and the distractors' ``revision``: the same on
    every call."""
    if kind not in DRAW:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**31:
        raise ValueError("seed must be a whole number from 0 to 2147483647")
    if revision not in REVISIONS:
        raise ValueError(f"revision must be one of {', '.join(map(str, REVISIONS))}, got {revision!r}")
    rng = np.random.default_rng([seed, KINDS.index(kind)])
    for _ in range(MAX_DRAWS):
        found = DRAW[kind](rng, seed, revision)
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
    """The instance a stored id names (``gen.<kind>.<seed>`` for revision 1, ``gen.<kind>.<seed>.<revision>``), or None."""
    parts = item.split(".")
    if len(parts) not in (3, 4) or parts[0] != "gen" or parts[1] not in DRAW:
        return None
    seed, revision = parts[2], parts[3] if len(parts) == 4 else "1"
    if not seed.isdigit() or len(seed) > 10 or int(seed) >= 2**31:
        return None
    if revision not in [str(r) for r in REVISIONS] or (len(parts) == 4 and revision == "1"):
        return None
    return draw(parts[1], int(seed), int(revision))


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
