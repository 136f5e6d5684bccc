"""The core's contract, checked on every public function (DESIGN.md, "The core's contract"; the conventions are written
in attention_core/__init__.py's docstring).

Every function and class of ``attention_core.__all__`` and every public function and class of each module of the core
has an example call in EXAMPLES (a new public name without one fails ``test_every_public_name_has_an_example``). Each
example's result must be a frozen dataclass of read-only arrays, or a tuple, list or dict of them, at every depth: the
app shares results across sessions (``st.cache_resource``). A dataclass found in a result, built again directly from
writeable copies of its arrays, must freeze them too (as a page building a ``Run`` from a snapshot file does).
Every public function, class, method and property has a docstring.

``reference.py`` is left out: it is the independent oracle the core is tested against (tests/test_reference.py),
written in picoGPT style with a shape comment on every line, and no page calls it.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import tempfile
from collections.abc import Callable, Mapping
from functools import cached_property
from pathlib import Path

import numpy as np
import pytest

import attention_core
from attention_core import (
    arrangements,
    attention,
    compare,
    corpus,
    embedding,
    fast,
    inside,
    latent,
    measures,
    multihead,
    positions,
    pretrained,
    scaling,
    scores,
    sparse,
    tasks,
    tiny,
    traffic,
    vision,
)
from attention_core import explain as explain_function
from attention_core import export as export_module

rnn = importlib.import_module("attention_core.rnn")  # the module: attention_core.rnn is the function rnn() the package exports

SENTENCE = "the cat sat on the mat"
LEFT_OUT = {"reference"}
MODULES = sorted(m.name for m in pkgutil.iter_modules(attention_core.__path__) if not m.name.startswith("_") and m.name not in LEFT_OUT)


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


class Inputs:
    """Small valid inputs shared by the examples, made on first use (the pretrained model only by the examples that
    need it)."""

    @cached_property
    def q(self) -> np.ndarray:
        return np.random.default_rng(1).standard_normal((3, 4))  # (n_q, d_k)

    @cached_property
    def k(self) -> np.ndarray:
        return np.random.default_rng(2).standard_normal((5, 4))  # (n_k, d_k)

    @cached_property
    def v(self) -> np.ndarray:
        return np.random.default_rng(3).standard_normal((5, 2))  # (n_k, d_v)

    @cached_property
    def x(self) -> np.ndarray:
        return embedding.embed(embedding.tokenize(SENTENCE), 8)  # (6, 8)

    @cached_property
    def head(self) -> attention.AttentionTrace:
        return attention.attend(self.q, self.k, self.v)

    @cached_property
    def explanation(self):
        return explain_function(SENTENCE, heads=2)

    @cached_property
    def w(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        generator = np.random.default_rng(4)
        return tuple(generator.standard_normal((8, 4)) for _ in range(3))

    @cached_property
    def positioned(self) -> positions.PositionedHead:
        return positions.positioned_head(self.x, *self.w, "rope", causal=True)

    @cached_property
    def tiny_config(self) -> tiny.TinyConfig:
        return tiny.TinyConfig(vocab=7, context=6, d_model=8, heads=2, layers=2)

    @cached_property
    def tiny(self) -> tiny.TinyParameters:
        return tiny.init_tiny(self.tiny_config, 3)

    @cached_property
    def batch(self) -> np.ndarray:
        return np.random.default_rng(5).integers(0, 7, (3, 7))  # (B, n + 1)

    @cached_property
    def vit(self) -> tiny.TinyParameters:
        return vision.init_vit(vision.vit_config(4, d_model=8), 3)

    @cached_property
    def digits(self) -> tuple[np.ndarray, np.ndarray]:
        images, labels = vision.load_digits()
        return images[:4], labels[:4]

    @cached_property
    def vit_trace(self) -> vision.VisionTrace:
        return vision.vit_forward(self.vit, self.digits[0])

    @cached_property
    def model(self) -> pretrained.MiniLM:
        try:
            return pretrained.MiniLM.load()
        except pretrained.ModelMissing as missing:
            pytest.skip(str(missing))

    @cached_property
    def real(self) -> pretrained.RealTrace:
        return self.model.run(SENTENCE)

    @cached_property
    def corpus(self) -> corpus.CorpusScores:
        return corpus.corpus_scores(self.model, (SENTENCE, "the dog, the cat."))


def minilm(i: Inputs) -> tuple:
    """Every method of the model that returns numbers, and the arrays it holds."""
    m = i.model
    return (m.word[:2], m.position, m.token_type, m.norm, m.layers, m.encode(SENTENCE), m.embeddings([101, 102]),
            m.head_trace(1, 2, i.real.inputs[1]), m.attention_layer(1, i.real.inputs[1]), m.forward(np.array([[101, 102]])),
            m.run(SENTENCE), m.explanation(i.real, 1))


def trainer(i: Inputs) -> tuple:
    t = tasks.Trainer("copy", tiny.TinyConfig(vocab=8, context=12, d_model=8, heads=2, layers=1), every=1, batch=4).advance(2)
    return t.run(), t.params, t.state, t.held_out, t.ideals


def task(i: Inputs) -> tuple:
    t = tasks.named_task("reverse")
    drawn = t.batch(rng(), 2)
    return drawn, t.ideal(drawn[0]), t.encode("AB|BA")


# One example per public function or class, named module.name. Each takes the shared Inputs and returns what to check.
EXAMPLES: dict[str, Callable[[Inputs], object]] = {
    # arrangements
    "arrangements.multi_head_cost": lambda i: arrangements.multi_head_cost(3, 4, 8, 4, 4, 2),
    "arrangements.jensen_shannon_bits": lambda i: arrangements.jensen_shannon_bits(i.head.weights, i.head.weights[::-1]),
    "arrangements.head_distances": lambda i: arrangements.head_distances(i.explanation.trace.heads),
    "arrangements.general_attention": lambda i: arrangements.general_attention("Where did the cat sit?", SENTENCE),
    "arrangements.split_sentences": lambda i: arrangements.split_sentences("One. Two!"),
    "arrangements.Pooling": lambda i: arrangements.attention_pool(i.x, np.eye(8), np.zeros(8), np.ones(8)),
    "arrangements.attention_pool": lambda i: arrangements.attention_pool(i.x, np.eye(8), np.zeros(8), np.ones(8)),
    "arrangements.HierarchicalTrace": lambda i: arrangements.hierarchical("The cat sat. It slept."),
    "arrangements.hierarchical": lambda i: arrangements.hierarchical("The cat sat. It slept."),
    # attention
    "attention.AttentionTrace": lambda i: i.head,
    "attention.softmax": lambda i: (attention.softmax(i.head.raw_scores), attention.softmax(i.head.raw_scores, i.head.raw_scores > 0)),
    "attention.one_hot_rows": lambda i: attention.one_hot_rows(np.array([0, 2]), 3, np.array([True, False])),
    "attention.pick_keys": lambda i: (attention.pick_keys(i.head.weights, sample=False, rng=rng()),
                                      attention.pick_keys(i.head.weights, sample=True, rng=rng())),
    "attention.causal_mask": lambda i: attention.causal_mask(3, 4),
    "attention.window_mask": lambda i: attention.window_mask(3, 5, radius=1),
    "attention.resolve_params": lambda i: (attention.resolve_params(scores.SCORE_FUNCTIONS["additive"], None, 4, 4, rng()),
                                           attention.resolve_params(scores.SCORE_FUNCTIONS["bilinear"], {"W": np.eye(4)}, 4, 4, rng())),
    "attention.local_centres": lambda i: attention.local_centres(i.head.scaled_scores, i.head.mask, "local", sample=False, rng=rng()),
    "attention.hard_weights": lambda i: attention.hard_weights(i.head.masked_scores, i.head.mask, sample=False, rng=rng()),
    "attention.attend": lambda i: [attention.attend(i.q, i.k, i.v, score=score, mode=mode, mask=attention.causal_mask(3, 5))
                                   for score in scores.SCORES for mode in attention.MODES],
    # corpus
    "corpus.same_word_mask": lambda i: corpus.same_word_mask(4, ("a", "b", "a"), ([0], [1], [2, 3])),
    "corpus.sentence_scores": lambda i: corpus.sentence_scores(i.real.attentions, i.real.tokens, corpus.sentence_units(i.model, SENTENCE)[3]),
    "corpus.clark_scores": lambda i: corpus.clark_scores(i.real.attentions, i.real.tokens),
    "corpus.score_cells": lambda i: [corpus.score_cells(name, i.real.attentions[0, 0], i.real.tokens, np.eye(8, dtype=bool))
                                     for name in corpus.SCORES],
    "corpus.CorpusScores": lambda i: (c := i.corpus, c.score("previous"), c.means(), c.mean("offset"), c.counted("same_word")),
    "corpus.sentence_units": lambda i: corpus.sentence_units(i.model, SENTENCE),
    "corpus.corpus_scores": lambda i: corpus.corpus_scores(i.model, (SENTENCE, "a b c"), progress=lambda done, total: None),
    "corpus.verdicts": lambda i: corpus.verdicts(np.full((5, 2, 3), 0.2)),
    "corpus.Agreement": lambda i: corpus.agreement(i.corpus),
    "corpus.agreement": lambda i: corpus.agreement(i.corpus),
    "corpus.cohen_kappa": lambda i: corpus.cohen_kappa(np.array([0, 1, 1]), np.array([0, 1, 0])),
    "corpus.verdict_agreement": lambda i: corpus.verdict_agreement(np.array([[[0, -1]], [[1, -1]]]), np.array([[0, -1]])),
    "corpus.percentile": lambda i: corpus.percentile(np.arange(5.0), 2.0),
    "corpus.Standing": lambda i: (s := corpus.standing(np.array([0.999, 1.0, 0.5]), 0.9996), s.ties_most),
    "corpus.standing": lambda i: corpus.standing(np.arange(5.0), 2.0),
    "corpus.top_sentences": lambda i: corpus.top_sentences(np.arange(5.0), 2),
    "corpus.length_bins": lambda i: corpus.length_bins(np.array([4, 9, 12, 30])),
    "corpus.top_by_length": lambda i: corpus.top_by_length(np.arange(5.0), np.array([0, 0, 1, 1, 2])),
    "corpus.decile_samples": lambda i: corpus.decile_samples(np.arange(25.0)),
    "corpus.corpus_sentences": lambda i: corpus.corpus_sentences()[:3],
    "corpus.corpus_hash": lambda i: corpus.corpus_hash(),
    "corpus.save_scores": lambda i: corpus.save_scores(i.corpus, Path(tempfile.mkdtemp()) / "scores.npz"),
    "corpus.StaleScores": lambda i: corpus.StaleScores("stale"),
    "corpus.load_scores": lambda i: corpus.load_scores(),
    "corpus.PastedCorpus": lambda i: corpus.split_corpus("One. Two!"),
    "corpus.cut_at_word": lambda i: corpus.cut_at_word("a few words", 5),
    "corpus.split_corpus": lambda i: corpus.split_corpus("One. Two!\nThree"),
    # embedding
    "embedding.tokenize": lambda i: embedding.tokenize(SENTENCE),
    "embedding.token_vector_table": lambda i: embedding.token_vector_table(["a", "b", "a"], 4),
    "embedding.positional_encoding": lambda i: embedding.positional_encoding(4, 6),
    "embedding.embed": lambda i: (embedding.embed(["a", "b"], 4), embedding.embed(["a", "b"], 4, positions=False)),
    "embedding.contains_cjk": lambda i: embedding.contains_cjk("猫"),
    # explain
    "explain.ExplainOptions": lambda i: i.explanation.options,
    "explain.Explanation": lambda i: i.explanation,
    "explain.explain": lambda i: explain_function(SENTENCE, context="a dog", causal=True, heads=2, max_tokens=4),
    "explain.textbook_example": lambda i: attention_core.textbook_example(),
    # export
    "export.to_json": lambda i: export_module.to_json(i.explanation),
    "export.from_json": lambda i: export_module.from_json(export_module.to_json(i.explanation)),
    "export.replay": lambda i: export_module.replay(export_module.to_json(i.explanation)),
    # fast
    "fast.kv_group": lambda i: fast.kv_group(3, 4, 2),
    "fast.SharedKV": lambda i: fast.shared_kv_attention(i.x, *(rng().standard_normal((h, 8, 2)) for h in (4, 2, 2)), causal=True),
    "fast.shared_kv_attention": lambda i: fast.shared_kv_attention(i.x, *(rng().standard_normal((h, 8, 2)) for h in (4, 1, 1))),
    "fast.full_attention": lambda i: fast.full_attention(i.q, i.k, i.v),
    "fast.kv_cache_bytes": lambda i: fast.kv_cache_bytes(10, 2, 2, 4),
    "fast.ModelShape": lambda i: fast.MODEL_SHAPES["mistral-7b"],
    "fast.cached_tokens": lambda i: fast.cached_tokens(fast.MODEL_SHAPES["mistral-7b"], 5000),
    "fast.model_cache_bytes": lambda i: fast.model_cache_bytes(fast.MODEL_SHAPES["gpt-2"], 100),
    "fast.OnlineSoftmax": lambda i: fast.online_softmax_attention(i.q, i.k, i.v, 2),
    "fast.online_softmax_attention": lambda i: fast.online_softmax_attention(i.q, i.k, i.v, 5),
    "fast.OnlineSoftmaxTrace": lambda i: (t := fast.online_softmax_trace(i.q, i.k, i.v, 2, 2), t.blocks, t.difference, t.held),
    "fast.online_softmax_trace": lambda i: [fast.online_softmax_trace(i.q, i.k, i.v, 2, fold) for fold in (1, 3)],
    "fast.sliding_window_mask": lambda i: fast.sliding_window_mask(5, 2),
    "fast.sparse_mask": lambda i: fast.sparse_mask(6, 2, 1),
    "fast.allowed_pairs": lambda i: [fast.allowed_pairs(kind, 10, 3, 2) for kind in ("full", "window", "sparse")],
    "fast.time_full_attention": lambda i: fast.time_full_attention(8, 4, repeat=1),
    # inside (the pretrained model)
    "inside.LayerStages": lambda i: inside.layer_stages(i.model, i.real.inputs[2], 2),
    "inside.layer_stages": lambda i: (stages := inside.layer_stages(i.model, i.real.inputs[0], 0), stages.norms),
    "inside.moved_norms": lambda i: inside.moved_norms(i.model, i.real.inputs[1], 1, 3),
    "inside.arriving_shares": lambda i: inside.arriving_shares(inside.moved_norms(i.model, i.real.inputs[1], 1, 3)[1]),
    "inside.large_but_little": lambda i: inside.large_but_little(*inside.moved_norms(i.model, i.real.inputs[1], 1, 3)),
    "inside.is_punctuation": lambda i: inside.is_punctuation("##."),
    "inside.sink_shares": lambda i: inside.sink_shares(i.real),
    "inside.with_residual": lambda i: inside.with_residual(i.real.attentions),
    "inside.rollout": lambda i: inside.rollout(i.real.attentions),
    "inside.flow_graph": lambda i: inside.flow_graph(i.real.attentions[:2]),
    "inside.flow": lambda i: inside.flow(i.real.attentions[:2]),
    "inside.sentence_embedding": lambda i: inside.sentence_embedding(i.real.hidden),
    "inside.Importance": lambda i: inside.importance(i.model, i.real, SENTENCE),
    "inside.word_groups": lambda i: inside.word_groups(i.model, "didn't it"),
    "inside.importance": lambda i: inside.importance(i.model, i.model.run("a cat"), "a cat"),
    "inside.SeededRows": lambda i: inside.SeededRows(0, (10, 4), 0.02)[np.array([[1, 2], [2, 3]])],
    "inside.random_like": lambda i: (other := inside.random_like(i.model, 1), other.run("a cat")),
    "inside.head_entropy": lambda i: inside.head_entropy(i.real),
    "inside.Spread": lambda i: inside.spread(i.model, i.real),
    "inside.spread": lambda i: inside.spread(i.model, i.real),
    "inside.correlations": lambda i: inside.correlations(i.model, ("A cat sat.",)),
    # measures
    "measures.entropy_bits": lambda i: measures.entropy_bits(i.head.weights),
    "compare.row_spread": lambda i: compare.row_spread(i.head.raw_scores),
    "compare.largest_weight": lambda i: compare.largest_weight(i.head.weights),
    "compare.weight_moved": lambda i: compare.weight_moved(i.head.weights, i.head.weights[::-1]),
    "compare.row_distance": lambda i: compare.row_distance(i.head.output, i.head.output * 2),
    "compare.HeadMeasures": lambda i: compare.head_measures(i.head),
    "compare.head_measures": lambda i: compare.head_measures(i.head),
    "measures.gumbel_noise": lambda i: measures.gumbel_noise((2, 3), rng()),
    "measures.gumbel_softmax": lambda i: measures.gumbel_softmax(i.head.scaled_scores, 0.5, measures.gumbel_noise((3, 5), rng())),
    "measures.asymmetry": lambda i: measures.asymmetry(i.head.raw_scores[:, :3]),
    "measures.weighted_sum": lambda i: measures.weighted_sum(i.head.weights, i.v),
    "measures.polar_vector": lambda i: measures.polar_vector(30.0, 2.0),
    "measures.cosine_similarity": lambda i: measures.cosine_similarity(i.q[0], i.k[0]),
    "measures.softmax_over_scales": lambda i: measures.softmax_over_scales(i.q[0], np.array([0.5, 1.0, 2.0])),
    "measures.VectorPair": lambda i: measures.vector_pair(10.0, 1.0, 80.0, 2.0),
    "measures.vector_pair": lambda i: measures.vector_pair(10.0, 1.0, 200.0, 0.5),
    "measures.stretch_sweep": lambda i: measures.stretch_sweep(np.array([1.0, 0.0]), np.array([1.0, 1.0]), np.array([0.5, 2.0])),
    "measures.similarity_matrices": lambda i: measures.similarity_matrices(i.x),
    "measures.FocusRow": lambda i: measures.focus_row(i.head.raw_scores[0], 2.0, i.v),
    "measures.focus_row": lambda i: measures.focus_row(np.array([1.0, 2.0]), 1.0, np.eye(2)),
    "measures.dot_scores_of": lambda i: measures.dot_scores_of(i.q[0], i.k),
    # multihead
    "multihead.Projections": lambda i: multihead.init_projections(8, 4, 2, 2, seed=0, shared_qk=True),
    "multihead.MultiHeadTrace": lambda i: i.explanation.trace,
    "multihead.glorot_uniform": lambda i: multihead.glorot_uniform(3, 4, rng()),
    "multihead.init_projections": lambda i: multihead.init_projections(8, 4, 4, 2, seed=1),
    "multihead.multi_head": lambda i: multihead.multi_head(i.x, i.x, *multihead.init_projections(8, 2, 2, 2, seed=0).__dict__.values(), heads=2),
    # positions
    "positions.rope_angles": lambda i: positions.rope_angles(4, 6),
    "positions.rope": lambda i: positions.rope(i.q),
    "positions.rotary": lambda i: positions.rotary(i.q[:, :3]),
    "positions.alibi_power_of_two": lambda i: positions.alibi_power_of_two(6),
    "positions.alibi_slopes": lambda i: positions.alibi_slopes(6),
    "positions.alibi_bias": lambda i: (positions.alibi_bias(4, 0.5), positions.alibi_bias(4, 0.5, causal=False)),
    "positions.PositionedHead": lambda i: i.positioned,
    "positions.positioned_head": lambda i: [positions.positioned_head(i.x, *i.w, scheme, added=embedding.positional_encoding(6, 8),
                                                                      causal=causal)
                                            for scheme in positions.SCHEMES for causal in (False, True)],
    "positions.shuffle_order": lambda i: [positions.shuffle_order(shuffle, 5) for shuffle in positions.SHUFFLES],
    "positions.mean_distance": lambda i: positions.mean_distance(i.positioned.weights),
    "positions.rope_grid": lambda i: positions.rope_grid(i.q[0], i.k[0], 4),
    "positions.sinusoidal_grid": lambda i: positions.sinusoidal_grid(i.x[0], i.x[1], i.w[0], i.w[1], 4),
    "positions.diagonal_spread": lambda i: positions.diagonal_spread(positions.rope_grid(i.q[0], i.k[0], 4)),
    "positions.permuted": lambda i: positions.permuted(i.positioned, positions.shuffle_order("reverse", 6)),
    # pretrained
    "pretrained.ModelMissing": lambda i: pretrained.ModelMissing("no model here"),
    "pretrained.model_folder": lambda i: (i.model, pretrained.model_folder())[1],
    "pretrained.Layer": lambda i: i.model.layers[0],
    "pretrained.RealTrace": lambda i: (i.real, i.real.hidden),
    "pretrained.layer_norm": lambda i: pretrained.layer_norm(i.x, np.ones(8), np.zeros(8)),
    "pretrained.gelu": lambda i: pretrained.gelu(i.x),
    "pretrained.MiniLM": minilm,
    "pretrained.thumbnail": lambda i: (pretrained.thumbnail(i.real.attentions[0, 0], 4), pretrained.thumbnail(i.real.attentions[0, 0], 16)),
    "pretrained.without_specials": lambda i: pretrained.without_specials(i.real.attentions, i.real.tokens),
    "pretrained.kept_share": lambda i: pretrained.kept_share(i.real.attentions, i.real.tokens),
    "pretrained.overview": lambda i: (pretrained.overview(i.real, 4), pretrained.overview(i.real, 4, hide=True)),
    "pretrained.head_summary": lambda i: pretrained.head_summary(i.real),
    # rnn
    "rnn.RNNParameters": lambda i: rnn.init_rnn(8, 3, seed=0),
    "rnn.init_rnn": lambda i: rnn.init_rnn(4, 4, seed=1),
    "rnn.rnn": lambda i: rnn.rnn(i.x, rnn.init_rnn(8, 3, seed=0)),
    "rnn.reach": lambda i: (rnn.reach(4, 2, model="rnn"), rnn.reach(4, 1, model="attention")),
    "rnn.complexity": lambda i: rnn.complexity(np.array([4, 8]), 8),
    # latent, sparse, traffic (attention at today's scale)
    "latent.LatentWeights": lambda i: latent.init_latent(8, 2, 3, 4, 2, 6, seed=0),
    "latent.init_latent": lambda i: latent.init_latent(8, 1, 2, 2, 4, 3, seed=1),
    "latent.LatentTrace": lambda i: latent.latent_attention(i.x, latent.init_latent(8, 2, 3, 4, 2, 6)),
    "latent.latent_attention": lambda i: [latent.latent_attention(i.x, latent.init_latent(8, 2, 3, 4, 2, 6), causal=c) for c in (True, False)],
    "latent.LatentShape": lambda i: latent.LATENT_SHAPES["deepseek-v2"],
    "latent.cache_numbers": lambda i: [latent.cache_numbers(latent.LATENT_SHAPES["deepseek-v3"], layout) for layout in latent.CACHE_LAYOUTS],
    "latent.latent_cache_bytes": lambda i: latent.latent_cache_bytes(latent.LATENT_SHAPES["deepseek-v2"], "mla", 100),
    "latent.equivalent_groups": lambda i: latent.equivalent_groups(latent.LATENT_SHAPES["deepseek-v2"]),
    "sparse.IndexerWeights": lambda i: sparse.init_indexer(8, 2, 2, seed=0),
    "sparse.init_indexer": lambda i: sparse.init_indexer(8, 3, 1, seed=2),
    "sparse.IndexerTrace": lambda i: sparse.lightning_indexer(i.x, sparse.init_indexer(8)),
    "sparse.lightning_indexer": lambda i: sparse.lightning_indexer(i.x, sparse.init_indexer(8, 1, 3)),
    "sparse.top_k_keys": lambda i: (sparse.top_k_keys(i.head.raw_scores, 2), sparse.top_k_keys(i.head.raw_scores, 1, i.head.raw_scores > 0)),
    "sparse.SparseTrace": lambda i: (t := sparse.sparse_attention(i.k, i.k, i.v, i.k @ i.k.T, 2), t.distance, t.kept_mass),
    "sparse.sparse_attention": lambda i: sparse.sparse_attention(i.q, i.k, i.v, i.head.raw_scores, 3, causal=False),
    "sparse.SparseSweep": lambda i: sparse.sparse_sweep(i.k, i.k, i.v, i.k @ i.k.T),
    "sparse.sparse_sweep": lambda i: sparse.sparse_sweep(i.q, i.k, i.v, i.head.raw_scores, causal=False),
    "sparse.top_k_pairs": lambda i: sparse.top_k_pairs(10, 3),
    "sparse.SparseShape": lambda i: sparse.SPARSE_SHAPES["deepseek-v3.2"],
    "sparse.SparseCost": lambda i: sparse.sparse_cost(sparse.SPARSE_SHAPES["deepseek-v3.2"], np.array([1024, 4096])),
    "sparse.sparse_cost": lambda i: sparse.sparse_cost(sparse.SPARSE_SHAPES["deepseek-v3.2"], np.array([10])),
    "traffic.Traffic": lambda i: (t := traffic.standard_traffic(64, 8), t.elements, t.bytes(), t.intensity()),
    "traffic.attention_flops": lambda i: traffic.attention_flops(64, 8),
    "traffic.standard_traffic": lambda i: traffic.standard_traffic(16, 4),
    "traffic.flash_blocks": lambda i: traffic.flash_blocks(1024, 8),
    "traffic.flash_sram_need": lambda i: traffic.flash_sram_need(8, 32, 8),
    "traffic.flash_traffic": lambda i: traffic.flash_traffic(64, 8, 32, 8),
    "traffic.flash_against_standard": lambda i: traffic.flash_against_standard(traffic.standard_traffic(64, 8), traffic.flash_traffic(64, 8, 32, 8)),
    "traffic.key_blocks": lambda i: traffic.key_blocks(64, 24),
    "traffic.query_blocks": lambda i: traffic.query_blocks(64, 24),
    "traffic.flash2_traffic": lambda i: traffic.flash2_traffic(64, 8, 32, 8),
    "traffic.simulate_flash2": lambda i: traffic.simulate_flash2(i.k, i.k, i.k, 3, 2),
    "traffic.TiledRun": lambda i: traffic.simulate_flash(i.k, i.k, i.v[:, :1].repeat(4, axis=1), 2, 2),
    "traffic.simulate_standard": lambda i: traffic.simulate_standard(i.k, i.k, i.k, 2),
    "traffic.simulate_flash": lambda i: traffic.simulate_flash(i.k, i.k, i.k, 3, 2),
    "traffic.GPU": lambda i: (traffic.GPUS["h100"], traffic.GPUS["h100"].ridge),
    "traffic.RooflinePoint": lambda i: (p := traffic.roofline(traffic.GPUS["a100"], traffic.standard_traffic(64, 8)), p.time, p.bound),
    "traffic.roofline": lambda i: traffic.roofline(traffic.GPUS["b200"], traffic.flash_traffic(64, 8, 32, 8)),
    # scaling
    "scaling.memory_bytes": lambda i: scaling.memory_bytes(10, 4),
    "scaling.check_lab": lambda i: scaling.check_lab(4, 4, 10),
    "scaling.sample_raw_scores": lambda i: scaling.sample_raw_scores(4, 4, 10, rng()),
    "scaling.direct_raw_scores": lambda i: scaling.direct_raw_scores(4, 4, 10, rng()),
    "scaling.softmax_jacobian": lambda i: scaling.softmax_jacobian(i.head.weights[0]),
    "scaling.jacobian_norms": lambda i: scaling.jacobian_norms(i.head.weights),
    "scaling.loser_gradients": lambda i: scaling.loser_gradients(i.head.weights),
    "scaling.SoftmaxStats": lambda i: scaling.softmax_stats(scaling.sample_raw_scores(4, 4, 10, rng()), 2.0),
    "scaling.softmax_stats": lambda i: scaling.softmax_stats(scaling.sample_raw_scores(4, 4, 10, rng()), 1.0),
    "scaling.DivisorChoices": lambda i: scaling.divisor_choices(4, 10),
    "scaling.divisor_choices": lambda i: scaling.divisor_choices(4, 10, d_model=16, heads=4),
    "scaling.Sweep": lambda i: scaling.sweep(4, 10),
    "scaling.sweep": lambda i: scaling.sweep(3, 10, temperature=2.0),
    "scaling.score_histogram": lambda i: scaling.score_histogram(i.head.raw_scores, bins=4),
    # scores
    "scores.dot_scores": lambda i: scores.dot_scores(i.q, i.k, {}),
    "scores.additive_scores": lambda i: scores.additive_scores(i.q, i.k, scores.SCORE_FUNCTIONS["additive"].default_params(4, 4, rng())),
    "scores.bilinear_scores": lambda i: scores.bilinear_scores(i.q, i.k, {"W": np.eye(4)}),
    "scores.cosine_scores": lambda i: scores.cosine_scores(i.q, i.k, {}),
    "scores.ScoreFunction": lambda i: [(f, f.default_params(4, 4, rng()), f.scores(i.q, i.k, f.default_params(4, 4, rng())))
                                       for f in scores.SCORE_FUNCTIONS.values()],
    # tasks
    "tasks.Task": task,
    "tasks.copy_offset": lambda i: (t := tasks.copy_offset(), t.batch(rng(), 2), t.ideal(t.batch(rng(), 1)[0])),
    "tasks.reverse": lambda i: (t := tasks.reverse(), t.batch(rng(), 2), t.ideal(t.batch(rng(), 1)[0])),
    "tasks.sort": lambda i: (t := tasks.sort(), t.batch(rng(), 2), t.ideal(t.batch(rng(), 1)[0])),
    "tasks.induction": lambda i: (t := tasks.induction(), t.batch(rng(), 2), t.ideal(t.batch(rng(), 1)[0])),
    "tasks.corpus_text": lambda i: tasks.corpus_text()[:20],
    "tasks.characters": lambda i: (t := tasks.characters("abcab cabca bcabc", 6), t.batch(rng(), 2), t.ideal(t.batch(rng(), 1)[0])),
    "tasks.closeness": lambda i: tasks.closeness(np.eye(3), np.eye(3)),
    "tasks.Run": lambda i: trainer(i)[0],
    "tasks.Trainer": trainer,
    "tasks.advance": lambda i: (t := tasks.advance(tasks.Trainer("copy", tiny.TinyConfig(vocab=8, context=12, d_model=8, heads=1, layers=1),
                                                                  batch=4), 1), t.params, t.state),
    "tasks.named_task": lambda i: tasks.named_task("sort"),
    "tasks.train": lambda i: tasks.train("copy", tiny.TinyConfig(vocab=8, context=12, d_model=8, heads=1, layers=1), 2, every=1, batch=4),
    "tasks.ScalingRuns": lambda i: tasks.scaling_runs("copy", (4,), (0,), 2, every=1, batch=4),
    "tasks.scaling_runs": lambda i: tasks.scaling_runs("copy", (2, 4), (0,), 1, every=1, batch=2),
    # tiny
    "tiny.TinyConfig": lambda i: (i.tiny_config, i.tiny_config.d_k, i.tiny_config.divisor, i.tiny_config.parameter_count),
    "tiny.TinyParameters": lambda i: (i.tiny, tiny.TinyParameters(i.tiny_config, {"embed": np.ones((7, 8))})),
    "tiny.init_tiny": lambda i: tiny.init_tiny(tiny.TinyConfig(vocab=5, context=4, d_model=6, heads=3, layers=1, positions="sinusoidal")),
    "tiny.LayerTrace": lambda i: tiny.forward(i.tiny, i.batch[:, :-1]).layers[0],
    "tiny.TinyTrace": lambda i: tiny.forward(i.tiny, i.batch[:, :-1]),
    "tiny.forward": lambda i: tiny.forward(i.tiny, i.batch[0, :6]),
    "tiny.run_layers": lambda i: tiny.run_layers(i.tiny, rng().standard_normal((2, 4, 8)), causal=False, keep=np.ones((2, 4), bool)),
    "tiny.logits": lambda i: (tiny.logits(i.tiny, i.batch[0, :5]), tiny.logits(i.tiny, i.batch[:, :5])),
    "tiny.cross_entropy": lambda i: tiny.cross_entropy(tiny.logits(i.tiny, i.batch[:, :-1]), i.batch[:, 1:]),
    "tiny.loss": lambda i: tiny.loss(i.tiny, i.batch),
    "tiny.gradients": lambda i: tiny.gradients(i.tiny, i.batch),
    "tiny.score_gradient": lambda i: tiny.score_gradient(i.tiny, i.batch),
    "tiny.layers_backward": lambda i: tiny.layers_backward(i.tiny, (trace := tiny.forward(i.tiny, i.batch[:, :-1])).layers, np.ones_like(trace.x)),
    "tiny.AdamState": lambda i: tiny.adam(i.tiny, tiny.gradients(i.tiny, i.batch), tiny.adam_state(i.tiny))[1],
    "tiny.adam_state": lambda i: tiny.adam_state(i.tiny),
    "tiny.adam": lambda i: tiny.adam(i.tiny, tiny.gradients(i.tiny, i.batch), tiny.adam_state(i.tiny)),
    "tiny.Cache": lambda i: (cache := tiny.decode_step(i.tiny, tiny.empty_cache(i.tiny), 3)[1], cache.length, cache.nbytes()),
    "tiny.empty_cache": lambda i: tiny.empty_cache(i.tiny),
    "tiny.decode_step": lambda i: tiny.decode_step(i.tiny, tiny.decode_step(i.tiny, tiny.empty_cache(i.tiny), 3)[1], 4),
    "tiny.next_token_probabilities": lambda i: (tiny.next_token_probabilities(np.arange(5.0), 0.5, 2), tiny.next_token_probabilities(np.arange(5.0))),
    "tiny.Generation": lambda i: tiny.generate(i.tiny, np.array([1, 2]), 2, 1.0, 0, 0),
    "tiny.generate": lambda i: tiny.generate(i.tiny, np.array([1]), 3, 0.5, 2, 1),
    # vision
    "vision.load_digits": lambda i: vision.load_digits(),
    "vision.split": lambda i: vision.split(20),
    "vision.patches": lambda i: (vision.patches(i.digits[0], 2), vision.patches(i.digits[0][0], 4)),
    "vision.patch_span": lambda i: vision.patch_span(14, 2),
    "vision.clamp_image": lambda i: vision.clamp_image(np.full((8, 8), 20.0)),
    "vision.clamped_cells": lambda i: vision.clamped_cells(np.full((8, 8), np.nan)),
    "vision.vit_config": lambda i: vision.vit_config(2),
    "vision.patch_size": lambda i: vision.patch_size(vision.vit_config(2)),
    "vision.init_vit": lambda i: vision.init_vit(vision.vit_config(2, d_model=8, heads=1, layers=1)),
    "vision.VisionTrace": lambda i: (i.vit_trace, i.vit_trace.cls_attention),
    "vision.vit_forward": lambda i: vision.vit_forward(i.vit, i.digits[0][0], keep=np.ones((1, 5), bool)),
    "vision.vit_loss": lambda i: vision.vit_loss(i.vit, *i.digits),
    "vision.vit_gradients": lambda i: vision.vit_gradients(i.vit, *i.digits),
    "vision.accuracy": lambda i: vision.accuracy(i.vit, *i.digits),
    "vision.VisionRun": lambda i: vision.train_vit(size=4, steps=1, batch=4, every=1, probes=2),
    "vision.train_vit": lambda i: vision.train_vit(size=4, steps=2, batch=4, every=1, probes=1),
    "vision.rollout": lambda i: vision.rollout(i.vit_trace),
    "vision.glimpse": lambda i: (vision.glimpse(i.vit_trace, 2), vision.glimpse(i.vit_trace, 2, rng())),
    "vision.glimpse_accuracy": lambda i: vision.glimpse_accuracy(i.vit, *i.digits, 2, random=True),
}


def public_names() -> dict[str, object]:
    """module.name -> object for every public function and class defined in a module of the core, and for every function
    and class of ``attention_core.__all__`` (under the module that defines it)."""
    found = {}
    for name in MODULES:
        module = importlib.import_module(f"attention_core.{name}")
        for attr, obj in vars(module).items():
            if not attr.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == module.__name__:
                found[f"{name}.{attr}"] = obj
    for attr in attention_core.__all__:
        obj = getattr(attention_core, attr)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            found[f"{obj.__module__.removeprefix('attention_core.')}.{obj.__name__}"] = obj
    return found


def writeable_arrays(value: object, path: str = "result") -> list[str]:
    """Where ``value`` breaks the contract: a writeable array, or a dataclass that is not frozen, at any depth."""
    if isinstance(value, np.ndarray):
        return [f"{path} is writeable"] if value.flags.writeable else []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found = [] if type(value).__dataclass_params__.frozen else [f"{path}: {type(value).__name__} is not a frozen dataclass"]
        for field in dataclasses.fields(value):
            found += writeable_arrays(getattr(value, field.name), f"{path}.{field.name}")
        return found
    if isinstance(value, (tuple, list)):
        return [problem for n, item in enumerate(value) for problem in writeable_arrays(item, f"{path}[{n}]")]
    if isinstance(value, Mapping):
        return [problem for key, item in value.items() for problem in writeable_arrays(item, f"{path}[{key!r}]")]
    return []


def dataclasses_in(value: object) -> list[object]:
    """Every dataclass instance in ``value``, at any depth."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [value] + [found for field in dataclasses.fields(value) for found in dataclasses_in(getattr(value, field.name))]
    if isinstance(value, (tuple, list)):
        return [found for item in value for found in dataclasses_in(item)]
    if isinstance(value, Mapping):
        return [found for item in value.values() for found in dataclasses_in(item)]
    return []


def thawed(value: object) -> object:
    """``value`` with every array replaced by a writeable copy (nested dataclasses are kept: they freeze themselves)."""
    if isinstance(value, np.ndarray):
        return np.array(value)
    if isinstance(value, tuple):
        return tuple(thawed(item) for item in value)
    if isinstance(value, list):
        return [thawed(item) for item in value]
    if isinstance(value, dict):
        return {key: thawed(item) for key, item in value.items()}
    return value


@pytest.fixture(scope="module")
def inputs() -> Inputs:
    return Inputs()


def test_every_public_name_has_an_example():
    names = public_names()
    assert not sorted(set(names) - set(EXAMPLES)), "add an example call to EXAMPLES for each of these public names"
    assert not sorted(set(EXAMPLES) - set(names)), "these examples name nothing public (renamed or removed?)"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_result_is_frozen_and_read_only(name, inputs):
    result = EXAMPLES[name](inputs)
    assert not writeable_arrays(result), f"{name}: {writeable_arrays(result)}"
    for instance in {type(found): found for found in dataclasses_in(result)}.values():
        rebuilt = dataclasses.replace(instance, **{f.name: thawed(getattr(instance, f.name)) for f in dataclasses.fields(instance) if f.init})
        assert not writeable_arrays(rebuilt), f"{type(instance).__name__} built directly keeps: {writeable_arrays(rebuilt)}"


def undocumented(module_name: str) -> list[str]:
    """The public functions, classes, methods and properties of a module of the core without a docstring of their own
    (a dataclass's generated ``Name(field, ...)`` does not count)."""
    module = importlib.import_module(f"attention_core.{module_name}")
    missing = []
    for attr, obj in vars(module).items():
        if attr.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)) or obj.__module__ != module.__name__:
            continue
        doc = (obj.__doc__ if inspect.isclass(obj) else inspect.getdoc(obj)) or ""
        if not doc.strip() or (dataclasses.is_dataclass(obj) and doc.startswith(f"{obj.__name__}(")):
            missing.append(attr)
        if inspect.isclass(obj):
            for member_name, member in vars(obj).items():
                function = member.fget if isinstance(member, property) else member
                if not member_name.startswith("_") and inspect.isfunction(function) and not (inspect.getdoc(function) or "").strip():
                    missing.append(f"{attr}.{member_name}")
    return missing


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_name_has_a_docstring(module_name):
    assert not undocumented(module_name), f"attention_core.{module_name}: write a docstring (shapes, formula) for {undocumented(module_name)}"


def test_every_name_of_the_api_has_a_docstring():
    missing = [name for name in attention_core.__all__ if (inspect.isfunction(obj := getattr(attention_core, name)) or inspect.isclass(obj))
               and not (obj.__doc__ or "").strip()]
    assert not missing, missing
