"""The tiny transformer's shipped snapshots (``make snapshots``, assets/snapshots/): each task's default run and the √d_k
experiment, loaded once per server; what the experiment measured, as a table and a paragraph. "Watch it learn" draws
them, the scaling lab quotes the experiment, the lesson's stop on learning states a run's numbers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from attention_core import TinyConfig, TinyParameters
from attention_core.tasks import Run
from attention_plot.text import Texts

SNAPSHOTS = Path(__file__).resolve().parents[2] / "assets" / "snapshots"


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


# The √d_k experiment, in words and a table (Watch it learn's section and the scaling lab)


def scaling_table(T: Texts) -> pd.DataFrame:
    """Per d_k: final loss and accuracy (mean over seeds) with and without ÷ √d_k, the seeds where scaling ended lower,
    and the gradient reaching the scores at the start."""
    result = scaling()
    final_loss, final_accuracy = result.loss[..., -1], result.accuracy[..., -1]  # (D, 2, S)
    start = result.score_gradient[..., 0].mean(axis=-1)  # (D, 2)
    return pd.DataFrame({
        "d_k": result.d_k,
        T("learn.scaling.loss_scaled"): [f"{v:.3f}" for v in final_loss[:, 0].mean(axis=-1)],
        T("learn.scaling.loss_raw"): [f"{v:.3f}" for v in final_loss[:, 1].mean(axis=-1)],
        T("learn.scaling.accuracy_scaled"): [f"{v:.0%}" for v in final_accuracy[:, 0].mean(axis=-1)],
        T("learn.scaling.accuracy_raw"): [f"{v:.0%}" for v in final_accuracy[:, 1].mean(axis=-1)],
        T("learn.scaling.lower"): [f"{int((final_loss[d, 0] < final_loss[d, 1]).sum())} / {result.seeds.size}"
                                   for d in range(result.d_k.size)],
        T("learn.scaling.gradient_scaled"): [f"{v:.1e}" for v in start[:, 0]],
        T("learn.scaling.gradient_raw"): [f"{v:.1e}" for v in start[:, 1]],
    })


def scaling_summary(T: Texts) -> str:
    """The measured result in one paragraph, its words chosen by the numbers."""
    result = scaling()
    final_loss = result.loss[..., -1]
    start = result.score_gradient[..., 0].mean(axis=-1)
    largest = int(result.d_k.size - 1)
    smallest_ratio = start[0, 0] / start[0, 1]
    lower = int((final_loss[largest, 0] < final_loss[largest, 1]).sum())
    verdict = "helps" if lower == result.seeds.size else "mixed" if lower > 0 else "hurts"
    return T(f"learn.scaling.summary_{verdict}", d_k=int(result.d_k[largest]), lower=lower, seeds=result.seeds.size,
             scaled=f"{final_loss[largest, 0].mean():.3f}", raw=f"{final_loss[largest, 1].mean():.3f}",
             ratio=f"{start[largest, 0] / start[largest, 1]:.1f}", small_d_k=int(result.d_k[0]), small_ratio=f"{smallest_ratio:.1f}")
