"""Memory traffic (attention_core/traffic.py): the traffic formulas of standard attention and FlashAttention by hand
and against the tiled loops run with every load and store counted; the growth the paper states; the data sheets' figures
pinned and the roofline by hand."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.fast import full_attention
from attention_core.traffic import (
    GPU,
    GPUS,
    Traffic,
    flash_against_standard,
    flash_blocks,
    flash_sram_need,
    flash_traffic,
    key_blocks,
    roofline,
    simulate_flash,
    simulate_standard,
    standard_traffic,
)


def test_standard_attentions_traffic_by_hand():
    t = standard_traffic(4096, 64)
    assert (t.reads, t.writes) == (3 * 4096 * 64 + 2 * 4096**2, 2 * 4096**2 + 4096 * 64)
    assert t.elements == 4 * 4096 * 64 + 4 * 4096**2 == 68_157_440
    assert t.flops == 4 * 4096**2 * 64 and t.bytes() == 136_314_880 and t.intensity() == pytest.approx(4 * 4096 * 64 / (2 * 4 * (64 + 4096)))


def test_flashattentions_blocks_and_traffic_by_hand():
    assert flash_blocks(51_200, 64) == (200, 64)  # 100 KiB of 16-bit numbers: B_c = ceil(51200 / 256), B_r = min(200, 64)
    assert flash_blocks(1000, 64) == (4, 4) and flash_blocks(1024, 2) == (128, 2)
    t = flash_traffic(4096, 64, 200, 64)  # T_c = ceil(4096 / 200) = 21
    assert t.reads == 2 * 4096 * 64 + 21 * (2 * 4096 * 64 + 2 * 4096) == 11_706_368
    assert t.writes == 4096 * 64 + 2 * 4096 + 21 * (4096 * 64 + 2 * 4096) == 5_947_392
    assert (key_blocks(4096, 200), key_blocks(4096, 4096), key_blocks(4097, 4096), key_blocks(0, 8)) == (21, 1, 2, 0)
    small = flash_traffic(4, 2, 2, 2)  # T_c = 2: reads 2*8 + 2*(16 + 8), writes 8 + 8 + 2*(8 + 8)
    assert (small.reads, small.writes) == (64, 48)
    assert flash_sram_need(64, 200, 64) == 2 * 200 * 64 + 2 * 64 * 64 + 64 * 200 + 4 * 64 == 46_848 <= 51_200
    assert flash_traffic(4096, 64, 200, 64) == flash_traffic(4096, 64, 200, 8)  # B_r moves nothing: every query row, each pass


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), d=st.integers(1, 6), block_c=st.integers(1, 45), block_r=st.integers(1, 45), block=st.integers(1, 45),
       scale=st.floats(0.1, 20.0), seed=st.integers(0, 10**6))
def test_the_traffic_formulas_equal_the_loads_and_stores_of_the_loops_run(n, d, block_c, block_r, block, scale, seed):
    rng = np.random.default_rng(seed)
    q, k, v = scale * rng.standard_normal((n, d)), scale * rng.standard_normal((n, d)), rng.standard_normal((n, d))
    flash, standard = simulate_flash(q, k, v, block_c, block_r), simulate_standard(q, k, v, block)
    expected = flash_traffic(n, d, block_c, block_r)
    assert (flash.reads, flash.writes) == (expected.reads, expected.writes)
    expected = standard_traffic(n, d)
    assert (standard.reads, standard.writes) == (expected.reads, expected.writes)
    exact = full_attention(q, k, v)
    np.testing.assert_allclose(flash.output, exact, rtol=0, atol=1e-12 * max(1.0, np.abs(v).max()))
    np.testing.assert_allclose(standard.output, exact, rtol=0, atol=1e-12 * max(1.0, np.abs(v).max()))


@pytest.mark.parametrize("d", [32, 64, 128])
def test_the_traffic_grows_as_the_paper_says(d):
    """Standard: Theta(Nd + N^2), 4 elements per score at large N. FlashAttention: Theta(N^2 d^2 / M): with M = 4 d B_c,
    T_c (3Nd + 4N) = 4 N^2 d (3d + 4) / M, so the ratio to N^2 d^2 / M tends to 12 + 16/d."""
    n, sram = 2**20, 4 * d * 256
    block_c, block_r = flash_blocks(sram, d)
    assert standard_traffic(n, d).elements / n**2 == pytest.approx(4, rel=1e-3)
    assert flash_traffic(n, d, block_c, block_r).elements / (n**2 * d**2 / sram) == pytest.approx(12 + 16 / d, rel=1e-3)


def test_flashattention_against_standard_is_a_factor_of_at_least_one_with_its_direction():
    """At large N FlashAttention moves d (3d + 4) / M times standard attention's elements: fewer only when d^2 is well below M."""
    def compared(n, d, sram):
        return flash_against_standard(standard_traffic(n, d), flash_traffic(n, d, *flash_blocks(sram, d)))
    factor, direction = compared(4096, 64, 51_200)  # the page's default: 100 KiB, d = 64
    assert direction == "fewer" and factor == standard_traffic(4096, 64).elements / flash_traffic(4096, 64, 200, 64).elements > 3
    factor, direction = compared(4096, 256, 228 * 512)  # 228 KiB at d = 256: 3 d^2 is 384 KiB
    assert direction == "more" and factor == pytest.approx(1.64, abs=0.01)
    factor, direction = compared(2**20, 128, 48 * 512)  # 48 KiB at d = 128: about 3 d^2 / M = 2
    assert direction == "more" and factor == pytest.approx(128 * (3 * 128 + 4) / (48 * 512), rel=1e-2)
    same = Traffic(reads=3, writes=1, flops=8)
    assert flash_against_standard(same, same) == (1.0, "same")


def test_the_gpus_figures_are_the_data_sheets_dense_bf16_and_bandwidth():
    sheets = {"a100": (312, 2039), "h100": (989.5, 3350), "h200": (989.5, 4800), "b200": (2250, 8000)}  # TFLOPS, GB/s
    assert set(GPUS) == set(sheets)
    for name, (tflops, gb_per_s) in sheets.items():
        assert (GPUS[name].peak / 1e12, GPUS[name].bandwidth / 1e9) == pytest.approx((tflops, gb_per_s), rel=1e-12)
    assert GPUS["h100"].ridge == pytest.approx(989.5 / 3.35)


def test_the_roofline_by_hand():
    gpu = GPU(peak=100.0, bandwidth=10.0)  # ridge at 10 FLOP/byte
    at_ridge = roofline(gpu, Traffic(reads=6, writes=4, flops=200))  # 20 bytes, 200 FLOPs: 10 FLOP/byte
    assert (at_ridge.intensity, at_ridge.attainable, at_ridge.compute_time, at_ridge.memory_time) == (10.0, 100.0, 2.0, 2.0)
    low = roofline(gpu, Traffic(reads=25, writes=25, flops=100))  # 100 bytes: 1 FLOP/byte
    assert (low.attainable, low.time, low.bound) == (10.0, 10.0, "memory")
    high = roofline(gpu, Traffic(reads=1, writes=0, flops=1000))
    assert (high.attainable, high.time, high.bound) == (100.0, 10.0, "compute")
