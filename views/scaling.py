"""The scaling lab's tables and downloads: sweep results as pandas frames, CSV with the settings on top."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import DivisorChoices, Sweep, divisor_choices, sample_raw_scores, score_histogram, softmax, sweep, textbook_example
from attention_plot.text import Texts


@st.cache_resource(max_entries=32, show_spinner=False)
def cached_sweep(n_keys: int, samples: int, seed: int, temperature: float) -> Sweep:
    """The full d_k sweep, computed once per (keys, samples, seed, temperature)."""
    return sweep(n_keys, samples, seed=seed, temperature=temperature)


@st.cache_resource(max_entries=32, show_spinner=False)
def histograms(d_k: int, n_keys: int, samples: int, seed: int) -> dict[str, tuple[np.ndarray, np.ndarray, float]]:
    """Bins, counts and standard deviation of the raw and the scaled scores at one d_k."""
    raw = sample_raw_scores(d_k, n_keys, samples, np.random.default_rng(seed))
    result = {}
    for name, values in (("raw", raw), ("scaled", raw / math.sqrt(d_k))):
        edges, counts = score_histogram(values, bins=60)
        result[name] = (edges, counts, float(values.std()))
    return result


def sweep_frame(result: Sweep) -> pd.DataFrame:
    """Every curve of the sweep, one row per d_k."""
    return pd.DataFrame({
        "d_k": result.d_k, "variance_raw": result.variance, "variance_over_d_k": result.variance / result.d_k,
        "entropy_raw_bits": result.raw_entropy, "entropy_scaled_bits": result.scaled_entropy,
        "max_weight_raw": result.raw_max_weight, "max_weight_scaled": result.scaled_max_weight,
        "gradient_norm_raw": result.raw_gradient, "gradient_norm_scaled": result.scaled_gradient,
        "loser_gradient_raw": result.raw_loser_gradient, "loser_gradient_scaled": result.scaled_loser_gradient,
    })


def sweep_columns(result: Sweep, *columns: str) -> Callable[[], pd.DataFrame]:
    """The sweep's d_k and these columns, as a frame made only when its CSV is downloaded (headers named in ``download``)."""
    return lambda: sweep_frame(result)[["d_k", *columns]]


def named(frame: pd.DataFrame, T: Texts) -> pd.DataFrame:
    """``frame`` with its columns named in the reader's language (scaling.csv.<column>)."""
    return frame.rename(columns={column: T(f"scaling.csv.{column}") for column in frame.columns})


def named_settings(settings: dict[str, object], T: Texts) -> dict[str, object]:
    """The settings' names, and the kind of scores, in the reader's language."""
    said = lambda value: T(f"scaling.csv.{value}") if value in ("raw", "scaled") else value
    return {T(f"scaling.csv.{name}"): said(value) for name, value in settings.items()}


def relation(base: float, other: float) -> tuple[str, float]:
    """How ``other`` compares with ``base``: "more" or "less" (by the returned factor, at least 1.05) or "same"."""
    ratio = other / base if base > 0 else float("inf")
    kind = "more" if ratio >= 1.05 else "less" if ratio <= 1 / 1.05 else "same"
    return kind, ratio if kind == "more" else 1 / ratio if kind == "less" else 1.0


def comparison(raw: float, scaled: float, key: str, T: Texts, **values: object) -> str:
    """A sentence comparing two measured numbers, its words chosen by the numbers themselves (never contradicting them)."""
    kind, factor = relation(raw, scaled)
    return T(f"{key}_{kind}", raw=f"{raw:.2e}", scaled=f"{scaled:.2e}", factor=f"{factor:.1f}", **values)


def histogram_frame(edges: np.ndarray, counts: np.ndarray) -> pd.DataFrame:
    """A histogram's bins (left and right edges) and counts."""
    return pd.DataFrame({"bin_from": edges[:-1], "bin_to": edges[1:], "count": counts})


def csv_with_settings(frame: pd.DataFrame, settings: dict[str, object]) -> str:
    """CSV text whose first lines (starting with #) record the settings that produced it."""
    header = "".join(f"# {name} = {value}\n" for name, value in settings.items())
    return header + frame.to_csv(index=False)


def download(frame: Callable[[], pd.DataFrame], settings: dict[str, object], name: str, T: Texts) -> None:
    """A CSV download of ``frame()`` with its settings on top, made only when clicked."""
    st.download_button(T("scaling.download"), lambda: csv_with_settings(named(frame(), T), named_settings(settings, T)),
                       file_name=f"{name}.csv", mime="text/csv", key=f"download-{name}", icon=":material/download:", on_click="ignore")


def textbook_frame(T: Texts) -> pd.DataFrame:
    """The article's scores through softmax with and without the division by sqrt(64)."""
    trace = textbook_example()
    row = trace.raw_scores[:1]  # (1, 2): 112, 96
    return pd.DataFrame({
        T("scaling.textbook.scores"): [f"{v:g}" for v in row[0]],
        T("scaling.textbook.without"): [f"{w:.8f}" if w > 1e-4 else f"{w:.2e}" for w in softmax(row)[0]],
        T("scaling.textbook.with"): [f"{w:.4f}" for w in softmax(row / trace.divisor)[0]],
    })


@st.cache_resource(max_entries=32, show_spinner=False)
def bug_choices(n_keys: int, samples: int, seed: int) -> DivisorChoices:
    """The same raw scores (d_k = 512 / 8 = 64) divided by 1, sqrt(d_k) and sqrt(d_model), computed once."""
    return divisor_choices(n_keys, samples, seed=seed)


def divisor_names(c: DivisorChoices, T: Texts) -> dict[str, str]:
    """The table's name of each divisor, with its value."""
    return {"none": T("scaling.bug.none"), "right": T("scaling.bug.right", value=f"{c.right.divisor:g}"),
            "wrong": T("scaling.bug.wrong", value=f"{c.wrong.divisor:.1f}")}


def bug_frame(c: DivisorChoices, T: Texts) -> pd.DataFrame:
    """Spread, entropy, largest weight and the gradient reaching the non-winning keys for each divisor."""
    names = divisor_names(c, T)
    rows = [(names[name], getattr(c, name)) for name in ("none", "right", "wrong")]
    return pd.DataFrame({
        T("scaling.bug.divisor"): [name for name, _ in rows],
        T("scaling.bug.spread"): [f"{s.spread:.3f}" for _, s in rows],
        T("scaling.bug.entropy"): [f"{s.entropy:.3f}" for _, s in rows],
        T("scaling.bug.max_weight"): [f"{s.max_weight:.3f}" for _, s in rows],
        T("scaling.bug.gradient"): [f"{s.loser_gradient:.3g}" for _, s in rows],
    })


def bug_statements(c: DivisorChoices, n_keys: int, T: Texts) -> tuple[str, ...]:
    """What the table shows, each word chosen by its numbers: the divisor that brings the spread nearest 1, the
    ranking by the gradient reaching the non-winning keys, whether sqrt(d_model) gives them more or less than
    sqrt(d_k), and what the bug costs instead."""
    names = {name: T(f"scaling.bug.short.{name}") for name in ("none", "right", "wrong")}
    grad = {name: f"{getattr(c, name).loser_gradient:.3g}" for name in names}
    order = c.ranked()
    ranking = names[order[0]] + T("scaling.bug.rank_value", value=grad[order[0]])
    for before, after in zip(order, order[1:]):
        kind, _ = relation(getattr(c, after).loser_gradient, getattr(c, before).loser_gradient)
        ranking += (" ≈ " if kind == "same" else " > ") + names[after] + T("scaling.bug.rank_value", value=grad[after])
    kind, factor = relation(c.right.loser_gradient, c.wrong.loser_gradient)
    closest = c.closest_spread()
    return (
        T("scaling.bug.spread_statement", closest=names[closest], spread=f"{getattr(c, closest).spread:.3f}",
          none_max=f"{c.none.max_weight:.3f}", right_max=f"{c.right.max_weight:.3f}", wrong_max=f"{c.wrong.max_weight:.3f}",
          uniform_max=f"{1 / n_keys:.3f}"),
        T(f"scaling.bug.verdict_{kind}", ranking=ranking, factor=f"{factor:.1f}", wrong=grad["wrong"], right=grad["right"]),
        T("scaling.bug.cost", wrong_bits=f"{c.wrong.entropy:.2f}", right_bits=f"{c.right.entropy:.2f}",
          uniform_bits=f"{math.log2(n_keys):.2f}", ratio=f"{c.ratio:.2f}"),
    )
