"""AppTest for the real model (all-MiniLM-L6-v2): every section and control, predict-then-reveal, a missing model,
and the numbers each section shows checked against the core."""

import numpy as np
import pytest
from conftest import REAL_SENTENCE, ROOT, SENTENCE, all_text, figure_titles, figures, open_app, payload, tables, z_values

from attention_core import inside
from attention_core.pretrained import ModelMissing, model_folder

REAL = "real"


def click(at, suffix):
    next(b for b in at.button if b.key and b.key.endswith(suffix)).click().run()


def test_predict_then_reveal_on_the_real_model():
    """Nothing about the head shows until the reveal: its heatmap, its lines, its tile of the overview, the summary."""
    at = open_app("real", text=SENTENCE, predict="1", query="3")
    assert not figures(at) and not tables(at) and "hidden until the reveal" in all_text(at)
    next(s for s in at.selectbox if s.key and s.key.endswith("-which")).set_value(1).run()
    click(at, "-reveal")
    assert not np.isnan(z_values(figures(at)[0])).any() and len(figures(at)) == 3 and tables(at)


def test_missing_model_is_reported(monkeypatch, tmp_path):
    monkeypatch.setenv("MINILM_DIR", str(tmp_path))
    with pytest.raises(ModelMissing):
        model_folder()
    at = open_app(REAL)
    assert "not installed" in "\n".join(e.value for e in at.error) and not figures(at)
    walk = open_app(walk="pretrained", step="3")
    assert "not installed" in "\n".join(w.value for w in walk.warning)
    assert payload(walk)[0]["variant"] == "random"  # random weights instead
    for page in ("types", "scaling"):
        assert figures(open_app(page))


def test_real_page_controls():
    at = open_app(REAL, text="The animal didn't cross the street because it was too tired.")
    assert "layer 1 head 3" in all_text(at)
    at.segmented_control(key="real.layer").set_value(3).run()
    at.select_slider(key="real.head").set_value(8).run()
    assert "Layer 3, head 8: weights" in figure_titles(at)
    at.toggle(key="real.hide").set_value(True).run()
    head = figures(at)[0]
    assert "[CLS]" not in head["layout"]["xaxis"]["ticktext"] and z_values(head).shape == (14, 14)
    assert (at.query_params["layer"], at.query_params["head"], at.query_params["hide"]) == ("3", "8", "1")
    assert len(tables(at)["What each head does, measured"]) == 72  # every head in the page, not the ten a grid shows


def test_real_page_chinese_and_long_input():
    at = open_app(REAL, text="她正在吃一个绿色的苹果", lang="zh")
    assert "用英文训练" in all_text(at)
    long = open_app(REAL, text="word " * 300)
    assert "were cut" in all_text(long)


def ticks(spec: dict, axis: str) -> list[str]:
    return [str(t) for t in spec["layout"][axis].get("ticktext", [])]


def test_every_section_draws_its_numbers_from_the_core_in_both_languages(model, trace):
    from conftest import all_text, figure_titles, open_app, tables

    from views.shell.registry import REAL_SECTIONS

    for lang in ("en", "zh"):
        for section in REAL_SECTIONS:
            at = open_app("real", section=section, lang=lang, text=REAL_SENTENCE)
            assert at.query_params["section"] == section and (figure_titles(at) or tables(at)), (section, lang)
    at = open_app("real", section="layer", layer=3, stage=2, text=REAL_SENTENCE)
    share = inside.layer_stages(model, trace.inputs[2], 2).attention_share
    assert f"In layer 3, attention writes **{share:.0%}** of the update and the feed-forward part **{1 - share:.0%}**" in all_text(at)
    assert figure_titles(at)[0] == "A = Concat(heads) W_O + b_O (layer 3)"
    shares = inside.sink_shares(trace)
    at = open_app("real", section="sinks", text=REAL_SENTENCE)
    assert f"put {shares['cls'][0].mean():.0%} of their weight on [CLS]" in all_text(at)
    np.testing.assert_allclose(z_values(figures(at)[0]), shares["cls"], atol=1e-9)
    found = inside.spread(model, trace)
    at = open_app("real", section="scaling", text=REAL_SENTENCE)
    assert at.table[0].value.iloc[0, 1] == f"{np.median(found.raw):.2f}"
    assert f"without it the softmax's largest weight would have a median over the heads of {np.median(found.top_raw):.2f}" in all_text(at)
    assert at.table[0].value.iloc[4, 1] == f"{np.median(found.top_raw):.2f}"  # the sentence's number is the table's


def test_the_sink_switch_renormalises_every_attention_chart_of_a_section():
    """“Hide [CLS] and [SEP]”: gone from the rows and columns of every attention chart, and each row still sums to 1."""
    from conftest import open_app

    for section, charts in (("heads", 1), ("moved", 1), ("random", 2)):
        at = open_app("real", section=section, hide=1, text=REAL_SENTENCE)
        weights = [spec for spec in figures(at) if "[CLS]" not in ticks(spec, "xaxis") and ticks(spec, "xaxis")[:1] == ["the"]]
        assert len(weights) >= charts, section
        for spec in weights[:charts]:
            assert "[SEP]" not in ticks(spec, "yaxis")
            np.testing.assert_allclose(z_values(spec).sum(axis=1), 1.0, atol=1e-9)
        shown = open_app("real", section=section, text=REAL_SENTENCE)
        assert any("[CLS]" in ticks(spec, "xaxis") for spec in figures(shown)), section


def test_the_built_in_sentences_correlations_are_reproduced(model):
    """assets/snapshots/importance.json, recomputed for three of its sentences; the page's means are the file's."""
    import json

    from conftest import all_text, open_app, tables

    stored = json.loads((ROOT / "assets" / "snapshots" / "importance.json").read_text())
    assert stored["sentences"] == list(inside.BUILT_IN) and len(stored["sentences"]) >= 20
    again = inside.correlations(model, inside.BUILT_IN[:3])
    for measure in inside.MEASURES:
        np.testing.assert_allclose(again[measure], stored["spearman"][measure][:3], atol=1e-6)
    at = open_app("real", section="importance", text=REAL_SENTENCE)
    means = {m: np.nanmean(stored["spearman"][m]) for m in inside.MEASURES}
    assert (f"Over the {len(stored['sentences'])} built-in sentences, mean ρ: raw attention {means['attention']:.2f}, "
            f"rollout {means['rollout']:.2f}, flow {means['flow']:.2f}.") in all_text(at)
    best = max(means, key=means.get)
    assert f"On the set, {dict(attention='raw attention').get(best, best)} agrees best" in all_text(at)
    found = inside.importance(model, model.run(REAL_SENTENCE), REAL_SENTENCE)
    table = tables(at)["Each word's importance by the four measures"]
    np.testing.assert_allclose(table.iloc[:, 1].to_numpy(dtype=float), found.leave_one_out, atol=5e-5)  # as shown: 4 decimals


def test_a_click_on_a_tile_of_the_overview_opens_that_head():
    """The overview's tiles each hold a point (layer, head); a click selects it and the callback opens that head."""
    from conftest import open_app

    from views import real

    at = open_app("real", text=REAL_SENTENCE)
    overview = figures(at)[2]
    targets = overview["data"][1]
    assert len(targets["customdata"]) == 72 and targets["customdata"][4 * 12 + 7] == [5, 8]
    import streamlit as st

    class FakeView:
        def key(self, name: str) -> str:
            return f"real.{name}"

    st.session_state.clear()
    st.session_state["overview-pick"] = {"selection": {"points": [{"customdata": [5, 8]}]}}
    real.open_tile(FakeView())
    assert st.session_state["real.layer"] == 5 and st.session_state["real.head"] == 8


def test_weight_and_share_of_what_arrives_are_compared_cell_by_cell(model, trace):
    """The moved map's rows sum to 1 like α's (hiding the specials leaves the shares as the renormalised weights would);
    the page names exactly the cells with α_ij ≥ 0.2 and a share of what arrives at most half of α_ij, as a loop finds them."""
    from conftest import all_text, open_app

    from attention_core.pretrained import without_specials
    from attention_plot.figures import plain
    from attention_plot.plot import token_name

    layer, head = 0, 0
    weights, moved = inside.moved_norms(model, trace.inputs[layer], layer, head)
    shares = inside.arriving_shares(moved)
    np.testing.assert_allclose(shares.sum(axis=1), 1.0)
    for i in range(len(trace.tokens)):
        for j in range(len(trace.tokens)):
            assert shares[i, j] == pytest.approx(moved[i, j] / sum(moved[i]))
    kept, renormalised = without_specials(weights, trace.tokens)
    np.testing.assert_allclose(inside.arriving_shares(renormalised * moved[np.ix_(kept, kept)] / weights[np.ix_(kept, kept)]),
                               inside.arriving_shares(moved[np.ix_(kept, kept)]))
    expected = [(i, j) for i in range(len(trace.tokens)) for j in range(len(trace.tokens))
                if weights[i, j] >= 0.2 and shares[i, j] <= weights[i, j] / 2]
    at = open_app("real", section="moved", layer=layer + 1, head=head + 1, text=REAL_SENTENCE)
    text = all_text(at)
    if expected:
        gaps = sorted(expected, key=lambda c: shares[c] - weights[c])
        assert "Large weight, little brought" in text
        shown = tuple(plain(t) for t in trace.tokens)
        for i, j in gaps[:4]:  # a repeated word with its position: “the” (5)
            assert f"{token_name(shown, i)} → {token_name(shown, j)}" in text
    else:
        assert "no cell with 20 % of its row's weight" in text
    np.testing.assert_allclose(z_values(figures(at)[-1]), shares, atol=1e-9)


def test_hiding_cls_and_sep_keeps_the_same_query_word():
    """The query's number changes when [CLS] goes ([CLS] the cat … → the cat …): its word stays."""
    from conftest import open_app

    at = open_app("real", section="heads", text="the cat sat on the mat", query=3)  # 3 · cat, with [CLS] shown
    assert at.selectbox(key="real.query").format_func(at.selectbox(key="real.query").value).endswith("cat")
    at.toggle(key="real.hide").set_value(True).run()
    query = at.selectbox(key="real.query")
    assert query.value == 2 and query.format_func(query.value).endswith("cat")
    at.toggle(key="real.hide").set_value(False).run()
    query = at.selectbox(key="real.query")
    assert query.value == 3 and query.format_func(query.value).endswith("cat")
