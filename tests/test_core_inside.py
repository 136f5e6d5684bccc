"""Inside a real model (attention_core.inside) against independent formulas: each stage of a layer against the model's
hidden states and the reference implementation, the norms and the rollout against explicit loops, the flow against a
graph worked out by hand and against a maximum flow written here (Edmonds–Karp on the unscaled weights)."""

from collections import deque

import numpy as np
import pytest
from conftest import REAL_SENTENCE, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import inside
from attention_core.pretrained import gelu, layer_norm

REFERENCE = np.load(ROOT / "tests" / "reference" / "minilm.npz")


@pytest.mark.parametrize("index", range(len(REFERENCE["sentences"])))
def test_each_stage_of_every_layer_is_the_models_own(model, index):
    """Stage by stage: A = Concat W_O + b_O, H = LN1(X + A), F = GELU(H W_in + b_in) W_out + b_out, Y = LN2(H + F); Y is
    the next layer's input in the core's forward pass (exactly) and in transformers' BertModel (tests/reference)."""
    sentence = str(REFERENCE["sentences"][index])
    trace = model.run(sentence)
    for layer, p in enumerate(model.layers):
        stages = inside.layer_stages(model, trace.inputs[layer], layer)
        np.testing.assert_allclose(stages.output, trace.inputs[layer + 1], atol=1e-12)
        np.testing.assert_allclose(stages.output, REFERENCE[f"inputs_{index}"][layer + 1], atol=1e-4)
        np.testing.assert_allclose(stages.attention, stages.concat @ p.w_o + p.b_o, atol=1e-12)
        np.testing.assert_allclose(stages.after_attention, layer_norm(stages.x + stages.attention, *p.norm1), atol=1e-12)
        np.testing.assert_allclose(stages.ffn, gelu(stages.after_attention @ p.w_in + p.b_in) @ p.w_out + p.b_out, atol=1e-12)
        norms = stages.norms
        share = norms["attention"].sum() / (norms["attention"].sum() + norms["ffn"].sum())
        assert stages.attention_share == pytest.approx(share) and 0 < share < 1
        for i in range(len(trace.tokens)):  # the norms, token by token
            assert norms["ffn"][i] == pytest.approx(np.sqrt(sum(v * v for v in stages.ffn[i])))


def test_what_a_head_moves_against_an_explicit_loop(model, trace):
    """‖α_ij f(x_j)‖ with f(x_j) = (x_j W_V^h + b_V^h) W_O^h, one pair at a time."""
    layer, head = 2, 7
    x, p = trace.inputs[layer], model.layers[layer]
    weights, moved = inside.moved_norms(model, x, layer, head)
    np.testing.assert_allclose(weights, trace.attentions[layer, head], atol=1e-12)
    cols = slice(head * 32, head * 32 + 32)
    for i in range(0, len(trace.tokens), 3):
        for j in range(len(trace.tokens)):
            vector = weights[i, j] * ((x[j] @ p.w_v[:, cols] + p.b_v[cols]) @ p.w_o[cols, :])
            assert moved[i, j] == pytest.approx(np.sqrt((vector ** 2).sum()), rel=1e-10)


def test_rollout_against_an_explicit_loop_over_layers(trace):
    attentions = trace.attentions
    layers, heads, n, _ = attentions.shape
    rolled = np.eye(n)
    for layer in range(layers):
        mean = sum(attentions[layer, h] for h in range(heads)) / heads
        joint = np.array([[0.5 * mean[i, j] + (0.5 if i == j else 0.0) for j in range(n)] for i in range(n)])
        joint = joint / joint.sum(axis=1, keepdims=True)
        rolled = np.array([[sum(joint[i, m] * rolled[m, j] for m in range(n)) for j in range(n)] for i in range(n)])
    np.testing.assert_allclose(inside.rollout(attentions), rolled, atol=1e-12)
    np.testing.assert_allclose(inside.rollout(attentions).sum(axis=1), 1.0)


# Two layers, two tokens, one head: Â1 = ½ [[0, 1], [0, 1]] + ½ I = [[.5, .5], [0, 1]], Â2 = ½ [[1, 0], [1, 0]] + ½ I =
# [[1, 0], [.5, .5]]. From token 1: .5 to token 0 above (which passes all of it on) and 1 to token 1 above, which passes
# on only .5: a flow of 1.0, though 1.5 leaves token 1. From token 0: .5. Rollout: Â2 Â1 = [[.5, .5], [.25, .75]].
TINY = np.array([[[[0.0, 1.0], [0.0, 1.0]]], [[[1.0, 0.0], [1.0, 0.0]]]])


def test_flow_and_rollout_on_a_graph_worked_out_by_hand():
    np.testing.assert_allclose(inside.flow(TINY), [0.5, 1.0], atol=1e-6)
    np.testing.assert_allclose(inside.rollout(TINY), [[0.5, 0.5], [0.25, 0.75]], atol=1e-12)


def edmonds_karp(capacity: np.ndarray, source: int, sink: int) -> float:
    """A maximum flow on a dense float capacity matrix, shortest augmenting paths first (independent of scipy)."""
    residual, total = capacity.astype(float).copy(), 0.0
    while True:
        parent = {source: None}
        queue = deque([source])
        while queue and sink not in parent:
            u = queue.popleft()
            for v in np.nonzero(residual[u] > 1e-12)[0]:
                if v not in parent:
                    parent[int(v)] = u
                    queue.append(int(v))
        if sink not in parent:
            return total
        path, v = [], sink
        while parent[v] is not None:
            path.append((parent[v], v))
            v = parent[v]
        pushed = min(residual[u, v] for u, v in path)
        for u, v in path:
            residual[u, v] -= pushed
            residual[v, u] += pushed
        total += pushed


def test_flow_against_an_independent_maximum_flow_on_the_real_graph(model):
    """The core's flow runs scipy's maximum_flow on capacities scaled to integers (FLOW_SCALE); here the same graph with
    the weights unscaled, through Edmonds–Karp written above: equal to the rounding of the scaling."""
    trace = model.run("the cat sat on the mat")
    joint = inside.with_residual(trace.attentions)
    layers, n, _ = joint.shape
    size = (layers + 1) * n + 1
    capacity = np.zeros((size, size))
    for level in range(layers):
        for i in range(n):
            for j in range(n):
                capacity[level * n + j, (level + 1) * n + i] = joint[level, i, j]
    capacity[layers * n: layers * n + n, size - 1] = n
    expected = [edmonds_karp(capacity, j, size - 1) for j in range(n)]
    np.testing.assert_allclose(inside.flow(trace.attentions), expected, atol=layers * n / inside.FLOW_SCALE)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, (2, 3, 5, 5), elements=st.floats(0.0, 1.0)))
def test_hiding_the_specials_leaves_rows_that_sum_to_one(raw):
    weights = raw + 1e-9
    weights = weights / weights.sum(axis=-1, keepdims=True)
    tokens = ("[CLS]", "a", "b", "c", "[SEP]")
    kept, rest = inside.without_specials(weights, tokens)
    assert kept == [1, 2, 3] and rest.shape == (2, 3, 3, 3)
    np.testing.assert_allclose(rest.sum(axis=-1), 1.0)
    ratio = rest / weights[..., 1:4, 1:4]  # the rest keep their proportions
    np.testing.assert_allclose(ratio, np.broadcast_to(ratio[..., :1], ratio.shape), rtol=1e-9)
    np.testing.assert_allclose(inside.without_specials(np.zeros((5, 5)), tokens)[1], 1 / 3)  # nothing left: even


def test_sink_shares_are_the_weight_on_cls_sep_and_punctuation(trace):
    shares = inside.sink_shares(trace)
    tokens = trace.tokens
    assert [t for t in tokens if inside.is_punctuation(t)] == ["'", "."]
    for name, pick in (("cls", lambda t: t == "[CLS]"), ("sep", lambda t: t == "[SEP]"), ("punctuation", inside.is_punctuation)):
        columns = [j for j, t in enumerate(tokens) if pick(t)]
        for layer in (0, 5):
            for head in (0, 11):
                expected = np.mean([sum(trace.attentions[layer, head, i, j] for j in columns) for i in range(len(tokens))])
                assert shares[name][layer, head] == pytest.approx(expected)
    total = shares["cls"] + shares["sep"] + shares["punctuation"]
    assert shares["cls"].shape == (6, 12) and (total <= 1 + 1e-9).all()


def test_leaving_a_word_out_runs_the_model_without_it(model, trace):
    """Leave-one-out against the model's own forward pass with the word's pieces replaced by [MASK], pooled as
    sentence-transformers pools (mean over tokens, unit length), through the core's head-by-head layers (``attend``);
    the batched pass equals the pass of one sentence."""
    found = inside.importance(model, trace, REAL_SENTENCE)
    ids, words, pieces = inside.word_groups(model, REAL_SENTENCE)
    assert words[:4] == ("the", "animal", "didn't", "cross") and pieces[2] == [3, 4, 5] and len(words) == len(found.leave_one_out) == len(pieces)
    np.testing.assert_allclose(model.forward(np.array([ids, ids]), keep=False)[0][1], trace.hidden, atol=1e-12)

    def pooled(sequence: list[int]) -> np.ndarray:
        x = model.embeddings(sequence)
        for layer, p in enumerate(model.layers):
            x = layer_norm(x + model.attention_layer(layer, x).output, *p.norm1)
            x = layer_norm(x + gelu(x @ p.w_in + p.b_in) @ p.w_out + p.b_out, *p.norm2)
        mean = x.mean(axis=0)
        return mean / np.linalg.norm(mean)

    whole = pooled(ids)
    mask = model.tokenizer.token_to_id("[MASK]")
    for word in (1, 5):
        masked = [mask if position in pieces[word] else token for position, token in enumerate(ids)]
        assert found.leave_one_out[word] == pytest.approx(1 - pooled(masked) @ whole, abs=1e-10)
    np.testing.assert_allclose(found.rollout.sum(), inside.rollout(trace.attentions).mean(axis=0)[1:-1].sum())


def test_spearman_is_the_rank_correlation_of_the_formula():
    found = inside.Importance(words=("a", "b", "c", "d", "e"), leave_one_out=np.array([0.1, 0.5, 0.2, 0.9, 0.3]),
                              attention=np.array([1.0, 4.0, 3.0, 5.0, 2.0]), rollout=np.arange(5.0), flow=np.arange(5.0))
    d = np.array([1, 4, 2, 5, 3]) - np.array([1, 4, 3, 5, 2])  # ranks, no ties
    assert found.spearman("attention") == pytest.approx(1 - 6 * (d ** 2).sum() / (5 * (25 - 1)))
    assert np.isnan(inside.Importance(("a",), *(np.ones(1),) * 4).spearman("flow"))


def test_the_untrained_model_is_seeded_at_berts_initial_scale(model):
    first, again = inside.random_like(model, 0), inside.random_like(model, 0)
    np.testing.assert_array_equal(first.layers[3].w_q, again.layers[3].w_q)
    assert first.layers[0].w_in.std() == pytest.approx(0.02, rel=0.01) and not first.layers[0].b_in.any()
    assert (first.layers[0].norm1[0] == 1).all() and first.word.shape == model.word.shape
    rows = first.word[np.array([[5, 7, 5]])]  # the embedding table, row by row from its seed
    np.testing.assert_array_equal(rows[0, 0], rows[0, 2])
    np.testing.assert_array_equal(rows[0, 1], again.word[np.array([7])][0])
    assert abs(first.word[np.arange(2000)].std() - 0.02) < 0.001
    trained, untrained = model.run(REAL_SENTENCE), first.run(REAL_SENTENCE)
    assert untrained.tokens == trained.tokens  # the same tokenizer and architecture
    n = len(trained.tokens)
    assert inside.head_entropy(untrained).mean() > 0.95 * np.log2(n) > inside.head_entropy(trained).mean()


def test_the_spread_of_q_dot_k_on_every_head(model, trace):
    found = inside.spread(model, trace)
    layer, head = 4, 9
    p, x = model.layers[layer], trace.inputs[layer]
    cols = slice(head * 32, head * 32 + 32)
    q, k = x @ p.w_q[:, cols] + p.b_q[cols], x @ p.w_k[:, cols] + p.b_k[cols]
    scores = q @ k.T
    assert found.raw[layer, head] == pytest.approx(scores.std()) and found.scaled[layer, head] == pytest.approx(scores.std() / np.sqrt(32))
    np.testing.assert_allclose(found.top_scaled, trace.attentions.max(axis=-1).mean(axis=-1), atol=1e-12)
    assert found.theory == pytest.approx(np.sqrt(32)) and (found.top_raw >= found.top_scaled - 1e-12).all()

