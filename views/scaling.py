"""Scaling lab: why divide by sqrt(d_k), shown by seeded Monte Carlo experiments; the lab's tables and downloads (sweep
results as pandas frames, CSV with the settings on top)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import (
    SWEEP_D_K,
    DivisorChoices,
    Sweep,
    check_lab,
    divisor_choices,
    memory_bytes,
    sample_raw_scores,
    score_histogram,
    softmax,
    sweep,
    textbook_example,
)
from attention_core.scaling import MEMORY_LIMIT_BYTES
from attention_plot import figures
from attention_plot.text import Texts
from views.shell.page import View, stop
from views.shell.registry import BY_ID
from views.widgets import snapshots
from views.widgets.charts import show

RAW_SCALED = (figures.RAW_COLOUR, figures.SCALED_COLOUR)  # the histograms' colours: one quantity, one colour


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


# --- The page's sections ---


@dataclass(frozen=True)
class Lab:
    """The lab's controls as set, and the sweep over every d_k they give."""

    d_k: int
    n_keys: int
    samples: int
    temperature: float
    seed: int
    result: Sweep

    @property
    def settings(self) -> dict[str, object]:
        """What a download records on top of its CSV."""
        return {"n_keys": self.n_keys, "samples": self.samples, "seed": self.seed, "temperature": self.temperature}

    @property
    def at(self) -> int:
        """The chosen d_k's place in the sweep."""
        return SWEEP_D_K.index(self.d_k)


def controls(view: View) -> Lab:
    """d_k, keys, samples and temperature; a lab too large for the server's memory is refused (the page stops)."""
    settings, T = view.settings, view.T
    columns = st.columns(4)
    d_k = view.widget("d_k", T("scaling.d_k"), into=columns[0])
    n_keys = view.widget("n_keys", T("scaling.n_keys"), into=columns[1])
    samples = view.widget("samples", T("scaling.samples"), into=columns[2])
    temperature = view.widget("temperature", T("scaling.temperature"), into=columns[3], help=T("scaling.temperature_help"))
    try:
        check_lab(d_k, n_keys, samples)
    except ValueError:
        st.error(T("scaling.refused", need=f"{memory_bytes(samples, n_keys) / 2**20:.0f}", limit=f"{MEMORY_LIMIT_BYTES / 2**20:.0f}"),
                 icon=":material/memory:")
        stop()
    st.caption(T("scaling.method"))
    return Lab(d_k, n_keys, samples, temperature, settings.seed, cached_sweep(n_keys, samples, settings.seed, temperature))


def raw_and_scaled(T: Texts) -> tuple[str, str]:
    return T("scaling.saturation.raw"), T("scaling.saturation.scaled")


def distribution_section(view: View, lab: Lab) -> None:
    """The raw and the scaled scores at the chosen d_k as histograms on one axis, their spreads beside the theory's."""
    T, d_k, n_keys, samples = view.T, lab.d_k, lab.n_keys, lab.samples
    st.header(T("scaling.distribution.title"))
    st.markdown(T("scaling.distribution.intro", samples=samples, n_keys=n_keys, d_k=d_k))
    hist = histograms(d_k, n_keys, samples, lab.seed)
    reach = float(np.abs(hist["raw"][0]).max())  # both on the raw scores' axis: the scaled ones are visibly narrower
    for column, (kind, colour, theory) in zip(st.columns(2), (("raw", figures.RAW_COLOUR, math.sqrt(d_k)), ("scaled", figures.SCALED_COLOUR, 1.0))):
        edges, counts, std = hist[kind]
        with column:
            show(figures.histogram(edges, counts, title=T(f"scaling.{kind}"), x_title=T("scaling.distribution.value"),
                                   y_title=T("scaling.distribution.count"), colour=colour, x_range=(-reach, reach)), key=f"hist-{kind}")
            st.metric(T(f"scaling.distribution.std_{kind}"), f"{std:.3f}", T("scaling.distribution.theory", value=f"{theory:.3f}"),
                      delta_color="off", delta_arrow="off")  # a comparison, not a rise: no arrow
            download(lambda edges=edges, counts=counts: histogram_frame(edges, counts), lab.settings | {"d_k": d_k, "scores": kind},
                     f"histogram-{kind}", T)


def derivation_section(view: View, lab: Lab) -> None:
    """Var(q · k) = d_k, derived and measured at every d_k."""
    T, result = view.T, lab.result
    st.header(T("scaling.derivation.title"))
    st.markdown(T("scaling.derivation.intro"))
    st.latex(T("scaling.derivation.formula"))
    st.markdown(T("scaling.derivation.table_intro"))
    st.table(pd.DataFrame([[T("scaling.derivation.measured"), *(f"{v:.1f}" for v in result.variance)],
                           [T("scaling.derivation.ratio"), *(f"{v:.3f}" for v in result.variance / result.d_k)]],
                          columns=["d_k", *(str(d) for d in result.d_k)]), hide_index=True)
    download(sweep_columns(result, "variance_raw", "variance_over_d_k"), lab.settings, "variance", T)


def saturation_section(view: View, lab: Lab) -> None:
    """Softmax's entropy and largest weight over d_k, raw against scaled."""
    T, result, d_k, at = view.T, lab.result, lab.d_k, lab.at
    st.header(T("scaling.saturation.title"))
    st.markdown(T("scaling.saturation.intro"))
    for column, measure in zip(st.columns(2), ("entropy", "max_weight")):
        with column:
            ys = np.stack([getattr(result, f"raw_{measure}"), getattr(result, f"scaled_{measure}")])
            show(figures.lines(result.d_k, ys, raw_and_scaled(T), title=T(f"scaling.saturation.{measure}"), x_title="d_k", y_title="",
                               log_x=True, mark_x=(d_k,), markers=True, colours=RAW_SCALED), key=f"saturation-{measure}")
    st.markdown(T("scaling.saturation.statement", d_k=d_k, raw_max=f"{result.raw_max_weight[at]:.2f}",
                  scaled_max=f"{result.scaled_max_weight[at]:.2f}", raw_bits=f"{result.raw_entropy[at]:.2f}",
                  scaled_bits=f"{result.scaled_entropy[at]:.2f}", uniform_bits=f"{math.log2(lab.n_keys):.2f}"))
    download(sweep_columns(result, "entropy_raw_bits", "entropy_scaled_bits", "max_weight_raw", "max_weight_scaled"), lab.settings,
             "saturation", T)


def gradients_section(view: View, lab: Lab) -> None:
    """The gradient that reaches the keys softmax did not pick, and the whole gradient's norm, over d_k."""
    T, result, d_k, n_keys, at = view.T, lab.result, lab.d_k, lab.n_keys, lab.at
    names = raw_and_scaled(T)
    st.header(T("scaling.gradients.title"))
    st.markdown(T("scaling.gradients.intro"))
    show(figures.lines(result.d_k, np.stack([result.raw_loser_gradient, result.scaled_loser_gradient]), names,
                       title=T("scaling.gradients.losers"), x_title="d_k", y_title="", log_x=True, log_y=True, mark_x=(d_k,), markers=True,
                       colours=RAW_SCALED),
         key="gradients")
    st.markdown(f"**{comparison(result.raw_loser_gradient[at], result.scaled_loser_gradient[at], 'scaling.gradients.statement', T, d_k=d_k)}**")
    with st.expander(T("scaling.gradients.norm_title")):
        st.markdown(T("scaling.gradients.norm_intro", n_keys=n_keys, uniform=f"{1 / math.sqrt(n_keys):.3f}"))
        show(figures.lines(result.d_k, np.stack([result.raw_gradient, result.scaled_gradient]), names, title=T("scaling.gradients.norm"),
                           x_title="d_k", y_title="", log_x=True, log_y=True, mark_x=(d_k,), markers=True, colours=RAW_SCALED), key="gradient-norms")
    download(sweep_columns(result, "loser_gradient_raw", "loser_gradient_scaled", "gradient_norm_raw", "gradient_norm_scaled"), lab.settings,
             "gradients", T)


def textbook_section(view: View) -> None:
    """The article's two scores through softmax, with and without ÷ √64."""
    T = view.T
    st.header(T("scaling.textbook.title"))
    st.markdown(T("scaling.textbook.intro"))
    st.table(textbook_frame(T), hide_index=True)


def bug_section(view: View, lab: Lab) -> None:
    """The same scores divided by 1, √d_k and √d_model (a common bug): what each divisor does."""
    T, n_keys = view.T, lab.n_keys
    st.header(T("scaling.bug.title"))
    choices = bug_choices(n_keys, lab.samples, lab.seed)
    st.markdown(T("scaling.bug.intro", d_model=choices.d_model, heads=choices.heads, d_k=choices.d_k, n_keys=n_keys,
                  right=f"{choices.right.divisor:g}", wrong=f"{choices.wrong.divisor:.1f}", ratio=f"{choices.ratio:.2f}"))
    st.table(bug_frame(choices, T), hide_index=True)
    st.caption(T("scaling.bug.uniform", n_keys=n_keys, bits=f"{math.log2(n_keys):.2f}"))
    st.markdown("\n\n".join(bug_statements(choices, n_keys, T)))


def temperature_section(view: View, lab: Lab) -> None:
    T = view.T
    st.header(T("scaling.temperature_section.title"))
    st.markdown(T("scaling.temperature_section.intro", temperature=f"{lab.temperature:g}"))


def training_section(view: View) -> None:
    """The √d_k experiment by training (the shipped snapshots), and a link to it on "Watch it learn"."""
    T = view.T
    st.header(T("scaling.training.title"))
    st.markdown(T("scaling.training.intro"))
    st.markdown(f"**{snapshots.scaling_summary(T)}**")
    st.table(snapshots.scaling_table(T), hide_index=True)
    st.page_link(BY_ID["learn"].file_path, label=T("scaling.training.open"), icon=":material/model_training:",
                 query_params={"section": "scaling", "lang": view.settings.lang})
