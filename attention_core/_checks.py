"""Argument checks shared by the core: each raises ValueError with a message a student understands."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import is_dataclass
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

T = TypeVar("T")

MAX_SMALL = 4096  # the largest width a small, computed example takes (d_model, d_c, d_h ...): latent, sparse


def check_int(name: str, value: object, lo: int, hi: int) -> int:
    """Return ``value`` as an int if it is a whole number in [lo, hi]; else raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a whole number between {lo} and {hi}, got {value!r}")
    if not lo <= int(value) <= hi:
        raise ValueError(f"{name} must be between {lo} and {hi}, got {value}")
    return int(value)


def check_float(name: str, value: object, lo: float, hi: float) -> float:
    """Return ``value`` as a float if it is a finite number in [lo, hi]; else raise ValueError."""
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number between {lo:g} and {hi:g}, got {value!r}") from None
    if not (math.isfinite(number) and lo <= number <= hi):
        raise ValueError(f"{name} must be between {lo:g} and {hi:g}, got {value}")
    return number


def check_choice(name: str, value: object, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``; else raise ValueError listing them."""
    options = tuple(choices)
    if value not in options:
        raise ValueError(f"{name} must be one of {', '.join(options)}; got {value!r}")
    return str(value)


def check_matrix(name: str, value: object, *, cols: int | None = None, copy: bool = True) -> NDArray[np.float64]:
    """Return a finite 2-D float64 array (a copy unless ``copy`` is False), optionally with ``cols`` columns."""
    try:
        array = np.array(value, dtype=np.float64, copy=copy or None)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a matrix of numbers") from None
    if array.ndim == 2 and (cols is None or array.shape[1] == cols) and np.isfinite(array).all():
        return array  # the common case, checked with one pass
    if array.ndim != 2:
        raise ValueError(f"{name} must be a matrix (2-D), got {array.ndim}-D with shape {array.shape}")
    if cols is not None and array.shape[1] != cols:
        raise ValueError(f"{name} must have {cols} columns, got {array.shape[1]}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must contain only finite numbers (no NaN or infinity)")
    return array


def frozen(value: T) -> T:
    """Mark every array in ``value`` read-only and return ``value``: an array, or a tuple, list or dict of them (nested),
    or a dataclass instance (every array in its fields). Arrays in a trace never change: results are shared across
    sessions.

    A dataclass's ``__post_init__`` calls ``frozen(self)``; a function returning bare arrays returns ``frozen(result)``.
    A dataclass found inside ``value`` is left as it is: the core's dataclasses freeze themselves when they are built.
    """
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    elif isinstance(value, _HOLDERS):
        _freeze(value)
    elif is_dataclass(value) and not isinstance(value, type):
        for item in vars(value).values():  # its fields
            if isinstance(item, _HOLDERS):
                _freeze(item)
    return value


_HOLDERS = (np.ndarray, tuple, list, dict)  # what may hold an array (a str, a number or a dataclass is passed by)


def _freeze(value: np.ndarray | tuple | list | dict) -> None:
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
        return
    for item in value.values() if isinstance(value, dict) else value:
        if isinstance(item, _HOLDERS):
            _freeze(item)
