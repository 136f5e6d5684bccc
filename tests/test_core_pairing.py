"""Who turns to whom (classroom/pairing.py): rooms worked out by hand, invariants over any room (hypothesis), the
largest number of mixed pairs checked against a brute force over every matching, and the time for 300 students."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom.pairing import Group, Voter, group_code, most_mixed, pair


def groups_of(groups: tuple[Group, ...]) -> list[tuple[int, ...]]:
    return [g.members for g in groups]


def test_a_row_of_four_pairs_neighbours_who_answered_differently():
    # Row 1, seats 1..4 answered A, A, B, B. The nearest mixed pair is (2, 3), at distance 1; (1, 3) and (2, 4) are
    # taken already, so 1 (A) pairs with 4 (B), at distance 3 (squared: 9).
    room = [Voter(1, (1, 1), 0), Voter(2, (1, 2), 0), Voter(3, (1, 3), 1), Voter(4, (1, 4), 1)]
    groups = pair(room)
    assert groups_of(groups) == [(1, 4), (2, 3)] and all(g.mixed for g in groups)
    assert [g.code for g in groups] == ["A1", "B1"]


def test_the_commonest_answer_is_spread_over_the_mixed_pairs_first():
    # Answers A (seat 1), B (seat 5), C (seat 6), A (seat 10): nearest-first alone would pair B with C (neighbours) and
    # leave A with A. Two mixed pairs are possible (A-B, C-A), so each A gets one of them.
    room = [Voter(1, (1, 1), 0), Voter(2, (1, 10), 0), Voter(3, (1, 5), 1), Voter(4, (1, 6), 2)]
    groups = pair(room)
    assert groups_of(groups) == [(1, 3), (2, 4)] and all(g.mixed for g in groups)


def test_where_counts_do_not_pair_up_the_rest_agree_and_an_odd_one_makes_a_three():
    # Five A and one B in a row: one mixed pair (B with its nearest A), then A-A pairs by distance, then one A left,
    # who joins the nearest group of two.
    room = [Voter(i, (1, i), 0) for i in range(1, 6)] + [Voter(6, (1, 6), 1)]
    groups = pair(room)
    assert groups_of(groups) == [(1, 2), (3, 4), (5, 6)] and [g.mixed for g in groups] == [False, False, True]
    room.append(Voter(7, (1, 7), 0))  # a seventh student: the odd one out joins the group nearest to seat 7
    assert groups_of(pair(room)) == [(1, 2), (3, 4), (5, 6, 7)]  # (5, 6) is nearer to seat 7 than (3, 4)


def test_students_without_a_seat_pair_among_themselves_and_a_lone_one_joins_the_others():
    room = [Voter(1, (1, 1), 0), Voter(2, (1, 2), 1), Voter(3, None, 0), Voter(4, None, 1)]
    assert groups_of(pair(room)) == [(1, 2), (3, 4)]
    room = [Voter(1, (1, 1), 0), Voter(2, (1, 2), 1), Voter(3, None, 1)]  # one without a seat: with the seated ones
    assert groups_of(pair(room)) == [(1, 2, 3)]


def test_nobody_alone_from_two_voters_on_and_one_voter_has_no_group():
    assert pair([]) == () and pair([Voter(5, (1, 1), 2)]) == ()
    assert groups_of(pair([Voter(5, (1, 1), 2), Voter(9, None, 2)])) == [(5, 9)]
    with pytest.raises(ValueError):
        pair([Voter(1, None, 0), Voter(1, None, 1)])


def test_group_codes_are_short_and_distinct():
    codes = [group_code(n) for n in range(500)]
    assert codes[:3] == ["A1", "B1", "C1"] and codes[24] == "A2" and len(set(codes)) == 500
    assert all(len(code) <= 3 and code[0] not in "OI" and code[1:].isdigit() for code in codes)  # no letter read as a digit


voters = st.lists(st.tuples(st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 8))), st.integers(0, 3)),
                  max_size=40).map(lambda rows: [Voter(n * 7 + 3, place, answer) for n, (place, answer) in enumerate(rows)])


def brute_most_mixed(answers: list[int]) -> int:
    """The largest number of disjoint pairs with different answers, by trying every matching (small rooms only)."""
    best = 0

    def extend(left: tuple[int, ...], mixed: int) -> None:
        nonlocal best
        best = max(best, mixed)
        if len(left) < 2:
            return
        first, rest = left[0], left[1:]
        extend(rest, mixed)  # the first one stays unpaired
        for k, other in enumerate(rest):
            if answers[first] != answers[other]:
                extend(rest[:k] + rest[k + 1:], mixed + 1)

    extend(tuple(range(len(answers))), 0)
    return best


@settings(max_examples=300, deadline=None)
@given(voters)
def test_any_room_everyone_in_one_group_of_two_or_three_as_mixed_as_possible_and_the_same_every_time(room):
    groups = pair(room)
    ids = sorted(v.id for v in room)
    if len(room) < 2:
        assert groups == ()
        return
    members = sorted(i for g in groups for i in g.members)
    assert members == ids  # everybody, once
    assert all(len(g.members) in (2, 3) for g in groups)
    answers = {v.id: v.answer for v in room}
    assert all(g.mixed == (len({answers[i] for i in g.members}) > 1) for g in groups)
    assert len({g.code for g in groups}) == len(groups)
    assert pair(list(reversed(room))) == groups  # the order of arrival changes nothing
    # Rule 2, per kind of voter (seated or not; a lone one of either kind joins the other kind)
    seated = [v for v in room if v.place is not None]
    unseated = [v for v in room if v.place is None]
    pools = [room] if len(seated) == 1 or len(unseated) == 1 else [pool for pool in (seated, unseated) if pool]
    possible = sum(most_mixed(Counter(v.answer for v in pool)) for pool in pools)
    assert sum(g.mixed for g in groups) >= possible
    kind = {v.id: n for n, pool in enumerate(pools) for v in pool}
    assert all(len({kind[i] for i in g.members}) == 1 for g in groups)  # the seated and the unseated never mix (rule 4)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=10))
def test_the_formula_for_the_most_mixed_pairs_matches_every_matching_tried(answers):
    assert most_mixed(Counter(answers)) == brute_most_mixed(answers)


def test_each_mixed_pair_is_as_near_as_a_greedy_nearest_first_choice_allows():
    """Two answers, balanced, in a 6 × 8 room: every student pairs with someone who answered differently, and the
    total distance is no more than an independent greedy nearest-first matching's (written here as a plain loop)."""
    rng = random.Random(4)
    places = rng.sample([(r, s) for r in range(1, 7) for s in range(1, 9)], 40)
    room = [Voter(i, place, i % 2) for i, place in enumerate(places)]
    groups = pair(room)
    assert all(g.mixed and len(g.members) == 2 for g in groups)
    where = {v.id: v.place for v in room}

    def d2(a: int, b: int) -> int:
        return (where[a][0] - where[b][0]) ** 2 + (where[a][1] - where[b][1]) ** 2

    left, greedy = set(range(40)), 0
    for a, b in sorted(itertools.combinations(range(40), 2), key=lambda p: (d2(*p), p)):
        if a in left and b in left and a % 2 != b % 2:
            greedy += d2(a, b)
            left -= {a, b}
    assert sum(d2(*g.members) for g in groups) == greedy


def test_300_students_are_paired_in_under_100_ms():
    rng = random.Random(300)
    room = [Voter(i, (rng.randint(1, 15), rng.randint(1, 20)) if rng.random() < 0.9 else None, rng.randrange(4)) for i in range(300)]
    pair(room)  # NumPy's first call
    began = time.perf_counter()
    groups = pair(room)
    took = time.perf_counter() - began
    assert took < 0.1, took
    assert sorted(i for g in groups for i in g.members) == list(range(300))
