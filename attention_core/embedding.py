"""From text to vectors: tokenize, token embeddings, sinusoidal positional encoding."""

from __future__ import annotations

import hashlib
import re
import unicodedata

import numpy as np
from numpy.typing import NDArray

from attention_core._checks import check_int, frozen

MAX_D_MODEL = 4096
MAX_SEED = 2**32 - 1

# Han ideographs (with extensions and compatibility forms), kana, and Hangul syllables:
# each such character is a token of its own, as in character-level Chinese models.
_CJK = (
    "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
    "\U00020000-\U0002ffff\U00030000-\U0003ffff"
)
_TOKEN = re.compile(
    rf"[{_CJK}]"  # one CJK character
    rf"|[^\W_{_CJK}]+(?:['’][^\W_{_CJK}]+)*"  # a word, with inner apostrophes (didn't)
    r"|[^\w\s]|_",  # any other single symbol: punctuation, emoji
)
_DROPPED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn"}  # control, format, surrogate, private, unassigned


def _visible(text: str) -> str:
    """Drop control and invisible format characters (and emoji variation selectors)."""
    return "".join(
        " " if ch in "\t\n\r\f\v" else ch
        for ch in text
        if ch in "\t\n\r\f\v"
        or not (unicodedata.category(ch) in _DROPPED_CATEGORIES or "\ufe00" <= ch <= "\ufe0f")
    )


def tokenize(text: str) -> list[str]:
    """Split ``text`` into tokens: words, single punctuation marks, single CJK characters.

    Whitespace only separates; control and zero-width characters are dropped; repeated
    words stay separate tokens. ``tokenize("她正在吃一个绿色的苹果")`` gives 11 tokens.

    Parameters
    ----------
    text : str
        Any text. Non-strings raise ValueError.

    Returns
    -------
    list of str, in reading order.
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    return _TOKEN.findall(unicodedata.normalize("NFC", _visible(text)))


def token_vector_table(tokens: list[str], d_model: int, *, seed: int = 0) -> NDArray[np.float64]:
    """Token embeddings without positions: one N(0, 1) vector per token, shape (n, d_model).

    The vector of a token depends only on its string, ``seed`` and ``d_model``, through a
    stable hash (SHAKE-256), so a word has the same vector in every sentence and on every
    machine. Vectors for a larger d_model extend those for a smaller one.

    Notes
    -----
    Standard normals by Box-Muller from uniforms u1, u2 in the hash bytes:
    (z1, z2) = sqrt(-2 ln u1) (cos 2 pi u2, sin 2 pi u2).
    """
    d_model = check_int("d_model", d_model, 1, MAX_D_MODEL)
    seed = check_int("seed", seed, 0, MAX_SEED)
    distinct = {token: index for index, token in enumerate(dict.fromkeys(tokens))}
    pairs = (d_model + 1) // 2  # Box-Muller turns each pair of uniforms into two normals
    raw = b"".join(hashlib.shake_256(f"{seed}\x1f{token}".encode()).digest(8 * pairs) for token in distinct)
    uniform = (np.frombuffer(raw, dtype="<u4").astype(np.float64) + 0.5) * 2.0**-32  # in (0, 1)
    uniform = uniform.reshape(len(distinct), pairs, 2)
    radius = np.sqrt(-2.0 * np.log(uniform[..., 0]))  # (distinct, pairs)
    cos = np.cos(2.0 * np.pi * uniform[..., 1])
    sin = np.copysign(np.sqrt(1.0 - cos * cos), 0.5 - uniform[..., 1])  # sin 2 pi u2, without a second sin()
    table = np.stack([radius * cos, radius * sin], axis=-1).reshape(len(distinct), 2 * pairs)
    rows = np.fromiter((distinct[token] for token in tokens), dtype=np.intp, count=len(tokens))
    return frozen(table[rows, :d_model])  # (n, d_model)


def positional_encoding(n: int, d_model: int) -> NDArray[np.float64]:
    """Sinusoidal positional encoding of Vaswani et al. (2017), shape (n, d_model).

    Notes
    -----
    PE[pos, 2i] = sin(pos / 10000^(2i / d_model)),  PE[pos, 2i+1] = cos(pos / 10000^(2i / d_model)).
    """
    n = check_int("n", n, 0, 1_000_000)
    d_model = check_int("d_model", d_model, 1, MAX_D_MODEL)
    pos = np.arange(n, dtype=np.float64)[:, None]  # (n, 1)
    even = np.arange(0, d_model, 2, dtype=np.float64)  # 2i
    angles = pos / 10000.0 ** (even / d_model)  # (n, ceil(d_model/2))
    pe = np.empty((n, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles[:, : d_model // 2])
    return frozen(pe)


def embed(tokens: list[str], d_model: int, *, seed: int = 0, positions: bool = True) -> NDArray[np.float64]:
    """Embedding matrix X, shape (n, d_model): token vectors plus positional encoding.

    Parameters
    ----------
    tokens : list of str, length n
    d_model : int, 1..4096
    seed : int, 0..2**32-1; the same token and seed always give the same vector.
    positions : bool; add ``positional_encoding(n, d_model)`` when True.

    Notes
    -----
    X[i] = E(tokens[i]) + PE[i]  (PE omitted when ``positions`` is False).
    """
    vectors = token_vector_table(tokens, d_model, seed=seed)  # (n, d_model)
    return frozen(vectors + positional_encoding(len(tokens), d_model)) if positions else vectors


def contains_cjk(text: str) -> bool:
    """True when ``text`` has a Chinese, Japanese or Korean character."""
    return isinstance(text, str) and re.search(f"[{_CJK}]", text) is not None
