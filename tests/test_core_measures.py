"""Measures and variants for comparing kinds of attention: hand values and invariants."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import (
    asymmetry,
    cosine_similarity,
    entropy_bits,
    explain,
    gumbel_noise,
    gumbel_softmax,
    polar_vector,
    similarity_matrices,
    softmax,
    softmax_over_scales,
    stretch_sweep,
    vector_pair,
    weighted_sum,
)

scores_strategy = arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 6)), elements=st.floats(-20, 20))


def test_entropy_by_hand():
    assert entropy_bits(np.full((1, 8), 1 / 8))[0] == 3.0  # log2 8
    np.testing.assert_array_equal(entropy_bits(np.eye(4)), 0.0)
    np.testing.assert_allclose(entropy_bits(np.array([[0.5, 0.5, 0.0]])), [1.0])


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 64))
def test_entropy_of_a_uniform_row_is_log2_n(n):
    np.testing.assert_allclose(entropy_bits(np.full((1, n), 1 / n)), [math.log2(n)], atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(scores_strategy, st.integers(0, 1000))
def test_gumbel_softmax_rows_sum_to_one_and_sharpen_as_tau_falls(scores, seed):
    noise = gumbel_noise(scores.shape, np.random.default_rng(seed))
    hot = gumbel_softmax(scores, 1e-3, noise)
    np.testing.assert_allclose(gumbel_softmax(scores, 1.0, noise).sum(axis=1), 1.0)
    np.testing.assert_allclose(hot.sum(axis=1), 1.0)
    perturbed = scores + noise
    top_two = np.sort(perturbed, axis=1)[:, -2:] if scores.shape[1] > 1 else None
    if top_two is not None and np.all(top_two[:, 1] - top_two[:, 0] > 0.05):
        np.testing.assert_allclose(hot.max(axis=1), 1.0, atol=1e-6)  # one-hot at the perturbed argmax
        np.testing.assert_array_equal(hot.argmax(axis=1), perturbed.argmax(axis=1))
    assert np.all(entropy_bits(gumbel_softmax(scores, 100.0, noise)) >= entropy_bits(hot) - 1e-9)


def test_gumbel_with_zero_noise_is_softmax():
    scores = np.array([[1.0, 2.0, 3.0]])
    np.testing.assert_allclose(gumbel_softmax(scores, 1.0, np.zeros((1, 3))), softmax(scores))


def test_shared_matrix_scores_are_symmetric():
    shared = explain("the animal didn't cross the street because it was too tired", shared_qk=True, d_model=16, d_k=8)
    assert np.abs(asymmetry(shared.trace.heads[0].raw_scores)).max() <= 1e-12
    separate = explain("the animal didn't cross the street because it was too tired", d_model=16, d_k=8)
    assert np.abs(asymmetry(separate.trace.heads[0].raw_scores)).max() > 0.1


def test_weighted_sum_without_values():
    weights = np.array([[0.25, 0.75]])
    x = np.array([[4.0, 0.0], [0.0, 8.0]])
    np.testing.assert_array_equal(weighted_sum(weights, x), [[1.0, 6.0]])


def test_vectors_and_cosine_by_hand():
    np.testing.assert_allclose(polar_vector(90, 2), [0.0, 2.0], atol=1e-15)
    assert math.isclose(cosine_similarity(polar_vector(0, 1), polar_vector(60, 5)), 0.5)
    pair = vector_pair(0, 2, 180, 3)
    assert math.isclose(pair.cos, -1.0) and math.isclose(pair.dot, -6.0)
    assert cosine_similarity(np.zeros(2), np.ones(2)) == 0.0


@settings(max_examples=100, deadline=None)
@given(st.floats(-180, 180), st.floats(0.1, 10), st.floats(-180, 180), st.floats(0.1, 10))
def test_cosine_is_the_cosine_of_the_angle_and_ignores_length(angle_a, length_a, angle_b, length_b):
    pair = vector_pair(angle_a, length_a, angle_b, length_b)
    assert -1.0 <= pair.cos <= 1.0
    assert math.isclose(pair.cos, math.cos(math.radians(angle_b - angle_a)), abs_tol=1e-9)
    assert math.isclose(pair.dot, length_a * length_b * pair.cos, rel_tol=1e-9, abs_tol=1e-9)
    cosines, dots = stretch_sweep(pair.a, pair.b, np.array([0.5, 1.0, 2.0]))
    np.testing.assert_allclose(cosines, pair.cos, atol=1e-9)
    np.testing.assert_allclose(dots, np.array([0.5, 1.0, 2.0]) * length_a * pair.cos, atol=1e-9)


def test_softmax_over_scales():
    weights = softmax_over_scales(np.array([1.0, 0.0, -1.0]), np.array([0.0, 1.0, 100.0]))
    np.testing.assert_allclose(weights[0], 1 / 3)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)
    assert weights[2, 0] > 0.999
    np.testing.assert_allclose(weights[1], softmax(np.array([[1.0, 0.0, -1.0]]))[0])


def test_similarity_matrices():
    x = np.array([[1.0, 0.0], [2.0, 0.0], [0.0, 3.0]])
    cosine, dot = similarity_matrices(x)
    np.testing.assert_allclose(cosine, [[1, 1, 0], [1, 1, 0], [0, 0, 1]])
    np.testing.assert_allclose(dot, x @ x.T)
