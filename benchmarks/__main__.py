"""Run every benchmark and print a Markdown table: ``python -m benchmarks [area ...]``."""

from __future__ import annotations

import argparse
import importlib

AREAS = ["frechet", "samplers", "studies", "distributed", "dp_rgd", "audit", "subspaces", "pages"]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("areas", nargs="*", help=f"any of {', '.join(AREAS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.areas) - set(AREAS))
    if unknown:
        parser.error(f"unknown areas {unknown}; choose from {', '.join(AREAS)}")
    print("| task | measured | target | note |", flush=True)
    print("| --- | ---: | --- | --- |", flush=True)
    for area in args.areas or AREAS:
        for row in importlib.import_module(f"benchmarks.{area}").run():
            print(f"| {row.task} | {row.seconds:.3f} s | {row.target} | {row.note} |", flush=True)


if __name__ == "__main__":
    main()
