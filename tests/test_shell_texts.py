"""Every text exists in both languages, formats with the same placeholders, and parses."""

import string

import pytest
from conftest import all_text, open_app

from attention_plot.text import LANGUAGES, Texts, catalogue


def placeholders(text: object) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(str(text)) if name}


def test_both_languages_have_the_same_keys():
    english, chinese = catalogue("en"), catalogue("zh")
    formula_keys = {key for key in english if "formula" in key}  # LaTeX is shared: Chinese may fall back
    assert set(english) - set(chinese) - formula_keys == set()
    assert set(chinese) - set(english) == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_match_english(lang):
    english = catalogue("en")
    for key, text in catalogue(lang).items():
        if "formula" in key:  # LaTeX, never formatted
            continue
        assert placeholders(text) == placeholders(english[key]), key


def test_missing_key_names_itself():
    with pytest.raises(KeyError, match=r"no\.such\.key"):
        Texts("en")("no.such.key")


def test_chinese_walkthrough_shows_chinese():
    from conftest import payload

    at = open_app(lang="zh", step="3")
    text = all_text(at)
    assert "自注意力，一步一步" in text and "Self-attention" not in text
    header, _ = payload(at)
    assert header["texts"]["step_of"] == "第 {number} 步，共 {total} 步：{title}" and header["steps"][2]["title"] == "原始分数"
    english = {str(v) for v in catalogue("en").values()}
    said = [*header["texts"].values(), *(s[k] for s in header["steps"] for k in ("title", "badge", "body")),
            *(m["title"] for m in header["matrices"].values()), *(m["alt"] for m in header["matrices"].values())]
    formula = lambda text: text.replace(" ", "").replace("=", "").replace("+", "").isupper()
    leaks = [text for text in said if text in english and len(text.split()) >= 2 and not formula(text)]
    assert not leaks, leaks  # formulas' names (X = E + PE) stay


def test_chinese_formulas_have_no_english_words():
    """Words inside a formula (\\text{...}) are translated too; names such as MultiHead and Concat stay."""
    import re

    chinese = catalogue("zh")
    for key, text in catalogue("en").items():
        if "formula" not in key or not isinstance(text, str):
            continue
        words = [w for w in re.findall(r"\\text\{([^}]*)\}", str(chinese.get(key, text))) if re.search(r"[a-z]{3,}", w)]
        assert all(w in ("MultiHead", "Concat", "softmax") for w in words), (key, words)
