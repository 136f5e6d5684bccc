"""Who turns to whom for "discuss and vote again": neighbours who answered differently, in groups of 2 (or 3).

Peer instruction pairs students who gave different answers on the first vote and sit near each other (Crouch and
Mazur 2001; Learning Catalytics). Pure: voters in, groups out, no database and no Streamlit.

Near means within reach: two students are *near* when they sit at most ``RADIUS`` seats (Euclidean, in rows and seats)
farther apart than either one's nearest classmate. A mixed pair is formed only between near students: maximising mixed
pairs over the whole room sent the last students who disagree across it (3.7 % of a hall more than 4 seats past their
nearest classmate, where a random "turn to your neighbour" sends 1.8 %).

The rules, in order (each is a test):

1. Everybody who voted is in exactly one group, of 2 or 3, as soon as two or more voted; one voter is alone.
2. Mixed pairs first, among near students only, nearest first: a pair is taken while the voters left can still make as
   many mixed pairs as their answers allow (``most_mixed``: the commonest answer is spread over the pairs), then any
   near pair still free. No two students outside a mixed pair who answered differently are near each other; when
   everyone is near everyone (unknown seats count as 0 apart), the count reaches ``most_mixed``.
3. Pairs are taken by their seat distance (squared), then by the students' ids, so the same room always gives the
   same groups.
4. Voters without a seat are paired among themselves (their phones show the group's code to find each other); a
   lone one of either kind joins the other kind.
5. The others turn to their nearest neighbour still free (pairs by distance, whatever their answers); an odd one out
   joins the group of 2 whose farthest member is nearest. Then a pair whose two students are not near each other is
   split when each can join a different group of 2 whose members are all near them, or else trades partners with
   another pair when that brings the farthest of the four nearer, with no fewer mixed pairs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

RADIUS = 2.0  # seats: "near" is at most this much farther than one's nearest classmate
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


@dataclass(frozen=True)
class Seats:
    """A pool's seats: ``apart[a, b]``, the distance between voters a and b (0 where a seat is unknown), and
    ``nearest[a]``, a's distance to their nearest classmate in the pool."""

    apart: np.ndarray  # (m, m)
    nearest: np.ndarray  # (m,)

    def near(self, a: int, b: int) -> bool:
        """Within ``RADIUS`` of both one's nearest classmates: apart(a, b) ≤ min(nearest(a), nearest(b)) + RADIUS."""
        return bool(self.apart[a, b] <= min(self.nearest[a], self.nearest[b]) + RADIUS + 1e-9)


def seats_of(pool: list[Voter]) -> Seats:
    """The pool's distances (Euclidean, in rows and seats; 0 where a seat is unknown), read-only. A voter's nearest
    classmate is the nearest one with a known seat (0 for a voter without one, or with no other seated voter): a lone
    voter without a seat merged into the seated pool (rule 4) brings nobody's nearest classmate to 0."""
    known = np.array([v.place is not None for v in pool])  # (m,)
    places = np.array([v.place or (0, 0) for v in pool], dtype=float).reshape(len(pool), 2)  # (m, 2)
    apart = np.sqrt(((places[:, None, :] - places[None, :, :]) ** 2).sum(axis=2))  # (m, m)
    both = known[:, None] & known[None, :]  # (m, m)
    apart[~both] = 0.0
    others = np.where(both & ~np.eye(len(pool), dtype=bool), apart, np.inf)  # (m, m): seated classmates only
    nearest = others.min(axis=1, initial=np.inf)  # (m,)
    nearest[~np.isfinite(nearest)] = 0.0
    apart.flags.writeable = nearest.flags.writeable = False
    return Seats(apart, nearest)


def _ordered(pool: list[Voter], seats: Seats, mixed: bool) -> list[tuple[int, int]]:
    """The pool's pairs (positions in ``pool``), nearest first, then by the smaller id and the larger id: the near pairs
    with different answers (``mixed``), or every pair."""
    i, j = np.triu_indices(len(pool), k=1)  # (P,), (P,)
    distance = np.rint(seats.apart[i, j] ** 2)  # (P,): squared seat distances are whole numbers
    if mixed:
        answers = np.array([v.answer for v in pool])  # (m,)
        reach = np.minimum(seats.nearest[i], seats.nearest[j]) + RADIUS  # (P,)
        keep = (answers[i] != answers[j]) & (seats.apart[i, j] <= reach + 1e-9)
        i, j, distance = i[keep], j[keep], distance[keep]
    ids = np.array([v.id for v in pool])  # (m,)
    low, high = np.minimum(ids[i], ids[j]), np.maximum(ids[i], ids[j])
    order = np.lexsort((high, low, distance))  # distance first, then ids
    return list(zip(i[order].tolist(), j[order].tolist()))


def _mixed_pairs(pool: list[Voter], seats: Seats) -> list[tuple[int, int]]:
    """Near pairs with different answers, nearest first (rule 2): taken while the voters left can still make up
    ``most_mixed`` of the pool, then any near pair still free."""
    left = Counter(v.answer for v in pool)
    target = most_mixed(left)
    taken: set[int] = set()
    pairs: list[tuple[int, int]] = []
    candidates = _ordered(pool, seats, mixed=True)
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
        if len(pairs) == before:  # the radius keeps the count short of most_mixed
            break
    for a, b in candidates:
        if a not in taken and b not in taken:
            pairs.append((a, b))
            taken |= {a, b}
    return pairs


def _pool_groups(pool: list[Voter]) -> list[list[int]]:
    """One pool's groups as positions in ``pool``: near mixed pairs, then nearest neighbours, an odd one out added to
    the nearest group of 2, then a pair whose two are not near each other split into groups of 2 nearby (rule 5)."""
    seats = seats_of(pool)
    groups = [list(pair) for pair in _mixed_pairs(pool, seats)]
    taken = {a for group in groups for a in group}
    for a, b in _ordered(pool, seats, mixed=False):
        if a not in taken and b not in taken:
            groups.append([a, b])
            taken |= {a, b}
    alone = [a for a in range(len(pool)) if a not in taken]
    if alone and groups:
        (single,) = alone  # every pool of 2 or more leaves at most one out
        min(groups, key=lambda g: (seats.apart[single, g].max(), min(pool[a].id for a in g))).append(single)
    elif alone:
        groups.append(alone)  # a pool of one: the caller merges it first, so only a room of one voter gets here
    for group in [g for g in groups if len(g) == 2 and not seats.near(*g)]:
        if len(group) != 2 or not any(g is group for g in groups):  # a home took one of them, or a third joined
            continue
        homes = [_home(seats, member, [g for g in groups if g is not group]) for member in group]
        if homes[0] is not None and homes[1] is not None and homes[0] is not homes[1]:
            groups.remove(group)
            for member, home in zip(group, homes):
                home.append(member)
        else:
            _swap(pool, seats, group, groups)
    return groups


def _swap(pool: list[Voter], seats: Seats, group: list[int], groups: list[list[int]]) -> None:
    """A pair (a, b) whose two are not near each other trades partners with another pair (c, d) when (a, c), (b, d) or
    (a, d), (b, c) brings the farthest of the four closer to their partner, relative to their nearest classmate,
    without fewer mixed pairs; the best such trade, if any, in place."""

    def extra(x: int, y: int) -> float:  # the larger of the two's distance beyond their nearest classmate
        return max(seats.apart[x, y] - seats.nearest[x], seats.apart[x, y] - seats.nearest[y])

    def mixed(x: int, y: int) -> int:
        return int(pool[x].answer != pool[y].answer)

    a, b = group
    best, trade = 0.0, None
    for other in groups:
        if len(other) != 2 or other is group:
            continue
        c, d = other
        now = max(extra(a, b), extra(c, d))
        for first, second in (((a, c), (b, d)), ((a, d), (b, c))):
            gain = now - max(extra(*first), extra(*second))
            if gain > best + 1e-9 and mixed(*first) + mixed(*second) >= mixed(a, b) + mixed(c, d):
                best, trade = gain, (other, first, second)
    if trade is not None:
        other, first, second = trade
        group[:], other[:] = list(first), list(second)


def _home(seats: Seats, student: int, groups: list[list[int]]) -> list[int] | None:
    """The group of 2 whose members are all near ``student``, nearest by its farthest member (then first), or None."""
    homes = [g for g in groups if len(g) == 2 and all(seats.near(student, member) for member in g)]
    return min(homes, key=lambda g: seats.apart[student, g].max()) if homes else None


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
