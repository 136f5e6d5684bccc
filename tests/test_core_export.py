"""The JSON trace round trip: written, read back, replayed, with the same numbers."""

import dataclasses
import json

import numpy as np
import pytest

from attention_core import ExplainOptions, explain, from_json, replay, to_json


def assert_same(a, b):
    assert a.tokens == b.tokens and a.context_tokens == b.context_tokens
    for name in ("token_vectors", "positional", "x", "x_kv"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    for name in ("w_q", "w_k", "w_v", "w_o"):
        np.testing.assert_array_equal(getattr(a.projections, name), getattr(b.projections, name))
    for ha, hb in zip(a.trace.heads, b.trace.heads, strict=True):
        for name in ("q", "k", "v", "raw_scores", "scaled_scores", "masked_scores", "weights", "output", "mask"):
            np.testing.assert_array_equal(getattr(ha, name), getattr(hb, name))
        assert ha.divisor == hb.divisor
    np.testing.assert_array_equal(a.trace.output, b.trace.output)


@pytest.mark.parametrize("options", [{}, {"heads": 3, "score": "cosine"}, {"mode": "local", "window": 1, "causal": True},
                                     {"context": "我是一个学生", "score": "additive"}])
def test_round_trip_reproduces_every_number(options):
    e = explain("the cat sat on the mat", **options)
    text = to_json(e)
    json.loads(text)  # valid JSON: no NaN or Infinity literals
    assert "Infinity" not in text
    assert_same(from_json(text), e)
    assert_same(replay(text), e)


def test_bad_json_is_refused_with_a_message():
    with pytest.raises(ValueError, match="not a JSON trace"):
        from_json("{oops")
    with pytest.raises(ValueError, match="not a trace of this app"):
        from_json('{"format": "something else"}')


def as_format_1(text):
    """A format-2 trace rewritten with the names of format 1: settings, weights, and each head's scale."""
    document = json.loads(text)
    document["format"] = "attention-explainer/trace/1"
    document["settings"] = document.pop("options")
    document["weights"] = document.pop("projections")
    for head in document["heads"]:
        head["scale"] = head.pop("divisor")
    return json.dumps(document)


def test_files_of_format_1_are_still_read():
    e = explain("the cat sat on the mat", heads=2, score="cosine", causal=True)
    old = as_format_1(to_json(e))
    assert_same(from_json(old), e)
    assert from_json(old).options == e.options
    assert_same(replay(old), e)


def test_options_are_a_frozen_typed_record():
    e = explain("the cat sat", d_k=3, heads=2, positions=False, temperature=0.5)
    assert e.options == ExplainOptions(text="the cat sat", d_k=3, d_v=3, heads=2, positions=False, temperature=0.5)
    assert from_json(to_json(e)).options == e.options
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.options.heads = 3  # type: ignore[misc]
    document = json.loads(to_json(e))
    assert document["options"]["heads"] == 2 and "settings" not in document
    document["options"]["colour"] = "red"
    with pytest.raises(ValueError, match="unknown options in the trace: colour"):
        from_json(json.dumps(document))


def test_a_pretrained_layer_round_trips_but_does_not_replay(model):
    from attention_core.pretrained import PACKAGE

    e = model.explanation(model.run("the cat sat"), 1)
    assert (e.options.model, e.options.layer, e.options.heads, e.options.d_v) == (PACKAGE, 1, 12, 32)
    text = to_json(e)
    assert_same(from_json(text), e)
    assert from_json(text).options == e.options
    with pytest.raises(ValueError, match="replay needs the model"):
        replay(text)
