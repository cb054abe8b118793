"""Command line: ``python -m engine.experiments NAME [--workers N | --scheduler tcp://HOST:PORT]``.

Runs study NAME (``--list`` names them) in-process, on N local Dask worker processes, or on an
existing Dask scheduler; writes its tables (CSV), figures (HTML) and effective settings
(``NAME-settings.json``, which ``--settings`` takes back) into ``--out``. Settings come from the
study's defaults, then ``--settings FILE`` (the study's own settings, or a page's "Settings (JSON)"
download where that page's config maps onto the study), then the flags given (``--reps``, ``--seed``). Results
are cached on disk (``engine.experiments.cache``) and checked on every read; ``--no-cache`` runs
the study again and replaces the cached entry. Bad input (an unknown study, ``--workers 0``, an
unreachable scheduler, a scheduler with no worker within ``--worker-timeout`` seconds or with a worker
that cannot import the engine, a bad setting, an ``--out`` that cannot be written) prints one line and
exits with 2 before any work, leaving the output folder untouched; Ctrl-C exits with 130, also
leaving it untouched.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import signal
import sys
import tempfile
import warnings
from contextlib import contextmanager
from pathlib import Path

from engine.cli import quiet_interrupt
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
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the run (default: the settings file's, else the study's, 0)")
    parser.add_argument("--out", type=Path, default=Path("out"), help="folder for CSV files and figures")
    parser.add_argument("--settings", type=Path, default=None,
                        help="JSON file of further settings of the study's Config (as downloaded from the app)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help="run on a local Dask cluster of this many worker processes (default: in-process)")
    where.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                       help="run on the workers of an existing Dask scheduler")
    parser.add_argument("--worker-timeout", type=float, default=None, metavar="SECONDS",
                        help="with --scheduler: seconds to wait for a first worker before giving up (default: 30)")
    parser.add_argument("--no-cache", action="store_true",
                        help="run even if a cached result exists, and replace it with this run's")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="folder of cached results (default: $MPE_CACHE_DIR or ~/.cache/manifold-privacy-explorer)")
    return parser


def _config(name: str, module, args):
    """The study's ``Config``: its defaults, then the ``--settings`` file, then the flags given."""
    from engine.experiments.protocol import make_config

    settings = {}
    if args.settings is not None:
        settings = read_settings(args.settings, name, module.Config)
    flags = {"reps": args.reps, "seed": args.seed}
    settings.update({key: value for key, value in flags.items() if value is not None})
    return make_config(module.Config, settings)


def read_settings(path: Path, name: str, config_type: type) -> dict:
    """The settings of the JSON object in ``path`` (its ``"study"`` entry, if any, must be ``name``); a page's
    settings file (with ``"page"``, or an older one with the page's address keys) is mapped onto the study
    (``engine.experiments.page_settings``); ``config_type`` is the study's ``Config``."""
    from engine.pipelines.settings_file import load_json

    settings = load_json(path, "--settings")
    if not isinstance(settings, dict):
        raise ValueError(f"--settings {str(path)!r} holds a JSON {type(settings).__name__}, not an object; give "
                         f'settings by name, such as {{"reps": 3, "seed": 7}}')
    study = settings.pop("study", name)
    if study != name:
        raise ValueError(f"--settings {str(path)!r} holds settings of study {study!r}, not {name!r}; run "
                         f"`python -m engine.experiments {study} --settings {path}` or drop its \"study\" entry")
    from engine.experiments.page_settings import page_of_old_download, study_settings

    page = page_of_old_download(name, settings, config_type)
    if page is not None or "page" in settings:
        return study_settings(name, {"page": page, **settings}, repr(str(path)), _note)
    return settings


def _note(line: str) -> None:
    """Say ``line`` on stderr, as ``note: LINE``."""
    print(f"note: {line}", file=sys.stderr)


def check_writable(out: Path) -> None:
    """``ValueError`` unless ``out`` is (or can be made) a folder this process can write into.

    Probed by creating and removing a temporary folder in ``out`` or its nearest existing parent.
    """
    existing = out
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        what = "is a file" if existing == out else f"lies under the file {str(existing)!r}"
        raise ValueError(f"--out {str(out)!r} {what}; give a folder path")
    try:
        tempfile.TemporaryDirectory(prefix=".probe-", dir=existing).cleanup()
    except OSError as err:
        raise ValueError(f"--out {str(out)!r} cannot be written ({err.strerror} in {str(existing)!r}); give a "
                         f"folder you can write to") from None


def _progress_bar(name: str, delay: float):
    """A tqdm bar on stderr that appears once the run has taken ``delay`` seconds; returns (callback, bar)."""
    from tqdm import tqdm

    bar = tqdm(total=1.0, desc=name, delay=delay, file=sys.stderr,
               bar_format="{desc} {percentage:3.0f}%|{bar}| {elapsed}<{remaining}")
    return (lambda fraction: bar.update(fraction - bar.n)), bar


def write_outputs(out: Path, name: str, results: dict, figures: dict, settings: dict) -> None:
    """Write every table, figure and the effective ``settings`` into a staging folder beside ``out``, then
    move them in (Ctrl-C waits for the move), so the output folder never holds a partial result."""
    from engine.viz.export import figure_to_html

    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-staging-", dir=out.parent))
    try:
        for table, frame in results.items():
            frame.to_csv(staging / f"{name}-{table}.csv", index=False)
        for label, fig in figures.items():
            (staging / f"{name}-{label}.html").write_text(figure_to_html(fig))
        (staging / f"{name}-settings.json").write_text(json.dumps(settings, indent=1) + "\n")
        with interrupts_deferred():
            out.mkdir(parents=True, exist_ok=True)
            for path in sorted(staging.iterdir()):
                os.replace(path, out / path.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


@contextmanager
def interrupts_deferred():
    """Hold back SIGINT until the block is done, then raise ``KeyboardInterrupt`` if one came."""
    received = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        raise KeyboardInterrupt


def _one_line_warnings(shown):
    """A ``showwarning`` printing each warning as one line, ``warning: MESSAGE``, on stderr, except numpy's
    floating-point ``RuntimeWarning``s, which go to ``shown`` (the command line's gathered note)."""
    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if issubclass(category, RuntimeWarning):
            shown(message, category, filename, lineno, file, line)
        else:
            print(f"warning: {message}", file=sys.stderr)
    return show


@quiet_interrupt
def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.list or not args.name:
        for name, (_, description) in STUDIES.items():
            print(f"{name:26s} {description}")
        return 0
    from engine.experiments.cache import CacheWarning

    with warnings.catch_warnings():
        warnings.simplefilter("always", CacheWarning)
        warnings.showwarning = _one_line_warnings(warnings.showwarning)
        try:
            return _run(args)
        except KeyboardInterrupt:
            print(f"interrupted; nothing was written to {str(args.out)!r}", file=sys.stderr)
            return 130


def _worker_timeout(args) -> float:
    """The ``--worker-timeout`` given (with ``--scheduler`` only, a finite number of seconds > 0), else the default."""
    from engine.experiments import runner

    if args.worker_timeout is None:
        return runner.WORKER_TIMEOUT
    if args.scheduler is None:
        raise ValueError(f"--worker-timeout {args.worker_timeout:g} applies to --scheduler only; give --scheduler "
                         f"tcp://HOST:PORT or leave --worker-timeout out")
    if not 0 < args.worker_timeout < float("inf"):
        raise ValueError(f"--worker-timeout must be a finite number of seconds > 0, got {args.worker_timeout:g}; "
                         f"give e.g. --worker-timeout 30")
    return args.worker_timeout


def _run(args) -> int:
    """Check the input, run the study (or reuse its cached result) and write the outputs."""
    from engine.experiments import cache, runner

    try:
        if args.name not in STUDIES:
            raise ValueError(f"unknown study {args.name!r}; choose one of {', '.join(STUDIES)} "
                             f"(`python -m engine.experiments --list` describes them)")
        if args.workers is not None and args.workers < 1:
            raise ValueError(f"--workers must be at least 1, got {args.workers}; give --workers 1 or more, "
                             f"or leave it out to run in-process")
        worker_timeout = _worker_timeout(args)
        study = load(args.name)
        config = _config(args.name, study, args)
        check_writable(args.out)
        cache_dir = args.cache_dir or cache.default_directory()
        results = None if args.no_cache else cache.load(cache_dir, study.__name__, config, study.TABLES)
        if results is not None:
            print(f"reusing the cached result in {cache_dir} (--no-cache runs the study again)", file=sys.stderr)
        else:
            # On a scheduler the bar shows 0 % at once: the wait for a worker is part of the run.
            progress, bar = _progress_bar(args.name, 0.0 if args.scheduler else PROGRESS_DELAY)
            try:
                results = runner.run(study, config, workers=args.workers, scheduler=args.scheduler,
                                     progress=progress, cache_dir=cache_dir, read_cache=False,
                                     worker_timeout=worker_timeout)
            except BaseException:
                bar.leave = False  # the error line replaces the bar
                raise
            finally:
                bar.close()
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    settings = {"study": args.name, **dataclasses.asdict(config)}
    write_outputs(args.out, args.name, results, study.figures(results), settings)
    print(f"wrote {len(results)} tables and the settings to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
