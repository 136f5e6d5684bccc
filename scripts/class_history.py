"""A class history to read the question statistics on: 6 classes of 30 students each, through the store.

Each class: a concept check of three items before the lesson (the upper third, students 1–10, answer all three right;
the middle third two; the lower third one), then these questions (the counts are per class and per third, upper /
middle / lower; which student in a third gives which answer is drawn from a seeded generator):

=====  ======================  =========  ======================================================================
Q      item                    classes    round 1 (round 2)
=====  ======================  =========  ======================================================================
Q1     lesson.four_steps (B)   1–6        too easy: all right but one lower-third student (A in classes 1–3, C in 4–6)
Q2     concept.cosine (A)      1–6        A 8/5/2, B 2/3/5, C 0/2/3, D never chosen; round 2: 24 of 30 right
Q3     concept.scale (B)       1–6        A 3/5/4, B 4/1/1, C 2/3/3, D 1/1/2; round 2 in classes 1–4: 10 of 30 right
Q4     gen.cosine (drawn)      1–3        one more like Q2, answered alone: answer 9/7/4, "sign turned" 1/2/3,
                                          "square roots forgotten" 0/1/3 (0/1/2 in class 2, whose lower third
                                          chose "lengths as sums of sizes" once)
Q5     lesson.scaling (A)      5–6        A 3/5/7, B 4/3/2, C 3/2/1: the weaker third does better
=====  ======================  =========  ======================================================================

``make_history(engine)`` returns the teacher key; ``main()`` makes one in a fresh SQLite file (or ``--database``) and
prints each question's statistics. tests/test_core_history.py checks them by hand.

    .venv/bin/python scripts/class_history.py [--database sqlite:///path] [--lang en|zh]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from classroom import generators, store  # noqa: E402

STUDENTS = 30
CLASSES = 6
CHECK = (("concept.rows", 1), ("concept.row_sum", 3), ("concept.causal", 2))  # three items of the concept check
RIGHT_IN_CHECK = (3, 2, 1)  # items right in the check: upper, middle, lower third
DRAWN_SEEDS = (0, 4, 5)  # gen.cosine.<seed>.2: each offers "sign turned", "square roots forgotten", "sums of sizes"
DAY = 24 * 3600.0


def third_answers(rng: random.Random, counts: list[tuple[int, int, int]], options: tuple[int, ...]) -> list[int]:
    """Thirty answers, students in order: ``counts[i]`` says how many of the upper / middle / lower third chose
    ``options[i]``; within a third, who chose what is shuffled."""
    out = []
    for third in range(3):
        chosen = [option for option, count in zip(options, counts) for _ in range(count[third])]
        assert len(chosen) == STUDENTS // 3, (counts, third)
        rng.shuffle(chosen)
        out.extend(chosen)
    return out


def ask(engine, code: str, key: str, students: list[int], item: str, options: int, correct: int, first: list[int],
        second: list[int] | None, now: float, follows: int | None = None) -> int:
    """One question through the store: opened, answered, closed; round 2 (paired) and answered if ``second``; revealed."""
    question = store.open_question(engine, code, key, item, options, correct, now=now, follows=follows)
    for student, choice in zip(students, first):
        store.answer(engine, question, student, choice, now=now + 30, round=1)
    store.close_question(engine, code, key, question, now=now + 60)
    if second is not None:
        store.open_round_two(engine, code, key, question, now=now + 70)
        for student, choice in zip(students, second):
            store.answer(engine, question, student, choice, now=now + 120, round=2)
        store.close_question(engine, code, key, question, now=now + 150)
    store.reveal_question(engine, code, key, question, now=now + 160)
    return question


def make_history(engine, began: float | None = None, seed: int = 45) -> str:
    """The 6 classes (one a day, the newest yesterday), started with one teacher key; returns the key."""
    rng = random.Random(seed)
    began = time.time() - (CLASSES + 1) * DAY if began is None else began
    key = None
    for c in range(CLASSES):
        now = began + c * DAY
        code, key = store.start_class(engine, key=key, now=now)
        students = [store.join(engine, code, store.new_seat(), now=now + 1)[1] for _ in range(STUDENTS)]
        checks = [store.open_question(engine, code, key, item, 4, correct, phase="before", now=now + 2) for item, correct in CHECK]
        for n, student in enumerate(students):
            right = RIGHT_IN_CHECK[n // 10]
            for i, ((_, correct), question) in enumerate(zip(CHECK, checks)):
                store.answer(engine, question, student, correct if i < right else (correct + 1) % 4, now=now + 3)
        for question in checks:
            store.close_question(engine, code, key, question, now=now + 4)
        t = now + 600
        wrong = 0 if c < 3 else 2  # Q1's one wrong answer: A in classes 1–3, C in 4–6
        ask(engine, code, key, students, "lesson.four_steps", 3, 1,
            third_answers(rng, [(10, 10, 9), (0, 0, 1)], (1, wrong)), None, t)
        q2 = ask(engine, code, key, students, "concept.cosine", 4, 0,
                 third_answers(rng, [(8, 5, 2), (2, 3, 5), (0, 2, 3)], (0, 1, 2)),
                 third_answers(rng, [(10, 8, 6), (0, 2, 2), (0, 0, 2)], (0, 1, 2)), t + 300)
        ask(engine, code, key, students, "concept.scale", 4, 1,
            third_answers(rng, [(3, 5, 4), (4, 1, 1), (2, 3, 3), (1, 1, 2)], (0, 1, 2, 3)),
            third_answers(rng, [(6, 2, 2), (4, 5, 4), (0, 3, 4)], (1, 0, 2)) if c < 4 else None, t + 600)
        if c < 3:
            drawn = generators.draw("cosine", DRAWN_SEEDS[c])
            at = {o.misconception: n for n, o in enumerate(drawn.options)}
            at[""] = drawn.correct
            plan = [(9, 7, 4), (1, 2, 3), (0, 1, 3), (0, 0, 0)] if c != 1 else [(9, 7, 4), (1, 2, 3), (0, 1, 2), (0, 0, 1)]
            names = ("", "opposite", "squared_lengths", "city_block")
            ask(engine, code, key, students, drawn.item, len(drawn.options), drawn.correct,
                third_answers(rng, plan, tuple(at[name] for name in names)), None, t + 900, follows=q2)
        if c >= 4:
            ask(engine, code, key, students, "lesson.scaling", 3, 0,
                third_answers(rng, [(3, 5, 7), (4, 3, 2), (3, 2, 1)], (0, 1, 2)), None, t + 1200)
        store.end_class(engine, code, key, now=now + 3000)
    return key


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="an SQLAlchemy URL (default: a new SQLite file in a temporary folder)")
    parser.add_argument("--lang", default="en")
    options = parser.parse_args()
    from attention_plot.text import Texts
    from classroom import history
    from views.live.history import index, names, percent, says, shares

    url = options.database or f"sqlite:///{tempfile.mkdtemp(prefix='class-history-')}/live-class.sqlite3"
    engine = store.connect(url)
    key = make_history(engine)
    kept = history.read(engine, key)
    asked, scores = history.asked_of(kept)
    T = Texts(options.lang)
    named = names(T, kept)
    print(f"{len(store.teacher_classes(engine, key))} classes in {url}; teacher key {key}")
    for n, stat in enumerate(history.statistics(asked, scores), start=1):
        print(f"\nQ{n} {stat.question}: {stat.classes} classes, N = {stat.answers}, R = {stat.right}, F = {percent(stat.facility)}, "
              f"round 2 {percent(stat.facility_second)} in {len(stat.second)} classes (stuck in {stat.stuck}), "
              f"D = {index(stat.discrimination)} (upper {stat.upper[0]}/{stat.upper[1]}, lower {stat.lower[0]}/{stat.lower[1]})")
        print(f"   {shares(T, stat, named[stat.question])}")
        print(f"   {says(T, stat, named[stat.question])}")


if __name__ == "__main__":
    main()
