"""Compare mode's packing: two walks of the same sentence (A and B) as one step component's steps, side by side.

A's steps are packed as in a single walk; B's into a pack of their own, then moved into A's (``absorb``: its matrices
named ``b-<id>``). Each step then shows A's and B's blocks as two columns (side by side on a screen, one above the
other on a phone: the component's rows), preceded by the numbers that changed the story for the focused word
(``attention_core.compare``: spread, largest weight, entropy, weight moved, distance), computed here for every head and
word so that the browser picks them without asking, and followed, where the shapes agree, by B − A.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from attention_core.compare import head_measures, row_distance, weight_moved
from attention_plot.text import Texts
from views.shell.page import Layout
from views.widgets import steps
from views.widgets.walk import STEPS, Walk, note, pack_steps, steps_for

B = "b-"  # B's matrices' ids: "b-raw.1"
# The matrix whose B − A a step shows: its name (ids "diff-<name>.<head>", texts) and the trace's field.
DIFFERENCES = {"raw": ("raw", "raw_scores"), "scaled": ("scaled", "scaled_scores"), "softmax": ("weights", "weights"),
               "output": ("output", "output")}


def pack_compare(pack: steps.Pack, a: Walk, b: Walk, T: Texts, layout: Layout, labels: tuple[str, str], look: str | None = None) -> None:
    """Both walks into ``pack``: A's and B's steps zipped by name (a step only one side has says so on the other),
    every matrix titled with its side ("A · Raw scores"), the contrast of each step and, on a screen, B − A; ``look``:
    a preset's "what to look for" (the text's key), shown above the steps."""
    names_a, names_b = steps_for(a), steps_for(b)
    pack_steps(pack, a, names_a, T, layout, focus=False)
    steps_a = {step["id"]: step for step in pack.header["steps"]}
    other = steps.Pack(T)
    pack_steps(other, b, names_b, T, layout, focus=False)
    steps_b = {step["id"]: renamed(step, B, len(b.heads)) for step in other.header["steps"]}
    for id_, step in steps_a.items():
        steps_a[id_] = renamed(step, "", len(a.heads))
    for entry in {id(entry): entry for entry in pack.matrices.values()}.values():  # masked.h may be scaled.h itself
        entry["title"] = f"{labels[0]} · {entry['title']}"
    absorb(pack, other, B, labels[1])
    shared_ranges(pack)
    pack.header.update(heads=max(len(a.heads), len(b.heads)), compare={"a": labels[0], "b": labels[1]})
    if look:
        pack.header["compare"]["look"] = steps.markdown(T("walkthrough.compare.look_for", text=T(look)))
    pack.header["steps"] = [
        zipped(pack, name, steps_a.get(name), steps_b.get(name), a, b, T, layout, labels)
        for name in STEPS if name in names_a or name in names_b
    ]


def renamed(step: dict[str, Any], prefix: str, heads: int) -> dict[str, Any]:
    """A step's blocks with each matrix named ``prefix + id`` and, per head, the side's head count (the browser shows
    its last head where the view's head is beyond it); no sums beside the weights (the contrast says the row's numbers);
    a row's blocks one under another: a side is half the width (three matrices in a row cut their numbers to "−0")."""

    def block(entry: dict[str, Any]) -> dict[str, Any]:
        if entry["type"] == "matrix":
            return {**{k: v for k, v in entry.items() if k != "sums"}, "matrix": prefix + entry["matrix"], "heads": heads}
        return entry

    def flat(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [inner for entry in blocks for inner in (flat(entry["children"]) if entry["type"] == "row" else [entry])]

    return {**step, "blocks": [block(entry) for entry in flat(step["blocks"])]}


def absorb(pack: steps.Pack, other: steps.Pack, prefix: str, label: str) -> None:
    """``other``'s matrices and numbers into ``pack``: ids prefixed, titles naming ``label``, offsets moved past
    ``pack``'s numbers."""
    shift = pack.size
    pack.values += other.values
    pack.size += other.size
    for id_, entry in other.matrices.items():
        moved = {**entry, "offset": entry["offset"] + shift, "title": f"{label} · {entry['title']}"}
        if "arithmetic" in entry:
            sums = entry["arithmetic"]
            moved["arithmetic"] = {"query": prefix + sums["query"], "key": prefix + sums["key"],
                                   "places": {**sums["places"], "offset": sums["places"]["offset"] + shift}}
        pack.matrices[prefix + id_] = moved


UNTURNED = {"qx": "q", "kx": "k"}  # RoPE's Q and K before the turn: one scale with the Q and K beside them


def shared_ranges(pack: steps.Pack) -> None:
    """Every head of A's and B's matrix of one name on one colour scale, the widest of them: the same colour is the
    same number on both sides, whichever heads are shown (B's unscaled scores, 8 times as wide, beside A's pale ones)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for id_, entry in {id(entry): (id_, entry) for id_, entry in reversed(pack.matrices.items())}.values():
        name, _, head = id_.removeprefix(B).rpartition(".")
        name = UNTURNED.get(name, name) if head.isdigit() else id_.removeprefix(B)
        groups.setdefault((name, entry["kind"]), []).append(entry)
    for entries in groups.values():
        low, high = min(e["range"][0] for e in entries), max(e["range"][1] for e in entries)
        for entry in entries:
            entry["range"] = [low, high]


def zipped(pack: steps.Pack, name: str, a: dict | None, b: dict | None, walk_a: Walk, walk_b: Walk, T: Texts,
           layout: Layout, labels: tuple[str, str]) -> dict[str, Any]:
    """One step of both walks: its title and explanation once, the formula and the notes once where both sides share
    them, then the contrast, A's and B's columns (on a projector the columns first), and B − A (or why it cannot be
    taken)."""
    first = a or b
    assert first is not None
    same = a is not None and b is not None and a.get("formula") == b.get("formula")
    entry = {key: first[key] for key in ("id", "title", "badge", "body")}
    if same and first.get("formula"):
        entry["formula"] = first["formula"]
    columns = [column(T, labels[0], a, not same), column(T, labels[1], b, not same)]
    shared = shared_notes(columns)
    contrast = contrast_block(pack, name, walk_a, walk_b, T, labels)
    # on a projector the two matrices come first, on the screen; the numbers that changed follow them
    blocks = [*shared, *([contrast] if contrast is not None and layout.explains else []), {"type": "row", "children": columns}]
    if contrast is not None and not layout.explains:
        blocks.append(contrast)
    if layout.explains and name in DIFFERENCES:
        blocks.append(difference(pack, *DIFFERENCES[name], walk_a, walk_b, T))
    return entry | {"blocks": blocks}


def shared_notes(columns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The notes both sides begin with, word for word ("Soft attention: every key gets some weight."), taken out of
    both columns to be said once above them."""
    first, second = columns[0]["blocks"], columns[1]["blocks"]
    count = 0
    while count < min(len(first), len(second)) and first[count]["type"] == "note" and first[count] == second[count]:
        count += 1
    columns[0]["blocks"], columns[1]["blocks"] = first[count:], second[count:]
    return first[:count]


def column(T: Texts, label: str, step: dict | None, own_formula: bool) -> dict[str, Any]:
    """One side of a step: its label (a heading), its formula where the sides differ, its blocks; a side without this
    step (one head: nothing to combine) says so."""
    if step is None:
        return {"type": "column", "label": label, "blocks": [note("walkthrough.compare.no_heads", T, tone="plain")]}
    entry = {"type": "column", "label": label, "blocks": step["blocks"]}
    if own_formula and step.get("formula"):
        entry["formula"] = step["formula"]
    return entry


def per_head(walk: Walk, measure) -> NDArray:
    """``measure(head)`` (a (n,) row of numbers) for every head of ``walk``: (heads, n)."""
    return np.stack([measure(head) for head in walk.heads])


def paired(a: Walk, b: Walk, pick, measure) -> NDArray | None:
    """``measure(pick(A's head), pick(B's head))`` per head, (heads, n), where both walks have as many heads and the
    matrices ``pick`` takes have one shape; else None."""
    if len(a.heads) != len(b.heads) or any(np.shape(pick(x)) != np.shape(pick(y)) for x, y in zip(a.heads, b.heads)):
        return None
    return np.stack([measure(pick(x), pick(y)) for x, y in zip(a.heads, b.heads)])


def contrast_block(pack: steps.Pack, name: str, a: Walk, b: Walk, T: Texts, labels: tuple[str, str]) -> dict[str, Any] | None:
    """The numbers of this step for the focused word in A and in B (and between them), as places in the payload: the
    browser takes the row of its head (the side's last where it has fewer) and word."""
    rows: list[dict[str, Any]] = []

    def sides(key: str, measure, decimals: int) -> None:
        rows.append({"label": T(f"walkthrough.compare.measures.{key}"), "decimals": decimals,
                     "a": pack.array(per_head(a, measure)), "b": pack.array(per_head(b, measure))})

    def between(key: str, values: NDArray | None, decimals: int) -> None:
        if values is not None:
            rows.append({"label": T(f"walkthrough.compare.measures.{key}"), "decimals": decimals, "both": pack.array(values)})

    if name == "raw":
        sides("raw_spread", lambda h: head_measures(h).raw_spread, 2)
    elif name == "scaled":
        sides("scaled_spread", lambda h: head_measures(h).scaled_spread, 2)
    elif name == "softmax":
        sides("largest", lambda h: head_measures(h).largest, 2)
        sides("entropy", lambda h: head_measures(h).entropy, 2)
        between("moved", paired(a, b, lambda h: h.weights, weight_moved), 2)
    elif name == "output":
        between("distance", paired(a, b, lambda h: h.output, row_distance), 2)
    elif name == "heads" and a.explanation is not None and b.explanation is not None and len(a.heads) > 1 and len(b.heads) > 1:
        outputs = a.explanation.trace.output, b.explanation.trace.output
        if outputs[0].shape == outputs[1].shape:
            between("distance_heads", row_distance(*outputs)[None, :], 2)
    if not rows:
        return None
    block = {"type": "contrast", "caption": T("walkthrough.compare.caption"), "columns": list(labels), "rows": rows,
             "tokens": list(a.tokens)}
    if a.tokens != b.tokens:
        block["b_rows"] = aligned_rows(a.tokens, b.tokens)
    return block


SPECIAL = ("[CLS]", "[SEP]")


def aligned_rows(a: tuple[str, ...], b: tuple[str, ...]) -> list[int]:
    """For each of A's rows, B's row of the same word (-1 where there is none): a real model's word pieces ("didn",
    "'", "t"; "##s" continuing a word; [UNK] for a whole word it cannot spell; [CLS] and [SEP] around them) against a
    sentence's words. A word is its first piece; a piece, the word it is part of."""
    if a == b:
        return list(range(len(a)))
    pieces_a = any(t in SPECIAL for t in a)
    words, pieces = (b, a) if pieces_a else (a, b)
    piece_word = [-1] * len(pieces)  # each piece's word
    j = 0
    for w, word in enumerate(words):
        built, target = "", word.lower()
        while j < len(pieces) and pieces[j] in SPECIAL:
            j += 1
        while j < len(pieces) and pieces[j] not in SPECIAL and len(built) < len(target):
            piece = pieces[j]
            built = target if piece == "[UNK]" else built + piece.removeprefix("##").lower()
            piece_word[j] = w
            j += 1
        if built != target:  # the two split the sentence otherwise from here: nothing further is paired
            piece_word = [p if p < w else -1 for p in piece_word]
            break
    if pieces_a:
        return piece_word
    first = {}
    for j, w in enumerate(piece_word):
        if w >= 0:
            first.setdefault(w, j)
    return [first.get(w, -1) for w in range(len(words))]


def difference(pack: steps.Pack, name: str, field: str, a: Walk, b: Walk, T: Texts) -> dict[str, Any]:
    """B − A of one matrix (the trace's ``field``), every head, on a diverging scale centred at 0, where both walks
    have the same tokens and as many heads of one shape; else a note saying why the two cannot be subtracted."""
    shapes = [np.shape(getattr(h, field)) for h in a.heads], [np.shape(getattr(h, field)) for h in b.heads]
    if shapes[0] != shapes[1] or a.tokens != b.tokens or a.key_tokens != b.key_tokens:
        said = lambda walk, found: f"{len(walk.heads)} × {' × '.join(map(str, found[0]))}"
        return note("walkthrough.compare.not_comparable", T, tone="plain", a=said(a, shapes[0]), b=said(b, shapes[1]))
    cols = tuple(str(i + 1) for i in range(shapes[0][0][1])) if name == "output" else b.key_tokens
    for h, (x, y) in enumerate(zip(a.heads, b.heads), 1):
        before, after = getattr(x, field), getattr(y, field)
        change = np.where(np.isfinite(before) & np.isfinite(after), after - before, np.nan)
        pack.matrix(f"diff-{name}.{h}", change, b.tokens, cols, title=T(f"walkthrough.compare.difference.{name}"),
                    kind="signed", rows_are="query", cols_are="dimension" if name == "output" else "key")
    return {"type": "matrix", "matrix": f"diff-{name}", "per_head": True, "hide": True, "heads": len(a.heads)}
