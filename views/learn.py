"""The "Watch it learn" page's data: the shipped snapshots (loaded once per server), the decoder's generation, and live
trainings run in worker processes, at most ``MAX_TRAININGS`` at once per server."""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import streamlit as st
from numpy.typing import NDArray

from attention_core import TinyConfig, TinyParameters
from attention_core.tasks import Run, Trainer

SNAPSHOTS = Path(__file__).resolve().parent.parent / "assets" / "snapshots"
MAX_TRAININGS = 2  # trainings at once per server: each takes one core; the rest of the class keeps the others
MAX_SECONDS = 60.0  # a training stops after this long, wherever it is
CHUNK = 25  # steps per round trip to the worker: the progress bar moves every CHUNK steps
QUEUE_SECONDS = MAX_SECONDS + 15.0  # how long a training waits for a slot: a running one ends by then


@dataclass(frozen=True)
class Snapshot:
    """A shipped default run: its settings, what was watched, and the final parameters."""

    task: str
    settings: dict
    run: Run
    params: TinyParameters

    @property
    def config(self) -> TinyConfig:
        return self.params.config


@st.cache_resource(show_spinner=False)
def snapshot(name: str) -> Snapshot:
    """assets/snapshots/<name>.npz (made by ``make snapshots``), loaded once per server."""
    return load_snapshot(name)


def load_snapshot(name: str) -> Snapshot:
    with np.load(SNAPSHOTS / f"{name}.npz") as data:
        settings = json.loads(str(data["settings"]))
        config = TinyConfig(**settings["config"])
        params = TinyParameters(config, {key.removeprefix("param."): data[key].astype(np.float64) for key in data.files
                                 if key.startswith("param.")})
        run = Run(data["steps"], data["loss"], data["accuracy"], data["weights"].astype(np.float64),
                  data["closeness"].astype(np.float64), data["probe"])
    return Snapshot(name, settings, run, params)


@dataclass(frozen=True)
class Scaling:
    """The √d_k experiment (``make snapshots``): curves (D, 2, S, W), index [d, 0] scaled and [d, 1] unscaled."""

    settings: dict
    d_k: NDArray
    seeds: NDArray
    steps: NDArray
    loss: NDArray
    accuracy: NDArray
    score_gradient: NDArray


@st.cache_resource(show_spinner=False)
def scaling() -> Scaling:
    with np.load(SNAPSHOTS / "scaling.npz") as data:
        return Scaling(json.loads(str(data["settings"])), data["d_k"], data["seeds"], data["steps"], data["loss"],
                       data["accuracy"], data["score_gradient"])


def nearest(steps: NDArray, step: int) -> int:
    """The index of the watched step nearest to ``step``."""
    return int(np.abs(np.asarray(steps) - step).argmin())


# Live training: one worker process per training (views/train_worker.py), at a lower priority than the server.

ROOT = Path(__file__).resolve().parent.parent


@st.cache_resource(show_spinner=False)
def slots() -> threading.BoundedSemaphore:
    """The server's training slots."""
    return threading.BoundedSemaphore(MAX_TRAININGS)


class Worker:
    """A ``python -m views.train_worker`` process: send a trainer and a number of steps, get the trainer back."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "views.train_worker"], cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=os.environ | {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"})
        with contextlib.suppress(OSError):  # a lower priority is a courtesy to the class, not a requirement
            os.setpriority(os.PRIO_PROCESS, self.process.pid, 10)

    def advance(self, trainer: Trainer, steps: int) -> Trainer:
        pickle.dump((trainer, steps), self.process.stdin)
        self.process.stdin.flush()
        return pickle.load(self.process.stdout)

    def close(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


@dataclass(frozen=True)
class Trained:
    """A finished live training: its settings, what was watched, how long it took, and whether time ran out."""

    settings: tuple
    run: Run
    seconds: float
    stopped_early: bool


def train_live(task_name: str, config: TinyConfig, steps: int, lr: float, seed: int, progress, queued) -> Trained | None:
    """Train in a worker, ``CHUNK`` steps at a time, calling ``progress(done, steps)``; ``queued()`` is called once if
    every slot is taken. None when no slot freed within ``QUEUE_SECONDS``."""
    free = slots()
    if not free.acquire(blocking=False):
        queued()
        if not free.acquire(timeout=QUEUE_SECONDS):
            return None
    worker = None
    try:
        worker = Worker()
        began = time.perf_counter()
        every = max(CHUNK, steps // 50 // CHUNK * CHUNK)
        trainer = Trainer(task_name, config, every=every, lr=lr, batch=32, seed=seed)
        stopped = False
        while trainer.step < steps:
            if time.perf_counter() - began > MAX_SECONDS:
                stopped = True
                break
            trainer = worker.advance(trainer, min(CHUNK, steps - trainer.step))
            progress(trainer.step, steps)
        return Trained((task_name, config, steps, lr, seed), trainer.run(), time.perf_counter() - began, stopped)
    finally:
        if worker is not None:
            worker.close()
        free.release()
