"""The "Positions and scale" page's section on memory traffic: HBM reads and writes, FLOPs and arithmetic intensity of
standard attention and FlashAttention (FlashAttention-2, or the first paper's Algorithm 1) on a GPU's roofline (a model,
computed, not measured), and the tiled loop run with every load and store counted.

Every number comes from attention_core.traffic; every bound and option of a control from views/shell/registry.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attention_core.fast import full_attention
from attention_core.traffic import (
    GPUS,
    flash2_traffic,
    flash_against_standard,
    flash_blocks,
    flash_sram_need,
    flash_traffic,
    key_blocks,
    query_blocks,
    roofline,
    simulate_flash,
    simulate_flash2,
    standard_traffic,
)
from attention_plot import figures
from attention_plot.text import Texts
from views.shell.page import View
from views.widgets.charts import show
from views.widgets.tables import named_table

BYTES = 2  # 16-bit numbers (BF16) everywhere in this section's sizes
SIMULATED = (64, 8, 16, 8)  # the tiled loop run on the page: N, d, B_c, B_r
COUNTED = {"fa1": flash_traffic, "fa2": flash2_traffic}  # each version's formula (N, d, B_c, B_r) -> Traffic
RUN = {"fa1": simulate_flash, "fa2": simulate_flash2}  # and its loop run with every load and store counted


def traffic_section(view: View) -> None:
    """HBM traffic, FLOPs and arithmetic intensity of one head's forward attention, standard and FlashAttention, at the
    chosen N, d, SRAM, blocks and GPU; the traffic as N grows; both on the GPU's roofline; the formula checked by a run."""
    T = view.T
    st.info(T("positions.traffic.model_note"), icon=":material/calculate:")
    if view.layout.explains:
        st.markdown(T("positions.traffic.intro"))
    version = view.widget("flash", T("positions.traffic.version"), style="segmented_control", help=T("positions.traffic.version_help"))
    first, second = st.columns(3), st.columns(3)
    n = view.widget("seq", T("positions.traffic.n"), into=first[0], format_func=lambda v: f"{v:,}")
    d = view.widget("head_dim", T("positions.traffic.d"), into=first[1], style="segmented_control")
    sram_kib = view.widget("sram", T("positions.traffic.sram"), into=first[2], format_func=lambda kib: f"{kib} KiB",
                           help=T("positions.traffic.sram_help"))
    sram = sram_kib * 1024 // BYTES  # M, in 16-bit numbers
    paper_c, paper_r = flash_blocks(sram, d)
    block_c = view.widget("block_c", T("positions.traffic.block_c"), into=second[0], style="selectbox",
                          format_func=lambda b: T("positions.traffic.rule_c", b=paper_c) if b == 0 else str(b))
    block_r = view.widget("block_r", T("positions.traffic.block_r"), into=second[1], style="selectbox",
                          format_func=lambda b: T("positions.traffic.rule_r", b=paper_r) if b == 0 else str(b))
    gpu_name = view.widget("gpu", T("positions.traffic.gpu"), into=second[2], style="selectbox")
    on_rule = not block_c and not block_r
    block_c, block_r = block_c or paper_c, block_r or paper_r
    gpu = GPUS[gpu_name]
    standard, flash = standard_traffic(n, d), COUNTED[version](n, d, block_c, block_r)
    blocks_held(T, d, block_c, block_r, sram, sram_kib, on_rule)
    passes = key_blocks(n, block_c) if version == "fa1" else query_blocks(n, block_r)
    st.markdown(T(f"positions.traffic.blocks_{version}", block_c=block_c, block_r=block_r, passes=passes,
                  need=f"{flash_sram_need(d, block_c, block_r):,}", sram=f"{sram:,}"))

    points = {"standard": roofline(gpu, standard, BYTES), "flash": roofline(gpu, flash, BYTES)}
    names = {"standard": T("positions.traffic.kinds.standard"), "flash": T(f"positions.traffic.kinds.{version}")}
    frame = pd.DataFrame([{
        T("positions.traffic.kind"): names[kind],
        T("positions.traffic.reads"): f"{traffic.reads:,}",
        T("positions.traffic.writes"): f"{traffic.writes:,}",
        T("positions.traffic.moved"): f"{traffic.bytes(BYTES) / 1e6:,.1f}",
        T("positions.traffic.flops"): f"{traffic.flops / 1e9:,.2f}",
        T("positions.traffic.intensity"): f"{point.intensity:,.1f}",
        T("positions.traffic.memory_time"): f"{point.memory_time * 1e6:,.2f}",
        T("positions.traffic.compute_time"): f"{point.compute_time * 1e6:,.2f}",
        T("positions.traffic.bound"): T(f"positions.traffic.bounds.{point.bound}"),
    } for (kind, point), traffic in zip(points.items(), (standard, flash))])
    named_table(frame, T("positions.traffic.table", n=f"{n:,}", d=d, gpu=T(f"positions.traffic.gpus.{gpu_name}")),
                numbers=list(frame.columns[1:-1]))
    factor, direction = flash_against_standard(standard, flash)
    said = f"more_{version}" if direction == "more" else direction
    st.markdown(T("positions.traffic.check", compared=T(f"positions.traffic.{said}", ratio=f"{factor:.1f}", name=names["flash"], block_r=block_r),
                  ridge=f"{gpu.ridge:.0f}", gpu=T(f"positions.traffic.gpus.{gpu_name}"), standard=f"{points['standard'].intensity:.1f}",
                  name=names["flash"], flash=f"{points['flash'].intensity:.1f}"))

    sizes = np.array(view.page.param("seq").options)
    moved = np.array([[kind(int(size)).bytes(BYTES) / 1e6 for size in sizes]
                      for kind in (lambda s: standard_traffic(s, d), lambda s: COUNTED[version](s, d, block_c, block_r))])
    left, right = st.columns(2)
    with left:
        show(figures.lines(sizes, moved, tuple(names.values()), log_x=True, log_y=True, markers=True, mark_x=(n,),
                           title=T(f"positions.traffic.growth_title_{version}", d=d, block_c=block_c, block_r=block_r),
                           x_title=T("positions.traffic.n_axis"),
                           y_title=T("positions.traffic.mb_axis")), key="traffic-growth")
    with right:
        roof = figures.roofline(gpu.peak, gpu.bandwidth, tuple((names[kind], point.intensity) for kind, point in points.items()),
                                title=T("positions.traffic.roofline_title", gpu=T(f"positions.traffic.gpus.{gpu_name}")),
                                x_title=T("positions.traffic.intensity_axis"), y_title=T("positions.traffic.tflops_axis"),
                                roof_name=T("positions.traffic.roof"), ridge_name=T("positions.traffic.ridge"))
        show(roof, key="traffic-roofline", alt=T("positions.traffic.roofline_alt", gpu=T(f"positions.traffic.gpus.{gpu_name}"),
                                                peak=f"{gpu.peak / 1e12:,.0f}", bandwidth=f"{gpu.bandwidth / 1e12:.2f}",
                                                ridge=f"{gpu.ridge:.0f}", standard=f"{points['standard'].intensity:.1f}",
                                                name=names["flash"], flash=f"{points['flash'].intensity:.1f}"))
    counted_run(T, version)
    st.caption(T(f"positions.traffic.sources.{gpu_name}") + " " + T("positions.traffic.paper"))
    with st.expander(T("positions.traffic.all_sources")):
        st.markdown("\n".join(f"- {T(f'positions.traffic.sources.{g}')}" for g in view.page.param("gpu").options))


def blocks_held(T: Texts, d: int, block_c: int, block_r: int, sram: int, sram_kib: int, on_rule: bool) -> None:
    """A warning when one step's blocks do not fit in the SRAM; when both blocks are the paper's rule, why: the rule
    sizes K_j, V_j, Q_i and O_i to fill M and leaves out the block of scores and the row statistics."""
    need = flash_sram_need(d, block_c, block_r)
    if need <= sram:
        return
    said = T("positions.traffic.too_big", need=f"{need:,}", sram=f"{sram:,}", kib=sram_kib)
    if on_rule:
        said += " " + T("positions.traffic.too_big_rule", four=f"{2 * (block_c + block_r) * d:,}", scores=f"{block_r * block_c:,}",
                        stats=f"{4 * block_r:,}")
    st.warning(said, icon=":material/memory:")


def counted_run(T: Texts, version: str) -> None:
    """The chosen FlashAttention's loop run on a small case with every load and store counted, beside the formula's count."""
    n, d, block_c, block_r = SIMULATED
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    run, formula = RUN[version](q, k, v, block_c, block_r), COUNTED[version](n, d, block_c, block_r)
    gap = float(np.abs(run.output - full_attention(q, k, v)).max())
    st.markdown(T("positions.traffic.counted", algorithm=T(f"positions.traffic.kinds.{version}"),
                  n=n, d=d, block_c=block_c, block_r=block_r, reads=f"{run.reads:,}", writes=f"{run.writes:,}",
                  f_reads=f"{formula.reads:,}", f_writes=f"{formula.writes:,}", gap=f"{gap:.1e}"))
