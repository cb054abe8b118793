"""Run every benchmark and print a Markdown table: ``python -m benchmarks [area ...]``."""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import math
from pathlib import Path

from benchmarks import results_file
from engine.threads import single_blas_thread

AREAS = ["frechet", "samplers", "studies", "distributed", "dp_rgd", "regression", "audit", "subspaces", "imports", "pages",
         "presets", "load", "class_load", "lesson", "lesson_pack", "live_chart", "who_wins_map", "animation"]
#: ``animation`` is part of ``pages``; on its own it runs the animation rows (and times the n frames' engine call).
DEFAULT_AREAS = AREAS[:-1]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("areas", nargs="*", help=f"any of {', '.join(AREAS)} (default: all but animation, which pages includes)")
    parser.add_argument("--results", type=Path, metavar="FILE",
                        help="also write the table, the machine and the date into FILE's generated section "
                             "(make bench: benchmarks/RESULTS.md)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.areas) - set(AREAS))
    if unknown:
        parser.error(f"unknown areas {unknown}; choose from {', '.join(AREAS)}")
    if args.results is not None and not args.results.parent.is_dir():
        parser.error(f"--results: the folder of {str(args.results)!r} does not exist; give a file in an existing folder")
    areas = args.areas or DEFAULT_AREAS
    started = dt.datetime.now(dt.timezone.utc)
    print("| task | best | median | target | note |")
    print("| --- | ---: | ---: | --- | --- |")
    rows = []
    with single_blas_thread():
        for area in areas:
            for row in importlib.import_module(f"benchmarks.{area}").run():
                median = "" if math.isnan(row.median) else f"{row.median:.3f} s"
                print(f"| {row.task} | {row.seconds:.3f} s | {median} | {row.target} | {row.note} |", flush=True)
                rows.append(row)
    if args.results is not None:
        results_file.write(args.results, results_file.table(rows, when=started, host=results_file.machine(),
                                                            areas=list(areas)))


if __name__ == "__main__":
    main()
