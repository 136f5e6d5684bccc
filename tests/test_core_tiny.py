"""The tiny transformer: gradients against central finite differences, the cached decode against the full pass,
training deterministic for a seed and able to learn a task whose attention is known."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.tiny import TinyConfig, adam, adam_state, decode_step, empty_cache, forward, gradients, init_tiny, logits, loss

CONFIGS = [
    TinyConfig(vocab=7, context=6, d_model=8, heads=2, layers=2),
    TinyConfig(vocab=5, context=5, d_model=6, heads=3, layers=1, positions="sinusoidal", scaled=False),
    TinyConfig(vocab=6, context=4, d_model=4, heads=1, layers=2, scaled=True),
]


def numeric_gradient(params, batch, name: str, step: float = 1e-5) -> np.ndarray:
    """Central differences (f(p + h) - f(p - h)) / 2h for every entry of one parameter (the parameters are read-only:
    each side is a copy with one entry moved)."""
    result = np.zeros_like(params[name])
    for index in np.ndindex(params[name].shape):
        original = params[name][index]
        values = []
        for moved in (original + step, original - step):
            changed = params[name].copy()
            changed[index] = moved
            values.append(loss(type(params)(params.config, {**params, name: changed}), batch))
        up, down = values
        result[index] = (up - down) / (2 * step)
    return result


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"d{c.d_model}-h{c.heads}-l{c.layers}-{c.positions}-{c.scaled}")
def test_gradients_match_central_differences_on_every_parameter(config):
    params = init_tiny(config, seed=3)
    batch = np.random.default_rng(1).integers(0, config.vocab, (3, config.context + 1))
    analytic = gradients(params, batch)
    assert set(analytic) == set(params) and all(analytic[k].shape == params[k].shape for k in params)
    for name in params:
        numeric = numeric_gradient(params, batch, name)
        error = np.linalg.norm(numeric - analytic[name]) / max(np.linalg.norm(numeric) + np.linalg.norm(analytic[name]), 1e-12)
        assert error <= 1e-6, (name, error)


def test_causal_mask_is_minus_infinity_above_the_diagonal_and_weights_exactly_zero():
    config = CONFIGS[0]
    trace = forward(init_tiny(config), np.arange(6) % config.vocab)
    above = np.triu(np.ones((6, 6), dtype=bool), k=1)
    for layer in trace.layers:
        assert np.all(np.isneginf(layer.masked_scores[..., above])) and np.all(np.isfinite(layer.masked_scores[..., ~above]))
        assert np.all(layer.weights[..., above] == 0.0)
        np.testing.assert_allclose(layer.weights.sum(axis=-1), 1.0, atol=1e-12)


def test_a_later_token_never_changes_an_earlier_prediction():
    params = init_tiny(CONFIGS[0], seed=2)
    a, b = np.array([1, 2, 3, 4, 5]), np.array([1, 2, 3, 6, 0])
    np.testing.assert_array_equal(logits(params, a)[:3], logits(params, b)[:3])


@pytest.mark.parametrize("config", CONFIGS[:2], ids=["learned", "sinusoidal-unscaled"])
def test_decoding_with_the_cache_gives_the_full_passes_logits(config):
    params = init_tiny(config, seed=5)
    tokens = np.random.default_rng(0).integers(0, config.vocab, config.context)
    full = logits(params, tokens)
    cache = empty_cache(params)
    for t, token in enumerate(tokens):
        step_logits, cache, rows = decode_step(params, cache, int(token))
        np.testing.assert_allclose(step_logits, full[t], rtol=0, atol=1e-12)
        assert cache.length == t + 1 and all(row.shape == (config.heads, t + 1) for row in rows)
    assert cache.nbytes() == 2 * config.layers * config.heads * config.context * config.d_k * 8


def train(config: TinyConfig, batches: np.ndarray, steps: int, lr: float = 1e-2, seed: int = 0):
    params = init_tiny(config, seed)
    state = adam_state(params)
    for step in range(steps):
        params, state = adam(params, gradients(params, batches[step % len(batches)]), state, lr=lr)
    return params


def copy_batches(vocab: int, length: int, count: int, seed: int) -> np.ndarray:
    """Sequences that repeat their first half: the second half is predictable only by attending back."""
    rng = np.random.default_rng(seed)
    half = rng.integers(0, vocab, (count, 16, length // 2))
    return np.concatenate([half, half], axis=-1)


def test_training_is_deterministic_for_a_seed():
    config = CONFIGS[0]
    batches = np.random.default_rng(0).integers(0, config.vocab, (4, 8, config.context + 1))
    first, second = train(config, batches, 5), train(config, batches, 5)
    assert all(np.array_equal(first[k], second[k]) for k in first)


def test_a_copy_task_is_learned():
    config = TinyConfig(vocab=8, context=11, d_model=32, heads=2, layers=2)
    batches = copy_batches(8, 12, 200, seed=0)
    params = train(config, batches, 200)
    test = copy_batches(8, 12, 1, seed=99)[0]
    predicted = logits(params, test[:, :-1]).argmax(axis=-1)[:, 6:]  # positions whose next token is a copy
    assert (predicted == test[:, 7:]).mean() >= 0.9


@pytest.mark.parametrize("config", CONFIGS, ids=["2-layers", "unscaled-sinusoidal", "one-head"])
def test_the_gradient_reaching_the_scores_matches_a_finite_difference_along_the_scores(config):
    """Scaling W_Q by (1 + e) scales every score by (1 + e), so d loss / d e = sum over unmasked (d loss / d s) * s:
    a central difference checks the score gradients that ``score_gradient`` averages."""
    from attention_core.tiny import _backward

    params = init_tiny(config, seed=3)
    batch = np.random.default_rng(4).integers(0, config.vocab, (3, config.context + 1))
    _, d_scores = _backward(params, batch)
    trace = forward(params, batch[:, :-1])
    for layer in range(config.layers):
        scores = np.where(np.isfinite(trace.layers[layer].masked_scores), trace.layers[layer].masked_scores, 0.0)
        analytic = float((d_scores[layer] * scores).sum())
        step = 1e-6
        values = []
        for sign in (1, -1):
            shifted = type(params)(config, {**params, f"l{layer}.w_q": params[f"l{layer}.w_q"] * (1 + sign * step)})
            values.append(loss(shifted, batch))
        numeric = (values[0] - values[1]) / (2 * step)
        assert abs(analytic - numeric) <= 1e-6 * max(1.0, abs(numeric))
        n = config.context
        assert np.all(d_scores[layer][..., np.triu(np.ones((n, n), dtype=bool), k=1)] == 0)  # masked scores get nothing


def test_without_the_division_less_gradient_reaches_the_scores_of_a_wide_head():
    from attention_core.tiny import score_gradient

    batch = np.random.default_rng(0).integers(0, 9, (32, 11))
    ratios = []
    for d in (4, 64, 256):
        scaled, raw = (score_gradient(init_tiny(TinyConfig(vocab=9, context=10, d_model=d, heads=1, layers=1, scaled=s), 0), batch)[0]
                       for s in (True, False))
        ratios.append(scaled / raw)
    assert ratios[0] < ratios[1] < ratios[2] and ratios[2] > 4  # the gap grows with d_k, as the scaling lab predicts


@pytest.mark.parametrize("temperature, top_k", [(1.0, 0), (0.5, 0), (2.0, 3), (1.0, 1), (0.1, 2)])
def test_next_token_probabilities_follow_temperature_and_top_k(temperature, top_k):
    from attention_core.tiny import next_token_probabilities

    logits_ = np.array([2.0, -1.0, 0.5, 3.0, 0.0, 1.5])
    p = next_token_probabilities(logits_, temperature, top_k)
    kept = np.argsort(logits_)[::-1][: top_k or logits_.size]
    expected = np.zeros_like(logits_)
    expected[kept] = np.exp(logits_[kept] / temperature) / np.exp(logits_[kept] / temperature).sum()  # written out again
    np.testing.assert_allclose(p, expected, rtol=1e-12, atol=0)
    assert np.all(p[np.setdiff1d(np.arange(logits_.size), kept)] == 0.0)


def test_next_token_probabilities_refuse_bad_settings():
    from attention_core.tiny import next_token_probabilities

    for temperature, top_k in ((0.0, 0), (-1.0, 0), (1.0, -1)):
        with pytest.raises(ValueError):
            next_token_probabilities(np.zeros(3), temperature, top_k)


@pytest.mark.parametrize("config", CONFIGS, ids=["2-layers", "unscaled-sinusoidal", "one-head"])
def test_the_parameter_count_is_the_initialisers(config):
    assert config.parameter_count == sum(a.size for a in init_tiny(config, 0).values())


def test_generation_through_the_cache_gives_the_full_passes_rows_and_greedy_top_1():
    from attention_core.tiny import generate

    config = CONFIGS[0]
    params = init_tiny(config, 4)
    gen = generate(params, np.array([1, 2, 3]), 3, temperature=1.0, top_k=1, seed=0)
    assert len(gen.tokens) == 6 and gen.prompt == 3
    trace = forward(params, gen.tokens)
    for layer in range(config.layers):
        np.testing.assert_allclose(gen.rows[layer], trace.layers[layer].weights[0], rtol=0, atol=1e-12)
    full = logits(params, gen.tokens)
    assert list(gen.tokens[3:]) == [int(np.argmax(full[i])) for i in range(2, 5)]  # top-1 is the greedy choice
    assert np.all(np.diff(gen.cache_bytes) == gen.cache_bytes[0])  # the cache grows by the same bytes every token
    again = generate(params, np.array([1, 2, 3]), 3, temperature=2.0, top_k=0, seed=5)
    assert np.array_equal(again.tokens, generate(params, np.array([1, 2, 3]), 3, temperature=2.0, top_k=0, seed=5).tokens)
    assert generate(params, np.arange(config.context), 5, 1.0, 0, 0).tokens.size == config.context  # no room left
