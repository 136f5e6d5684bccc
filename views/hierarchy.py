"""Hierarchical attention shown as text: each word shaded by its weight, each sentence by its weight."""

from __future__ import annotations

from attention_core import HierarchicalTrace
from attention_plot.figures import ink, label

STYLE = (
    "<style>.han{font-size:1.1rem;line-height:2.4}.han-row{display:flex;gap:12px;align-items:baseline;margin:4px 0}"
    ".han-sentence-weight{min-width:5.5em;font-variant-numeric:tabular-nums;padding:0 6px;border-radius:4px}"
    ".han-word{display:inline-block;padding:0 4px;margin:1px;border-radius:4px;text-align:center}"
    ".han-word small{display:block;font-size:.7rem;line-height:1}</style>"
)


LIGHT, DARK = (247, 251, 255), (8, 48, 107)  # the ends of the weights' colour scale (ColorBrewer Blues)


def shade(weight: float) -> str:
    """An opaque light-to-dark blue background for a weight in [0, 1], with black or white text, whichever contrasts
    more with it (at least 4.58:1, in the light and the dark theme alike)."""
    t = max(0.0, min(1.0, weight))
    r, g, b = (round(lo + (hi - lo) * t) for lo, hi in zip(LIGHT, DARK))
    return f"background:rgb({r},{g},{b});color:{ink((r, g, b))}"


def document_html(trace: HierarchicalTrace, sentence_label: str) -> str:
    """Each sentence on a row: its weight in the document, then its words shaded by their weight in the sentence.

    Word shades are relative to the sentence's largest weight so each row reads at a glance;
    the exact weight is printed under every word. All text is escaped.
    """
    rows = []
    for i, (tokens, pool) in enumerate(zip(trace.tokens, trace.words)):
        top = max(float(pool.weights.max()), 1e-12)
        words = "".join(
            f'<span class="han-word" style="{shade(w / top)}" title="{label(t)}: {w:.4f}">{label(t)}<small>{w:.3f}</small></span>'
            for t, w in zip(tokens, pool.weights)
        )
        weight = float(trace.document.weights[i])
        rows.append(
            f'<div class="han-row"><span class="han-sentence-weight" style="{shade(weight)}" '
            f'title="{label(sentence_label)} {i + 1}">{i + 1}: {weight:.3f}</span><span>{words}</span></div>'
        )
    return STYLE + '<div class="han">' + "".join(rows) + "</div>"
