"""Command line: ``python -m engine.experiments NAME [--workers N | --scheduler tcp://HOST:PORT]``.

Runs study NAME (``--list`` names them) in-process, on N local Dask worker processes, or on an
existing Dask scheduler; writes its tables (CSV) and figures (HTML) into ``--out``. Results are
cached on disk (``engine.experiments.cache``); ``--no-cache`` runs again. Bad input (an unknown
study, ``--workers 0``, an unreachable scheduler, a bad setting) prints one line and exits with 2,
leaving the output folder untouched.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from engine.experiments import STUDIES, load

#: Seconds a run must last before its progress bar appears.
PROGRESS_DELAY = 1.0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``error: ...`` and exit status 2."""

    def error(self, message):
        self.exit(2, f"error: {message}; see `{self.prog} --help`\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine.experiments", description=__doc__,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", nargs="?", help="study to run (see --list)")
    parser.add_argument("--list", action="store_true", help="name the studies and exit")
    parser.add_argument("--reps", type=int, default=None, help="replicates per setting")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("out"), help="folder for CSV files and figures")
    parser.add_argument("--settings", type=Path, default=None,
                        help="JSON file of further settings of the study's Params (as downloaded from the app)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help="run on a local Dask cluster of this many worker processes (default: in-process)")
    where.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                       help="run on the workers of an existing Dask scheduler")
    parser.add_argument("--no-cache", action="store_true", help="run even if a cached result exists")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="folder of cached results (default: $MPE_CACHE_DIR or ~/.cache/manifold-privacy-explorer)")
    return parser


def _params(module, args):
    """The study's ``Params`` from ``--settings``, ``--reps`` and ``--seed``."""
    from engine.experiments.protocol import make_params

    settings = {}
    if args.settings is not None:
        try:
            settings = json.loads(args.settings.read_text())
        except (OSError, json.JSONDecodeError) as err:
            raise ValueError(f"cannot read --settings {str(args.settings)!r} ({err}); give a JSON file of "
                             f"settings") from None
    settings.pop("study", None)
    if args.reps is not None:
        settings["reps"] = args.reps
    settings["seed"] = args.seed
    return make_params(module.Params, settings)


def _progress_bar(name: str):
    """A tqdm bar on stderr that appears only once the run has taken a second; returns (callback, bar)."""
    from tqdm import tqdm

    bar = tqdm(total=1.0, desc=name, delay=PROGRESS_DELAY, file=sys.stderr,
               bar_format="{desc} {percentage:3.0f}%|{bar}| {elapsed}<{remaining}")
    return (lambda fraction: bar.update(fraction - bar.n)), bar


def write_outputs(out: Path, name: str, results: dict, figures: dict) -> None:
    """Write every table and figure into a staging folder beside ``out``, then move them in, so the
    output folder never holds a partial result."""
    from engine.viz.export import figure_to_html

    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-staging-", dir=out.parent))
    try:
        for table, frame in results.items():
            frame.to_csv(staging / f"{name}-{table}.csv", index=False)
        for label, fig in figures.items():
            (staging / f"{name}-{label}.html").write_text(figure_to_html(fig))
        out.mkdir(parents=True, exist_ok=True)
        for path in sorted(staging.iterdir()):
            os.replace(path, out / path.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.list or not args.name:
        for name, (_, description) in STUDIES.items():
            print(f"{name:26s} {description}")
        return 0
    from engine.experiments import cache, runner

    try:
        if args.name not in STUDIES:
            raise ValueError(f"unknown study {args.name!r}; choose one of {', '.join(STUDIES)} "
                             f"(`python -m engine.experiments --list` describes them)")
        if args.workers is not None and args.workers < 1:
            raise ValueError(f"--workers must be at least 1, got {args.workers}; give --workers 1 or more, "
                             f"or leave it out to run in-process")
        study = load(args.name)
        params = _params(study, args)
        cache_dir = None if args.no_cache else (args.cache_dir or cache.default_directory())
        if cache_dir is not None and cache.contains(cache_dir, study.__name__, params):
            print(f"reusing the cached result in {cache_dir} (--no-cache runs the study again)", file=sys.stderr)
        progress, bar = _progress_bar(args.name)
        try:
            results = runner.run(study, params, workers=args.workers, scheduler=args.scheduler,
                                 progress=progress, cache_dir=cache_dir)
        finally:
            bar.close()
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    write_outputs(args.out, args.name, results, study.figures(results))
    print(f"wrote {len(results)} tables to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
