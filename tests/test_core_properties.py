"""Invariants of attention that must hold for every input (hypothesis)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import SCORES, attend, causal_mask, explain, init_projections, multi_head, tokenize

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@st.composite
def qkv(draw, max_n=6, max_d=5):
    """Random queries, keys, values and a mask: q (n_q, d), k (n_k, d), v (n_k, d_v), mask (n_q, n_k)."""
    n_q, n_k = draw(st.integers(1, max_n)), draw(st.integers(1, max_n))
    d, d_v = draw(st.integers(1, max_d)), draw(st.integers(1, max_d))
    q = draw(arrays(np.float64, (n_q, d), elements=finite))
    k = draw(arrays(np.float64, (n_k, d), elements=finite))
    v = draw(arrays(np.float64, (n_k, d_v), elements=finite))
    mask = draw(arrays(np.bool_, (n_q, n_k)))
    return q, k, v, mask


@settings(max_examples=150, deadline=None)
@given(qkv(), st.sampled_from(SCORES), st.sampled_from(["soft", "local", "local-monotonic"]), st.floats(1e-3, 1e3))
def test_allowed_weights_sum_to_one_and_masked_are_zero(data, score, mode, temperature):
    q, k, v, mask = data
    trace = attend(q, k, v, score=score, mask=mask, mode=mode, temperature=temperature, window=1)
    assert np.all(np.isfinite(trace.weights)) and np.all(np.isfinite(trace.output))
    assert np.all(trace.weights[~mask] == 0.0)
    assert np.all(trace.weights[~trace.mask] == 0.0)
    sums = trace.weights.sum(axis=1)
    has_any = trace.mask.any(axis=1)
    np.testing.assert_allclose(sums[has_any], 1.0, rtol=1e-12)
    np.testing.assert_array_equal(sums[~has_any], 0.0)
    np.testing.assert_array_equal(trace.output[~has_any], 0.0)


@settings(max_examples=100, deadline=None)
@given(qkv(), st.sampled_from(SCORES))
def test_each_output_row_is_a_convex_combination_of_v(data, score):
    q, k, v, _ = data
    trace = attend(q, k, v, score=score)
    assert np.all(trace.weights >= 0.0)
    tolerance = 1e-9 * (1 + np.abs(v).max())
    assert np.all(trace.output <= v.max(axis=0) + tolerance)
    assert np.all(trace.output >= v.min(axis=0) - tolerance)
    np.testing.assert_allclose(trace.output, trace.weights @ v)


@settings(max_examples=100, deadline=None)
@given(qkv(), st.booleans())
def test_hard_weights_are_one_hot(data, sample):
    q, k, v, mask = data
    trace = attend(q, k, v, mask=mask, mode="hard", sample=sample, rng=np.random.default_rng(3))
    for row, allowed in zip(trace.weights, mask):
        if allowed.any():
            assert sorted(row.tolist())[-1] == 1.0 and np.count_nonzero(row) == 1
            assert allowed[np.argmax(row)]
        else:
            assert not row.any()


@settings(max_examples=100, deadline=None)
@given(qkv())
def test_cosine_raw_scores_lie_in_minus_one_one(data):
    q, k, v, _ = data
    raw = attend(q, k, v, score="cosine").raw_scores
    assert np.all(raw >= -1.0) and np.all(raw <= 1.0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "cat", "the", "猫", "!"]), min_size=2, max_size=7), st.randoms())
def test_self_attention_without_positions_is_permutation_equivariant(words, random):
    order = list(range(len(words)))
    random.shuffle(order)
    text = " ".join(words)
    shuffled = " ".join(words[i] for i in order)
    a = explain(text, d_model=6, d_k=3, heads=2, positions=False)
    b = explain(shuffled, d_model=6, d_k=3, heads=2, positions=False)
    np.testing.assert_allclose(b.trace.output, a.trace.output[order], atol=1e-12)
    np.testing.assert_allclose(b.trace.heads[1].weights, a.trace.heads[1].weights[np.ix_(order, order)], atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 5), st.integers(1, 4), st.integers(1, 4), st.integers(1, 6), st.integers(1, 6),
    st.integers(0, 99), st.sampled_from(SCORES), st.booleans(),
)
def test_multi_head_equals_an_independent_loop(heads, d_k, d_v, n_q, n_k, seed, score, causal):
    d_model = 5
    rng = np.random.default_rng(seed)
    x_q, x_kv = rng.normal(size=(n_q, d_model)), rng.normal(size=(n_k, d_model))
    w = init_projections(d_model, d_k, d_v, heads, seed=seed)
    mask = causal_mask(n_q, n_k) if causal else None
    trace = multi_head(x_q, x_kv, w.w_q, w.w_k, w.w_v, w.w_o, heads=heads, score=score, mask=mask)
    assert trace.concat.shape == (n_q, heads * d_v) and trace.output.shape == (n_q, d_model)
    if score in ("dot", "scaled_dot", "cosine"):  # the parameter-free scores: a plain loop from the definition
        columns_k = [slice(h * d_k, (h + 1) * d_k) for h in range(heads)]
        columns_v = [slice(h * d_v, (h + 1) * d_v) for h in range(heads)]
        expected = np.concatenate(
            [reference_head(x_q @ w.w_q[:, ck], x_kv @ w.w_k[:, ck], x_kv @ w.w_v[:, cv], score, mask) for ck, cv in zip(columns_k, columns_v)],
            axis=1,
        )
        np.testing.assert_allclose(trace.concat, expected, atol=1e-10)
        np.testing.assert_allclose(trace.output, expected @ w.w_o, atol=1e-10)


def reference_head(q, k, v, score, mask):
    """Attention for one head written out with plain Python loops, independent of the core."""
    import math

    n_q, n_k, d_k = len(q), len(k), len(q[0])
    out = []
    for i in range(n_q):
        scores = []
        for j in range(n_k):
            s = sum(q[i][t] * k[j][t] for t in range(d_k))
            if score == "scaled_dot":
                s /= math.sqrt(d_k)
            if score == "cosine":
                nq = math.sqrt(sum(a * a for a in q[i]))
                nk = math.sqrt(sum(b * b for b in k[j]))
                s = (s / (nq * nk) if nq and nk else 0.0) / 0.1
            scores.append(s if mask is None or mask[i][j] else None)
        allowed = [s for s in scores if s is not None]
        top = max(allowed)
        exps = [math.exp(s - top) if s is not None else 0.0 for s in scores]
        total = sum(exps)
        out.append([sum(exps[j] / total * v[j][c] for j in range(n_k)) for c in range(len(v[0]))])
    return np.array(out)


def test_one_head_equals_one_attend_call():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(4, 6))
    w = init_projections(6, 3, 2, 1, seed=7)
    for score in SCORES:
        trace = multi_head(x, x, w.w_q, w.w_k, w.w_v, w.w_o, heads=1, score=score)
        single = attend(x @ w.w_q, x @ w.w_k, x @ w.w_v, score=score)
        np.testing.assert_array_equal(trace.heads[0].weights, single.weights)
        np.testing.assert_array_equal(trace.concat, single.output)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_tokenize_never_fails_and_never_keeps_whitespace(text):
    tokens = tokenize(text)
    assert all(token and not token.isspace() for token in tokens)
    assert all(not any(ch.isspace() for ch in token) for token in tokens)
