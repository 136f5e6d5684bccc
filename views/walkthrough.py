"""The walkthrough's steps: one render function per step of self-attention."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from attention_core import AttentionTrace, Explanation
from views import figures
from views.charts import chart, dims, fixed, token_chips
from views.text import Texts

STEPS = ("tokens", "qkv", "raw", "scaled", "softmax", "output", "heads")


@dataclass(frozen=True)
class Walk:
    """What the steps show: query and key tokens, one head's trace, and the explanation behind it.

    ``explanation`` is None for the textbook example, which starts from q, k and v.
    """

    tokens: tuple[str, ...]
    key_tokens: tuple[str, ...]
    head: AttentionTrace
    head_index: int
    explanation: Explanation | None
    hidden_query: int | None = None  # predict-then-reveal: this query's weights stay hidden


def hide_row(matrix: NDArray, row: int | None) -> NDArray:
    """The matrix with one row blanked (NaN cells are drawn empty), or unchanged when ``row`` is None."""
    if row is None:
        return matrix
    hidden = np.array(matrix, dtype=float)
    hidden[row] = np.nan
    return hidden


def steps_for(walk: Walk) -> tuple[str, ...]:
    """The steps to show: the last one only when there are several heads."""
    several = walk.explanation is not None and len(walk.explanation.trace.heads) > 1
    return STEPS if several else STEPS[:-1]


def header(step: str, T: Texts, formula_key: str | None = None, compact: bool = False) -> None:
    """The step's title, explanation and formula (compact: no title, the explanation as a caption)."""
    if compact:
        st.caption(T(f"walkthrough.steps.{step}.body"))
    else:
        st.subheader(T(f"walkthrough.steps.{step}.title"))
        st.markdown(T(f"walkthrough.steps.{step}.body"))
    st.latex(T(formula_key or f"walkthrough.steps.{step}.formula"))


def render_tokens(walk: Walk, T: Texts, values: bool, compact: bool = False) -> None:
    e = walk.explanation
    header("tokens", T, None if e is None or e.settings["positions"] else "walkthrough.steps.tokens.formula_no_pe", compact)
    if not compact:
        st.caption(T("walkthrough.tokens_caption", n=len(walk.tokens)))
    st.html(token_chips(walk.tokens))
    if e is None:
        st.info(T("walkthrough.steps.tokens.textbook"))
        return
    tokens, d = e.tokens, dims(e.x.shape[1])
    if "layer" in e.settings:  # a pretrained model's layer: X is that layer's input
        title = T("walkthrough.steps.tokens.x_pretrained", layer=int(e.settings["layer"]) + 1)
        chart(e.x, tokens, d, kind="signed", title=title, key="tokens-x", T=T, values=values)
    elif e.settings["positions"] and not compact:
        for matrix, name in ((e.token_vectors, "embeddings"), (e.positional, "positional"), (e.x, "x")):
            chart(matrix, tokens, d, kind="signed", title=T(f"walkthrough.steps.tokens.{name}"), key=f"tokens-{name}", T=T, values=values)
    else:
        title = T("walkthrough.steps.tokens.x" if e.settings["positions"] else "walkthrough.steps.tokens.x_no_pe")
        chart(e.x, tokens, d, kind="signed", title=title, key="tokens-x", T=T, values=values)


def render_qkv(walk: Walk, T: Texts, values: bool, compact: bool = False) -> None:
    header("qkv", T, compact=compact)
    head, e = walk.head, walk.explanation
    if e is None and not compact:
        st.info(T("walkthrough.steps.qkv.textbook"))
    d_k, d_v = head.q.shape[1], head.v.shape[1]
    h = walk.head_index
    products = (("q", head.q, d_k), ("k", head.k, d_k), ("v", head.v, d_v))
    if compact:  # only the products, side by side
        for column, (name, product, size) in zip(st.columns(3), products):
            with column:
                tokens = walk.tokens if name == "q" else walk.key_tokens
                chart(product, tokens, dims(size), kind=name, title=T(f"walkthrough.steps.qkv.{name}"), key=f"qkv-{name}", T=T, values=values)
        return
    if e is None:
        for name, product, size in products:
            tokens = walk.tokens if name == "q" else walk.key_tokens
            chart(product, tokens, dims(size), kind=name, title=T(f"walkthrough.steps.qkv.{name}"), key=f"qkv-{name}", T=T, values=values)
        return
    for name, product, size in products:  # W beside X W, one pair per row
        w = getattr(e.weights, f"w_{name}")[:, h * size : (h + 1) * size]
        tokens = walk.tokens if name == "q" else walk.key_tokens
        left, right = st.columns(2)
        with left:
            chart(w, dims(w.shape[0]), dims(size), kind=name, title=T(f"walkthrough.steps.qkv.w_{name}"), key=f"qkv-w{name}",
                  T=T, values=values, rows_are="dimension")
        with right:
            chart(product, tokens, dims(size), kind=name, title=T(f"walkthrough.steps.qkv.{name}"), key=f"qkv-{name}",
                  T=T, values=values)


def render_raw(walk: Walk, T: Texts, values: bool, compact: bool = False) -> None:
    head = walk.head
    header("raw", T, f"walkthrough.steps.raw.formula_{head.score}", compact)
    arithmetic = (head.q, head.k) if head.score in ("dot", "scaled_dot") else None
    chart(head.raw_scores, walk.tokens, walk.key_tokens, kind="signed", title=T("walkthrough.steps.raw.matrix"), key="raw",
          T=T, values=values, rows_are="query", cols_are="key", arithmetic=arithmetic)


def divisor_text(head: AttentionTrace, T: Texts, temperature: float) -> str:
    d_k = head.q.shape[1]
    if head.score == "cosine":
        base = T("walkthrough.steps.scaled.divisor_cosine", scale=f"{1 / (head.scale / temperature):g}")
    else:
        base = T(f"walkthrough.steps.scaled.divisor_{head.score}", d_k=d_k, value=f"{np.sqrt(d_k):.4g}")
    extra = T("walkthrough.steps.scaled.temperature", temperature=f"{temperature:g}") if temperature != 1.0 else ""
    return T("walkthrough.steps.scaled.divisor", divisor=base + extra)


def render_scaled(walk: Walk, T: Texts, values: bool, compact: bool = False) -> None:
    header("scaled", T, compact=compact)
    head = walk.head
    temperature = 1.0 if walk.explanation is None else float(walk.explanation.settings["temperature"])
    st.markdown(f"**{divisor_text(head, T, temperature)}**")
    chart(head.scaled_scores, walk.tokens, walk.key_tokens, kind="signed", title=T("walkthrough.steps.scaled.matrix"),
          key="scaled", T=T, values=values, rows_are="query", cols_are="key")


def render_softmax(walk: Walk, T: Texts, values: bool, compact: bool = False) -> None:
    header("softmax", T, compact=compact)
    head = walk.head
    window = walk.explanation.settings["window"] if walk.explanation is not None else None
    st.markdown(T(f"walkthrough.steps.softmax.mode_{head.mode}", window=2 if window is None else window))
    if head.mode in ("local", "local-monotonic"):
        chart(head.masked_scores, walk.tokens, walk.key_tokens, kind="signed", title=T("walkthrough.steps.softmax.masked"),
              key="masked", T=T, values=values, rows_are="query", cols_are="key")
    left, right = st.columns([5, 1])
    with left:
        chart(hide_row(head.weights, walk.hidden_query), walk.tokens, walk.key_tokens, kind="weights",
              title=T("walkthrough.steps.softmax.matrix"), key="weights", T=T, values=values, rows_are="query", cols_are="key")
    with right:
        st.caption(T("walkthrough.steps.softmax.sums"))
        sums = pd.DataFrame({T("common.labels.query"): [figures.plain(t) for t in walk.tokens],
                             T("common.labels.sum"): fixed(head.weights.sum(axis=1))})
        st.table(sums, hide_index=True)


def render_output(walk: Walk, T: Texts, values: bool, compact: bool = False) -> None:
    header("output", T, compact=compact)
    head = walk.head
    chart(hide_row(head.output, walk.hidden_query), walk.tokens, dims(head.output.shape[1]), kind="signed",
          title=T("walkthrough.steps.output.matrix"), key="output", T=T, values=values)


def render_heads(walk: Walk, T: Texts, values: bool, compact: bool = False) -> None:
    header("heads", T, compact=compact)
    e = walk.explanation
    assert e is not None
    trace = e.trace
    if compact:
        for column, (matrix, name, key) in zip(st.columns(2), ((trace.concat, "concat", "concat"), (trace.output, "output", "mh-output"))):
            with column:
                chart(matrix, e.tokens, dims(matrix.shape[1]), kind="signed", title=T(f"walkthrough.steps.heads.{name}"), key=key, T=T,
                      values=values, column_groups=len(trace.heads) if name == "concat" else 1)
        return
    chart(trace.concat, e.tokens, dims(trace.concat.shape[1]), kind="signed", title=T("walkthrough.steps.heads.concat"),
          key="concat", T=T, values=values, column_groups=len(trace.heads))
    left, right = st.columns(2)
    with left:
        chart(e.weights.w_o, dims(e.weights.w_o.shape[0]), dims(e.weights.w_o.shape[1]), kind="signed",
              title=T("walkthrough.steps.heads.w_o"), key="w_o", T=T, values=values, rows_are="dimension")
    with right:
        chart(trace.output, e.tokens, dims(trace.output.shape[1]), kind="signed", title=T("walkthrough.steps.heads.output"),
              key="mh-output", T=T, values=values)


RENDERERS = {
    "tokens": render_tokens, "qkv": render_qkv, "raw": render_raw, "scaled": render_scaled,
    "softmax": render_softmax, "output": render_output, "heads": render_heads,
}


def render_step(step: str, walk: Walk, T: Texts, values: bool, compact: bool = False) -> None:
    """Draw one step: title, explanation, formula and its matrices (compact: for presenter mode)."""
    with st.container(key=f"step-{step}"):
        RENDERERS[step](walk, T, values, compact)


def focus_tables(head: AttentionTrace, key_tokens: tuple[str, ...], query: int, T: Texts) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The article's figure for one query as tables: per key score, scaled score, weight; and weight x value rows summed."""
    scale = f"{head.scale:.4g}"
    scores = pd.DataFrame({
        T("walkthrough.focus.position"): [str(j + 1) for j in range(len(key_tokens))],
        T("walkthrough.focus.key"): [figures.plain(token) for token in key_tokens],
        T("walkthrough.focus.score"): fixed(head.raw_scores[query]),
        T("walkthrough.focus.scaled", scale=scale): fixed(head.masked_scores[query]),
        T("walkthrough.focus.weight"): fixed(head.weights[query]),
    })
    weighted = head.weights[query][:, None] * head.v  # (n_k, d_v): a_ij v_j
    rows = [f"{a:.4f} × v{j + 1} ({figures.plain(token)})" for j, (a, token) in enumerate(zip(head.weights[query], key_tokens))]
    table = pd.DataFrame(fixed(np.vstack([weighted, head.output[query]])), columns=dims(head.v.shape[1]))
    table.insert(0, "", rows + [T("walkthrough.focus.sum")])
    return scores, table


def render_focus(walk: Walk, T: Texts, query: int) -> None:
    """One query against every key, key by key, and its output as a sum of weighted values."""
    token = figures.plain(walk.tokens[query])
    st.caption(T("walkthrough.focus.caption", token=token))
    scores, weighted = focus_tables(walk.head, walk.key_tokens, query, T)
    st.table(scores, hide_index=True)
    st.caption(T("walkthrough.focus.weighted", token=token))
    st.table(weighted, hide_index=True)
