"""Positions and attention at scale: permutation equivariance without positions, RoPE's relative property, ALiBi,
grouped-query = multi-head with shared K/V repeated, the cache's memory, online softmax = softmax (its trace, stopped
after any block, = a plain loop), and mask costs. Each against an independent formula written here."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.embedding import positional_encoding
from attention_core.fast import (
    MODEL_SHAPES,
    allowed_pairs,
    cached_tokens,
    full_attention,
    kv_cache_bytes,
    model_cache_bytes,
    online_softmax_attention,
    online_softmax_trace,
    shared_kv_attention,
    sliding_window_mask,
    sparse_mask,
)
from attention_core.positions import (
    SCHEMES,
    alibi_bias,
    alibi_power_of_two,
    alibi_slopes,
    diagonal_spread,
    mean_distance,
    permuted,
    positioned_head,
    rope,
    rope_grid,
    shuffle_order,
    sinusoidal_grid,
)

RNG = np.random.default_rng(7)


def projections(d: int = 8, d_k: int = 4, seed: int = 0):
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((d, d_k)) / math.sqrt(d) for _ in range(3))


@pytest.mark.parametrize("seed", range(5))
def test_without_positions_shuffling_the_words_shuffles_the_matrices(seed):
    rng = np.random.default_rng(seed)
    tokens = rng.standard_normal((7, 8))
    order = rng.permutation(7)
    head = positioned_head(tokens, *projections(), "none")
    shuffled = positioned_head(tokens[order], *projections(), "none")
    weights, output = permuted(head, order)
    np.testing.assert_allclose(shuffled.weights, weights, rtol=0, atol=1e-15)
    np.testing.assert_allclose(shuffled.output, output, rtol=0, atol=1e-15)


@pytest.mark.parametrize("scheme", ["sinusoidal", "rope", "alibi"])
def test_with_positions_shuffling_changes_more_than_the_order(scheme):
    tokens = RNG.standard_normal((6, 8))
    order = np.array([2, 0, 5, 1, 4, 3])  # not a reversal: |m - n| (ALiBi without a mask) is the same read backwards
    added = positional_encoding(6, 8)
    head = positioned_head(tokens, *projections(), scheme, added=added)
    shuffled = positioned_head(tokens[order], *projections(), scheme, added=added)
    assert np.abs(shuffled.weights - permuted(head, order)[0]).max() > 1e-3


def rope_dot_by_complex_numbers(q: np.ndarray, k: np.ndarray, m: int, n: int, base: float = 10_000.0) -> float:
    """Independent formula: pairs as complex numbers z = x_2i + i x_2i+1, each turned by e^(i position theta_i):
    (R(m) q) . (R(n) k) = Re sum_i z_q conj(z_k) e^(i (m - n) theta_i)."""
    theta = base ** (-np.arange(0, q.size, 2) / q.size)
    zq, zk = q[0::2] + 1j * q[1::2], k[0::2] + 1j * k[1::2]
    return float(np.real(np.sum(zq * np.conj(zk) * np.exp(1j * (m - n) * theta))))


def test_rope_makes_q_dot_k_depend_on_the_distance_only():
    q, k = RNG.standard_normal(16), RNG.standard_normal(16)
    worst = 0.0
    for m in range(0, 40, 3):
        for n in range(0, 40, 5):
            dot = rope(q[None], start=m)[0] @ rope(k[None], start=n)[0]
            for shift in (1, 7, 100, 1000):
                shifted = rope(q[None], start=m + shift)[0] @ rope(k[None], start=n + shift)[0]
                worst = max(worst, abs(shifted - dot))
            assert abs(dot - rope_dot_by_complex_numbers(q, k, m, n)) <= 1e-12
    assert worst <= 1e-12


def test_rope_turns_vectors_without_changing_their_length_and_rows_follow_their_position():
    x = RNG.standard_normal((9, 6))
    rotated = rope(x)
    np.testing.assert_allclose(np.linalg.norm(rotated, axis=1), np.linalg.norm(x, axis=1), rtol=1e-14)
    np.testing.assert_array_equal(rotated[0], x[0])  # position 0 is not turned
    np.testing.assert_allclose(rope(x[4:5], start=4), rotated[4:5], atol=1e-15)
    with pytest.raises(ValueError, match="even"):
        rope(RNG.standard_normal((3, 5)))


def test_a_walk_with_rope_scores_its_projections_turned_by_position():
    """``explain(rope=True)``: each head's q and k are X W turned by position (pairs as complex numbers, an odd last
    dimension kept), so a raw score is Re sum_i z_q conj(z_k) e^(i (m - n) theta_i) of the unturned projections; lengths
    and values stay, and no word's row of weights is another's even where the word repeats."""
    from attention_core import explain

    for d_k in (4, 5, 1):
        e = explain("the cat sat on the mat", positions=False, rope=True, d_k=d_k, heads=2, d_model=8)
        for h, head in enumerate(e.trace.heads):
            q, k = e.projected(h)
            pairs = d_k // 2 * 2
            for m in range(6):
                for n in range(6):
                    dot = rope_dot_by_complex_numbers(q[m, :pairs], k[n, :pairs], m, n) if pairs else 0.0
                    dot += q[m, pairs:] @ k[n, pairs:]
                    assert abs(head.raw_scores[m, n] - dot) <= 1e-12
            np.testing.assert_allclose(np.linalg.norm(head.q, axis=1), np.linalg.norm(q, axis=1), rtol=1e-13)
            np.testing.assert_array_equal(head.q[:, pairs:], q[:, pairs:])
            np.testing.assert_array_equal(head.v, explain("the cat sat on the mat", positions=False, d_k=d_k, heads=2).trace.heads[h].v)
    plain = explain("the cat sat on the mat", positions=False).trace.heads[0].weights
    turned = explain("the cat sat on the mat", positions=False, rope=True).trace.heads[0].weights
    np.testing.assert_array_equal(plain[0], plain[4])  # "the" twice: one row without positions
    assert np.abs(turned[0] - turned[4]).max() > 1e-3  # RoPE tells them apart
    unturned = explain("the cat sat on the mat", positions=False)
    np.testing.assert_array_equal(unturned.projected(0)[0], unturned.trace.heads[0].q)


def test_alibi_slopes_and_bias_by_hand():
    np.testing.assert_allclose(alibi_slopes(8), [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256])
    np.testing.assert_allclose(alibi_slopes(4), [1 / 4, 1 / 16, 1 / 64, 1 / 256])
    bias = alibi_bias(3, 0.5)
    assert bias.tolist() == [[0.0, -np.inf, -np.inf], [-0.5, 0.0, -np.inf], [-1.0, -0.5, 0.0]]
    assert alibi_bias(3, 0.5, causal=False).tolist() == [[0.0, -0.5, -1.0], [-0.5, 0.0, -0.5], [-1.0, -0.5, 0.0]]


def press_get_slopes(n: int) -> list[float]:
    """ALiBi's slopes as the authors' code computes them (ofirpress/attention_with_linear_biases, get_slopes), ported
    line by line; BLOOM's build_alibi_tensor gives the same."""

    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return get_slopes_power_of_2(closest_power_of_2) + press_get_slopes(2 * closest_power_of_2)[0::2][: n - closest_power_of_2]


@pytest.mark.parametrize("heads", range(1, 65))
def test_alibi_slopes_are_those_of_the_authors_code(heads):
    np.testing.assert_allclose(alibi_slopes(heads), press_get_slopes(heads), rtol=1e-14)
    if heads & (heads - 1) == 0:  # a power of two: the paper's formula 2^(-8 i / H), unchanged
        np.testing.assert_allclose(alibi_slopes(heads), [2 ** (-8 * i / heads) for i in range(1, heads + 1)], rtol=1e-14)


def test_alibi_slopes_for_heads_that_are_not_a_power_of_two_by_hand():
    # 6 heads: the 4 slopes of 4 heads (2^-2, 2^-4, 2^-6, 2^-8), then the 1st and 3rd of 8 heads (2^-1, 2^-3)
    np.testing.assert_allclose(alibi_slopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8], rtol=1e-15)
    # 12 heads: the 8 slopes of 8 heads (2^-1 .. 2^-8), then the 1st, 3rd, 5th and 7th of 16 heads (2^-0.5 .. 2^-3.5)
    twelve = [2.0**-k for k in range(1, 9)] + [2.0**-0.5, 2.0**-1.5, 2.0**-2.5, 2.0**-3.5]
    np.testing.assert_allclose(alibi_slopes(12), twelve, rtol=1e-15)
    assert not np.allclose(alibi_slopes(6), [2 ** (-8 * i / 6) for i in range(1, 7)])  # not the paper text's formula
    assert [alibi_power_of_two(h) for h in (1, 2, 3, 6, 8, 12, 16)] == [1, 2, 2, 4, 8, 8, 16]


def test_every_scheme_gives_rows_that_sum_to_one():
    tokens = RNG.standard_normal((5, 8))
    for scheme in SCHEMES:
        head = positioned_head(tokens, *projections(), scheme, added=positional_encoding(5, 8), causal=True)
        np.testing.assert_allclose(head.weights.sum(axis=1), 1.0, rtol=1e-14)
        assert np.all(np.triu(head.weights, k=1) == 0)


@pytest.mark.parametrize("heads, kv_heads", [(8, 8), (8, 4), (8, 2), (8, 1), (6, 3)])
def test_grouped_query_attention_is_multi_head_attention_with_the_shared_keys_and_values_repeated(heads, kv_heads):
    rng = np.random.default_rng(heads * 10 + kv_heads)
    x = rng.standard_normal((9, 16))
    w_q, w_k, w_v = (rng.standard_normal((h, 16, 4)) for h in (heads, kv_heads, kv_heads))
    gqa = shared_kv_attention(x, w_q, w_k, w_v, causal=True)
    repeat = heads // kv_heads
    mha = shared_kv_attention(x, w_q, np.repeat(w_k, repeat, axis=0), np.repeat(w_v, repeat, axis=0), causal=True)
    np.testing.assert_allclose(gqa.outputs, mha.outputs, rtol=0, atol=1e-13)
    for h in range(heads):  # and head by head, written out: query head h reads key-value head h // repeat
        q, k, v = x @ w_q[h], x @ w_k[h // repeat], x @ w_v[h // repeat]
        s = np.where(np.triu(np.ones((9, 9), dtype=bool), k=1), -np.inf, q @ k.T / 2.0)
        w = np.exp(s - s.max(axis=1, keepdims=True))
        np.testing.assert_allclose(gqa.outputs[h], (w / w.sum(axis=1, keepdims=True)) @ v, rtol=0, atol=1e-13)
    assert list(gqa.groups) == [h // repeat for h in range(heads)]
    with pytest.raises(ValueError, match="divide"):
        shared_kv_attention(x, w_q, rng.standard_normal((5, 16, 4)), rng.standard_normal((5, 16, 4)))


def test_the_caches_memory_for_known_models():
    assert kv_cache_bytes(4096, layers=32, kv_heads=32, d_k=128) == 2 * 2**30  # Llama 2 7B, fp16: 2 GiB for 4096 tokens
    assert kv_cache_bytes(4096, layers=80, kv_heads=8, d_k=128) == 1.25 * 2**30  # Llama 2 70B, grouped-query (8 kv heads)
    assert kv_cache_bytes(4096, layers=80, kv_heads=64, d_k=128) == 10 * 2**30  # the same model with full multi-head
    assert kv_cache_bytes(1, 1, 1, 1, bytes_per_number=4) == 8


def test_a_models_cache_stops_at_its_context_and_at_its_sliding_window():
    gpt2, mistral = MODEL_SHAPES["gpt-2"], MODEL_SHAPES["mistral-7b"]
    assert (gpt2.context, gpt2.window, mistral.context, mistral.window) == (1024, None, 8192, 4096)
    assert (MODEL_SHAPES["llama-2-7b"].context, MODEL_SHAPES["llama-2-70b"].context) == (4096, 4096)
    # GPT-2 small at its full 1,024 tokens: a key and a value, 12 layers x 12 heads x 64 numbers, 2 bytes each
    assert model_cache_bytes(gpt2, 1024) == 2 * 1024 * 12 * 12 * 64 * 2 == 36 * 2**20
    assert model_cache_bytes(gpt2, 1025) is None and cached_tokens(gpt2, 4096) is None  # beyond its context
    # Mistral 7B keeps only its window's 4,096 tokens: 32 layers x 8 key-value heads x 128, whatever the length
    for tokens in (4096, 5000, 8192):
        assert model_cache_bytes(mistral, tokens) == 2 * 4096 * 32 * 8 * 128 * 2 == 512 * 2**20
    assert model_cache_bytes(mistral, 1024) == 2 * 1024 * 32 * 8 * 128 * 2 and model_cache_bytes(mistral, 8193) is None
    assert model_cache_bytes(mistral, 8192, kv_heads=32) == 2 * 4096 * 32 * 32 * 128 * 2  # multi-head, the same window


def full_attention_by_hand(q, k, v):
    s = q @ k.T / math.sqrt(q.shape[1])
    w = np.exp(s - s.max(axis=1, keepdims=True))
    return (w / w.sum(axis=1, keepdims=True)) @ v


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), d=st.integers(1, 12), block=st.integers(1, 45), scale=st.floats(0.1, 30.0), seed=st.integers(0, 10**6))
def test_online_softmax_is_exactly_softmax_for_any_block_size(n, d, block, scale, seed):
    rng = np.random.default_rng(seed)
    q, k, v = scale * rng.standard_normal((n, d)), scale * rng.standard_normal((n, d)), rng.standard_normal((n, d))
    block = min(block, n)
    online = online_softmax_attention(q, k, v, block)
    np.testing.assert_allclose(online.output, full_attention_by_hand(q, k, v), rtol=0, atol=1e-12 * max(1.0, np.abs(v).max()))
    assert online.maxima.shape == (math.ceil(n / block) + 1, n) and online.held == n * block
    s = q @ k.T / math.sqrt(d)
    np.testing.assert_allclose(online.maxima[-1], s.max(axis=1), rtol=1e-13, atol=1e-13)  # BLAS may round blocks apart
    np.testing.assert_allclose(online.sums[-1], np.exp(s - s.max(axis=1, keepdims=True)).sum(axis=1), rtol=1e-12)


def test_the_online_softmax_trace_by_hand():
    """One query, d_k = 1 (divisor 1), scores 0, 1, 2 against values 1, 2, 3, blocks of 2 keys: worked out on paper."""
    q, k, v = np.array([[1.0]]), np.array([[0.0], [1.0], [2.0]]), np.array([[1.0], [2.0], [3.0]])
    e = math.e
    first = online_softmax_trace(q, k, v, block=2, fold=1)
    assert (first.blocks, first.held) == (2, 2)
    np.testing.assert_array_equal(first.scaled_scores, [[0.0, 1.0, 2.0]])
    np.testing.assert_array_equal(first.folded, [[True, True, False]])
    np.testing.assert_array_equal(first.current, [[True, True, False]])
    np.testing.assert_allclose(first.maxima, [[1.0, np.nan]])  # m = max(0, 1); the second block not yet folded in
    np.testing.assert_allclose(first.sums, [[1 + 1 / e, np.nan]])  # l = e^(0 - 1) + e^(1 - 1)
    np.testing.assert_allclose(first.output, [[(1 / e + 2) / (1 + 1 / e)]], rtol=1e-15)  # (e^-1 * 1 + 1 * 2) / l
    np.testing.assert_allclose(first.full_output, [[(1 / e**2 + 2 / e + 3) / (1 + 1 / e + 1 / e**2)]], rtol=1e-15)
    assert first.difference == pytest.approx(abs(first.output[0, 0] - first.full_output[0, 0]))
    both = online_softmax_trace(q, k, v, block=2, fold=2)
    np.testing.assert_array_equal(both.folded, [[True, True, True]])
    np.testing.assert_array_equal(both.current, [[False, False, True]])
    np.testing.assert_allclose(both.maxima, [[1.0, 2.0]])  # m = max(1, 2)
    np.testing.assert_allclose(both.sums, [[1 + 1 / e, 1 + 1 / e + 1 / e**2]], rtol=1e-15)  # l e^(1 - 2) + e^(2 - 2)
    np.testing.assert_allclose(both.output, both.full_output, rtol=1e-15)
    assert both.difference < 1e-15
    for fold in (0, 3):
        with pytest.raises(ValueError, match="fold must be between 1 and 2"):
            online_softmax_trace(q, k, v, block=2, fold=fold)


def online_softmax_by_loop(q, k, v, block, fold):
    """The running maximum, the running sum and the output so far, one query and one key at a time, in plain Python."""
    n_q, n_k = len(q), len(k)
    maxima, sums, output = np.full((n_q, -(-n_k // block)), np.nan), np.full((n_q, -(-n_k // block)), np.nan), []
    for i in range(n_q):
        m, total, acc = -math.inf, 0.0, [0.0] * len(v[0])
        for b in range(fold):
            keys = range(b * block, min((b + 1) * block, n_k))
            scores = {j: sum(q[i][c] * k[j][c] for c in range(len(q[i]))) / math.sqrt(len(q[i])) for j in keys}
            new_m = max(m, *scores.values())
            total = total * math.exp(m - new_m) + sum(math.exp(s - new_m) for s in scores.values())
            acc = [a * math.exp(m - new_m) + sum(math.exp(scores[j] - new_m) * v[j][c] for j in keys) for c, a in enumerate(acc)]
            m = new_m
            maxima[i, b], sums[i, b] = m, total
        output.append([a / total for a in acc])
    return maxima, sums, np.array(output)


@settings(max_examples=60, deadline=None)
@given(n_q=st.integers(1, 8), n_k=st.integers(1, 12), d=st.integers(1, 4), block=st.integers(1, 12), data=st.data(),
       seed=st.integers(0, 10**6))
def test_the_online_softmax_trace_is_the_loop_and_its_output_is_softmax_over_the_keys_folded_in(n_q, n_k, d, block, data, seed):
    rng = np.random.default_rng(seed)
    q, k, v = 3 * rng.standard_normal((n_q, d)), 3 * rng.standard_normal((n_k, d)), rng.standard_normal((n_k, 2))
    block = min(block, n_k)
    blocks = math.ceil(n_k / block)
    fold = data.draw(st.integers(1, blocks))
    trace = online_softmax_trace(q, k, v, block, fold)
    maxima, sums, output = online_softmax_by_loop(q.tolist(), k.tolist(), v.tolist(), block, fold)
    np.testing.assert_allclose(trace.maxima, maxima, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(trace.sums, sums, rtol=1e-12)
    np.testing.assert_allclose(trace.output, output, rtol=1e-12, atol=1e-12)
    seen = min(fold * block, n_k)  # the output so far is softmax attention over the keys folded in, and only those
    np.testing.assert_allclose(trace.output, full_attention_by_hand(q, k[:seen], v[:seen]), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(trace.folded, np.arange(n_k)[None, :].repeat(n_q, 0) < seen)
    np.testing.assert_array_equal(trace.current.any(axis=0), (np.arange(n_k) >= (fold - 1) * block) & (np.arange(n_k) < seen))
    np.testing.assert_allclose(trace.full_output, full_attention_by_hand(q, k, v), rtol=1e-12, atol=1e-12)
    if fold == blocks:
        assert trace.difference < 1e-12


@pytest.mark.parametrize("n", [1, 2, 5, 20, 33, 100])
@pytest.mark.parametrize("window, global_tokens", [(1, 0), (3, 2), (5, 7), (40, 3)])
def test_the_pairs_each_mask_scores_match_their_formula(n, window, global_tokens):
    assert allowed_pairs("full", n) == np.tril(np.ones((n, n), dtype=bool)).sum()
    assert allowed_pairs("window", n, window) == sliding_window_mask(n, window).sum()
    assert allowed_pairs("sparse", n, window, global_tokens) == sparse_mask(n, window, global_tokens).sum()
    assert allowed_pairs("window", n, window) <= allowed_pairs("sparse", n, window, global_tokens) <= allowed_pairs("full", n)


def test_shuffles_reverse_rotate_and_make_the_man_bite_the_dog():
    words = np.array(["the", "dog", "bit", "the", "man"])
    assert " ".join(words[shuffle_order("swap", 5)]) == "the man bit the dog"
    assert list(shuffle_order("reverse", 4)) == [3, 2, 1, 0] and list(shuffle_order("rotate", 4)) == [1, 2, 3, 0]
    assert list(shuffle_order("swap", 2)) == [0, 1]
    with pytest.raises(ValueError):
        shuffle_order("sort", 3)


def test_mean_distance_by_hand():
    assert mean_distance(np.eye(4)) == 0.0
    previous = np.eye(3, k=-1)
    previous[0, 0] = 1.0  # the first word looks at itself, the others one back
    assert mean_distance(previous) == pytest.approx(2 / 3)


def test_the_rope_grid_depends_on_the_distance_only_and_the_sinusoidal_grid_does_not():
    x_q, x_k = RNG.standard_normal(8), RNG.standard_normal(8)
    w_q, w_k = RNG.standard_normal((8, 4)), RNG.standard_normal((8, 4))
    grid = rope_grid(x_q @ w_q, x_k @ w_k, 10)
    assert diagonal_spread(grid) <= 1e-12
    for m, n in ((3, 1), (7, 2), (0, 9)):
        assert grid[m, n] == pytest.approx(rope_dot_by_complex_numbers(x_q @ w_q, x_k @ w_k, m, n) / 2.0, abs=1e-12)
    assert diagonal_spread(sinusoidal_grid(x_q, x_k, w_q, w_k, 10)) > 1e-3


def test_full_attention_is_softmax_attention_written_out():
    q, k, v = (RNG.standard_normal((6, 4)) for _ in range(3))
    np.testing.assert_allclose(full_attention(q, k, v), full_attention_by_hand(q, k, v), rtol=0, atol=1e-15)
