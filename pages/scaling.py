"""Scaling lab: why divide by sqrt(d_k), shown by seeded Monte Carlo experiments."""

import math

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import SWEEP_D_K, check_lab, memory_bytes
from attention_core.scaling import MEMORY_LIMIT_BYTES
from attention_plot import figures
from views.scaling import (
    bug_choices,
    bug_frame,
    bug_statements,
    cached_sweep,
    comparison,
    download,
    histogram_frame,
    histograms,
    sweep_columns,
    textbook_frame,
)
from views.shell import page
from views.shell.registry import BY_ID, LAB_KEYS, LAB_SAMPLES, LAB_TEMPERATURES
from views.widgets import snapshots
from views.widgets.charts import show

view = page.start("scaling")
settings, T = view.settings, view.T

columns = st.columns(4)
d_k = columns[0].select_slider(T("scaling.d_k"), SWEEP_D_K, key=view.key("d_k"))
n_keys = columns[1].select_slider(T("scaling.n_keys"), LAB_KEYS, key=view.key("n_keys"))
samples = columns[2].select_slider(T("scaling.samples"), LAB_SAMPLES, key=view.key("samples"))
temperature = columns[3].select_slider(T("scaling.temperature"), LAB_TEMPERATURES, key=view.key("temperature"), help=T("scaling.temperature_help"))
try:
    check_lab(d_k, n_keys, samples)
except ValueError:
    st.error(T("scaling.refused", need=f"{memory_bytes(samples, n_keys) / 2**20:.0f}", limit=f"{MEMORY_LIMIT_BYTES / 2**20:.0f}"),
             icon=":material/memory:")
    st.stop()
st.caption(T("scaling.method"))
lab = {"n_keys": n_keys, "samples": samples, "seed": settings.seed, "temperature": temperature}
result = cached_sweep(n_keys, samples, settings.seed, temperature)
names = (T("scaling.saturation.raw"), T("scaling.saturation.scaled"))
RAW_SCALED = (figures.RAW_COLOUR, figures.SCALED_COLOUR)  # the histograms' colours: one quantity, one colour

st.header(T("scaling.distribution.title"))
st.markdown(T("scaling.distribution.intro", samples=samples, n_keys=n_keys, d_k=d_k))
hist = histograms(d_k, n_keys, samples, settings.seed)
reach = float(np.abs(hist["raw"][0]).max())  # both on the raw scores' axis: the scaled ones are visibly narrower
for column, (kind, colour, theory) in zip(st.columns(2), (("raw", figures.RAW_COLOUR, math.sqrt(d_k)), ("scaled", figures.SCALED_COLOUR, 1.0))):
    edges, counts, std = hist[kind]
    with column:
        show(figures.histogram(edges, counts, title=T(f"scaling.{kind}"), x_title=T("scaling.distribution.value"),
                               y_title=T("scaling.distribution.count"), colour=colour, x_range=(-reach, reach)), key=f"hist-{kind}")
        st.metric(T(f"scaling.distribution.std_{kind}"), f"{std:.3f}", T("scaling.distribution.theory", value=f"{theory:.3f}"),
                  delta_color="off", delta_arrow="off")  # a comparison, not a rise: no arrow
        download(lambda edges=edges, counts=counts: histogram_frame(edges, counts), lab | {"d_k": d_k, "scores": kind}, f"histogram-{kind}", T)

st.header(T("scaling.derivation.title"))
st.markdown(T("scaling.derivation.intro"))
st.latex(T("scaling.derivation.formula"))
st.markdown(T("scaling.derivation.table_intro"))
st.table(pd.DataFrame([[T("scaling.derivation.measured"), *(f"{v:.1f}" for v in result.variance)],
                       [T("scaling.derivation.ratio"), *(f"{v:.3f}" for v in result.variance / result.d_k)]],
                      columns=["d_k", *(str(d) for d in result.d_k)]), hide_index=True)
download(sweep_columns(result, "variance_raw", "variance_over_d_k"), lab, "variance", T)

st.header(T("scaling.saturation.title"))
st.markdown(T("scaling.saturation.intro"))
for column, measure in zip(st.columns(2), ("entropy", "max_weight")):
    with column:
        ys = np.stack([getattr(result, f"raw_{measure}"), getattr(result, f"scaled_{measure}")])
        show(figures.lines(result.d_k, ys, names, title=T(f"scaling.saturation.{measure}"), x_title="d_k", y_title="",
                           log_x=True, mark_x=(d_k,), markers=True, colours=RAW_SCALED), key=f"saturation-{measure}")
at = SWEEP_D_K.index(d_k)
st.markdown(T("scaling.saturation.statement", d_k=d_k, raw_max=f"{result.raw_max_weight[at]:.2f}",
              scaled_max=f"{result.scaled_max_weight[at]:.2f}", raw_bits=f"{result.raw_entropy[at]:.2f}",
              scaled_bits=f"{result.scaled_entropy[at]:.2f}", uniform_bits=f"{math.log2(n_keys):.2f}"))
download(sweep_columns(result, "entropy_raw_bits", "entropy_scaled_bits", "max_weight_raw", "max_weight_scaled"), lab, "saturation", T)

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
download(sweep_columns(result, "loser_gradient_raw", "loser_gradient_scaled", "gradient_norm_raw", "gradient_norm_scaled"), lab, "gradients", T)

st.header(T("scaling.textbook.title"))
st.markdown(T("scaling.textbook.intro"))
st.table(textbook_frame(T), hide_index=True)

st.header(T("scaling.bug.title"))
choices = bug_choices(n_keys, samples, settings.seed)
st.markdown(T("scaling.bug.intro", d_model=choices.d_model, heads=choices.heads, d_k=choices.d_k, n_keys=n_keys,
              right=f"{choices.right.divisor:g}", wrong=f"{choices.wrong.divisor:.1f}", ratio=f"{choices.ratio:.2f}"))
st.table(bug_frame(choices, T), hide_index=True)
st.caption(T("scaling.bug.uniform", n_keys=n_keys, bits=f"{math.log2(n_keys):.2f}"))
st.markdown("\n\n".join(bug_statements(choices, n_keys, T)))

st.header(T("scaling.temperature_section.title"))
st.markdown(T("scaling.temperature_section.intro", temperature=f"{temperature:g}"))

st.header(T("scaling.training.title"))
st.markdown(T("scaling.training.intro"))
st.markdown(f"**{snapshots.scaling_summary(T)}**")
st.table(snapshots.scaling_table(T), hide_index=True)
st.page_link(BY_ID["learn"].file_path, label=T("scaling.training.open"), icon=":material/model_training:",
             query_params={"section": "scaling", "lang": settings.lang})
