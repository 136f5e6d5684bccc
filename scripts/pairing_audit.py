"""Pairing for "discuss and vote again", measured on random rooms against a random "turn to your neighbour".

160 rooms (seeded): a hall of 4–20 rows × 6–30 seats, 8–300 students seated at random, 2–4 options with shares drawn
per room (some rooms agree, some split). For every seated student:

- far: their partner (the farthest one in a group of 3) sits more than 4 seats (Euclidean, rows and seats) farther than
  their nearest classmate;
- mixed: their group's first answers differ.

The baseline is the room turning to its neighbours: students in a random order, each one not yet paired turns to the
nearest classmate not yet paired (an odd one out joins the last pair). Printed: each rate over every seated student of
the 160 rooms, the worst pair, and the time to pair 300 students (the median of 20). Run from the repository root:

    .venv/bin/python scripts/pairing_audit.py [--rooms 160]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from classroom.pairing import Voter, pair  # noqa: E402

FAR = 4.0  # seats farther than the nearest classmate


def room(rng: random.Random) -> list[Voter]:
    """A random room: every student seated, answers drawn from shares drawn for the room."""
    rows, seats = rng.randint(4, 20), rng.randint(6, 30)
    students = rng.randint(8, min(300, rows * seats))
    places = rng.sample([(r, s) for r in range(1, rows + 1) for s in range(1, seats + 1)], students)
    options = rng.randint(2, 4)
    weights = [rng.random() ** 2 for _ in range(options)]
    return [Voter(i, place, rng.choices(range(options), weights)[0]) for i, place in enumerate(places)]


def distance(a: tuple[int, int], b: tuple[int, int]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def neighbours(voters: list[Voter], rng: random.Random) -> list[tuple[int, ...]]:
    """A random "turn to your neighbour": in a random order, each student still alone pairs with the nearest one still
    alone; an odd one out joins the last pair."""
    where = {v.id: v.place for v in voters}
    alone = set(where)
    groups: list[list[int]] = []
    for student in rng.sample(sorted(where), len(where)):
        if student not in alone or len(alone) == 1:
            continue
        alone.discard(student)
        other = min(alone, key=lambda o: (distance(where[student], where[o]), o))
        alone.discard(other)
        groups.append([student, other])
    if alone:
        groups[-1].append(alone.pop())
    return [tuple(g) for g in groups]


def rates(voters: list[Voter], groups: list[tuple[int, ...]]) -> tuple[int, int, float]:
    """(students far from their partner, students in a mixed group, the largest partner distance minus nearest)."""
    where = {v.id: v.place for v in voters}
    answer = {v.id: v.answer for v in voters}
    far = mixed = 0
    worst = 0.0
    for group in groups:
        differ = len({answer[m] for m in group}) > 1
        for member in group:
            nearest = min(distance(where[member], where[o]) for o in where if o != member)
            partner = max(distance(where[member], where[o]) for o in group if o != member)
            far += partner > nearest + FAR
            mixed += differ
            worst = max(worst, partner - nearest)
    return far, mixed, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=160)
    count = parser.parse_args().rooms
    rng = random.Random(2025)
    totals = {"pairing": [0, 0, 0.0], "neighbours": [0, 0, 0.0]}
    students = 0
    for _ in range(count):
        voters = room(rng)
        students += len(voters)
        for name, groups in (("pairing", [g.members for g in pair(voters)]), ("neighbours", neighbours(voters, rng))):
            far, mixed, worst = rates(voters, groups)
            totals[name][0] += far
            totals[name][1] += mixed
            totals[name][2] = max(totals[name][2], worst)
    print(f"{count} rooms, {students} seated students")
    print(f"{'':<28} {'far':>6} {'mixed':>7} {'worst (seats beyond the nearest)':>34}")
    for name, label in (("pairing", "pairing (classroom.pairing)"), ("neighbours", "random turn to your neighbour")):
        far, mixed, worst = totals[name]
        print(f"{label:<28} {100 * far / students:>5.1f}% {100 * mixed / students:>6.1f}% {worst:>34.1f}")
    hall = random.Random(300)
    big = [Voter(i, (hall.randint(1, 15), hall.randint(1, 20)), hall.randrange(4)) for i in range(300)]
    pair(big)
    times = []
    for _ in range(20):
        began = time.perf_counter()
        pair(big)
        times.append(time.perf_counter() - began)
    print(f"300 students paired in {1000 * statistics.median(times):.1f} ms (median of 20)")


if __name__ == "__main__":
    main()
