"""The app's own heatmaps for any attention trace, as Plotly figures for a notebook.

    from attention_core import explain, textbook_example
    from attention_plot import plot

    plot.weights(textbook_example())            # softmax(Q Kᵀ / √d_k), 2 × 2: 0.88 and 0.12 in the first row
    plot.step(explain("the cat sat"), "raw")     # a step of the walkthrough, as the walkthrough draws it

Each figure comes from the builders the pages use (``heatmap`` describes it, ``attention_plot.figures.heatmap`` draws it), with the same titles,
axis names and tooltips, in English or Chinese (``lang="zh"``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go
from numpy.typing import NDArray

from attention_core import AttentionTrace, Explanation
from attention_core.explain import TEXTBOOK_TOKENS
from attention_plot import figures
from attention_plot.text import DEFAULT_LANGUAGE, Texts

AXIS_TITLES = {"query": "common.labels.queries", "key": "common.labels.keys", "token": "common.labels.tokens",
               "dimension": "common.labels.dimensions", "head": "common.labels.heads", "layer": "common.labels.layers",
               "position": "common.labels.positions",
               "word": "common.labels.words", "target": "common.labels.targets", "source": "common.labels.sources",
               "sentence": "common.labels.sentences", "document": "common.labels.documents", "block": "common.labels.blocks",
               "query_position": "common.labels.query_positions", "key_position": "common.labels.key_positions",
               "column_position": "common.labels.column_positions", "pixel_row": "common.labels.pixel_rows",
               "pixel_column": "common.labels.pixel_columns"}


class Labels(NamedTuple):
    """A heatmap's texts besides its title: axis titles, the names a tooltip gives a row and a column, the note shown
    when the numbers are too small to read, and the chart's text alternative."""

    x_title: str
    y_title: str
    hover_rows: str
    hover_cols: str
    hidden_note: str
    alt: str


ROWS_NAMED = 8  # a weights heatmap of at most this many rows names each row's largest weight in its text alternative
TABLE_CELLS = 400  # assets/components/shell/chart-tables.js reads a heatmap of at most this many cells to a screen reader as a table


def labels(T: Texts, title: str, shape: tuple[int, int], rows_are: str, cols_are: str, values: NDArray | None = None,
           row_labels: tuple[str, ...] = (), col_labels: tuple[str, ...] = (), kind: str = "signed") -> Labels:
    """The texts of a heatmap of ``shape`` (rows, cols) whose rows are ``rows_are`` and columns ``cols_are``; with its
    ``values`` and labels, the text alternative also names its largest and smallest cells (``key_numbers``)."""
    rows, cols = T(AXIS_TITLES[rows_are]), T(AXIS_TITLES[cols_are])
    alt = T("common.labels.alt", title=untagged(title), rows=shape[0], row_kind=rows, cols=shape[1], col_kind=cols)
    if values is not None and len(row_labels) and len(col_labels):
        alt += " " + key_numbers(T, np.asarray(values, dtype=float), row_labels, col_labels, kind)
        alt += " " + T("common.labels.alt_table" if shape[0] * shape[1] <= TABLE_CELLS else "common.labels.alt_csv")
    return Labels(cols, rows, T(f"common.labels.{rows_are}"), T(f"common.labels.{cols_are}"), T("common.labels.numbers_hidden"), alt)


def untagged(text: str) -> str:
    """A chart title without Plotly's tags (<b>, <sub>, <br>), as a screen reader should hear it."""
    return re.sub(r"<br\s*/?>", " ", re.sub(r"<(?!br)[^>]*>", "", text)).strip()


def number(value: float, decimals: int = 2) -> str:
    """A number as the cells print it: fixed decimals and a true minus sign."""
    return f"{value:.{decimals}f}".replace("-", "−")


def token_name(labels: tuple[str, ...], i: int) -> str:
    """Label i in quotes, its position after it when the label repeats: “the” (5)."""
    return f"“{labels[i]}” ({i + 1})" if list(labels).count(labels[i]) > 1 else f"“{labels[i]}”"


def key_numbers(T: Texts, values: NDArray, rows: tuple[str, ...], cols: tuple[str, ...], kind: str) -> str:
    """A sentence naming the largest and the smallest finite cells of ``values`` (rows, cols) by their labels, e.g.
    "Each row sums to 1; “cat” puts the most weight on “the” (0.56); …" for attention weights."""
    finite = np.where(np.isfinite(values), values, np.nan)
    if not np.isfinite(finite).any():
        return ""
    high = np.unravel_index(np.nanargmax(finite), finite.shape)
    low = np.unravel_index(np.nanargmin(finite), finite.shape)
    name = token_name
    words = dict(high=number(finite[high]), high_row=name(rows, high[0]), high_col=name(cols, high[1]),
                 low=number(finite[low]), low_row=name(rows, low[0]), low_col=name(cols, low[1]))
    shown = np.isfinite(finite).any(axis=1)  # a row hidden while the class predicts stays hidden
    sums_to_one = kind == "weights" and np.allclose(np.nansum(finite[shown], axis=1), 1.0, atol=1e-6)
    if sums_to_one and shown.sum() <= ROWS_NAMED:
        rows_said = [T("common.labels.alt_weight_row", row=name(rows, i), col=name(cols, int(np.nanargmax(finite[i]))),
                       value=number(np.nanmax(finite[i]))) for i in np.flatnonzero(shown)]
        return T("common.labels.alt_weights_rows", rows=T("common.labels.alt_separator").join(rows_said))
    return T("common.labels.alt_weights" if sums_to_one else "common.labels.alt_extremes", **words)


def positions(n: int) -> tuple[str, ...]:
    return tuple(str(i + 1) for i in range(n))


def heatmap(values: NDArray, rows: tuple[str, ...], cols: tuple[str, ...], *, T: Texts | None = None, kind: str = "signed",
            title: str = "", rows_are: str = "token", cols_are: str = "dimension", numbers: bool = True,
            font: int = figures.SCREEN_FONT, **how: object) -> figures.Heatmap:
    """The description of ``values`` (rows, cols) as the app's heatmap (``figures.Heatmap``), with its texts in ``T``'s
    language (English when None: a notebook's default; the app passes its run's): axis titles and tooltip names for
    rows that are ``rows_are`` and columns that are ``cols_are``, the note, the text alternative. Numbers in the cells
    when asked for (``numbers``) and readable; ``how``: the other fields of ``figures.Heatmap`` (decimals, zmax,
    column_groups, outline, arithmetic, ink)."""
    T = Texts(DEFAULT_LANGUAGE) if T is None else T
    text = labels(T, title, np.shape(values), rows_are, cols_are, values, rows, cols, kind)
    return figures.Heatmap(values, rows, cols, kind=kind, title=title, x_title=text.x_title, y_title=text.y_title,
                           hover_rows=text.hover_rows, hover_cols=text.hover_cols,
                           show_values=numbers and figures.readable(np.shape(values)), font=font, hidden_note=text.hidden_note,
                           alt=text.alt, **how)  # type: ignore[arg-type]


def matrix(values: NDArray, rows: tuple[str, ...], cols: tuple[str, ...], *, kind: str = "signed", title: str = "",
           rows_are: str = "token", cols_are: str = "dimension", numbers: bool = True, lang: str = "en",
           arithmetic: tuple[NDArray, NDArray] | None = None) -> go.Figure:
    """Any matrix (rows, cols) as the app's heatmap. kind: "signed", "weights" (0..1), "q", "k" or "v";
    ``arithmetic`` = (q, k) lists q·k term by term in each cell's tooltip (raw scores)."""
    values = np.asarray(values, dtype=float)
    described = heatmap(values, tuple(rows), tuple(cols), T=Texts(lang), kind=kind, title=title, rows_are=rows_are, cols_are=cols_are,
                        numbers=numbers, arithmetic=arithmetic)
    return go.Figure(figures.sized(figures.heatmap(described), 13), _validate=False)  # as the app sends it: Plotly.js sizes numbers "auto"


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


def _short(value: float) -> str:
    """A number for a sentence: whole numbers as they are (4,096), small ones to three significant digits (0.000316, not
    0.000), others to three decimals."""
    if float(value).is_integer() or abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}".replace("-", "−") if abs(value) < 0.01 else number(value, 3)


def _finite(values: object) -> NDArray:
    values = np.asarray(np.ravel(np.asarray(values, dtype=object)), dtype=float)  # None (a gap in a line) -> nan
    return values[np.isfinite(values)]


def describe(figure: dict, T: Texts) -> str:
    """A chart's text alternative from its own data: the title, and for lines where each starts and ends, for bars the
    highest and the lowest (a heatmap's comes from ``labels``)."""
    layout, traces = figure.get("layout", {}), figure.get("data", [])
    title = untagged(str((layout.get("title") or {}).get("text", "")))
    bars = [t for t in traces if t.get("type") == "bar"]
    lines = [t for t in traces if t.get("type") == "scatter" and "lines" in str(t.get("mode", "lines")) and len(np.ravel(t.get("y", []))) > 1]
    if bars:
        bar = bars[0]
        values = np.asarray(np.asarray(bar["x"] if bar.get("orientation") == "h" else bar["y"], dtype=object), dtype=float)
        names = bar.get("customdata")
        if names is None:
            names = [_short(float(x)) for x in np.ravel(bar["y" if bar.get("orientation") == "h" else "x"])]
        high, low = int(np.nanargmax(values)), int(np.nanargmin(values))
        return T("common.labels.alt_bars", title=title, count=len(values), high_name=untagged(str(names[high])), high=_short(values[high]),
                 low_name=untagged(str(names[low])), low=_short(values[low]))
    if lines:
        x = _finite(lines[0]["x"])
        x_title = untagged(str(((layout.get("xaxis") or {}).get("title") or {}).get("text", "")))
        ends = [(t, _finite(t["y"])) for t in lines[:8]]
        said = "; ".join(T("common.labels.alt_line", name=untagged(str(t.get("name", ""))), first=_short(y[0]), last=_short(y[-1]))
                         for t, y in ends if y.size)
        return T("common.labels.alt_lines", title=title, x_title=x_title, x0=_short(float(x[0])), x1=_short(float(x[-1])), lines=said)
    notes = layout.get("annotations", [])
    arrows = [a for a in notes if a.get("showarrow") and a.get("axref") == "x"]  # vectors drawn as arrows from the origin
    names = [untagged(str(a.get("text", ""))) for a in notes if a.get("text")]
    if arrows and len(names) == len(arrows):
        said = [f"{n} = ({number(float(a['x']))}, {number(float(a['y']))})" for n, a in zip(names, arrows)]
        return T("common.labels.alt_chart", title=title, names=T("common.labels.alt_separator").join(said))
    return T("common.labels.alt_chart", title=title, names=", ".join(names) or title)
