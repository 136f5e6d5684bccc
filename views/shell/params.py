"""Parameters a view is made of, as data: each reads its value from URL text and writes it back.

Pure (no Streamlit): ``read`` turns what a link says into a value and, when the value had to
change, a ``Notice`` the page shows; ``write`` gives the text a teacher sees in the link.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

MAX_TEXT_CHARS = 2000  # longer text is cut before tokenizing (a link must stay shareable)
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")

Values = Mapping[str, Any]
Condition = Callable[[Values], bool]


class Notice(NamedTuple):
    """A URL value that could not be used as given: ``kind`` is clamped, nearest, unknown or cut; ``allowed`` the range a
    clamped value had to be in (e.g. "1–8")."""

    param: str
    given: str
    used: str
    kind: str
    allowed: str = ""


def always(values: Values) -> bool:
    return True


@dataclass(frozen=True)
class Param:
    """One named value: its default, when the view uses it (``when``), and old link codes (``legacy``).

    ``legacy`` maps an old URL name to a function from its old text to today's text; it is
    applied only to links made before values replaced codes.
    """

    name: str
    default: Any
    when: Condition = field(default=always, compare=False)
    legacy: Mapping[str, Callable[[str], str | None]] = field(default_factory=dict, compare=False)

    def read(self, given: str) -> tuple[Any, Notice | None]:
        raise NotImplementedError

    def write(self, value: Any) -> str:
        return str(value)

    def _unknown(self, given: str) -> tuple[Any, Notice]:
        return self.default, Notice(self.name, given, self.write(self.default), "unknown")


def parse_number(given: str) -> float | None:
    try:
        number = float(given)
    except ValueError:
        return None
    return None if math.isnan(number) else number


@dataclass(frozen=True)
class Int(Param):
    """A whole number in [lo, hi]; out-of-range values are clamped."""

    lo: int = 0
    hi: int = 1

    def read(self, given: str) -> tuple[int, Notice | None]:
        number = parse_number(given)
        if number is None:
            return self._unknown(given)
        value = int(min(max(number, self.lo), self.hi)) if math.isinf(number) else min(max(round(number), self.lo), self.hi)
        return value, None if value == number else Notice(self.name, given, str(value), "clamped", f"{self.lo}–{self.hi}")


@dataclass(frozen=True)
class Float(Param):
    """A number in [lo, hi] on a grid of ``step``; other values are clamped and rounded to the grid."""

    lo: float = 0.0
    hi: float = 1.0
    step: float = 0.1

    def read(self, given: str) -> tuple[float, Notice | None]:
        number = parse_number(given)
        if number is None:
            return self._unknown(given)
        value = round(round(min(max(number, self.lo), self.hi) / self.step) * self.step, 10)
        return value, None if math.isclose(value, number) else Notice(self.name, given, self.write(value), "clamped",
                                                                       f"{self.write(self.lo)}–{self.write(self.hi)}")

    def write(self, value: float) -> str:
        return f"{value:g}"


@dataclass(frozen=True)
class Choice(Param):
    """One of ``options`` (numbers or names); a number between options takes the nearest."""

    options: tuple = ()

    def read(self, given: str) -> tuple[Any, Notice | None]:
        for option in self.options:
            if given == self.write(option):
                return option, None
        number = parse_number(given)
        numeric = all(isinstance(o, int | float) for o in self.options)
        if not numeric or number is None:
            return self._unknown(given)
        nearest = min(self.options, key=lambda o: abs(math.log(o / number)) if number > 0 and o > 0 else abs(o - number))
        if nearest == number:
            return nearest, None
        return nearest, Notice(self.name, given, self.write(nearest), "nearest")

    def write(self, value: Any) -> str:
        return f"{value:g}" if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class Choices(Param):
    """Several of ``options``, comma-separated in the link; unknown names are dropped, none left gives the default."""

    options: tuple = ()

    def read(self, given: str) -> tuple[tuple, Notice | None]:
        names = [name.strip() for name in given.split(",") if name.strip()]
        chosen = tuple(option for option in self.options if option in names)
        if not chosen:
            return self._unknown(given)
        return chosen, None if len(chosen) == len(names) else Notice(self.name, given, self.write(chosen), "unknown")

    def write(self, value: tuple) -> str:
        return ",".join(value)


@dataclass(frozen=True)
class Flag(Param):
    """On or off: 1/0 in the link (true/false, yes/no, on/off are understood)."""

    def read(self, given: str) -> tuple[bool, Notice | None]:
        word = given.strip().lower()
        if word in TRUE + FALSE:
            return word in TRUE, None
        return self._unknown(given)

    def write(self, value: bool) -> str:
        return "1" if value else "0"


@dataclass(frozen=True)
class Text(Param):
    """Free text, cut to ``MAX_TEXT_CHARS``. ``default`` is the key of a text in assets/ (it follows the language);
    it may name other values in braces, e.g. ``cross.defaults.{pair}_source``."""

    def read(self, given: str) -> tuple[str, Notice | None]:
        if len(given) <= MAX_TEXT_CHARS:
            return given, None
        return given[:MAX_TEXT_CHARS], Notice(self.name, str(len(given)), str(MAX_TEXT_CHARS), "cut")


@dataclass(frozen=True)
class Token(Param):
    """A short code matching ``pattern`` after ``normal`` (a join code read in upper case, spaces dropped); anything else
    is unknown and leaves the default."""

    pattern: str = ".*"
    normal: Callable[[str], str] = field(default=lambda given: given, compare=False)

    def read(self, given: str) -> tuple[str, Notice | None]:
        value = self.normal(given[:64])
        if given == "" or re.fullmatch(self.pattern, value):
            return value, None
        return self.default, Notice(self.name, given[:80], self.default, "unknown")


def index_code(options: tuple) -> Callable[[str], str | None]:
    """An old link's index into ``options`` -> the option's URL text (None when it is no index)."""

    def convert(code: str) -> str | None:
        number = parse_number(code)
        if number is None or number != int(number) or not 0 <= number < len(options):
            return None
        option = options[int(number)]
        return f"{option:g}" if isinstance(option, float) else str(option)

    return convert


def bitmask_code(options: tuple) -> Callable[[str], str | None]:
    """An old link's bitmask over ``options`` -> the chosen names, comma-separated."""

    def convert(code: str) -> str | None:
        number = parse_number(code)
        if number is None or number != int(number) or number < 0:
            return None
        return ",".join(name for i, name in enumerate(options) if int(number) >> i & 1) or None

    return convert


def scaled_code(factor: float) -> Callable[[str], str | None]:
    """An old link's number times ``factor`` (e.g. lengths once written in tenths)."""

    def convert(code: str) -> str | None:
        number = parse_number(code)
        return None if number is None else f"{number * factor:g}"

    return convert


def flag_code(value_when_on: str) -> Callable[[str], str | None]:
    """An old on/off switch -> ``value_when_on`` when it was on (nothing when off)."""
    return lambda code: value_when_on if code.strip().lower() in TRUE else None
