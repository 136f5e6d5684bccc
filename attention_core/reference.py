"""Attention written again, short and on its own, to test the core against (like picoGPT's gpt2.py).

Imports only NumPy: nothing from attention.py, scores.py or multihead.py. Row-vector
convention (Q = X W_Q); rows = queries, columns = keys; masks are True where allowed.
tests/test_core_reference.py checks that attend() and multi_head() give these numbers.
"""

import numpy as np


def softmax(x, mask):  # (n_q, n_k), (n_q, n_k) -> (n_q, n_k)
    x = np.where(mask, x, -np.inf)  # (n_q, n_k), -inf where not allowed
    top = np.max(x, axis=-1, keepdims=True)  # (n_q, 1)
    top = np.where(np.isfinite(top), top, 0.0)  # (n_q, 1), 0 in a row with nothing allowed
    e = np.where(mask, np.exp(x - top), 0.0)  # (n_q, n_k)
    total = np.sum(e, axis=-1, keepdims=True)  # (n_q, 1)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)  # (n_q, n_k), a row of zeros if nothing allowed


def dot(q, k):  # (n_q, d_k), (n_k, d_k) -> (n_q, n_k)
    return q @ k.T  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)


def scaled_dot(q, k):  # (n_q, d_k), (n_k, d_k) -> (n_q, n_k)
    return q @ k.T / np.sqrt(k.shape[1])  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)


def additive(q, k, W, U, v):  # (n_q, d_q), (n_k, d_k), (d_q, d_a), (d_k, d_a), (d_a,) -> (n_q, n_k)
    hidden = (q @ W)[:, None, :] + (k @ U)[None, :, :]  # (n_q, 1, d_a) + (1, n_k, d_a) -> (n_q, n_k, d_a)
    return np.tanh(hidden) @ v  # (n_q, n_k, d_a) @ (d_a,) -> (n_q, n_k)


def bilinear(q, k, W):  # (n_q, d_q), (n_k, d_k), (d_q, d_k) -> (n_q, n_k)
    return q @ W @ k.T  # (n_q, d_q) @ (d_q, d_k) @ (d_k, n_k) -> (n_q, n_k)


def unit_rows(x):  # (n, d) -> (n, d)
    norm = np.linalg.norm(x, axis=1, keepdims=True)  # (n, 1)
    return x / np.where(norm > 0, norm, 1.0)  # (n, d), a zero row stays zero


def cosine(q, k, divisor):  # (n_q, d_k), (n_k, d_k) -> (n_q, n_k)
    cos = np.clip(unit_rows(q) @ unit_rows(k).T, -1.0, 1.0)  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)
    return cos / divisor  # (n_q, n_k)


def scores(q, k, score, params):  # (n_q, d_q), (n_k, d_k) -> (n_q, n_k), before the temperature
    if score == "dot":
        return dot(q, k)
    if score == "scaled_dot":
        return scaled_dot(q, k)
    if score == "additive":
        return additive(q, k, params["W"], params["U"], params["v"])
    if score == "bilinear":
        return bilinear(q, k, params["W"])
    if score == "cosine":
        return cosine(q, k, params.get("divisor", 0.1))
    raise ValueError(score)


def pick(w, sample, rng):  # (n_q, n_k) -> (n_q,): the argmax of each row, or a draw from it
    if not sample:
        return np.argmax(w, axis=1)  # (n_q,)
    cumulative = np.cumsum(w, axis=1)  # (n_q, n_k)
    u = rng.random((w.shape[0], 1)) * cumulative[:, -1:]  # (n_q, 1), uniform in [0, row total)
    return np.argmax(cumulative > u, axis=1)  # (n_q,), the first key whose cumulative weight passes u


def one_hot(index, mask):  # (n_q,), (n_q, n_k) -> (n_q, n_k)
    w = np.eye(mask.shape[1])[index]  # (n_q, n_k)
    return w * mask.any(axis=1, keepdims=True)  # (n_q, n_k), zeros where nothing is allowed


def window(centres, n_k, radius):  # (n_q,) -> (n_q, n_k)
    return np.abs(np.arange(n_k)[None, :] - centres[:, None]) <= radius  # (1, n_k) - (n_q, 1) -> (n_q, n_k)


def weights(s, mask, mode, radius, sample, rng):  # (n_q, n_k), (n_q, n_k) -> (n_q, n_k)
    soft = softmax(s, mask)  # (n_q, n_k)
    n_q, n_k = s.shape
    if mode == "soft":
        return soft
    if mode == "hard":
        return one_hot(pick(soft, sample, rng), mask)  # (n_q, n_k)
    if mode == "local":
        centres = pick(soft, sample, rng)  # (n_q,), where hard attention would look
    elif mode == "local-monotonic":
        centres = np.minimum(np.arange(n_q), n_k - 1)  # (n_q,), the query's own position
    else:
        raise ValueError(mode)
    return softmax(s, mask & window(centres, n_k, radius))  # (n_q, n_k)


def attention(q, k, v, score="scaled_dot", mask=None, mode="soft", temperature=1.0, radius=2, params=None, sample=False, rng=None):
    # (n_q, d_q), (n_k, d_k), (n_k, d_v) -> (n_q, n_k) weights, (n_q, d_v) output
    mask = np.ones((len(q), len(k)), dtype=bool) if mask is None else mask  # (n_q, n_k)
    s = scores(q, k, score, params or {}) / temperature  # (n_q, n_k)
    w = weights(s, mask, mode, radius, sample, rng)  # (n_q, n_k)
    return w, w @ v  # (n_q, n_k) @ (n_k, d_v) -> (n_q, d_v)


def multi_head(x_q, x_kv, w_q, w_k, w_v, w_o, heads, **options):
    # (n_q, d_model), (n_k, d_model), (d_model, h*d_k) x 2, (d_model, h*d_v), (h*d_v, d_model) -> (n_q, d_model)
    q = np.split(x_q @ w_q, heads, axis=1)  # (n_q, d_model) @ (d_model, h*d_k) -> h x (n_q, d_k)
    k = np.split(x_kv @ w_k, heads, axis=1)  # (n_k, d_model) @ (d_model, h*d_k) -> h x (n_k, d_k)
    v = np.split(x_kv @ w_v, heads, axis=1)  # (n_k, d_model) @ (d_model, h*d_v) -> h x (n_k, d_v)
    outputs = [attention(q_i, k_i, v_i, **options)[1] for q_i, k_i, v_i in zip(q, k, v)]  # h x (n_q, d_v)
    return np.hstack(outputs) @ w_o  # (n_q, h*d_v) @ (h*d_v, d_model) -> (n_q, d_model)
