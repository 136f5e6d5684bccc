"""No English of the app's own on a Chinese page: every page and section opened with lang=zh (AppTest), its text, tables,
charts' names and CSV downloads read, and each Latin word checked against the words only the English texts use.

A word the Chinese texts use themselves (softmax, d_k, MiniLM, [CLS]) or the real model's English corpus holds is
allowed, as in the browser's scan (scripts/axe_scan.english_allowed); the sentence a page shows is the student's data.
"""

from __future__ import annotations

import functools
import html
import json
import re

import pytest
import streamlit as st
from conftest import ROOT, SENTENCE, all_text, figures, open_app

from attention_plot.text import catalogue
from views.shell.registry import PAGES

LATIN = re.compile(r"[A-Za-z][A-Za-z_]{2,}")
PLACEHOLDER = re.compile(r"\{[^}]*\}")
COMMAND = re.compile(r"\\[A-Za-z]+|[_^]\{[^}]*\}")  # LaTeX's own names (\operatorname, \mathbb): a formula's words are tested in test_shell_texts
VIEWS = [(page.id, section) for page in PAGES
         for section in (next((p.options for p in page.params if p.name == "section"), ()) or (None,))]


@functools.cache
def english_only() -> frozenset[str]:
    """Latin words of the English texts that neither the Chinese texts nor the real model's English corpus use."""
    words = lambda lang: {w.lower() for key, text in catalogue(lang).items() if "formula" not in key  # LaTeX is shared
                          for w in LATIN.findall(COMMAND.sub(" ", PLACEHOLDER.sub(" ", str(text))))}
    data = (ROOT / "assets" / "corpus" / "attention.txt").read_text()  # the English the real model reads, its sentences
    data += " ".join(json.loads((ROOT / "assets" / "snapshots" / "importance.json").read_text(encoding="utf-8"))["sentences"])
    data += (ROOT / "assets" / "corpus" / "sentences.txt").read_text(encoding="utf-8")  # the corpus a head is scored over
    allowed = words("zh") | {w.lower() for w in LATIN.findall(data)}
    return frozenset(words("en") - allowed)


def frame_text(frame) -> list[str]:
    return [str(c) for c in frame.columns] + [str(v) for v in frame.to_numpy().ravel()]


def shown(at, downloads: list[str]) -> dict[str, list[str]]:
    """What a Chinese reader meets on the page, by where it is."""
    said: dict[str, list[str]] = {}
    for kind in ("markdown", "caption", "info", "warning", "error", "title", "header", "subheader", "latex"):
        said[kind] = [str(e.value) for e in at.get(kind)]
    said["table"] = [t for e in at.get("table") for t in frame_text(e.value)]
    said["dataframe"] = [t for e in at.get("dataframe") for t in frame_text(e.value)]
    said["html"] = [html.unescape(re.sub(r"<style>.*?</style>|<[^>]+>", " ", e.proto.body, flags=re.S)) for e in at.get("html")]
    said["chart"] = []
    for e in at.get("plotly_chart"):
        spec = json.loads(e.proto.spec)
        said["chart"] += [str(t.get("name", "")) for t in spec["data"]]
        layout = spec["layout"]
        said["chart"] += [str(layout.get(axis, {}).get("title", {}).get("text", "")) for axis in ("title", "xaxis", "yaxis")]
        said["chart"] += [str(layout.get("title", {}).get("text", ""))]
    said["csv"] = downloads
    return said


def leaks(said: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    english = english_only()
    return [(kind, word, text[:120]) for kind, texts in said.items() for text in texts
            for word in LATIN.findall(COMMAND.sub(" ", text)) if word.lower() in english]


@pytest.fixture
def downloads(monkeypatch) -> list[str]:
    """The text of every CSV the page offers, made as a click would make it."""
    made: list[str] = []
    original = st.download_button

    def recording(label, data, *args, **kwargs):
        if str(kwargs.get("mime", "")) == "text/csv" or str(kwargs.get("file_name", "")).endswith(".csv"):
            made.append(str(data() if callable(data) else data))
        return original(label, data, *args, **kwargs)

    monkeypatch.setattr(st, "download_button", recording)
    return made


@pytest.mark.parametrize(("page", "section"), VIEWS, ids=[f"{p}-{s}" if s else p for p, s in VIEWS])
def test_a_chinese_page_shows_no_english_of_the_apps_own(page, section, downloads):
    at = open_app(page, lang="zh", **({"section": section} if section else {}))
    found = leaks(shown(at, downloads))
    assert not found, found


def test_the_check_finds_english_where_it_is():
    """The check itself: an English column header and an English notice are found, a Chinese one and a formula's name are not."""
    assert leaks({"csv": ["variance_raw,entropy_scaled_bits\n1,2"], "warning": ["The link asked for heads"]})
    assert not leaks({"csv": ["d_k,原始分数的方差\n64,1.0"], "markdown": ["softmax 和 [CLS]"]})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_importance_table_names_an_unknown_word_as_the_model_does_and_its_measures_in_the_readers_language(lang):
    """A word the vocabulary lacks reads [UNK] in the table and the chart's description, never Markdown's \\[UNK\\]; in
    Chinese the measures are 注意力展开 and 注意力流 in the table's head and the chart's legend."""
    from conftest import figures, tables

    from attention_plot.text import Texts

    at = open_app("real", section="importance", text="I love 苹果 ☕ pies", lang=lang)
    T = Texts(lang)
    table = tables(at)[T("inside.importance.table")]
    assert "[UNK]" in list(table.iloc[:, 0]) and not any("\\" in word for word in table.iloc[:, 0])
    chart = next(f for f in figures(at) if f["layout"]["title"]["text"] == T("inside.importance.chart"))
    assert not any("\\[" in e.proto.alt for e in at.get("plotly_chart"))
    names = [trace["name"] for trace in chart["data"]]
    if lang == "zh":
        assert {"注意力展开", "注意力流"} <= set(table.columns) & set(names), (list(table.columns), names)
        assert not any(LATIN.search(str(name)) for name in [*table.columns, *names])


def test_the_chinese_defaults_and_units_are_chinese():
    """The hierarchical page's Chinese document is Chinese to its end; the timing chart's axis says 毫秒, not ms."""
    from conftest import figures

    from attention_plot.text import Texts

    assert not LATIN.search(Texts("zh")("hierarchy.default"))
    at = open_app("positions", section="fast", lang="zh")
    timing = next(f for f in figures(at) if f["layout"]["title"]["text"] == Texts("zh")("positions.fast.time_title"))
    assert timing["layout"]["yaxis"]["title"]["text"] == "毫秒"


def test_the_loss_is_in_nats_and_the_chinese_title_says_so_in_chinese():
    """Watch it learn's loss is a natural-log cross-entropy (uniform logits over V symbols give ln V), so its title's
    unit is nats: 奈特 in Chinese, no Latin word."""
    import numpy as np

    from attention_core.tiny import cross_entropy
    from attention_plot.text import Texts

    value, _ = cross_entropy(np.zeros((3, 7)), np.array([0, 3, 6]))
    assert value == pytest.approx(np.log(7))
    assert "nats" in Texts("en")("learn.loss_title") and "奈特" in Texts("zh")("learn.loss_title")
    assert not LATIN.search(Texts("zh")("learn.loss_title"))


def test_a_links_notice_names_the_setting_as_the_page_does_with_its_range():
    """The testers' link heads=77 on a Chinese page: the notice says 头数 (the sidebar's name), the value and the range."""
    at = open_app("walkthrough", lang="zh", heads="77")
    said = "\n".join(w.value for w in at.warning)
    assert "链接中的头数 = 77 超出范围（1–8），改用 8。" in said and "heads" not in said


MH, CROSS, HAN, RNN = "multihead", "cross", "hierarchy", "rnn"


@pytest.mark.parametrize("page", [MH, CROSS, HAN, RNN])
def test_chinese_and_tampered_urls(page):
    at = open_app(page, lang="zh", step="abc", d="99", fixed="7", pair="-2")
    text = all_text(at)
    assert not any(word in text for word in ("Multi-head attention", "Self vs cross", "Hierarchical attention", "RNN vs attention"))


TYPES, COSINE, WHY = "types", "cosine", "why_qkv"


def test_pages_in_chinese_and_with_an_empty_sentence():
    for page in (TYPES, COSINE, WHY):
        at = open_app(page, lang="zh", text=SENTENCE)
        text = all_text(at)
        assert "Kinds of attention" not in text and "Why Q, K" not in text
        empty = open_app(page, text="")
        assert "Type a sentence" in all_text(empty)


PAGE_IDS = [page.id for page in PAGES]


@pytest.mark.parametrize("page", PAGE_IDS)
def test_chinese_pages_show_no_english_text(page):
    english, chinese = catalogue("en"), catalogue("zh")
    sentences = {str(v) for k, v in english.items() if isinstance(v, str) and len(str(v).split()) >= 3 and chinese.get(k) != v
                 and "formula" not in k}
    at = open_app(page, lang="zh", text=SENTENCE)
    shown = all_text(at) + " ".join(str(t) for spec in figures(at) for t in (spec["layout"].get("title", {}).get("text", ""),))
    leaks = [s for s in sentences if "{" not in s and s in shown]
    assert not leaks, leaks[:3]
