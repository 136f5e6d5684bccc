"""A head over a corpus (attention_core.corpus): every score on a tiny attention worked out by hand, against a plain loop
written here on random attentions (hypothesis), its invariants, the page's one-sentence summary's numbers, the verdicts
and their agreement, a pasted corpus's splitting and limits, and the shipped scores against a fresh computation."""

import math
import shutil

import numpy as np
import pytest
from conftest import REAL_SENTENCE, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import corpus
from attention_core.inside import is_punctuation
from attention_core.pretrained import head_summary

# [CLS] the the . [SEP]: "the" twice (a repeated word), one punctuation mark.
TOKENS = ("[CLS]", "the", "the", ".", "[SEP]")
WORDS, PIECES = ("the", "the", "."), ([1], [2], [3])
WEIGHTS = np.array([
    [1.00, 0.00, 0.00, 0.00, 0.00],  # [CLS]: all on itself
    [0.50, 0.00, 0.50, 0.00, 0.00],  # the (1): half on [CLS], half on the other "the"
    [0.20, 0.60, 0.00, 0.20, 0.00],  # the (2)
    [0.00, 0.00, 0.50, 0.00, 0.50],  # .
    [0.25, 0.25, 0.25, 0.25, 0.00],  # [SEP]: even over the four before it
])
BY_HAND = {
    "previous": (0.50 + 0.60 + 0.50 + 0.25) / 4,  # α[1,0], α[2,1], α[3,2], α[4,3]
    "next": (0.00 + 0.50 + 0.20 + 0.50) / 4,  # α[0,1], α[1,2], α[2,3], α[3,4]
    "same_word": (0.50 + 0.60) / 2,  # the queries "the" (1) and (2), each on the other
    "self": 1.00 / 5,
    "cls": (1.00 + 0.50 + 0.20 + 0.00 + 0.25) / 5,
    "sep": 0.50 / 5,
    "punctuation": (0.20 + 0.25) / 5,
    # rows: 0 bits; 1 bit; −(2 · 0.2 log₂ 0.2 + 0.6 log₂ 0.6) = 1.370951 bits; 1 bit; 2 bits
    "entropy": (0 + 1 + 1.3709505944546687 + 1 + 2) / 5,
    "evenness": (0 + 1 + 1.3709505944546687 + 1 + 2) / 5 / math.log2(5),
    "offset": (0 + 1 + 1 + 1 + 4) / 5,  # argmax 0, 0 (a tie: the first), 1, 2 (a tie), 0
}


def test_every_score_on_a_tiny_attention_worked_out_by_hand():
    mask = corpus.same_word_mask(5, WORDS, PIECES)
    assert np.argwhere(mask).tolist() == [[1, 2], [2, 1]]  # "." and the specials are no words
    found = corpus.sentence_scores(WEIGHTS, TOKENS, mask)
    assert tuple(found) == corpus.SCORES
    for name, value in BY_HAND.items():
        assert found[name] == pytest.approx(value, abs=1e-12), name
    assert BY_HAND["entropy"] == pytest.approx(1.074190118890934)  # the mean written out once


def test_the_cells_each_score_adds_up():
    """Summing the weights in a score's cells, per query, and averaging as the score does gives the score back."""
    mask = corpus.same_word_mask(5, WORDS, PIECES)
    cells = {name: corpus.score_cells(name, WEIGHTS, TOKENS, mask) for name in corpus.SCORES}
    assert np.argwhere(cells["previous"]).tolist() == [[1, 0], [2, 1], [3, 2], [4, 3]]
    assert np.argwhere(cells["offset"]).tolist() == [[0, 0], [1, 0], [2, 1], [3, 2], [4, 0]]
    assert cells["punctuation"][:, 3].all() and cells["punctuation"].sum() == 5 and not cells["entropy"].any()
    for name in ("self", "cls", "sep", "punctuation"):
        assert (WEIGHTS * cells[name]).sum() / 5 == pytest.approx(BY_HAND[name]), name
    assert (WEIGHTS * cells["next"]).sum() / 4 == pytest.approx(BY_HAND["next"])
    assert (cells["same_word"] == mask).all()


def test_a_sentence_without_a_repeated_word_or_punctuation_has_no_such_score():
    tokens = ("[CLS]", "cats", "purr", "[SEP]")
    weights = np.full((2, 3, 4, 4), 0.25)  # (L, H, n, n)
    found = corpus.sentence_scores(weights, tokens, corpus.same_word_mask(4, ("cats", "purr"), ([1], [2])))
    assert np.isnan(found["same_word"]).all() and np.isnan(found["punctuation"]).all() and found["previous"].shape == (2, 3)
    np.testing.assert_allclose(found["evenness"], 1.0)
    with pytest.raises(ValueError, match="n = 4 tokens"):
        corpus.sentence_scores(weights[..., :3], tokens, np.zeros((4, 4), bool))


def test_same_word_is_the_whole_word_not_the_word_piece(model):
    """"tokenization" (token ##ization) and "tokenizer" (token ##izer) share the piece "token" but are different words;
    the two "tokenization"s are the same word, piece by piece; "didn't" is one word (inside.word_groups)."""
    _, tokens, _, mask = corpus.sentence_units(model, "Tokenization, tokenizer and tokenization. She didn't; he didn't.")
    assert tokens[1:8] == ("token", "##ization", ",", "token", "##izer", "and", "token")
    first, second = [1, 2], [7, 8]  # the two "tokenization"s
    assert mask[np.ix_(first, second)].all() and mask[np.ix_(second, first)].all() and not mask[np.ix_(first, first)].any()
    assert not mask[1, 4] and not mask[4].any()  # "tokenizer" occurs once: no same word, although its piece "token" recurs
    didn = [i for i, t in enumerate(tokens) if t == "didn"]
    assert mask[didn[0], didn[1]:didn[1] + 3].all() and mask[didn[0]].sum() == 3  # every piece of the other "didn't"
    assert not mask[3].any() and not mask[0].any() and not mask[-1].any()  # a comma, [CLS], [SEP]


def reference_scores(weights: np.ndarray, tokens: tuple[str, ...], words: list[str | None]) -> dict[str, float]:
    """One head's scores by plain loops: ``words[i]`` names the word occurrence of piece i as "word#occurrence" (None
    for [CLS], [SEP] and punctuation)."""
    n = len(tokens)
    found = {}
    found["previous"] = sum(weights[i][i - 1] for i in range(1, n)) / (n - 1) if n > 1 else math.nan
    found["next"] = sum(weights[i][i + 1] for i in range(n - 1)) / (n - 1) if n > 1 else math.nan
    same = []
    for i in range(n):
        if words[i] is None:
            continue
        name, occurrence = words[i].split("#")
        others = [j for j in range(n) if words[j] is not None and words[j].split("#")[0] == name and words[j].split("#")[1] != occurrence]
        if others:
            same.append(sum(weights[i][j] for j in others))
    found["same_word"] = sum(same) / len(same) if same else math.nan
    found["self"] = sum(weights[i][i] for i in range(n)) / n
    for name, test in (("cls", lambda t: t == "[CLS]"), ("sep", lambda t: t == "[SEP]")):
        found[name] = sum(weights[i][j] for i in range(n) for j in range(n) if test(tokens[j])) / n
    marks = [j for j in range(n) if is_punctuation(tokens[j])]
    found["punctuation"] = sum(weights[i][j] for i in range(n) for j in marks) / n if marks else math.nan
    entropies = [-sum(p * math.log2(p) for p in weights[i] if p > 0) for i in range(n)]
    found["entropy"] = sum(entropies) / n
    found["evenness"] = found["entropy"] / math.log2(n) if n > 1 else math.nan
    found["offset"] = sum(abs(max(range(n), key=lambda j: (weights[i][j], -j)) - i) for i in range(n)) / n
    return found


VOCABULARY = ("the", "cat", "run", "##ning", ",", ".", "!")


@st.composite
def sentences(draw):
    """A random sentence of word pieces between [CLS] and [SEP] (a "##" piece continues the word before it), and a
    random attention (n, n) whose rows sum to 1, some of its weights exactly 0."""
    middle = draw(st.lists(st.sampled_from(VOCABULARY), min_size=0, max_size=7))
    if middle and middle[0].startswith("##"):
        middle[0] = "cat"
    tokens = ("[CLS]", *middle, "[SEP]")
    n = len(tokens)
    raw = np.array(draw(st.lists(st.lists(st.floats(0, 4), min_size=n, max_size=n), min_size=n, max_size=n)))
    raw[raw < 0.5] = 0.0
    raw[np.arange(n), draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))] += 1.0  # never an empty row
    return tokens, raw / raw.sum(axis=1, keepdims=True)


def words_of(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], list[list[int]]]:
    """Words as inside.word_groups gives them: pieces joined by ##, [CLS] and [SEP] in none."""
    words, pieces = [], []
    for i, token in enumerate(tokens):
        if token in ("[CLS]", "[SEP]"):
            continue
        if token.startswith("##") and pieces and pieces[-1][-1] == i - 1:
            words[-1] += token[2:]
            pieces[-1].append(i)
        else:
            words.append(token)
            pieces.append([i])
    return tuple(words), pieces


@settings(max_examples=150, deadline=None)
@given(sentences())
def test_every_score_against_a_plain_loop(drawn):
    tokens, weights = drawn
    words, pieces = words_of(tokens)
    named: list[str | None] = [None] * len(tokens)
    for occurrence, (word, positions) in enumerate(zip(words, pieces)):
        for p in positions:
            named[p] = None if is_punctuation(word) else f"{word}#{occurrence}"
    found = corpus.sentence_scores(weights, tokens, corpus.same_word_mask(len(tokens), words, pieces))
    for name, expected in reference_scores(weights, tokens, named).items():
        assert (np.isnan(found[name]) and math.isnan(expected)) or found[name] == pytest.approx(expected, abs=1e-12), name


@settings(max_examples=100, deadline=None)
@given(sentences())
def test_invariants(drawn):
    """Shares in [0, 1]; 0 ≤ entropy ≤ log₂ n; offset ≤ n − 1; the same numbers for a head alone or among others."""
    tokens, weights = drawn
    n = len(tokens)
    words, pieces = words_of(tokens)
    mask = corpus.same_word_mask(n, words, pieces)
    found = corpus.sentence_scores(weights, tokens, mask)
    for name in corpus.SHARE_SCORES:
        assert np.isnan(found[name]) or -1e-12 <= found[name] <= 1 + 1e-12, name
    assert -1e-12 <= found["entropy"] <= math.log2(n) + 1e-9 and 0 <= found["offset"] <= n - 1
    stacked = corpus.sentence_scores(np.stack([weights, np.eye(n), np.full((n, n), 1 / n)]), tokens, mask)  # (3,) heads
    for name in corpus.SCORES:
        np.testing.assert_allclose(stacked[name][0], found[name], equal_nan=True)
    assert stacked["self"][1] == 1 and stacked["offset"][1] == 0 and stacked["entropy"][1] == 0  # each query on itself
    assert stacked["previous"][2] == pytest.approx(1 / n) and stacked["evenness"][2] == pytest.approx(1.0)  # even rows


def test_the_five_shares_are_the_one_sentence_summarys_numbers(model, trace):
    found = corpus.corpus_scores(model, [REAL_SENTENCE, "The cat sat on the mat."])
    for name in corpus.VERDICT_SHARES:
        np.testing.assert_allclose(found.score(name)[0], head_summary(trace)[name], atol=1e-12)
        np.testing.assert_allclose(found.score(name)[1], head_summary(model.run("The cat sat on the mat."))[name], atol=1e-12)


def test_a_corpus_run_in_batches_is_each_sentence_run_alone(model):
    """Sentences of one length share a forward pass; the progress reaches S of S."""
    sentences = ["The cat sat on the mat.", "A dog ran in the park.", "Rain fell.", "The cat sat on the mat."]
    called = []
    found = corpus.corpus_scores(model, sentences, progress=lambda done, total: called.append((done, total)))
    assert called[-1] == (4, 4) and found.values.shape == (4, len(corpus.SCORES), 6, 12) and found.lengths.tolist() == [9, 9, 5, 9]
    np.testing.assert_allclose(found.values[0], found.values[3], atol=1e-12)
    for index, sentence in enumerate(sentences[:3]):
        trace = model.run(sentence)
        *_, mask = corpus.sentence_units(model, sentence)
        alone = corpus.sentence_scores(trace.attentions, trace.tokens, mask)
        for k, name in enumerate(corpus.SCORES):
            np.testing.assert_allclose(found.values[index, k], alone[name], atol=1e-12, equal_nan=True)
    with pytest.raises(ValueError):
        corpus.corpus_scores(model, [])
    assert corpus.corpus_scores(model, ["I ❤ 😀 tea"]).unknown.tolist() == [2]


def test_a_sentence_cut_to_fewer_pieces_keeps_its_words_before_the_cut(model):
    """Cut to 6 pieces as the model cuts to 128: [CLS], the first four, [SEP]; a word's pieces beyond the cut are gone."""
    sentence = "the cat and the cat and the dog"
    ids, tokens, dropped, mask = corpus.sentence_units(model, sentence, most=6)
    assert tokens == ("[CLS]", "the", "cat", "and", "the", "[SEP]") and dropped == 4 and len(ids) == 6
    assert np.argwhere(mask).tolist() == [[1, 4], [4, 1]]
    whole = corpus.corpus_scores(model, [sentence])
    cut = corpus.corpus_scores(model, [sentence], most=6)
    assert cut.lengths.tolist() == [6] and cut.dropped.tolist() == [4] and whole.dropped.tolist() == [0]
    trace = model.forward(np.array([ids]))[2][:, 0]
    alone = corpus.sentence_scores(trace, tokens, mask)
    np.testing.assert_allclose(cut.values[0, corpus.SCORES.index("same_word")], alone["same_word"], atol=1e-12)


def test_verdicts_by_hand():
    shares = np.array([[0.6, 0.2, 0.5, 0.3],  # previous
                       [0.1, 0.2, 0.5, 0.3],  # next
                       [0.1, 0.9, 0.1, 0.3],  # self
                       [0.7, 0.2, 0.1, 0.3],  # cls
                       [0.0, 0.0, 0.0, 0.3]])  # sep
    # the largest above one half; the largest wins over another above one half; exactly one half names nothing
    assert corpus.verdicts(shares).tolist() == [3, 2, -1, -1]
    assert corpus.verdicts(shares, threshold=0.2).tolist() == [3, 2, 0, 0]  # a tie: the first
    with pytest.raises(ValueError, match="previous, next, self, cls, sep"):
        corpus.verdicts(shares[:4])


def made_up_corpus(values: np.ndarray) -> corpus.CorpusScores:
    """S sentences of one layer of H heads: values (S, K, 1, H)."""
    count = len(values)
    return corpus.CorpusScores(sentences=tuple(f"s{i}" for i in range(count)), values=values, lengths=np.full(count, 5),
                               unknown=np.zeros(count, int), dropped=np.zeros(count, int))


def test_agreement_by_hand():
    """Head 1: previous 0.9, 0.8, 0.1 (mean 0.6: a previous-token head over the corpus; two sentences of three agree).
    Head 2: cls 0.6, 0.2, 0.2 (mean 0.33: no verdict; the first sentence names [CLS], the others nothing)."""
    values = np.zeros((3, len(corpus.SCORES), 1, 2))
    values[:, corpus.SCORES.index("previous"), 0, 0] = [0.9, 0.8, 0.1]
    values[:, corpus.SCORES.index("cls"), 0, 1] = [0.6, 0.2, 0.2]
    values[2, corpus.SCORES.index("same_word")] = np.nan
    scores = made_up_corpus(values)
    found = corpus.agreement(scores)
    assert found.corpus.tolist() == [[0, -1]] and found.per_sentence[:, 0].tolist() == [[0, 3], [0, -1], [-1, -1]]
    assert found.per_head.tolist() == [[pytest.approx(2 / 3), pytest.approx(2 / 3)]]
    assert found.rate == pytest.approx(4 / 6) and found.named_rate == pytest.approx(2 / 3)  # named: (s0, h1), (s1, h1), (s0, h2)
    assert (found.named_heads, found.corpus_named_heads) == (2, 1)  # one sentence names both heads; the corpus only the first
    assert scores.mean("same_word")[0, 0] == 0 and scores.counted("same_word") == 2 and scores.mean("previous")[0, 0] == pytest.approx(0.6)
    with pytest.raises(ValueError, match="score must be one of"):
        scores.score("nonsense")


def test_cohens_kappa_by_hand():
    """Ten items, labels A (0) and B (1). The confusion table (rows: first, columns: second): A A 5, A B 1, B A 1, B B 3.
    p_o = 8/10; p_first(A) = p_second(A) = 0.6, so p_e = 0.6² + 0.4² = 0.52; κ = (0.8 − 0.52) / 0.48 = 7/12."""
    first = np.array([0] * 6 + [1] * 4)
    second = np.array([0] * 5 + [1] + [0] + [1] * 3)
    assert corpus.cohen_kappa(first, second) == pytest.approx(7 / 12)
    assert corpus.cohen_kappa(first, 1 - first) == pytest.approx((0 - 0.48) / (1 - 0.48))  # always unlike: below 0
    assert corpus.cohen_kappa(np.zeros(4), np.zeros(4)) == 1.0 and math.isnan(corpus.cohen_kappa(np.zeros(0), np.zeros(0)))
    with pytest.raises(ValueError, match="same items"):
        corpus.cohen_kappa(first, second[:3])


def test_verdict_agreement_beside_always_none_and_kappa_by_hand():
    """Four sentences, two heads. Corpus verdicts: head 1 none, head 2 previous (0). One-sentence verdicts: head 1
    none, none, self (2), none; head 2 previous, previous, none, next (1). Confusion table (rows: one sentence, columns:
    corpus): none-none 3, self-none 1, previous-previous 2, none-previous 1, next-previous 1.
    Agreement 5/8; always "none": 4/8; both none 3/8; where the corpus names a pattern (head 2): 2/4; where one sentence
    does: 2/4. p_e = p1(none) p2(none) + p1(previous) p2(previous) = (4/8)(4/8) + (2/8)(4/8) = 3/8: κ = (5/8 − 3/8) / (5/8) = 0.4."""
    per_sentence = np.array([[-1, 0], [-1, 0], [2, -1], [-1, 1]])[:, None, :]  # (S, L, H) = (4, 1, 2)
    found = corpus.verdict_agreement(per_sentence, np.array([[-1, 0]]))
    assert (found.rate, found.baseline, found.both_none) == (5 / 8, 4 / 8, 3 / 8)
    assert (found.corpus_named_rate, found.named_rate) == (2 / 4, 2 / 4) and found.kappa == pytest.approx(0.4)
    assert found.per_head.tolist() == [[3 / 4, 2 / 4]] and (found.named_heads, found.corpus_named_heads) == (2, 1)
    with pytest.raises(ValueError, match=r"\(S, L, H\)"):
        corpus.verdict_agreement(per_sentence, np.array([[-1, 0, 0]]))


labelings = st.integers(1, 40).flatmap(lambda n: st.tuples(st.lists(st.integers(-1, 4), min_size=n, max_size=n),
                                                           st.lists(st.integers(-1, 4), min_size=n, max_size=n)))


@settings(max_examples=80, deadline=None)
@given(labelings)
def test_kappa_invariants(pair):
    """κ of a labeling with itself is 1; κ is symmetric, at most 1; against a labeling that gives one label to every item
    it is 0 (agreeing no more than chance) unless both give that one label; relabelling both alike changes nothing."""
    first, second = (np.array(labels) for labels in pair)
    kappa = corpus.cohen_kappa(first, second)
    assert corpus.cohen_kappa(first, first) == 1.0
    assert kappa == pytest.approx(corpus.cohen_kappa(second, first)) and kappa <= 1 + 1e-12
    constant = np.full_like(first, second[0])
    assert corpus.cohen_kappa(first, constant) == (1.0 if (first == second[0]).all() else pytest.approx(0.0, abs=1e-12))
    assert corpus.cohen_kappa(first * 7 + 3, second * 7 + 3) == pytest.approx(kappa)
    observed = (first == second).mean()
    assert (kappa == 1.0) == (observed == 1.0)


def test_length_bins_top_by_length_and_deciles_by_hand():
    lengths = np.array([4, 12, 5, 20, 12, 30, 9, 14, 16])
    bins = corpus.length_bins(lengths, 3)  # quantiles 1/3 and 2/3 of the lengths: 11 and 15.33
    assert bins.tolist() == [0, 1, 0, 2, 1, 2, 0, 1, 2]
    assert corpus.length_bins(np.array([7, 7, 7, 8]), 3).tolist() == [0, 0, 0, 1]  # ties share a bin, numbered without gaps
    values = np.array([0.9, 0.5, 0.8, 0.3, 0.6, np.nan, 0.7, 0.6, 0.2])
    assert corpus.top_by_length(values, bins).tolist() == [0, 4, 3]  # 0.9 of (4, 5, 9); 0.6 of (12, 12, 14): the earlier; 0.3
    assert corpus.top_by_length(np.array([np.nan, 1.0]), np.array([0, 1])).tolist() == [1]
    assert corpus.decile_samples(np.arange(20.0)[::-1]).tolist() == [19 - r for r in (1, 3, 5, 7, 9, 11, 13, 15, 17, 19)]
    assert corpus.decile_samples(values, 3).tolist() == [3, 7, 2]  # 8 finite, ranks 1, 4, 6 of 0.2 0.3 0.5 0.6 0.6 0.7 0.8 0.9
    assert corpus.decile_samples(np.array([0.5, np.nan])).tolist() == [0] and corpus.decile_samples(np.array([np.nan])).size == 0
    with pytest.raises(ValueError, match=r"\(S,\)"):
        corpus.top_by_length(values, bins[:3])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(3, 40), st.one_of(st.floats(0, 1), st.just(math.nan))), min_size=1, max_size=60), st.integers(1, 6))
def test_top_by_length_against_a_loop(rows, count):
    """Each bin's top is the largest finite value among the sentences of that bin (a plain loop); the bins grow with length."""
    lengths, values = (np.array(column, dtype=float) for column in zip(*rows))
    bins = corpus.length_bins(lengths, count)
    assert bins.max() < count and set(bins.tolist()) == set(range(bins.max() + 1))
    assert all(lengths[bins == b].max() < lengths[bins == b + 1].min() for b in range(bins.max()))
    expected = []
    for b in range(bins.max() + 1):
        best = None
        for i in range(len(values)):
            if bins[i] == b and not math.isnan(values[i]) and (best is None or values[i] > values[best]):
                best = i
        if best is not None:
            expected.append(best)
    assert corpus.top_by_length(values, bins).tolist() == expected
    samples = corpus.decile_samples(values)
    assert len(samples) == min(10, int(np.isfinite(values).sum())) and np.all(np.diff(values[samples]) >= 0)


def test_the_shipped_corpus_verdicts_and_top_sentences_across_lengths():
    """The headline figures on the shipped corpus: 83.8 % agreement is mostly "none" with "none" (43.0 %); always "none"
    scores 51.4 %; κ 0.69; where the corpus names a pattern, one sentence names it 83.9 % of the time. The previous
    token's top 3 sentences had a median of 4 word pieces over the 72 heads; one from each third by length: 13."""
    shipped = corpus.load_scores()
    agreed = corpus.agreement(shipped)
    assert (round(agreed.rate, 3), round(agreed.both_none, 3), round(agreed.baseline, 3)) == (0.838, 0.430, 0.514)
    assert (round(agreed.kappa, 2), round(agreed.corpus_named_rate, 3)) == (0.69, 0.839)
    bins = corpus.length_bins(shipped.lengths)
    values = shipped.score("previous")
    before = [shipped.lengths[i] for layer in range(6) for h in range(12) for i in corpus.top_sentences(values[:, layer, h], 3)]
    after = [shipped.lengths[i] for layer in range(6) for h in range(12) for i in corpus.top_by_length(values[:, layer, h], bins)]
    assert (np.median(before), np.median(after), np.median(shipped.lengths)) == (4, 13, 14)


def test_percentile_and_top_sentences():
    values = np.array([0.1, 0.5, np.nan, 0.5, 0.9])
    assert corpus.percentile(values, 0.5) == 50.0  # one below, two equal (half each), of four
    assert corpus.percentile(values, 1.0) == 100.0 and corpus.percentile(values, 0.0) == 0.0
    assert math.isnan(corpus.percentile(values, math.nan)) and math.isnan(corpus.percentile(np.array([np.nan]), 0.3))
    assert corpus.top_sentences(values, 3).tolist() == [4, 1, 3] and corpus.top_sentences(values, 10).tolist() == [4, 1, 3, 0]


def test_a_value_stands_among_the_corpus_as_the_page_prints_them():
    """0.9996 and 0.9999 both print as 1.00: the student sees a tie, and a rank in the middle would say little."""
    values = np.array([0.99991, 0.99972, np.nan, 0.99968, 0.98, 1.0])
    mostly = corpus.standing(values, 0.99986)
    assert (mostly.count, mostly.below, mostly.equal, mostly.above) == (5, 1, 4, 0) and mostly.ties_most
    assert mostly.percentile == pytest.approx(100 * (1 + 4 / 2) / 5) and corpus.percentile(values, 0.99986) == pytest.approx(60.0)  # 3 below
    spread = corpus.standing(np.array([0.1, 0.2, 0.3, 0.4]), 0.25)
    assert (spread.below, spread.equal, spread.above, spread.percentile, spread.ties_most) == (2, 0, 2, 50.0, False)
    assert corpus.standing(values, 0.125, decimals=2).equal == 0 and corpus.standing(np.array([0.125]), 0.12).equal == 1  # half-way: as f"{v:.2f}"
    assert corpus.standing(values, math.nan) is None and corpus.standing(np.array([np.nan]), 0.3) is None


def test_a_pasted_corpus_is_split_cut_and_limited():
    split = corpus.split_corpus("The box weighs 2.5 kg. Is it heavy?\n\nYes!  It is.\n😀😀\n...\n<script>alert(1)</script>")
    assert split.sentences == ("The box weighs 2.5 kg.", "Is it heavy?", "Yes!", "It is.", "<script>alert(1)</script>")
    assert (split.found, split.left_out, split.cut, split.wordless, split.text_cut) == (5, 0, 0, 2, 0)
    many = corpus.split_corpus("\n".join(f"Sentence number {i}." for i in range(250)))
    assert len(many.sentences) == 200 and many.found == 250 and many.left_out == 50 and many.sentences[-1] == "Sentence number 199."
    long = corpus.split_corpus("word " * 100)
    assert long.cut == 1 and len(long.sentences[0]) <= corpus.MAX_SENTENCE_CHARS and long.sentences[0].endswith("word")
    assert corpus.cut_at_word("x" * 400, 300) == "x" * 300
    empty = corpus.split_corpus("  \n\t\n")
    assert empty.sentences == () and empty.found == 0
    huge = corpus.split_corpus("a. " * 40_000)
    assert huge.text_cut == 20_000 and len(huge.sentences) == 200
    with pytest.raises(ValueError, match="must be a string"):
        corpus.split_corpus(None)


# --- The built-in corpus and its shipped scores ---


def test_the_built_in_corpus():
    sentences = corpus.corpus_sentences()
    words = [len(s.split()) for s in sentences]
    assert len(sentences) >= 300 and len(set(sentences)) == len(sentences)
    assert min(words) == 1 and max(words) >= 30 and sum(w >= 20 for w in words) >= 10 and sum(s.endswith("?") for s in sentences) >= 20
    readme = (ROOT / "assets" / "corpus" / "README.md").read_text()
    assert "sentences.txt" in readme and "CC0" in readme


def test_the_shipped_scores_match_a_fresh_computation(model):
    shipped = corpus.load_scores()
    assert shipped.sentences == corpus.corpus_sentences() and shipped.values.dtype == np.float64
    sample = list(range(0, len(shipped.sentences), 37))  # a dozen sentences spread over the file
    fresh = corpus.corpus_scores(model, [shipped.sentences[i] for i in sample])
    np.testing.assert_allclose(fresh.values, shipped.values[sample], rtol=1e-6, atol=1e-6, equal_nan=True)  # float32 in the file
    np.testing.assert_allclose(fresh.clark, shipped.clark[sample], rtol=1e-6, atol=1e-6, equal_nan=True)
    assert fresh.lengths.tolist() == shipped.lengths[sample].tolist()


def test_a_stale_scores_file_is_found(tmp_path):
    changed = tmp_path / "sentences.txt"
    shutil.copy(corpus.CORPUS_FILE, changed)
    assert corpus.load_scores(source=changed).values.shape[0] == len(corpus.corpus_sentences())
    changed.write_text(changed.read_text() + "One more sentence.\n")
    with pytest.raises(corpus.StaleScores, match="make corpus"):
        corpus.load_scores(source=changed)


def test_scores_saved_and_loaded_again(model, tmp_path):
    source = tmp_path / "sentences.txt"
    source.write_text("The cat sat.\nA dog, a cat.\n")
    scores = corpus.corpus_scores(model, corpus.corpus_sentences(source))
    corpus.save_scores(scores, tmp_path / "scores.npz", source)
    again = corpus.load_scores(tmp_path / "scores.npz", source)
    np.testing.assert_allclose(again.values, scores.values, rtol=1e-6, atol=1e-7, equal_nan=True)
    np.testing.assert_allclose(again.clark, scores.clark, rtol=1e-6, atol=1e-7, equal_nan=True)
    assert again.sentences == scores.sentences and again.lengths.tolist() == scores.lengths.tolist()


def test_clark_et_als_scores_by_hand():
    """[CLS] . [SEP] with rows (1, 0, 0), (½, ½, 0), (¼, ¼, ½): every sum over all n = 3 queries (previous ¾ / 3 = ¼,
    where ours divides by n − 1 = 2: ⅜); "." and "," only; [CLS] → [CLS] in self and in cls; entropy in nats,
    (0 + ln 2 + 1.5 ln 2) / 3 before smoothing, and a uniform row's ln n exactly (smoothing leaves it)."""
    from attention_core.corpus import clark_scores, same_word_mask, sentence_scores

    tokens = ("[CLS]", ".", "[SEP]")
    weights = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.25, 0.25, 0.5]])
    clark = clark_scores(weights, tokens)
    expected = {"previous": 0.25, "next": 0.0, "self": 2 / 3, "cls": 7 / 12, "sep": 1 / 6, "punctuation": 0.25}
    assert {k: float(clark[k]) for k in expected} == pytest.approx(expected, abs=1e-15)
    assert float(clark["entropy"]) == pytest.approx(2.5 * math.log(2) / 3, abs=2e-3)
    ours = sentence_scores(weights, tokens, same_word_mask(3, (), ()))
    assert float(ours["previous"]) == pytest.approx(0.375) and float(ours["entropy"]) == pytest.approx(2.5 / 3)
    assert float(clark_scores(np.full((4, 4), 0.25), ("[CLS]", "a", "b", "[SEP]"))["entropy"]) == pytest.approx(math.log(4), abs=1e-12)
    assert float(clark_scores(weights, ("[CLS]", "!", "[SEP]"))["punctuation"]) == 0.0  # ours counts "!", theirs does not
    with pytest.raises(ValueError, match="n = 2 tokens"):
        clark_scores(weights, ("[CLS]", "[SEP]"))


def test_a_corpus_read_by_clark_et_als_definitions_where_they_have_one(model):
    """``definitions="clark"``: the seven scores Clark et al. define are theirs (``clark_scores`` of each sentence's
    weights, a loop here), the three they do not are ours; their previous-token share is ours × (n − 1)/n, sentence by
    sentence; the cells framed for punctuation are "." and "," only."""
    from attention_core.corpus import CLARK_SCORES, SCORES, clark_scores

    sentences = ["The cat sat, and the dog ran!", "Help!", "A dog, a cat."]
    scores = corpus.corpus_scores(model, sentences)
    for s, sentence in enumerate(sentences):
        ids, tokens, _, _ = corpus.sentence_units(model, sentence)
        _, _, attentions = model.forward(np.array([ids]))  # (L, 1, H, n, n)
        theirs = clark_scores(attentions[:, 0], tokens)
        for name in SCORES:
            got = scores.score(name, "clark")[s]
            np.testing.assert_allclose(got, theirs[name] if name in CLARK_SCORES else scores.score(name)[s], atol=1e-12, equal_nan=True)
        n = len(tokens)
        np.testing.assert_allclose(scores.score("previous", "clark")[s], scores.score("previous")[s] * (n - 1) / n, atol=1e-12)
    assert scores.defined("entropy", "clark") and not scores.defined("offset", "clark") and not scores.defined("entropy")
    np.testing.assert_allclose(scores.mean("self", "clark"), scores.mean("self"), atol=1e-12)  # the same definition
    with pytest.raises(ValueError):
        scores.score("previous", "theirs")
    tokens = ("[CLS]", "a", ",", "!", ".", "[SEP]")
    framed = corpus.score_cells("punctuation", np.eye(6), tokens, np.zeros((6, 6), bool), clark=True)
    assert framed.any(axis=0).tolist() == [False, False, True, False, True, False]
