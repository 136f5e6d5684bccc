"""attend() and multi_head() against attention_core.reference, a short independent re-implementation.

Every score function x every mode x with and without a mask x several temperatures must agree
to 1e-12, on seeded random inputs and on hypothesis cases. The last tests mutate a score
function (|tanh| in additive, W^T in bilinear) and check that the comparison then fails: the
hand-worked core tests use W = 0, U = I and a diagonal W, which cannot tell these apart.
"""

import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import MODES, SCORE_FUNCTIONS, SCORES, attend, multi_head, reference
from attention_core import scores as score_module

TOLERANCE = dict(rtol=1e-12, atol=1e-12)
WINDOW = 1  # small enough that the local window leaves keys out
PARAMETER_FREE = ("dot", "scaled_dot", "cosine")  # attend draws no parameters from rng for these


def score_params(score, d_q, d_k, rng):
    """The score function's parameters, drawn here and given to both implementations."""
    d_a = d_k  # attend checks the shapes of its default parameters, which use d_a = d_k
    if score == "additive":
        return {"W": rng.normal(size=(d_q, d_a)), "U": rng.normal(size=(d_k, d_a)), "v": rng.normal(size=d_a)}
    if score == "bilinear":
        return {"W": rng.normal(size=(d_q, d_k))}  # not symmetric: q W k^T differs from q W^T k^T
    if score == "cosine":
        return {"divisor": 0.25}
    return {}


def random_case(seed, score, n_q=5, n_k=7, d_q=4, d_v=3, masked=False):
    """Seeded q (n_q, d_q), k (n_k, d_k), v (n_k, d_v), mask (n_q, n_k) or None, and parameters."""
    rng = np.random.default_rng(seed)
    d_k = d_q if SCORE_FUNCTIONS[score].same_size else d_q + 2
    q, k, v = rng.normal(size=(n_q, d_q)), rng.normal(size=(n_k, d_k)), rng.normal(size=(n_k, d_v))
    mask = None
    if masked:
        mask = rng.random((n_q, n_k)) < 0.6
        mask[-1] = False  # a row with nothing allowed
    return q, k, v, mask, score_params(score, d_q, d_k, rng)


def assert_attend_matches_reference(q, k, v, *, score, mode, mask, temperature, params, sample=False, seed=0):
    trace = attend(q, k, v, score=score, mode=mode, mask=mask, temperature=temperature, window=WINDOW, params=params,
                   sample=sample, rng=np.random.default_rng(seed))
    weights, output = reference.attention(q, k, v, score, mask, mode, temperature, WINDOW, params, sample, np.random.default_rng(seed))
    np.testing.assert_allclose(trace.weights, weights, **TOLERANCE)
    np.testing.assert_allclose(trace.output, output, **TOLERANCE)
    expected_scaled = reference.scores(q, k, score, params or {}) / temperature  # [n_q, n_k]
    np.testing.assert_allclose(trace.scaled_scores, expected_scaled, **TOLERANCE)


def test_the_reference_covers_every_score_and_mode():
    q, k, v, _, _ = random_case(0, "dot")
    for score in SCORES:
        params = score_params(score, 4, 4, np.random.default_rng(0))
        for mode in MODES:
            weights, output = reference.attention(q, k, v, score, mode=mode, params=params)
            assert weights.shape == (5, 7) and output.shape == (5, 3)


@pytest.mark.parametrize("temperature", [0.3, 1.0, 4.7])
@pytest.mark.parametrize("masked", [False, True], ids=["all-allowed", "masked"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("score", SCORES)
def test_attend_equals_the_reference(score, mode, masked, temperature):
    for seed in range(3):
        q, k, v, mask, params = random_case(seed, score, masked=masked)
        assert_attend_matches_reference(q, k, v, score=score, mode=mode, mask=mask, temperature=temperature, params=params)


def test_cosine_with_the_default_divisor():
    q, k, v, mask, _ = random_case(4, "cosine", masked=True)
    assert_attend_matches_reference(q, k, v, score="cosine", mode="soft", mask=mask, temperature=1.0, params=None)  # divisor 0.1


@pytest.mark.parametrize("masked", [False, True], ids=["all-allowed", "masked"])
@pytest.mark.parametrize("mode", ["hard", "local"])
@pytest.mark.parametrize("score", PARAMETER_FREE)
def test_sampled_keys_equal_the_reference(score, mode, masked):
    for seed in range(4):
        q, k, v, mask, params = random_case(seed, score, masked=masked)
        assert_attend_matches_reference(q, k, v, score=score, mode=mode, mask=mask, temperature=1.0, params=params,
                                        sample=True, seed=seed)


finite = st.floats(-3, 3, allow_nan=False, allow_infinity=False)


@st.composite
def cases(draw):
    """Small q, k, v, a mask or None, a score function with parameters, a mode and a power-of-two temperature."""
    score, mode = draw(st.sampled_from(SCORES)), draw(st.sampled_from(MODES))
    n_q, n_k, d_q, d_v = (draw(st.integers(1, 5)) for _ in range(4))
    d_k = d_q if SCORE_FUNCTIONS[score].same_size else draw(st.integers(1, 5))
    q = draw(arrays(np.float64, (n_q, d_q), elements=finite))
    k = draw(arrays(np.float64, (n_k, d_k), elements=finite))
    v = draw(arrays(np.float64, (n_k, d_v), elements=finite))
    mask = draw(st.none() | arrays(np.bool_, (n_q, n_k)))
    params = score_params(score, d_q, d_k, np.random.default_rng(draw(st.integers(0, 1000))))
    temperature = draw(st.sampled_from([0.25, 0.5, 1.0, 2.0, 8.0]))  # exact either way: a*(b*t) = (a*b)*t for t = 2^m
    return q, k, v, mask, score, mode, temperature, params


@settings(max_examples=200, deadline=None)
@given(cases())
def test_attend_equals_the_reference_on_hypothesis_cases(case):
    q, k, v, mask, score, mode, temperature, params = case
    assert_attend_matches_reference(q, k, v, score=score, mode=mode, mask=mask, temperature=temperature, params=params)


def projections(seed, d_model, d_k, d_v, heads):  # -> W_Q, W_K [d_model, h*d_k], W_V [d_model, h*d_v], W_O [h*d_v, d_model]
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(d_model, heads * d_k)), rng.normal(size=(d_model, heads * d_k)),
            rng.normal(size=(d_model, heads * d_v)), rng.normal(size=(heads * d_v, d_model)))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("score", SCORES)
@pytest.mark.parametrize("heads", [1, 2, 3, 4])
def test_multi_head_equals_the_reference_in_cross_attention(heads, score, mode):
    d_model, d_k, d_v, n_q, n_k = 6, 3, 2, 4, 7  # cross attention: n_q != n_k
    rng = np.random.default_rng(heads)
    x_q, x_kv = rng.normal(size=(n_q, d_model)), rng.normal(size=(n_k, d_model))
    w_q, w_k, w_v, w_o = projections(heads, d_model, d_k, d_v, heads)
    params = score_params(score, d_k, d_k, rng)
    for mask in (None, rng.random((n_q, n_k)) < 0.7):
        options = dict(score=score, mode=mode, mask=mask, temperature=0.8, params=params)
        trace = multi_head(x_q, x_kv, w_q, w_k, w_v, w_o, heads=heads, window=WINDOW, **options)
        expected = reference.multi_head(x_q, x_kv, w_q, w_k, w_v, w_o, heads, radius=WINDOW, **options)
        assert trace.output.shape == expected.shape == (n_q, d_model)
        np.testing.assert_allclose(trace.output, expected, **TOLERANCE)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 3), st.integers(1, 3), st.integers(1, 5), st.integers(1, 5), st.integers(0, 999),
       st.sampled_from(SCORES), st.booleans())
def test_multi_head_equals_the_reference_on_hypothesis_cases(heads, d_k, d_v, n_q, n_k, seed, score, masked):
    rng = np.random.default_rng(seed)
    x_q, x_kv = rng.normal(size=(n_q, 5)), rng.normal(size=(n_k, 5))
    mask = rng.random((n_q, n_k)) < 0.5 if masked else None
    options = dict(score=score, mask=mask, params=score_params(score, d_k, d_k, rng))
    w = projections(seed, 5, d_k, d_v, heads)
    np.testing.assert_allclose(multi_head(x_q, x_kv, *w, heads=heads, **options).output,
                               reference.multi_head(x_q, x_kv, *w, heads, **options), **TOLERANCE)


def test_the_reference_imports_only_numpy():
    tree = ast.parse(Path(reference.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"numpy"}


# Two mistakes the hand-worked tests let through: |tanh| has the same values there (tanh >= 0 for
# W = 0, U = I, q >= 0), and a diagonal W is its own transpose.

def abs_tanh_additive(q, k, params):  # [n_q, d_q], [n_k, d_k] -> [n_q, n_k]
    return np.abs(np.tanh((q @ params["W"])[:, None, :] + (k @ params["U"])[None, :, :])) @ params["v"]


def transposed_bilinear(q, k, params):  # [n_q, d], [n_k, d] -> [n_q, n_k]; needs d_q = d_k
    return q @ params["W"].T @ k.T


def mutate(monkeypatch, score, function):
    """Replace one score function in attention_core.scores, where attend looks it up."""
    monkeypatch.setattr(score_module, f"{score}_scores", function)
    monkeypatch.setitem(SCORE_FUNCTIONS, score, dataclasses.replace(SCORE_FUNCTIONS[score], scores=function))


@pytest.mark.parametrize(("score", "mutant"), [("additive", abs_tanh_additive), ("bilinear", transposed_bilinear)])
def test_the_comparison_catches_a_mutated_score_function(monkeypatch, score, mutant):
    rng = np.random.default_rng(11)
    q, k, v = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))  # d_q = d_k so W^T fits
    params = score_params(score, 4, 4, rng)
    assert not np.allclose(mutant(q, k, params), reference.scores(q, k, score, params))  # the mutation changes the scores
    check = dict(score=score, mode="soft", mask=None, temperature=1.0, params=params)
    assert_attend_matches_reference(q, k, v, **check)  # the real function passes ...
    mutate(monkeypatch, score, mutant)
    with pytest.raises(AssertionError):
        assert_attend_matches_reference(q, k, v, **check)  # ... the mutant fails
    w = projections(11, 6, 4, 2, 2)
    x = rng.normal(size=(4, 6))
    with pytest.raises(AssertionError):  # and through multi_head too
        np.testing.assert_allclose(multi_head(x, x, *w, heads=2, score=score, params=params).output,
                                   reference.multi_head(x, x, *w, 2, score=score, params=params), **TOLERANCE)
