"""AppTest for the scaling lab: every control, the memory refusal, the tables and the downloads."""

import numpy as np
from conftest import all_text, figure_titles, figures, open_app

LAB = "scaling"


def test_defaults_show_measured_against_theory():
    at = open_app(LAB)
    metrics = {m.label: m for m in at.metric}
    assert abs(float(metrics["standard deviation, raw"].value) - 8.0) < 0.3  # sqrt(64)
    assert abs(float(metrics["standard deviation, scaled"].value) - 1.0) < 0.05
    titles = figure_titles(at)
    assert "mean entropy of the weights (bits)" in titles and "mean ‖∂softmax/∂scores‖ (log axis)" in titles
    textbook = at.table[1].value
    assert list(textbook.iloc[:, 1]) == ["0.99999989", "1.13e-07"] and list(textbook.iloc[:, 2]) == ["0.8808", "0.1192"]
    assert len([b for b in at.get("download_button") if "csv-all" not in b.proto.id]) == 5


def test_every_control_and_the_url():
    at = open_app(LAB)
    at.select_slider(key="scaling.d_k").set_value(1024).run()
    assert "d_k = 1024" in all_text(at) and "smaller than the scaled" in all_text(at)
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
