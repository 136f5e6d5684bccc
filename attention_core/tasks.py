"""Tasks whose right attention is known, for the tiny transformer: sequences, and for each position the key a head
solving the task should attend to (its ideal pattern), and how close a head's weights are to it.

A batch is (count, length + 1) token ids; position i predicts token i + 1. ``ideal(sequence)`` is (n, n) with
n = length: row i is the attention that finds token i + 1 (rows without a known answer are all zero and not scored).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class Task:
    """A named task: vocabulary (the last id is the separator where one is used), how to draw sequences, the ideal
    attention of each layer's solving head (one pattern per layer, the last layer's first), and a one-line idea."""

    name: str
    vocab: int
    length: int  # n: the positions a model sees (a sequence has length + 1 tokens)
    draw: Callable[[np.random.Generator, int], NDArray]  # (rng, count) -> (count, length + 1) ids
    ideal: Callable[[NDArray], tuple[NDArray, ...]]  # one sequence (length + 1,) -> patterns (n, n), per layer

    def batch(self, rng: np.random.Generator, count: int) -> NDArray:
        return self.draw(rng, count)


def _pattern(n: int, targets: dict[int, int | list[int]]) -> NDArray:
    """Rows i -> spread evenly over targets[i] (keys at or before i); other rows zero."""
    pattern = np.zeros((n, n))
    for row, keys in targets.items():
        keys = [k for k in ([keys] if isinstance(keys, int) else keys) if 0 <= k <= row < n]
        if keys:
            pattern[row, keys] = 1.0 / len(keys)
    return pattern


def copy_offset(vocab: int = 8, length: int = 12, period: int = 2) -> Task:
    """Sequences repeating with a period: token i + 1 equals tokens i + 1 - period, i + 1 - 2 period, ...: the ideal
    head attends to those earlier copies (any of them answers)."""

    def draw(rng: np.random.Generator, count: int) -> NDArray:
        start = rng.integers(0, vocab, (count, period))
        return np.tile(start, (1, (length + 1) // period + 1))[:, : length + 1]

    def ideal(sequence: NDArray) -> tuple[NDArray, ...]:
        return (_pattern(length, {i: list(range(i + 1 - period, -1, -period)) for i in range(period - 1, length)}),)

    return Task(f"copy-{period}", vocab, length, draw, ideal)


def reverse(vocab: int = 9, half: int = 5) -> Task:
    """a b c SEP c b a: after the separator, token i + 1 sits at 2 * half - 1 - i (the anti-diagonal)."""
    separator, length = vocab - 1, 2 * half

    def draw(rng: np.random.Generator, count: int) -> NDArray:
        first = rng.integers(0, separator, (count, half))
        return np.concatenate([first, np.full((count, 1), separator), first[:, ::-1]], axis=1)

    def ideal(sequence: NDArray) -> tuple[NDArray, ...]:
        return (_pattern(length, {i: 2 * half - 1 - i for i in range(half, length)}),)

    return Task("reverse", vocab, length, draw, ideal)


def sort(vocab: int = 11, half: int = 5) -> Task:
    """Distinct symbols, SEP, the same symbols sorted: the next one is the smallest symbol larger than the current."""
    separator, length = vocab - 1, 2 * half

    def draw(rng: np.random.Generator, count: int) -> NDArray:
        first = np.stack([rng.choice(separator, half, replace=False) for _ in range(count)])
        return np.concatenate([first, np.full((count, 1), separator), np.sort(first, axis=1)], axis=1)

    def ideal(sequence: NDArray) -> tuple[NDArray, ...]:
        first = sequence[:half]
        targets = {}
        for i in range(half, length):
            current = -1 if i == half else sequence[i]  # at the separator: the smallest of all
            larger = [j for j in range(half) if first[j] > current]
            if larger:
                targets[i] = min(larger, key=lambda j: first[j])
        return (_pattern(length, targets),)

    return Task("sort", vocab, length, draw, ideal)


def induction(vocab: int = 12, length: int = 15) -> Task:
    """Random tokens in which a run of random length appears twice, at a random place: in the second copy, token i + 1
    follows the earlier occurrence of token i ("... A B ... A -> B"). Length and place vary, so no fixed position
    answers; two heads do: a previous-token head (layer 1) and an induction head (layer 2) that finds the key after
    the earlier A. The tokens of a run are distinct, and differ from the tokens outside it, so each A is unambiguous."""
    shortest = 3

    def draw(rng: np.random.Generator, count: int) -> NDArray:
        rows = []
        for _ in range(count):
            run = int(rng.integers(shortest, (length + 1) // 2 + 1))
            symbols = rng.permutation(vocab)
            segment, filler = symbols[:run], symbols[run:]
            gap = length + 1 - 2 * run
            start = int(rng.integers(0, gap + 1))
            between = int(rng.integers(0, gap - start + 1))
            outside = rng.choice(filler, gap)
            rows.append(np.concatenate([outside[:start], segment, outside[start:start + between], segment, outside[start + between:]]))
        return np.stack(rows)

    def ideal(sequence: NDArray) -> tuple[NDArray, ...]:
        induction_head, n = {}, length
        for i in range(1, n):
            earlier = [j for j in range(i) if sequence[j] == sequence[i]]
            if earlier and earlier[-1] + 1 < i and sequence[earlier[-1] + 1] == sequence[i + 1]:
                induction_head[i] = earlier[-1] + 1
        previous_token = _pattern(n, {i: i - 1 for i in range(1, n)})
        return _pattern(n, induction_head), previous_token

    return Task("induction", vocab, length, draw, ideal)


TASKS: dict[str, Callable[[], Task]] = {"copy": copy_offset, "reverse": reverse, "sort": sort, "induction": induction}


def closeness(weights: NDArray, ideal: NDArray) -> float:
    """How much of a head's attention (n, n) falls on the keys the ideal pattern names: the mean, over the rows the
    ideal scores, of the weight on those keys. 1 when all of it does; (keys named)/(i + 1) when the head is uniform."""
    rows = ideal.sum(axis=1) > 0
    if not rows.any():
        raise ValueError("the ideal pattern scores no row")
    return float((weights[rows] * (ideal[rows] > 0)).sum(axis=1).mean())
