"""Drawing helpers shared by the pages: cached heatmaps with translated axes, tables, token chips."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import NDArray

from attention_plot import figures, plot
from attention_plot.text import Texts
from views.shell import private
from views.shell.page import run_font, run_texts, shown_matrices
from views.widgets import cache

# The toolbar keeps download, zoom in and out and reset: each button is a stop for the Tab key; dragging still zooms.
TOOLBAR_LEFT_OUT = ["zoom2d", "pan2d", "select2d", "lasso2d", "autoScale2d", "toggleSpikelines", "hoverClosestCartesian",
                    "hoverCompareCartesian"]
PLOTLY_CONFIGS = {lang: json.dumps({"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2},
                                    "modeBarButtonsToRemove": TOOLBAR_LEFT_OUT, "locale": locale})
                  for lang, locale in (("en", "en"), ("zh", "zh-CN"))}


def language() -> str:
    """This run's language (English before a run started)."""
    return run_texts().lang


def plotly_config() -> str:
    """The charts' Plotly config in this session's language (its toolbar's tooltips: assets/text/*/browser.toml)."""
    return PLOTLY_CONFIGS.get(language(), PLOTLY_CONFIGS["en"])



def show(figure: figures.Figure, key: str, alt: str | None = None) -> None:
    """Draw a Plotly figure with the app's toolbar settings (PNG export at 2x) and an accessible description, its text
    no smaller than this run's chart font (17 px on a projector) and readable tooltips."""
    described = alt or plot.describe(figure, run_texts())
    send(figures.spec(figures.sized(figure, run_font())), key, described)


# How a click (or a tap) on a point selects it: what Streamlit sets for selection_mode="points" when the figure leaves it
# unset. Left to Streamlit, it is set in the browser after the chart is drawn, and a chart drawn again while the page was
# running (a head chosen, a tap soon after) could keep Plotly's defaults (a click that selects nothing, a drag that
# zooms): the tap showed the point's label and chose nothing. Said in the figure, every drawing of it has them.
SELECTS_POINTS = {"clickmode": "event+select", "dragmode": "pan", "hovermode": "closest"}


def show_selectable(figure: figures.Figure, key: str, alt: str, on_select) -> None:
    """Like ``show``, through ``st.plotly_chart`` so that a click on a point reruns the page with it: ``on_select`` (a
    callback) reads ``st.session_state[key]["selection"]["points"]``."""
    sized = figures.sized(figure, run_font())
    st.plotly_chart({**sized, "layout": {**SELECTS_POINTS, **sized["layout"]}}, key=key, on_select=on_select, selection_mode="points",
                    config=json.loads(plotly_config()), theme="streamlit", alt=alt)


def send(spec: figures.Spec, key: str, alt: str | None = None) -> None:
    """The element ``st.plotly_chart(figure, key=key, config=..., alt=alt)`` sends, from JSON made once.

    ``st.plotly_chart`` copies, validates and encodes the figure again on every run, a tenth of a loaded
    server's time (``make profile``); a cached heatmap's JSON is reused here as it is. Same element, same
    Streamlit theme: a private message (``views.shell.private.send_plotly_chart``), checked by the browser tests.
    """
    private.send_plotly_chart(spec.json, plotly_config(), key, alt, spec.height)


def matrix_csv(matrix: NDArray, rows: tuple[str, ...], cols: tuple[str, ...], row_header: str = "row") -> str:
    """A matrix as CSV with its row and column labels (positions keep repeated tokens apart); ``row_header`` names the
    first column in the student's language."""
    frame = pd.DataFrame(np.asarray(matrix), columns=[f"{j + 1}:{c}" for j, c in enumerate(cols)])
    frame.insert(0, row_header, [f"{i + 1}:{r}" for i, r in enumerate(rows)])
    return frame.to_csv(index=False)


def dims(n: int) -> tuple[str, ...]:
    return tuple(str(i + 1) for i in range(n))


def chart(matrix: NDArray, rows: tuple[str, ...], cols: tuple[str, ...], *, kind: str, title: str, key: str,
          values: bool, cols_are: str = "dimension", rows_are: str = "token", **how: object) -> None:
    """Draw one cached heatmap, described once (``plot.heatmap``: its texts in this run's language, at this run's chart
    font, both taken from the run: ``page.start_run``); numbers in cells only when asked for and readable. ``how``: the
    description's other fields, e.g. ``outline``, ``column_groups``, ``decimals``, ``ink`` (image, level: the image's
    outline over the cells, an attention map over the digit it looks at), ``zmax`` (the weights' colour range)."""
    draw(plot.heatmap(np.asarray(matrix), rows, cols, T=run_texts(), kind=kind, title=title, rows_are=rows_are, cols_are=cols_are,
                      numbers=values, font=run_font(), **how), key)


def draw(heatmap: figures.Heatmap, key: str) -> None:
    """Send the heatmap as its cached JSON with its text alternative, and keep its matrix for the page's CSV."""
    send(cache.heatmap(heatmap), key, alt=heatmap.alt)
    shown_matrices().append((heatmap.title, heatmap.values, heatmap.rows, heatmap.cols))


def all_matrices_csv(matrices: list, row_header: str = "row") -> str:
    """Every matrix of the page as CSV blocks, each headed by a '# title' line (the title's words, without the line breaks
    a chart's title may have) and separated by a blank line."""
    return "\n".join(f"# {plot.untagged(title)}\n{matrix_csv(matrix, rows, cols, row_header)}" for title, matrix, rows, cols in matrices)


CSV_IN_PAGE = "csv_button_drawn_in_the_page"


def csv_name(*parts: object) -> str:
    """The download's file name from what it holds, e.g. ``attention-walkthrough-softmax.csv``."""
    words = "-".join(str(part) for part in parts if part not in (None, ""))
    return "attention-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in words).strip("-") + ".csv"


def download_matrices(T: Texts, name: str, key: str = "csv-all", in_page: bool = False) -> None:
    """One button that downloads every matrix shown on the page as CSV, in the file ``name`` (built only when clicked,
    from the list itself: a part of the page that reran alone has replaced its own matrices in it). ``in_page``: a part
    draws it (its name follows the part's step) and the sidebar's is left out."""
    matrices = shown_matrices()
    if in_page:
        st.session_state[CSV_IN_PAGE] = True
    if matrices:
        st.download_button(T("common.labels.csv"), lambda: all_matrices_csv(matrices, T("common.labels.row")), file_name=name,
                           mime="text/csv", key=key, on_click="ignore", icon=":material/download:", help=T("common.labels.csv_help"))


def fixed(values: NDArray, decimals: int = 4) -> NDArray:
    """Numbers as table text with a fixed number of decimals, a true minus sign and −∞."""
    return figures.cell_text(np.asarray(values, dtype=float), decimals)


def token_chips(tokens: tuple[str, ...]) -> str:
    """HTML of the tokens as numbered chips; token text is escaped, so it is always shown as text."""
    chips = "".join(
        f'<span class="token-chip"><sup>{i + 1}</sup>{figures.label(token)}</span>' for i, token in enumerate(tokens)
    )
    style = (
        "<style>.token-chips{display:flex;flex-wrap:wrap;gap:6px;margin:4px 0 12px}"
        ".token-chip{border:1px solid #8884;border-radius:6px;padding:2px 8px;font-size:1.05rem}"
        ".token-chip sup{color:#888;margin-right:4px}</style>"
    )
    return f'{style}<div class="token-chips">{chips}</div>'
