"""Who turns to whom for "discuss and vote again": neighbours who answered differently, in groups of 2 (or 3).

Peer instruction pairs students who gave different answers on the first vote and sit near each other (Crouch and
Mazur 2001; Learning Catalytics). Pure: voters in, groups out, no database and no Streamlit.

The rules, in order (each is a test):

1. Everybody who voted is in exactly one group, of 2 or 3, as soon as two or more voted; one voter is alone.
2. As many groups as the room allows mix answers: among ``m`` voters of one kind (seated, or not; rule 4) whose
   commonest answer was given ``c`` times, at most ``min(m // 2, m - c)`` disjoint pairs can differ, and the pairing
   reaches that number.
3. Among those, the nearest first: pairs are taken by their seat distance (squared, in rows and seats), then by the
   students' ids, so the same room always gives the same groups.
4. Voters without a seat are paired among themselves (their phones show the group's code to find each other); a
   lone one of either kind joins the other kind.
5. Left-overs who gave the same answer pair by distance; an odd one out joins the nearest group of 2.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # a group's code: a letter and a number (A1 … Z1, A2 …), never a secret


@dataclass(frozen=True)
class Voter:
    """A student who voted in round 1: their id, the seat they tapped ((row, seat), 1-based) or None, their answer."""

    id: int
    place: tuple[int, int] | None
    answer: int


@dataclass(frozen=True)
class Group:
    """Students who discuss together: a short code shown on each member's phone, the members' ids (ascending), and
    whether their first answers differ."""

    code: str
    members: tuple[int, ...]
    mixed: bool


def most_mixed(answers: Counter) -> int:
    """The largest number of disjoint pairs whose two answers differ: min(m // 2, m - c) for m voters whose commonest
    answer was given c times (every pair with two of the commonest answers wastes one of them)."""
    m = sum(answers.values())
    return min(m // 2, m - max(answers.values(), default=0))


def _distances(pool: list[Voter]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair (i < j) of the pool as index arrays, and its squared seat distance (0 where a seat is unknown)."""
    i, j = np.triu_indices(len(pool), k=1)  # (P,), (P,)
    rows = np.array([v.place[0] if v.place else 0 for v in pool])  # (m,)
    seats = np.array([v.place[1] if v.place else 0 for v in pool])  # (m,)
    known = np.array([v.place is not None for v in pool])  # (m,)
    squared = (rows[i] - rows[j]) ** 2 + (seats[i] - seats[j]) ** 2  # (P,)
    return i, j, np.where(known[i] & known[j], squared, 0)


def _ordered(pool: list[Voter], mixed: bool) -> list[tuple[int, int]]:
    """The pool's pairs (positions in ``pool``) with different answers (``mixed``) or the same, nearest first, then by
    the smaller id and the larger id."""
    if len(pool) < 2:
        return []
    i, j, distance = _distances(pool)
    answers = np.array([v.answer for v in pool])
    ids = np.array([v.id for v in pool])
    keep = (answers[i] != answers[j]) == mixed
    i, j, distance = i[keep], j[keep], distance[keep]
    low, high = np.minimum(ids[i], ids[j]), np.maximum(ids[i], ids[j])
    order = np.lexsort((high, low, distance))  # distance first, then ids
    return list(zip(i[order].tolist(), j[order].tolist()))


def _mixed_pairs(pool: list[Voter]) -> list[tuple[int, int]]:
    """As many pairs with different answers as the pool allows (``most_mixed``), nearest first: a pair is taken only
    if the voters left can still make up the rest."""
    left = Counter(v.answer for v in pool)
    target = most_mixed(left)
    taken: set[int] = set()
    pairs: list[tuple[int, int]] = []
    candidates = _ordered(pool, mixed=True)
    while len(pairs) < target:
        before = len(pairs)
        for a, b in candidates:
            if len(pairs) == target:
                break
            if a in taken or b in taken:
                continue
            after = left - Counter((pool[a].answer, pool[b].answer))
            if most_mixed(after) >= target - len(pairs) - 1:
                pairs.append((a, b))
                taken |= {a, b}
                left = after
        if len(pairs) == before:  # cannot happen (rule 2's test); never loop for ever
            break
    return pairs


def _pool_groups(pool: list[Voter]) -> list[list[int]]:
    """One pool's groups as positions in ``pool``: mixed pairs, then same-answer pairs, then an odd one out added to
    the nearest group of 2."""
    groups = [list(pair) for pair in _mixed_pairs(pool)]
    taken = {a for group in groups for a in group}
    for a, b in _ordered(pool, mixed=False):
        if a not in taken and b not in taken:
            groups.append([a, b])
            taken |= {a, b}
    alone = [a for a in range(len(pool)) if a not in taken]
    if alone and groups:
        (single,) = alone  # every pool of 2 or more leaves at most one out
        groups[_nearest_group(pool, single, groups)].append(single)
    elif alone:
        groups.append(alone)  # a pool of one: the caller merges it first, so only a room of one voter gets here
    return groups


def _nearest_group(pool: list[Voter], single: int, groups: list[list[int]]) -> int:
    """The group of 2 nearest to ``single`` (by its nearest member; unknown seats count as 0), then by smallest id."""

    def distance(a: int) -> int:
        if pool[a].place is None or pool[single].place is None:
            return 0
        return (pool[a].place[0] - pool[single].place[0]) ** 2 + (pool[a].place[1] - pool[single].place[1]) ** 2

    pairs = [g for g, members in enumerate(groups) if len(members) == 2]
    return min(pairs, key=lambda g: (min(distance(a) for a in groups[g]), min(pool[a].id for a in groups[g])))


def group_code(number: int) -> str:
    """The ``number``-th group's code (0-based): A1 … Z1, A2 …; short enough to say across a row."""
    return f"{CODE_LETTERS[number % len(CODE_LETTERS)]}{number // len(CODE_LETTERS) + 1}"


def pair(voters: list[Voter]) -> tuple[Group, ...]:
    """The room's discussion groups (rules 1–5 of the module's docstring), ordered by their smallest id, coded A1, B1, …

    Parameters
    ----------
    voters : every student who voted in round 1 (ids unique).

    Returns
    -------
    Groups of 2 or 3 covering every voter once; empty when fewer than two voted.
    """
    if len({v.id for v in voters}) != len(voters):
        raise ValueError("each voter must appear once")
    if len(voters) < 2:
        return ()
    seated = sorted((v for v in voters if v.place is not None), key=lambda v: v.id)
    unseated = sorted((v for v in voters if v.place is None), key=lambda v: v.id)
    if len(seated) == 1:  # a lone seated voter is found by the group's code, as the unseated are
        seated, unseated = [], sorted(unseated + [Voter(seated[0].id, None, seated[0].answer)], key=lambda v: v.id)
    elif len(unseated) == 1:
        seated, unseated = sorted(seated + unseated, key=lambda v: v.id), []
    members = [tuple(sorted(pool[a].id for a in group)) for pool in (seated, unseated) if pool for group in _pool_groups(pool)]
    answers = {v.id: v.answer for v in voters}
    members.sort()
    return tuple(Group(group_code(n), ids, len({answers[i] for i in ids}) > 1) for n, ids in enumerate(members))
