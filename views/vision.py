"""The vision page's sections: an image as a sentence of patches, the walkthrough's steps on it, where the trained tiny
vision transformer looks, glimpses of k patches against all of them, and an image drawn by hand. Every number comes
from attention_core.vision and its shipped runs (assets/snapshots/vision-<patch size>.npz, ``make snapshots``)."""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from attention_core import attend
from attention_core import vision as core
from attention_core.tiny import TinyParameters
from attention_plot import figures
from attention_plot.text import Texts
from views.shell import state
from views.shell.page import Layout, View
from views.widgets import steps
from views.widgets.charts import chart, dims, show, show_selectable
from views.widgets.hands_on import predict_then_reveal
from views.widgets.walk import Walk, pack_steps

SNAPSHOTS = Path(__file__).resolve().parent.parent / "assets" / "snapshots"
STEPS = ("qkv", "raw", "scaled", "softmax", "output")  # the walkthrough's steps, unchanged
KS = (1, 2, 3, 4, 6, 8, 12, 16)
EDITOR_COLUMN = 40  # px: the grid's eight columns fit a 390 px phone
CELLS_NAMED = 6  # a clamped notice names this many cells, then counts the rest


@dataclass(frozen=True)
class Shipped:
    """A shipped run: its settings, the watched steps and curves, [CLS]'s attention on the probes (S, L, 10, H, m)."""

    settings: dict
    steps: NDArray
    loss: NDArray
    accuracy: NDArray
    attention: NDArray
    probes: NDArray
    params: TinyParameters


@st.cache_resource(show_spinner=False)
def shipped(size: int) -> Shipped:
    with np.load(SNAPSHOTS / f"vision-{size}.npz") as data:
        params = TinyParameters(core.vit_config(size), {k.removeprefix("param."): data[k].astype(np.float64) for k in data.files
                                                 if k.startswith("param.")})
        return Shipped(json.loads(str(data["settings"])), data["steps"], data["loss"], data["accuracy"],
                       data["attention"].astype(np.float64), data["probes"], params)


@st.cache_resource(show_spinner=False)
def digits() -> tuple[NDArray, NDArray, NDArray]:
    """The images, the labels and the held-out indices."""
    images, labels = core.load_digits()
    return images, labels, core.split(len(images))[1]


def chosen_image(view: View) -> tuple[NDArray, int, int]:
    """The chosen digit's held-out probe image (8, 8), its label and its probe number."""
    images, labels, _ = digits()
    run = shipped(2)
    digit = int(view["digit"])
    return images[run.probes[digit]].astype(np.float64), int(labels[run.probes[digit]]), digit


def pick_digit(view: View, into=st) -> None:
    view.widget("digit", view.T("vision.digit"), into=into, style="segmented_control", help=view.T("vision.digit_help"))


def pick_patch(view: View, into=st) -> int:
    return int(view.widget("patch", view.T("vision.patch"), into=into, style="segmented_control",
                           format_func=lambda p: view.T("vision.patch_size", size=p, count=(8 // p) ** 2)))


def pick_both(view: View) -> int:
    """The digit and the patch size, side by side on a projector (the picture starts on its first screen); one under the
    other on a screen, where a narrow phone wraps their buttons."""
    left, right = st.columns([5, 4]) if view.layout.side_by_side else (st.container(), st.container())
    pick_digit(view, left)
    return pick_patch(view, right)


def patch_names(count: int, T) -> tuple[str, ...]:
    return tuple(T("vision.patch_name", number=i + 1) for i in range(count))


def tokens_of(count: int, T) -> tuple[str, ...]:
    return ("[CLS]", *patch_names(count, T))


def upsampled(values: NDArray, size: int) -> NDArray:
    """(m,) values per patch -> (8, 8): each patch's value over its pixels, to lie over the image."""
    per = 8 // size
    return np.kron(np.asarray(values, dtype=float).reshape(per, per), np.ones((size, size)))


def image_chart(image: NDArray, key: str, title: str) -> None:
    """The digit's pixels (8, 8) in [0, 1], each with its value."""
    chart(image / core.MAX_PIXEL, dims(8), dims(8), kind="weights", title=title, key=key, values=True, decimals=2,
          rows_are="pixel_row", cols_are="pixel_column")


# --- An image is a sentence ---


def sentence_section(view: View) -> None:
    T = view.T
    size = pick_both(view)
    image, label, _ = chosen_image(view)
    run = shipped(size)
    params = run.params
    pieces = core.patches(image, size) / core.MAX_PIXEL
    m = pieces.shape[0]
    names = patch_names(m, T)
    st.subheader(T("vision.headings.patches"))
    left, right = st.columns(2)
    with left:
        image_chart(image, "vision-image", T("vision.image_title", label=label))
    with right:
        chart(pieces, names, dims(size * size), kind="weights", title=T("vision.patches_title", count=m, size=size), key="vision-pieces",
              values=m * size * size <= 64, rows_are="token", cols_are="dimension")
    if view.layout.explains:
        st.markdown(T("vision.patches_body", count=m, size=size, pixels=size * size))
    trace = core.vit_forward(params, image)
    embedded = pieces @ params["patch"]
    charts = ((embedded, names, "vision.embedded_title", "vision-embedded"), (params["position"], tokens_of(m, T), "vision.position_title",
              "vision-position"), (params["cls"][None], ("[CLS]",), "vision.cls_title", "vision-cls"),
              (trace.x0[0], tokens_of(m, T), "vision.x_title", "vision-x"))
    st.subheader(T("vision.headings.tokens"))
    st.latex(T("vision.formula"))
    for matrix, rows, title, key in charts:
        chart(matrix, rows, dims(matrix.shape[1]), kind="signed", title=T(title, count=m, d=matrix.shape[1]), key=key,
              values=False, rows_are="token", cols_are="dimension")
    st.markdown(T("vision.then_steps"))


# --- The walkthrough's steps on an image ---


def steps_section(view: View) -> None:
    """Layer 1 of the trained model on the chosen digit, through the walkthrough's steps: every step of both heads sent
    once to the step component (the browser steps through them and keeps the step and the head in the link)."""
    T = view.T
    size = pick_both(view)
    step, head = view.clamp("step", 1, len(STEPS)), view.clamp("head", 1, 2)
    parts = steps_parts(int(view["digit"]), size, view.layout, T.lang)
    steps.show(steps.assemble(parts, token=state.view_token(view.page.id), view={"step": step, "head": head, "focus": 1,
                                                                                   "values": parts[0]["values"], "all": False,
                                                                                   "predict": False}), key="vision-steps")


@functools.lru_cache(maxsize=32)
def steps_parts(digit: int, size: int, layout: Layout, lang: str) -> tuple:
    """The step component's steps for the digit's probe image with patches of ``size``: Q, K, V to the weighted sum for
    each head of layer 1 (``steps.Pack.parts``, shared by every session)."""
    T = Texts(lang)
    images, _, _ = digits()
    image = images[shipped(2).probes[digit]].astype(np.float64)
    trace = core.vit_forward(shipped(size).params, image)
    m = trace.pieces.shape[1]
    first = trace.layers[0]
    heads = tuple(attend(first.q[0, h], first.k[0, h], first.v[0, h]) for h in range(first.q.shape[1]))
    walk = Walk("vision", tokens_of(m, T), tokens_of(m, T), heads, None)
    pack = steps.Pack(T)
    pack.header.update(page="vision", id=f"vision-{digit}-{size}", variant="vision", layout=layout.name, font=layout.chart_font, lang=lang,
                       texts=steps.component_texts(T, lang), csv=f"attention-vision-{digit}-{size}", url={"step": "step", "head": "head"},
                       note=T("vision.steps_note", count=m), values=m <= 8)
    pack_steps(pack, walk, STEPS, T, layout, focus=False)
    return pack.parts()


# --- Where it looks ---


def over_image(weights: NDArray, size: int, image: NDArray, title: str, key: str, own_scale: bool = False) -> None:
    """Per-patch weights (m,) on the image's pixels, with the digit's outline (half ink) drawn over them; ``own_scale``:
    colours from 0 to the largest weight rounded up to a tenth (a rollout's shares are small: on 0–1 they look white)."""
    zmax = max(0.1, math.ceil(float(np.max(weights)) * 10 - 1e-9) / 10) if own_scale else 1.0
    chart(upsampled(weights, size), dims(8), dims(8), kind="weights", title=title, key=key, values=False, rows_are="pixel_row",
          cols_are="pixel_column", ink=(image, core.MAX_PIXEL / 2), zmax=zmax)


def attention_maps(view: View, maps: NDArray, size: int, image: NDArray, titles: list[str], key: str) -> None:
    """Per-patch weights (count, m) over the image, two a row."""
    for first in range(0, len(maps), 2):
        for column, index in zip(st.columns(2), range(first, min(first + 2, len(maps)))):
            with column:
                over_image(maps[index], size, image, titles[index], f"{key}-{index}")


def open_patch(view: View) -> None:
    points = (st.session_state.get("vision-pick") or {}).get("selection", {}).get("points", [])
    if points and points[0].get("customdata") is not None:
        st.session_state[view.key("query")] = int(points[0]["customdata"])


def patch_targets(size: int, T) -> dict:
    per = 8 // size
    centres = [(r * size + (size - 1) / 2, c * size + (size - 1) / 2) for r in range(per) for c in range(per)]
    return dict(type="scatter", mode="markers", x=[c for _, c in centres], y=[r for r, _ in centres], customdata=list(range(1, per * per + 1)),
                marker=dict(size=28 if size == 2 else 60, color="rgba(0,0,0,0.01)", symbol="square", line=dict(width=0)), showlegend=False,
                # a click selects a point: no faint square left on the image (the chosen patch is framed instead)
                selected=dict(marker=dict(opacity=1)), unselected=dict(marker=dict(opacity=1)),
                hovertemplate=T("vision.patch_hover", number="%{customdata}") + "<extra></extra>")


def looks_section(view: View) -> None:
    """Where the tiny vision transformer looks, on the chosen digit (8 x 8 pixels in m = 16 patches of 2 x 2): the shipped
    run's accuracy; every layer and head's [CLS] attention over the patches (m,) at the chosen training step, predicted
    first when asked; and once trained, the attention rollout and the last layer's attention of the patch the student
    picks (a row of the (m + 1, m + 1) weights, heads averaged, [CLS] left out)."""
    T = view.T
    pick_digit(view)
    image, label, digit = chosen_image(view)
    run = shipped(2)
    size, m = 2, 16
    _, labels, held = digits()
    st.caption(T("vision.accuracy", accuracy=f"{run.accuracy[-1]:.1%}", count=len(held),
                 chance=f"{np.bincount(labels[held]).max() / len(held):.1%}", seconds=run.settings["seconds"], steps=run.settings["steps"]))
    watched = run.steps
    step = view.widget("training", T("vision.training"), options=[int(w) for w in watched])
    at = int(np.searchsorted(watched, step))  # the watched step's index in the run
    trained = at == len(watched) - 1
    names = patch_names(m, T)
    cls_maps = run.attention[at, :, digit]  # (layers, H, m)
    predict = view.widget("predict", T("vision.predict"), help=T("vision.predict_help"))
    if predict:
        last = cls_maps[-1].mean(axis=0)
        spans = [core.patch_span(i, size) for i in range(m)]  # each option says where its patch lies, as the maps are labelled
        placed = tuple(T("vision.patch_at", number=i + 1, rows="–".join(map(str, rows)), cols="–".join(map(str, cols)))
                       for i, (rows, cols) in enumerate(spans))
        show(image_figure(image, size, T, title=T("vision.guess_title", label=label)), key="vision-guess-image",
             alt=T("vision.guess_alt", label=label, count=m))
        asked = T("vision.predict_question", layer=cls_maps.shape[0], label=label)
        if not predict_then_reveal(last, placed, T, f"vision-{digit}-{at}", question=asked, words="vision.quiz"):
            st.info(T("vision.hidden"), icon=":material/visibility_off:")
            return
    titles = [T("vision.cls_map", layer=layer + 1, head=head + 1) for layer in range(cls_maps.shape[0]) for head in range(cls_maps.shape[1])]
    titles.append(T("vision.cls_mean", layer=cls_maps.shape[0]))  # the map the prediction asks about
    st.subheader(T("vision.headings.cls"))
    st.markdown(T("vision.cls_intro", step=int(watched[at])))
    if at == 0:
        peaks = run.attention.max(axis=-1).mean(axis=(1, 2, 3))  # per watched step: the mean over layers, digits, heads
        st.caption(T("vision.untrained", top=f"{cls_maps.max():.0%}", before=f"{peaks[0]:.2f}", after=f"{peaks[-1]:.2f}"))
    attention_maps(view, np.vstack([cls_maps.reshape(-1, m), cls_maps[-1].mean(axis=0)[None]]), size, image, titles, "vision-cls")
    if trained:
        trace = core.vit_forward(run.params, image)
        rolled = core.rollout(trace)[0]
        st.subheader(T("vision.headings.patch"))
        left, right = st.columns(2)
        with left:
            over_image(rolled, size, image, T("vision.rollout"), "vision-rollout", own_scale=True)
        query = view.clamp("query", 1, m)
        with right:
            show_selectable(image_figure(image, size, T, chosen=query), key="vision-pick", on_select=lambda: open_patch(view),
                            alt=T("vision.pick_alt", patch=query))
        view.widget("query", T("vision.query"), style="selectbox", hi=m, format_func=lambda i: names[i - 1])
        rows = trace.layers[-1].weights[0].mean(axis=0)[query, 1:]  # that patch's attention, last layer, heads averaged
        over_image(rows, size, image, T("vision.query_map", patch=query), "vision-query", own_scale=True)
        shown = round(float(rows.sum()), 2)  # with [CLS] the row sums to 1: the two shares as shown add up to 1.00
        st.caption(T("vision.query_rest", patch=query, m=m, patches=f"{shown:.2f}", cls=f"{1 - shown:.2f}"))
        best = int(np.argmax(rolled))
        st.markdown(T("vision.looks_said", label=label, patch=best + 1, share=f"{rolled[best]:.0%}",
                      predicted=int(trace.logits[0].argmax()), right=T("vision.right") if int(trace.logits[0].argmax()) == label
                      else T("vision.wrong")))
    else:
        st.caption(T("vision.not_trained"))


def image_figure(image: NDArray, size: int, T, title: str = "", chosen: int | None = None) -> figures.Figure:
    """The image in greys with its patch grid, each patch's number, and a point at each patch's centre (a click there
    picks the patch); ``chosen`` (1-based): that patch framed in blue (6.3:1 on white, 3.4:1 on full ink)."""
    per = 8 // size
    lines = [dict(type="line", x0=i * size - 0.5, x1=i * size - 0.5, y0=-0.5, y1=7.5, line=dict(color="#E69F00", width=2)) for i in range(1, per)]
    lines += [dict(type="line", y0=i * size - 0.5, y1=i * size - 0.5, x0=-0.5, x1=7.5, line=dict(color="#E69F00", width=2)) for i in range(1, per)]
    if chosen is not None:
        r, c = divmod(chosen - 1, per)
        lines.append(dict(type="rect", x0=c * size - 0.5, x1=(c + 1) * size - 0.5, y0=r * size - 0.5, y1=(r + 1) * size - 0.5,
                          line=dict(color="#1a5fb4", width=4)))
    heat = dict(type="heatmap", z=image / core.MAX_PIXEL, colorscale=[[0, "#ffffff"], [1, "#111111"]], zmin=0, zmax=1, showscale=False,
                hoverinfo="skip")
    numbers = [dict(x=c * size - 0.5, y=r * size - 0.5, xanchor="left", yanchor="top", text=str(r * per + c + 1), showarrow=False,
                    font=dict(size=11, color="#111111"), bgcolor="rgba(255,255,255,0.85)", borderpad=1)
               for r in range(per) for c in range(per)]  # each patch's number in its corner, on white over the ink
    layout = dict(title=dict(text=title or T("vision.pick_title"), font=dict(size=14), x=0, xref="paper"), height=360, shapes=lines,
                  annotations=numbers,
                  margin=dict(l=10, r=10, t=60, b=10), xaxis=dict(visible=False, range=[-0.5, 7.5], constrain="domain"),
                  yaxis=dict(visible=False, range=[7.5, -0.5], scaleanchor="x"))
    return {"data": [heat, patch_targets(size, T)], "layout": layout}


# --- A glimpse of k patches ---


@st.cache_data(show_spinner=False)
def glimpses(size: int) -> dict[str, list[float]]:
    """Held-out accuracy with k patches: those the rollout ranks first, and k random ones (seeded), for each k."""
    images, labels, held = digits()
    params = shipped(size).params
    m = (8 // size) ** 2
    ks = [k for k in KS if k <= m]
    return {"k": ks, "top": [core.glimpse_accuracy(params, images[held], labels[held], k) for k in ks],
            "random": [core.glimpse_accuracy(params, images[held], labels[held], k, random=True) for k in ks]}


def glimpse_section(view: View) -> None:
    T = view.T
    size = pick_patch(view)  # every held-out image: no digit to pick
    found = glimpses(size)
    _, labels, held = digits()
    chance = np.bincount(labels[held]).max() / len(held)
    names = (T("vision.glimpse_top"), T("vision.glimpse_random"))
    show(figures.lines(np.array(found["k"]), np.array([found["top"], found["random"]]), names, title=T("vision.glimpse_title"),
                       x_title=T("vision.glimpse_x"), y_title=T("vision.glimpse_y"), markers=True, y_range=(0, 1.02),
                       colours=("#0072B2", "#D55E00")), key="vision-glimpse",
         alt=T("vision.glimpse_alt", k=found["k"][-1], full=f"{found['top'][-1]:.1%}"))
    st.table(pd.DataFrame({T("vision.glimpse_x"): found["k"], names[0]: [f"{a:.1%}" for a in found["top"]],
                           names[1]: [f"{a:.1%}" for a in found["random"]]}), hide_index=True)
    fewer = [(k, a) for k, a in zip(found["k"], found["top"]) if k < found["k"][-1]]  # a glimpse: fewer than all patches
    half = next((k for k, a in fewer if a >= 0.9 * found["top"][-1]), fewer[-1][0] if fewer else found["k"][-1])
    st.markdown(T("vision.glimpse_said", full=f"{found['top'][-1]:.1%}", m=found["k"][-1], half=half,
                  top=f"{dict(zip(found['k'], found['top']))[half]:.1%}", random=f"{dict(zip(found['k'], found['random']))[half]:.1%}",
                  chance=f"{chance:.1%}"))


# --- Draw a digit ---


def with_edits(base: NDArray, edited_rows: dict) -> NDArray:
    """``base`` (8, 8) with the grid's edits applied, as st.data_editor keeps them ({row: {"column": value}}, columns
    named 1–8); an emptied cell or text is NaN."""
    typed = np.array(base, dtype=np.float64)
    for row, cells in edited_rows.items():
        for column, value in cells.items():
            try:
                typed[int(row), int(column) - 1] = np.nan if value is None else float(value)
            except (TypeError, ValueError, IndexError):
                continue  # not a cell of the grid: a tampered state changes nothing
    return typed


def editor(image: NDArray, key: str, T, start: NDArray | None = None) -> NDArray:
    """The 8 × 8 grid to edit by hand, started from ``image`` (or from ``start``, a drawing a link holds, opened now):
    what the student typed (8, 8), unchecked.

    When a cell had to be clamped, the grid starts again from what the model reads, so it never shows an empty cell
    ("None") or a value the model does not see. What was typed stays for the session: a student who looks at another
    digit or section and comes back finds the grid as it was left, until "Start again"."""
    state = st.session_state
    if start is not None:  # a link's drawing, once (the caller passes it only then): a fresh grid from it
        state[f"{key}-base"], state[f"{key}-typed"] = start, start
        state[f"{key}-revision"] = state.get(f"{key}-revision", 0) + 1
    base, revision = state.get(f"{key}-base", image), state.get(f"{key}-revision", 0)
    if f"{key}-{revision}" not in state and f"{key}-typed" in state:  # back from elsewhere: the grid as it was left
        base = core.clamp_image(state[f"{key}-typed"])[0]
    edits = state.get(f"{key}-{revision}") or {}
    typed = with_edits(base, edits.get("edited_rows", {}) if isinstance(edits, dict) else {})
    clean, changed = core.clamp_image(typed)
    if changed:
        base, revision = clean, revision + 1
    state[f"{key}-base"], state[f"{key}-revision"], state[f"{key}-typed"] = base, revision, typed
    frame = pd.DataFrame(np.asarray(base).astype(int), columns=[str(c + 1) for c in range(8)])
    st.data_editor(frame, key=f"{key}-{revision}", hide_index=True, num_rows="fixed",
                   column_config={c: st.column_config.NumberColumn(c, step=0.1, format="plain", width=EDITOR_COLUMN)
                                  for c in frame.columns})
    if not np.array_equal(np.nan_to_num(typed, nan=-1), image):
        st.button(T("vision.start_again"), key=f"{key}-again", on_click=start_again, args=(key, image), icon=":material/restart_alt:")
    return typed


def start_again(key: str, image: NDArray) -> None:
    """The grid back to the chosen digit (a callback: before the grid is drawn)."""
    state = st.session_state
    state[f"{key}-base"], state[f"{key}-typed"] = image, image
    state[f"{key}-revision"] = state.get(f"{key}-revision", 0) + 1


def clamped_notice(typed: NDArray, T) -> str:
    """Which cells were read otherwise than typed, the first few by name."""
    cells = core.clamped_cells(typed)
    said = [T("vision.clamped_cell", row=r, column=c, read=f"{read:g}",
              typed=T("vision.empty") if np.isnan(was) else f"{was:g}".replace("-", "−")) for r, c, was, read in cells[:CELLS_NAMED]]
    more = T("vision.clamped_more", n=len(cells) - CELLS_NAMED) if len(cells) > CELLS_NAMED else ""
    return T("vision.clamped", cells=T("vision.cell_separator").join(said) + more)


PIXEL_CODES = "0123456789abcdefg"  # a pixel 0 … 16 as one character of a link
DRAWN_OWN = "vision.drawn.own"  # the drawing this session last wrote into the link


def drawn_code(image: NDArray) -> str:
    """An 8 × 8 image of whole pixels 0–16 as 64 characters, row by row (``drawn=`` in a link)."""
    return "".join(PIXEL_CODES[int(v)] for v in np.asarray(image, dtype=int).ravel())


def drawn_image(code: str) -> NDArray | None:
    """The image a ``drawn_code`` stands for (8, 8); None for anything else (the registry's pattern lets only codes in)."""
    if len(code) != core.SIDE * core.SIDE or any(c not in PIXEL_CODES for c in code):
        return None
    return np.array([PIXEL_CODES.index(c) for c in code], dtype=np.float64).reshape(core.SIDE, core.SIDE)


def draw_section(view: View) -> None:
    T = view.T
    pick_digit(view)
    image, _, digit = chosen_image(view)
    if view.layout.explains:
        st.markdown(T("vision.draw_intro"))
    left, right = st.columns(2)  # the grid beside what the model reads: both on a projector's first screen
    with left, st.container(key="vision-grid"):  # room above the grid for its toolbar (assets/theme.css)
        code = view["drawn"]  # a drawing this session did not write comes from a link: the grid starts from it
        linked = drawn_image(code) if code and code != st.session_state.get(DRAWN_OWN) else None
        typed = editor(image, f"vision-draw-{digit}", T, start=linked)
    clean, changed = core.clamp_image(typed)
    # The link keeps the drawing (what the model reads), and nothing once it is the digit again.
    own = "" if np.array_equal(clean, image) else drawn_code(clean)
    view.set("drawn", own)
    st.session_state[DRAWN_OWN] = own
    with left:  # right under the grid, also on a phone where the columns stack
        if changed:
            st.warning(clamped_notice(typed, T), icon=":material/tune:")
        if not clean.any():
            st.info(T("vision.blank"), icon=":material/draw:")
    if not clean.any():
        return
    if changed:  # what the model reads, beside what was typed
        with right:
            image_chart(clean, "vision-draw-clean", T("vision.read_title"))
    params = shipped(2).params
    trace = core.vit_forward(params, clean)
    probabilities = np.exp(trace.logits[0] - trace.logits[0].max())
    probabilities /= probabilities.sum()
    with right:
        show(figures.bars(probabilities, tuple(str(d) for d in range(10)), title=T("vision.probabilities"), y_title=T("vision.probability")),
             key="vision-probabilities")
    over_image(core.rollout(trace)[0], 2, clean, T("vision.rollout"), "vision-draw-rollout", own_scale=True)
    best = int(probabilities.argmax())
    st.markdown(T("vision.draw_said", digit=best, probability=f"{probabilities[best]:.0%}"))
