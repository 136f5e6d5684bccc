"""The app's own heatmaps for any attention trace, as Plotly figures for a notebook.

    from attention_core import explain, textbook_example
    from attention_plot import plot

    plot.weights(textbook_example())            # softmax(Q Kᵀ / √d_k), 2 × 2: 0.88 and 0.12 in the first row
    plot.step(explain("the cat sat"), "raw")     # a step of the walkthrough, as the walkthrough draws it

Each figure comes from the builders the pages use (``attention_plot.figures.heatmap``), with the same titles,
axis names and tooltips, in English or Chinese (``lang="zh"``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go
from numpy.typing import NDArray

from attention_core import AttentionTrace, Explanation
from attention_core.explain import TEXTBOOK_TOKENS
from attention_plot import figures
from attention_plot.text import Texts

AXIS_TITLES = {"query": "common.labels.queries", "key": "common.labels.keys", "token": "common.labels.tokens",
               "dimension": "common.labels.dimensions", "head": "common.labels.heads", "position": "common.labels.positions",
               "word": "common.labels.words", "target": "common.labels.targets", "source": "common.labels.sources",
               "sentence": "common.labels.sentences", "document": "common.labels.documents", "block": "common.labels.blocks",
               "query_position": "common.labels.query_positions", "key_position": "common.labels.key_positions",
               "column_position": "common.labels.column_positions"}


class Labels(NamedTuple):
    """A heatmap's texts besides its title: axis titles, the names a tooltip gives a row and a column, the note shown
    when the numbers are too small to read, and the chart's text alternative."""

    x_title: str
    y_title: str
    hover_rows: str
    hover_cols: str
    hidden_note: str
    alt: str


def labels(T: Texts, title: str, shape: tuple[int, int], rows_are: str, cols_are: str) -> Labels:
    """The texts of a heatmap of ``shape`` (rows, cols) whose rows are ``rows_are`` and columns ``cols_are``."""
    rows, cols = T(AXIS_TITLES[rows_are]), T(AXIS_TITLES[cols_are])
    return Labels(cols, rows, T(f"common.labels.{rows_are}"), T(f"common.labels.{cols_are}"), T("common.labels.numbers_hidden"),
                  T("common.labels.alt", title=title, rows=shape[0], row_kind=rows, cols=shape[1], col_kind=cols))


def positions(n: int) -> tuple[str, ...]:
    return tuple(str(i + 1) for i in range(n))


def matrix(values: NDArray, rows: tuple[str, ...], cols: tuple[str, ...], *, kind: str = "signed", title: str = "",
           rows_are: str = "token", cols_are: str = "dimension", numbers: bool = True, lang: str = "en",
           arithmetic: tuple[NDArray, NDArray] | None = None) -> go.Figure:
    """Any matrix (rows, cols) as the app's heatmap. kind: "signed", "weights" (0..1), "q", "k" or "v";
    ``arithmetic`` = (q, k) lists q·k term by term in each cell's tooltip (raw scores)."""
    values = np.asarray(values, dtype=float)
    text = labels(Texts(lang), title, values.shape, rows_are, cols_are)
    extra = None if arithmetic is None else figures.dot_arithmetic(*arithmetic, values)
    figure = figures.heatmap(values, tuple(rows), tuple(cols), kind=kind, title=title, x_title=text.x_title, y_title=text.y_title,
                             show_values=numbers and figures.readable(values.shape), hover_rows=text.hover_rows,
                             hover_cols=text.hover_cols, hover_extra=extra, hidden_note=text.hidden_note)
    return go.Figure(figures.sized(figure, 13), _validate=False)  # as the app sends it: Plotly.js sizes numbers "auto"


HEAD_STEPS = {  # step -> (the head's matrix, kind, title key, rows are, columns are)
    "raw": ("raw_scores", "signed", "walkthrough.steps.raw.matrix", "query", "key"),
    "scaled": ("scaled_scores", "signed", "walkthrough.steps.scaled.matrix", "query", "key"),
    "softmax": ("weights", "weights", "walkthrough.steps.softmax.matrix", "query", "key"),
    "output": ("output", "signed", "walkthrough.steps.output.matrix", "token", "dimension"),
}
STEPS = ("tokens", "qkv", "raw", "scaled", "softmax", "output", "heads")  # the walkthrough's steps, in order


def weights(trace: AttentionTrace, tokens: tuple[str, ...] | None = None, *, lang: str = "en") -> go.Figure:
    """One head's attention weights (n_q, n_k), rows = queries, as the walkthrough's softmax step draws them."""
    return step(trace, "softmax", tokens=tokens, lang=lang)


def step(source: Explanation | AttentionTrace, name: str, *, head: int = 1, matrix_name: str | None = None,
         tokens: tuple[str, ...] | None = None, lang: str = "en") -> go.Figure:
    """The walkthrough's step ``name`` (one of STEPS) for an explanation (its ``head``, counted from 1) or one head's trace.

    Steps with several matrices take ``matrix_name``: tokens "x" (default), "embeddings" or "positional"; qkv "q"
    (default), "k" or "v"; heads "output" (default), "concat" or "w_o". A trace alone has no embeddings and no
    heads: its tokens are the article's "Thinking Machines" for a 2-token trace, else positions (or ``tokens``).
    """
    if name not in STEPS:
        raise ValueError(f"unknown step {name!r}: choose one of {', '.join(STEPS)}")
    T = Texts(lang)
    explanation = source if isinstance(source, Explanation) else None
    if explanation is None:
        if name in ("tokens", "heads"):
            raise ValueError(f"the step {name!r} needs an Explanation (attention_core.explain), not one head's trace")
        trace = source
        n_q, n_k = trace.weights.shape
        queries = tokens or (TEXTBOOK_TOKENS if n_q == n_k == len(TEXTBOOK_TOKENS) else positions(n_q))
        keys = queries if n_q == n_k else positions(n_k)
    else:
        heads = explanation.trace.heads
        if not 1 <= head <= len(heads):
            raise ValueError(f"head {head} does not exist: this explanation has {len(heads)}")
        trace, queries, keys = heads[head - 1], explanation.tokens, explanation.context_tokens
    if name == "tokens":
        chosen = matrix_name or "x"
        values = {"x": explanation.x, "embeddings": explanation.token_vectors, "positional": explanation.positional}[chosen]
        return matrix(values, queries, positions(values.shape[1]), title=T(f"walkthrough.steps.tokens.{chosen}"), lang=lang)
    if name == "qkv":
        chosen = matrix_name or "q"
        values = getattr(trace, chosen)
        return matrix(values, queries if chosen == "q" else keys, positions(values.shape[1]), kind=chosen,
                      title=T(f"walkthrough.steps.qkv.{chosen}"), lang=lang)
    if name == "heads":
        chosen = matrix_name or "output"
        values = {"output": explanation.trace.output, "concat": explanation.trace.concat, "w_o": explanation.projections.w_o}[chosen]
        rows = positions(values.shape[0]) if chosen == "w_o" else queries
        return matrix(values, rows, positions(values.shape[1]), title=T(f"walkthrough.steps.heads.{chosen}"),
                      rows_are="dimension" if chosen == "w_o" else "token", lang=lang)
    field, kind, title, rows_are, cols_are = HEAD_STEPS[name]
    values = getattr(trace, field)
    cols = keys if cols_are == "key" else positions(values.shape[1])
    arithmetic = (trace.q, trace.k) if name == "raw" and trace.score in ("dot", "scaled_dot") else None
    return matrix(values, queries, cols, kind=kind, title=T(title), rows_are=rows_are, cols_are=cols_are, lang=lang,
                  arithmetic=arithmetic)
