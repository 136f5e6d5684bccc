"""Pure NumPy attention: every intermediate of the computation, named and read-only.

The conventions every module of the core keeps (tests/test_core_contract.py checks the last three):

- Row-vector convention (Q = X W_Q); matrices have rows = queries and columns = keys; masks are True where a query
  may attend to a key. float64 throughout; bad arguments raise ValueError naming what is valid. Never imports
  streamlit, plotly or pandas.
- Shapes are written in parentheses, as NumPy prints them: ``(n_q, n_k)``, ``(n,)`` for one axis, ``(..., n_k)`` for
  any leading axes, ``(B, H, n, n)`` for a batch of heads. Square brackets are for indexing only (``X[i]``, ``W_O[h]``).
- DESIGN's words for each stage: raw scores (q . k), scaled scores (raw / divisor), masked scores (-inf where not
  allowed), weights = softmax(masked scores), output = weights V. One name is never rebound to another quantity.
  One softmax (``attention.softmax``, subtracting the row maximum) and one cross-entropy (``tiny.cross_entropy``).
- Every result is a frozen dataclass of read-only arrays (or a tuple, list or dict of them): results are shared
  across sessions. A dataclass's ``__post_init__`` calls ``_checks.frozen(self)`` (a dataclass built directly freezes
  the arrays it is given); a function returning arrays returns ``frozen(...)`` and copies any caller's array it keeps.
- Every public function and class has a docstring with its shapes and, where there is one, its formula.
"""

from attention_core.arrangements import (
    HierarchicalTrace,
    Pooling,
    attention_pool,
    general_attention,
    head_distances,
    hierarchical,
    jensen_shannon_bits,
    multi_head_cost,
    split_sentences,
)
from attention_core.attention import (
    DEFAULT_WINDOW,
    MODES,
    AttentionTrace,
    attend,
    causal_mask,
    softmax,
    window_mask,
)
from attention_core.embedding import embed, positional_encoding, tokenize
from attention_core.explain import TEXTBOOK_D_K, TEXTBOOK_TOKENS, ExplainOptions, Explanation, explain, textbook_example
from attention_core.export import from_json, replay, to_json
from attention_core.fast import allowed_pairs, kv_cache_bytes, online_softmax_attention, shared_kv_attention
from attention_core.latent import latent_attention
from attention_core.measures import (
    FocusRow,
    VectorPair,
    asymmetry,
    cosine_similarity,
    dot_scores_of,
    entropy_bits,
    focus_row,
    gumbel_noise,
    gumbel_softmax,
    polar_vector,
    similarity_matrices,
    softmax_over_scales,
    stretch_sweep,
    vector_pair,
    weighted_sum,
)
from attention_core.multihead import MAX_HEADS, MultiHeadTrace, Projections, init_projections, multi_head
from attention_core.positions import alibi_bias, alibi_slopes, positioned_head, rope
from attention_core.rnn import RNNParameters, complexity, init_rnn, reach, rnn
from attention_core.scaling import (
    SWEEP_D_K,
    DivisorChoices,
    SoftmaxStats,
    Sweep,
    check_lab,
    direct_raw_scores,
    divisor_choices,
    jacobian_norms,
    loser_gradients,
    memory_bytes,
    sample_raw_scores,
    score_histogram,
    softmax_jacobian,
    softmax_stats,
    sweep,
)
from attention_core.scores import SCORE_FUNCTIONS, SCORES, ScoreFunction
from attention_core.sparse import lightning_indexer, sparse_attention
from attention_core.tasks import TASKS, Task, Trainer, closeness, scaling_runs
from attention_core.tiny import (
    AdamState,
    Cache,
    TinyConfig,
    TinyParameters,
    TinyTrace,
    adam,
    adam_state,
    decode_step,
    empty_cache,
    gradients,
    init_tiny,
    logits,
    loss,
)
from attention_core.tiny import forward as tiny_forward
from attention_core.traffic import flash2_traffic, flash_traffic, roofline, standard_traffic

__all__ = [
    "DEFAULT_WINDOW",
    "MAX_HEADS",
    "MODES",
    "SCORES",
    "SCORE_FUNCTIONS",
    "SWEEP_D_K",
    "TASKS",
    "TEXTBOOK_D_K",
    "TEXTBOOK_TOKENS",
    "AdamState",
    "AttentionTrace",
    "Cache",
    "DivisorChoices",
    "ExplainOptions",
    "Explanation",
    "FocusRow",
    "HierarchicalTrace",
    "MultiHeadTrace",
    "Pooling",
    "Projections",
    "RNNParameters",
    "ScoreFunction",
    "SoftmaxStats",
    "Sweep",
    "Task",
    "TinyConfig",
    "TinyParameters",
    "TinyTrace",
    "Trainer",
    "VectorPair",
    "adam",
    "adam_state",
    "alibi_bias",
    "alibi_slopes",
    "allowed_pairs",
    "asymmetry",
    "attend",
    "attention_pool",
    "causal_mask",
    "check_lab",
    "closeness",
    "complexity",
    "cosine_similarity",
    "decode_step",
    "direct_raw_scores",
    "divisor_choices",
    "dot_scores_of",
    "embed",
    "empty_cache",
    "entropy_bits",
    "explain",
    "flash2_traffic",
    "flash_traffic",
    "focus_row",
    "from_json",
    "general_attention",
    "gradients",
    "gumbel_noise",
    "gumbel_softmax",
    "head_distances",
    "hierarchical",
    "init_projections",
    "init_rnn",
    "init_tiny",
    "jacobian_norms",
    "jensen_shannon_bits",
    "kv_cache_bytes",
    "latent_attention",
    "lightning_indexer",
    "logits",
    "loser_gradients",
    "loss",
    "memory_bytes",
    "multi_head",
    "multi_head_cost",
    "online_softmax_attention",
    "polar_vector",
    "positional_encoding",
    "positioned_head",
    "reach",
    "replay",
    "rnn",
    "roofline",
    "rope",
    "sample_raw_scores",
    "scaling_runs",
    "score_histogram",
    "shared_kv_attention",
    "similarity_matrices",
    "softmax",
    "softmax_jacobian",
    "softmax_over_scales",
    "softmax_stats",
    "sparse_attention",
    "split_sentences",
    "standard_traffic",
    "stretch_sweep",
    "sweep",
    "textbook_example",
    "tiny_forward",
    "to_json",
    "tokenize",
    "vector_pair",
    "weighted_sum",
    "window_mask",
]
