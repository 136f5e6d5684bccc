"""The room's measures (classroom/tally.py): shares right, the advice after a first vote, the shift between votes, the
normalised gain and, beside it, the losses and gains; by hand, by property, and against a plain count of students."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom.tally import (
    Changes,
    advice,
    changes,
    gain,
    normalised_gain,
    percent_right,
    shift_table,
    total_changes,
    whole_percents,
)


def test_shares_and_advice_by_hand():
    assert percent_right([2, 1, 1, 0], 0) == 50.0 and percent_right([0, 0], 1) is None
    # Crouch and Mazur's band: below 30 % explain, 30–70 % discuss (both ends included), above 70 % move on.
    assert [advice(p) for p in (None, 0, 29.9, 30, 50, 70, 70.1, 100)] == [
        "none", "explain", "explain", "discuss", "discuss", "discuss", "move_on", "move_on"]


def test_the_shift_by_hand():
    # 4 students: A→A, B→A, C→A, A→A (the page test's room)
    assert shift_table({(0, 0): 2, (1, 0): 1, (2, 0): 1}, 3) == [[2, 0, 0], [1, 0, 0], [1, 0, 0]]


def test_gain_and_its_losses_by_hand():
    # Smith et al. 2009's figures as a check: 52 % → 68 % is g = 16 / 48 = 0.33
    assert gain(52, 68) == pytest.approx(1 / 3) and gain(None, 50) is None and gain(100, 100) is None
    assert gain(80, 60) == pytest.approx(-1.0)  # a loss is a negative gain, never hidden
    moved = changes({(True, True): 5, (True, False): 2, (False, True): 6, (False, False): 7})
    assert (moved.kept, moved.lost, moved.gained, moved.missed, moved.students) == (5, 2, 6, 7, 20)
    assert moved.share(moved.lost) == 10.0 and moved.share(moved.gained) == 30.0
    assert changes({}).share(0) is None
    assert total_changes([moved, Changes(1, 1, 0, 0)]) == Changes(6, 3, 6, 7)


def test_the_class_gain_is_computed_from_the_class_means():
    scores = [("concept.rows", 40.0, 80.0), ("concept.scale", 20.0, 60.0), ("concept.cache", None, 50.0)]
    assert normalised_gain(scores) == pytest.approx((70 - 30) / (100 - 30))
    assert normalised_gain([("concept.rows", 100.0, 100.0)]) is None


students = st.lists(st.tuples(st.one_of(st.none(), st.integers(0, 3)), st.one_of(st.none(), st.integers(0, 3))), max_size=60)


@settings(max_examples=200, deadline=None)
@given(students, st.integers(0, 3))
def test_the_shift_and_the_changes_agree_with_a_plain_count_of_students(room, correct):
    """Each student: (round-1 answer or None, round-2 answer or None). The shift counts those who voted twice; its row
    sums are their first answers, its column sums their second; the changes of right → wrong and wrong → right, counted
    here student by student, add up to the same students."""
    moves: dict[tuple[int, int], int] = {}
    for first, second in room:
        if first is not None and second is not None:
            moves[(first, second)] = moves.get((first, second), 0) + 1
    table = shift_table(moves, 4)
    both = [(a, b) for a, b in room if a is not None and b is not None]
    assert [sum(row) for row in table] == [sum(1 for a, _ in both if a == k) for k in range(4)]
    assert [sum(table[a][b] for a in range(4)) for b in range(4)] == [sum(1 for _, b in both if b == k) for k in range(4)]
    moved: dict[tuple[bool, bool], int] = {}
    for a, b in both:
        moved[(a == correct, b == correct)] = moved.get((a == correct, b == correct), 0) + 1
    c = changes(moved)
    assert c.students == len(both)
    assert c.lost == sum(1 for a, b in both if a == correct and b != correct)
    assert c.gained == sum(1 for a, b in both if a != correct and b == correct)
    first = [sum(1 for a, _ in both if a == k) for k in range(4)]
    second = [sum(1 for _, b in both if b == k) for k in range(4)]
    if both:  # the net change in the share right is exactly the gains minus the losses
        assert percent_right(second, correct) - percent_right(first, correct) == pytest.approx(100 * (c.gained - c.lost) / len(both))
        assert sum(whole_percents(first)) == 100


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 99.9, allow_subnormal=False), st.floats(0, 100, allow_subnormal=False))  # a share of a class, never 5e-324 %
def test_the_gain_is_at_most_one_and_zero_without_change(pre, post):
    g = gain(pre, post)
    assert g <= 1 + 1e-12 and (g == 0) == (post == pre)


def test_the_rooms_shares_add_up_to_100_percent():
    assert whole_percents([1, 1, 1]) == [34, 33, 33]  # not 33 % three times
    assert whole_percents([2, 1]) == [67, 33] and whole_percents([0, 0]) == [0, 0] and whole_percents([5, 0]) == [100, 0]

    @given(st.lists(st.integers(0, 300), min_size=1, max_size=6).filter(any))
    def adds_up(counts):
        shown = whole_percents(counts)
        assert sum(shown) == 100
        assert all(abs(p - 100 * c / sum(counts)) < 1 for p, c in zip(shown, counts))  # each within 1 of its share

    adds_up()
