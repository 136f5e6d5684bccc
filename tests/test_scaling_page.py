"""AppTest for the scaling lab: every control, the memory refusal, the tables and the downloads."""

import numpy as np
import pytest
from conftest import all_text, figure_titles, figures, open_app

from attention_core import sweep

LAB = "scaling"


def test_defaults_show_measured_against_theory():
    at = open_app(LAB)
    metrics = {m.label: m for m in at.metric}
    assert abs(float(metrics["standard deviation, raw"].value) - 8.0) < 0.3  # sqrt(64)
    assert abs(float(metrics["standard deviation, scaled"].value) - 1.0) < 0.05
    titles = figure_titles(at)
    assert "mean entropy of the weights (bits)" in titles and "mean gradient reaching the non-winning keys, ∂a_j/∂s_j" in titles
    textbook = at.table[1].value
    assert list(textbook.iloc[:, 1]) == ["0.99999989", "1.13e-07"] and list(textbook.iloc[:, 2]) == ["0.8808", "0.1192"]
    assert len([b for b in at.get("download_button") if "csv-all" not in b.proto.id]) == 5


def test_every_control_and_the_url():
    at = open_app(LAB)
    at.select_slider(key="scaling.d_k").set_value(1024).run()
    assert "Measured at d_k = 1024: with scaling the non-winning keys receive" in all_text(at) and "× more gradient" in all_text(at)
    entropy = figures(at)[figure_titles(at).index("mean entropy of the weights (bits)")]
    assert entropy["layout"]["shapes"][0]["x0"] == 1024
    at.select_slider(key="scaling.n_keys").set_value(8).run()
    at.select_slider(key="scaling.samples").set_value(500).run()
    at.select_slider(key="scaling.temperature").set_value(4.0).run()
    assert not at.exception
    params = at.query_params
    assert (params["d_k"], params["n_keys"], params["samples"], params["temperature"]) == ("1024", "8", "500", "4")
    assert "uniform weights over 8 keys" in all_text(at)


def test_settings_that_need_too_much_memory_are_refused():
    at = open_app(LAB, n_keys="512", samples="50000")
    assert "more than the 200 MB" in "\n".join(e.value for e in at.error)
    assert not figures(at)


def test_chinese_and_tampered_url():
    at = open_app(LAB, lang="zh", d_k="99", n_keys="x")
    text = all_text(at)
    assert "缩放实验室" in text and "Scaling lab" not in text
    assert any("d_k = 99" in w.value.replace("\\", "") and "128" in w.value for w in at.warning)
    weights = np.array([float(v) for v in at.table[0].value.iloc[1, 1:]])
    assert np.all(np.abs(weights - 1) < 0.1)


@pytest.mark.parametrize("d_k", [1, 4, 64, 4096])
def test_every_sentence_agrees_with_the_numbers_on_the_page(d_k):
    """The comparisons the lab states are computed from its own measurements, so they can never contradict its charts."""
    at = open_app(LAB, d_k=str(d_k))
    text = all_text(at).replace("\\", "")
    result = sweep(64, 2000, seed=0)
    i = list(result.d_k).index(d_k)
    raw, scaled = result.raw_loser_gradient[i], result.scaled_loser_gradient[i]
    if scaled / raw >= 1.05:
        expected = f"with scaling the non-winning keys receive {scaled / raw:.1f}× more gradient"
    elif scaled / raw <= 1 / 1.05:
        expected = f"with scaling the non-winning keys receive {raw / scaled:.1f}× less gradient"
    else:
        expected = "receive about the same gradient with and without scaling"
    assert expected in text, (d_k, expected)
    assert f"largest weight is {result.raw_max_weight[i]:.2f} on average without scaling and {result.scaled_max_weight[i]:.2f}" in text
    assert "not yet large enough" not in text


def test_log_axes_are_labelled_by_decades():
    for spec in figures(open_app(LAB)):
        for axis in ("xaxis", "yaxis"):
            if spec["layout"].get(axis, {}).get("type") == "log":
                assert spec["layout"][axis]["dtick"] == 1
