"""A head over a corpus (the real-model page's section "corpus"): each of the 72 heads scored on every sentence of a
corpus, the built-in one (assets/corpus/, its scores shipped) or up to 200 sentences the student pastes; the heads as a
6 x 12 grid and as points of a scatter, one head's top sentences and the typed sentence against its distribution; and,
beside the heads section's one-sentence summary, how those heads behave over the corpus. Every number comes from
attention_core.corpus."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import corpus
from attention_core.pretrained import MiniLM, RealTrace
from attention_plot import figures, plot
from attention_plot.figures import label
from views.real.inside import pick_head, pick_layer
from views.shell import state
from views.shell.page import View, run_font, run_texts, shown_matrices
from views.widgets import model as loaded
from views.widgets.charts import chart, show, show_selectable
from views.widgets.tables import named_table

PASTED = "real.corpus-pasted"  # this session's pasted corpus: {"text", "split", "scores", "seconds"} (never in the link)
BOX = "real.corpus-text"  # the box it is pasted into
DECILES = 10  # samples across the chosen head's distribution: one from each tenth (HeadVis)
BINS = 20
LAYER_COLOURS = figures.LINE_COLOURS  # six colour-blind-safe colours, one per layer, and a marker shape each as well
LAYER_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "x")
CHOSEN = "#E69F00"  # the chosen head's ring and frame, as the overview's frame
TYPED = "#D55E00"  # the typed sentence's line on a distribution
MAX_FRAMED = 32  # the cells a score adds up are framed on a sentence of at most this many pieces (beyond, the frames hide the cells)
LABEL_REACH = 36  # the chosen head's name sits this many pixels across and up (or down) from its point
TITLE_CHARS = 48  # a sentence in a chart's title is cut to this many characters (the chart's text alternative keeps it whole)


# --- The corpus in use ---


@st.cache_resource(show_spinner=False)
def built_in(_model: MiniLM, folder: str) -> tuple[corpus.CorpusScores, float | None]:
    """The built-in corpus's scores: the shipped file, or, when it is stale or missing, computed again once per server
    process (with the seconds it took)."""
    try:
        return corpus.load_scores(), None
    except (corpus.StaleScores, FileNotFoundError, KeyError):
        began = time.perf_counter()
        return corpus.corpus_scores(_model, corpus.corpus_sentences()), time.perf_counter() - began


@st.cache_resource(max_entries=16, show_spinner=False)
def agreement_of(_scores: corpus.CorpusScores, name: str) -> corpus.Agreement:
    """The verdicts' agreement over a corpus (``name`` keys the cache: the built-in corpus, or a pasted text's hash)."""
    return corpus.agreement(_scores)


@st.cache_resource(max_entries=64, show_spinner=False)
def typed_scores(_model: MiniLM, folder: str, text: str, definitions: str = "ours") -> dict[str, np.ndarray]:
    """The typed sentence's scores {score: (L, H)}, from the page's own run of it; with ``definitions`` "clark", those
    Clark et al. define by theirs (``corpus.clark_scores``)."""
    trace = loaded.run(_model, folder, text)
    ours = corpus.sentence_scores(trace.attentions, trace.tokens, corpus.sentence_units(_model, text)[3])
    return ours | (corpus.clark_scores(trace.attentions, trace.tokens) if definitions == "clark" else {})


def pasted() -> dict | None:
    """This session's pasted corpus, once scored."""
    found = st.session_state.get(PASTED)
    return found if found and found.get("scores") is not None else None


def in_use(view: View, model: MiniLM) -> tuple[corpus.CorpusScores, str, str]:
    """(scores, cache name, the corpus's name in a sentence): the pasted sentences when chosen and scored in this
    session, else the built-in corpus."""
    T = view.T
    mine = pasted() if st.session_state.get(view.key("corpus")) == "pasted" else None
    if mine is not None:
        scores = mine["scores"]
        return scores, f"pasted-{hash(scores.sentences)}", counted(T, "corpus.names.pasted", len(scores.sentences))
    scores, _ = built_in(model, str(model.folder))
    return scores, "built-in", T("corpus.names.built_in", count=len(scores.sentences))


def theirs(name: str, definitions: str) -> bool:
    """Whether ``name`` is read by Clark et al.'s definition: chosen, and one they define."""
    return definitions == "clark" and name in corpus.CLARK_SCORES


def score_name(T, name: str, definitions: str = "ours") -> str:
    """A score's short name, on an axis, in a menu, a table's column ("previous token"; "previous token (Clark)")."""
    return T(f"corpus.clark_names.{name}") if theirs(name, definitions) else T(f"corpus.scores.{name}")


def measure_name(T, name: str, definitions: str = "ours") -> str:
    """A score as a measure, in a title or a sentence ("weight on the previous token")."""
    return T(f"corpus.clark_measures.{name}") if theirs(name, definitions) else T(f"corpus.measures.{name}")


def counted(T, key: str, count: int, **values: object) -> str:
    """The text ``key`` for ``count`` things: its ``_one`` form for one ("your 1 sentence", "Its top sentence")."""
    return T(f"{key}_one", **values) if count == 1 else T(key, count=count, **values)


def lengths(scores: corpus.CorpusScores) -> str:
    """The sentences' lengths in word pieces: "9–40", or "63" when they are all as long."""
    shortest, longest = int(scores.lengths.min()), int(scores.lengths.max())
    return str(shortest) if shortest == longest else f"{shortest}–{longest}"


def took(T, seconds: float) -> str:
    """How long the scoring took, to a tenth of a second ("under 0.1 s" rather than "0.0 s")."""
    return T("corpus.sources.took_under", least="0.1") if seconds < 0.05 else T("corpus.sources.took", seconds=f"{seconds:.1f}")


def number(value: float) -> str:
    """A score as the page prints it, to two decimals (a dash where a sentence has no such key)."""
    if not np.isfinite(value):
        return "–"
    return f"{value:.2f}"


def agreement_numbers(agreed: corpus.Agreement) -> dict[str, str]:
    """The agreement's figures as the sentences print them: rate, pairs, baseline (always "none"), both_none, kappa,
    corpus_named (where the corpus names a pattern) and named (where one sentence does)."""
    return dict(rate=f"{agreed.rate:.1%}", pairs=f"{agreed.agrees.size:,}", baseline=f"{agreed.baseline:.1%}", both_none=f"{agreed.both_none:.1%}",
                kappa=f"{agreed.kappa:.2f}", corpus_named=f"{agreed.corpus_named_rate:.1%}", named=f"{agreed.named_rate:.1%}")


def verdict_name(T, verdict: int) -> str:
    return T("corpus.verdict_none") if verdict == corpus.NO_VERDICT else T(f"real.targets_{corpus.VERDICT_SHARES[verdict]}").strip()


# --- A pasted corpus ---


def paste_box(view: View, model: MiniLM) -> None:
    """The box for the student's own sentences, scored when the button is pressed (a progress bar meanwhile), and what
    was changed on the way said; the result is kept in this session."""
    T = view.T
    kept = st.session_state.get(PASTED) or {}
    if BOX not in st.session_state:  # the box comes back with the text last scored (Streamlit forgets a widget not drawn)
        st.session_state[BOX] = kept.get("text", "")
    with st.form("real-corpus-paste", border=True):
        text = st.text_area(T("corpus.paste.label", most=corpus.MAX_SENTENCES, longest=corpus.MAX_SENTENCE_CHARS), key=BOX,
                            height=160, placeholder=T("corpus.paste.placeholder"), help=T("corpus.paste.help"))
        pressed = st.form_submit_button(T("corpus.paste.score"), icon=":material/play_arrow:", type="primary")
    if pressed:
        split = corpus.split_corpus(text)
        kept = {"text": text, "split": split, "scores": None, "seconds": 0.0}
        same = st.session_state.get(PASTED) or {}
        if same.get("scores") is not None and same["split"].sentences == split.sentences:
            kept = same | {"text": text}  # the same sentences again: scored already in this session
        elif split.sentences:
            bar = st.progress(0.0, text=T("corpus.paste.progress", done=0, total=len(split.sentences)))
            began = time.perf_counter()
            kept["scores"] = corpus.corpus_scores(model, split.sentences, most=corpus.MAX_PASTED_PIECES, progress=lambda done, total: bar.progress(
                done / total, text=T("corpus.paste.progress", done=done, total=total)))
            kept["seconds"] = time.perf_counter() - began
            bar.empty()
        st.session_state[PASTED] = kept
    if kept:
        paste_notices(T, kept)
    if pasted() is None:  # a link that asked for pasted sentences opens in a session that has none
        st.info(T("corpus.sources.linked_pasted" if state.was_linked("corpus") else "corpus.paste.waiting"), icon=":material/edit_note:")


def paste_notices(T, kept: dict) -> None:
    """What the pasted text became: nothing to score, sentences left out or cut, pieces skipped, unknown characters."""
    split: corpus.PastedCorpus = kept["split"]
    if not split.sentences:
        st.warning(T("corpus.paste.empty"), icon=":material/edit:")
        return
    if split.text_cut:
        st.warning(T("corpus.paste.text_cut", most=f"{corpus.MAX_PASTE_CHARS:,}", cut=f"{split.text_cut:,}"), icon=":material/content_cut:")
    if split.left_out:
        st.warning(T("corpus.paste.left_out", most=corpus.MAX_SENTENCES, found=split.found, left_out=split.left_out), icon=":material/content_cut:")
    if split.cut:
        st.warning(T("corpus.paste.cut", count=split.cut, longest=corpus.MAX_SENTENCE_CHARS), icon=":material/content_cut:")
    if split.wordless:
        st.info(T("corpus.paste.wordless", count=split.wordless), icon=":material/info:")
    scores: corpus.CorpusScores | None = kept.get("scores")
    if scores is None:
        return
    if (scores.unknown > 0).any():
        st.info(T("corpus.paste.unknown", count=int((scores.unknown > 0).sum())), icon=":material/help:")
    if (scores.dropped > 0).any():
        st.warning(T("corpus.paste.dropped", count=int((scores.dropped > 0).sum()), limit=corpus.MAX_PASTED_PIECES), icon=":material/content_cut:")


# --- Figures ---


def where(values: np.ndarray, value: float) -> float:
    """Where ``value`` sits between the smallest and the largest of ``values``, from 0 to 1 (0.5 when they are all equal)."""
    low, high = float(np.nanmin(values)), float(np.nanmax(values))
    return 0.5 if not high > low or not np.isfinite(value) else (value - low) / (high - low)


def scatter_figure(x: np.ndarray, y: np.ndarray, layer: int, head: int, *, T, x_name: str, y_name: str, title: str) -> figures.Figure:
    """Each head a point at (x, y) (both (L, H)), coloured and shaped by its layer; the chosen head ringed and named."""
    layers, heads = x.shape
    traces = []
    for row in range(layers):
        traces.append(dict(type="scatter", mode="markers", name=T("corpus.layer_name", layer=row + 1), x=x[row], y=y[row],
                           customdata=[[row + 1, h + 1] for h in range(heads)],
                           marker=dict(color=LAYER_COLOURS[row], symbol=LAYER_SYMBOLS[row], size=10, line=dict(width=1, color="#ffffff")),
                           hovertemplate=T("corpus.point_hover", layer="%{customdata[0]}", head="%{customdata[1]}", x_name=label(x_name),
                                           y_name=label(y_name), x="%{x:.2f}", y="%{y:.2f}") + "<extra></extra>"))
    # The ring on the chosen point, and its name in a box beside it with a line to the ring (a name set beside the ring
    # alone sat as near another head's point), towards the middle of the chart, never past its edge.
    at_x, at_y = float(x[layer, head]), float(y[layer, head])
    across, up = where(x, at_x), where(y, at_y)
    traces.append(dict(type="scatter", mode="markers", x=[at_x], y=[at_y], showlegend=False, hoverinfo="skip",
                       marker=dict(size=22, color="rgba(0,0,0,0)", line=dict(width=3, color=CHOSEN))))
    name = dict(x=at_x, y=at_y, xref="x", yref="y", text=T("corpus.point_chosen", layer=layer + 1, head=head + 1), showarrow=True,
                ax=-LABEL_REACH if across > 0.5 else LABEL_REACH, ay=LABEL_REACH if up > 0.5 else -LABEL_REACH, standoff=12,
                arrowhead=0, arrowwidth=2, arrowcolor=CHOSEN, font=dict(color="#333333"), bgcolor="rgba(255,255,255,0.9)",
                bordercolor=CHOSEN, borderwidth=1, borderpad=2)
    numbers = [[T("corpus.head_column"), x_name, y_name],
               *([T("corpus.point_chosen", layer=row + 1, head=h + 1), number(x[row, h]), number(y[row, h])]
                 for row in range(layers) for h in range(heads))]
    # The legend above the plot, under the title, as on the other charts with one: below, the x axis's title (larger on
    # a projector) ran into it; a legend that wraps onto two rows on a phone gets its room from assets/components/shell/chart-titles.js.
    layout = dict(title=dict(text=title, font=dict(size=14), x=0, xref="paper"), height=440, margin=dict(l=10, r=10, t=84, b=10),
                  xaxis=dict(title=dict(text=x_name), zeroline=False), yaxis=dict(title=dict(text=y_name), zeroline=False),
                  legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"), meta=dict(numbers=numbers),
                  annotations=[name] if np.isfinite([at_x, at_y]).all() else [])
    return {"data": traces, "layout": layout}


def distribution_figure(values: np.ndarray, typed: float, *, name: str, title: str, x_title: str, y_title: str, typed_label: str,
                        hover=None) -> figures.Figure:
    """A histogram of one head's per-sentence scores (NaN left out), with the typed sentence's value as a line;
    ``hover(low, high, count)``: a bar's tooltip in the student's language, given Plotly's placeholders."""
    finite = values[np.isfinite(values)]
    top = 1.0 if name in corpus.SHARE_SCORES else max(float(finite.max()) if finite.size else 1.0, typed if np.isfinite(typed) else 0.0, 1e-9)
    edges = np.linspace(0.0, top, BINS + 1)
    counts, _ = np.histogram(np.clip(finite, 0.0, top), bins=edges)
    figure = figures.histogram(edges, counts, title=title, x_title=x_title, y_title=y_title, colour="#0072B2", x_range=(0.0, top))
    if hover is not None:  # each bar's range and count ("0.95–1.00: 417 of the sentences")
        figure["data"][0] |= dict(customdata=np.stack([edges[:-1], edges[1:]], axis=1),
                                  hovertemplate=hover("%{customdata[0]:.2f}", "%{customdata[1]:.2f}", "%{y}") + "<extra></extra>")
    if counts.max(initial=0) <= 5:  # a few sentences: whole counts on the axis, never 0.5
        figure["layout"]["yaxis"]["dtick"] = 1
    if np.isfinite(typed):
        figure["layout"]["shapes"] = [dict(type="line", x0=typed, x1=typed, y0=0, y1=1, yref="paper", line=dict(color=TYPED, width=3, dash="dash"))]
        figure["layout"]["annotations"] = [dict(x=typed, y=1, yref="paper", text=typed_label, showarrow=False, yanchor="bottom",
                                                xanchor="left" if typed < top / 2 else "right", font=dict(color=TYPED))]
    return figure


def sentence_heatmap(weights: np.ndarray, tokens: tuple[str, ...], cells: np.ndarray, *, title: str, key: str) -> None:
    """One head's weights on one sentence, the cells its score adds up framed (in this run's language and chart font)."""
    described = plot.heatmap(weights, tokens, tokens, T=run_texts(), kind="weights", title=title, rows_are="query", cols_are="key",
                             font=run_font())
    figure = figures.heatmap(described)
    if len(tokens) <= MAX_FRAMED:
        figure["layout"]["shapes"] = [dict(type="rect", x0=j - 0.5, x1=j + 0.5, y0=i - 0.5, y1=i + 0.5, line=dict(color=CHOSEN, width=2))
                                      for i, j in np.argwhere(cells)]
    show(figure, key=key, alt=described.alt)
    shown_matrices().append((title, weights, tokens, tokens))


def short(sentence: str, most: int = TITLE_CHARS) -> str:
    return sentence if len(sentence) <= most else sentence[: most - 1].rstrip() + "…"


# --- The section ---


def open_point(view: View) -> None:
    """A point of the scatter clicked: its layer and head become the page's (a callback: before the pickers are drawn)."""
    points = (st.session_state.get("corpus-scatter-pick") or {}).get("selection", {}).get("points", [])
    if points and points[0].get("customdata"):
        layer, head = (int(v) for v in points[0]["customdata"][:2])
        st.session_state[view.key("layer")], st.session_state[view.key("head")] = layer, head


def colour_top(values: np.ndarray) -> float:
    """The top of the grid's colour scale: the largest mean, rounded up to one significant digit (0.29 -> 0.3, 6.7 -> 7):
    a score whose heads all stay below 0.3 still shows which stand out; the colour bar and the cells say the numbers."""
    largest = float(np.nanmax(values)) if np.isfinite(values).any() else 1.0
    if largest <= 0:
        return 1.0
    unit = 10.0 ** np.floor(np.log10(largest))
    return float(np.ceil(round(largest / unit, 9)) * unit)


def corpus_section(view: View, model: MiniLM, trace: RealTrace) -> None:
    """The corpus (built-in or pasted), the heads coloured by a score and plotted by two, the chosen head's top sentences
    and the typed sentence against its distribution, and how often one sentence's verdict is the corpus's."""
    T = view.T
    if view.layout.explains:
        st.markdown(T("corpus.intro"))
    controls = st.columns([2, 2, 2], vertical_alignment="bottom")
    source = view.widget("corpus", T("corpus.source"), into=controls[0], style="segmented_control")
    measure = view.widget("measure", T("corpus.measure"), into=controls[1], style="selectbox")
    versus = view.widget("versus", T("corpus.versus"), into=controls[2], style="selectbox")
    definitions = view.widget("definitions", T("corpus.definitions"), style="segmented_control")  # a row of its own: a projector's
    # columns are too narrow for a fourth control
    if source == "pasted":
        paste_box(view, model)
    scores, name, corpus_name = in_use(view, model)
    about_corpus(view, model, scores)
    agreed = agreement_of(scores, name)
    st.markdown(T("corpus.agreement" if view.layout.explains else "corpus.agreement_short", **agreement_numbers(agreed), corpus=corpus_name))
    if view.layout.explains:
        st.markdown(T("corpus.agreement_heads", named=agreed.named_heads, heads=agreed.corpus.size, corpus_named=agreed.corpus_named_heads))
    if view.layout.explains:
        st.caption(" ".join(T("corpus.about_line", name=score_name(T, name), about=T(f"corpus.about.{name}"), clark=T(f"corpus.clark.{name}"))
                              for name in (measure, versus)))
    if definitions == "clark":
        others = [score_name(T, name) for name in (measure, versus) if not theirs(name, definitions)]
        st.info(T("corpus.clark_chosen") + (" " + T("corpus.clark_undefined", names=", ".join(dict.fromkeys(others))) if others else ""),
                icon=":material/menu_book:")
    charts = st.container()
    if view.layout.explains:
        st.caption(T("corpus.heads_note"))
    layer_box, head_box = st.columns([3, 3])
    layer, head = pick_layer(view, layer_box), pick_head(view, head_box)
    means = scores.means(definitions)
    by, against = means[corpus.SCORES.index(measure)], means[corpus.SCORES.index(versus)]
    with charts:
        heads_layout = st.columns([3, 2]) if view.layout.side_by_side else (st.container(), st.container())
        with heads_layout[0]:
            frame = np.zeros(by.shape, dtype=bool)
            frame[layer, head] = True
            chart(by, tuple(str(i + 1) for i in range(by.shape[0])), tuple(str(i + 1) for i in range(by.shape[1])), kind="weights",
                  title=T("corpus.grid_title", measure=measure_name(T, measure, definitions), corpus=corpus_name), key="corpus-grid", values=True,
                  rows_are="layer", cols_are="head", outline=frame, zmax=colour_top(by))
        with heads_layout[1]:
            x_name, y_name = score_name(T, measure, definitions), score_name(T, versus, definitions)
            figure = scatter_figure(by, against, layer, head, T=T, x_name=x_name, y_name=y_name,
                                    title=T("corpus.scatter_title", x=x_name, y=y_name))
            show_selectable(figure, key="corpus-scatter-pick", on_select=lambda: open_point(view),
                            alt=T("corpus.scatter_alt", x=x_name, y=y_name, layer=layer + 1, head=head + 1,
                                  at_x=number(by[layer, head]), at_y=number(against[layer, head])))
    chosen_head(view, model, trace, scores, agreed, measure, layer, head, corpus_name, definitions)
    heads_table(T, scores, agreed, measure, versus, corpus_name, definitions)


def about_corpus(view: View, model: MiniLM, scores: corpus.CorpusScores) -> None:
    """One line on the corpus in use: its size and lengths, where it comes from, how long it took."""
    T = view.T
    mine = pasted()
    if mine is not None and scores is mine["scores"]:
        st.caption(counted(T, "corpus.sources.pasted_note", len(scores.sentences), lengths=lengths(scores), took=took(T, mine["seconds"])))
        return
    _, seconds = built_in(model, str(model.folder))
    if view.layout.explains:
        st.caption(T("corpus.sources.built_in_note", count=len(scores.sentences), lengths=lengths(scores)))
    if seconds is not None:
        st.warning(T("corpus.sources.stale", seconds=f"{seconds:.1f}"), icon=":material/update:")


def chosen_head(view: View, model: MiniLM, trace: RealTrace, scores: corpus.CorpusScores, agreed: corpus.Agreement, measure: str,
                layer: int, head: int, corpus_name: str, definitions: str = "ours") -> None:
    """The chosen head: the typed sentence's score against its corpus distribution (its percentile, or the sentences it
    ties as printed when they are most of them), its verdicts, its top sentence in each third of the corpus by length
    (weights drawn) and one sentence from each tenth of its distribution."""
    T = view.T
    folder = str(model.folder)
    st.subheader(T("corpus.head_title", layer=layer + 1, head=head + 1, corpus=corpus_name))
    values = scores.score(measure, definitions)[:, layer, head]  # (S,)
    mine = typed_scores(model, folder, view.settings.text, definitions if scores.defined(measure, definitions) else "ours")
    here = float(mine[measure][layer, head])
    finite = values[np.isfinite(values)]
    measured = measure_name(T, measure, definitions)
    stands = corpus.standing(values, here)
    if stands is not None:
        said = dict(layer=layer + 1, head=head + 1, measure=measured, value=number(here), mean=number(float(finite.mean())))
        if stands.count == 1:
            st.markdown(T("corpus.typed_one", **said))
        else:
            said |= dict(count=stands.count, median=number(float(np.median(finite))))
            st.markdown(T("corpus.typed_ties", equal=stands.equal, below=stands.below, above=stands.above, **said) if stands.ties_most
                        else T("corpus.typed", percentile=f"{stands.percentile:.0f}", **said))
    else:
        st.markdown(T("corpus.typed_none", measure=measured))
    if 0 < finite.size < len(scores.sentences):  # only sentences with a repeated word (or punctuation) have this score
        why = measure if measure in ("same_word", "punctuation") else "other"
        st.caption(T(f"corpus.counted.{why}", count=finite.size, total=len(scores.sentences)))
    shares_here = np.array([typed_scores(model, folder, view.settings.text)[name][layer, head] for name in corpus.VERDICT_SHARES])  # ours
    verdict_here = int(corpus.verdicts(shares_here))
    corpus_verdict = int(agreed.corpus[layer, head])
    verdicts = dict(here=verdict_name(T, verdict_here), share_here=f"{shares_here.max():.0%}", corpus_verdict=verdict_name(T, corpus_verdict))
    st.markdown(T("corpus.verdicts_one", **verdicts) if len(scores.sentences) == 1 else
                T("corpus.verdicts", agree=f"{agreed.per_head[layer, head]:.0%}", count=len(scores.sentences), **verdicts))
    show(distribution_figure(values, here, name=measure, title=T("corpus.distribution_title", layer=layer + 1, head=head + 1, measure=measured),
                             x_title=score_name(T, measure, definitions), y_title=T("corpus.sentences_axis"), typed_label=T("corpus.typed_label"),
                             hover=lambda low, high, count: T("corpus.bin_hover", low=low, high=high, count=count)),
         key="corpus-distribution", alt=T("corpus.distribution_alt", count=finite.size, measure=measured, layer=layer + 1,
                                          head=head + 1, value=number(here)))
    top_sentences(view, model, scores, values, measure, layer, head, definitions)
    decile_table(T, scores, values, measure, definitions)


def top_sentences(view: View, model: MiniLM, scores: corpus.CorpusScores, values: np.ndarray, measure: str, layer: int, head: int,
                  definitions: str = "ours") -> None:
    """The chosen head's top sentence in each third of the corpus by length (``corpus.top_by_length``), its weights drawn
    with the cells the score adds up framed."""
    T, folder = view.T, str(model.folder)
    measured = measure_name(T, measure, definitions)
    bins = corpus.length_bins(scores.lengths)
    top = corpus.top_by_length(values, bins)
    st.subheader(counted(T, "corpus.top_title", len(top), measure=measured))
    if not len(top):
        st.info(T("corpus.top_none", measure=measured), icon=":material/info:")
        return
    if view.layout.explains:
        st.caption(T("corpus.top_note", framed=MAX_FRAMED))
    spans = [span(scores.lengths[bins == bins[index]]) for index in top]
    tabs = st.tabs([T("corpus.top_tab", pieces=pieces, value=number(values[index])) for pieces, index in zip(spans, top)])
    for rank, (tab, index, pieces) in enumerate(zip(tabs, top, spans)):
        sentence = scores.sentences[index]
        sentence_trace = loaded.run(model, folder, sentence)
        weights = sentence_trace.attentions[layer, head]
        cells = corpus.score_cells(measure, weights, sentence_trace.tokens, corpus.sentence_units(model, sentence)[3], theirs(measure, definitions))
        with tab:
            st.markdown(T("corpus.top_sentence", sentence=figures.plain(sentence), score=score_name(T, measure, definitions),
                          value=number(values[index]),
                          length=int(scores.lengths[index]), pieces=pieces))
            sentence_heatmap(weights, sentence_trace.tokens, cells, key=f"corpus-top-{rank}",
                             title=T("corpus.top_heatmap", layer=layer + 1, head=head + 1, sentence=label(short(sentence))))


def span(lengths: np.ndarray) -> str:
    """A bin's lengths in word pieces: "4–12", or "13" when they are all as long."""
    shortest, longest = int(lengths.min()), int(lengths.max())
    return str(shortest) if shortest == longest else f"{shortest}–{longest}"


def decile_table(T, scores: corpus.CorpusScores, values: np.ndarray, measure: str, definitions: str = "ours") -> None:
    """One sentence from each tenth of the chosen head's distribution, lowest first (``corpus.decile_samples``): what the
    head does on typical sentences, not only on its best."""
    samples = corpus.decile_samples(values, DECILES)
    if len(samples) < 2:
        return
    st.subheader(T("corpus.deciles_title", measure=measure_name(T, measure, definitions)))
    named = score_name(T, measure, definitions)
    frame = pd.DataFrame({T("corpus.deciles_slice_column"): [T("corpus.deciles_slice", low=10 * k, high=10 * (k + 1)) for k in range(len(samples))]
                          if len(samples) == DECILES else [str(k + 1) for k in range(len(samples))],
                          named: [number(values[i]) for i in samples],
                          T("corpus.deciles_length_column"): [str(int(scores.lengths[i])) for i in samples],
                          T("corpus.deciles_sentence_column"): [scores.sentences[i] for i in samples]})
    named_table(frame, T("corpus.deciles_caption", count=int(np.isfinite(values).sum())), row_headers=1,
                numbers=[named, T("corpus.deciles_length_column")])


def heads_table(T, scores: corpus.CorpusScores, agreed: corpus.Agreement, measure: str, versus: str, corpus_name: str,
                definitions: str = "ours") -> None:
    """All 72 heads in the page: the chosen scores' corpus means, the corpus verdict and how often one sentence's verdict
    is it."""
    layers, heads = agreed.corpus.shape
    means = scores.means(definitions)
    chosen = list(dict.fromkeys((measure, versus)))  # a score chosen twice is one column
    named = {name: score_name(T, name, definitions) for name in chosen}
    frame = pd.DataFrame({T("real.columns_layer"): np.repeat(np.arange(1, layers + 1), heads).astype(str),
                          T("real.columns_head"): np.tile(np.arange(1, heads + 1), layers).astype(str),
                          **{named[name]: [number(v) for v in means[corpus.SCORES.index(name)].ravel()] for name in chosen},
                          T("corpus.verdict_column"): [verdict_name(T, int(v)) for v in agreed.corpus.ravel()],
                          T("corpus.agree_column"): [f"{v:.2f}" for v in agreed.per_head.ravel()]})
    shares = [named[name] for name in chosen if name in corpus.SHARE_SCORES] + [T("corpus.agree_column")]
    named_table(frame, T("corpus.table_title", corpus=corpus_name), row_headers=2, shares=shares, height=320,
                numbers=[named[name] for name in chosen if name not in corpus.SHARE_SCORES])


# --- Beside the heads section's summary ---


def beside_findings(view: View, model: MiniLM, trace: RealTrace, layer: int, head: int, threshold: float = corpus.VERDICT_THRESHOLD,
                    most: int = 6) -> None:
    """Under the one-sentence summary ("On this sentence: 83% of layer 5 head 6's weight goes to [CLS]"): each head it
    names, and the chosen one, over the corpus: its mean share, its corpus verdict, and on how many of the corpus's
    sentences its one-sentence verdict is that; then the figure over every head."""
    T = view.T
    scores, name, corpus_name = in_use(view, model)
    agreed = agreement_of(scores, name)
    mine = typed_scores(model, str(model.folder), view.settings.text)
    here = np.stack([mine[n] for n in corpus.VERDICT_SHARES])  # (5, L, H)
    verdicts = corpus.verdicts(here)
    named = sorted(((float(here[:, lay, hd].max()), lay, hd) for lay, hd in zip(*np.nonzero(here.max(axis=0) > threshold))), reverse=True)
    shown = [(lay, hd) for _, lay, hd in named[:most]]
    if (layer, head) not in shown:
        shown.append((layer, head))
    means = np.stack([scores.mean(n) for n in corpus.VERDICT_SHARES])  # (5, L, H)
    lines = []
    for lay, hd in shown:
        verdict = int(verdicts[lay, hd])
        target = int(np.argmax(here[:, lay, hd])) if verdict == corpus.NO_VERDICT else verdict
        same = verdict == int(agreed.corpus[lay, hd])
        said = dict(layer=lay + 1, head=hd + 1, here=verdict_name(T, verdict), target=T(f"real.targets_{corpus.VERDICT_SHARES[target]}"),
                    share=f"{here[target, lay, hd]:.0%}", mean=f"{means[target, lay, hd]:.0%}",
                    corpus_verdict=verdict_name(T, int(agreed.corpus[lay, hd])), agree=f"{agreed.per_head[lay, hd]:.0%}")
        lines.append("- " + T("corpus.beside_same" if same else "corpus.beside_other", **said))
    st.markdown(T("corpus.beside_intro", corpus=corpus_name, section=T("inside.sections.corpus")) + "\n\n" + "\n".join(lines) + "\n\n"
                + T("corpus.beside_overall", **agreement_numbers(agreed)))
