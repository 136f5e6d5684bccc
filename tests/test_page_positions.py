"""AppTest for "Positions and scale": every section and control, with the numbers the page states checked again here."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import all_text, figure_titles, figures, open_app, z_values

from attention_core import explain
from attention_core.fast import MODEL_SHAPES, kv_cache_bytes
from attention_core.positions import alibi_slopes
from views.shell.registry import CACHE_MODELS, POSITION_SECTIONS

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
