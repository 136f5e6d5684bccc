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


# --- A head over a corpus ---


def corpus_view(at) -> dict:
    """The section's numbers as the browser receives them: the grid, the scatter's points, the distribution."""
    found = figures(at)
    return {"grid": z_values(found[0]), "scatter": found[1], "distribution": found[2], "titles": [f["layout"]["title"]["text"] for f in found]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_corpus_section_shows_the_shipped_scores_in_both_languages(model, trace, lang):
    """The grid is the shipped corpus means; the scatter has 72 points and their table; the chosen head's percentile,
    verdicts and agreement are the core's; the top sentences are the core's top sentences, their weights the model's."""
    from conftest import all_text, open_app, plotly_array, tables

    from attention_core import corpus

    shipped = corpus.load_scores()
    agreed = corpus.agreement(shipped)
    at = open_app("real", section="corpus", text=REAL_SENTENCE, lang=lang, measure="same_word", versus="evenness", layer=3, head=10)
    assert {k: at.query_params[k] for k in ("corpus", "measure", "versus", "layer", "head")} == dict(
        corpus="built_in", measure="same_word", versus="evenness", layer="3", head="10")
    shown = corpus_view(at)
    np.testing.assert_allclose(shown["grid"], shipped.mean("same_word"), atol=1e-9)
    points = shown["scatter"]["data"]
    assert sum(len(plotly_array(t["x"])) for t in points[:6]) == 72 and points[2]["customdata"][9] == [3, 10]
    assert plotly_array(points[2]["x"])[9] == pytest.approx(shipped.mean("same_word")[2, 9])
    assert plotly_array(points[2]["y"])[9] == pytest.approx(shipped.mean("evenness")[2, 9])
    assert len(shown["scatter"]["layout"]["meta"]["numbers"]) == 73  # a header and 72 heads, for a screen reader
    table = next(t for caption, t in tables(at).items() if "72" in caption)
    assert len(table) == 72 and float(table.iloc[2 * 12 + 9, 2]) == pytest.approx(shipped.mean("same_word")[2, 9], abs=0.005)
    text = all_text(at)
    assert f"{agreed.rate:.1%}" in text and f"{agreed.agrees.size:,}" in text and f"{agreed.per_head[2, 9]:.0%}" in text
    *_, mask = corpus.sentence_units(model, REAL_SENTENCE)
    here = corpus.sentence_scores(trace.attentions, trace.tokens, mask)["same_word"][2, 9]
    stands = corpus.standing(shipped.score("same_word")[:, 2, 9], here)
    assert not stands.ties_most and stands.count == shipped.counted("same_word") == 245
    assert f"{here:.2f}" in text and (f"percentile {stands.percentile:.0f}" if lang == "en" else f"第 {stands.percentile:.0f} 百分位") in text
    assert ("Only sentences with a repeated word have this measure: 245 of the 417." if lang == "en"
            else "只有含重复词的句子才有这个度量：417 句中的 245 句。") in text  # why not all 417
    assert shown["titles"][0] == ("Mean weight on the same word elsewhere per head, over the 417 built-in sentences" if lang == "en"
                                  else "每个头的平均别处同词权重（内置的 417 句英文句子）")
    top = corpus.top_by_length(shipped.score("same_word")[:, 2, 9], corpus.length_bins(shipped.lengths))
    assert len(top) == 3
    for rank, index in enumerate(top):
        sentence = model.run(shipped.sentences[index])
        np.testing.assert_allclose(z_values(figures(at)[3 + rank]), sentence.attentions[2, 9], atol=1e-9)
    assert ("Layer 3, head 10" if lang == "en" else "第 3 层第 10 个头") in shown["titles"][3]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_corpus_verdicts_stand_beside_always_none_and_kappa_and_the_top_spans_the_lengths(lang):
    """The agreement beside what always answering "no verdict" scores, Cohen's κ and the agreement where the corpus
    names a pattern (the core's figures); "previous token" of layer 1 head 1: one top sentence from each third by
    length, not "Help!" three times over; one sample from each tenth of its distribution, as the core picks them."""
    from conftest import all_text, open_app, tables

    from attention_core import corpus
    from attention_plot.figures import plain

    shipped = corpus.load_scores()
    agreed = corpus.agreement(shipped)
    at = open_app("real", section="corpus", text=REAL_SENTENCE, lang=lang, measure="previous", layer=1, head=1)
    assert not at.exception
    text = all_text(at)
    printed = (agreed.rate, agreed.both_none, agreed.baseline, agreed.corpus_named_rate)
    assert [f"{v:.1%}" for v in printed] == ["83.8%", "43.0%", "51.4%", "83.9%"] and f"{agreed.kappa:.2f}" == "0.69"
    if lang == "en":
        assert "always answering “no verdict” would agree on **51.4%**" in text and "Cohen's κ is **0.69**" in text
        assert "Where the corpus names a pattern, one sentence names the same one **83.9%** of the time" in text
        assert "Its top sentence by weight on the previous token in each third of the corpus by length" in text
    else:
        assert "如果总是回答“无判定”，相同的比例就有 **51.4%**" in text and "Cohen κ 系数为 **0.69**" in text
        assert "no verdict" not in text and "pieces" not in text
    values = shipped.score("previous")[:, 0, 0]
    top = corpus.top_by_length(values, corpus.length_bins(shipped.lengths))
    said = [shipped.sentences[i] for i in top]
    assert said[0] == "Help!" and all(plain(sentence) in text for sentence in said) and shipped.lengths[top[1:]].min() >= 13
    samples = corpus.decile_samples(values)
    deciles = next(t for caption, t in tables(at).items() if "417" in caption and "72" not in caption)
    assert list(deciles.iloc[:, 3]) == [shipped.sentences[i] for i in samples] and len(deciles) == 10
    assert list(deciles.iloc[:, 1]) == [f"{values[i]:.2f}" for i in samples]
    assert deciles.iloc[0, 0] == ("0–10 %" if lang == "en" else "0–10%")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ("divide by all n queries", "count only “.” and “,”", "natural logarithm", "HeadVis", "a narrow task")),
    ("zh", ("除以全部 n 个查询", "只计入“.”和“,”", "自然对数", "HeadVis", "狭窄任务")),
])
def test_each_score_says_where_it_differs_from_clark_et_al_and_headvis_is_quoted_right(lang, said):
    """Beside the two scores in use, how each differs from Clark et al. 2019 (their n queries, their "." and ",", their
    nats); HeadVis's "a narrow task"."""
    from attention_plot.text import Texts

    T = Texts(lang)
    texts = []
    for measure, versus in (("previous", "punctuation"), ("entropy", "cls")):
        at = open_app("real", section="corpus", text=REAL_SENTENCE, lang=lang, measure=measure, versus=versus)
        assert not at.exception
        texts.append(all_text(at))
        assert all(T(f"corpus.clark.{name}").split("（")[0][:20] in texts[-1] for name in (measure, versus))
    assert all(any(words in text for text in texts) for words in said)
    assert "narrow example" not in texts[0] and "狭窄例子" not in texts[0]


def test_the_corpus_sections_controls_travel_in_the_link():
    from conftest import open_app

    at = open_app("real", section="corpus", text=REAL_SENTENCE)
    at.selectbox(key="real.measure").set_value("offset").run()
    at.selectbox(key="real.versus").set_value("entropy").run()
    at.segmented_control(key="real.layer").set_value(2).run()
    at.select_slider(key="real.head").set_value(9).run()
    link = dict(at.query_params)
    assert {k: link[k] for k in ("measure", "versus", "layer", "head")} == dict(measure="offset", versus="entropy", layer="2", head="9")
    again = open_app("real", **link)
    assert corpus_view(again)["titles"][:3] == corpus_view(at)["titles"][:3]
    np.testing.assert_allclose(corpus_view(again)["grid"], corpus_view(at)["grid"])
    clamped = open_app("real", section="corpus", text=REAL_SENTENCE, measure="nonsense", head="40")
    assert clamped.query_params["measure"] == "previous" and clamped.query_params["head"] == "12" and clamped.warning


def test_a_click_on_a_point_of_the_scatter_opens_that_head():
    import streamlit as st

    from views.real import corpus as section

    class FakeView:
        def key(self, name: str) -> str:
            return f"real.{name}"

    st.session_state.clear()
    st.session_state["corpus-scatter-pick"] = {"selection": {"points": [{"customdata": [4, 11]}]}}
    section.open_point(FakeView())
    assert st.session_state["real.layer"] == 4 and st.session_state["real.head"] == 11


def test_a_score_most_of_the_corpus_prints_the_same_says_so_rather_than_a_middle_rank(model, trace):
    """Layer 1 head 3 puts all its weight on the previous token on every sentence: the typed sentence's 1.00 ties all
    417 (as printed), where a percentile of about 50 would say little."""
    from conftest import all_text, open_app

    from attention_core import corpus

    *_, mask = corpus.sentence_units(model, REAL_SENTENCE)
    here = corpus.sentence_scores(trace.attentions, trace.tokens, mask)["previous"][0, 2]
    stands = corpus.standing(corpus.load_scores().score("previous")[:, 0, 2], here)
    assert stands.ties_most and (stands.equal, stands.count) == (417, 417)
    for lang, said in (("en", "to two decimals it **ties 417 of the 417 sentences** of the corpus (0 lower, 0 higher;"),
                       ("zh", "保留两位小数时，它与语料库 417 句话中的 **417 句相同**（0 句更低，0 句更高；")):
        text = all_text(open_app("real", section="corpus", text=REAL_SENTENCE, lang=lang, measure="previous", layer=1, head=3))
        assert said in text and "percentile" not in text and "百分位" not in text, text


def test_the_chosen_heads_name_sits_on_its_point_and_the_legend_above_the_plot():
    """The name "L1 H1" points at the ringed point (an arrow from a box), not beside it where another head's point is;
    the legend is above the plot, away from the x axis's title; a tap selects a point (tests/test_browser_corpus.py)."""
    from conftest import open_app, plotly_array

    for layer, head in ((1, 1), (1, 3), (6, 12)):
        scatter = corpus_view(open_app("real", section="corpus", text=REAL_SENTENCE, layer=layer, head=head))["scatter"]
        ring = scatter["data"][-1]
        chosen = plotly_array(scatter["data"][layer - 1]["x"])[head - 1], plotly_array(scatter["data"][layer - 1]["y"])[head - 1]
        assert (ring["x"][0], ring["y"][0]) == pytest.approx(chosen) and "text" not in ring
        [name] = scatter["layout"]["annotations"]
        assert name["text"] == f"L{layer} H{head}" and (name["x"], name["y"]) == pytest.approx(chosen) and name["showarrow"]
        assert (name["xref"], name["yref"]) == ("x", "y")
        legend = scatter["layout"]["legend"]
        assert legend["y"] >= 1 and legend["yanchor"] == "bottom"
        # how a tap selects, in the figure itself (a chart Streamlit drew again during a run lost what it set in the browser)
        assert {k: scatter["layout"][k] for k in ("clickmode", "dragmode", "hovermode")} == {"clickmode": "event+select", "dragmode": "pan",
                                                                                              "hovermode": "closest"}


def test_the_corpus_section_in_chinese_has_full_width_colons():
    """No ASCII colon after Chinese in the section's texts or its charts (titles, tooltips, annotations)."""
    import json
    import re

    from conftest import all_text, open_app

    at = open_app("real", section="corpus", text=REAL_SENTENCE, lang="zh", measure="same_word", versus="punctuation")
    charts = " ".join(json.dumps(figure, ensure_ascii=False) for figure in figures(at))
    found = re.findall(r"[\u3400-\u9fff）》”][*_]*[ ]?:(?!/)", all_text(at) + charts)  # "词**: " too
    assert not found, found
    assert "**别处的同一个词**：" in all_text(at)  # the two scores' notes
    assert "：%{customdata[0]:.2f}" not in charts and "{high}" not in charts and "：%{y} 句" in charts  # the histogram's bars


def paste(at, text: str):
    """Paste ``text`` into the section's box and press its button (a form: both in one run)."""
    at.text_area[0].input(text)
    next(b for b in at.button if "FormSubmitter:real-corpus-paste" in str(b.key)).click().run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pasted_corpus_is_scored_and_bad_input_is_said(model, lang):
    """Empty, wordless, HTML and a script, emoji, too many and too long sentences, and text beyond the limit: each gets
    its message, nothing runs, and what can be scored is (200 sentences at most, with its own numbers)."""
    from conftest import all_text, open_app, tables

    from attention_core import corpus

    said = {"en": ("Nothing to score", "left out:", "cut at a word", "each read as [UNK]", "only its first", "Pieces skipped"),
            "zh": ("没有可以打分的内容", "省略了", "截断", "[UNK]", "文本太长", "跳过了")}[lang]
    at = open_app("real", section="corpus", corpus="pasted", text=REAL_SENTENCE, lang=lang)
    def heads():  # the 72 heads' table's caption (the chosen head's deciles have their own table)
        return next(caption for caption in tables(at) if "72" in caption)

    assert at.query_params["corpus"] == "pasted" and len(tables(at)) == 2  # the built-in corpus until something is scored
    paste(at, "   \n\n😀 😀\n!!!")
    warnings = " ".join(w.value for w in at.warning)
    assert said[0] in warnings and str(len(corpus.corpus_sentences())) in heads()
    script = "<script>alert('x')</script> is **not** run."
    paste(at, f"{script}\nI love tea 😀.\nThe cat sat on the mat, and the cat slept.\n" + "word " * 80 + "\n🙂🙂")
    text = all_text(at) + " ".join(w.value for w in at.warning) + " ".join(i.value for i in at.info)
    assert said[2] in text and said[3] in text and said[5] in text
    assert "your 4 sentences" in heads() or "你的 4 句话" in heads()
    scores = corpus.corpus_scores(model, corpus.split_corpus(at.text_area[0].value).sentences, most=corpus.MAX_PASTED_PIECES)
    np.testing.assert_allclose(z_values(figures(at)[0]), scores.mean("previous"), atol=1e-9)
    at.selectbox(key="real.measure").set_value("offset").run()  # the script's sentence: its weights drawn, its text as text
    html = [m.value for m in at.markdown if "script" in m.value]
    assert all("<script>" not in m for m in html) and any(r"\<script\>" in m for m in html)
    assert not any("<script>" in str(h.proto.body).replace("&lt;script&gt;", "") for h in at.get("html"))
    many = "\n".join(f"Sentence number {i} is here." for i in range(230))
    paste(at, many + "\n" + "x" * corpus.MAX_PASTE_CHARS)
    warnings = " ".join(w.value for w in at.warning)
    assert said[1] in warnings and said[4] in warnings and ("200" in heads())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_pasted_sentence_is_said_in_the_singular(lang):
    """One sentence: "your 1 sentence", one length ("63 word pieces long", not "63–63"), its top sentence, no percentile
    among one; and the [UNK] notice names what the vocabulary lacks (Chinese characters, emoji), not non-Latin scripts."""
    from conftest import all_text, open_app

    at = open_app("real", section="corpus", corpus="pasted", text=REAL_SENTENCE, lang=lang)
    paste(at, "The cat sat on the mat.")
    text = all_text(at)
    said = {"en": ("Your sentence, 9 word pieces long, scored in ", "Its top sentence by weight on the previous token",
                   "over your 1 sentence", "on the corpus's one sentence it is"),
            "zh": ("你的这句话长 9 个词元，", "前一词元权重最高的一句", "你的 1 句话", "在语料库仅有的一句话上为")}[lang]
    assert all(part in text for part in said[:2] + said[3:]), text
    assert said[2] in figures(at)[0]["layout"]["title"]["text"]
    assert not any(wrong in text for wrong in ("1 sentences", "9–9", "percentile", "百分位", "among the 1", "0.0 s", "0.0 秒")), text
    paste(at, "我爱北京天安门。\nI love tea 😀.")
    unknown = " ".join(i.value for i in at.info)
    assert ("many Chinese characters, emoji, some symbols), each read as [UNK]: 2" if lang == "en" else "许多汉字、表情符号和一些符号") in unknown
    assert "non-Latin" not in unknown and "非拉丁" not in unknown


def test_how_long_the_scoring_took_is_never_0_0_s():
    from attention_plot.text import Texts
    from views.real.corpus import took

    en, zh = Texts("en"), Texts("zh")
    assert [took(en, s) for s in (0.004, 0.049, 0.06, 2.345)] == ["scored in under 0.1 s"] * 2 + ["scored in 0.1 s", "scored in 2.3 s"]
    assert took(zh, 0.01) == "不到 0.1 秒就算完了" and took(zh, 1.26) == "用 1.3 秒算完"


def test_a_link_asking_for_pasted_sentences_opens_the_built_in_corpus():
    from conftest import all_text, open_app

    at = open_app("real", section="corpus", corpus="pasted", text=REAL_SENTENCE)
    assert "stay in the browser tab that pasted them" in all_text(at) and "417 built-in sentences" in all_text(at)


def test_the_one_sentence_summary_says_how_its_heads_behave_over_the_corpus(model, trace):
    """Beside each head the summary names (and the chosen one): its mean over the corpus, the corpus verdict and how
    often one sentence's verdict is it, as the core measures them; and the figure over every head."""
    from conftest import all_text, open_app

    from attention_core import corpus

    shipped = corpus.load_scores()
    agreed = corpus.agreement(shipped)
    at = open_app("real", text=REAL_SENTENCE, layer=2, head=4)
    text = all_text(at)
    assert "of layer 5 head 6's weight goes to [CLS]" in text  # the one-sentence summary's verdict
    mean = shipped.mean("cls")[4, 5]
    assert (f"layer 5 head 6: {trace.attentions[4, 5][:, 0].mean():.0%} on [CLS] here (verdict: [CLS]); {mean:.0%} on average over the corpus, "
            f"and the same verdict there; one sentence's verdict matches it on {agreed.per_head[4, 5]:.0%} of the sentences") in text
    assert "layer 2 head 4:" in text  # the chosen head, named or not
    assert "The same heads over the 417 built-in sentences (more in the section **A head over a corpus**):" in text
    assert f"for {agreed.rate:.1%} of the 30,024 (sentence, head) pairs" in text
    zh = all_text(open_app("real", text=REAL_SENTENCE, lang="zh"))
    assert f"{agreed.rate:.1%}" in zh and "第 5 层第 6 个头：在这里有" in zh
    *_, mask = corpus.sentence_units(model, REAL_SENTENCE)
    here = corpus.sentence_scores(trace.attentions, trace.tokens, mask)
    verdicts = corpus.verdicts(np.stack([here[name] for name in corpus.VERDICT_SHARES]))
    layer, head = np.argwhere(verdicts != agreed.corpus)[0]  # a head whose verdict here is not its corpus verdict
    other = all_text(open_app("real", text=REAL_SENTENCE, layer=layer + 1, head=head + 1))
    assert f"layer {layer + 1} head {head + 1}: " in other and "on average over the corpus, where its verdict is **" in other


def test_the_grids_colour_scale_reaches_just_past_its_largest_mean():
    from views.real.corpus import colour_top

    assert [colour_top(np.array([v, 0.0])) for v in (0.29, 0.3, 0.051, 6.7, 1.0, 0.0)] == [pytest.approx(v) for v in (0.3, 0.3, 0.06, 7, 1, 1)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_clark_et_als_definitions_chosen_redraw_every_number_of_theirs(model, trace, lang):
    """"Definitions: Clark et al. (2019)": the grid, the scatter and the heads table are the corpus's means by their
    definitions (previous token ≈ ours × (n − 1)/n; entropy in nats), the typed sentence's value is ``clark_scores`` of
    its weights, the scores they do not define are said to stay ours, and the choice travels in the link."""
    from conftest import all_text, open_app, plotly_array

    from attention_core import corpus

    shipped = corpus.load_scores()
    at = open_app("real", section="corpus", text=REAL_SENTENCE, lang=lang, measure="previous", versus="offset", layer=1, head=3)
    at.segmented_control(key="real.definitions").set_value("clark").run()
    assert at.query_params["definitions"] == "clark" and not at.exception
    shown = corpus_view(at)
    np.testing.assert_allclose(shown["grid"], shipped.mean("previous", "clark"), atol=1e-9)
    assert plotly_array(shown["scatter"]["data"][0]["y"])[0] == pytest.approx(shipped.mean("offset")[0, 0])  # theirs: none
    here = corpus.clark_scores(trace.attentions, trace.tokens)["previous"][0, 2]
    text = all_text(at)
    assert f"{here:.2f}" in text and f"{shipped.mean('previous', 'clark')[0, 2]:.2f}" in text
    assert ("previous token (Clark)" if lang == "en" else "前一个词元（Clark）") in text
    assert ("offset of the largest weight: Clark et al. define no such score" if lang == "en" else "最大权重的偏移：Clark 等人没有定义") in text
    again = open_app("real", **dict(at.query_params))
    np.testing.assert_allclose(corpus_view(again)["grid"], shown["grid"])
