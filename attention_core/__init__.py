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
    "attend",
    "causal_mask",
    "embed",
    "explain",
    "init_weights",
    "multi_head",
    "positional_encoding",
    "softmax",
    "textbook_example",
    "tokenize",
    "window_mask",
]
