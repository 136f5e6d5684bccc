"""The scaling lab's experiments: variance d_k, saturation, vanishing gradients, exact sampling, memory."""

import math
import tracemalloc

import numpy as np
import pytest

from attention_core import (
    check_lab,
    direct_raw_scores,
    divisor_choices,
    jacobian_norms,
    memory_bytes,
    sample_raw_scores,
    score_histogram,
    softmax,
    softmax_jacobian,
    softmax_stats,
    sweep,
)
from attention_core.scaling import MEMORY_LIMIT_BYTES, loser_gradients


@pytest.mark.parametrize("d_k", [16, 256, 1024])
def test_variance_of_raw_scores_is_d_k(d_k):
    raw = sample_raw_scores(d_k, 64, 20_000, np.random.default_rng(0))
    assert abs(raw.var() / d_k - 1) < 0.05
    assert abs((raw / math.sqrt(d_k)).var() - 1) < 0.05


def test_exact_sampling_agrees_with_literal_dot_products():
    exact = sample_raw_scores(32, 16, 4000, np.random.default_rng(1))
    literal = direct_raw_scores(32, 16, 4000, np.random.default_rng(2))
    assert abs(exact.var() / literal.var() - 1) < 0.05
    assert abs(exact.mean()) < 0.1 and abs(literal.mean()) < 0.1
    # the scores of one query share |q|: their correlation structure matches too
    assert abs(np.corrcoef(exact[:, 0] ** 2, exact[:, 1] ** 2)[0, 1] - np.corrcoef(literal[:, 0] ** 2, literal[:, 1] ** 2)[0, 1]) < 0.06


def test_sweep_scaled_entropy_stays_while_raw_falls():
    result = sweep(64, 2000, seed=0)
    assert abs(result.scaled_entropy[-1] - result.scaled_entropy[0]) < 0.15
    assert result.raw_entropy[-1] < 0.25 * result.raw_entropy[0]
    assert np.all(np.diff(result.raw_entropy) < 0.05)
    assert result.raw_max_weight[-1] > 0.9 and result.scaled_max_weight[-1] < 0.3
    assert result.raw_gradient[-1] < 0.3 * result.scaled_gradient[-1]  # vanishing gradients
    np.testing.assert_allclose(result.variance / result.d_k, 1.0, atol=0.1)


def test_sweep_is_identical_for_the_same_seed():
    a, b = sweep(16, 500, seed=3), sweep(16, 500, seed=3)
    np.testing.assert_array_equal(a.raw_entropy, b.raw_entropy)
    assert not np.array_equal(a.raw_entropy, sweep(16, 500, seed=4).raw_entropy)


def test_temperature_flattens():
    hot, cold = sweep(16, 500, seed=0, temperature=4.0), sweep(16, 500, seed=0, temperature=0.25)
    assert np.all(hot.scaled_entropy > cold.scaled_entropy)


def test_jacobian_matches_finite_differences():
    scores = np.array([0.3, -1.2, 2.0, 0.5])
    p = softmax(scores[None, :])[0]
    eps = 1e-6
    numeric = np.stack([(softmax((scores + eps * e)[None, :])[0] - softmax((scores - eps * e)[None, :])[0]) / (2 * eps)
                        for e in np.eye(4)], axis=1)
    np.testing.assert_allclose(softmax_jacobian(p), numeric, atol=1e-8)
    np.testing.assert_allclose(jacobian_norms(p), np.linalg.norm(softmax_jacobian(p)), rtol=1e-12)


def test_jacobian_norm_extremes():
    assert jacobian_norms(np.array([1.0, 0.0, 0.0])) == 0.0  # saturated: no gradient
    uniform = np.full(4, 0.25)
    np.testing.assert_allclose(jacobian_norms(uniform), np.linalg.norm(np.diag(uniform) - np.outer(uniform, uniform)))


def test_softmax_stats_and_histogram():
    raw = np.array([[112.0, 96.0]])
    assert softmax_stats(raw, 1.0).max_weight > 0.9999998
    np.testing.assert_allclose(softmax_stats(raw, 8.0).max_weight, 0.8807970779778823)
    edges, counts = score_histogram(np.array([-1.0, 0.0, 0.5, 1.0]), bins=4)
    assert counts.sum() == 4 and edges[0] == -1.0 and edges[-1] == 1.0


def test_limits_and_memory():
    with pytest.raises(ValueError, match="MB limit"):
        check_lab(64, 512, 50_000)
    with pytest.raises(ValueError, match="d_k must be between 1 and 4096"):
        check_lab(0, 64, 1000)
    samples, keys = 8000, 512  # the largest the page's choices allow within the limit
    assert memory_bytes(samples, keys) <= MEMORY_LIMIT_BYTES
    tracemalloc.start()
    sweep(keys, samples, seed=0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < MEMORY_LIMIT_BYTES


def test_loser_gradient_by_hand():
    # weights 0.5, 0.3, 0.2: the winner is key 1; the others get 0.3 * 0.7 = 0.21 and 0.2 * 0.8 = 0.16, mean 0.185
    assert loser_gradients(np.array([0.5, 0.3, 0.2])) == pytest.approx(0.185)
    assert loser_gradients(np.array([[1.0, 0.0, 0.0]]))[0] == 0.0  # saturated: nothing reaches the other keys
    uniform = np.full(4, 0.25)
    assert loser_gradients(uniform) == pytest.approx(0.25 * 0.75)


def test_without_scaling_the_gradient_to_other_keys_falls_and_with_it_stays_level():
    """The article's claim, measured: unscaled, the gradient reaching non-winning keys falls steadily with d_k."""
    result = sweep(64, 2000, seed=0)
    raw, scaled = result.raw_loser_gradient, result.scaled_loser_gradient
    assert np.all(np.diff(raw[2:]) < 0)  # d_k = 4, 8, ... 4096: every doubling lowers it
    assert raw[-1] < raw[2] / 20
    assert scaled.max() / scaled.min() < 1.2  # level at every d_k
    at_64 = list(result.d_k).index(64)
    assert scaled[at_64] > 3 * raw[at_64]  # at the article's d_k = 64 scaling already matters


def test_divisor_choices_divide_the_same_scores_three_ways():
    c = divisor_choices(64, 2000, seed=0)
    raw = sample_raw_scores(64, 64, 2000, np.random.default_rng(0))
    assert (c.d_model, c.heads, c.d_k) == (512, 8, 64) and c.ratio == pytest.approx(math.sqrt(8))
    for stats, divisor in ((c.none, 1.0), (c.right, 8.0), (c.wrong, math.sqrt(512))):
        assert stats.divisor == divisor and stats.spread == pytest.approx((raw / divisor).std())
        assert stats.loser_gradient == pytest.approx(loser_gradients(softmax(raw / divisor)).mean())
    assert c.closest_spread() == "right" and c.ranked() == ("wrong", "right", "none")  # 0.0151, 0.0138, 0.0026
    with pytest.raises(ValueError, match="heads must divide"):
        divisor_choices(64, 2000, d_model=512, heads=7)
