"""AppTest for the scaling lab: every control, the memory refusal, the tables and the downloads."""

import numpy as np
import pytest
from conftest import all_text, figure_titles, figures, open_app

from attention_core import sample_raw_scores, sweep

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


def independent_divisors(n_keys: int, samples: int, seed: int) -> dict[str, dict[str, float]]:
    """Section 6's numbers computed again here: the same draw (d_k = 512 / 8 = 64), softmax written out, and the
    gradient reaching the non-winning keys, mean over j != argmax of a_j (1 - a_j)."""
    raw = sample_raw_scores(64, n_keys, samples, np.random.default_rng(seed))
    result = {}
    for name, divisor in (("none", 1.0), ("right", 8.0), ("wrong", 512**0.5)):
        scores = raw / divisor
        e = np.exp(scores - scores.max(axis=1, keepdims=True))
        a = e / e.sum(axis=1, keepdims=True)
        own = a * (1 - a)
        losers = (own.sum(axis=1) - own[np.arange(samples), a.argmax(axis=1)]) / (n_keys - 1)
        entropy = -(np.where(a > 0, a * np.log2(np.where(a > 0, a, 1)), 0)).sum(axis=1)
        result[name] = {"spread": scores.std(), "max": a.max(axis=1).mean(), "losers": losers.mean(), "entropy": entropy.mean()}
    return result


@pytest.mark.parametrize("n_keys", [2, 64, 512])
def test_the_sqrt_d_model_section_ranks_by_the_gradient_it_argues_for_and_says_what_the_numbers_show(n_keys):
    """Section 6 judges the divisors by the gradient reaching the non-winning keys (section 4's measure, not the
    Jacobian norm its expander calls misleading), and every claim in its text follows from the numbers."""
    at = open_app(LAB, n_keys=str(n_keys))
    text = all_text(at).replace("\\", "")
    got = independent_divisors(n_keys, 2000, 0)
    table = next(t.value for t in at.table if "mean gradient reaching the non-winning keys" in t.value.columns)
    assert list(table["mean gradient reaching the non-winning keys"]) == [f"{got[n]['losers']:.3g}" for n in ("none", "right", "wrong")]
    assert list(table.iloc[:, 1]) == [f"{got[n]['spread']:.3f}" for n in ("none", "right", "wrong")]
    assert "gradient norm" not in " ".join(table.columns) and "shrink again" not in text
    closest = min(got, key=lambda n: abs(got[n]["spread"] - 1))
    assert closest == "right" and "closest to 1 is ÷ √d_k (" in text
    order = sorted(got, key=lambda n: -got[n]["losers"])
    label = {"none": "no scaling", "right": "÷ √d_k", "wrong": "÷ √d_model"}
    ranking = text.split("Ranked by the gradient reaching the non-winning keys: ")[1].split(". ")[0]
    assert [ranking.index(f"{label[n]} (") for n in order] == sorted(ranking.index(f"{label[n]} (") for n in order)
    ratio = got["wrong"]["losers"] / got["right"]["losers"]
    if ratio >= 1.05:
        assert f"receive {ratio:.1f}× more than with ÷ √d_k" in text and "does not make the gradient vanish" in text
    elif ratio <= 1 / 1.05:
        assert f"receive {1 / ratio:.1f}× less than with ÷ √d_k" in text
    else:
        assert "receive about as much as with ÷ √d_k" in text and "does not make the gradient vanish" in text
    assert got["none"]["losers"] < got["right"]["losers"] / 1.05 and ranking.endswith(f"no scaling ({got['none']['losers']:.3g})")
    assert got["wrong"]["entropy"] > got["right"]["entropy"]  # "closer to uniform"
    assert f"entropy {got['wrong']['entropy']:.2f} bits against {got['right']['entropy']:.2f}" in text
    assert "must grow 2.83×" in text  # sqrt(512) / sqrt(64) = sqrt(8)


@pytest.mark.parametrize("d_k", ["64", "4096"])
def test_the_raw_and_scaled_histograms_share_one_axis(d_k):
    """On one x axis (the raw scores' reach) the scaled histogram is visibly the narrower: at d_k = 4096 its bars span
    under 3 % of the axis. On their own axes the two bell curves looked the same (a helper at the projector)."""
    at = open_app(LAB, d_k=d_k)
    raw, scaled = (next(f for f in figures(at) if f["layout"]["title"]["text"].startswith(name)) for name in ("raw q", "scaled q"))
    assert raw["layout"]["xaxis"]["range"] == scaled["layout"]["xaxis"]["range"]
    low, high = raw["layout"]["xaxis"]["range"]
    assert low == -high and high >= max(abs(x) for x in raw["data"][0]["x"])
    span = (max(scaled["data"][0]["x"]) - min(scaled["data"][0]["x"])) / (high - low)
    assert span < (0.2 if d_k == "64" else 0.03), span
