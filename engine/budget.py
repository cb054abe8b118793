"""The memory a run may take, checked from its sizes before anything is allocated.

A run whose arrays would not fit is refused in one line that says what it needs, the limit and why,
instead of failing after minutes with ``MemoryError`` or being killed. The limit is half the
machine's physical memory: the other half is left to the operating system, the app and other runs.
"""

from __future__ import annotations

import math
import os

from engine.validation import check_int

#: Bytes of one float64 value.
FLOAT_BYTES = 8


def physical_memory() -> int:
    """The machine's physical memory in bytes (``os.sysconf``)."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


#: The most memory one run may take: half the physical memory.
MEMORY_LIMIT = physical_memory() // 2


def _size(nbytes: float) -> str:
    """``nbytes`` in binary units, e.g. ``"728 TiB"``."""
    units = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB")
    power = 0
    while nbytes >= 1024 and power < len(units) - 1:
        nbytes, power = nbytes / 1024, power + 1
    return f"{nbytes:.3g} {units[power]}"


def check_memory(what: str, floats: float, *, fix: str) -> None:
    """Refuse a run that needs more than ``MEMORY_LIMIT``.

    Parameters
    ----------
    what : the sizes that set the need, e.g. ``"n = 100000000000000 records of 3 coordinates"``.
    floats : an upper estimate of the float64 values the run holds at once (its peak, from the sizes).
    fix : what to lower, e.g. ``"lower n or releases"``.

    Raises
    ------
    ValueError
        One line: what needs how much, the limit and why, and ``fix``.
    """
    need = float(floats) * FLOAT_BYTES
    if need > MEMORY_LIMIT:
        raise ValueError(f"{what} need about {_size(need)} of memory, more than the {_size(MEMORY_LIMIT)} a run may "
                         f"take (half of this machine's {_size(physical_memory())}); {fix}")


#: Float64 arrays of the draws' size a sampler holds at its peak, rounded up from the most measured
#: (tracemalloc, 200,000 draws of the exact and the Euclidean Laplace and of the tangent Gaussian on S²,
#: SPD(2), H², Σ⁸₂: 2.8 to 11.3, and 32.7 for the tangent Gaussian on Σ⁸₂, which builds a tangent basis).
DRAW_COPIES = 40


def draw_batch(size, batch: tuple[int, ...], point_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The batch shape of ``size`` draws at each footpoint of ``batch`` (``batch`` itself for ``size=None``),
    refused by ``check_memory`` before anything is drawn when the sampler's arrays would not fit
    (``release(size=10**12)`` would otherwise allocate until the machine runs out)."""
    shape = batch if size is None else (check_int("size", size),) + tuple(batch)
    draws, coordinates, footpoints = math.prod(shape), math.prod(point_shape), math.prod(batch)
    check_memory(f"{draws} draws of {coordinates} coordinates (size = {size!r} at {footpoints} "
                 f"footpoint{'' if footpoints == 1 else 's'})",
                 DRAW_COPIES * draws * coordinates, fix="lower size, or draw in several calls")
    return shape
