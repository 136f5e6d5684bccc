"""Similar questions drawn by the core (classroom/generators.py): 1,000 instances of each kind, each answer and each
distractor checked by an independent computation written here in plain Python (loops, math.exp): the answer right, every
distractor the value its named misconception gives, every number inside the answer's possible range and two hundredths
or more from every other option; instances worked out by hand; revision 1 (before #45) drawn as it was; the words in
English and Chinese."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.embedding import tokenize
from attention_plot.text import Texts, catalogue
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
    assert len(keys) == SENTENCE_TOKENS[instance.sentence]
    if instance.revision == 1:
        assert len(instance.options) == len(keys)  # every key
        return
    # The keys each misconception picks, in order (ties: the first), and the first three that are not the answer
    focus = instance.words["word"] - 1
    lengths = [sum(x * x for x in k) for k in keys]
    picks = [("own_word", focus), ("longest_key", lengths.index(max(lengths)))]
    if min(scores) < 0:
        picks.append(("largest_size", scores.index(min(scores))))
    pointing = [j for j in range(len(keys)) if lengths[j] > 0]
    picks.append(("closest_direction", max(pointing, key=lambda j: (scores[j] / math.sqrt(lengths[j]), -j))))
    picks.append(("neighbour", focus + 1 if focus + 1 < len(keys) else focus - 1))
    expected, seen = [], {best}
    for name, j in picks:
        if j not in seen:
            seen.add(j)
            expected.append((name, (j + 1,)))
    assert sorted((o.misconception, o.positions) for o in instance.distractors) == sorted(expected[:3])


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
    counted = [s for s, ok in zip(new, allowed) if ok]
    exps = 0.0
    for s in counted:
        exps += math.exp(s)
    misconceptions = {"scores_sum": sum(counted), "key_count": len(counted), "exp_sum": exps,  # revision 1
                      "not_renormalised": 1 - plain_softmax(scores)[key - 1], "largest_weight": max(weights),
                      "changed_weight": weights[key - 1], "equal_share": 1 / len(counted)}
    check_distractors(instance, misconceptions)


def check_scale(instance) -> None:
    a, b, d_k = (float(instance.values[name].replace("−", "-")) for name in ("a", "b", "d_k"))
    weight = 1 / (1 + math.exp(-(a - b) / math.sqrt(d_k)))  # softmax of two scores is the logistic of their gap
    assert instance.options[instance.correct].number == shown(weight)
    assert instance.values["plain"] == shown(1 / (1 + math.exp(-(a - b))))
    assert instance.values["root"] == f"{math.sqrt(d_k):g}" and a > b > 0
    check_distractors(instance, {"unscaled": 1 / (1 + math.exp(-(a - b))), "by_d_k": 1 / (1 + math.exp(-(a - b) / d_k)),
                                 "score_ratio": a / (a + b), "other_key": 1 - weight, "equal": 0.5})


def check_causal(instance) -> None:
    n, i = SENTENCE_TOKENS[instance.sentence], instance.words["word"]
    hidden = tuple(j for j in range(1, n + 1) if j > i)  # keys after the query's own position
    assert 2 <= i < n and instance.options[instance.correct].positions == hidden and hidden
    picked = {"reversed": ("keys", tuple(range(1, i))), "hides_itself": ("keys", (i,)), "no_mask": ("none", ())}
    assert sorted((o.misconception, (o.key, o.positions)) for o in instance.distractors) == sorted(picked.items())


def check_cosine(instance) -> None:
    q, k = numbers_in(instance.values["q"]), numbers_in(instance.values["k"])
    dot = sum(a * b for a, b in zip(q, k))
    length_q, length_k = math.sqrt(sum(a * a for a in q)), math.sqrt(sum(b * b for b in k))
    cos = dot / (length_q * length_k)
    assert instance.options[instance.correct].number == shown(cos)
    assert -1 - 1e-12 <= cos <= 1 + 1e-12
    check_distractors(instance, {"one_length": dot / length_q, "squared_lengths": dot / (length_q ** 2 * length_k ** 2),
                                 "dot_product": dot, "opposite": -cos, "city_block": dot / (sum(map(abs, q)) * sum(map(abs, k))),
                                 "distance": 1 - cos})


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
    answer = ranked[-1]
    misread = {("previous", "next"): "transposed", ("next", "previous"): "transposed"}
    for option in instance.distractors:
        name = misread.get((answer, option.key)) or {"self": "diagonal", "first": "first_column", "previous": "off_by_one_back",
                                                      "next": "off_by_one_ahead"}[option.key]
        assert option.misconception == name


RANGES = {"row_sum": (0.0, 1.0), "scale": (0.0, 1.0), "cosine": (-1.0, 1.0)}  # every value the answer could take


def hundredths(text: str) -> int:
    return round(float(text.replace("−", "-")) * 100)


def check_distractors(instance, misconceptions: dict[str, float]) -> None:
    """Each distractor shows what its misconception gives (computed above); from revision 2 every option lies inside
    the answer's range and two show at least 2 hundredths apart (never 1.00 beside 1.01)."""
    for option in instance.distractors:
        assert option.number == shown(misconceptions[option.misconception]), (option, misconceptions)
    if instance.revision == 1:
        return
    low, high = RANGES[instance.kind]
    values = [hundredths(option.number) for option in instance.options]
    assert all(100 * low <= v <= 100 * high for v in values), values
    assert all(abs(a - b) >= 2 for n, a in enumerate(values) for b in values[n + 1:]), values


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
        assert correct.misconception == "" and all(o.misconception for o in instance.distractors)  # each one named
        assert len({o.misconception for o in instance.distractors}) == len(instance.distractors)
        assert instance == draw(kind, seed) and parse(instance.item) == instance  # the same on every call and replica
        answers.add(instance.correct)
    assert len(answers) >= 3  # the right answer is not always at the same place


@pytest.mark.parametrize("kind", KINDS)
def test_revision_1_is_drawn_as_before_and_still_right(kind):
    """A class kept from before #45 stored ``gen.<kind>.<seed>``: it parses to the options its students saw."""
    for seed in range(200):
        instance = parse(f"gen.{kind}.{seed}")
        assert instance.revision == 1 and instance.item == f"gen.{kind}.{seed}" and instance == draw(kind, seed, 1)
        CHECKS[kind](instance)
    assert draw(kind, 0).item == f"gen.{kind}.0.2"


def test_revision_1_worked_out_by_hand():
    # The options stored before #45 for seed 0 (cosine: the dot product −6 and q · k / ‖q‖ = −2, outside [−1, 1])
    assert [o.number for o in draw("cosine", 0, 1).options] == ["−0.55", "−6.00", "−2.00", "0.55"]
    assert [o.number for o in draw("row_sum", 0, 1).options] == ["808.86", "12.00", "4.00", "1.00"]
    assert [o.positions for o in draw("most_weight", 0, 1).options] == [(1,), (2,), (3,), (4,), (5,)]


def test_every_misconception_is_worded_in_both_languages():
    names = {o.misconception for kind in KINDS for seed in range(200) for revision in (1, 2)
             for o in draw(kind, seed, revision).distractors} - {""}
    for lang in ("en", "zh"):
        assert {f"history.misconceptions.{name}" for name in names} <= set(catalogue(lang)), lang


def test_instances_worked_out_by_hand():
    # most_weight, seed 0, revision 1: "the train leaves at eight", q = (0, 3); keys (−2, 2), (1, −3), (−1, 3), (0, −3),
    # (2, 2): q · k = 6, −9, 9, −9, 6, so "leaves" (3) gets the most: e^(9/√2) / (2 e^(6/√2) + e^(9/√2) + 2 e^(−9/√2)) = 0.81
    instance = draw("most_weight", 0, 1)
    assert instance.query == (0, 3) and instance.vectors[2] == (-1, 3)
    assert instance.options[instance.correct].positions == (3,) and instance.values["weight"] == "0.81"
    e = math.exp
    assert f"{e(9 / 2**0.5) / (2 * e(6 / 2**0.5) + e(9 / 2**0.5) + 2 * e(-9 / 2**0.5)):.2f}" == "0.81"
    # Revision 2 draws that one again (its longest key, (1, −3), is also its most negative score: two misconceptions
    # name one key) and takes the next: "rain falls on the quiet town", word 2, q = (−3, 3); keys (−3, 0), (−3, −1),
    # (0, −1), (−1, −3), (−3, −3), (−3, 1): q · k = 9, 6, −3, −6, 0, 12. "town" (6) gets the most,
    # e^(12/√2) / Σ e^(s/√2) = 0.88; "falls" is the word's own key, "quiet" the longest (‖k‖² = 18), "the" the most
    # negative score (−6).
    instance = draw("most_weight", 0)
    assert instance.query == (-3, 3) and instance.words == {"word": 2, "best": 6} and instance.values["weight"] == "0.88"
    assert f"{e(12 / 2**0.5) / sum(e(s / 2**0.5) for s in (9, 6, -3, -6, 0, 12)):.2f}" == "0.88"
    assert {(o.positions, o.misconception) for o in instance.options} == {
        ((6,), ""), ((2,), "own_word"), ((5,), "longest_key"), ((4,), "largest_size")}
    # scale, seed 1: scores 4 and 2, d_k = 4: (4 − 2) / 2 = 1, the weight 1 / (1 + e^−1) = 0.73; forgot to scale:
    # 1 / (1 + e^−2) = 0.88; ÷ d_k: 1 / (1 + e^−0.5) = 0.62; the scores' ratio 4 / 6 = 0.67
    instance = draw("scale", 1)
    assert (instance.values["a"], instance.values["b"], instance.values["d_k"]) == ("4", "2", "4")
    assert instance.options[instance.correct].number == "0.73"
    assert {(o.number, o.misconception) for o in instance.distractors} == {("0.88", "unscaled"), ("0.62", "by_d_k"), ("0.67", "score_ratio")}
    # cosine, seed 0: q = (3, 0), k = (−2, 3): −6 / (3 × √13) = −0.55; −6 / (9 × 13) = −0.05 (no square roots);
    # −6 / (3 × 5) = −0.40 (lengths as sums of sizes); 0.55 (the sign turned). The dot product −6, q · k / ‖q‖ = −2 and
    # 1 − cos = 1.55 lie outside [−1, 1] and are skipped.
    instance = draw("cosine", 0)
    assert (instance.values["q"], instance.values["k"]) == ("(3, 0)", "(−2, 3)")
    assert instance.options[instance.correct].number == "−0.55"
    assert {(o.number, o.misconception) for o in instance.distractors} == {
        ("−0.05", "squared_lengths"), ("−0.40", "city_block"), ("0.55", "opposite")}
    # row_sum, seed 0: scores (0, 3, 3, 0) times 2 = (0, 6, 6, 0): the sum is 1.00; the largest weight
    # e^6 / (2 + 2 e^6) = 0.50, key 4's own weight 1 / (2 + 2 e^6) = 0.00, one key's equal share 1 / 4 = 0.25
    instance = draw("row_sum", 0)
    assert instance.values["new"] == "(0, 6, 6, 0)" and instance.options[instance.correct].number == "1.00"
    assert {(o.number, o.misconception) for o in instance.distractors} == {
        ("0.50", "largest_weight"), ("0.00", "changed_weight"), ("0.25", "equal_share")}


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
    assert parse("gen.cosine.5.1") is None and parse("gen.cosine.5.3") is None and parse("gen.cosine.5.2.2") is None
    assert parse("gen.cosine.5").revision == 1 and parse("gen.cosine.5.2").revision == 2
    with pytest.raises(ValueError, match="kind must be one of"):
        draw("nothing", 1)
    with pytest.raises(ValueError, match="seed"):
        draw("cosine", -1)
    with pytest.raises(ValueError, match="revision must be one of 1, 2"):
        draw("cosine", 1, 3)
