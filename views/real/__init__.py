"""A real model: all-MiniLM-L6-v2's 72 heads on the sidebar's sentence, computed by this app's NumPy core, and the model
opened up. This module draws the sentence's run and the heads (one head, the class's question about it, all 72 as tiles,
what each does); ``inside`` draws the sections after them, ``corpus`` each head over a corpus. The model itself is
``views.widgets.model``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import tokenize
from attention_core.embedding import contains_cjk
from attention_core.inside import without_specials
from attention_core.pretrained import MAX_WORD_PIECES, SPECIAL_TOKENS, MiniLM, RealTrace, head_summary, overview
from attention_plot import figures, plot
from attention_plot.figures import label
from attention_plot.text import Texts
from views.real import corpus, inside
from views.real.inside import hide_note
from views.shell.page import View, stop
from views.widgets import ask
from views.widgets import model as loaded
from views.widgets.charts import chart, show, show_selectable
from views.widgets.hands_on import predict_then_reveal
from views.widgets.tables import named_table

WIDTH_BINS = (0.02, 0.1, 0.25, 0.5, 0.75, 1.01)  # weights drawn as lines, by thickness class
SUMMARY = ("previous", "next", "self", "cls", "sep")


def keep(trace: RealTrace, hide: bool) -> list[int]:
    """Positions to show: all, or all but [CLS] and [SEP] (never none)."""
    kept = [i for i, t in enumerate(trace.tokens) if not (hide and t in SPECIAL_TOKENS)]
    return kept or list(range(len(trace.tokens)))


def head_view(weights: np.ndarray, tokens: tuple[str, ...], *, title: str, left: str, right: str) -> figures.Figure:
    """BertViz-style lines from each query (left column) to each key (right column), width and opacity by weight."""
    n = len(tokens)
    traces = []
    for low, high in zip(WIDTH_BINS[:-1], WIDTH_BINS[1:]):
        xs, ys = [], []
        for i, j in zip(*np.nonzero((weights >= low) & (weights < high))):
            xs += [0, 1, None]
            ys += [i, j, None]
        if xs:
            traces.append(dict(type="scatter", mode="lines", x=xs, y=ys, hoverinfo="skip", showlegend=False,
                               line=dict(width=1 + 8 * high, color=f"rgba(0,114,178,{min(1.0, 0.25 + high):.2f})")))
    labels = [label(t) for t in tokens]
    for side, x in ((0, -0.02), (1, 1.02)):
        traces.append(dict(type="scatter", mode="text", x=[x] * n, y=list(range(n)), text=labels, showlegend=False,
                           textposition="middle left" if side == 0 else "middle right", hoverinfo="skip", textfont=dict(size=13)))
    layout = dict(title=dict(text=title, font=dict(size=14), x=0, xref="paper"), height=max(260, 60 + 24 * n),
                  margin=dict(l=10, r=10, t=50, b=10),
                  xaxis=dict(range=[-0.6, 1.6], visible=False),
                  yaxis=dict(range=[n - 0.5, -0.5], visible=False),
                  annotations=[dict(x=-0.02, y=-1, text=f"<b>{left}</b>", showarrow=False, xanchor="right"),
                               dict(x=1.02, y=-1, text=f"<b>{right}</b>", showarrow=False, xanchor="left")],
                  # The lines' numbers, for the table a screen reader reads (shell/chart-tables.js): each query's weights,
                  # rounded as the heatmap beside it prints them.
                  meta=dict(numbers=[[f"{left} \\ {right}", *labels],
                                     *([labels[i], *figures.cell_text(weights[i][None], 2)[0].tolist()] for i in range(n))]))
    return {"data": traces, "layout": layout}


def tile_targets(shape: tuple[int, int], T: Texts, layers: int = MiniLM.layers_count, heads: int = MiniLM.heads) -> dict:
    """One point at the centre of each tile of the overview, nearly invisible: a click on a tile selects its point."""
    size = (shape[0] + 1) // layers - 1
    centre = (size - 1) / 2
    spots = [(layer, head) for layer in range(layers) for head in range(heads)]
    return dict(type="scatter", mode="markers", x=[h * (size + 1) + centre for _, h in spots], y=[row * (size + 1) + centre for row, _ in spots],
                customdata=[[layer + 1, head + 1] for layer, head in spots], showlegend=False,
                marker=dict(size=22, color="rgba(0,0,0,0.01)", symbol="square"),
                hovertemplate=T("real.tile_hover", layer="%{customdata[0]}", head="%{customdata[1]}") + "<extra></extra>")


def open_tile(view) -> None:
    """A tile clicked: its layer and head become the page's (a callback: before the pickers are drawn)."""
    points = (st.session_state.get("overview-pick") or {}).get("selection", {}).get("points", [])
    if points and points[0].get("customdata"):
        layer, head = (int(v) for v in points[0]["customdata"][:2])
        st.session_state[view.key("layer")], st.session_state[view.key("head")] = layer, head


def summary_frame(trace: RealTrace, T: Texts) -> pd.DataFrame:
    """One row per head (72): layer, head, and the five measured shares."""
    shares = head_summary(trace)
    layers, heads = trace.attentions.shape[:2]
    frame = {T("real.columns_layer"): np.repeat(np.arange(1, layers + 1), heads),
             T("real.columns_head"): np.tile(np.arange(1, heads + 1), layers)}
    for name in SUMMARY:
        frame[T(f"real.columns_{name}")] = shares[name].ravel()
    return pd.DataFrame(frame)


def findings(trace: RealTrace, T: Texts, threshold: float = 0.5, most: int = 6) -> str:
    """A sentence naming the heads that put more than half their weight on one kind of position."""
    shares = head_summary(trace)
    found = sorted(((float(shares[name][layer, head]), name, layer, head) for name in SUMMARY
                    for layer, head in zip(*np.nonzero(shares[name] > threshold))), reverse=True)[:most]
    if not found:
        return T("real.none_found")
    parts = [T("real.finding", share=f"{share:.0%}", layer=layer + 1, head=head + 1, target=T(f"real.targets_{name}"))
             for share, name, layer, head in found]
    return T("real.findings", findings=T("real.findings_separator").join(parts))


def overview_numbers(trace: RealTrace, T: Texts) -> list[list[str]]:
    """The 72 tiles as a table a screen reader reads (layer x head): each head's largest measured share and its target,
    as the summary below names them ("[CLS] 0.83")."""
    shares = head_summary(trace)
    layers, heads = trace.attentions.shape[:2]
    def cell(layer: int, head: int) -> str:
        name = max(SUMMARY, key=lambda n: shares[n][layer, head])
        return f"{T(f'real.columns_{name}')} {shares[name][layer, head]:.2f}"
    return [[f"{T('real.columns_layer')} \\ {T('real.columns_head')}", *(str(h + 1) for h in range(heads))],
            *([str(layer + 1), *(cell(layer, h) for h in range(heads))] for layer in range(layers))]


def overview_figure(grid: np.ndarray, layer: int, head: int, *, title: str, layers: int = MiniLM.layers_count,
                    heads: int = MiniLM.heads) -> figures.Figure:
    """The tiled heads (from ``overview``) as one heatmap, axes numbered by head and layer, one tile framed."""
    size = (grid.shape[0] + 1) // layers - 1
    top, side = layer * (size + 1), head * (size + 1)
    frame = dict(type="rect", x0=side - 0.5, x1=side + size - 0.5, y0=top - 0.5, y1=top + size - 0.5,
                 line=dict(color="#E69F00", width=3))
    centres = lambda count: [k * (size + 1) + (size - 1) / 2 for k in range(count)]
    trace = dict(type="heatmap", z=figures.typed(grid), colorscale=figures.WEIGHT_SCALE, zmin=0.0, zmax=1.0, hoverinfo="skip", showscale=False)
    layout = dict(
        title=dict(text=title, font=dict(size=14), x=0, xref="paper", y=1, yref="container", yanchor="top", pad=dict(t=8)),
        # The tiles fill the chart's width (no fixed aspect: a phone or a projector gets no blank band beside them, and the
        # layer numbers stay next to their row); the title at the top, clear of the head numbers above the tiles.
        height=420,  # six rows of tiles about 45 px high, whatever the sentence's length
        margin=dict(l=10, r=10, t=60, b=10), shapes=[frame],
        xaxis=dict(tickmode="array", tickvals=centres(heads), ticktext=[str(h + 1) for h in range(heads)], side="top",
                   showgrid=False, zeroline=False),
        yaxis=dict(tickmode="array", tickvals=centres(layers), ticktext=[str(layer + 1) for layer in range(layers)],
                   autorange="reversed", showgrid=False, zeroline=False),
    )
    return {"data": [trace], "layout": layout}


def follow_query(view, hide: bool, kept: list[int]) -> None:
    """When [CLS]/[SEP] are hidden or shown again, the query stays the same word (its number among the tokens shown
    changes): the word nearest the one chosen before, if that was [CLS] or [SEP]."""
    was = st.session_state.get(view.key("query-token"))
    if was and was[0] != hide and kept:
        st.session_state[view.key("query")] = min(range(len(kept)), key=lambda i: abs(kept[i] - was[1])) + 1


def heads_section(view, model: MiniLM, trace: RealTrace) -> None:
    """One head (its heatmap and its lines), the class's question about it, all 72 heads as tiles, and what each does."""
    T = view.T
    pickers = st.columns([3, 3])  # six layer buttons need the room
    layer = inside.pick_layer(view, pickers[0]) + 1
    head = inside.pick_head(view, pickers[1]) + 1
    hide = bool(view["hide"])
    kept = keep(trace, hide)
    tokens = tuple(trace.tokens[i] for i in kept)
    weights = trace.attentions[layer - 1, head - 1]
    raw_weights = weights
    if hide:  # every row renormalised to sum to 1 over the words left
        weights = without_specials(weights, trace.tokens)[1]
    pick, guess = st.columns([3, 2], vertical_alignment="bottom")
    follow_query(view, hide, kept)
    view.clamp("query", 1, len(tokens))
    query = view.widget("query", T("walkthrough.focus.pick"), into=pick, style="selectbox", hi=len(tokens),
                        format_func=lambda i: f"{i} · {tokens[i - 1]}") - 1
    st.session_state[view.key("query-token")] = (hide, kept[query])
    predict = view.widget("predict", T("classroom.predict"), into=guess, help=T("classroom.predict_help"))
    if len(tokens) <= ask.MAX_OPTIONS:  # the same question for the live class's phones
        ask.ask_here(T, ask.focus_item(weights[query], tokens, query, f"real-{layer}-{head}"), key="real-live")
    quiz = f"real-{hash((trace.tokens, layer, head, hide, query))}"
    if predict and not predict_then_reveal(weights[query], tokens, T, quiz, token=tokens[query]):
        # Until the reveal nothing shows the head: its other rows, its tile of the overview, the sentences and the table
        # that name its pattern would all give the answer away.
        st.info(T("real.hidden", layer=layer, head=head), icon=":material/visibility_off:")
        return
    if hide:
        hide_note(T, raw_weights, trace.tokens)
    st.subheader(T("real.headings.head", layer=layer, head=head))
    left, right = st.columns([3, 2])
    with left:
        chart(weights, tokens, tokens, kind="weights", title=T("real.heatmap", layer=layer, head=head), key="real-head",
              values=True, rows_are="query", cols_are="key")
    with right:
        show(head_view(weights, tokens, title=T("real.head_view"), left=T("real.queries"), right=T("real.keys")),
             key="head-view", alt=T("common.labels.alt_joined", first=T("real.head_view"), then=f"{T('real.head_view_note')} "
                                    f"{plot.key_numbers(T, weights, tokens, tokens, 'weights')}"))
        st.caption(T("real.head_view_note"))
    st.subheader(T("real.headings.overview"))
    grid = overview(trace, hide=hide)
    figure = overview_figure(grid, layer - 1, head - 1, title=T("real.overview"))
    figure["data"][0]["z"] = grid  # through st.plotly_chart, which encodes it itself
    figure["data"].append(tile_targets(grid.shape, T))
    figure["layout"]["meta"] = {"numbers": overview_numbers(trace, T)}
    show_selectable(figure, key="overview-pick", on_select=lambda: open_tile(view), alt=T(
        "common.labels.alt_joined", first=T("real.overview"), then=f"{T('real.overview_note')} {T('real.overview_click')}"))
    st.caption(f"{T('real.overview_note')} {T('real.overview_click')}")
    st.subheader(T("real.summary_title"))
    st.markdown(T("real.summary_intro"))
    st.markdown(findings(trace, T))
    corpus.beside_findings(view, model, trace, layer - 1, head - 1)  # the same heads over a corpus
    # All 72 heads in the page, in layer and head order (a screen reader reads every row), shares as the screen shows them.
    frame = summary_frame(trace, T)
    shares = [T(f"real.columns_{n}") for n in SUMMARY]
    named_table(frame.astype(str).assign(**{name: frame[name].map("{:.2f}".format) for name in shares}),
                T("real.summary_title"), row_headers=2, shares=shares, height=320)


# --- The page ---


def model_and_run(view: View) -> tuple[MiniLM, RealTrace]:
    """The model and its run on the sidebar's sentence, with what was cut or unknown said; stops when the model is
    missing or the sentence empty."""
    settings, T = view.settings, view.T
    st.caption(T("real.credit"))
    model = loaded.model()
    if model is None:
        st.error(T("real.missing"), icon=":material/download:")
        stop()
    if not tokenize(settings.text):
        st.info(T("common.notices.empty"), icon=":material/edit:")
        stop()
    trace = loaded.run(model, str(model.folder), settings.text)
    if trace.dropped:
        st.warning(T("real.cut", total=len(trace.tokens) + trace.dropped, kept=MAX_WORD_PIECES, dropped=trace.dropped),
                   icon=":material/content_cut:")
    unknown = trace.tokens.count("[UNK]")
    if contains_cjk(settings.text):  # says [UNK] too
        st.info(T("real.chinese"), icon=":material/translate:")
    elif unknown:  # emoji and characters outside the model's vocabulary all become one shared token
        st.info(T("real.unknown", count=unknown), icon=":material/help:")
    return model, trace


def section(view: View, name: str, model: MiniLM, trace: RealTrace) -> None:
    """The section ``name`` (REAL_SECTIONS), under the switch that hides [CLS] and [SEP] where the section has it."""
    T, text = view.T, view.settings.text
    if name in ("heads", "moved", "random"):
        view.widget("hide", T("real.hide"), help=T("real.hide_help"))
    {"heads": lambda: heads_section(view, model, trace),
     "layer": lambda: inside.layer_section(view, model, trace, text),
     "moved": lambda: inside.moved_section(view, model, trace),
     "sinks": lambda: inside.sinks_section(view, trace),
     "importance": lambda: inside.importance_section(view, model, text),
     "random": lambda: inside.random_section(view, model, trace, text),
     "scaling": lambda: inside.scaling_section(view, model, trace),
     "corpus": lambda: corpus.corpus_section(view, model, trace)}[name]()
