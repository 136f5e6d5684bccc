"""The walkthrough: which numbers to walk through, and every step of every head sent once to the step component.

The server computes a walk (random weights, the article's example or a real model's layer) when the sentence or a
setting changes, and packs every step of every head (``views.widgets.steps``): one function per step returns the step's
blocks. The browser steps through them (``assets/components/steps.js``); the server hears of the view only for a new
walk or layer (new numbers), the hands-on editor and a live class's question about the focused word.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from attention_core import AttentionTrace, Explanation, tokenize
from attention_core.embedding import contains_cjk
from attention_plot import figures
from attention_plot.text import Texts
from views import live, real
from views.shell import messages, state
from views.shell.page import Layout, View
from views.shell.params import MAX_TEXT_CHARS
from views.shell.registry import BY_ID, EXAMPLES, MAX_TOKENS
from views.widgets import cache, steps
from views.widgets.hands_on import edit_numbers

STEPS = ("tokens", "qkv", "raw", "scaled", "softmax", "output", "heads")
WALKS = ("random", "textbook", "pretrained")
LAYERS = tuple(range(1, 7))  # all-MiniLM-L6-v2's layers
MAX_FOCUS_DIMS = 8  # the weighted-value table shows this many dimensions (the CSV and the heatmaps have all)
FOCUS_DECIMALS = 4  # scaled scores, weights and the output in the focus tables
TEXTBOOK_FIRST_STEP = 3  # the article's figure starts from q, k and v: its first number is a raw score


@dataclass(frozen=True)
class Walk:
    """What the steps show: query and key tokens, every head's trace, and the explanation behind them.

    ``explanation`` is None for the textbook example, which starts from q, k and v; ``layer`` (1-based) for a real
    model's layer, else None.
    """

    kind: str
    tokens: tuple[str, ...]
    key_tokens: tuple[str, ...]
    heads: tuple[AttentionTrace, ...]
    explanation: Explanation | None
    layer: int | None = None

    @property
    def textbook(self) -> bool:
        return self.kind == "textbook"

    def setting(self, head: int) -> str:
        """The weights a live question is asked on (``views.live.setting_words``): head counted from 0."""
        return "textbook" if self.textbook else f"real-{self.layer}-{head + 1}" if self.layer else f"random-{head + 1}"


def steps_for(walk: Walk) -> tuple[str, ...]:
    """The steps to show: the last one only when there are several heads."""
    return STEPS if len(walk.heads) > 1 else STEPS[:-1]


# --- Choosing the walk: random weights, the article's example, or a real model's layer ---


@dataclass(frozen=True)
class Message:
    """Nothing to walk through yet (an empty sentence, settings the core refuses): what to say instead."""

    text: str


def _pretrained(view: View) -> Explanation | Message | None:
    """A real model's layer as an explanation; None (with a message) when the model is missing."""
    model = real.model()
    if model is None:
        st.warning(view.T("walkthrough.model_missing"), icon=":material/download:")
        return None
    if not tokenize(view.settings.text):
        return Message(view.T("walkthrough.empty"))
    trace = real.run(model, str(model.folder), view.settings.text)
    if trace.dropped:
        st.warning(view.T("real.cut", total=len(trace.tokens) + trace.dropped, kept=len(trace.tokens), dropped=trace.dropped),
                   icon=":material/content_cut:")
    return model.explanation(trace, view["layer"] - 1)


def _random(view: View) -> Explanation | Message:
    """The sentence with random weights, or what keeps it from being computed (said in the step component)."""
    if not tokenize(view.settings.text):
        return Message(view.T("walkthrough.empty"))
    try:
        explanation = cache.explanation(view.settings.text, **view.settings.explain_options())
    except ValueError as error:
        return Message(view.T("common.notices.error", message=figures.plain(str(error))))
    messages.show_cut(len(explanation.tokens) + explanation.dropped[0], explanation.dropped[0], view.T)
    return explanation


def choose_walk(view: View) -> Walk | Message:
    """The numbers to walk through: random weights, the article's example or a real model's layer; a ``Message`` when
    there is nothing to show yet (the sentence box stays on the screen)."""
    kind = view["walk"]
    if kind == "textbook":
        trace = cache.textbook()
        return Walk("textbook", ("Thinking", "Machines"), ("Thinking", "Machines"), (trace,), None)
    explanation = _pretrained(view) if kind == "pretrained" else None
    if explanation is None:
        kind = "random"
        explanation = _random(view)
    if isinstance(explanation, Message):
        return explanation
    return Walk(kind, explanation.tokens, explanation.context_tokens, explanation.trace.heads, explanation,
                view["layer"] if kind == "pretrained" else None)


# --- The step component's part of the page ---


def _rerun_page() -> None:
    """An event of the component: the part reruns and ``_take`` reads what the browser asked for."""


def _take(view: View, result: Any, walk: Walk | Message) -> None:
    """What the browser asked of the server: a sentence, another walk or layer (new numbers), leaving presenter mode,
    asking the live class about the focused word."""
    if isinstance(result.text, str):
        text = result.text[:MAX_TEXT_CHARS]
        if text != view.settings.text:
            st.session_state[state.key("shared", "text")] = text
            st.rerun(scope="app")
    if result.walk in WALKS and result.walk != view["walk"]:
        view.set("walk", result.walk)
        st.rerun(scope="app")
    if isinstance(result.layer, int) and result.layer in LAYERS and result.layer != view["layer"]:
        view.set("layer", result.layer)
        st.rerun(scope="app")
    if result.present is not None:
        st.session_state[state.key("shared", "present")] = bool(result.present)
        st.rerun(scope="app")
    if isinstance(result.ask, dict) and isinstance(walk, Walk):
        head, focus = _head_and_focus(result.ask, walk)
        item = live_item(walk, head, focus)
        live.remember_walk(item)
        live.ask_now(view.T, item)


def _head_and_focus(said: object, walk: Walk) -> tuple[int, int]:
    """The head and focused query (0-based) the browser reported, kept inside the walk (a tampered report is clamped)."""
    said = said if isinstance(said, dict) else {}

    def number(name: str, most: int) -> int:
        try:
            return min(max(int(said.get(name, 1)), 1), most) - 1
        except (TypeError, ValueError):
            return 0

    return number("head", len(walk.heads)), number("focus", len(walk.tokens))


def live_item(walk: Walk, head: int, focus: int) -> live.Item:
    """The focused word's question for a live class, named by the weights this walk shows (views.live.focus_item)."""
    return live.focus_item(walk.heads[head].weights[focus], walk.key_tokens, focus, walk.setting(head))


def steps_part(view: View, walk: Walk | Message) -> None:
    """The step component with every step of the walk; below it, the hands-on editor for the reported word (a part of
    the page that reruns alone: a report reruns only this)."""
    T = view.T
    teaching = live.TEACHER in st.session_state
    askable = isinstance(walk, Walk) and teaching and 2 <= len(walk.key_tokens) <= live.store.MAX_OPTIONS
    server = view_values(view, walk) if isinstance(walk, Walk) else ()
    payload = walk_payload(walk, view, server, state.view_token(view.page.id), askable, teaching)
    events = {f"on_{name}_change": _rerun_page for name in ("report", "ask", "text", "walk", "layer", "present")}
    result = steps.show(payload, key="walk-steps", **events)
    _take(view, result, walk)
    if not isinstance(walk, Walk):
        return
    report = result.report if isinstance(result.report, dict) else {}
    head, focus = _head_and_focus(report, walk)
    if askable:
        live.remember_walk(live_item(walk, head, focus))
    if report.get("hands") and view.layout.extras:
        trace = walk.heads[head]
        edit_numbers(trace, walk.key_tokens, focus, T, key=f"edit-{abs(hash((walk.tokens, head, focus)))}")
    if askable:
        st.page_link(BY_ID["live"].file_path, label=T("live.teacher.see_answers"), icon=":material/groups:")
    if view.layout.extras and walk.explanation is not None:
        st.download_button(T("walkthrough.download_json"), lambda e=walk.explanation: _json(e), file_name="attention-view.json",
                           mime="application/json", key="download-json", on_click="ignore", icon=":material/data_object:",
                           help=T("walkthrough.download_json_help"))


def _json(explanation: Explanation) -> str:
    from attention_core import to_json

    return to_json(explanation)


def view_values(view: View, walk: Walk) -> tuple:
    """The view the server knows (a link's, the session's), clamped to this walk: step, head, focus, numbers, all, predict."""
    total = len(steps_for(walk))
    return (view.clamp("step", 1, total), view.clamp("head", 1, len(walk.heads)), view.clamp("focus", 1, len(walk.tokens)),
            bool(view["values"]), bool(view["all"]), bool(view["predict"]))


# --- The payload: every step of every head ---


def walk_payload(walk: Walk | Message, view: View, server: tuple, token: str, askable: bool, teaching: bool) -> bytes:
    """The step component's payload for this walk: its steps and numbers made once for every session (``walk_parts``),
    with this session's token, view and live class; for a ``Message``, the sentence box and the message alone."""
    if isinstance(walk, Message):
        identity: tuple = ("message", walk.text)
    else:
        options = walk.explanation.options if walk.explanation is not None else None
        identity = (walk.kind, walk.layer, walk.tokens, options, len(walk.heads))
    box = None if not view.layout.extras or view["walk"] == "textbook" else view.settings.text
    parts = walk_parts(identity, Unkeyed(walk), view.layout, view.T.lang, box, view["walk"], view["layer"])
    step, head, focus, values, all_, predict = server or (1, 1, 1, True, False, False)
    return steps.assemble(parts, token=token, ask=askable, teaching=teaching,
                          view={"step": step, "head": head, "focus": focus, "values": values, "all": all_, "predict": predict})


class Unkeyed:
    """A value carried past a cache without being part of its key (the key names it already)."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unkeyed)

    def __hash__(self) -> int:
        return 0


@functools.lru_cache(maxsize=64)
def walk_parts(identity: tuple, carried: Unkeyed, layout: Layout, lang: str, box: str | None, kind: str, layer: int) -> tuple:
    """Every step of the walk and its numbers (``steps.Pack.parts``), made once per walk (named by ``identity``: how its
    numbers were made), layout, language and sentence box, and shared by every session that shows them."""
    walk: Walk | Message = carried.value
    T = Texts(lang)
    pack = steps.Pack()
    pack.header.update(
        page="walkthrough", layout=layout.name, font=layout.chart_font, lang=lang, texts=component_texts(T, lang),
        csv="attention-walkthrough", intro=steps.markdown(T("walkthrough.intro")) if layout.explains else None,
        url={"step": "step", "head": "head", "focus": "focus", "values": "values", "all": "all", "predict": "predict"},
        walks={"current": kind, "options": list(WALKS), "labels": [T(f"walkthrough.walks.{w}") for w in WALKS],
               "layers": list(LAYERS) if kind == "pretrained" else [], "layer": layer},
        sentence=None if box is None else {"text": box, "examples": list(EXAMPLES), "label": T("common.sidebar.text"),
                                           "help": T("common.sidebar.text_help", max_tokens=MAX_TOKENS), "show": T("walkthrough.show"),
                                           "examples_label": T("common.sidebar.examples"), "placeholder": EXAMPLES[0],
                                           "pick": T("common.sidebar.examples_placeholder"), "max": MAX_TEXT_CHARS},
    )
    if isinstance(walk, Message):
        pack.header.update(id="message", variant="message", steps=[], heads=1, tokens=[], keys=[], message=steps.markdown(walk.text))
        return pack.parts()
    pack.header.update(
        id=hashlib.sha1(repr(identity).encode()).hexdigest()[:12], variant=walk.kind,
        enter={"step": TEXTBOOK_FIRST_STEP} if walk.textbook else {},
        note=T("walkthrough.weights_pretrained", layer=walk.layer) if walk.layer else
        T("walkthrough.textbook.active") if walk.textbook else T("walkthrough.weights_random"),
    )
    pack_steps(pack, walk, steps_for(walk), T, layout)
    return pack.parts()


def pack_steps(pack: steps.Pack, walk: Walk, names: tuple[str, ...], T: Texts, layout: Layout, focus: bool = True) -> None:
    """The steps ``names`` of ``walk`` into ``pack``: each step's text and blocks, every head's matrices, and the focus
    tables' decimals (``focus``); the tokens, keys and heads the browser chooses among."""
    pack.header.update(heads=len(walk.heads), tokens=list(walk.tokens), keys=list(walk.key_tokens))
    pack.header["steps"] = [STEP_BUILDERS[name](pack, walk, T, layout) for name in names]
    pack.header["focus"] = focus_entry(pack, walk) if focus else None


def component_texts(T: Texts, lang: str) -> dict[str, str]:
    """The component's words in the reader's language (assets/text/<lang>/walkthrough.toml [component] and others)."""
    keys = {"previous": "walkthrough.previous", "next": "walkthrough.next", "step_of": "walkthrough.step_of",
            "values": "walkthrough.show_values", "values_help": "walkthrough.show_values_help", "all": "walkthrough.all_steps",
            "head": "walkthrough.head", "head_help": "walkthrough.head_help", "focus_title": "walkthrough.focus.title",
            "pick": "walkthrough.focus.pick", "caption": "walkthrough.focus.caption", "position": "walkthrough.focus.position",
            "key": "walkthrough.focus.key", "score": "walkthrough.focus.score", "scaled": "walkthrough.focus.scaled",
            "weight": "walkthrough.focus.weight", "weighted": "walkthrough.focus.weighted", "sum": "walkthrough.focus.sum",
            "first_dims": "walkthrough.focus.first_dims", "predict": "classroom.predict", "predict_help": "classroom.predict_help",
            "predict_word": "classroom.predict_word", "which": "classroom.which", "pick_key": "classroom.pick",
            "how_much": "classroom.how_much", "reveal": "classroom.reveal", "your_guess": "classroom.your_guess",
            "answer": "classroom.answer", "again": "classroom.again", "hidden": "classroom.hidden",
            "hidden_matrix": "classroom.hidden_matrix", "right": "classroom.verdict.right", "off_weight": "classroom.verdict.off_weight",
            "wrong_key": "classroom.verdict.wrong_key", "hands_on": "classroom.hands_on", "hands_on_help": "classroom.hands_on_intro",
            "numbers_hidden": "common.labels.numbers_hidden", "row": "common.labels.row", "walk": "walkthrough.walk",
            "layer": "walkthrough.layer", "choices": "walkthrough.choices", "leave": "walkthrough.leave_presenter",
            "ask_live": "live.teacher.ask_live", "asked": "live.teacher.asked", "query": "common.labels.query",
            "row_sum": "common.labels.sum", "sums": "walkthrough.steps.softmax.sums", "rounded": "walkthrough.steps.softmax.rounded",
            "sideways": "browser.tables.sideways", "sideways_name": "browser.tables.sideways_name"}
    own = {name: T(key) for name, key in keys.items()}
    own |= {name: T(f"walkthrough.component.{name}") for name in (
        "download", "csv_step", "csv_all", "png", "first_step", "last_step", "head_of", "close", "steps", "about", "how", "options",
        "cut")}
    return own


def header_of(name: str, T: Texts, formula_key: str | None = None) -> dict[str, str]:
    """A step's title, the article's step it is (a badge), its explanation and formula (MathML); ``formula_key`` "": none."""
    entry = {"id": name, "title": T(f"walkthrough.steps.{name}.title"), "badge": T(f"walkthrough.steps.{name}.article"),
             "body": steps.markdown(T(f"walkthrough.steps.{name}.body"))}
    if formula_key != "":
        entry["formula"] = steps.formula(T(formula_key or f"walkthrough.steps.{name}.formula"))
    return entry


def note(key_or_text: str, T: Texts | None = None, tone: str = "info", **values: object) -> dict[str, str]:
    """A block of text: a key of assets/ (with ``T``) or text already made, as a coloured note (``tone``) or plain."""
    text = T(key_or_text, **values) if T is not None else key_or_text
    return {"t": "note", "tone": tone, "html": steps.markdown(text)}


def matrix_block(id_: str, *, per_head: bool = True, hide: bool = False, sums: bool = False) -> dict[str, Any]:
    return {"t": "m", "m": id_, "h": per_head, "hide": hide, **({"sums": True} if sums else {})}


def chips(tokens: tuple[str, ...], caption: str = "") -> dict[str, Any]:
    """The tokens as numbered chips, after a caption that says what they are."""
    return {"t": "chips", "tokens": list(tokens), "caption": caption}


def dims(n: int) -> tuple[str, ...]:
    return tuple(str(i + 1) for i in range(n))


def tokens_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    e = walk.explanation
    positions = e is not None and e.options.positions
    entry = header_of("tokens", T, "" if e is None else None if positions else "walkthrough.steps.tokens.formula_no_pe")
    blocks: list[dict] = []
    if layout.explains or e is None:
        blocks.append(chips(walk.tokens, T("walkthrough.tokens_caption", n=len(walk.tokens)) if layout.explains else ""))
    if layout.explains and e is not None and e.options.layer is None and any(contains_cjk(t) for t in walk.tokens):
        blocks.append(note("walkthrough.cjk_note", T, tone="plain"))
    if e is None:
        blocks.append(note("walkthrough.steps.tokens.textbook", T))
    else:
        d = dims(e.x.shape[1])
        if e.options.layer is not None:  # a pretrained model's layer: X is that layer's input
            names = (("x", e.x, T("walkthrough.steps.tokens.x_pretrained", layer=e.options.layer + 1)),)
        elif positions and layout.shows_projections:
            names = tuple((n, m, T(f"walkthrough.steps.tokens.{n}")) for n, m in
                          (("embeddings", e.token_vectors), ("positional", e.positional), ("x", e.x)))
        else:
            names = (("x", e.x, T("walkthrough.steps.tokens.x" if positions else "walkthrough.steps.tokens.x_no_pe")),)
        for id_, matrix, title in names:
            pack.matrix(f"tokens-{id_}", matrix, e.tokens, d, T=T, title=title)
            blocks.append(matrix_block(f"tokens-{id_}", per_head=False))
    return entry | {"blocks": blocks}


def head_matrices(pack: steps.Pack, walk: Walk, T: Texts) -> None:
    """Every head's Q, K, V, scores, weights and output (ids "<name>.<head>", heads from 1), with each raw score's
    arithmetic where the score is a dot product, and each row's sum of weights."""
    for h, head in enumerate(walk.heads, 1):
        size = head.q.shape[1]
        for name, matrix, tokens in (("q", head.q, walk.tokens), ("k", head.k, walk.key_tokens), ("v", head.v, walk.key_tokens)):
            pack.matrix(f"{name}.{h}", matrix, tokens, dims(matrix.shape[1] if name == "v" else size), T=T,
                        title=T(f"walkthrough.steps.qkv.{name}"), kind=name)
        arithmetic = None
        if head.score in ("dot", "scaled_dot"):
            shown = np.where(np.isfinite(head.raw_scores), head.raw_scores, head.q @ head.k.T)
            places = figures.dot_terms(head.q, head.k, shown)[0] if size <= figures.MAX_TERMS else np.zeros(shown.shape)
            arithmetic = (f"q.{h}", f"k.{h}", places)
        common = dict(T=T, rows_are="query", cols_are="key")
        pack.matrix(f"raw.{h}", head.raw_scores, walk.tokens, walk.key_tokens, title=T("walkthrough.steps.raw.matrix"),
                    arithmetic=arithmetic, **common)
        pack.matrix(f"scaled.{h}", head.scaled_scores, walk.tokens, walk.key_tokens, title=T("walkthrough.steps.scaled.matrix"), **common)
        if head.mode in ("local", "local-monotonic"):  # elsewhere the masked scores are the scaled ones: sent once
            pack.matrix(f"masked.{h}", head.masked_scores, walk.tokens, walk.key_tokens, title=T("walkthrough.steps.softmax.masked"), **common)
        else:
            pack.matrices[f"masked.{h}"] = pack.matrices[f"scaled.{h}"]
        pack.matrix(f"weights.{h}", head.weights, walk.tokens, walk.key_tokens, title=T("walkthrough.steps.softmax.matrix"),
                    kind="weights", **common)
        pack.matrix(f"output.{h}", head.output, walk.tokens, dims(head.output.shape[1]), T=T, title=T("walkthrough.steps.output.matrix"))
        pack.header.setdefault("sums", {})[str(h)] = pack.array(head.weights.sum(axis=1))


def qkv_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    head_matrices(pack, walk, T)  # every step from here on shows a head: their matrices are packed once, with this step
    entry = header_of("qkv", T)
    e = walk.explanation
    blocks: list[dict] = []
    if walk.textbook and layout.explains:
        blocks.append(note("walkthrough.steps.qkv.textbook", T))
    products = [matrix_block(name) for name in ("q", "k", "v")]
    if e is not None and layout.shows_projections and e.options.layer is None:  # W beside X W, one pair per row (a real
        # model's W are 385 × 32 per head, 12 heads: 3.5 MB to send, too many rows to read; the real model's page has them)
        for h, head in enumerate(walk.heads, 1):
            size = head.q.shape[1]
            for name in ("q", "k", "v"):
                w = getattr(e.projections, f"w_{name}")
                width = head.v.shape[1] if name == "v" else size
                pack.matrix(f"w{name}.{h}", w[:, (h - 1) * width : h * width], dims(w.shape[0]), dims(width), T=T,
                            title=T(f"walkthrough.steps.qkv.w_{name}"), kind=name, rows_are="dimension")
        blocks += [{"t": "row", "c": [matrix_block(f"w{name}"), product]} for name, product in zip(("q", "k", "v"), products)]
    elif layout.side_by_side:
        blocks.append({"t": "row", "c": products})
    else:
        blocks += products
    return entry | {"blocks": blocks}


def raw_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    score = walk.heads[0].score
    entry = header_of("raw", T, f"walkthrough.steps.raw.formula_{score}")
    blocks = [matrix_block("raw", hide=True)]
    if score in ("dot", "scaled_dot") and layout.explains and walk.heads[0].q.shape[1] <= figures.MAX_TERMS:
        blocks.append(note("walkthrough.steps.raw.rounding", T, tone="plain"))
    return entry | {"blocks": blocks}


def divisor_text(head: AttentionTrace, T: Texts, temperature: float) -> str:
    """What the scores are divided by, in words: √d_k, 1, or the cosine's divisor (times the temperature)."""
    d_k = head.q.shape[1]
    if head.score == "cosine":
        base = T("walkthrough.steps.scaled.divisor_cosine", divisor=f"{head.divisor / temperature:g}")
    else:
        base = T(f"walkthrough.steps.scaled.divisor_{head.score}", d_k=d_k, value=f"{np.sqrt(d_k):.4g}")
    extra = T("walkthrough.steps.scaled.temperature", temperature=f"{temperature:g}") if temperature != 1.0 else ""
    return T("walkthrough.steps.scaled.divisor", divisor=base + extra)


def scaled_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    temperature = 1.0 if walk.explanation is None else float(walk.explanation.options.temperature)
    entry = header_of("scaled", T)
    divisor = {"t": "note", "tone": "strong", "html": steps.markdown(divisor_text(walk.heads[0], T, temperature))}
    return entry | {"blocks": [divisor, matrix_block("scaled", hide=True)]}


def softmax_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    head = walk.heads[0]
    window = walk.explanation.options.window if walk.explanation is not None else None
    entry = header_of("softmax", T)
    blocks = [note(f"walkthrough.steps.softmax.mode_{head.mode}", T, tone="plain", window=2 if window is None else window)]
    if head.mode in ("local", "local-monotonic"):
        blocks.append(matrix_block("masked", hide=True))
    blocks.append(matrix_block("weights", hide=True, sums=layout.explains))
    return entry | {"blocks": blocks}


def output_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    return header_of("output", T) | {"blocks": [matrix_block("output", hide=True)]}


def heads_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    e = walk.explanation
    assert e is not None
    trace = e.trace
    pack.matrix("concat", trace.concat, e.tokens, dims(trace.concat.shape[1]), T=T, title=T("walkthrough.steps.heads.concat"),
                groups=len(trace.heads))
    pack.matrix("mh-output", trace.output, e.tokens, dims(trace.output.shape[1]), T=T, title=T("walkthrough.steps.heads.output"))
    concat, output = matrix_block("concat", per_head=False, hide=True), matrix_block("mh-output", per_head=False, hide=True)
    if layout.shows_projections and e.options.layer is None:  # a real model's W_O is 384 × 384: its page shows it
        w_o = e.projections.w_o
        pack.matrix("w_o", w_o, dims(w_o.shape[0]), dims(w_o.shape[1]), T=T, title=T("walkthrough.steps.heads.w_o"), rows_are="dimension")
        blocks = [concat, {"t": "row", "c": [matrix_block("w_o", per_head=False), output]}]
    else:
        blocks = [{"t": "row", "c": [concat, output]}]
    return header_of("heads", T) | {"blocks": blocks}


STEP_BUILDERS = {"tokens": tokens_step, "qkv": qkv_step, "raw": raw_step, "scaled": scaled_step, "softmax": softmax_step,
                 "output": output_step, "heads": heads_step}


# --- Focus on one word: the article's figure for one query, as two tables the browser makes from the payload ---


def focus_places(head: AttentionTrace, query: int) -> tuple[int, int]:
    """How many decimals one query's focus tables need: (scores and the divisor, so that a shown score divided by the
    shown divisor gives the shown scaled score; weighted values, so that a column of them adds up to the shown output)."""
    shown = min(head.v.shape[1], MAX_FOCUS_DIMS)
    places = figures.quotient_decimals(head.raw_scores[query], float(head.divisor), head.masked_scores[query], FOCUS_DECIMALS)
    weighted = head.weights[query][:, None] * head.v[:, :shown]  # (n_k, shown): a_ij v_j, first dimensions
    return places, figures.addend_decimals(weighted.T, head.output[query, :shown], FOCUS_DECIMALS)


def every_focus_places(head: AttentionTrace, most: int = 8) -> np.ndarray:
    """``focus_places`` for every query at once, (n_q, 2): the same rules, each decimal count tried on the whole matrix
    (exact integer arithmetic, as ``figures.quotient_decimals`` and ``figures.addend_decimals`` do for one row)."""
    shown = min(head.v.shape[1], MAX_FOCUS_DIMS)
    n_q = head.raw_scores.shape[0]
    raw, scaled = head.raw_scores, head.masked_scores
    finite = np.isfinite(scaled) & np.isfinite(raw)
    result = figures.units(np.where(finite, scaled, 0.0), FOCUS_DECIMALS).astype(object)
    places = np.full(n_q, most)
    todo = np.ones(n_q, dtype=bool)
    for decimals in range(FOCUS_DECIMALS, most + 1):
        top = figures.units(np.where(finite, raw, 0.0), decimals).astype(object)
        bottom = int(figures.units(float(head.divisor), decimals))
        if bottom <= 0:
            continue
        good = np.abs(2 * (top * 10**FOCUS_DECIMALS - result * bottom)).astype(object) < bottom
        rows = np.array([bool(np.all(good[i][finite[i]])) for i in range(n_q)])
        places[todo & rows] = decimals
        todo &= ~rows
    weighted = head.weights[:, :, None] * head.v[None, :, :shown]  # (n_q, n_k, shown): a_ij v_j
    output = head.output[:, :shown]
    terms = np.full(n_q, most)
    todo = np.ones(n_q, dtype=bool)
    finite_out = np.isfinite(output)
    total_shown = figures.units(np.where(finite_out, output, 0.0), FOCUS_DECIMALS)
    safe = np.where(np.isfinite(weighted), weighted, 0.0)
    for decimals in range(FOCUS_DECIMALS + 1, most + 1):
        sums = figures.units(safe, decimals).sum(axis=1)  # (n_q, shown)
        ok = figures.rounds_to(sums, decimals, total_shown, FOCUS_DECIMALS) | ~finite_out
        rows = ok.all(axis=1)
        terms[todo & rows] = decimals
        todo &= ~rows
    return np.stack([places, terms], axis=1)


def focus_entry(pack: steps.Pack, walk: Walk) -> dict[str, Any]:
    """Per head: the divisor and, per query, the decimals of its tables (``focus_places``)."""
    heads = []
    for head in walk.heads:
        places = every_focus_places(head).astype(float)  # (n, 2)
        heads.append({"divisor": float(head.divisor), "places": pack.array(places)})
    return {"heads": heads, "dims": MAX_FOCUS_DIMS, "decimals": FOCUS_DECIMALS}
