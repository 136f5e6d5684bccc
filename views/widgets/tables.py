"""A read-only table that is read whole: an HTML <table> named by its <caption>, every row in the page (a virtualized
grid gives a screen reader only the rows on screen, and Streamlit's grid speaks its own English and 17-digit floats).

Cells are text as the screen shows them (format numbers before): what is seen is what is read. A table wider or longer
than its box scrolls inside it; the box is a named, focusable region, so a keyboard can scroll it too.
"""

from __future__ import annotations

import html
from collections.abc import Collection

import pandas as pd
import streamlit as st


def table_html(frame: pd.DataFrame, caption: str, *, row_headers: int = 0, numbers: Collection[str] = (),
               shares: Collection[str] = (), height: int | None = None) -> str:
    """``frame`` (cells already formatted as text) as HTML. ``row_headers``: how many leading columns name the row (they
    stay in sight while a phone scrolls sideways); ``numbers``: right-aligned columns; ``shares``: columns whose text is
    a share in [0, 1], drawn with a bar behind it as well; ``height``: the box's largest height in px (it scrolls)."""
    columns = list(frame.columns)

    def cell(i: int, name: str, value: object) -> str:
        classes = " ".join(c for c, on in (("number", name in numbers or name in shares), ("share", name in shares),
                                           (f"pinned pinned-{i}", i < row_headers)) if on)
        style = ""
        if name in shares:
            try:
                style = f' style="--share: {100 * min(max(float(str(value)), 0.0), 1.0):.0f}%"'
            except ValueError:
                style = ""
        tag = 'th scope="row"' if i < row_headers else "td"
        return f'<{tag} class="{classes}"{style}>{html.escape(str(value))}</{tag.split()[0]}>'

    def header(i: int, name: str) -> str:
        classes = " ".join(c for c, on in ((f"pinned pinned-{i}", i < row_headers), ("number", name in numbers or name in shares)) if on)
        return f'<th scope="col" class="{classes}">{html.escape(str(name))}</th>'

    head = "".join(header(i, name) for i, name in enumerate(columns))
    body = "".join("<tr>" + "".join(cell(i, name, value) for i, (name, value) in enumerate(zip(columns, row))) + "</tr>"
                   for row in frame.itertuples(index=False, name=None))
    limit = f' style="max-height: {height}px"' if height else ""
    name = html.escape(caption)
    return (f'<div class="named-table" role="region" tabindex="0" aria-label="{name}"{limit}><table>'
            f"<caption>{name}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")


def named_table(frame: pd.DataFrame, caption: str, **options) -> None:
    """Draw ``table_html(frame, caption, **options)``."""
    st.html(table_html(frame, caption, **options))
