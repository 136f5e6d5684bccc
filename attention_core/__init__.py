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
from attention_core.scores import SCORE_FUNCTIONS, SCORES, ScoreFunction
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
    "MultiHeadTrace",
    "ProjectionWeights",
    "ScoreFunction",
    "VectorPair",
    "asymmetry",
    "attend",
    "causal_mask",
    "cosine_similarity",
    "embed",
    "entropy_bits",
    "explain",
    "gumbel_noise",
    "gumbel_softmax",
    "init_weights",
    "multi_head",
    "polar_vector",
    "positional_encoding",
    "similarity_matrices",
    "softmax",
    "softmax_over_scales",
    "stretch_sweep",
    "textbook_example",
    "tokenize",
    "vector_pair",
    "weighted_sum",
    "window_mask",
]
