"""The numbers a compare view says beside two walks: hand values, the article's claim about √d_k, and invariants."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import attend, explain, softmax
from attention_core.compare import head_measures, largest_weight, row_distance, row_spread, weight_moved

rows = st.tuples(st.integers(1, 5), st.integers(2, 6))
matrices = rows.flatmap(lambda shape: arrays(np.float64, shape, elements=st.floats(-30, 30)))


def test_spread_by_hand():
    # [1, 3]: mean 2, deviations ±1 -> 1. [2, 4, 6, 8]: mean 5, squares 9 + 1 + 1 + 9 = 20, / 4 = 5 -> √5.
    assert row_spread(np.array([[1.0, 3.0]]))[0] == 1.0
    assert math.isclose(row_spread(np.array([[2.0, 4.0, 6.0, 8.0]]))[0], math.sqrt(5))
    # A masked key (-inf) is left out: [1, -inf, 3] spreads as [1, 3]; one key left spreads 0.
    np.testing.assert_array_equal(row_spread(np.array([[1.0, -np.inf, 3.0], [5.0, -np.inf, -np.inf]])), [1.0, 0.0])


def test_largest_weight_and_weight_moved_by_hand():
    a = np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]])
    b = np.array([[0.5, 0.0, 0.5], [0.0, 0.0, 1.0]])
    np.testing.assert_array_equal(largest_weight(a), [0.5, 1.0])
    np.testing.assert_array_equal(weight_moved(a, b), [0.5, 1.0])  # half of row 1 moved; all of row 2


def test_row_distance_by_hand():
    np.testing.assert_array_equal(row_distance(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[3.0, 4.0], [1.0, 1.0]])), [5.0, 0.0])


def test_shapes_that_differ_are_refused():
    with pytest.raises(ValueError, match="same shape"):
        row_distance(np.zeros((2, 4)), np.zeros((2, 8)))  # d_k 4 against 8: outputs of other widths
    with pytest.raises(ValueError, match="same shape"):
        weight_moved(np.zeros((2, 2)), np.zeros((3, 3)))


def test_unscaled_scores_spread_sqrt_d_k_times_wider_and_the_softmax_decides():
    """The article's claim, in the numbers the compare view shows: at d_k = 64 the unscaled scores of a row spread
    √64 = 8 times as wide as the scaled ones, and their softmax is far more certain (lower entropy, a larger top weight)."""
    scaled = explain("the cat sat on the mat", d_model=64, d_k=64, score="scaled_dot", seed=3).trace.heads[0]
    unscaled = explain("the cat sat on the mat", d_model=64, d_k=64, score="dot", seed=3).trace.heads[0]
    a, b = head_measures(scaled), head_measures(unscaled)
    np.testing.assert_allclose(b.raw_spread, a.raw_spread)  # the same q · k
    np.testing.assert_allclose(b.scaled_spread, 8 * a.scaled_spread)
    assert (b.entropy <= a.entropy + 1e-12).all() and (b.largest >= a.largest - 1e-12).all()


@settings(max_examples=100, deadline=None)
@given(matrices)
def test_spread_is_the_population_std_and_scales_with_the_scores(scores):
    np.testing.assert_allclose(row_spread(scores), scores.std(axis=-1), atol=1e-9)
    np.testing.assert_allclose(row_spread(3 * scores), 3 * row_spread(scores), atol=1e-9)
    np.testing.assert_allclose(row_spread(scores + 7), row_spread(scores), atol=1e-9)  # a shift changes no spread


@settings(max_examples=100, deadline=None)
@given(matrices, st.integers(0, 1000))
def test_weights_measures_stay_in_their_ranges(scores, seed):
    a = softmax(scores)
    b = softmax(np.random.default_rng(seed).permutation(scores, axis=1))
    n = scores.shape[1]
    assert ((largest_weight(a) >= 1 / n - 1e-12) & (largest_weight(a) <= 1 + 1e-12)).all()
    moved = weight_moved(a, b)
    assert ((moved >= 0) & (moved <= 1 + 1e-12)).all()
    np.testing.assert_allclose(moved, weight_moved(b, a))
    np.testing.assert_allclose(weight_moved(a, a), 0.0)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10_000))
def test_measures_of_a_head_match_a_loop(seed):
    generator = np.random.default_rng(seed)
    head = attend(*(generator.standard_normal(shape) for shape in ((3, 4), (5, 4), (5, 2))))
    found = head_measures(head)
    for i in range(3):
        row = head.weights[i]
        assert math.isclose(found.largest[i], max(row))
        assert math.isclose(found.entropy[i], -sum(w * math.log2(w) for w in row if w > 0), abs_tol=1e-12)
        mean = sum(head.raw_scores[i]) / 5
        assert math.isclose(found.raw_spread[i], math.sqrt(sum((s - mean) ** 2 for s in head.raw_scores[i]) / 5), rel_tol=1e-9)
