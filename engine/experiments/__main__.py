"""Command line: ``python -m engine.experiments NAME --reps R --seed S --out DIR`` or ``--list``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.experiments import STUDIES, load
from engine.threads import single_blas_thread


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.experiments", description=__doc__)
    parser.add_argument("name", nargs="?", help="study to run (see --list)")
    parser.add_argument("--list", action="store_true", help="name the studies and exit")
    parser.add_argument("--reps", type=int, default=None, help="replicates per setting")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("out"), help="folder for CSV files and figures")
    parser.add_argument("--settings", type=Path, default=None,
                        help="JSON file of further keyword settings (as downloaded from the app)")
    args = parser.parse_args(argv)
    if args.list or not args.name:
        for name, (_, description) in STUDIES.items():
            print(f"{name:16s} {description}")
        return 0
    try:
        study = load(args.name)
        settings = json.loads(args.settings.read_text()) if args.settings else {}
        settings.pop("study", None)
        if args.reps is not None:
            settings["reps"] = args.reps
        settings["seed"] = args.seed
        with single_blas_thread():
            results = study.run(**settings, progress=lambda f: print(f"\r{100 * f:5.1f}%", end="", file=sys.stderr))
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)
    for table, frame in results.items():
        frame.to_csv(args.out / f"{args.name}-{table}.csv", index=False)
    from engine.viz.export import figure_to_html

    for label, fig in study.figures(results).items():
        (args.out / f"{args.name}-{label}.html").write_text(figure_to_html(fig))
    print(f"wrote {len(results)} tables to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
