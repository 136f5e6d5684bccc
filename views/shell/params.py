"""Parameters a view is made of, as data: each reads its value from URL text, writes it back and draws its widget.

Pure (no Streamlit import): ``read`` turns what a link says into a value and, when the value had to
change, a ``Notice`` the page shows; ``write`` gives the text a teacher sees in the link; ``widget``
draws the value's widget in the Streamlit container it is handed, with the bounds, step and options
declared here (a page never repeats them: tests/test_shell_widgets.py), under the value's session key.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

MAX_TEXT_CHARS = 2000  # longer text is cut before tokenizing (a link must stay shareable)
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")

Values = Mapping[str, Any]
Condition = Callable[[Values], bool]


class Notice(NamedTuple):
    """A URL value that could not be used as given: ``kind`` is clamped, whole (not a whole number), nearest, unknown or
    cut; ``allowed`` the range a clamped value had to be in (e.g. "1–8")."""

    param: str
    given: str
    used: str
    kind: str
    allowed: str = ""
    label: str = ""  # a text key with {} for the used value's name as the page shows it (Choice.labels)


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

    STYLES: ClassVar[tuple[str, ...]] = ()  # the Streamlit widgets that can edit this kind of value, the usual one first

    def widget(self, into: Any, label: str, key: str, *, style: str | None = None, **display: Any) -> Any:
        """Draw the value's widget in ``into`` (``st``, a column, the sidebar) under ``key`` (``state.key``), its bounds or
        options from this declaration, and return its value. ``style`` names the Streamlit widget, one of the kind's
        ``STYLES`` (the first when None); ``display`` is how it looks and acts (``help``, ``format_func``, ``on_change``),
        passed on. The value itself is the session's (``state.arrive`` put it there): no widget is given a default."""
        return getattr(into, self.style(style))(label, key=key, **display)

    def style(self, style: str | None) -> str:
        """The Streamlit widget ``style`` names, checked (the kind's usual one when None)."""
        style = style or (self.STYLES[0] if self.STYLES else "")
        if style not in self.STYLES:
            raise ValueError(f"{self.name}: a {type(self).__name__} is drawn as one of {self.STYLES}, not {style!r}")
        return style


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
    STYLES = ("slider", "number_input", "segmented_control", "select_slider", "selectbox")

    def widget(self, into: Any, label: str, key: str, *, style: str | None = None, lo: int | None = None, hi: int | None = None,
               **display: Any) -> Any:
        """As ``Param.widget``; ``lo`` and ``hi`` narrow the bounds to what this view allows, when only the run knows it
        (the sentence's tokens, the tiny model's heads). A slider or a number box (in steps of 1) takes the bounds; a
        segmented control, a select slider or a select box offers every whole number in them."""
        lo, hi, style = self.lo if lo is None else lo, self.hi if hi is None else hi, self.style(style)
        if style == "slider":
            return into.slider(label, lo, hi, key=key, **display)
        if style == "number_input":
            return into.number_input(label, lo, hi, step=1, key=key, **display)
        return offer(into, style, label, range(lo, hi + 1), key, display)

    def read(self, given: str) -> tuple[int, Notice | None]:
        number = parse_number(given)
        if number is None:
            return self._unknown(given)
        value = int(min(max(number, self.lo), self.hi)) if math.isinf(number) else min(max(round(number), self.lo), self.hi)
        if value == number:
            return value, None
        kind = "whole" if self.lo <= number <= self.hi else "clamped"  # 1.5 is in 1–12, but no head is numbered so
        return value, Notice(self.name, given, str(value), kind, f"{self.lo}–{self.hi}")


@dataclass(frozen=True)
class Float(Param):
    """A number in [lo, hi] on a grid of ``step``; other values are clamped and rounded to the grid."""

    lo: float = 0.0
    hi: float = 1.0
    step: float = 0.1
    STYLES = ("slider",)

    def widget(self, into: Any, label: str, key: str, *, style: str | None = None, **display: Any) -> Any:
        return getattr(into, self.style(style))(label, self.lo, self.hi, step=self.step, key=key, **display)

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
    """One of ``options`` (numbers or names); a number between options takes the nearest. ``labels``: a text key with
    {} where an option's name goes, the name a notice says instead of the link's ("the default H100 SXM", not h100)."""

    options: tuple = ()
    labels: str = ""
    STYLES = ("select_slider", "segmented_control", "selectbox", "radio")

    def widget(self, into: Any, label: str, key: str, *, style: str | None = None, options: Sequence | None = None,
               **display: Any) -> Any:
        """As ``Param.widget``; ``options`` narrows the options to those this view has, when only the run knows them (the
        training steps a shipped run watched)."""
        return offer(into, self.style(style), label, self.options if options is None else options, key, display)

    def read(self, given: str) -> tuple[Any, Notice | None]:
        for option in self.options:
            if given == self.write(option):
                return option, None
        number = parse_number(given)
        numeric = all(isinstance(o, int | float) for o in self.options)
        if not numeric or number is None:
            return self.default, Notice(self.name, given, self.write(self.default), "unknown", label=self.labels)
        nearest = min(self.options, key=lambda o: abs(math.log(o / number)) if number > 0 and o > 0 else abs(o - number))
        if nearest == number:
            return nearest, None
        return nearest, Notice(self.name, given, self.write(nearest), "nearest", label=self.labels)

    def write(self, value: Any) -> str:
        return f"{value:g}" if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class Choices(Param):
    """Several of ``options``, comma-separated in the link; unknown names are dropped, none left gives the default."""

    options: tuple = ()
    STYLES = ("multiselect",)

    def widget(self, into: Any, label: str, key: str, *, style: str | None = None, **display: Any) -> Any:
        return getattr(into, self.style(style))(label, self.options, key=key, **display)

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

    STYLES = ("toggle",)

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

    STYLES = ("text_input", "text_area")

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
    most: int = 64  # characters read; the rest is left out

    def read(self, given: str) -> tuple[str, Notice | None]:
        value = self.normal(given[: self.most])
        if given == "" or re.fullmatch(self.pattern, value):
            return value, None
        return self.default, Notice(self.name, given[:80], self.default, "unknown")


def offer(into: Any, style: str, label: str, options: Sequence, key: str, display: dict[str, Any]) -> Any:
    """The widget ``style`` offering ``options``; a segmented control always has one chosen (a parameter always has a
    value)."""
    if style == "segmented_control":
        display = {"required": True} | display
    return getattr(into, style)(label, options, key=key, **display)


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
