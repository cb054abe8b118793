"""The part of ``benchmarks/RESULTS.md`` that ``make bench`` writes: the machine, the date and the table.

The hand-written sections of the file (targets, what the figures mean) stay as they are; the run's
table replaces what lies between ``BEGIN`` and ``END`` (appended at the end the first time). The file is
rewritten whole through a temporary file, so an interrupted run leaves the old one.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import platform
from pathlib import Path

from benchmarks.timing import Row

BEGIN = "<!-- make bench: begin (written by python -m benchmarks --results; do not edit by hand) -->"
END = "<!-- make bench: end -->"


def machine() -> str:
    """One line naming the CPU, cores, memory, Python, numpy and its BLAS."""
    import numpy as np

    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines()
                 if line.startswith("model name")]
        cpu = names[0] if names else cpu
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        kib = int(meminfo.read_text().split("MemTotal:", 1)[1].split()[0])
        memory = f", {kib / 2**20:.0f} GiB"
    blas = ""
    try:
        config = np.show_config(mode="dicts")
        blas = f" with {config['Build Dependencies']['blas']['name']}"
    except (KeyError, TypeError, ValueError):
        pass
    return (f"{cpu}, {os.cpu_count()} cores{memory}; Python {platform.python_version()}, numpy {np.__version__}"
            f"{blas}; one BLAS thread")


def table(rows: list[Row], *, when: dt.datetime, host: str, areas: list[str]) -> str:
    """The generated section: a head with the date, the machine and the areas, then one line per row."""
    lines = [BEGIN, "## Latest `make bench` run", "",
             f"**Run:** {when:%Y-%m-%d %H:%M} UTC. **Machine:** {host}. **Areas:** {', '.join(areas)}.", "",
             "| task | best | median | target | note |", "| --- | ---: | ---: | --- | --- |"]
    for row in rows:
        median = "" if math.isnan(row.median) else f"{row.median:.3f} s"
        lines.append(f"| {row.task} | {row.seconds:.3f} s | {median} | {row.target} | {row.note} |")
    return "\n".join(lines + [END]) + "\n"


def write(path: Path, section: str) -> None:
    """Replace the generated section of ``path`` (or append it), writing the whole file atomically."""
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        text = head + section + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text)
    temporary.replace(path)
