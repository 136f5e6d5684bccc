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

from attention_core.tiny import Params, TinyConfig, adam, adam_state, forward, gradients, init_tiny, loss


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


@dataclass(frozen=True)
class Run:
    """A training run watched every few steps: held-out loss and accuracy, every head's attention on one probe
    sequence, and every head's closeness to its layer's ideal pattern (NaN where the task names none)."""

    steps: NDArray  # (S,) the steps at which the run was watched
    loss: NDArray  # (S,) mean cross-entropy on a held-out batch
    accuracy: NDArray  # (S,) next-token accuracy on the rows the task's answering pattern scores
    weights: NDArray  # (S, layers, H, n, n) attention on the probe
    closeness: NDArray  # (S, layers, H) mean over the held-out batch
    probe: NDArray  # (n + 1,) the probe sequence


def _watch(task: Task, params: Params, held_out: NDArray, ideals: list[tuple[NDArray, ...]]) -> tuple[float, float, NDArray, NDArray]:
    trace = forward(params, held_out[:, :-1])
    layers, heads = len(trace.layers), params.config.heads
    rows = np.stack([ideal[0].sum(axis=1) > 0 for ideal in ideals])
    accuracy = float((trace.logits.argmax(axis=-1) == held_out[:, 1:])[rows].mean())
    near = np.full((layers, heads), np.nan)
    for layer in range(layers):
        which = layers - 1 - layer  # the task's patterns are listed from the last layer down
        if which < len(ideals[0]):
            for head in range(heads):
                near[layer, head] = np.mean([closeness(trace.layers[layer].weights[b, head], ideal[which])
                                             for b, ideal in enumerate(ideals)])
    weights = np.stack([layer.weights[0] for layer in trace.layers])  # the probe is the held-out batch's first sequence
    return loss(params, held_out), accuracy, weights, near


def train(task: Task, config: TinyConfig, steps: int, *, every: int = 25, lr: float = 1e-2, batch: int = 32, seed: int = 0):
    """Train a tiny transformer on ``task`` with Adam for ``steps`` steps (deterministic for a seed); watch it every
    ``every`` steps. Returns (final parameters, Run)."""
    rng = np.random.default_rng(seed)
    held_out = task.batch(np.random.default_rng(seed + 10_000), 64)
    ideals = [task.ideal(sequence) for sequence in held_out]
    params = init_tiny(config, seed)
    state = adam_state(params)
    watched = []
    for step in range(steps + 1):
        if step % every == 0 or step == steps:
            watched.append((step, *_watch(task, params, held_out, ideals)))
        if step < steps:
            params, state = adam(params, gradients(params, task.batch(rng, batch)), state, lr=lr)
    columns = list(zip(*watched))
    return params, Run(np.array(columns[0]), np.array(columns[1]), np.array(columns[2]), np.stack(columns[3]),
                       np.stack(columns[4]), held_out[0])
