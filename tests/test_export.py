"""The JSON trace round trip: written, read back, replayed, with the same numbers."""

import json

import numpy as np
import pytest

from attention_core import explain, from_json, replay, to_json


def assert_same(a, b):
    assert a.tokens == b.tokens and a.context_tokens == b.context_tokens
    for name in ("token_vectors", "positional", "x", "x_kv"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    for name in ("w_q", "w_k", "w_v", "w_o"):
        np.testing.assert_array_equal(getattr(a.weights, name), getattr(b.weights, name))
    for ha, hb in zip(a.trace.heads, b.trace.heads, strict=True):
        for name in ("q", "k", "v", "raw_scores", "scaled_scores", "masked_scores", "weights", "output", "mask"):
            np.testing.assert_array_equal(getattr(ha, name), getattr(hb, name))
        assert ha.scale == hb.scale
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
