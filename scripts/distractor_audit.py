"""The distractors of "one more like it", audited: 1,000 seeds of each kind (classroom/generators.py).

Per kind: the share of seeds with an option (and with two) outside the answer's possible range (the sum of a row's weights and one
weight in [0, 1], a cosine in [−1, 1]), the share with two options shown the same or one display unit apart (1.00 beside
1.01), and the share of distractors labelled with a named misconception. Run from the repository root:

    .venv/bin/python scripts/distractor_audit.py [--seeds 1000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from classroom.generators import KINDS, draw  # noqa: E402

RANGES = {"row_sum": (0.0, 1.0), "scale": (0.0, 1.0), "cosine": (-1.0, 1.0)}  # the answer's possible values


def hundredths(text: str) -> int:
    """"−0.55" -> −55: an option as shown, in display units."""
    return round(float(text.replace("−", "-")) * 100)


def audit(kind: str, seeds: int) -> dict[str, float]:
    """Shares (in %) of seeds with an option out of range, with neighbouring options; of distractors labelled."""
    outside = two_outside = neighbours = labelled = distractors = 0
    low, high = RANGES.get(kind, (None, None))
    for seed in range(seeds):
        instance = draw(kind, seed)
        wrong = [o for n, o in enumerate(instance.options) if n != instance.correct]
        distractors += len(wrong)
        labelled += sum(bool(getattr(o, "misconception", "")) for o in wrong)
        if instance.options[0].key != "number":
            continue
        shown = [hundredths(o.number) for o in instance.options]
        out = sum(not low * 100 <= x <= high * 100 for x in shown)
        outside += out >= 1
        two_outside += out >= 2
        neighbours += any(abs(a - b) <= 1 for i, a in enumerate(shown) for b in shown[i + 1:])
    return {"outside": 100 * outside / seeds, "two_outside": 100 * two_outside / seeds, "neighbours": 100 * neighbours / seeds,
            "labelled": 100 * labelled / distractors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    seeds = parser.parse_args().seeds
    print(f"{'kind':<12} {'out of range':>13} {'two out':>8} {'neighbours':>11} {'labelled':>9}   ({seeds} seeds each)")
    for kind in KINDS:
        found = audit(kind, seeds)
        print(f"{kind:<12} {found['outside']:>12.1f}% {found['two_outside']:>7.1f}% {found['neighbours']:>10.1f}% {found['labelled']:>8.1f}%")


if __name__ == "__main__":
    main()
