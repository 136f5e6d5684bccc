"""Pure NumPy attention: every intermediate of the computation, named and read-only.

Row-vector convention (Q = X W_Q); matrices have rows = queries and columns = keys;
masks are True where a query may attend to a key. Never imports streamlit, plotly or pandas.
"""

from attention_core.attention import (
    DEFAULT_WINDOW,
    MODES,
    AttentionTrace,
    attend,
    causal_mask,
    softmax,
    window_mask,
)
from attention_core.explain import TEXTBOOK_D_K, TEXTBOOK_TOKENS, Explanation, explain, textbook_example
from attention_core.multihead import MAX_HEADS, MultiHeadTrace, ProjectionWeights, init_weights, multi_head
from attention_core.rnn import RNNWeights, complexity, init_rnn, reach, rnn
from attention_core.scores import SCORE_FUNCTIONS, SCORES, ScoreFunction
from attention_core.structures import (
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
from attention_core.tokens import embed, positional_encoding, tokenize
from attention_core.variants import (
    VectorPair,
    asymmetry,
    cosine_similarity,
    entropy_bits,
    gumbel_noise,
    gumbel_softmax,
    polar_vector,
    similarity_matrices,
    softmax_over_scales,
    stretch_sweep,
    vector_pair,
    weighted_sum,
)

__all__ = [
    "DEFAULT_WINDOW",
    "MAX_HEADS",
    "MODES",
    "SCORES",
    "SCORE_FUNCTIONS",
    "TEXTBOOK_D_K",
    "TEXTBOOK_TOKENS",
    "AttentionTrace",
    "Explanation",
    "HierarchicalTrace",
    "MultiHeadTrace",
    "Pooling",
    "ProjectionWeights",
    "RNNWeights",
    "ScoreFunction",
    "VectorPair",
    "asymmetry",
    "attend",
    "attention_pool",
    "causal_mask",
    "complexity",
    "cosine_similarity",
    "embed",
    "entropy_bits",
    "explain",
    "general_attention",
    "gumbel_noise",
    "gumbel_softmax",
    "head_distances",
    "hierarchical",
    "init_rnn",
    "init_weights",
    "jensen_shannon_bits",
    "multi_head",
    "multi_head_cost",
    "polar_vector",
    "positional_encoding",
    "reach",
    "rnn",
    "similarity_matrices",
    "softmax",
    "softmax_over_scales",
    "split_sentences",
    "stretch_sweep",
    "textbook_example",
    "tokenize",
    "vector_pair",
    "weighted_sum",
    "window_mask",
]
