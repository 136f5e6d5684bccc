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


# --- FlashAttention-2 (arXiv 2307.08691) ---


def flash2_loop(q, k, v, block_c, block_r):
    """FlashAttention-2's forward, Algorithm 1 of arXiv 2307.08691, written here apart from the core: each line's HBM
    loads (lines 4 and 7) and stores (lines 14 and 15) counted element by element. -> (O, L, reads, writes)."""
    n, d = q.shape
    out, logsumexp = np.zeros((n, d)), np.zeros(n)
    reads = writes = 0
    for i in range(0, n, block_r):  # line 3: for 1 <= i <= T_r
        q_i = q[i:i + block_r]  # line 4: load Q_i
        reads += q_i.size
        rows = len(q_i)
        o, ell, m = np.zeros((rows, d)), np.zeros(rows), np.full(rows, -np.inf)  # line 5, on chip
        for j in range(0, n, block_c):  # line 6: for 1 <= j <= T_c
            k_j, v_j = k[j:j + block_c], v[j:j + block_c]  # line 7: load K_j, V_j
            reads += k_j.size + v_j.size
            s = np.array([[sum(q_i[a, c] * k_j[b, c] for c in range(d)) / np.sqrt(d) for b in range(len(k_j))] for a in range(rows)])  # line 8
            m_new = np.array([max(m[a], max(s[a])) for a in range(rows)])  # line 9
            p = np.array([[np.exp(s[a, b] - m_new[a]) for b in range(len(k_j))] for a in range(rows)])
            ell = np.array([np.exp(m[a] - m_new[a]) * ell[a] + sum(p[a]) for a in range(rows)])
            o = np.array([[np.exp(m[a] - m_new[a]) * o[a, c] + sum(p[a, b] * v_j[b, c] for b in range(len(k_j))) for c in range(d)]
                          for a in range(rows)])  # line 10
            m = m_new
        out[i:i + rows] = o / ell[:, None]  # lines 12 and 14: write O_i
        logsumexp[i:i + rows] = m + np.log(ell)  # lines 13 and 15: write L_i
        writes += o.size + rows
    return out, logsumexp, reads, writes


def test_flashattention2s_traffic_by_hand_at_the_papers_settings():
    """N = 4,096, d = 128, B_r = 128: T_r = 32 blocks of queries, each reading all of K and V once."""
    n, d = 4096, 128
    standard, two = standard_traffic(n, d), flash2_traffic(n, d, 64, 128)
    assert query_blocks(n, 128) == 32 and (query_blocks(4097, 128), query_blocks(0, 8)) == (33, 0)
    assert two.reads == n * d + 32 * 2 * n * d == 34_078_720
    assert two.writes == n * d + n == 528_384
    assert two.elements == 34_607_104 and round(two.elements / 1e6, 1) == 34.6  # about 2 N^2 d / B_r + 2 N d = 34,603,008
    assert standard.elements == 69_206_016 and round(standard.elements / 1e6, 1) == 69.2
    one = flash_traffic(n, d, *flash_blocks(51_200, d))  # Algorithm 1 at 100 KiB: B_c = 100, T_c = 41
    assert one.elements == 3 * n * d + 2 * n + 41 * (3 * n * d + 4 * n) == 66_740_224 and round(one.elements / 1e6, 1) == 66.7
    assert flash2_traffic(n, d, 64, 128) == flash2_traffic(n, d, 512, 128)  # B_c moves nothing: all of K and V, each pass
    assert flash_against_standard(standard, two) == (pytest.approx(69_206_016 / 34_607_104), "fewer")
    small = flash2_traffic(4, 2, 3, 2)  # T_r = 2: reads 8 + 2 * 16, writes 8 + 4
    assert (small.reads, small.writes) == (40, 12)


@pytest.mark.parametrize(("n", "d", "block_c", "block_r"), [(1, 1, 1, 1), (7, 3, 2, 3), (8, 2, 8, 8), (9, 4, 4, 2), (10, 3, 16, 3), (12, 2, 5, 7)])
def test_flashattention2_counts_equal_the_papers_loop_written_here(n, d, block_c, block_r):
    rng = np.random.default_rng(n * 100 + d)
    q, k, v = 3 * rng.standard_normal((n, d)), 3 * rng.standard_normal((n, d)), rng.standard_normal((n, d))
    out, logsumexp, reads, writes = flash2_loop(q, k, v, block_c, block_r)
    run, formula = simulate_flash2(q, k, v, block_c, block_r), flash2_traffic(n, d, block_c, block_r)
    assert (run.reads, run.writes) == (reads, writes) == (formula.reads, formula.writes)
    np.testing.assert_allclose(run.output, out, rtol=0, atol=1e-12)
    np.testing.assert_allclose(out, full_attention(q, k, v), rtol=0, atol=1e-12)
    scores = q @ k.T / np.sqrt(d)
    np.testing.assert_allclose(logsumexp, np.log(np.exp(scores).sum(axis=1)), rtol=1e-12)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 40), d=st.integers(1, 6), block_c=st.integers(1, 45), block_r=st.integers(1, 45), seed=st.integers(0, 10**6))
def test_flashattention2s_formula_equals_its_run_and_never_moves_more_than_algorithm_1_at_the_same_blocks(n, d, block_c, block_r, seed):
    """Algorithm 1 (of FlashAttention) reads Q and O again on every pass over the key blocks; FlashAttention-2 reads K
    and V again on every pass over the query blocks but Q once and O never, writing O once: with B_r = B_c it moves
    fewer elements (at B_r = B_c = N both read everything once; FlashAttention-2 still skips O's and the statistics' stores)."""
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((n, d)) for _ in range(3))
    run, formula = simulate_flash2(q, k, v, block_c, block_r), flash2_traffic(n, d, block_c, block_r)
    assert (run.reads, run.writes) == (formula.reads, formula.writes)
    np.testing.assert_allclose(run.output, full_attention(q, k, v), rtol=0, atol=1e-12)
    assert flash2_traffic(n, d, block_r, block_r).elements < flash_traffic(n, d, block_r, block_r).elements


def test_the_papers_rule_leaves_out_the_scores_block_and_the_statistics():
    """B_c = ceil(M / 4d) and B_r = min(B_c, d) fill M with K_j, V_j, Q_i and O_i: at d = 128 and 256 every SRAM here
    overflows by the block of scores and the statistics (and by nothing else, up to the ceiling's rounding)."""
    for d in (128, 256):
        for kib in (48, 64, 100, 164, 228):
            sram = kib * 512
            block_c, block_r = flash_blocks(sram, d)
            need = flash_sram_need(d, block_c, block_r)
            assert need > sram
            assert 2 * block_c * d + 2 * block_r * d <= sram + 4 * d  # the four blocks the rule counts fit (ceil: one row over at most)
            assert need - (2 * block_c * d + 2 * block_r * d) == block_r * block_c + 4 * block_r


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
