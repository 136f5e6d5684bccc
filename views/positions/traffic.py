"""The "Positions and scale" page's section on memory traffic: HBM reads and writes, FLOPs and arithmetic intensity of
standard attention and FlashAttention on a GPU's roofline (a model, computed, not measured), and the tiled loop run with
every load and store counted.

Every number comes from attention_core.traffic; every bound and option of a control from views/shell/registry.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attention_core.fast import full_attention
from attention_core.traffic import (
    GPUS,
    flash_against_standard,
    flash_blocks,
    flash_sram_need,
    flash_traffic,
    key_blocks,
    roofline,
    simulate_flash,
    standard_traffic,
)
from attention_plot import figures
from attention_plot.text import Texts
from views.shell.page import View
from views.widgets.charts import show
from views.widgets.tables import named_table

BYTES = 2  # 16-bit numbers (BF16) everywhere in this section's sizes
SIMULATED = (64, 8, 16, 8)  # the tiled loop run on the page: N, d, B_c, B_r


def traffic_section(view: View) -> None:
    """HBM traffic, FLOPs and arithmetic intensity of one head's forward attention, standard and FlashAttention, at the
    chosen N, d, SRAM, blocks and GPU; the traffic as N grows; both on the GPU's roofline; the formula checked by a run."""
    T = view.T
    st.info(T("positions.traffic.model_note"), icon=":material/calculate:")
    if view.layout.explains:
        st.markdown(T("positions.traffic.intro"))
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
    block_c, block_r = block_c or paper_c, block_r or paper_r
    gpu = GPUS[gpu_name]
    standard, flash = standard_traffic(n, d), flash_traffic(n, d, block_c, block_r)
    need = flash_sram_need(d, block_c, block_r)
    if need > sram:
        st.warning(T("positions.traffic.too_big", need=f"{need:,}", sram=f"{sram:,}", kib=sram_kib), icon=":material/memory:")
    st.markdown(T("positions.traffic.blocks", block_c=block_c, block_r=block_r, passes=key_blocks(n, block_c), need=f"{need:,}", sram=f"{sram:,}"))

    points = {"standard": roofline(gpu, standard, BYTES), "flash": roofline(gpu, flash, BYTES)}
    names = {kind: T(f"positions.traffic.kinds.{kind}") for kind in points}
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
    st.markdown(T("positions.traffic.check", compared=T(f"positions.traffic.{direction}", ratio=f"{factor:.1f}"), ridge=f"{gpu.ridge:.0f}",
                  gpu=T(f"positions.traffic.gpus.{gpu_name}"), standard=f"{points['standard'].intensity:.1f}",
                  flash=f"{points['flash'].intensity:.1f}"))

    sizes = np.array(view.page.param("seq").options)
    moved = np.array([[kind(int(size)).bytes(BYTES) / 1e6 for size in sizes]
                      for kind in (lambda s: standard_traffic(s, d), lambda s: flash_traffic(s, d, block_c, block_r))])
    left, right = st.columns(2)
    with left:
        show(figures.lines(sizes, moved, tuple(names.values()), log_x=True, log_y=True, markers=True, mark_x=(n,),
                           title=T("positions.traffic.growth_title", d=d, block_c=block_c), x_title=T("positions.traffic.n_axis"),
                           y_title=T("positions.traffic.mb_axis")), key="traffic-growth")
    with right:
        roof = figures.roofline(gpu.peak, gpu.bandwidth, tuple((names[kind], point.intensity) for kind, point in points.items()),
                                title=T("positions.traffic.roofline_title", gpu=T(f"positions.traffic.gpus.{gpu_name}")),
                                x_title=T("positions.traffic.intensity_axis"), y_title=T("positions.traffic.tflops_axis"),
                                roof_name=T("positions.traffic.roof"), ridge_name=T("positions.traffic.ridge"))
        show(roof, key="traffic-roofline", alt=T("positions.traffic.roofline_alt", gpu=T(f"positions.traffic.gpus.{gpu_name}"),
                                                peak=f"{gpu.peak / 1e12:,.0f}", bandwidth=f"{gpu.bandwidth / 1e12:.2f}",
                                                ridge=f"{gpu.ridge:.0f}", standard=f"{points['standard'].intensity:.1f}",
                                                flash=f"{points['flash'].intensity:.1f}"))
    counted_run(T)
    st.caption(T(f"positions.traffic.sources.{gpu_name}") + " " + T("positions.traffic.paper"))
    with st.expander(T("positions.traffic.all_sources")):
        st.markdown("\n".join(f"- {T(f'positions.traffic.sources.{g}')}" for g in view.page.param("gpu").options))


def counted_run(T: Texts) -> None:
    """Algorithm 1 run on a small case with every load and store counted, beside the formula's count."""
    n, d, block_c, block_r = SIMULATED
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    run, formula = simulate_flash(q, k, v, block_c, block_r), flash_traffic(n, d, block_c, block_r)
    gap = float(np.abs(run.output - full_attention(q, k, v)).max())
    st.markdown(T("positions.traffic.counted", n=n, d=d, block_c=block_c, block_r=block_r, reads=f"{run.reads:,}", writes=f"{run.writes:,}",
                  f_reads=f"{formula.reads:,}", f_writes=f"{formula.writes:,}", gap=f"{gap:.1e}"))
