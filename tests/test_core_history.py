"""Each question's statistics over a teacher's classes (classroom/history.py): rooms worked out by hand, a plain-loop
reference and invariants over any history (hypothesis), and a 6-class history of 30 students each made through the
store (scripts/class_history.py) whose statistics are checked by hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom import generators, history, store
from classroom.history import ANSWER, Asked, Finding, Kept, asked_of, option_keys, question_key, statistics, thirds
from scripts.class_history import make_history


def names(stat: history.Statistics) -> list[str]:
    return [f.name for f in stat.findings]


def test_thirds_rank_by_score_then_by_student_number():
    # 7 students: ⌊7 / 3⌋ = 2 in each third. Scores 1, 1, 0.5, 0.5, 0.5, 0, 0 for students 7, 3, 5, 1, 2, 6, 4:
    # best first, ties by number: 3, 7 | 1, 2, 5 | 4, 6.
    upper, lower = thirds({7: 1.0, 3: 1.0, 5: 0.5, 1: 0.5, 2: 0.5, 6: 0.0, 4: 0.0})
    assert upper == {3, 7} and lower == {4, 6}
    assert thirds({1: 1.0, 2: 0.0}) == (frozenset(), frozenset())  # fewer than 3: no thirds
    upper, lower = thirds({1: 0.5, 2: 0.5, 3: 0.5, 4: 0.5})  # all tied: by number
    assert upper == {1} and lower == {4}


def test_one_class_worked_out_by_hand():
    # Six students, concept scores 1, 1, 2/3, 1/3, 0, 0 (students 1 … 6): upper third {1, 2}, lower {5, 6}.
    # Round 1: A, A, B, A, C, B with A right: N = 6, R = 3, F = 0.5; upper 2 of 2 right, lower 0 of 2: D = 1 − 0 = 1.
    # Shares: A 3/6, B 2/6, C 1/6, D 0/6 (nobody, in the 1 class that offered it). Round 2: 5 of 6 right, not stuck.
    scores = {("X", 1): 1.0, ("X", 2): 1.0, ("X", 3): 2 / 3, ("X", 4): 1 / 3, ("X", 5): 0.0, ("X", 6): 0.0}
    asked = [Asked("X", "concept.cosine", ("A", "B", "C", "D"), "A", ((1, "A"), (2, "A"), (3, "B"), (4, "A"), (5, "C"), (6, "B")),
                   ((1, "A"), (2, "A"), (3, "A"), (4, "A"), (5, "A"), (6, "B")))]
    (stat,) = statistics(asked, scores)
    assert (stat.classes, stat.answers, stat.right, stat.facility) == (1, 6, 3, 0.5)
    assert stat.upper == (2, 2) and stat.lower == (0, 2) and stat.discrimination == 1.0
    assert [(s.option, s.chosen, s.share, s.offered, s.unchosen) for s in stat.options] == [
        ("A", 3, 0.5, 1, 0), ("B", 2, 2 / 6, 1, 0), ("C", 1, 1 / 6, 1, 0), ("D", 0, 0.0, 1, 1)]
    assert stat.second == (("X", 5, 6),) and stat.facility_second == 5 / 6 and stat.stuck == 0
    assert stat.findings == (history.Finding("few", (("answers", 6),)),)  # 6 < 10 answers: nothing judged


def test_two_classes_pooled_worked_out_by_hand():
    # Class X: 12 students, 1–4 upper (score 1), 5–8 middle (0.5), 9–12 lower (0). Class Y: 3 students, one per third.
    # X round 1: 11 right (student 12 chose B); Y: all 3 right. N = 15, R = 14, F = 14/15 = 0.933: too easy.
    # Upper: X 4/4 + Y 1/1 = 5/5; lower: X 3/4 + Y 1/1 = 4/5; D = 1 − 0.8 = 0.2 (weak is not said of a too easy question).
    # C and D offered in both classes and chosen by nobody: two "unchosen" findings, each "in 2 classes".
    scores = {("X", s): 1.0 if s <= 4 else 0.5 if s <= 8 else 0.0 for s in range(1, 13)} | {("Y", 1): 1.0, ("Y", 2): 0.5, ("Y", 3): 0.0}
    x = Asked("X", "q", ("A", "B", "C", "D"), "A", tuple((s, "B" if s == 12 else "A") for s in range(1, 13)))
    y = Asked("Y", "q", ("A", "B", "C", "D"), "A", ((1, "A"), (2, "A"), (3, "A")))
    (stat,) = statistics([x, y], scores)
    assert (stat.answers, stat.right, stat.upper, stat.lower) == (15, 14, (5, 5), (4, 5))
    assert stat.facility == pytest.approx(14 / 15) and stat.discrimination == pytest.approx(0.2)
    assert names(stat) == ["too_easy", "unchosen", "unchosen"]
    assert stat.findings[1] == Finding("unchosen", (("option", "C"), ("classes", 2)))


def test_a_question_the_room_keeps_getting_wrong_after_discussion_is_flagged():
    # Three classes voted again: 4 of 10, 3 of 10 and 8 of 10 right in round 2: stuck (below half) in 2 of 3: flagged.
    asked = [Asked(c, "q", ("A", "B"), "A", tuple((s, "B") for s in range(10)),
                   tuple((s, "A" if s < right else "B") for s in range(10))) for c, right in (("X", 4), ("Y", 3), ("Z", 8))]
    (stat,) = statistics(asked, {})
    assert stat.stuck == 2 and stat.flagged and stat.findings[0] == Finding("stuck", (("stuck", 2), ("classes", 3)))
    assert stat.discrimination is None and names(stat) == ["stuck", "too_hard"]  # nobody right in round 1: A is no distractor
    (once,) = statistics(asked[:1] + asked[2:], {})  # stuck in 1 class of 2: not yet "keeps"
    assert not once.flagged


def test_the_store_rows_become_questions_and_concept_scores():
    drawn = generators.draw("cosine", 0)  # options: −0.55 (answer), squared lengths, sums of sizes, sign turned
    kept = [Kept("X", "concept.rows", "before", 4, 1, (), ((1, 1, 1), (2, 1, 0))),
            Kept("X", "concept.scale", "after", 4, 1, (), ((1, 1, 1), (2, 1, 1))),
            Kept("X", drawn.item, "", 4, drawn.correct, (), ((1, 1, 0), (2, 1, 3))),
            Kept("X", "walk.random-1.2", "", 3, 0, ("1 · a", "2 · b", "3 · c"), ((1, 1, 0), (1, 2, 2)))]
    asked, scores = asked_of(kept)
    assert scores == {("X", 1): 1.0, ("X", 2): 0.5}
    assert [a.question for a in asked] == ["gen.cosine", "walk.random-1.2:1 · a|2 · b|3 · c"]
    assert asked[0].options == (ANSWER, "squared_lengths", "city_block", "opposite") and drawn.correct == 0
    assert asked[0].first == ((1, ANSWER), (2, "opposite")) and asked[1].second == ((1, "C"),)
    assert option_keys("concept.rows", 4, 1) == (("A", "B", "C", "D"), "B")
    assert option_keys("gen.most_weight.0", 5, 2) == (("A", "B", ANSWER, "D", "E"), ANSWER)  # revision 1: every key, no names
    assert question_key("gen.scale.17.2") == "gen.scale" == question_key("gen.scale.3")


# --- Any history ---


@st.composite
def histories(draw):
    """Up to 4 classes of up to 12 students, 1–3 questions with 2–4 options each, any answers (some students silent),
    some students with a concept score."""
    classes = [f"C{c}" for c in range(draw(st.integers(1, 4)))]
    students = {c: list(range(1, draw(st.integers(1, 12)) + 1)) for c in classes}
    scores = {(c, s): draw(st.sampled_from([0.0, 1 / 3, 0.5, 2 / 3, 1.0])) for c in classes for s in students[c] if draw(st.booleans())}
    asked = []
    for q in range(draw(st.integers(1, 3))):
        options = "ABCD"[:draw(st.integers(2, 4))]
        correct = draw(st.sampled_from(options))  # a question's right option is the same in every class
        for c in classes:
            if not draw(st.booleans()):
                continue
            first = tuple((s, draw(st.sampled_from(options))) for s in students[c] if draw(st.booleans()))
            second = tuple((s, draw(st.sampled_from(options))) for s in students[c] if draw(st.booleans())) if draw(st.booleans()) else ()
            asked.append(Asked(c, f"q{q}", tuple(options), correct, first, second))
    return asked, scores


def reference(asked: list[Asked], scores: dict) -> dict[str, tuple]:
    """F and D again, by plain loops: per class rank the scored students, take ⌊n/3⌋ from each end."""
    out = {}
    for question in dict.fromkeys(a.question for a in asked):
        n = r = un = ur = ln = lr = 0
        for a in asked:
            if a.question != question:
                continue
            ranked = sorted([s for (c, s) in scores if c == a.classroom], key=lambda s: (-scores[(a.classroom, s)], s))
            size = len(ranked) // 3
            top, bottom = ranked[:size], ranked[len(ranked) - size:] if size else []
            for student, option in a.first:
                n, r = n + 1, r + (option == a.correct)
                if student in top:
                    un, ur = un + 1, ur + (option == a.correct)
                if student in bottom:
                    ln, lr = ln + 1, lr + (option == a.correct)
        out[question] = (n, r, r / n if n else None, ur / un - lr / ln if un and ln else None)
    return out


@settings(max_examples=200, deadline=None)
@given(histories())
def test_any_history_matches_a_plain_loop_and_keeps_its_invariants(drawn):
    asked, scores = drawn
    stats = statistics(asked, scores)
    expected = reference(asked, scores)
    assert [s.question for s in stats] == list(expected)
    for stat in stats:
        n, r, facility, discrimination = expected[stat.question]
        assert (stat.answers, stat.right) == (n, r)
        assert stat.facility == pytest.approx(facility) if facility is not None else stat.facility is None
        assert stat.discrimination == pytest.approx(discrimination) if discrimination is not None else stat.discrimination is None
        assert stat.discrimination is None or -1 <= stat.discrimination <= 1
        assert sum(s.chosen for s in stat.options) == stat.answers
        assert sum(s.chosen for s in stat.options if s.right) == stat.right
        assert all(0 <= s.unchosen <= s.offered <= stat.classes for s in stat.options)
        assert 0 <= stat.stuck <= len(stat.second) and stat.findings
        assert (stat.findings[0].name == "few") == (stat.answers < history.FEW)
    shuffled = [Asked(a.classroom, a.question, a.options, a.correct, tuple(reversed(a.first)), tuple(reversed(a.second))) for a in asked]
    assert statistics(shuffled, scores) == stats  # the order answers arrived in changes nothing


# --- The 6-class history ---


@pytest.fixture(scope="module")
def six_classes(tmp_path_factory):
    engine = store.connect(f"sqlite:///{tmp_path_factory.mktemp('history')}/live-class.sqlite3")
    key = make_history(engine)
    kept = history.read(engine, key)
    return {stat.question: stat for stat in statistics(*asked_of(kept))}, kept


def shares(stat: history.Statistics) -> dict[str, int]:
    return {s.option: s.chosen for s in stat.options}


def test_six_classes_of_thirty_checked_by_hand(six_classes):
    """scripts/class_history.py's table, worked out: each class has 10 students per third (concept check 3, 2, 1 of 3
    right), so every third is exact."""
    stats, kept = six_classes
    assert len({k.classroom for k in kept}) == 6 and {len({s for s, _, _ in k.answers}) for k in kept if k.phase} == {30}
    assert list(stats) == ["lesson.four_steps", "concept.cosine", "concept.scale", "gen.cosine", "lesson.scaling"]

    # Q1, too easy: 29 of 30 right in each of 6 classes, the wrong one in the lower third.
    # F = 174 / 180 = 96.7 %; D = 60/60 − 54/60 = 0.10; A chosen 3 times (classes 1–3), C 3 times (4–6).
    q1 = stats["lesson.four_steps"]
    assert (q1.classes, q1.answers, q1.right, q1.upper, q1.lower) == (6, 180, 174, (60, 60), (54, 60))
    assert q1.facility == pytest.approx(174 / 180) and q1.discrimination == pytest.approx(0.1)
    assert shares(q1) == {"A": 3, "B": 174, "C": 3} and names(q1) == ["too_easy"]

    # Q2: per class A 15 (8/5/2 by third), B 10, C 5, D never. F = 90 / 180 = 0.5; D = 48/60 − 12/60 = 0.6.
    # D chosen by nobody in 6 classes; round 2 24 of 30 right in all 6: 144 / 180 = 80 %, stuck nowhere.
    q2 = stats["concept.cosine"]
    assert (q2.answers, q2.right, q2.upper, q2.lower) == (180, 90, (48, 60), (12, 60))
    assert q2.facility == 0.5 and q2.discrimination == pytest.approx(0.6)
    assert shares(q2) == {"A": 90, "B": 60, "C": 30, "D": 0} and q2.facility_second == pytest.approx(0.8) and q2.stuck == 0
    assert names(q2) == ["discuss", "unchosen"] and q2.findings[1] == Finding("unchosen", (("option", "D"), ("classes", 6)))

    # Q3, the one the room keeps getting wrong: B right 6 per class (4/1/1): F = 36 / 180 = 20 %, D = 24/60 − 6/60 = 0.3;
    # round 2 (classes 1–4) 10 of 30 right each: stuck in 4 of 4, flagged.
    q3 = stats["concept.scale"]
    assert (q3.answers, q3.right, q3.upper, q3.lower) == (180, 36, (24, 60), (6, 60)) and q3.discrimination == pytest.approx(0.3)
    assert shares(q3) == {"A": 72, "B": 36, "C": 48, "D": 24} and q3.second == tuple((c, 10, 30) for c, _, _ in q3.second)
    assert len(q3.second) == 4 and q3.stuck == 4 and q3.flagged and names(q3) == ["stuck", "too_hard"]

    # Q4, one more like Q2, drawn afresh in classes 1–3 (seeds 0, 4, 5), options by misconception: the answer 20 per
    # class (9/7/4): 60 / 90; sign turned 6 per class: 18; square roots forgotten 4, 3, 4: 11; sums of sizes 0, 1, 0: 1.
    # D = 27/30 − 12/30 = 0.5.
    q4 = stats["gen.cosine"]
    assert (q4.classes, q4.answers, q4.right, q4.upper, q4.lower) == (3, 90, 60, (27, 30), (12, 30))
    assert shares(q4) == {ANSWER: 60, "opposite": 18, "squared_lengths": 11, "city_block": 1}
    assert q4.discrimination == pytest.approx(0.5) and names(q4) == ["discuss"]

    # Q5 (classes 5–6): the weaker third does better: upper 3 of 10, lower 7 of 10 right per class: D = 0.3 − 0.7 = −0.4.
    q5 = stats["lesson.scaling"]
    assert (q5.classes, q5.answers, q5.right, q5.upper, q5.lower) == (2, 60, 30, (6, 20), (14, 20))
    assert q5.discrimination == pytest.approx(-0.4) and names(q5) == ["discuss", "negative"]
