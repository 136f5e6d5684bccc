"""The walkthrough: which numbers to walk through, the step navigation, one draw function per step, the focus section.

Every draw function takes the layout (screen or projector) as a value: what it shows follows
from the layout's fields, never from a presenter flag.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

from attention_core import AttentionTrace, Explanation, to_json, tokenize
from attention_core.embedding import contains_cjk
from attention_plot import figures
from attention_plot.text import Texts
from views import cache, charts, live, real, state
from views.cache import Key
from views.charts import chart, dims, fixed, token_chips
from views.classroom import edit_numbers, predict_then_reveal
from views.inputs import explanation_or_stop
from views.page import Layout, View

STEPS = ("tokens", "qkv", "raw", "scaled", "softmax", "output", "heads")
WALKS = ("random", "textbook", "pretrained")
MAX_FOCUS_DIMS = 8  # the weighted-value table shows this many dimensions (the CSV and the heatmaps have all)
TEXTBOOK_FIRST_STEP = 3  # the article's figure starts from q, k and v: its first number is a raw score


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
    hidden: bool = False  # predict-then-reveal: every matrix the answer can be read from waits for the reveal
    textbook: bool = False  # the article's example: q, k and v are given, not computed from X


def live_item(walk: Walk, focus: int) -> live.Item:
    """The focused word's question for a live class, named by the weights this walk shows (views.live.focus_item)."""
    layer = walk.explanation.options.layer if walk.explanation is not None else None
    setting = ("textbook" if walk.textbook else f"real-{layer + 1}-{walk.head_index + 1}" if layer is not None
               else f"random-{walk.head_index + 1}")
    return live.focus_item(walk.head.weights[focus], walk.key_tokens, focus, setting)


def hidden_here(walk: Walk, T: Texts) -> bool:
    """While the class predicts, a matrix from which the answer can be read (scores, weights, outputs; any row, since the
    other rows show the head's pattern) is not drawn: a notice stands in its place. True when hidden."""
    if walk.hidden:
        st.info(T("classroom.hidden_matrix"), icon=":material/visibility_off:")
    return walk.hidden


def steps_for(walk: Walk) -> tuple[str, ...]:
    """The steps to show: the last one only when there are several heads."""
    several = walk.explanation is not None and len(walk.explanation.trace.heads) > 1
    return STEPS if several else STEPS[:-1]


# --- The page below its title: two parts that rerun alone ---


def steps_part(view: View) -> Walk:
    """The walk's choices, the step navigation and the steps; a step or a head reruns only this (``page.part``)."""
    places = bar(view)  # where the choices and the step navigation go in this layout
    walk = choose_walk(view, places.choices)  # random weights, the article's example or a real model's head; which head
    steps = step_navigation(view, walk, places)  # Previous / Step n of N / Next, or every step
    if not view.layout.extras and view["predict"]:  # on a projector the class's question sits under the navigation
        predict_question(view, walk)
    draw_steps(view, walk, steps)  # each step's explanation, formula and matrices, in the view's layout
    if view.layout.extras:  # on a screen; a projector keeps its height for the step (the sidebar's CSV is there)
        charts.download_matrices(view.T, charts.csv_name(view.page.path, "all-steps" if len(steps) > 1 else steps[0]), key="csv-steps",
                                 in_page=True)
    return walk


def walk_choice(view: View) -> tuple:
    """What the focus section below the steps is drawn from: when a control of the steps' part changes it, the page reruns."""
    return view["walk"], view["head"], view["layer"]


def quiz_state(view: View) -> tuple:
    """What the steps above the focus section hide (the focused query's row while the quiz waits): when a control of the
    focus section changes it, the page reruns."""
    return view["predict"], view["focus"] if view["predict"] else None


# --- Choosing the walk: random weights, the article's example, or a real model's head ---


def _walk_changed(view: View) -> None:
    """Keep the step a teacher is on; the article's example starts at its first number (the raw scores)."""
    if view["walk"] == "textbook":
        view.set("step", max(view["step"], TEXTBOOK_FIRST_STEP))


def _pretrained(view: View) -> Explanation | None:
    """A real model's layer as an explanation; None (with a message) when the model is missing."""
    model = real.model()
    if model is None:
        st.warning(view.T("walkthrough.model_missing"), icon=":material/download:")
        return None
    if not tokenize(view.settings.text):
        st.info(view.T("common.notices.empty"), icon=":material/edit:")
        st.stop()
    layer = st.segmented_control(view.T("walkthrough.layer"), range(1, 7), required=True, key=view.key("layer"))
    trace = real.run(model, str(model.folder), view.settings.text)
    if trace.dropped:
        st.warning(view.T("real.cut", total=len(trace.tokens) + trace.dropped, kept=len(trace.tokens), dropped=trace.dropped),
                   icon=":material/content_cut:")
    return model.explanation(trace, layer - 1)


@dataclass(frozen=True)
class Bar:
    """Where the walk's choices and the step navigation go: on a screen, choices above and navigation below;
    on a projector, one row (Previous, step, a pop-over with the choices, Next) so the step keeps the height."""

    choices: Any
    navigation: tuple | None = None  # (Previous, where, Next) columns, made in advance on a projector


def bar(view: View) -> Bar:
    if view.layout.extras:
        return Bar(st.container())
    back, where, choices, forward = st.columns([2, 8, 1, 2], vertical_alignment="center")
    # An icon alone: the page's scripts (assets/js/shell.js) name the button with the same help text for a screen reader.
    holder = choices.container(key="walk-choices")
    return Bar(holder.popover("", icon=":material/tune:", help=view.T("walkthrough.choices")), (back, where, forward))


def _leave_presenter_mode() -> None:
    st.session_state[state.key("shared", "present")] = False


def choose_walk(view: View, into: Any) -> Walk:
    """The numbers to walk through (random, the article's, a real model's) and the head to follow, drawn ``into``
    a container; a choice on the screen and on the projector alike (there with a way out of presenter mode)."""
    with into:
        walk = _choose_walk(view)
        if not view.layout.extras:
            st.button(view.T("walkthrough.leave_presenter"), on_click=_leave_presenter_mode, icon=":material/close_fullscreen:",
                      key="leave-presenter")
    if walk.hidden and view.layout.extras:
        st.info(view.T("classroom.hidden"), icon=":material/visibility_off:")
    return walk


def focus_picker(view: View, walk: Walk, into: Any) -> int:
    """The word the class focuses on (0-based), picked ``into`` a container."""
    return into.selectbox(view.T("walkthrough.focus.pick"), range(1, len(walk.tokens) + 1), key=view.key("focus"),
                          format_func=lambda i: f"{i} · {walk.tokens[i - 1]}") - 1


def predict_question(view: View, walk: Walk) -> bool:
    """The class's question for the focused word (which key, how much weight), with the live class's button; True once
    revealed."""
    focus = view["focus"] - 1  # within the sentence: choose_walk clamped it
    if len(walk.key_tokens) <= live.store.MAX_OPTIONS:
        live.ask_here(view.T, live_item(walk, focus), key="walk-live")
    return predict_then_reveal(walk.head.weights[focus], walk.key_tokens, view.T, quiz_key(view, walk),
                               token=walk.tokens[focus], compact=not view.layout.extras)


def _choose_walk(view: View) -> Walk:
    T = view.T
    kind = st.segmented_control(T("walkthrough.walk"), WALKS, required=True, key=view.key("walk"),
                                format_func=lambda name: T(f"walkthrough.walks.{name}"), on_change=_walk_changed, args=(view,))
    if kind == "textbook":
        if view.layout.explains:
            st.info(T("walkthrough.textbook.active"), icon=":material/menu_book:")
        walk = Walk(("Thinking", "Machines"), ("Thinking", "Machines"), cache.textbook(), 0, None, textbook=True)
    else:
        explanation = _pretrained(view) if kind == "pretrained" else None
        if explanation is None:
            explanation = explanation_or_stop(view.settings, T)
        heads = len(explanation.trace.heads)
        head = view.clamp("head", 1, heads)
        if heads > 1:
            head = st.segmented_control(T("walkthrough.head"), range(1, heads + 1), required=True, key=view.key("head"),
                                        help=T("walkthrough.head_help"))
        if view.layout.explains:
            pretrained = explanation.options.layer is not None
            st.caption(T("walkthrough.weights_pretrained", layer=view["layer"]) if pretrained else T("walkthrough.weights_random"))
        walk = Walk(explanation.tokens, explanation.context_tokens, explanation.trace.heads[head - 1], head - 1, explanation)
    focus = view.clamp("focus", 1, len(walk.tokens)) - 1
    askable = 2 <= len(walk.key_tokens) <= live.store.MAX_OPTIONS  # the live page asks what this walk shows
    live.remember_walk(live_item(walk, focus) if askable else None)
    if not view.layout.extras:  # on a projector the class's question and its word are chosen here, in the pop-over
        focus_picker(view, walk, st)
        st.toggle(T("classroom.predict"), key=view.key("predict"), help=T("classroom.predict_help"))
    if view["predict"] and not predict_then_reveal_done(quiz_key(view, walk)):
        walk = replace(walk, hidden=True)
    return walk


def quiz_key(view: View, walk: Walk) -> str:
    """One quiz per sentence, settings, walk, head and focused query."""
    return f"walk-{hash((walk.tokens, walk.head_index, view.settings, view['walk'], view['layer'], view['focus']))}"


def predict_then_reveal_done(key: str) -> bool:
    return key in st.session_state.get("revealed", set())


# --- Step navigation ---


def _move(view: View, by: int) -> None:
    view.set("step", view["step"] + by)


def step_navigation(view: View, walk: Walk, bar: Bar) -> tuple[str, ...]:
    """Previous / "Step n of N" / Next, or every step at once; returns the steps to draw."""
    T = view.T
    steps = steps_for(walk)
    step = view.clamp("step", 1, len(steps))
    if view.layout.extras:
        toggles = st.columns([2, 3, 3])
        toggles[0].toggle(T("walkthrough.show_values"), key=view.key("values"), help=T("walkthrough.show_values_help"))
        toggles[1].toggle(T("walkthrough.all_steps"), key=view.key("all"))
        if walk.explanation is not None:
            toggles[2].download_button(T("walkthrough.download_json"), lambda e=walk.explanation: to_json(e), file_name="attention-view.json",
                                       mime="application/json", key="download-json", on_click="ignore", width="stretch",
                                       icon=":material/data_object:", help=T("walkthrough.download_json_help"))
        if view["all"]:
            return steps
    back, where, forward = bar.navigation or st.columns([1, 4, 1], vertical_alignment="center")
    back.button(T("walkthrough.previous"), key="walk-previous", on_click=_move, args=(view, -1), disabled=step == 1, width="stretch")
    title = T(f"walkthrough.steps.{steps[step - 1]}.title")
    where.markdown(f"**{T('walkthrough.step_of', number=step, total=len(steps), title=title)}**")
    forward.button(T("walkthrough.next"), key="walk-next", on_click=_move, args=(view, 1), disabled=step == len(steps), width="stretch")
    return (steps[step - 1],)


def draw_steps(view: View, walk: Walk, steps: tuple[str, ...]) -> None:
    """Each step: its explanation, formula and matrices, in the view's layout."""
    values = bool(view["values"])
    for number, step in enumerate(steps):
        if number:
            st.divider()
        with st.container(key=f"step-{step}"):
            DRAW[step](walk, view.T, values, view.layout)


# --- One function per step ---


def header(step: str, T: Texts, layout: Layout, formula_key: str | None = None) -> None:
    """The step's title, explanation and formula (on a projector: the explanation as one caption, no title);
    ``formula_key`` "" draws no formula."""
    body = f":blue-badge[{T(f'walkthrough.steps.{step}.article')}] {T(f'walkthrough.steps.{step}.body')}"
    if layout.explains:
        st.subheader(T(f"walkthrough.steps.{step}.title"))
        st.markdown(body)
    else:
        st.caption(body)
    if formula_key != "":
        st.latex(T(formula_key or f"walkthrough.steps.{step}.formula"))


def draw_tokens(walk: Walk, T: Texts, values: bool, layout: Layout) -> None:
    e = walk.explanation
    positions = e is not None and e.options.positions
    header("tokens", T, layout, "" if e is None else None if positions else "walkthrough.steps.tokens.formula_no_pe")
    if layout.explains:  # on a projector the matrix's row labels are the tokens
        st.caption(T("walkthrough.tokens_caption", n=len(walk.tokens)))
        if e is not None and e.options.layer is None and any(contains_cjk(t) for t in walk.tokens):
            st.caption(T("walkthrough.cjk_note"))
        st.html(token_chips(walk.tokens))
    elif e is None:
        st.html(token_chips(walk.tokens))
    if e is None:
        st.info(T("walkthrough.steps.tokens.textbook"))
        return
    tokens, d = e.tokens, dims(e.x.shape[1])
    if e.options.layer is not None:  # a pretrained model's layer: X is that layer's input
        title = T("walkthrough.steps.tokens.x_pretrained", layer=e.options.layer + 1)
        chart(e.x, tokens, d, kind="signed", title=title, key="tokens-x", T=T, values=values)
    elif positions and layout.shows_projections:
        for matrix, name in ((e.token_vectors, "embeddings"), (e.positional, "positional"), (e.x, "x")):
            chart(matrix, tokens, d, kind="signed", title=T(f"walkthrough.steps.tokens.{name}"), key=f"tokens-{name}", T=T, values=values)
    else:
        title = T("walkthrough.steps.tokens.x" if positions else "walkthrough.steps.tokens.x_no_pe")
        chart(e.x, tokens, d, kind="signed", title=title, key="tokens-x", T=T, values=values)


def draw_qkv(walk: Walk, T: Texts, values: bool, layout: Layout) -> None:
    header("qkv", T, layout)
    head, e = walk.head, walk.explanation
    if walk.textbook and layout.explains:
        st.info(T("walkthrough.steps.qkv.textbook"))
    h = walk.head_index
    products = (("q", head.q, walk.tokens), ("k", head.k, walk.key_tokens), ("v", head.v, walk.key_tokens))
    row = st.columns(3) if layout.side_by_side else None
    for i, (name, product, tokens) in enumerate(products):
        size = product.shape[1]
        if e is not None and layout.shows_projections:  # W beside X W, one pair per row
            w_slot, slot = st.columns(2)
            w = getattr(e.projections, f"w_{name}")[:, h * size : (h + 1) * size]
            with w_slot:
                chart(w, dims(w.shape[0]), dims(size), kind=name, title=T(f"walkthrough.steps.qkv.w_{name}"), key=f"qkv-w{name}",
                      T=T, values=values, rows_are="dimension")
        else:
            slot = row[i] if row else st.container()
        with slot:
            chart(product, tokens, dims(size), kind=name, title=T(f"walkthrough.steps.qkv.{name}"), key=f"qkv-{name}", T=T, values=values)


def draw_raw(walk: Walk, T: Texts, values: bool, layout: Layout) -> None:
    head = walk.head
    header("raw", T, layout, f"walkthrough.steps.raw.formula_{head.score}")
    arithmetic = (head.q, head.k) if head.score in ("dot", "scaled_dot") else None
    if hidden_here(walk, T):
        return
    chart(head.raw_scores, walk.tokens, walk.key_tokens, kind="signed",
          title=T("walkthrough.steps.raw.matrix"), key="raw", T=T, values=values, rows_are="query", cols_are="key",
          arithmetic=arithmetic)
    if arithmetic is not None and layout.explains and head.q.shape[1] <= figures.MAX_TERMS:
        st.caption(T("walkthrough.steps.raw.rounding"))  # why products of the rounded Q and K can miss by a hundredth


def divisor_text(head: AttentionTrace, T: Texts, temperature: float) -> str:
    """What the scores are divided by, in words: √d_k, 1, or the cosine's divisor (times the temperature)."""
    d_k = head.q.shape[1]
    if head.score == "cosine":
        base = T("walkthrough.steps.scaled.divisor_cosine", divisor=f"{head.divisor / temperature:g}")
    else:
        base = T(f"walkthrough.steps.scaled.divisor_{head.score}", d_k=d_k, value=f"{np.sqrt(d_k):.4g}")
    extra = T("walkthrough.steps.scaled.temperature", temperature=f"{temperature:g}") if temperature != 1.0 else ""
    return T("walkthrough.steps.scaled.divisor", divisor=base + extra)


def draw_scaled(walk: Walk, T: Texts, values: bool, layout: Layout) -> None:
    header("scaled", T, layout)
    head = walk.head
    temperature = 1.0 if walk.explanation is None else float(walk.explanation.options.temperature)
    st.markdown(f"**{divisor_text(head, T, temperature)}**")
    if hidden_here(walk, T):
        return
    chart(head.scaled_scores, walk.tokens, walk.key_tokens, kind="signed",
          title=T("walkthrough.steps.scaled.matrix"), key="scaled", T=T, values=values, rows_are="query", cols_are="key")


def draw_softmax(walk: Walk, T: Texts, values: bool, layout: Layout) -> None:
    header("softmax", T, layout)
    head = walk.head
    window = walk.explanation.options.window if walk.explanation is not None else None
    st.markdown(T(f"walkthrough.steps.softmax.mode_{head.mode}", window=2 if window is None else window))
    if hidden_here(walk, T):
        return
    if head.mode in ("local", "local-monotonic"):
        chart(head.masked_scores, walk.tokens, walk.key_tokens, kind="signed",
              title=T("walkthrough.steps.softmax.masked"), key="masked", T=T, values=values, rows_are="query", cols_are="key")
    left, right = st.columns([5, 1]) if layout.explains else (st.container(), None)  # row sums: on the screen only
    with left:
        chart(head.weights, walk.tokens, walk.key_tokens, kind="weights",
              title=T("walkthrough.steps.softmax.matrix"), key="weights", T=T, values=values, rows_are="query", cols_are="key")
    if right is not None:
        with right:
            st.caption(T("walkthrough.steps.softmax.sums"))
            sums = pd.DataFrame({T("common.labels.query"): [figures.plain(t) for t in walk.tokens],
                                 T("common.labels.sum"): fixed(head.weights.sum(axis=1))})
            st.table(sums, hide_index=True)
            st.caption(T("walkthrough.steps.softmax.rounded"))  # a row of the chart, to two places, may show 0.99


def draw_output(walk: Walk, T: Texts, values: bool, layout: Layout) -> None:
    header("output", T, layout)
    head = walk.head
    if hidden_here(walk, T):
        return
    chart(head.output, walk.tokens, dims(head.output.shape[1]), kind="signed",
          title=T("walkthrough.steps.output.matrix"), key="output", T=T, values=values)


def draw_heads(walk: Walk, T: Texts, values: bool, layout: Layout) -> None:
    header("heads", T, layout)
    e = walk.explanation
    assert e is not None
    if hidden_here(walk, T):  # the heads' outputs are weighted sums: the weights can be read back from them
        return
    trace = e.trace
    if layout.side_by_side:
        concat_slot, output_slot = st.columns(2)
    else:
        concat_slot = st.container()
        w_o_slot, output_slot = st.columns(2)
    with concat_slot:
        chart(trace.concat, e.tokens, dims(trace.concat.shape[1]), kind="signed", title=T("walkthrough.steps.heads.concat"),
              key="concat", T=T, values=values, column_groups=len(trace.heads))
    if layout.shows_projections:
        with w_o_slot:
            chart(e.projections.w_o, dims(e.projections.w_o.shape[0]), dims(e.projections.w_o.shape[1]), kind="signed",
                  title=T("walkthrough.steps.heads.w_o"), key="w_o", T=T, values=values, rows_are="dimension")
    with output_slot:
        chart(trace.output, e.tokens, dims(trace.output.shape[1]), kind="signed", title=T("walkthrough.steps.heads.output"),
              key="mh-output", T=T, values=values)


DRAW = {
    "tokens": draw_tokens, "qkv": draw_qkv, "raw": draw_raw, "scaled": draw_scaled,
    "softmax": draw_softmax, "output": draw_output, "heads": draw_heads,
}


# --- Focus on one word: the article's figure for one query, the quiz, hands-on numbers ---


def focus_tables(head: AttentionTrace, key_tokens: tuple[str, ...], query: int, T: Texts) -> tuple[pa.Table, pa.Table]:
    """The article's figure for one query as tables: per key score, scaled score, weight; and weight x value rows summed.

    Every number is the true value rounded, with as many decimals as the check it invites needs: a shown score divided by
    the shown divisor gives the shown scaled score, and a column of shown weighted values adds up to the shown output.
    Built once per distinct input for every session, as Arrow tables (what ``st.table`` sends): making and converting
    the two frames on every run was a tenth of a walkthrough rerun (``make profile``).
    """
    shown = min(head.v.shape[1], MAX_FOCUS_DIMS)
    return _focus_tables(Key(head.raw_scores[query]), Key(head.masked_scores[query]), Key(head.weights[query]),
                         Key(head.v[:, :shown]), Key(head.output[query, :shown]), float(head.divisor), key_tokens, T.lang)


FOCUS_DECIMALS = 4  # scaled scores, weights and the output in the focus tables


@functools.lru_cache(maxsize=512)
def _focus_tables(raw: Key, scaled: Key, weights: Key, v: Key, output: Key, divisor: float, key_tokens: tuple[str, ...],
                  lang: str) -> tuple[pa.Table, pa.Table]:
    T, a = Texts(lang), weights.array
    places = figures.quotient_decimals(raw.array, divisor, scaled.array, FOCUS_DECIMALS)  # score ÷ divisor = scaled
    divisor_text = figures.number_text(figures.units(divisor, places), places).rstrip("0").rstrip(".")
    weights_text = fixed(a, FOCUS_DECIMALS)
    scores = pd.DataFrame({
        T("walkthrough.focus.position"): [str(j + 1) for j in range(len(key_tokens))],
        T("walkthrough.focus.key"): [figures.plain(token) for token in key_tokens],
        T("walkthrough.focus.score"): fixed(raw.array, places),
        T("walkthrough.focus.scaled", divisor=divisor_text): fixed(scaled.array, FOCUS_DECIMALS),
        T("walkthrough.focus.weight"): weights_text,
    })
    weighted = a[:, None] * v.array  # (n_k, shown): a_ij v_j, first dimensions
    terms = figures.addend_decimals(weighted.T, output.array, FOCUS_DECIMALS)  # each column adds up to the output
    rows = [f"{a_j} × v{j + 1} ({figures.plain(token)})" for j, (a_j, token) in enumerate(zip(weights_text, key_tokens))]
    table = pd.DataFrame(np.vstack([fixed(weighted, terms), fixed(output.array[None], FOCUS_DECIMALS)]), columns=dims(v.array.shape[1]))
    table.insert(0, "", rows + [T("walkthrough.focus.sum")])
    return pa.Table.from_pandas(scores, preserve_index=False), pa.Table.from_pandas(table, preserve_index=False)


def draw_focus(walk: Walk, T: Texts, query: int) -> None:
    """One query against every key, key by key, and its output as a sum of weighted values."""
    token = figures.plain(walk.tokens[query])
    st.caption(T("walkthrough.focus.caption", token=token))
    scores, weighted = focus_tables(walk.head, walk.key_tokens, query, T)
    st.table(scores, hide_index=True)
    st.caption(T("walkthrough.focus.weighted", token=token))
    st.table(weighted, hide_index=True)
    if walk.head.v.shape[1] > MAX_FOCUS_DIMS:
        st.caption(T("walkthrough.focus.first_dims", shown=MAX_FOCUS_DIMS, d_v=walk.head.v.shape[1]))


def focus_section(view: View, walk: Walk) -> None:
    """Pick a word; predict its strongest key before the numbers show; edit its numbers by hand (screen layout only)."""
    if not view.layout.extras:
        return
    T = view.T
    st.divider()
    st.subheader(T("walkthrough.focus.title"))
    pick, guess = st.columns([3, 2], vertical_alignment="bottom")
    focus = focus_picker(view, walk, pick)
    guess.toggle(T("classroom.predict"), key=view.key("predict"), help=T("classroom.predict_help"))
    if view["predict"]:
        if not predict_question(view, walk):
            return
    elif len(walk.key_tokens) <= live.store.MAX_OPTIONS:
        live.ask_here(T, live_item(walk, focus), key="walk-live")
    draw_focus(walk, T, focus)
    if st.toggle(T("classroom.hands_on"), key="hands-on", help=T("classroom.hands_on_intro")):
        st.caption(T("classroom.hands_on_intro"))
        edit_numbers(walk.head, walk.key_tokens, focus, T, key=f"edit-{abs(hash((walk.tokens, walk.head_index, focus)))}")
