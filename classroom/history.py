"""The class learns from its own history: each question's statistics over the classes a teacher kept.

Moodle's quiz statistics (classical test theory; Moodle 1.9's item analysis) are the model, computed on round 1 (each
student's own answer, before any discussion) and pooled over every class that asked the question:

- facility index ``F = R / N``: of the ``N`` round-1 answers, the share ``R / N`` that were right.
- discrimination index ``D = R_U / N_U − R_L / N_L``: in each class the students with a concept-check score (the share
  right over every concept item they answered, before and after the lesson) are ranked, best first, ties by student
  number; the upper third are the first ⌊n / 3⌋ of the ``n`` ranked, the lower third the last ⌊n / 3⌋. ``N_U`` students
  of the upper thirds answered the question and ``R_U`` of them were right (likewise ``N_L``, ``R_L``), summed over the
  classes. When every student answers and the thirds are equally large, this is Moodle's ``(X_top − X_bottom) / N``.
  D lies in [−1, 1]; below 0 the weaker third did better than the stronger.
- each option's share: the round-1 answers that chose it over ``N``, and in how many of the classes that offered it
  nobody chose it.
- after discussion: each class that voted again is *stuck* when fewer than half were right in round 2.

A question is the same across classes when its key is (``question_key``): a lesson's or the concept check's item, a
walkthrough question on the same words, a drawn question's kind (its options keyed by their misconceptions, so that
"forgot to scale" is one distractor whatever the seed). Pure: plain values in, frozen dataclasses out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from classroom import generators, store

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
TOO_EASY = 0.9  # F at or above: skip the discussion
DISCUSS = (0.3, 0.7)  # F where discussing pays (Crouch and Mazur 2001; classroom.tally.DISCUSS_BAND)
WEAK = 0.2  # D below: the question hardly tells the stronger third from the weaker (Ebel and Frisbie 1991)
FEW = 10  # round-1 answers below which nothing is judged
STUCK = 0.5  # round 2's share right below which a class is stuck after discussing
STUCK_CLASSES = 2  # stuck in at least this many classes (and in half of those that voted again): flagged
ANSWER = "answer"  # a drawn question's right option (its place changes with the seed)


@dataclass(frozen=True)
class Asked:
    """One class's answers to one question: the class, the question's key, the options offered (keys, in order), the
    right one's key, and each round's answers as (student, option key)."""

    classroom: str
    question: str
    options: tuple[str, ...]
    correct: str
    first: tuple[tuple[int, str], ...]
    second: tuple[tuple[int, str], ...] = ()  # empty: no round 2 in this class


@dataclass(frozen=True)
class Share:
    """One option over every class: round-1 answers that chose it, their share of N (None when N = 0), the classes that
    offered it and those of them where nobody chose it."""

    option: str
    right: bool
    chosen: int
    share: float | None
    offered: int
    unchosen: int


@dataclass(frozen=True)
class Finding:
    """One plain sentence about a question: its text's name (``history.findings.<name>``) and the values it states."""

    name: str
    values: tuple[tuple[str, object], ...] = ()

    def of(self, name: str) -> object:
        return dict(self.values)[name]


@dataclass(frozen=True)
class Statistics:
    """A question over the classes that asked it (see the module's docstring for each formula)."""

    question: str
    classes: int  # classes with a round-1 answer
    answers: int  # N
    right: int  # R
    facility: float | None  # F = R / N
    upper: tuple[int, int]  # (R_U, N_U)
    lower: tuple[int, int]  # (R_L, N_L)
    discrimination: float | None  # D = R_U / N_U − R_L / N_L (None without both thirds)
    options: tuple[Share, ...]  # the options in the order first offered
    second: tuple[tuple[str, int, int], ...]  # per class that voted again: (class, right, answers) in round 2
    stuck: int  # classes whose round 2 stayed below STUCK
    findings: tuple[Finding, ...]

    @property
    def facility_second(self) -> float | None:
        """Round 2's share right over the classes that voted again."""
        answers = sum(n for _, _, n in self.second)
        return sum(r for _, r, _ in self.second) / answers if answers else None

    @property
    def flagged(self) -> bool:
        """The room keeps getting it wrong after discussion."""
        return any(f.name == "stuck" for f in self.findings)


def thirds(scores: Mapping[int, float]) -> tuple[frozenset[int], frozenset[int]]:
    """(upper, lower) thirds of one class's students by score: ranked best first, ties by student number; each third
    holds ⌊n / 3⌋ students (none below 3)."""
    ranked = sorted(scores, key=lambda student: (-scores[student], student))
    size = len(ranked) // 3
    return frozenset(ranked[:size]), frozenset(ranked[len(ranked) - size:] if size else ())


def concept_scores(answers: Iterable[tuple[str, int, bool]]) -> dict[tuple[str, int], float]:
    """Each student's concept-check score from (class, student, right) per concept answer: right / answered."""
    counts: dict[tuple[str, int], list[int]] = {}
    for classroom, student, right in answers:
        cell = counts.setdefault((classroom, student), [0, 0])
        cell[0] += bool(right)
        cell[1] += 1
    return {who: right / answered for who, (right, answered) in counts.items()}


def statistics(asked: Sequence[Asked], scores: Mapping[tuple[str, int], float]) -> tuple[Statistics, ...]:
    """Each question's statistics over the classes that asked it, in the order first asked.

    Parameters
    ----------
    asked : one entry per class and question (a class that asked a question twice has two entries).
    scores : each (class, student)'s concept-check score in [0, 1]; students without one are in neither third.
    """
    by_class: dict[str, dict[int, float]] = {}
    for (classroom, student), score in scores.items():
        by_class.setdefault(classroom, {})[student] = score
    split = {classroom: thirds(of) for classroom, of in by_class.items()}
    order = list(dict.fromkeys(a.question for a in asked))
    return tuple(_one(question, [a for a in asked if a.question == question], split) for question in order)


def _one(question: str, asked: list[Asked], split: Mapping[str, tuple[frozenset[int], frozenset[int]]]) -> Statistics:
    options = list(dict.fromkeys(option for a in asked for option in a.options))
    chosen = dict.fromkeys(options, 0)
    offered: dict[str, set[str]] = {option: set() for option in options}
    picked: dict[str, set[str]] = {option: set() for option in options}
    rights = {a.correct for a in asked}
    right = answers = upper_right = upper_n = lower_right = lower_n = 0
    classes = set()
    for a in asked:
        upper, lower = split.get(a.classroom, (frozenset(), frozenset()))
        for option in a.options:
            offered[option].add(a.classroom)
        for student, option in a.first:
            classes.add(a.classroom)
            answers += 1
            chosen[option] += 1
            picked[option].add(a.classroom)
            is_right = option == a.correct
            right += is_right
            if student in upper:
                upper_n, upper_right = upper_n + 1, upper_right + is_right
            elif student in lower:
                lower_n, lower_right = lower_n + 1, lower_right + is_right
    second = tuple((a.classroom, sum(option == a.correct for _, option in a.second), len(a.second)) for a in asked if a.second)
    stuck = sum(r < STUCK * n for _, r, n in second)
    facility = right / answers if answers else None
    discrimination = upper_right / upper_n - lower_right / lower_n if upper_n and lower_n else None
    shares = tuple(Share(option, option in rights, chosen[option], chosen[option] / answers if answers else None,
                         len(offered[option] & classes), len((offered[option] & classes) - picked[option])) for option in options)
    findings = _findings(answers, facility, discrimination, shares, len(second), stuck)
    return Statistics(question, len(classes), answers, right, facility, (upper_right, upper_n), (lower_right, lower_n),
                      discrimination, shares, second, stuck, findings)


def _findings(answers: int, facility: float | None, discrimination: float | None, shares: tuple[Share, ...],
              voted_again: int, stuck: int) -> tuple[Finding, ...]:
    """The plain sentences, most important first: too few answers; stuck after discussion; the facility's band; a
    negative or weak discrimination; each distractor nobody chose in any class that offered it."""
    if answers < FEW or facility is None:
        return (Finding("few", (("answers", answers),)),)
    found = []
    if stuck >= STUCK_CLASSES and 2 * stuck >= voted_again:
        found.append(Finding("stuck", (("stuck", stuck), ("classes", voted_again))))
    percent = ("percent", 100 * facility)
    band = ("too_easy" if facility >= TOO_EASY else "too_hard" if facility < DISCUSS[0] else "discuss" if facility <= DISCUSS[1]
            else "easy")
    found.append(Finding(band, (percent,)))
    if discrimination is not None and discrimination < 0:
        found.append(Finding("negative", (("index", discrimination),)))
    elif discrimination is not None and discrimination < WEAK and band != "too_easy":
        found.append(Finding("weak", (("index", discrimination),)))
    for share in shares:
        if not share.right and share.offered and share.unchosen == share.offered:
            found.append(Finding("unchosen", (("option", share.option), ("classes", share.offered))))
    return tuple(found)


# --- From the store's rows ---


def question_key(item: str, labels: Sequence[str] = ()) -> str:
    """The key a question has in every class that asked it: a drawn question's kind (``gen.<kind>``), a walkthrough
    question with its words (``walk.<setting>.<focus>:<labels>``), else the item id."""
    if item.startswith("gen."):
        return ".".join(item.split(".")[:2])
    if item.startswith("walk."):
        return f"{item}:{'|'.join(labels)}"
    return item


def option_keys(item: str, options: int, correct: int) -> tuple[tuple[str, ...], str]:
    """(each option's key, the right one's key): a drawn question's options by their misconceptions (its answer
    ``ANSWER``, an option without one by its letter), any other question's by their letters A, B, C …"""
    instance = generators.parse(item) if item.startswith("gen.") else None
    if instance is not None and len(instance.options) == options:
        keys = tuple(ANSWER if n == instance.correct else o.misconception or LETTERS[n] for n, o in enumerate(instance.options))
        return keys, ANSWER
    keys = tuple(LETTERS[n] if n < len(LETTERS) else str(n + 1) for n in range(options))
    return keys, keys[correct]


@dataclass(frozen=True)
class Kept:
    """A question as the store kept it, with its answers (student, round, choice), for ``asked_of``."""

    classroom: str
    item: str
    phase: str
    options: int
    correct: int
    labels: tuple[str, ...]
    answers: tuple[tuple[int, int, int], ...]


def asked_of(kept: Iterable[Kept]) -> tuple[list[Asked], dict[tuple[str, int], float]]:
    """The store's questions as ``statistics`` reads them: the questions asked (a concept check's items left out) and
    every student's concept-check score (from the items given before or after)."""
    asked, concept = [], []
    for question in kept:
        if question.phase:
            concept.extend((question.classroom, student, choice == question.correct)
                           for student, round_, choice in question.answers if round_ == 1)
            continue
        keys, correct = option_keys(question.item, question.options, question.correct)
        rounds = {r: tuple((student, keys[choice]) for student, round_, choice in question.answers if round_ == r and choice < len(keys))
                  for r in (1, 2)}
        asked.append(Asked(question.classroom, question_key(question.item, question.labels), keys, correct, rounds[1], rounds[2]))
    return asked, concept_scores(concept)


def read(engine, key: str, most: int = 50) -> list[Kept]:
    """Every question of the (newest ``most``) classes started with this teacher key, with its answers, from the store
    (nobody named: a student is a number within the class)."""
    kept = []
    for found in reversed(store.teacher_classes(engine, key)[:most]):  # the oldest first: questions in the order first asked
        rows: dict[int, list[tuple[int, int, int]]] = {}
        for row in store.export_rows(engine, found.code, key):
            rows.setdefault(int(row["question"]), []).append((int(row["student"]), int(row["round"]), int(row["answer"]) - 1))
        for question in store.open_questions(engine, found.id):
            kept.append(Kept(found.code, question.item, question.phase, question.options, question.correct, question.labels,
                             tuple(rows.get(question.id, ()))))
    return kept
