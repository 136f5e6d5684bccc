"""Plotly figure builders: heatmaps of matrices with values, hovers and colour-blind-safe scales.

Builders are pure (arrays and labels in, figure out); ``views.widgets.cache`` wraps them so a
rerun never rebuilds a figure whose inputs did not change.
"""

from __future__ import annotations

import base64
import functools
import html
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go
from numpy.typing import NDArray
from plotly.io.json import to_json_plotly

# One meaning, one colour (Okabe-Ito hues, safe for colour-blind readers).
HUES = {"q": "#0072B2", "k": "#E69F00", "v": "#009E73"}
# The same hues, darker, for text on white (titles, names): at least 4.5:1 (K's orange is 2.3:1, V's green 3.4:1).
TEXT_HUES = {"q": "#0072B2", "k": "#996300", "v": "#00805d"}
NEUTRAL_NEGATIVE = "#6b6b6b"
# V's negative end: grey and V's green look alike to a deuteranope (CAM02-UCS distance 2.4 at ±half the range, under
# colorspacious's simulation); purple keeps the sign apart (13.5), tests/test_shell_colours.py.
NEGATIVE = {"q": NEUTRAL_NEGATIVE, "k": NEUTRAL_NEGATIVE, "v": "#7a4f9a"}
# Raw (unscaled) and scaled scores keep one colour on every chart: vermillion and blue (Okabe-Ito).
RAW_COLOUR, SCALED_COLOUR = "#D55E00", "#0072B2"
# Diverging scales centred at 0: ColorBrewer RdBu for signed matrices; grey <-> hue for Q, K, V.
SIGNED_SCALE = [[0.0, "#2166ac"], [0.25, "#92c5de"], [0.5, "#f7f7f7"], [0.75, "#f4a582"], [1.0, "#b2182b"]]
# Sequential from 0 for weights in [0, 1]: ColorBrewer Blues.
WEIGHT_SCALE = [[0.0, "#f7fbff"], [0.25, "#c6dbef"], [0.5, "#6baed6"], [0.75, "#2171b5"], [1.0, "#08306b"]]


def hue_scale(hue: str, negative: str = NEUTRAL_NEGATIVE) -> list[list]:
    """A diverging scale: ``negative`` (grey) for negative, white at 0, ``hue`` for positive."""
    return [[0.0, negative], [0.5, "#ffffff"], [1.0, hue]]


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (channels 0..255): 0 for black, 1 for white."""
    linear = [(c / 255) / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG 2 contrast ratio (L1 + 0.05) / (L2 + 0.05) of two sRGB colours, from 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink(background: tuple[float, float, float]) -> str:
    """Black or white text, whichever contrasts more with ``background``: at least 4.58:1 on any colour."""
    return "#000000" if contrast(background, (0, 0, 0)) >= contrast(background, (255, 255, 255)) else "#ffffff"


APPROVED_SCALES = {"signed": SIGNED_SCALE, "weights": WEIGHT_SCALE} | {name: hue_scale(h, NEGATIVE[name]) for name, h in HUES.items()}
MAX_CELLS_WITH_VALUES = (20, 16)  # rows, columns: larger matrices are unreadable with numbers in cells


Figure = dict  # a Plotly figure as plain data, {"data": [trace, ...], "layout": {...}}, of properties known to be valid


def typed(array: NDArray) -> dict:
    """A float array as Plotly's typed-array JSON (base64 of float64, as ``go.Figure`` sends it): NaN kept, 2-3x smaller
    than a list of numbers."""
    a = np.ascontiguousarray(array, dtype="<f8")
    return {"dtype": "f8", "bdata": base64.b64encode(a.tobytes()).decode(), "shape": ", ".join(map(str, a.shape))}


class Spec(NamedTuple):
    """A figure as Plotly's JSON and its height in px: what a page sends for it (built once when cached)."""

    json: str
    height: int


def spec(figure: Figure) -> Spec:
    """The figure's JSON (Plotly's encoder, as ``st.plotly_chart`` uses) with the default template (Streamlit's) that a
    ``go.Figure`` would get, and its height (Plotly's 450 px if unset); no ``go.Figure`` is built (~2 ms saved)."""
    layout = {"template": default_template(), **figure["layout"]}
    return Spec(to_json_plotly({"data": figure["data"], "layout": layout}), int(layout.get("height") or 450))


@functools.cache
def default_template() -> dict:
    """The template every new figure gets (Streamlit's own, once Streamlit is imported), as plain JSON data."""
    return go.Figure().layout.template.to_plotly_json()


def label(text: str) -> str:
    """User text made safe for Plotly's HTML-like labels (always shown as text)."""
    return html.escape(text, quote=False)


MARKDOWN_SPECIAL = set("\\`*_{}[]()#+-.!<>|~$:=")


def chinese(text: str) -> bool:
    """Whether ``text`` has a Chinese character."""
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text)


def colon(words: str, in_chinese: bool | None = None) -> str:
    """``words`` followed by a colon in their own language: the full-width "：" after Chinese ("词元：Thinking"), ": "
    after any other; ``in_chinese`` says the language when ``words`` cannot (a name such as "FlashAttention" in a Chinese
    chart)."""
    return f"{words}：" if (chinese(words) if in_chinese is None else in_chinese) else f"{words}: "


def plain(text: str) -> str:
    """User text made safe inside Streamlit markdown: every special character escaped."""
    return "".join("\\" + ch if ch in MARKDOWN_SPECIAL else ch for ch in text)


def readable(shape: tuple[int, int]) -> bool:
    """True when a matrix is small enough to print its values in the cells."""
    return shape[0] <= MAX_CELLS_WITH_VALUES[0] and shape[1] <= MAX_CELLS_WITH_VALUES[1]


def cell_text(matrix: NDArray, decimals: int) -> NDArray:
    """Each value as shown in its cell: fixed decimals, a true minus sign, ±inf as ±∞, NaN (not yet computed) blank."""
    rounded = np.round(np.where(np.isfinite(matrix), matrix, 0.0), decimals) + 0.0  # + 0.0 turns -0.00 into 0.00
    text = np.char.mod(f"%.{decimals}f", rounded)
    text = np.char.replace(text, "-", "−")
    return np.where(np.isneginf(matrix), "−∞", np.where(np.isposinf(matrix), "∞", np.where(np.isnan(matrix), "", text)))


# --- Numbers a student can add up by hand ---
# Every number shown is the true value rounded; where the app shows a sum term by term (a score's tooltip, the focus
# tables), the terms get as many decimals as the sum needs: the shown terms, added by hand and rounded as the result
# is shown, give the shown result (strictly, never a tie that could round either way). Checked with integers, exactly.


def units(values: NDArray, decimals: int) -> NDArray:
    """Values in units of 10^-decimals, as shown with ``decimals`` decimals (the digits ``cell_text`` prints)."""
    return np.rint(np.asarray(values, dtype=float) * 10.0**decimals).astype(np.int64)


def number_text(count: int, decimals: int) -> str:
    """``count`` units of 10^-decimals as text with a true minus sign, exactly (no float formatting)."""
    count = int(count)
    whole, part = divmod(abs(count), 10**decimals)
    digits = f"{whole}.{part:0{decimals}d}" if decimals else str(whole)
    return ("−" if count < 0 and (whole or part) else "") + digits


def numbers_text(counts: NDArray, decimals: NDArray | int) -> NDArray:
    """``number_text`` for arrays: each count (units of 10^-decimals, ``decimals`` broadcast to its shape) as text."""
    counts = np.asarray(counts, dtype=np.int64)
    places = np.broadcast_to(np.asarray(decimals), counts.shape)
    text = np.empty(counts.shape, dtype=object)
    for p in np.unique(places):
        at = places == p
        whole, part = np.divmod(np.abs(counts[at]), 10 ** int(p))
        digits = np.char.add(np.char.add(whole.astype(str), "."), np.char.zfill(part.astype(str), int(p))) if p else whole.astype(str)
        text[at] = np.where(counts[at] < 0, np.char.add("−", digits), digits)
    return text


def rounds_to(total: NDArray, decimals: int, result: NDArray, shown: int) -> NDArray:
    """True where ``total`` (units of 10^-decimals) rounds, unambiguously, to ``result`` (units of 10^-shown)."""
    scale = 10 ** (decimals - shown)
    return 2 * np.abs(np.asarray(total) - np.asarray(result) * scale) < scale


def round_units(count: NDArray, by: int) -> NDArray:
    """Integer units divided by 10^by, rounded half away from zero (as by hand)."""
    count = np.asarray(count)
    step = 10**by
    return np.sign(count) * ((np.abs(count) + step // 2) // step)


def addend_decimals(terms: NDArray, total: NDArray, shown: int, most: int = 8) -> int:
    """The fewest decimals (more than ``shown``) at which ``terms`` (..., m), each rounded, add up by hand to ``total`` (...)
    as shown with ``shown`` decimals, for every sum at once; ``most`` if none does."""
    finite = np.isfinite(total)
    result = units(np.where(finite, total, 0.0), shown)
    terms = np.where(np.isfinite(terms), terms, 0.0)
    for decimals in range(shown + 1, most + 1):
        if rounds_to(units(terms, decimals).sum(axis=-1), decimals, result, shown)[finite].all():
            return decimals
    return most


def quotient_decimals(numerators: NDArray, divisor: float, quotients: NDArray, shown: int, most: int = 8) -> int:
    """The fewest decimals (at least ``shown``) for the numerators and the divisor so that each shown numerator divided by
    the shown divisor rounds, by hand and unambiguously, to its quotient as shown with ``shown`` decimals."""
    finite = np.isfinite(quotients) & np.isfinite(numerators)
    result = units(np.where(finite, quotients, 0.0), shown).astype(object)
    for decimals in range(shown, most + 1):
        top = units(np.where(finite, numerators, 0.0), decimals).astype(object)
        bottom = int(units(divisor, decimals))
        if bottom > 0 and all(2 * abs(t * 10**shown - r * bottom) < bottom for t, r in zip(top[finite], result[finite])):
            return decimals
    return most


def frozen(array: NDArray) -> NDArray:
    """``array`` as a contiguous read-only array, copied when it could still change (a description never changes)."""
    array = np.ascontiguousarray(array)
    if array.flags.writeable:
        array = array.copy()
        array.flags.writeable = False
    return array


def _array_id(array: NDArray | None) -> tuple | None:
    return None if array is None else (array.shape, array.dtype.str, array.tobytes())


@dataclass(frozen=True, eq=False)
class Heatmap:
    """One heatmap, described once: what it shows (values, labels), how (colour scale and range, numbers in the cells and
    their decimals, frames, groups, an image's outline), its texts (title, axis titles, tooltip names, the note shown
    when the numbers are too small, the text alternative) and its font. A page's helper (``attention_plot.plot.heatmap``)
    builds it; the chart sender, the cache and ``heatmap`` below take it as it is.

    values (rows, cols); rows, cols: the labels. kind: "signed" (diverging, centred at 0), "weights" (sequential,
    0..zmax: 1 unless a map of small shares asks for less, its colour bar showing the range) or "q"/"k"/"v" (diverging in
    that matrix's own hue). -inf (masked) cells are left blank and marked −∞.
    arithmetic (q (rows, d), k (cols, d)): each cell's tooltip adds q·k term by term, adding up to the cell as shown.
    column_groups > 1 draws lines that split the columns into that many equal groups (heads).
    outline (rows, cols) bool frames the True cells, each row's run of consecutive ones in one frame (a local window, the
    keys a query kept).
    ink (image (rows, cols), level): the image's outline where it crosses ``level`` drawn over the cells (``with_ink``).
    font: the size of labels in px (larger on a projector; the rows grow with it), and the largest size of cell numbers:
    the browser sizes those to the cells (Plotly's "auto"), so a narrow phone or a half-width chart on a projector gets
    smaller numbers instead of numbers that run together; too small to read, assets/theme.css hides them and shows
    ``hidden_note`` (hover or tap a cell) under the cells (on a screen).
    Arrays are kept read-only; two descriptions are equal (and hash alike) when every field is, arrays by their bytes,
    so a description is its own cache key.
    """

    values: NDArray
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    kind: str
    title: str
    x_title: str
    y_title: str
    hover_rows: str
    hover_cols: str
    show_values: bool = True
    decimals: int = 2
    zmax: float = 1.0
    column_groups: int = 1
    outline: NDArray | None = None
    arithmetic: tuple[NDArray, NDArray] | None = None
    ink: tuple[NDArray, float] | None = None
    font: int = 13
    hidden_note: str = ""
    alt: str = ""  # the text alternative a screen reader hears (``attention_plot.plot.labels``)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "values", frozen(self.values))
        set_(self, "rows", tuple(self.rows))
        set_(self, "cols", tuple(self.cols))
        if self.outline is not None:
            set_(self, "outline", frozen(self.outline))
        if self.arithmetic is not None:
            set_(self, "arithmetic", (frozen(self.arithmetic[0]), frozen(self.arithmetic[1])))
        if self.ink is not None:
            set_(self, "ink", (frozen(self.ink[0]), float(self.ink[1])))
        set_(self, "_identity", (
            _array_id(self.values), self.rows, self.cols, self.kind, self.title, self.x_title, self.y_title, self.hover_rows,
            self.hover_cols, self.show_values, self.decimals, self.zmax, self.column_groups, _array_id(self.outline),
            None if self.arithmetic is None else tuple(map(_array_id, self.arithmetic)),
            None if self.ink is None else (_array_id(self.ink[0]), self.ink[1]), self.font, self.hidden_note, self.alt))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Heatmap) and self._identity == other._identity  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._identity)  # type: ignore[attr-defined]


def heatmap(h: Heatmap) -> Figure:
    """The heatmap ``h`` describes, on integer positions (repeated tokens stay apart), as a dict of Plotly properties
    (``spec`` makes its JSON)."""
    matrix, row_labels, col_labels, kind, font, decimals = h.values, h.rows, h.cols, h.kind, h.font, h.decimals
    title, x_title, y_title, hover_rows, hover_cols = h.title, h.x_title, h.y_title, h.hover_rows, h.hover_cols
    show_values, column_groups, outline, hidden_note, zmax = h.show_values, h.column_groups, h.outline, h.hidden_note, h.zmax
    hover_extra = None
    if h.arithmetic is not None:
        q, k = h.arithmetic
        shown = np.where(np.isfinite(matrix), matrix, q @ k.T)  # a hidden row's hover is blanked below
        hover_extra = dot_arithmetic(q, k, shown, decimals)
    n_rows, n_cols = matrix.shape
    finite = np.where(np.isfinite(matrix), matrix, np.nan)
    rows = np.array([label(t) for t in row_labels], dtype=object)
    cols = np.array([label(t) for t in col_labels], dtype=object)
    custom = np.empty((n_rows, n_cols, 3), dtype=object)
    custom[..., 0] = rows[:, None]
    custom[..., 1] = cols[None, :]
    custom[..., 2] = "" if hover_extra is None else np.where(np.isnan(matrix), "", hover_extra)  # a hidden row stays hidden
    text = cell_text(matrix, decimals)
    if kind == "weights":
        colour = dict(colorscale=WEIGHT_SCALE, zmin=0.0, zmax=zmax)
    else:
        bound = float(np.nanmax(np.abs(finite))) if np.isfinite(finite).any() else 1.0
        colour = dict(colorscale=APPROVED_SCALES[kind], zmid=0.0, zmin=-bound or -1.0, zmax=bound or 1.0)
    tick_font = font if max(n_rows, n_cols) <= 16 else smaller(font)
    # Rows of 30 px on a screen; on a projector (larger font) as tall as the text needs, and shorter for long
    # sentences so that a 12-token matrix still fits a 720-pixel-high screen.
    row_height = 30 if font <= 13 else max(font + 9, min(font + 21, 310 // n_rows))
    # Title, axis title and column labels above the cells (the axis title sits close to its labels: standoff).
    top = 100 if font <= 13 else 96
    trace = dict(
        type="heatmap", z=typed(finite), x=np.arange(n_cols), y=np.arange(n_rows), text=text, customdata=custom,
        **({"texttemplate": "%{text}"} if show_values else {}),
        xgap=1 if n_cols <= 48 else 0, ygap=1 if n_rows <= 48 else 0,  # a gap on cells under a pixel wide would hide them all
        hovertemplate=f"{colon(hover_rows)}%{{customdata[0]}}<br>{colon(hover_cols)}%{{customdata[1]}}<br>"
        "= %{text}%{customdata[2]}<extra></extra>",
        textfont=dict(size="auto"), **colour,
        colorbar=dict(thickness=10, len=0.9, tickfont=dict(size=font), **bar_ticks(colour, 0.9 * row_height * n_rows, font)),
    )
    axis = dict(tickmode="array", tickfont=dict(size=tick_font), showgrid=False, zeroline=False)
    col_ticks, row_ticks = ticks(n_cols, labels=cols), ticks(n_rows, labels=rows)
    # Under the cells, a line for the note shown when the numbers are too small to read (a screen's layout only: a
    # projector keeps its height for the matrix, and presenter.css hides numbers under 16 px; the tooltips keep them).
    noted = show_values and bool(hidden_note) and font <= 13
    bottom = 10 + (smaller(font) + 8 if noted else 0)
    height = int(min(900, max(200, top + bottom + row_height * n_rows)))
    note = [dict(text=label(hidden_note), x=0, xref="paper", xanchor="left", y=0, yref="paper", yanchor="top", yshift=-3,
                 showarrow=False, font=dict(size=smaller(font), color="#555555"))] if noted else []
    layout = dict(
        title=dict(text=title, font=dict(size=font + 3, **({"color": TEXT_HUES[kind]} if kind in HUES else {})), x=0, xref="paper", y=1,
                   yref="container", yanchor="top", pad=dict(t=8)),  # assets/components/shell/chart-titles.js keeps the column labels clear of it
        font=dict(size=CELL_CAP.get(font, font)), hoverlabel=hover_label(font), annotations=note,  # the note first: theme.css finds it at index 0
        height=height,
        margin=dict(l=10, r=10, t=top, b=bottom),
        xaxis=dict(axis, title=dict(text=x_title, font=dict(size=font), standoff=4), tickvals=col_ticks, ticktext=cols[col_ticks], side="top",
                   automargin=True,
                   **({"tickangle": 0} if n_cols > 48 else {})),
        yaxis=dict(axis, title=dict(text=y_title, font=dict(size=font)), tickvals=row_ticks, ticktext=rows[row_ticks],
                   autorange="reversed"),
        shapes=[
            dict(type="line", x0=g * n_cols / column_groups - 0.5, x1=g * n_cols / column_groups - 0.5, y0=-0.5, y1=n_rows - 0.5,
                 line=dict(color="#222222", width=3))
            for g in range(1, column_groups)
        ] + ([] if outline is None else window_frames(outline)),
    )
    figure = {"data": [trace], "layout": layout}  # every property here is known to be valid: no go.Figure to build
    return figure if h.ink is None else with_ink(figure, *h.ink)


def bar_ticks(colour: dict, length: float, font: int) -> dict:
    """A colour bar's ticks for a bar ``length`` px long (the rows' height; a title wrapped on a phone only makes it
    shorter): Plotly labels about every 20 px, so on a bar of one or two rows five labels of ``font`` px piled on one
    another. A bar shorter than four labels shows its two ends only (as the step component's colour bar does); one
    shorter than twelve, a label every two lines of text at most."""
    if length < 4 * font:
        ends = [float(colour["zmin"]), float(colour["zmax"])]
        return dict(tickmode="array", tickvals=ends, ticktext=[f"{v:.2g}".replace("-", "\u2212") for v in ends])
    if length < 12 * font:
        return dict(nticks=max(3, int(length // (2 * font))))
    return {}


# Plotly's largest size for numbers in cells (the layout font, with textfont "auto"); assets/theme.css shows it as the
# chart font (13 or 17 px) and every smaller size Plotly picks 1.25 times larger (Plotly allows 0.65 em a digit, 0.45 em do).
CELL_CAP = {13: 10.5, 17: 14.5}
SCREEN_FONT = 13  # views.shell.page.SCREEN.chart_font


def smaller(font: int) -> int:
    """Secondary text (many tick labels, a note): 3 px smaller on a screen, never under 16 px on a projector."""
    return font - 3 if font < 16 else max(16, font - 3)


def hover_label(font: int) -> dict:
    """Tooltips in dark text on white (contrast about 15:1), as large as the chart's text and at least 14 px, left-aligned
    (a score's arithmetic is several lines)."""
    return dict(bgcolor="#ffffff", bordercolor="#555555", align="left",
                font=dict(size=max(14, font), color="#1f2430", family='"Source Sans", "Source Sans Pro", sans-serif'))


def at_least(font: dict | None, size: float) -> dict:
    """A Plotly font (or none) with its size raised to ``size`` px if smaller."""
    font = font or {}
    return {**font, "size": max(font.get("size", 0), size)}


def with_ink(figure: Figure, image: NDArray, level: float) -> Figure:
    """The heatmap ``figure`` with the outline of ``image`` (rows, cols, on the heatmap's positions) where it crosses
    ``level``: a dark line on a white halo, so that it keeps 3:1 against every colour of the scale. Returns a new figure."""
    rows, cols = np.shape(image)
    outline = dict(type="contour", z=typed(np.asarray(image, dtype=float)), x=np.arange(cols), y=np.arange(rows), showscale=False,
                   showlegend=False, hoverinfo="skip", contours=dict(start=level, end=level, size=1, coloring="none"))
    halo = dict(outline, line=dict(color="#ffffff", width=5, smoothing=1.0))
    line = dict(outline, line=dict(color="#111111", width=2, smoothing=1.0))
    return {"data": [*figure["data"], halo, line], "layout": figure["layout"]}


def sized(figure: Figure, font: int) -> Figure:
    """The figure with no text smaller than ``font`` px (titles, ticks, axis titles, legends, annotations, text on bars,
    hover labels) and its title a little larger: what every chart gets from the layout (17 px on a projector).
    Returns a new figure."""

    def grow(value: object, name: str = "") -> object:
        if isinstance(value, dict):
            grown = {key: grow(item, key) for key, item in value.items()}
            return at_least(grown, font) if name.endswith("font") and isinstance(grown.get("size"), (int, float)) else grown
        if isinstance(value, list):
            return [grow(item, name) for item in value]
        return value

    layout = grow(figure["layout"])
    layout["font"] = at_least(layout.get("font"), font)
    layout["hoverlabel"] = {**hover_label(font), **layout.get("hoverlabel", {})}
    if isinstance(layout.get("title"), dict):
        layout["title"] = {**layout["title"], "font": at_least(layout["title"].get("font"), font + 1)}
    if font > SCREEN_FONT:  # Streamlit's theme sizes ticks, axis titles and legends itself (14 px): larger on a projector
        for name in {"xaxis", "yaxis"} | {key for key in layout if key.startswith(("xaxis", "yaxis"))}:
            axis = layout[name] = {**layout.get(name, {})}
            axis["tickfont"] = at_least(axis.get("tickfont"), font)
            if isinstance(axis.get("title"), dict):
                axis["title"] = {**axis["title"], "font": at_least(axis["title"].get("font"), font)}
        layout["legend"] = {**layout.get("legend", {}), "font": at_least(layout.get("legend", {}).get("font"), font)}
        layout["annotations"] = [{**note, "font": at_least(note.get("font"), font)} for note in layout.get("annotations", [])]
        if "t" in layout.get("margin", {}):  # the title grows with the text (14 px on a screen): so does the room above
            layout["margin"] = {**layout["margin"], "t": round(layout["margin"]["t"] * (font + 1) / 14)}
    return {"data": [grow(trace) for trace in figure["data"]], "layout": layout}


def ticks(n: int, most: int = 48, labels: NDArray | None = None) -> NDArray:
    """Positions to label on an axis of n cells: all of them up to ``most``, else about 12 evenly spaced (384 dimensions).
    An axis numbered 1..n (dimensions) or 0..n-1 (positions) beyond 16 cells gets about 8 numbers: on a phone 32 upright
    numbers run together, and the tooltip names every cell."""
    numbered = labels is not None and n > 16 and list(labels) in ([str(i + 1) for i in range(n)], [str(i) for i in range(n)])
    return np.arange(0, n, -(-n // 8) if numbered and n <= most else 1 if n <= most else -(-n // 12))


def window_frames(outline: NDArray) -> list[dict]:
    """One rectangle around each run of consecutive framed cells in a row: a row's window (one run) in one frame, the keys
    a query kept (any of them) each in its own, or side by side in one, never around a cell that is not framed."""
    frames = []
    for i, row in enumerate(np.asarray(outline, dtype=bool)):
        edges = np.diff(np.concatenate([[0], row.astype(np.int8), [0]]))
        for first, end in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)):  # each run: columns first .. end - 1
            frames.append(dict(type="rect", x0=float(first) - 0.5, x1=float(end) - 0.5, y0=i - 0.5, y1=i + 0.5, line=dict(color="#E69F00", width=2)))
    return frames


def entropy_bars(entropy: NDArray, tokens: tuple[str, ...], *, title: str, x_title: str, max_bits: float) -> Figure:
    """Horizontal bars of each query's entropy in bits, with the uniform maximum log2(n_k) marked."""
    n = len(tokens)
    rows = [label(t) for t in tokens]
    trace = dict(type="bar", orientation="h", x=np.asarray(entropy), y=np.arange(n), marker=dict(color="#56B4E9"),
                 text=[f"{h:.2f}" for h in entropy], textposition="outside", cliponaxis=False, customdata=rows,
                 hovertemplate="%{customdata}: %{x:.3f} bits<extra></extra>")
    layout = dict(
        title=dict(text=title, font=dict(size=14), x=0, xref="paper", y=1, yref="container", yanchor="top", pad=dict(t=8)),
        height=int(min(900, max(200, 110 + 30 * n))), margin=dict(l=10, r=10, t=100, b=10),
        xaxis=dict(title=dict(text=x_title), range=[0, max(max_bits, 1e-9) * 1.35], side="top"),  # room for the labels
        yaxis=dict(tickmode="array", tickvals=np.arange(n), ticktext=rows, autorange="reversed"),
        shapes=[dict(type="line", x0=max_bits, x1=max_bits, y0=-0.5, y1=n - 0.5, line=dict(color="#555", dash="dot"))],
        showlegend=False,
    )
    return {"data": [trace], "layout": layout}


# A log axis labelled by decades only (1, 10, 100, 1000; 0.01, 0.001): Plotly's minor labels ("2 5 10 2 5") are misread.
DECADES = dict(type="log", dtick=1, exponentformat="power", showexponent="all", minor=dict(ticks="", showgrid=False))


def one_decade(ys: NDArray) -> dict:
    """A log axis spanning about one decade, labelled 1, 2 and 5 times a power of ten at full size ("2e-5", "5e-5", "1e-4").
    Plotly's own labels there are bare digits ("2 3 4 ... 9") at three quarters of the axis font: too small on a projector."""
    values = np.asarray(ys, dtype=float)
    values = values[np.isfinite(values) & (values > 0)]
    if not values.size:
        return dict(type="log")
    low, high = np.floor(np.log10(values.min())), np.ceil(np.log10(values.max()))
    ticks = [float(m * 10.0 ** e) for e in np.arange(low, high + 1) for m in (1, 2, 5) if values.min() / 1.2 <= m * 10.0 ** e <= values.max() * 1.2]
    return dict(type="log", tickmode="array", tickvals=ticks, ticktext=[f"{t:.0e}".replace("e-0", "e-").replace("e+0", "e") for t in ticks],
                minor=dict(ticks="", showgrid=False))


# Lines with no colour of their own: Okabe-Ito's hues that keep 3:1 against white (WCAG's non-text contrast; its orange,
# sky blue and yellow do not), and grey; past six lines each hue comes back with another dash, so no two lines look alike
# up to 48 (a sentence's most tokens).
LINE_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#767676")
LINE_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "8px,3px,2px,3px,2px,3px", "2px,6px")


def line_style(i: int) -> tuple[str, str]:
    """The colour and dash of the ``i``-th line (from 0) of a chart whose lines have no colours of their own."""
    return LINE_COLOURS[i % len(LINE_COLOURS)], LINE_DASHES[i // len(LINE_COLOURS) % len(LINE_DASHES)]


def lines(x: NDArray, ys: NDArray, names: tuple[str, ...], *, title: str, x_title: str, y_title: str,
          log_x: bool = False, log_y: bool = False, mark_x: tuple[float, ...] = (), markers: bool = False,
          y_range: tuple[float, float] | None = None, log_ticks: str = "decades", colours: tuple[str, ...] = ()) -> Figure:
    """One line per row of ``ys`` (m, len(x)) against ``x``, with optional vertical marks and a fixed y range.
    ``log_ticks="auto"`` labels a log y axis that spans about one decade with Plotly's own ticks (2e-5, 5e-5, ...).
    ``colours``: one per line, for a quantity that has its colour on the page (raw and scaled scores)."""
    styles = [(colours[i % len(colours)], "solid") if colours else line_style(i) for i in range(len(names))]
    traces = [dict(type="scatter", mode="lines+markers" if markers else "lines", x=np.asarray(x), y=np.asarray(y), name=label(name),
                   line=dict(color=colour, dash=dash, width=2)) for (y, name), (colour, dash) in zip(zip(ys, names), styles)]
    layout = dict(
        title=dict(text=title, font=dict(size=14), x=0, xref="paper"), height=400, margin=dict(l=10, r=10, t=84, b=10),
        xaxis=dict(title=dict(text=x_title), **(DECADES if log_x else {})),
        yaxis=dict(title=dict(text=y_title), **((one_decade(ys) if log_ticks == "auto" else DECADES) if log_y else {}),
                   **({"range": list(y_range)} if y_range else {})),
        shapes=[dict(type="line", x0=m, x1=m, y0=0, y1=1, yref="paper", line=dict(color="#555", dash="dot")) for m in mark_x],
        legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"),  # above the lines, under the title: below, it met the x axis's title
    )
    return {"data": traces, "layout": layout}


def bars(values: NDArray, names: tuple[str, ...], *, title: str, y_title: str, colour: str = "#0072B2", x_title: str = "",
         ticks: tuple[str, ...] | None = None) -> Figure:
    """Vertical bars with their values printed on them. ``ticks``: shorter labels under the bars than their ``names``
    (which the tooltips keep), with ``x_title`` saying what they count: eight labels "head 1" .. "head 8" turned on a
    phone, and Plotly hid the last one past the chart's edge."""
    trace = dict(type="bar", x=np.arange(len(names)), y=np.asarray(values), marker=dict(color=colour),
                 text=[f"{v:.3f}" for v in values], textposition="outside", cliponaxis=False,
                 customdata=[label(n) for n in names], hovertemplate="%{customdata}: %{y:.4f}<extra></extra>")
    layout = dict(
        title=dict(text=title, font=dict(size=14), x=0, xref="paper"), height=340, margin=dict(l=10, r=10, t=60, b=10),
        xaxis=dict(tickmode="array", tickvals=np.arange(len(names)), ticktext=[label(n) for n in ticks or names],
                   **({"title": dict(text=x_title)} if x_title else {})),
        yaxis=dict(title=dict(text=y_title), range=[0, max(1e-9, float(np.max(values))) * 1.2]), showlegend=False,
    )
    return {"data": [trace], "layout": layout}


def histogram(edges: NDArray, counts: NDArray, *, title: str, x_title: str, y_title: str, colour: str,
              x_range: tuple[float, float] | None = None) -> Figure:
    """A histogram from precomputed bins (only the counts travel to the browser, not the samples); ``x_range``: a fixed
    x axis, so two histograms side by side compare their widths at a glance."""
    centres = (edges[:-1] + edges[1:]) / 2
    trace = dict(type="bar", x=centres, y=counts, width=float(edges[1] - edges[0]), marker=dict(color=colour),
                 hovertemplate="%{x:.2f}: %{y}<extra></extra>")
    layout = dict(title=dict(text=title, font=dict(size=14), x=0, xref="paper"), height=320, margin=dict(l=10, r=10, t=50, b=10),
                  xaxis=dict(title=dict(text=x_title), **({"range": list(x_range)} if x_range else {})),
                  yaxis=dict(title=dict(text=y_title)), bargap=0, showlegend=False)
    return {"data": [trace], "layout": layout}


def vectors(a: NDArray, b: NDArray, *, names: tuple[str, str], title: str) -> Figure:
    """Two 2-D vectors drawn as arrows from the origin, on equal axes."""
    reach = max(1.0, float(np.abs(np.concatenate([a, b])).max())) * 1.15
    colours = (HUES["q"], HUES["k"])
    names_in = (TEXT_HUES["q"], TEXT_HUES["k"])  # the names in text colours (4.5:1 on white)
    arrows = [dict(x=v[0], y=v[1], ax=0, ay=0, xref="x", yref="y", axref="x", ayref="y", showarrow=True, arrowhead=3,
                   arrowsize=1.4, arrowwidth=3, arrowcolor=c, text="") for v, c in zip((a, b), colours)]
    names_at_heads = [dict(x=v[0] * 1.08, y=v[1] * 1.08, xref="x", yref="y", showarrow=False, text=f"<b>{label(n)}</b>",
                           font=dict(color=c, size=18)) for v, n, c in zip((a, b), names, names_in)]
    annotations = arrows + names_at_heads
    layout = dict(
        title=dict(text=title, font=dict(size=14), x=0, xref="paper"), height=420, margin=dict(l=10, r=10, t=50, b=10),
        xaxis=dict(range=[-reach, reach], zeroline=True, scaleanchor="y", scaleratio=1),
        yaxis=dict(range=[-reach, reach], zeroline=True), annotations=annotations, showlegend=False,
    )
    # The arrows' numbers for the table a screen reader reads (assets/components/shell/chart-tables.js): each vector's x and y.
    layout["meta"] = dict(numbers=[["", "x", "y"], *([plain(n), f"{v[0]:.2f}", f"{v[1]:.2f}"] for v, n in zip((a, b), names))])
    trace = dict(type="scatter", x=[0], y=[0], mode="markers", marker=dict(size=6, color="#555"), hoverinfo="skip")
    return {"data": [trace], "layout": layout}


MAX_TERMS = 8  # a score's tooltip lists every term of q·k up to this d_k, one per line (beyond: the first terms only)


def dot_terms(q: NDArray, k: NDArray, scores: NDArray, decimals: int = 2, most: int = 6) -> tuple[NDArray, NDArray, NDArray]:
    """Each term of every q_i·k_j as the tooltip shows it, and how many decimals it has: the fewest (at least
    ``decimals`` + 1) at which the shown products of the shown operands add up by hand to the score as shown.

    Returns (places (n_q, n_k), operand units (n_q, n_k, d, 2), product units (n_q, n_k, d)), all integers in units of
    10^-places; where no precision up to ``most`` adds up (never seen), ``most``.
    """
    n_q, n_k, d = q.shape[0], k.shape[0], q.shape[1]
    result = units(scores, decimals)
    places = np.full((n_q, n_k), most)
    operands = np.zeros((n_q, n_k, d, 2), dtype=np.int64)
    products = np.zeros((n_q, n_k, d), dtype=np.int64)
    todo = np.ones((n_q, n_k), dtype=bool)
    for p in range(decimals + 1, most + 1):
        a, b = np.broadcast_arrays(units(q, p)[:, None, :], units(k, p)[None, :, :])
        product = round_units(a * b, p)  # a×b has 2p decimals: shown with p, rounded by hand
        done = todo & rounds_to(product.sum(axis=-1), p, result, decimals) if p < most else todo
        places[done] = p
        operands[done] = np.stack([a, b], axis=-1)[done]
        products[done] = product[done]
        todo &= ~done
        if not todo.any():
            break
    return places, operands, products


def dot_arithmetic(q: NDArray, k: NDArray, scores: NDArray | None = None, decimals: int = 2,
                   max_terms: int = MAX_TERMS) -> NDArray:  # [n_q, d], [n_k, d] -> [n_q, n_k] str
    """Tooltip lines for every query/key pair: q_i·k_j term by term, each product of the operands as shown, and their sum
    rounded to the score as shown (``scores`` at ``decimals``; q @ k.T when None). When d_k is larger than ``max_terms``
    the first four terms only, at ``decimals`` decimals."""
    d = q.shape[1]
    scores = q @ k.T if scores is None else scores
    lines = np.empty((q.shape[0], k.shape[0]), dtype=object)
    if d > max_terms:
        q_text, k_text = cell_text(q[:, :4], decimals), cell_text(k[:, :4], decimals)  # as the Q and K cells show them
        for i in range(q.shape[0]):
            for j in range(k.shape[0]):
                terms = " + ".join(f"{q_text[i, t]}×{k_text[j, t]}" for t in range(4))
                lines[i, j] = f"<br>q<sub>{i + 1}</sub>·k<sub>{j + 1}</sub> = {terms} + … ({d} terms)"
        return lines
    places, operands, products = dot_terms(q, k, scores, decimals)
    where = places[..., None]
    a, b = (numbers_text(operands[..., side], where) for side in (0, 1))
    a = np.where(operands[..., 0] < 0, "(" + a + ")", a)
    a[..., 0] = numbers_text(operands[..., 0, 0], places)  # the first operand of the line needs no brackets
    b = np.where(operands[..., 1] < 0, "(" + b + ")", b)
    rows = a + " × " + b + " = " + numbers_text(products, where)
    lines = rows[..., 0]
    for t in range(1, d):
        lines = lines + "<br>+ " + rows[..., t]
    i, j = (n.astype(str).astype(object) for n in np.indices(places.shape) + 1)
    head = "<br>q<sub>" + i + "</sub>·k<sub>" + j + "</sub> = Σ q<sub>" + i + "t</sub> k<sub>" + j + "t</sub>:<br>"
    total = numbers_text(products.sum(axis=-1), places) + " ≈ " + numbers_text(units(scores, decimals), decimals)
    return head + lines + "<br>Σ = " + total


def roofline(peak: float, bandwidth: float, points: tuple[tuple[str, float], ...], *, title: str, x_title: str, y_title: str,
             roof_name: str, ridge_name: str, span: tuple[float, float] = (1.0, 1e4)) -> Figure:
    """A roofline, log-log: the attainable throughput min(peak, I x bandwidth) in TFLOP/s against the arithmetic intensity I
    (FLOP/byte) over ``span``, the ridge I = peak / bandwidth dotted, and each kernel (name, intensity) as a point on the
    roof. Its numbers as a table (``layout.meta.numbers``): each point, then the ridge."""
    ridge = peak / bandwidth
    zh = chinese(title + x_title + y_title)  # the tooltips' punctuation follows the chart's language: "：" and "，" in Chinese
    comma = "，" if zh else ", "
    x = np.unique(np.append(np.geomspace(span[0], span[1], 41), ridge))
    traces = [dict(type="scatter", mode="lines", x=x, y=np.minimum(peak, x * bandwidth) / 1e12, name=label(roof_name),
                   line=dict(color="#000000", width=2), hovertemplate=f"{colon('%{x:.3g} FLOP/B', zh)}%{{y:.4g}}<extra></extra>")]
    symbols = ("circle", "diamond", "square", "triangle-up")
    for i, (name, intensity) in enumerate(points):
        colour, _ = line_style(i)
        traces.append(dict(type="scatter", mode="markers", x=[intensity], y=[min(peak, intensity * bandwidth) / 1e12], name=label(name),
                           marker=dict(size=14, color=colour, symbol=symbols[i % len(symbols)], line=dict(color="#ffffff", width=1)),
                           hovertemplate=f"{colon(label(name), zh)}%{{x:.3g}} FLOP/B{comma}%{{y:.4g}}<extra></extra>"))
    numbers = [["", x_title, y_title], *([name, intensity, min(peak, intensity * bandwidth) / 1e12] for name, intensity in points),
               [ridge_name, ridge, peak / 1e12]]
    layout = dict(
        title=dict(text=title, font=dict(size=14), x=0, xref="paper"), height=420, margin=dict(l=10, r=10, t=84, b=10),
        xaxis=dict(title=dict(text=x_title), **DECADES), yaxis=dict(title=dict(text=y_title), **DECADES),
        shapes=[dict(type="line", x0=ridge, x1=ridge, y0=0, y1=1, yref="paper", line=dict(color="#555", dash="dot"))],
        legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"), meta=dict(numbers=numbers),
    )
    return {"data": traces, "layout": layout}
