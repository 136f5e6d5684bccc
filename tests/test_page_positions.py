"""AppTest for "Positions and scale": every section and control, with the numbers the page states checked again here."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import all_text, figure_titles, figures, open_app, tables, z_values

from attention_core import explain
from attention_core.fast import MODEL_SHAPES, kv_cache_bytes
from attention_core.latent import init_latent, latent_attention
from attention_core.positions import alibi_slopes
from attention_core.sparse import init_indexer, lightning_indexer, sparse_attention
from attention_core.traffic import GPUS
from attention_plot.figures import chinese
from views.positions import readable_bytes
from views.positions.sparse import INDEXER_DIM, INDEXER_HEADS
from views.shell.registry import CACHE_MODELS, LATENT_HEADS, POSITION_SECTIONS, TRAFFIC_GPUS

PAGE = "positions"
SENTENCE = "the dog bit the man"


@pytest.mark.parametrize("section", POSITION_SECTIONS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_section_opens_in_both_languages(section, lang):
    at = open_app(PAGE, section=section, lang=lang, text=SENTENCE)
    assert not at.error and not at.warning


def test_without_positions_the_shuffled_sentence_has_the_shuffled_weights():
    at = open_app(PAGE, text=SENTENCE, shuffle="reverse")
    original, shuffled = (z_values(f) for f in figures(at)[:2])
    np.testing.assert_allclose(shuffled, original[::-1, ::-1], rtol=0, atol=1e-15)
    assert "by at most **" in all_text(at) and "with sinusoidal positions added" in all_text(at)
    heatmap = figures(at)[1]
    assert list(heatmap["layout"]["xaxis"]["ticktext"]) == ["man", "the", "bit", "dog", "the"]


def test_the_rope_grid_is_constant_along_its_diagonals_and_the_sinusoidal_one_is_not():
    at = open_app(PAGE, text=SENTENCE)
    titles = figure_titles(at)
    rope = z_values(figures(at)[titles.index("RoPE: q·k/√d_k with q at position m, k at n")])
    for offset in range(-11, 12):
        assert np.ptp(np.diagonal(rope, offset)) <= 1e-12
    sinusoidal = z_values(figures(at)[titles.index("Sinusoidal: the same words, PE added")])
    assert max(np.ptp(np.diagonal(sinusoidal, o)) for o in range(-11, 12)) > 0.1


def test_an_odd_d_k_hides_only_rope():
    at = open_app(PAGE, text=SENTENCE, d_k="5")
    assert "it needs an even d_k (now 5)" in all_text(at)
    titles = figure_titles(at)
    assert "ALiBi (linear penalty)" in titles and "RoPE (rotated q and k)" not in titles and "No positions" in titles


def test_swapping_the_second_and_last_words_makes_the_man_bite_the_dog():
    at = open_app(PAGE, text=SENTENCE, shuffle="swap")
    assert list(figures(at)[1]["layout"]["xaxis"]["ticktext"]) == ["the", "man", "bit", "the", "dog"]


def test_without_a_sentence_the_caches_memory_is_still_shown():
    at = open_app(PAGE, section="sharing", text="")
    assert at.table[0].value.shape[0] == 3


def test_alibi_slopes_for_six_heads_are_the_authors_and_the_page_says_so():
    at = open_app(PAGE, text=SENTENCE, slope_heads="6")
    bars = next(f for f in figures(at) if f["data"][0]["type"] == "bar")
    np.testing.assert_allclose(bars["data"][0]["y"], [2**-2, 2**-4, 2**-6, 2**-8, 2**-1, 2**-3], rtol=1e-15)
    text = all_text(at)
    assert "authors' code and of BLOOM" in text and "head i has slope 2^(−8i/H)" in text
    assert "6 heads, not a power of two: heads 1 to 4 have the slopes of 4 heads" in text and "for i = 1, 3," in text
    titles = figure_titles(at)  # the steepest (head 5, 1/2) and the flattest (head 4, 1/256)
    assert "Bias of head 5 (slope 0.5)" in titles and "Bias of head 4 (slope 0.003906)" in titles
    at = open_app(PAGE, text=SENTENCE, slope_heads="8")
    assert "8 heads, a power of two: head i has slope 2^(−8i/8)" in all_text(at)


def test_alibi_slopes_follow_the_heads_slider():
    at = open_app(PAGE, text=SENTENCE)
    at.slider(key="positions.slope_heads").set_value(4).run()
    bars = next(f for f in figures(at) if f["data"][0]["type"] == "bar")
    np.testing.assert_allclose(bars["data"][0]["y"], alibi_slopes(4))
    assert at.query_params["slope_heads"] == "4"


@pytest.mark.parametrize("kv_heads", [1, 2, 4, 8])
def test_sharing_keys_and_values_equals_repeated_multi_head_and_the_cache_table_follows_the_formula(kv_heads):
    at = open_app(PAGE, section="sharing", text=SENTENCE, kv_heads=str(kv_heads), model="llama-2-70b", tokens="4096")
    assert "repeated" in all_text(at) and "**0.0e+00**" in all_text(at)
    groups = z_values(figures(at)[0])
    assert groups.shape == (8, kv_heads) and np.all(groups.sum(axis=1) == 1)
    table = at.table[0].value
    assert list(table.iloc[:, 1]) == [64, 8, 1]
    assert table.iloc[1, 3] == f"{kv_cache_bytes(4096, 80, 8, 128) / 2**30:,.2f} GiB" == "1.25 GiB"


def test_the_cache_table_marks_tokens_beyond_a_models_context_and_caps_mistral_at_its_window():
    assert tuple(MODEL_SHAPES) == CACHE_MODELS
    total = 3  # the column "for N tokens"
    at = open_app(PAGE, section="sharing", text="", model="gpt-2", tokens="1024")
    assert at.table[0].value.iloc[1, total] == f"{2 * 1024 * 12 * 12 * 64 * 2 / 2**20:,.2f} MiB" == "36.00 MiB"
    at = open_app(PAGE, section="sharing", text="", model="gpt-2", tokens="4096")
    assert list(at.table[0].value.iloc[:, total]) == ["beyond its context (1,024 tokens)"] * 3
    assert "GPT-2 small reads at most 1,024 tokens" in all_text(at) and "GiB" not in at.table[0].value.to_string()
    at = open_app(PAGE, section="sharing", text="", model="llama-2-7b", tokens="131072")
    assert list(at.table[0].value.iloc[:, total]) == ["beyond its context (4,096 tokens)"] * 3
    at = open_app(PAGE, section="sharing", text="", model="mistral-7b", tokens="8192")
    window_bytes = 2 * 4096 * 32 * 8 * 128 * 2  # 4,096 tokens x 32 layers x 8 key-value heads x 128, key and value, 2 bytes
    assert at.table[0].value.iloc[1, total] == f"{window_bytes / 2**20:,.2f} MiB" == "512.00 MiB"
    assert "sliding window" in all_text(at) and "for 8,192 tokens it holds 4,096" in all_text(at)
    zh = open_app(PAGE, section="sharing", text="", model="gpt-2", tokens="4096", lang="zh")
    assert list(zh.table[0].value.iloc[:, total]) == ["超出其上下文（1,024 个词元）"] * 3


def test_online_softmax_steps_block_by_block_to_the_exact_result():
    at = open_app(PAGE, section="fast", n="10", block="3", fold="1")
    assert "After 1 of 4 blocks" in all_text(at)
    for fold in range(2, 5):
        at.slider(key="positions.fold").set_value(fold).run()
    text = all_text(at)
    assert "All blocks folded in" in text and "Held at once: 30 scores instead of 100 (30%)" in text
    difference = float(text.split("by at most **")[1].split("**")[0])
    assert difference <= 1e-12


def test_the_cost_section_measures_full_attention_and_counts_pairs_by_formula():
    at = open_app(PAGE, section="fast", window="64", global_tokens="4")
    table = at.table[0].value
    assert table.iloc[0, 1] == f"{1024 * 1025 // 2:,}"  # full causal attention at 1,024 tokens
    assert table.iloc[0, 2] == f"{sum(min(64, i + 1) for i in range(1024)):,}"
    assert "multiplied the time by" in all_text(at)


def test_the_page_uses_the_sentence_from_the_sidebar():
    at = open_app(PAGE, text=SENTENCE, d_model="8", d_k="4", seed="3")
    e = explain(SENTENCE, d_model=8, d_k=4, heads=1, positions=False, seed=3)
    weights = z_values(figures(at)[0])
    assert weights.shape == (len(e.tokens), len(e.tokens))


# --- Attention at today's scale: latent attention, sparse top-k attention, memory traffic ---


def heatmaps(at) -> dict[str, np.ndarray]:
    """The page's heatmaps by title: their matrices as sent."""
    return {title: z_values(f) for title, f in zip(figure_titles(at), figures(at)) if f["data"][0]["type"] == "heatmap"}


def test_latent_attention_is_drawn_from_the_core_step_by_step_and_absorbed_equals_rebuilt():
    at = open_app(PAGE, section="latent", text=SENTENCE, d_model="8", d_k="4", seed="3", d_c="3", d_rope="4", latent_head="2")
    e = explain(SENTENCE, d_model=8, d_k=4, heads=1, positions=False, seed=3)
    t = latent_attention(e.token_vectors, init_latent(8, LATENT_HEADS, 4, 3, 4, 9, seed=3))
    shown = heatmaps(at)
    np.testing.assert_array_equal(shown["c_KV = x W_DKV: the latent (3 per token, cached)"], t.c_kv)
    np.testing.assert_array_equal(shown["k_R = RoPE(x W_KR): the position key (4 per token, cached)"], t.k_r)
    np.testing.assert_array_equal(shown["k_C = c_KV W_UK: every head's keys (heads side by side)"], np.hstack(list(t.k_c)))
    weights = shown[next(title for title in shown if title.startswith("Head 2: weights"))]
    np.testing.assert_array_equal(weights, t.weights[1])
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=1e-14)
    assert not np.triu(weights, 1).any()  # causal
    content = shown["Head 2: q_C · k_C (content)"]
    np.testing.assert_array_equal(content[np.tril_indices(5)], t.raw_content[1][np.tril_indices(5)])
    assert np.isnan(content[np.triu_indices(5, 1)]).all()  # what the mask hides is left blank
    text = all_text(at)
    gap = float(text.split("rebuilt by at most **")[1].split("**")[0])
    assert gap <= 1e-12 and "the same numbers to 1e-12" in text
    assert "cache keeps **7** numbers (d_c + d_h^R = 3 + 4)" in text and "would keep 16" in text
    assert "softmax((content + position) / 2.83)" in next(title for title in shown if title.startswith("Head 2: weights"))  # √(4 + 4)


def test_deepseeks_caches_per_token_are_the_papers_and_follow_the_context():
    at = open_app(PAGE, section="latent", text=SENTENCE, context="131072")
    table = tables(at)["The cache of one sequence of 131,072 tokens, 16-bit numbers"]
    assert list(table["numbers per token and layer"]) == ["32,768", "2,048", "256", "576"]  # DeepSeek-V2, Table 1
    assert list(table["DeepSeek-V2: per token (60 layers)"]) == ["3.75 MiB", "240.00 KiB", "30.00 KiB", "67.50 KiB"]  # x 60 x 2 bytes
    assert list(table["DeepSeek-V2: 131,072 tokens"]) == ["480.00 GiB", "30.00 GiB", "3.75 GiB", "8.44 GiB"]
    assert list(table["DeepSeek-V3: per token (61 layers)"])[3] == "68.63 KiB"  # 576 x 61 x 2 = 70,272 B = 68.625 KiB, half up
    text = all_text(at)
    assert "**1.76%** of it, as little as grouped-query attention with 2.25 groups" in text
    assert "arXiv 2405.04434" in text and "arXiv 2412.19437" in text
    at.select_slider(key="positions.context").set_value(4096).run()
    assert at.query_params["context"] == "4096"
    assert list(tables(at)["The cache of one sequence of 4,096 tokens, 16-bit numbers"]["DeepSeek-V2: 4,096 tokens"])[3] == "270.00 MiB"
    empty = open_app(PAGE, section="latent", text="")  # the published caches need no sentence
    assert not empty.exception and len(tables(empty)) == 1 and empty.info


def test_latent_controls_move_the_view_and_the_link():
    at = open_app(PAGE, section="latent", text=SENTENCE)
    at.slider(key="positions.d_c").set_value(2).run()
    at.segmented_control(key="positions.d_rope").set_value(6).run()
    at.segmented_control(key="positions.latent_head").set_value(2).run()
    assert (at.query_params["d_c"], at.query_params["d_rope"], at.query_params["latent_head"]) == ("2", "6", "2")
    titles = figure_titles(at)
    assert "c_KV = x W_DKV: the latent (2 per token, cached)" in titles and "Head 2: q_R · k_R (position)" in titles
    assert "q_C = c_Q W_UQ, with c_Q = x W_DQ (6 wide)" in titles


def test_top_k_attention_keeps_k_keys_per_query_and_equals_dense_attention_at_k_equal_n():
    at = open_app(PAGE, section="sparse", text=SENTENCE, top_k="2")
    e = explain(SENTENCE, d_model=8, d_k=4, heads=1, positions=False, seed=0)
    index = lightning_indexer(e.token_vectors, init_indexer(8, INDEXER_HEADS, INDEXER_DIM, seed=0)).scores
    head = e.trace.heads[0]
    t = sparse_attention(head.q, head.k, head.v, index, 2)
    shown = heatmaps(at)
    kept = shown["Which keys each query keeps, k = 2 (1 = kept, 0 = left out)"]
    assert kept.sum(axis=1).tolist() == [1, 2, 2, 2, 2]  # min(k, keys before and at the query)
    np.testing.assert_array_equal(kept, t.kept)
    np.testing.assert_array_equal(shown["Top-2 attention: weights over the kept keys only"], t.weights)
    distance = float(all_text(at).split("dense attention's by up to **")[1].split("**")[0])
    assert distance == pytest.approx(t.distance, rel=0.05) and distance > 0
    at.slider(key="positions.top_k").set_value(5).run()
    assert "the output is dense attention's exactly: the difference is **0**" in all_text(at)
    shown = heatmaps(at)
    np.testing.assert_array_equal(shown["Top-5 attention: weights over the kept keys only"],
                                  shown["Dense attention: weights over every earlier key"])
    curve = figures(at)[figure_titles(at).index("Distance from dense attention as k grows")]
    assert curve["data"][0]["y"][-1] == 0 and curve["data"][1]["y"][-1] == 0  # both choices end at dense attention


def test_top_k_beyond_the_sentence_is_the_sentence_and_the_cost_table_follows_the_formula():
    at = open_app(PAGE, section="sparse", text=SENTENCE, top_k="40")
    assert at.query_params["top_k"] == "5" and not at.exception
    cost = tables(at)["Pairs scored and multiply-adds per layer, dense against top-k"]
    assert list(cost["pairs, dense: n(n+1)/2"])[-1] == f"{131072 * 131073 // 2:,}"
    assert list(cost["pairs, top-2,048"])[-1] == f"{2048 * 2049 // 2 + (131072 - 2048) * 2048:,}"
    assert cost["(top-k + indexer) ÷ dense"].iloc[0] == "1.06"  # below k tokens the indexer only adds
    assert "index_n_heads" not in all_text(at) and "64 heads of 128, 2,048 keys kept per query" in all_text(at)


def test_the_traffic_table_is_the_algorithms_count_and_says_it_is_a_model():
    at = open_app(PAGE, section="traffic", seq="4096", head_dim="64", sram="100", gpu="h100", flash="fa1")
    assert "A model of the traffic, computed from the algorithms' lines, not a measurement" in at.info[0].value
    table = tables(at)["One head, N = 4,096, d = 64, on the H100 SXM"]
    assert list(table["HBM reads (elements)"]) == [f"{3 * 4096 * 64 + 2 * 4096**2:,}", "11,706,368"]  # B_c = 200: 21 passes
    assert list(table["HBM writes (elements)"]) == [f"{2 * 4096**2 + 4096 * 64:,}", "5,947,392"]
    assert list(table["limited by"]) == ["memory", "memory"]
    text = all_text(at)
    assert "B_c = 200 keys and B_r = 64 queries; 21 passes" in text and "ridge is at 295 FLOP per byte" in text
    counted = text.split("Checked by running it: FlashAttention (Algorithm 1) itself")[1].split("read ")[1]
    assert counted.startswith("5,632 and wrote 3,200 elements; the formula gives 5,632 and 3,200")
    assert "NVIDIA H100 Tensor Core GPU data sheet" in text and "arXiv 2205.14135" in text
    roof = figures(at)[figure_titles(at).index("Roofline of the H100 SXM")]
    assert max(roof["data"][0]["y"]) == pytest.approx(989.5)  # dense BF16 TFLOP/s
    at.selectbox(key="positions.gpu").set_value("a100").run()
    roof = figures(at)[figure_titles(at).index("Roofline of the A100 80GB SXM")]
    assert max(roof["data"][0]["y"]) == pytest.approx(312) and at.query_params["gpu"] == "a100"
    assert "NVIDIA A100 Tensor Core GPU data sheet" in all_text(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_flashattention2_is_the_default_and_its_rows_are_the_papers_count(lang):
    """N = 4,096, d = 128, B_r = 128: FlashAttention-2 reads Nd + 32 x 2Nd and writes Nd + N (34.6 M elements, 69.2 MB),
    against standard attention's 69.2 M (138.4 MB); the intro says why Algorithm 1 moves more."""
    at = open_app(PAGE, section="traffic", seq="4096", head_dim="128", block_c="64", block_r="128", lang=lang)
    assert at.query_params.get("flash", "fa2") == "fa2" and not at.exception
    table = next(iter(tables(at).values()))
    assert list(table.iloc[:, 0])[1] == "FlashAttention-2"
    assert list(table.iloc[:, 1]) == ["35,127,296", "34,078,720"] and list(table.iloc[:, 2]) == ["34,078,720", "528,384"]  # 3Nd + 2N², 2N² + Nd
    assert list(table.iloc[:, 3]) == ["138.4", "69.2"]
    text = all_text(at)
    if lang == "en":
        assert "reloads every block of queries Q_i and of the running output O_i" in text and "arXiv 2307.08691" in text
        assert "32 passes over the keys (⌈N / B_r⌉)" in text
        assert "FlashAttention-2 moves **2.0×** fewer bytes." in text
    else:
        assert "都要重新载入每个查询块 Q_i 和当前输出 O_i" in text and "对键共遍历 32 次" in text
        assert "标准注意力搬运的字节是 FlashAttention-2 的 **2.0 倍**" in text
    at = open_app(PAGE, section="traffic", seq="4096", head_dim="128", sram="100", flash="fa1", lang=lang)
    assert next(iter(tables(at).values())).iloc[1, 3] == f"{66_740_224 * 2 / 1e6:,.1f}"  # Algorithm 1 at B_c = 100: 66.7 M elements


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("d", ["128", "256"])
def test_the_papers_blocks_that_overflow_say_the_rule_ignores_the_scores_and_statistics(d, lang):
    at = open_app(PAGE, section="traffic", head_dim=d, sram="100", lang=lang)
    warning = " ".join(w.value for w in at.warning)
    block_c = -(-51_200 // (4 * int(d)))  # the rule at 100 KiB: B_c = B_r = 100 (d = 128), 50 (d = 256)
    assert f"{block_c * block_c:,}" in warning and f"{4 * block_c:,}" in warning and f"{4 * block_c * int(d):,}" in warning
    if lang == "en":
        assert "These blocks do not fit" in warning and "the rule ignores the block of scores S_ij" in warning
    else:
        assert "这些块放不下" in warning and "规则没有算上分数块 S_ij" in warning and "ignores" not in warning
    chosen = open_app(PAGE, section="traffic", head_dim=d, sram="100", block_r="16", block_c="512", lang=lang)
    assert "S_ij" not in " ".join(w.value for w in chosen.warning)  # blocks chosen by hand: no word on the rule


def test_blocks_that_do_not_fit_say_so_and_extreme_links_are_clamped():
    at = open_app(PAGE, section="traffic", seq="3", gpu="z100", block_c="10000", block_r="128", sram="48")
    warnings = " ".join(w.value for w in at.warning)
    assert "These blocks do not fit" in warnings and "147,968 numbers on chip" in warnings and "24,576 of 48 KiB" in warnings
    assert dict(at.query_params) | {"seq": "512", "block_c": "512", "gpu": "h100"} == dict(at.query_params)
    at = open_app(PAGE, section="latent", text=SENTENCE, d_c="0", d_rope="3", latent_head="9", context="5")
    assert (at.query_params["d_c"], at.query_params["d_rope"], at.query_params["latent_head"]) == ("1", "4", "2")
    assert len(at.warning) == 4 and not at.exception


@pytest.mark.parametrize("section", ["latent", "sparse", "traffic"])
def test_the_new_sections_in_chinese_say_nothing_in_english(section):
    at = open_app(PAGE, section=section, text=SENTENCE, lang="zh")
    text = all_text(at)
    for english in ("the cache", "keys kept", "A model of the traffic", "Head 1", "per token", "limited by"):
        assert english not in text
    for caption in tables(at):
        assert not any(word in caption for word in ("tokens", "One head", "Pairs scored"))
    if section == "traffic":
        assert "这是流量的模型" in at.info[0].value and "NVIDIA H100 Tensor Core GPU 数据手册" in text


def test_the_registry_offers_every_gpu_the_core_knows():
    assert tuple(GPUS) == TRAFFIC_GPUS


def test_the_new_sections_take_the_largest_sizes():
    long = " ".join(f"w{i}" for i in range(48))
    for section, params in (("latent", {"d_c": "16", "d_rope": "8"}), ("sparse", {"top_k": "48"}),
                            ("traffic", {"seq": "131072", "head_dim": "256", "sram": "228", "block_c": "16", "block_r": "16", "gpu": "b200"})):
        at = open_app(PAGE, section=section, text=long, d_model="128", d_k="128", **params)
        assert not at.error and not at.exception, section
    assert "exactly" in all_text(at) or section == "traffic"


# --- Findings of the tester (h38a): each checked where it showed ---


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("version", ["fa1", "fa2"])
@pytest.mark.parametrize("params", [{"head_dim": "256", "sram": "228"}, {"head_dim": "128", "sram": "48"},
                                    {"seq": "512", "head_dim": "128", "sram": "48", "block_c": "16"}, {"head_dim": "256", "block_r": "16"}, {}])
def test_the_traffic_sentence_says_fewer_or_more_as_the_table_does(params, version, lang):
    at = open_app(PAGE, section="traffic", lang=lang, flash=version, **params)
    table = next(iter(tables(at).values()))
    standard, flash = (float(mb.replace(",", "")) for mb in table.iloc[:, 3])  # moved (MB): standard, then FlashAttention
    name = table.iloc[1, 0]
    names = {"fa1": {"en": "FlashAttention (Algorithm 1)", "zh": "FlashAttention 算法 1"},
             "fa2": {"en": "FlashAttention-2", "zh": "FlashAttention-2"}}
    assert name == names[version][lang]
    text = all_text(at)
    if lang == "en":
        said = text.split(f"{name} moves **")[1]
        factor, direction = float(said.split("×**")[0]), said.split("×** ")[1].split(" ")[0]
        assert "d² is well below M" in text and "not a measurement" in at.info[0].value
    else:
        fewer = f"标准注意力搬运的字节是 {name} 的 **" in text
        said = text.split(f"标准注意力搬运的字节是 {name} 的 **" if fewer else f"{name} 搬运的字节反而是标准注意力的 **")[1]
        factor, direction = float(said.split(" 倍**")[0]), "fewer" if fewer else "more"
        assert "只有当 d² 远小于 M 时" in text and "不是测量" in at.info[0].value
    assert factor >= 1
    assert direction == ("fewer" if flash < standard else "more")
    assert factor == pytest.approx(max(standard, flash) / min(standard, flash), abs=0.06)  # one decimal, from MB of one decimal


def frames_cover(figure: dict) -> set[tuple[int, int]]:
    """The cells (row, column) inside the heatmap's rectangles, each counted once (two frames over one cell fail)."""
    cells: list[tuple[int, int]] = []
    for shape in figure["layout"].get("shapes", []):
        if shape["type"] == "rect":
            rows = range(round(shape["y0"] + 0.5), round(shape["y1"] + 0.5))
            cols = range(round(shape["x0"] + 0.5), round(shape["x1"] + 0.5))
            cells += [(r, c) for r in rows for c in cols]
    assert len(cells) == len(set(cells)), "frames overlap"
    return set(cells)


def test_the_frames_of_top_k_attention_hold_the_kept_keys_and_nothing_else():
    at = open_app(PAGE, section="sparse", text="the cat sat on the mat", top_k="2")
    titles, shown = figure_titles(at), figures(at)
    kept = z_values(shown[titles.index("Which keys each query keeps, k = 2 (1 = kept, 0 = left out)")]) == 1
    apart = [row for row in kept if np.flatnonzero(row).size == 2 and np.ptp(np.flatnonzero(row)) > 1]
    assert apart, "no query keeps two keys apart: the test would not see a frame over a key left out"
    expected = {(int(r), int(c)) for r, c in zip(*np.nonzero(kept))}
    for title in ("Index scores I (framed: the 2 kept per query)", "Top-2 attention: weights over the kept keys only"):
        assert frames_cover(shown[titles.index(title)]) == expected, title


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_top_k_out_of_range_names_the_range_this_sentence_offers(lang):
    for given, used in (("0", "1"), ("100", "6")):
        at = open_app(PAGE, section="sparse", text="the cat sat on the mat", top_k=given, lang=lang)
        notice = " ".join(w.value for w in at.warning)
        assert ("(1–6); using " + used if lang == "en" else "（1–6），改用 " + used) in notice, notice
        assert "48" not in notice
    at.slider(key="positions.top_k").set_value(3).run()  # the notice goes once the student moves the value
    assert not at.warning


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_latent_no_smaller_than_multi_head_attention_says_so(lang):
    at = open_app(PAGE, section="latent", text=SENTENCE, lang=lang, d_c="16", d_rope="8")  # 24 numbers against 2 x 2 x 4 = 16
    said = ("saves nothing: 24 numbers are not fewer than multi-head attention's 16", "well below 2 × heads × d_h",
            "(576 numbers against 32,768") if lang == "en" else ("潜向量什么也没省下：24 个数并不比多头注意力的 16 个少",
                                                                  "远小于 2 × 头数 × d_h", "576 个数对 32,768 个")
    for words in said:
        assert words in all_text(at)
    smaller = open_app(PAGE, section="latent", text=SENTENCE, lang=lang, d_c="3", d_rope="4")  # 7 against 16
    assert said[1] not in all_text(smaller)


def test_readable_bytes_rounds_half_up():
    assert readable_bytes(576 * 61 * 2) == "68.63 KiB"  # 68.625: float formatting gave 68.62 (half to even)
    assert readable_bytes(1152) == "1.13 KiB" and readable_bytes(1280) == "1.25 KiB" and readable_bytes(1000) == "1,000 B"
    assert readable_bytes(int(2**30 * 1.125)) == "1.13 GiB" and readable_bytes(2.5) == "3 B"


def test_the_chinese_latent_weights_title_breaks_between_words():
    at = open_app(PAGE, section="latent", text=SENTENCE, lang="zh")
    title = next(t for t in figure_titles(at) if "softmax" in t)
    lines = title.split("<br>")
    assert len(lines) == 2 and "(内容 + 位置)" in lines[1]  # broken by the server: the browser breaks Chinese at any character
    ems = [sum(1 if chinese(ch) else 0.55 for ch in line) for line in lines]
    assert max(ems) <= 20  # each line fits a phone's chart without wrapping again


@pytest.mark.parametrize("section", ["latent", "sparse", "traffic", "sharing"])
def test_chinese_tooltips_and_texts_use_the_full_width_colon(section):
    at = open_app(PAGE, section=section, text=SENTENCE, lang="zh")
    templates = [trace.get("hovertemplate", "") for figure in figures(at) for trace in figure["data"]]
    assert not [t for t in templates if ": " in t], templates
    assert any("：" in t for t in templates) or section == "sparse"  # sparse's line charts have Plotly's own tooltips
    assert ": " not in all_text(at)
