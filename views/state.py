"""Settings shared by every page, and their round trip through the URL (st.query_params).

Parsing is pure (``parse_params``): a tampered value is clamped or replaced by the
default, and each change is reported as a ``Notice`` that the page shows.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import NamedTuple

from attention_core import MODES, SCORES

MAX_TEXT_CHARS = 2000  # longer text is cut before tokenizing (the URL must stay shareable)
MAX_TOKENS = 48  # the walkthrough's limit: more tokens make every matrix unreadable
EXAMPLES = (
    "Thinking Machines",
    "The animal didn't cross the street because it was too tired",
    "the cat sat on the mat",
    "她正在吃一个绿色的苹果",
)


@dataclass(frozen=True)
class Settings:
    """What the sidebar controls: the sentence, sizes, score function, mode, seed, language."""

    text: str = EXAMPLES[0]
    d_model: int = 8  # width of each token vector
    d_k: int = 4  # width of each head's queries and keys (and values)
    heads: int = 1
    score: str = "scaled_dot"
    mode: str = "soft"
    window: int = 2  # local modes: keys within +-window of the centre
    pe: bool = True  # add the sinusoidal positional encoding
    seed: int = 0
    lang: str = "en"
    present: bool = False  # presenter mode: large text, only the current step

    def explain_options(self) -> dict[str, object]:
        """Keyword arguments for ``attention_core.explain`` (besides the text)."""
        return dict(
            d_model=self.d_model, d_k=self.d_k, heads=self.heads, score=self.score, mode=self.mode,
            window=self.window, positions=self.pe, seed=self.seed, max_tokens=MAX_TOKENS,
        )


INT_RANGES = {"d_model": (2, 128), "d_k": (1, 128), "heads": (1, 8), "window": (0, 16), "seed": (0, 99_999)}
CHOICES = {"score": SCORES, "mode": MODES, "lang": ("en", "zh")}
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


class Notice(NamedTuple):
    """A URL value that could not be used as given: ``kind`` is clamped, unknown or cut."""

    param: str
    given: str
    used: str
    kind: str


def parse_int(given: str, lo: int, hi: int) -> tuple[int | None, bool]:
    """(value clamped to [lo, hi], True if it was changed); (None, True) when it is no number."""
    try:
        number = float(given)
    except ValueError:
        return None, True
    if math.isnan(number):
        return None, True
    clamped = int(min(max(number, lo), hi)) if math.isinf(number) else min(max(round(number), lo), hi)
    return clamped, clamped != number


def parse_params(params: dict[str, str]) -> tuple[Settings, list[Notice]]:
    """Settings from URL parameters; unknown keys are ignored, bad values reported."""
    default = Settings()
    values: dict[str, object] = {}
    notices: list[Notice] = []
    for field in fields(Settings):
        name = field.name
        if name not in params:
            continue
        given = str(params[name])
        fallback = getattr(default, name)
        if name == "text":
            values[name] = given[:MAX_TEXT_CHARS]
            if len(given) > MAX_TEXT_CHARS:
                notices.append(Notice(name, f"{len(given)}", f"{MAX_TEXT_CHARS}", "cut"))
        elif name in INT_RANGES:
            number, changed = parse_int(given, *INT_RANGES[name])
            values[name] = fallback if number is None else number
            if changed:
                notices.append(Notice(name, given, str(values[name]), "unknown" if number is None else "clamped"))
        elif name in CHOICES:
            values[name] = given if given in CHOICES[name] else fallback
            if given not in CHOICES[name]:
                notices.append(Notice(name, given, str(fallback), "unknown"))
        elif isinstance(fallback, bool):
            known = given.lower() in TRUE + FALSE
            values[name] = given.lower() in TRUE if known else fallback
            if not known:
                notices.append(Notice(name, given, to_param(fallback), "unknown"))
    return Settings(**values), notices  # type: ignore[arg-type]


def to_param(value: object) -> str:
    """A setting as it appears in the URL."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def to_params(settings: Settings) -> dict[str, str]:
    """Every setting as URL parameters, so a copied link reproduces the view even if defaults change."""
    return {name: to_param(value) for name, value in asdict(settings).items()}
