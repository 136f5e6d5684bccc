"""The step component: every step of a view computed once on the server, sent once, stepped in the browser.

The server owns the numbers, the browser owns what is looked at (DESIGN.md). A page builds a ``Pack`` (the steps, their
blocks and matrices) when its numbers change, and ``show`` mounts it with Streamlit's public component API
(``st.components.v2.component``: inline HTML, CSS and JS, no iframe). Choosing a step, a head or a word, numbers on and
off, every step at once, hovering a cell and Predict first's hiding and reveal happen in the browser
(``assets/components/steps/``), which keeps the link current itself (the page's ``Page.browser`` parameters). The
server hears of the view only where it needs it: a control that asks for new numbers (an event), and a report of the
focused word and head while a part of the page that needs them is open (the hands-on editor, a live class).

The payload is bytes: ``ATT1``, the header's length (uint32, little endian), the header (UTF-8 JSON), padding to 8 bytes,
then every matrix's values as float64 (little endian), row by row. A matrix in the header names its ``offset`` (in
numbers) and ``shape`` in that block; the browser reads them with a ``Float64Array``: exact, and 2-3 times smaller than JSON text.
"""

from __future__ import annotations

import functools
import json
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import latex2mathml.converter
import numpy as np
import streamlit as st
from markdown_it import MarkdownIt
from numpy.typing import NDArray

from attention_plot import javascript, plot
from attention_plot.figures import APPROVED_SCALES, TEXT_HUES
from attention_plot.text import Texts

COMPONENT_DIR = Path(__file__).resolve().parents[2] / "assets" / "components"
MAGIC = b"ATT1"
READABLE = (20, 16)  # rows, columns: a larger matrix never prints numbers in its cells (attention_plot.figures)


@functools.cache
def _component():
    """The component, registered once per process (its code is read from assets/components/)."""
    return st.components.v2.component("attention_steps", css=(COMPONENT_DIR / "steps.css").read_text(), js=javascript.join("steps/component.js"))


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).disable(["image", "link"])


@functools.lru_cache(maxsize=4096)
def markdown(text: str) -> str:
    """A text of assets/ as safe inline HTML: **bold**, *italic*, `code` and line breaks; raw HTML is escaped."""
    text = text.replace("  \n", "\n")
    return "<br>".join(_MARKDOWN.renderInline(line) for line in text.split("\n"))


@functools.lru_cache(maxsize=512)
def formula(latex: str) -> str:
    """LaTeX as MathML (drawn and read aloud by the browser itself; nothing to download). Where the text allows a break
    (``\\allowbreak``) the formula is cut into pieces that wrap onto the next line on a narrow screen."""
    pieces = [piece.strip() for piece in latex.split(r"\allowbreak") if piece.strip()]
    return "".join(f'<span class="piece">{latex2mathml.converter.convert(piece)}</span>' for piece in pieces)


@dataclass
class Pack:
    """What a page sends: a header (steps, blocks, matrices' metadata, texts) and one block of float64 values, its
    words in the reader's language (``T``)."""

    T: Texts
    header: dict[str, Any] = field(default_factory=dict)
    values: list[NDArray] = field(default_factory=list)
    size: int = 0  # numbers in the values so far
    matrices: dict[str, dict] = field(default_factory=dict)

    def array(self, values: NDArray) -> dict[str, Any]:
        """Store ``values`` (any shape) in the value block: its place and shape, for the header."""
        data = np.ascontiguousarray(values, dtype="<f8")
        self.values.append(data.ravel())
        place = {"offset": self.size, "shape": list(data.shape)}
        self.size += data.size
        return place

    def matrix(self, id_: str, values: NDArray, rows: tuple[str, ...], cols: tuple[str, ...], *, title: str,
               kind: str = "signed", rows_are: str = "token", cols_are: str = "dimension", decimals: int = 2,
               groups: int = 1, arithmetic: tuple[str, str, NDArray] | None = None, zmax: float = 1.0) -> str:
        """A heatmap the browser draws as a table: (rows, cols) values, coloured by ``kind`` (``signed``, ``weights``,
        ``q``, ``k`` or ``v``), its labels and text alternative in the reader's language. ``arithmetic`` = (Q's id,
        K's id, places (rows, cols)): each cell's tooltip adds q·k up term by term with that many decimals. Returns id."""
        values = np.asarray(values, dtype=float)
        text = plot.labels(self.T, title, values.shape, rows_are, cols_are, values, rows, cols, kind)
        finite = values[np.isfinite(values)]
        bound = float(np.abs(finite).max()) if finite.size else 1.0
        entry = {
            **self.array(values), "title": title, "kind": kind, "rows": list(rows), "columns": list(cols),
            "rows_title": text.y_title, "columns_title": text.x_title, "row_name": text.hover_rows, "column_name": text.hover_cols,
            "alt": text.alt, "decimals": decimals, "groups": groups,
            "range": [0.0, zmax] if kind == "weights" else [-(bound or 1.0), bound or 1.0],
            "readable": values.shape[0] <= READABLE[0] and values.shape[1] <= READABLE[1],
        }
        if kind in TEXT_HUES:
            entry["hue"] = TEXT_HUES[kind]
        if arithmetic is not None:
            q_id, k_id, places = arithmetic
            entry["arithmetic"] = {"query": q_id, "key": k_id, "places": self.array(places)}
        self.matrices[id_] = entry
        return id_

    def parts(self) -> tuple[dict[str, Any], bytes]:
        """The header (with the matrices and each colour scale once) and the float64 block: what every session showing
        these numbers shares (``assemble`` adds a session's own view)."""
        scales = {kind: APPROVED_SCALES[kind] for kind in {m["kind"] for m in self.matrices.values()}}
        block = np.concatenate(self.values).tobytes() if self.values else b""
        return {**self.header, "matrices": self.matrices, "scales": scales}, block

    def bytes(self) -> bytes:
        """The payload: magic, header length, header JSON, padding to 8 bytes, the float64 block."""
        return assemble(self.parts())


def assemble(parts: tuple[dict[str, Any], bytes], **session: Any) -> bytes:
    """A payload from shared ``parts`` (``Pack.parts``, cached per view of the numbers) and one session's own values
    (its token, the view the server knows, whether a live class is open): only the header is written again."""
    header, block = parts
    text = json.dumps({**header, **session}, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    padding = b" " * (-(8 + len(text)) % 8)
    return MAGIC + struct.pack("<I", len(text) + len(padding)) + text + padding + block


def read(payload: bytes) -> tuple[dict[str, Any], NDArray]:
    """The header and the float64 block of a payload (what the browser reads; for tests and tools)."""
    if payload[:4] != MAGIC:
        raise ValueError("not a step payload")
    (length,) = struct.unpack("<I", payload[4:8])
    return json.loads(payload[8 : 8 + length]), np.frombuffer(payload[8 + length :], dtype="<f8")


def values_of(header: dict[str, Any], block: NDArray, id_: str) -> NDArray:
    """One matrix of a payload as an array (tests check what the browser receives against the core)."""
    entry = header["matrices"][id_]
    count = int(np.prod(entry["shape"]))
    return block[entry["offset"] : entry["offset"] + count].reshape(entry["shape"])


def show(payload: bytes, *, key: str, height: int | str = "content", **events: Any) -> Any:
    """Mount the step component with ``payload`` (``Pack.bytes``); ``events``: ``on_<name>_change`` callbacks (a
    callback receives nothing: read the result). Returns the component's result (``.report``, ``.ask``, ...)."""
    return _component()(data=payload, key=key, height=height, **events)


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
            "sideways": "browser.tables.sideways", "sideways_name": "browser.tables.sideways_name",
            "sideways_named": "browser.tables.sideways_named"}
    keys |= {"compare_measure": "walkthrough.compare.measure", "compare_word": "walkthrough.compare.word",
             "compare_said": "walkthrough.compare.said", "compare_between": "walkthrough.compare.said_between"}
    own = {name: T(key) for name, key in keys.items()}
    own |= {name: T(f"walkthrough.component.{name}") for name in (
        "download", "csv_step", "csv_all", "png", "latex", "latex_copied", "latex_failed", "first_step", "last_step", "head_of",
        "close", "steps", "about", "how", "options", "cut")}
    return own
