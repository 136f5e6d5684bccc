"""The room's answers as numbers a projector shows: whole percents that add up to 100, the normalised gain.

Plain arithmetic on counts and means (no database, no Streamlit), so the tests check it by hand and by property.
"""

from __future__ import annotations


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


def normalised_gain(scores: list[tuple[str, float | None, float | None]]) -> float | None:
    """⟨g⟩ = (post − pre) / (100 − pre) on the class's mean % correct over the items given both times."""
    both = [(before, after) for _, before, after in scores if before is not None and after is not None]
    if not both:
        return None
    pre = sum(b for b, _ in both) / len(both)
    post = sum(a for _, a in both) / len(both)
    return None if pre >= 100 else (post - pre) / (100 - pre)
