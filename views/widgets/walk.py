"""A walk through self-attention as the step component's steps: what is walked through (``Walk``: tokens, keys and
every head's trace) and one function per step returning its text and blocks, every head's matrices packed once
(``views.widgets.steps``), with the focus tables' decimals. The walkthrough packs a sentence's walk; the vision page
packs the same steps for an image's patches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_core import AttentionTrace, Explanation
from attention_core.embedding import contains_cjk
from attention_plot import figures
from attention_plot.text import Texts
from views.shell.page import Layout
from views.widgets import steps

STEPS = ("tokens", "qkv", "raw", "scaled", "softmax", "output", "heads")
MAX_FOCUS_DIMS = 8  # the weighted-value table shows this many dimensions (the CSV and the heatmaps have all)
FOCUS_DECIMALS = 4  # scaled scores, weights and the output in the focus tables
LOCAL = ("local", "local-monotonic")  # the modes whose window masks the scores


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
        """The weights a live question is asked on (``views.live.common.setting_words``): head counted from 0."""
        return "textbook" if self.textbook else f"real-{self.layer}-{head + 1}" if self.layer else f"random-{head + 1}"


def steps_for(walk: Walk) -> tuple[str, ...]:
    """The steps to show: the last one only when there are several heads."""
    return STEPS if len(walk.heads) > 1 else STEPS[:-1]


def pack_steps(pack: steps.Pack, walk: Walk, names: tuple[str, ...], T: Texts, layout: Layout, focus: bool = True) -> None:
    """The steps ``names`` of ``walk`` into ``pack``: each step's text and blocks, every head's matrices, and the focus
    tables' decimals (``focus``); the tokens, keys and heads the browser chooses among."""
    pack.header.update(heads=len(walk.heads), tokens=list(walk.tokens), keys=list(walk.key_tokens))
    pack.header["steps"] = [STEP_BUILDERS[name](pack, walk, T, layout) for name in names]
    pack.header["focus"] = focus_entry(pack, walk) if focus else None


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
    return {"type": "note", "tone": tone, "html": steps.markdown(text)}


def matrix_block(id_: str, *, per_head: bool = True, hide: bool = False, sums: bool = False) -> dict[str, Any]:
    return {"type": "matrix", "matrix": id_, "per_head": per_head, "hide": hide, **({"sums": True} if sums else {})}


def chips(tokens: tuple[str, ...], caption: str = "") -> dict[str, Any]:
    """The tokens as numbered chips, after a caption that says what they are."""
    return {"type": "chips", "tokens": list(tokens), "caption": caption}


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
            pack.matrix(f"tokens-{id_}", matrix, e.tokens, d, title=title)
            blocks.append(matrix_block(f"tokens-{id_}", per_head=False))
    return entry | {"blocks": blocks}


def turned(walk: Walk) -> bool:
    """Whether each head's queries and keys are turned by position (RoPE) after X W: then Q and K are shown twice."""
    return walk.explanation is not None and walk.explanation.options.rope


def head_matrices(pack: steps.Pack, walk: Walk, T: Texts) -> None:
    """Every head's Q, K, V, scores, weights and output (ids "<name>.<head>", heads from 1), with each raw score's
    arithmetic where the score is a dot product, and each row's sum of weights. With RoPE, "q" and "k" are the turned
    ones the scores use, and "qx", "kx" the products X W before the turn."""
    rope = turned(walk)
    for h, head in enumerate(walk.heads, 1):
        size = head.q.shape[1]
        for name, matrix, tokens in (("q", head.q, walk.tokens), ("k", head.k, walk.key_tokens), ("v", head.v, walk.key_tokens)):
            title = T(f"walkthrough.steps.qkv.{name}_rope" if rope and name != "v" else f"walkthrough.steps.qkv.{name}")
            pack.matrix(f"{name}.{h}", matrix, tokens, dims(matrix.shape[1] if name == "v" else size), title=title, kind=name)
        if rope:
            assert walk.explanation is not None
            for name, matrix, tokens in zip(("qx", "kx"), walk.explanation.projected(h - 1), (walk.tokens, walk.key_tokens)):
                pack.matrix(f"{name}.{h}", matrix, tokens, dims(size), title=T(f"walkthrough.steps.qkv.{name[0]}"), kind=name[0])
        arithmetic = None
        if head.score in ("dot", "scaled_dot"):
            shown = np.where(np.isfinite(head.raw_scores), head.raw_scores, head.q @ head.k.T)
            places = figures.dot_terms(head.q, head.k, shown)[0] if size <= figures.MAX_TERMS else np.zeros(shown.shape)
            arithmetic = (f"q.{h}", f"k.{h}", places)
        common = dict(rows_are="query", cols_are="key")
        pack.matrix(f"raw.{h}", head.raw_scores, walk.tokens, walk.key_tokens, title=T("walkthrough.steps.raw.matrix"),
                    arithmetic=arithmetic, **common)
        pack.matrix(f"scaled.{h}", head.scaled_scores, walk.tokens, walk.key_tokens, title=T("walkthrough.steps.scaled.matrix"), **common)
        if masks(head):  # elsewhere the masked scores are the scaled ones: sent once
            title = T("walkthrough.steps.softmax.masked" if head.mode in LOCAL else "walkthrough.steps.softmax.masked_causal")
            pack.matrix(f"masked.{h}", head.masked_scores, walk.tokens, walk.key_tokens, title=title, **common)
        else:
            pack.matrices[f"masked.{h}"] = pack.matrices[f"scaled.{h}"]
        pack.matrix(f"weights.{h}", head.weights, walk.tokens, walk.key_tokens, title=T("walkthrough.steps.softmax.matrix"),
                    kind="weights", **common)
        pack.matrix(f"output.{h}", head.output, walk.tokens, dims(head.output.shape[1]), title=T("walkthrough.steps.output.matrix"))
        pack.header.setdefault("sums", {})[str(h)] = pack.array(head.weights.sum(axis=1))


def masks(head: AttentionTrace) -> bool:
    """Whether some score is masked out before softmax (a local mode's window, a causal mask): then the masked scores
    are a matrix of their own."""
    return head.mode in LOCAL or not bool(np.all(head.mask))


def qkv_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    head_matrices(pack, walk, T)  # every step from here on shows a head: their matrices are packed once, with this step
    entry = header_of("qkv", T)
    e = walk.explanation
    blocks: list[dict] = []
    if walk.textbook and layout.explains:
        blocks.append(note("walkthrough.steps.qkv.textbook", T))
    rope = turned(walk)
    products = [matrix_block(name) for name in (("qx", "kx", "v") if rope else ("q", "k", "v"))]
    if e is not None and layout.shows_projections and e.options.layer is None:  # W beside X W, one pair per row (a real
        # model's W are 385 × 32 per head, 12 heads: 3.5 MB to send, too many rows to read; the real model's page has them)
        for h, head in enumerate(walk.heads, 1):
            size = head.q.shape[1]
            for name in ("q", "k", "v"):
                w = getattr(e.projections, f"w_{name}")
                width = head.v.shape[1] if name == "v" else size
                pack.matrix(f"w{name}.{h}", w[:, (h - 1) * width : h * width], dims(w.shape[0]), dims(width),
                            title=T(f"walkthrough.steps.qkv.w_{name}"), kind=name, rows_are="dimension")
        blocks += [{"type": "row", "children": [matrix_block(f"w{name}"), product]} for name, product in zip(("q", "k", "v"), products)]
    elif layout.side_by_side:
        blocks.append({"type": "row", "children": products})
    else:
        blocks += products
    if rope:  # then each query and key turned by its word's position: what the scores use
        blocks.append(note("walkthrough.steps.qkv.rope", T, tone="plain"))
        turned_blocks = [matrix_block("q"), matrix_block("k")]
        blocks += [{"type": "row", "children": turned_blocks}] if layout.side_by_side else turned_blocks
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
    divisor = {"type": "note", "tone": "strong", "html": steps.markdown(divisor_text(walk.heads[0], T, temperature))}
    return entry | {"blocks": [divisor, matrix_block("scaled", hide=True)]}


def softmax_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    head = walk.heads[0]
    window = walk.explanation.options.window if walk.explanation is not None else None
    entry = header_of("softmax", T)
    blocks = [note(f"walkthrough.steps.softmax.mode_{head.mode}", T, tone="plain", window=2 if window is None else window)]
    if walk.explanation is not None and walk.explanation.options.causal:
        blocks.append(note("walkthrough.steps.softmax.causal", T, tone="plain"))
    if masks(head):
        blocks.append(matrix_block("masked", hide=True))
    blocks.append(matrix_block("weights", hide=True, sums=layout.explains))
    return entry | {"blocks": blocks}


def output_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    return header_of("output", T) | {"blocks": [matrix_block("output", hide=True)]}


def heads_step(pack: steps.Pack, walk: Walk, T: Texts, layout: Layout) -> dict[str, Any]:
    e = walk.explanation
    assert e is not None
    trace = e.trace
    pack.matrix("concat", trace.concat, e.tokens, dims(trace.concat.shape[1]), title=T("walkthrough.steps.heads.concat"),
                groups=len(trace.heads))
    pack.matrix("mh-output", trace.output, e.tokens, dims(trace.output.shape[1]), title=T("walkthrough.steps.heads.output"))
    concat, output = matrix_block("concat", per_head=False, hide=True), matrix_block("mh-output", per_head=False, hide=True)
    if layout.shows_projections and e.options.layer is None:  # a real model's W_O is 384 × 384: its page shows it
        w_o = e.projections.w_o
        pack.matrix("w_o", w_o, dims(w_o.shape[0]), dims(w_o.shape[1]), title=T("walkthrough.steps.heads.w_o"), rows_are="dimension")
        blocks = [concat, {"type": "row", "children": [matrix_block("w_o", per_head=False), output]}]
    else:
        blocks = [{"type": "row", "children": [concat, output]}]
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
