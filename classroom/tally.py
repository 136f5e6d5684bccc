"""The room's answers as numbers a projector and a report show: whole percents that add up to 100, the share right, the
advice after a first vote, the shift between two votes, the normalised gain and, beside it, the losses and the gains.

Plain arithmetic on counts (no database, no Streamlit), so the tests check it by hand and by property.
"""

from __future__ import annotations

from dataclasses import dataclass

DISCUSS_BAND = (30.0, 70.0)  # % right on the first vote where discussing pays (Crouch and Mazur 2001)


def whole_percents(counts: list[int]) -> list[int]:
    """Each count's share in whole percents that add up to 100 (largest remainder: 1, 1, 1 → 34, 33, 33, not 33 × 3)."""
    total = sum(counts)
    if not total:
        return [0] * len(counts)
    exact = [100 * c / total for c in counts]
    shown = [int(e) for e in exact]
    for i in sorted(range(len(counts)), key=lambda i: (shown[i] - exact[i], i))[:100 - sum(shown)]:
        shown[i] += 1
    return shown


def percent_right(counts: list[int], correct: int) -> float | None:
    """100 · counts[correct] / Σ counts: the share who chose the correct option (None when nobody answered)."""
    total = sum(counts)
    return 100 * counts[correct] / total if total else None


def advice(percent: float | None, band: tuple[float, float] = DISCUSS_BAND) -> str:
    """What the first vote suggests: "explain" below the band (too few right to convince their neighbours), "discuss"
    inside it (30 % ≤ p ≤ 70 %), "move_on" above it; "none" when nobody answered."""
    if percent is None:
        return "none"
    return "explain" if percent < band[0] else "move_on" if percent > band[1] else "discuss"


def shift_table(moves: dict[tuple[int, int], int], options: int) -> list[list[int]]:  # -> [options, options]
    """Row a, column b: how many students answered a in round 1 and b in round 2 (only those who voted both times)."""
    return [[moves.get((a, b), 0) for b in range(options)] for a in range(options)]


def gain(pre: float | None, post: float | None) -> float | None:
    """Hake's normalised gain g = (post − pre) / (100 − pre) of two percentages (None without both, or at pre = 100)."""
    if pre is None or post is None or pre >= 100:
        return None
    return (post - pre) / (100 - pre)


def normalised_gain(scores: list[tuple[str, float | None, float | None]]) -> float | None:
    """⟨g⟩ = (post − pre) / (100 − pre) on the class's mean % correct over the items given both times."""
    both = [(before, after) for _, before, after in scores if before is not None and after is not None]
    if not both:
        return None
    pre = sum(b for b, _ in both) / len(both)
    post = sum(a for _, a in both) / len(both)
    return gain(pre, post)


@dataclass(frozen=True)
class Changes:
    """The students who answered an item before and after: right both times, right → wrong (losses), wrong → right
    (gains), wrong both times."""

    kept: int
    lost: int
    gained: int
    missed: int

    @property
    def students(self) -> int:
        return self.kept + self.lost + self.gained + self.missed

    def share(self, count: int) -> float | None:
        """count as a % of the students who answered both times (None when none did)."""
        return 100 * count / self.students if self.students else None


def changes(moved: dict[tuple[bool, bool], int]) -> Changes:
    """{(right before, right after): students} → Changes."""
    return Changes(moved.get((True, True), 0), moved.get((True, False), 0), moved.get((False, True), 0), moved.get((False, False), 0))


def total_changes(items: list[Changes]) -> Changes:
    """Every item's changes added up: each student counted once per item they answered both times."""
    return Changes(*(sum(getattr(c, name) for c in items) for name in ("kept", "lost", "gained", "missed")))
