"""The whole trace of a view as JSON, and back: tokens, options and every intermediate.

JSON has no infinity: masked scores (-inf) are written as null and read back as -inf.
Format 2 names things as the code does ("options", "projections", each head's "divisor");
files of format 1 ("settings", "weights", "scale" = the same divisor) are still read.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields

import numpy as np

from attention_core.attention import AttentionTrace
from attention_core.explain import ExplainOptions, Explanation, explain
from attention_core.multihead import MultiHeadTrace, Projections

FORMAT = "attention-explainer/trace/2"
OLD_FORMATS = ("attention-explainer/trace/1",)  # read, never written
_HEAD_ARRAYS = ("q", "k", "v", "raw_scores", "scaled_scores", "masked_scores", "weights", "output", "mask", "centres")
_OPTION_NAMES = frozenset(f.name for f in fields(ExplainOptions))


def _plain(array: np.ndarray | None) -> object:
    if array is None:
        return None
    if not np.issubdtype(array.dtype, np.floating):
        return array.tolist()
    values = array.astype(object)
    values[~np.isfinite(array)] = None  # JSON has no infinity or NaN
    return values.tolist()


def _nulls_to_nan(value: object) -> object:
    if isinstance(value, list):
        return [_nulls_to_nan(v) for v in value]
    return float("nan") if value is None else value


def to_json(e: Explanation) -> str:
    """Everything shown for one view: format, options, tokens, X, W_Q/W_K/W_V/W_O and every head's intermediates."""
    heads = []
    for head in e.trace.heads:
        item = {name: _plain(getattr(head, name)) for name in _HEAD_ARRAYS}
        item.update(divisor=head.divisor, score=head.score, mode=head.mode)
        heads.append(item)
    document = {
        "format": FORMAT,
        "options": asdict(e.options),
        "tokens": list(e.tokens),
        "context_tokens": list(e.context_tokens),
        "dropped": list(e.dropped),
        "token_vectors": _plain(e.token_vectors), "positional": _plain(e.positional), "x": _plain(e.x), "x_kv": _plain(e.x_kv),
        "projections": {f.name: _plain(getattr(e.projections, f.name)) for f in fields(Projections)},
        "heads": heads, "concat": _plain(e.trace.concat), "output": _plain(e.trace.output),
    }
    return json.dumps(document, allow_nan=False, ensure_ascii=False, default=lambda value: None)


def _array(value: object, dtype: type = np.float64) -> np.ndarray:
    return np.array(_nulls_to_nan(value), dtype=dtype)


def _options(stored: object) -> ExplainOptions:
    """ExplainOptions from the stored mapping; raises ValueError on names it does not know."""
    if not isinstance(stored, dict):
        raise ValueError("the trace's options must be a JSON object")
    unknown = sorted(set(stored) - _OPTION_NAMES)
    if unknown:
        raise ValueError(f"unknown options in the trace: {', '.join(unknown)}")
    return ExplainOptions(**stored)


def _head(item: dict) -> AttentionTrace:
    masked = _array(item["masked_scores"])
    mask = _array(item["mask"], bool)
    masked[~mask] = -np.inf
    return AttentionTrace(
        q=_array(item["q"]), k=_array(item["k"]), v=_array(item["v"]), raw_scores=_array(item["raw_scores"]),
        divisor=float(item["divisor"] if "divisor" in item else item["scale"]), scaled_scores=_array(item["scaled_scores"]),
        masked_scores=masked, weights=_array(item["weights"]), output=_array(item["output"]), mask=mask,
        score=item["score"], mode=item["mode"], centres=None if item["centres"] is None else _array(item["centres"], np.intp),
    )


def from_json(text: str) -> Explanation:
    """Read a trace written by ``to_json`` (format 2, or the older format 1); raises ValueError when it is not one."""
    try:
        document = json.loads(text)
    except (TypeError, ValueError) as error:
        raise ValueError(f"not a JSON trace: {error}") from None
    if not isinstance(document, dict) or document.get("format") not in (FORMAT, *OLD_FORMATS):
        raise ValueError(f"not a trace of this app (expected format {FORMAT})")
    new = document["format"] == FORMAT
    projections = Projections(**{name: _array(value) for name, value in document["projections" if new else "weights"].items()})
    heads = tuple(_head(item) for item in document["heads"])
    trace = MultiHeadTrace(heads=heads, concat=_array(document["concat"]), output=_array(document["output"]))
    return Explanation(
        tokens=tuple(document["tokens"]), context_tokens=tuple(document["context_tokens"]),
        token_vectors=_array(document["token_vectors"]), positional=_array(document["positional"]), x=_array(document["x"]),
        x_kv=_array(document["x_kv"]), projections=projections, trace=trace,
        options=_options(document["options" if new else "settings"]), dropped=tuple(document["dropped"]),
    )


def replay(text: str) -> Explanation:
    """Recompute a stored trace from its options with ``explain`` (random-projection views only)."""
    options = from_json(text).options
    if options.model is not None:
        raise ValueError("a pretrained model's trace is read back with from_json; replay needs the model")
    arguments = {name: value for name, value in asdict(options).items() if name not in ("text", "model", "layer")}
    return explain(options.text or "", **arguments)
