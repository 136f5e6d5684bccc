"""Similar questions drawn by the core (classroom/generators.py): 1,000 instances of each kind, each answer checked by an
independent computation written here in plain Python (loops, math.exp), no distractor equal to the answer; instances
worked out by hand; the words in English and Chinese."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.embedding import tokenize
from attention_plot.text import Texts
from classroom import generators
from classroom.generators import KINDS, SENTENCE_TOKENS, draw, number, parse, similar_kind, wording

INSTANCES = 1000


def numbers_in(text: str) -> list[float]:
    """(2, −1, 3) -> [2.0, -1.0, 3.0]."""
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text.replace("−", "-"))]


def shown(x: float) -> str:
    """As the options show a number: two decimals, a true minus, no −0.00 (written again here, not imported)."""
    text = f"{x:.2f}"
    return ("0.00" if text == "-0.00" else text).replace("-", "−")


def plain_softmax(scores: list[float], allowed: list[bool] | None = None) -> list[float]:
    allowed = allowed or [True] * len(scores)
    top = max(s for s, ok in zip(scores, allowed) if ok)
    exps = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed)]
    total = sum(exps)
    return [e / total for e in exps]


def check_most_weight(instance) -> None:
    q, keys = instance.query, instance.vectors
    scores = []
    for k in keys:
        total = 0
        for a, b in zip(q, k):
            total += a * b
        scores.append(total)
    weights = plain_softmax([s / math.sqrt(2) for s in scores])
    best = max(range(len(keys)), key=lambda j: weights[j])
    assert sorted(scores)[-1] > sorted(scores)[-2]  # one largest score: no tie to break
    assert instance.options[instance.correct].positions == (best + 1,)
    assert instance.values["weight"] == shown(weights[best])
    assert len(instance.options) == SENTENCE_TOKENS[instance.sentence] == len(keys)


def check_row_sum(instance) -> None:
    scores = numbers_in(instance.values["scores"])
    change = generators.CHANGES[instance.words["change"]]
    amount, key = numbers_in(instance.values["amount"])[0], instance.words["key"]
    allowed = [True] * len(scores)
    if change == "add":
        new = [s + amount for s in scores]
    elif change == "times":
        new = [s * amount for s in scores]
    elif change == "set":
        new = [amount if j == key - 1 else s for j, s in enumerate(scores)]
    else:
        new, allowed[key - 1] = list(scores), False
    weights = plain_softmax(new, allowed)
    assert instance.options[instance.correct].number == shown(sum(weights)) == "1.00"
    assert instance.values["weight"] == shown(weights[key - 1])


def check_scale(instance) -> None:
    a, b, d_k = (float(instance.values[name].replace("−", "-")) for name in ("a", "b", "d_k"))
    weight = 1 / (1 + math.exp(-(a - b) / math.sqrt(d_k)))  # softmax of two scores is the logistic of their gap
    assert instance.options[instance.correct].number == shown(weight)
    assert instance.values["plain"] == shown(1 / (1 + math.exp(-(a - b))))
    assert instance.values["root"] == f"{math.sqrt(d_k):g}" and a > b > 0


def check_causal(instance) -> None:
    n, i = SENTENCE_TOKENS[instance.sentence], instance.words["word"]
    hidden = tuple(j for j in range(1, n + 1) if j > i)  # keys after the query's own position
    assert 2 <= i < n and instance.options[instance.correct].positions == hidden and hidden


def check_cosine(instance) -> None:
    q, k = numbers_in(instance.values["q"]), numbers_in(instance.values["k"])
    dot = sum(a * b for a, b in zip(q, k))
    cos = dot / (math.sqrt(sum(a * a for a in q)) * math.sqrt(sum(b * b for b in k)))
    assert instance.options[instance.correct].number == shown(cos)
    assert -1 - 1e-12 <= cos <= 1 + 1e-12


def check_pattern(instance) -> None:
    matrix = instance.matrix
    n = len(matrix)
    targets = {"previous": lambda i: i - 1, "self": lambda i: i, "first": lambda i: 0, "next": lambda i: i + 1}
    shares = {}
    for name, target in targets.items():
        rows = [i for i in range(n) if 0 <= target(i) < n]
        shares[name] = sum(matrix[i][target(i)] for i in rows) / len(rows)
    ranked = sorted(shares, key=shares.get)
    assert generators.PATTERNS[instance.correct] == ranked[-1]
    assert shares[ranked[-1]] - shares[ranked[-2]] >= generators.PATTERN_MARGIN - 1e-9
    for row in matrix:  # the numbers shown are a softmax row rounded to 2 decimals
        assert abs(sum(row) - 1) <= n * 0.005 + 1e-9 and all(0 <= x <= 1 for x in row)


CHECKS = {"most_weight": check_most_weight, "row_sum": check_row_sum, "scale": check_scale, "causal": check_causal,
          "cosine": check_cosine, "pattern": check_pattern}


@pytest.mark.parametrize("kind", KINDS)
def test_a_thousand_instances_of_each_kind_are_right_by_an_independent_computation(kind):
    answers = set()
    for seed in range(INSTANCES):
        instance = draw(kind, seed)
        CHECKS[kind](instance)
        correct = instance.options[instance.correct]
        assert all(option != correct for n, option in enumerate(instance.options) if n != instance.correct), (kind, seed)
        assert len(set(instance.options)) == len(instance.options) >= 3
        assert instance == draw(kind, seed) and parse(instance.item) == instance  # the same on every call and replica
        answers.add(instance.correct)
    assert len(answers) >= 3  # the right answer is not always at the same place


def test_instances_worked_out_by_hand():
    # most_weight, seed 0: "the train leaves at eight", q = (0, 3); keys (−2, 2), (1, −3), (−1, 3), (0, −3), (2, 2):
    # q · k = 6, −9, 9, −9, 6, so "leaves" (3) gets the most: e^(9/√2) / (2 e^(6/√2) + e^(9/√2) + 2 e^(−9/√2)) = 0.81
    instance = draw("most_weight", 0)
    assert instance.query == (0, 3) and instance.vectors[2] == (-1, 3)
    assert instance.options[instance.correct].positions == (3,) and instance.values["weight"] == "0.81"
    e = math.exp
    assert f"{e(9 / 2**0.5) / (2 * e(6 / 2**0.5) + e(9 / 2**0.5) + 2 * e(-9 / 2**0.5)):.2f}" == "0.81"
    # scale, seed 1: scores 4 and 2, d_k = 4: (4 − 2) / 2 = 1, the weight 1 / (1 + e^−1) = 0.73
    instance = draw("scale", 1)
    assert (instance.values["a"], instance.values["b"], instance.values["d_k"]) == ("4", "2", "4")
    assert instance.options[instance.correct].number == "0.73"
    # cosine, seed 0: q = (3, 0), k = (−2, 3): −6 / (3 × √13) = −0.55
    instance = draw("cosine", 0)
    assert (instance.values["q"], instance.values["k"]) == ("(3, 0)", "(−2, 3)")
    assert instance.options[instance.correct].number == "−0.55"


def test_the_sentences_have_as_many_tokens_in_every_language():
    for lang in ("en", "zh"):
        sentences = Texts(lang).get(generators.SENTENCES)
        assert [len(tokenize(s)) for s in sentences] == list(SENTENCE_TOKENS), lang


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(KINDS), st.integers(0, 2**31 - 1), st.sampled_from(["en", "zh"]))
def test_every_instance_reads_in_both_languages_and_its_options_are_distinct(kind, seed, lang):
    instance = draw(kind, seed)
    words = wording(Texts(lang), instance)
    assert words.question and words.explanation and "{" not in words.question + words.explanation
    assert len(set(words.options)) == len(words.options) == len(instance.options)
    if lang == "zh":
        assert not re.search(r"[A-Za-z]{4,}", words.question.replace("softmax", "")), words.question
    if instance.kind == "pattern":
        header, rows = words.table
        assert len(header) == 6 and len(rows) == 5


def test_numbers_show_a_true_minus_and_no_negative_zero():
    assert number(-0.001) == "0.00" and number(-1.5) == "−1.50" and number(0.126) == "0.13" and number(3) == "3.00"


def test_which_questions_have_one_more_like_them():
    assert similar_kind("walk.random-1.3") == "most_weight" and similar_kind("concept.cosine") == "cosine"
    assert similar_kind("gen.pattern.17") == "pattern" and similar_kind("lesson.real") == "pattern"
    assert similar_kind("concept.explain") is None and similar_kind("gen.nothing.1") is None
    assert parse("gen.cosine.x") is None and parse("gen.cosine.99999999999") is None and parse("concept.rows") is None
    with pytest.raises(ValueError, match="kind must be one of"):
        draw("nothing", 1)
    with pytest.raises(ValueError, match="seed"):
        draw("cosine", -1)
