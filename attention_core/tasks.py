"""Tasks whose right attention is known, for the tiny transformer: sequences, and for each position the key a head
solving the task should attend to (its ideal pattern), and how close a head's weights are to it.

A batch is (count, length + 1) token ids; position i predicts token i + 1. ``ideal(sequence)`` is (n, n) with
n = length: row i is the attention that finds token i + 1 (rows without a known answer are all zero and not scored).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import frozen
from attention_core.tiny import (
    AdamState,
    TinyConfig,
    TinyParameters,
    adam,
    adam_state,
    forward,
    gradients,
    init_tiny,
    loss,
    score_gradient,
)

CORPUS = Path(__file__).resolve().parent.parent / "assets" / "corpus" / "attention.txt"  # the project's own text
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SEPARATOR = "|"


@dataclass(frozen=True)
class Task:
    """A named task: vocabulary (the last id is the separator where one is used), how to draw sequences, the ideal
    attention of each layer's solving head (one pattern per layer, the last layer's first), and a one-line idea."""

    name: str
    vocab: int
    length: int  # n: the positions a model sees (a sequence has length + 1 tokens)
    draw: Callable[[np.random.Generator, int], NDArray]  # (rng, count) -> (count, length + 1) ids
    ideal: Callable[[NDArray], tuple[NDArray, ...]]  # one sequence (length + 1,) -> patterns (n, n), per layer
    symbols: tuple[str, ...] = field(default=())  # how each id is written (one character each)

    def batch(self, rng: np.random.Generator, count: int) -> NDArray:
        """``count`` sequences drawn from ``rng``: token ids (count, length + 1), read-only."""
        return frozen(self.draw(rng, count))

    def normalise(self, text: str) -> str:
        """A prompt as the task reads it: letter tasks ignore case and spaces; the text task is lower case."""
        return text.lower() if self.name == "text" else "".join(text.split()).upper()

    def unknown(self, text: str) -> str | None:
        """The first character of the prompt, as typed, that is not one of the task's symbols once normalised, or None."""
        kept = text if self.name == "text" else "".join(text.split())
        return next((c for c in kept if self.normalise(c) not in self.symbols), None)

    def encode(self, text: str) -> NDArray:
        """Token ids of a prompt written in the task's symbols (see ``normalise``). ValueError naming the first
        character that is not a symbol."""
        bad = self.unknown(text)
        if bad is not None:
            raise ValueError(f"not in the alphabet: {bad!r}")
        index = {symbol: i for i, symbol in enumerate(self.symbols)}
        return frozen(np.array([index[c] for c in self.normalise(text)], dtype=np.int64))

    def decode(self, ids: NDArray) -> str:
        """The text of token ids (t,): each id's symbol, joined."""
        return "".join(self.symbols[int(i)] for i in ids)


def _pattern(n: int, targets: dict[int, int | list[int]]) -> NDArray:
    """(n, n): row i spread evenly over targets[i] (keys at or before i); other rows zero. Read-only."""
    pattern = np.zeros((n, n))
    for row, keys in targets.items():
        kept = [k for k in ([keys] if isinstance(keys, int) else keys) if 0 <= k <= row < n]
        if kept:
            pattern[row, kept] = 1.0 / len(kept)
    return frozen(pattern)


def copy_offset(vocab: int = 8, length: int = 12, period: int = 2) -> Task:
    """Sequences (length + 1,) repeating with a period: token i + 1 equals tokens i + 1 - period, i + 1 - 2 period, ...:
    the ideal head attends to those earlier copies (any of them answers)."""

    def draw(rng: np.random.Generator, count: int) -> NDArray:
        start = rng.integers(0, vocab, (count, period))
        return np.tile(start, (1, (length + 1) // period + 1))[:, : length + 1]

    def ideal(sequence: NDArray) -> tuple[NDArray, ...]:
        return (_pattern(length, {i: list(range(i + 1 - period, -1, -period)) for i in range(period - 1, length)}),)

    return Task(f"copy-{period}", vocab, length, draw, ideal, tuple(LETTERS[:vocab]))


def reverse(vocab: int = 9, half: int = 5) -> Task:
    """a b c SEP c b a, sequences of 2 half + 1 tokens: after the separator, token i + 1 sits at 2 half - 1 - i (the
    anti-diagonal of the ideal pattern (2 half, 2 half))."""
    separator, length = vocab - 1, 2 * half

    def draw(rng: np.random.Generator, count: int) -> NDArray:
        first = rng.integers(0, separator, (count, half))
        return np.concatenate([first, np.full((count, 1), separator), first[:, ::-1]], axis=1)

    def ideal(sequence: NDArray) -> tuple[NDArray, ...]:
        return (_pattern(length, {i: 2 * half - 1 - i for i in range(half, length)}),)

    return Task("reverse", vocab, length, draw, ideal, (*LETTERS[: vocab - 1], SEPARATOR))


def sort(vocab: int = 11, half: int = 5) -> Task:
    """Distinct symbols, SEP, the same symbols sorted (2 half + 1 tokens): the next one is the smallest symbol larger
    than the current, and the ideal head attends to where it stood in the first half."""
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

    return Task("sort", vocab, length, draw, ideal, (*"0123456789ABCDEFGHIJ"[: vocab - 1], SEPARATOR))


def induction(vocab: int = 12, length: int = 15) -> Task:
    """Random tokens in which a run of random length appears twice, at a random place: in the second copy, token i + 1
    follows the earlier occurrence of token i ("... A B ... A -> B"). Length and place vary, so no fixed position
    answers; two heads do: a previous-token head (layer 1) and an induction head (layer 2) that finds the key after
    the earlier A. Sequences (length + 1,), ideal patterns (length, length). The tokens of a run are distinct, and
    differ from the tokens outside it, so each A is unambiguous."""
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

    return Task("induction", vocab, length, draw, ideal, tuple(LETTERS[:vocab]))


def corpus_text(path: Path = CORPUS) -> str:
    """The project's own English text (assets/corpus/attention.txt), lines joined by spaces."""
    return " ".join(path.read_text(encoding="utf-8").split())


def characters(text: str | None = None, length: int = 24) -> Task:
    """Next-character prediction on ``text`` (the project's corpus by default): windows of length + 1 characters at
    random places. Ideal patterns (length, length): an induction head (layer 2) where the last two characters appeared together earlier
    (attend to the character that followed them the last time), and a previous-token head (layer 1)."""
    text = corpus_text() if text is None else text
    symbols = tuple(sorted(set(text)))
    ids = np.array([symbols.index(c) for c in text], dtype=np.int64)
    if ids.size < length + 2:
        raise ValueError("the text is shorter than one window")

    def draw(rng: np.random.Generator, count: int) -> NDArray:
        starts = rng.integers(0, ids.size - length, count)
        return np.stack([ids[s: s + length + 1] for s in starts])

    def ideal(sequence: NDArray) -> tuple[NDArray, ...]:
        induction_head, n = {}, length
        for i in range(1, n):
            earlier = [j for j in range(1, i) if sequence[j] == sequence[i] and sequence[j - 1] == sequence[i - 1]]
            if earlier:
                induction_head[i] = earlier[-1] + 1
        return _pattern(n, induction_head), _pattern(n, {i: i - 1 for i in range(1, n)})

    return Task("text", len(symbols), length, draw, ideal, symbols)


TASKS: dict[str, Callable[[], Task]] = {"copy": copy_offset, "reverse": reverse, "sort": sort, "induction": induction,
                                        "text": characters}


def closeness(weights: NDArray, ideal: NDArray) -> float:
    """How much of a head's attention (n, n) falls on the keys the ideal pattern (n, n) names: the mean, over the rows
    the ideal scores, of the weight on those keys, mean_i sum_j a_ij [ideal_ij > 0]. 1 when all of it does;
    (keys named)/(i + 1) when the head is uniform."""
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
    closeness: NDArray  # (S, layers, H) mean over the held-out batch's scored rows
    probe: NDArray  # (n + 1,) the probe sequence

    def __post_init__(self) -> None:
        frozen(self)


def _watch(task: Task, params: TinyParameters, held_out: NDArray, ideals: list[tuple[NDArray, ...]]) -> tuple[float, float, NDArray, NDArray]:
    trace = forward(params, held_out[:, :-1])
    layers, heads = len(trace.layers), params.config.heads
    rows = np.stack([ideal[0].sum(axis=1) > 0 for ideal in ideals])
    accuracy = float((trace.logits.argmax(axis=-1) == held_out[:, 1:])[rows].mean())
    near = np.full((layers, heads), np.nan)
    for layer in range(layers):
        which = layers - 1 - layer  # the task's patterns are listed from the last layer down
        if which < len(ideals[0]):
            pattern = np.stack([ideal[which] for ideal in ideals])  # (B, n, n)
            scored = pattern.sum(axis=-1) > 0  # (B, n): rows with a known answer, pooled over the batch
            for head in range(heads):
                on_ideal = (trace.layers[layer].weights[:, head] * (pattern > 0)).sum(axis=-1)
                near[layer, head] = on_ideal[scored].mean() if scored.any() else np.nan
    weights = np.stack([layer.weights[0] for layer in trace.layers])  # the probe is the held-out batch's first sequence
    return loss(params, held_out), accuracy, weights, near


class Trainer:
    """A training run that can be advanced a few steps at a time (and pickled between them, to train in another
    process): Adam on batches drawn from a seeded generator, watched every ``every`` steps. The task is named (one of
    ``TASKS``), so the trainer holds only arrays and numbers."""

    def __init__(self, task: str, config: TinyConfig, *, every: int = 25, lr: float = 1e-2, batch: int = 32, seed: int = 0):
        self.task_name, self.every, self.lr, self.batch_size = task, every, lr, batch
        self.rng = np.random.default_rng(seed)
        self.held_out = self.task.batch(np.random.default_rng(seed + 10_000), 64)
        self.ideals = [self.task.ideal(sequence) for sequence in self.held_out]
        self.params = init_tiny(config, seed)
        self.state: AdamState = adam_state(self.params)
        self.step = 0
        self.watched: list[tuple] = []

    @property
    def task(self) -> Task:
        """The task trained on, ``named_task(task_name)``."""
        return named_task(self.task_name)

    def _watch(self) -> None:
        self.watched.append((self.step, *_watch(self.task, self.params, self.held_out, self.ideals)))

    def advance(self, steps: int) -> Trainer:
        """Train ``steps`` more steps (watching before each step that is a multiple of ``every``); returns self."""
        for _ in range(steps):
            if self.step % self.every == 0:
                self._watch()
            self.params, self.state = adam(self.params, gradients(self.params, self.task.batch(self.rng, self.batch_size)),
                                           self.state, lr=self.lr)
            self.step += 1
        return self

    def run(self) -> Run:
        """What was watched, the current step included."""
        if not self.watched or self.watched[-1][0] != self.step:
            self._watch()
        columns = list(zip(*self.watched))
        return Run(np.array(columns[0]), np.array(columns[1]), np.array(columns[2]), np.stack(columns[3]),
                   np.stack(columns[4]), self.held_out[0].copy())


def advance(trainer: Trainer, steps: int) -> Trainer:
    """``trainer.advance(steps)`` as a plain function (what a worker process is sent)."""
    return trainer.advance(steps)


_TASK_CACHE: dict[str, Task] = {}


def named_task(name: str) -> Task:
    """The task ``TASKS[name]()``, made once per process."""
    if name not in _TASK_CACHE:
        _TASK_CACHE[name] = TASKS[name]()
    return _TASK_CACHE[name]


def train(task: str, config: TinyConfig, steps: int, *, every: int = 25, lr: float = 1e-2, batch: int = 32,
          seed: int = 0) -> tuple[TinyParameters, Run]:
    """Train a tiny transformer on the task named ``task`` with Adam for ``steps`` steps (deterministic for a seed);
    watch it every ``every`` steps. Returns (final parameters, Run) (``Trainer(...).advance(steps)``)."""
    trainer = Trainer(task, config, every=every, lr=lr, batch=batch, seed=seed).advance(steps)
    return trainer.params, trainer.run()


@dataclass(frozen=True)
class ScalingRuns:
    """The same one-layer, one-head model trained at several d_k (= d_model), with and without ÷ √d_k, from several seeds.
    Index [d, 0] is scaled, [d, 1] unscaled; every curve is measured on the held-out batch every few steps."""

    task: str
    d_k: NDArray  # (D,)
    seeds: NDArray  # (S,)
    steps: NDArray  # (W,)
    loss: NDArray  # (D, 2, S, W) cross-entropy
    accuracy: NDArray  # (D, 2, S, W) on the task's scored rows
    score_gradient: NDArray  # (D, 2, S, W) mean |d loss / d s| over unmasked scores (tiny.score_gradient)

    def __post_init__(self) -> None:
        frozen(self)


def scaling_runs(task: str, d_ks: tuple[int, ...], seeds: tuple[int, ...], steps: int, *, every: int = 20, lr: float = 1e-2,
                 batch: int = 16) -> ScalingRuns:
    """Train the √d_k experiment: for each d_k (D,), scaled (÷ √d_k) and unscaled (÷ 1) one-layer, one-head models start
    from the same parameters and batches, for each seed (S,); curves (D, 2, S, W) watched every ``every`` steps."""
    watches = steps // every + 1
    shape = (len(d_ks), 2, len(seeds), watches)
    curves = {name: np.zeros(shape) for name in ("loss", "accuracy", "score_gradient")}
    for d, d_k in enumerate(d_ks):
        for s, scaled in enumerate((True, False)):
            for r, seed in enumerate(seeds):
                config = TinyConfig(vocab=named_task(task).vocab, context=named_task(task).length, d_model=d_k, heads=1, layers=1,
                                    scaled=scaled)
                trainer = Trainer(task, config, every=every, lr=lr, batch=batch, seed=seed)
                gradient = []
                for _ in range(watches):
                    gradient.append(score_gradient(trainer.params, trainer.held_out)[0])
                    if trainer.step < steps:
                        trainer.advance(every)
                run = trainer.run()
                curves["loss"][d, s, r], curves["accuracy"][d, s, r] = run.loss, run.accuracy
                curves["score_gradient"][d, s, r] = gradient
    return ScalingRuns(task, np.array(d_ks), np.array(seeds), np.arange(watches) * every, **curves)
