"""Student-facing text, loaded from assets/text/<lang>/*.toml (never written in code).

The app and the notebook's plots read the same files: ``text`` beside this module is assets/text in the
repository (a link) and a copy of it in an installed package.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

TEXT = Path(__file__).resolve().parent / "text"
LANGUAGES = ("en", "zh")
DEFAULT_LANGUAGE = "en"


def _flatten(table: dict, prefix: str) -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}.{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, name))
        else:
            flat[name] = value
    return flat


@functools.cache
def catalogue(lang: str) -> dict[str, object]:
    """Every text of one language, keyed ``file.section.key`` (file = the toml file's stem)."""
    texts: dict[str, object] = {}
    for path in sorted((TEXT / lang).glob("*.toml")):
        with path.open("rb") as handle:
            texts.update(_flatten(tomllib.load(handle), path.stem))
    return texts


class Texts:
    """Look up text by key in one language, falling back to English; ``T("key", name=value)`` formats."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self._own = catalogue(self.lang)
        self._fallback = catalogue(DEFAULT_LANGUAGE)

    def __call__(self, key: str, /, **values: object) -> str:
        text = self.get(key)
        return str(text).format(**values) if values else str(text)

    def get(self, key: str) -> object:
        """The raw value (a string or a list), or KeyError naming the missing key."""
        if key in self._own:
            return self._own[key]
        if key in self._fallback:
            return self._fallback[key]
        raise KeyError(f"no text for {key!r} in assets/text/{self.lang}")
