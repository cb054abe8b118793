"""The memory a run may take, checked from its sizes before anything is allocated.

A run whose arrays would not fit is refused in one line that says what it needs, the limit and why,
instead of failing after minutes with ``MemoryError`` or being killed. The limit is half the
machine's physical memory: the other half is left to the operating system, the app and other runs.
"""

from __future__ import annotations

import os

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
