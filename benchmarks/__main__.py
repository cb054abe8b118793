"""Run every benchmark and print a Markdown table: ``python -m benchmarks [area ...]``."""

from __future__ import annotations

import argparse
import importlib
import math

from engine.threads import single_blas_thread

AREAS = ["frechet", "samplers", "studies", "distributed", "dp_rgd", "regression", "audit", "subspaces", "imports", "pages",
         "presets", "load", "lesson", "live_chart", "animation"]
#: ``animation`` is part of ``pages``; on its own it runs the animation rows (and times the n frames' engine call).
DEFAULT_AREAS = AREAS[:-1]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("areas", nargs="*", help=f"any of {', '.join(AREAS)} (default: all but animation, which pages includes)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.areas) - set(AREAS))
    if unknown:
        parser.error(f"unknown areas {unknown}; choose from {', '.join(AREAS)}")
    print("| task | best | median | target | note |")
    print("| --- | ---: | ---: | --- | --- |")
    with single_blas_thread():
        for area in args.areas or DEFAULT_AREAS:
            for row in importlib.import_module(f"benchmarks.{area}").run():
                median = "" if math.isnan(row.median) else f"{row.median:.3f} s"
                print(f"| {row.task} | {row.seconds:.3f} s | {median} | {row.target} | {row.note} |", flush=True)


if __name__ == "__main__":
    main()
