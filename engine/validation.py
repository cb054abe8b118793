"""Argument checks shared by the engine; each raises ``ValueError`` quoting the bad value."""

from __future__ import annotations

import numpy as np


def _as_float(name: str, value, expected: str) -> float:
    """``value`` as a float, refusing what is not a number (``True`` included: it is not a count or a scale;
    ``"1"`` too: a string that reads as a number is a caller's unparsed input, not a number)."""
    if isinstance(value, (bool, np.bool_, str, bytes)):
        raise ValueError(f"{name} must be a number {expected}, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number {expected}, got {value!r}") from None


def check_positive(name: str, value, *, allow_inf: bool = False) -> float:
    """Return ``value`` as float if it is a finite number > 0 (``inf`` allowed on request)."""
    x = _as_float(name, value, "> 0")
    if np.isnan(x) or x <= 0 or (np.isinf(x) and not allow_inf):
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return x


def check_nonnegative(name: str, value) -> float:
    """Return ``value`` as float if it is a finite number >= 0."""
    x = _as_float(name, value, ">= 0")
    if not np.isfinite(x) or x < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return x


def check_int(name: str, value, *, minimum: int = 1) -> int:
    """Return ``value`` as int if it is an integer >= ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_probability(name: str, value, *, open_interval: bool = True) -> float:
    """Return ``value`` as float if it lies in (0, 1) (or [0, 1] when ``open_interval`` is False)."""
    x = _as_float(name, value, "in (0, 1)" if open_interval else "in [0, 1]")
    ok = (0 < x < 1) if open_interval else (0 <= x <= 1)
    if not ok:
        interval = "(0, 1)" if open_interval else "[0, 1]"
        raise ValueError(f"{name} must lie in {interval}, got {value!r}")
    return x


def check_finite_array(name: str, a) -> np.ndarray:
    """Return ``a`` as a float array, refusing NaN and inf with the position of the first one."""
    arr = np.asarray(a, dtype=float)
    bad = ~np.isfinite(arr)
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} contains a non-finite value {arr[first]!r} at index {first}")
    return arr
