"""Command line: ``python -m engine.pipelines PIPELINE [--FIELD VALUE ...] [--json]`` (``--list`` names them).

Each pipeline's options are the fields of its frozen config (``--field-name``; tuples comma-
separated; booleans ``--flag``/``--no-flag``; ``--eps`` also sets ``epsilon``), so the command line
runs exactly what a notebook's ``run(Config(...))`` runs. Fields left out keep the config's default,
except the ones that follow another choice as on the pages (``FOLLOWS``): the data radius (the
registry's default), the data source (the space's first) and the curvature bound κ (the space's own)
follow the space; for ``private-optimization`` the data, size, step size, batch and T follow the
application; for ``private-regression`` the residual bound τ follows the data set.

``--settings FILE`` reads a page's "Settings (JSON)" download (``engine.pipelines.settings_file``: the
config's fields, the page and a schema; an older download with the page's address keys is translated,
with one line on stderr); options given on the command line override the file's.
``--json`` prints the result's ``summary()``; without it, a table. ``private-mean`` also saves the
arrays with ``--releases-out FILE.npz``, ``who-wins-map`` its cells, ties (CSV) and figure (HTML)
into the existing folder ``--out DIR``. Bad input prints one line naming the value, exit status 2.

Examples::

    python -m engine.pipelines private-mean --space sphere --n 50 --eps 1 --seed 0 --json
    python -m engine.pipelines sensitivity --space spd --n 20 --reps 50 --json
    python -m engine.pipelines utility --space sphere --ns 10,50 --reps 20 --json
    python -m engine.pipelines private-subspace --method approx --n 2000 --json
    python -m engine.pipelines private-regression --dataset drift --n 40 --json
    python -m engine.pipelines private-optimization --app hyperbolic --epsilon 0.5 --json
    python -m engine.pipelines who-wins-map --space sphere --out DIR
    python -m engine.pipelines samplers --space hyperbolic --sigma 0.95 --json
    python -m engine.pipelines audit --audit kng --space spd --eps 2 --json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from engine import spaces
from engine.cli import OneLineParser, check_output_file, quiet_interrupt, write_whole
from engine.pipelines import (
    audit,
    private_mean,
    private_optimization,
    private_regression,
    private_subspace,
    sampler_comparison,
    sensitivity,
    settings_file,
    utility,
    who_wins_map,
)

#: Short spellings kept for the fields the README and the papers write so.
ALIASES = {"epsilon": ("--eps",)}


@dataclass(frozen=True)
class Pipeline:
    """A pipeline the command line runs: its frozen config class, ``run(config)``, a help line and the
    page whose settings file it reads (the file's ``"page"``)."""

    config: type
    run: Callable
    help: str
    page: str


PIPELINES = {
    "private-mean": Pipeline(private_mean.PrivateMeanConfig, private_mean.run,
                             "data → Fréchet mean → Theorem 2 → releases → assumption checks (the playground)",
                             "playground"),
    "sensitivity": Pipeline(sensitivity.SensitivityConfig, sensitivity.run,
                            "simulated neighbours against Theorem 2's bound (the Sensitivity page)", "sensitivity"),
    "utility": Pipeline(utility.UtilityConfig, utility.run,
                        "error against n and ε of the intrinsic and Euclidean Laplace (the Utility page)", "utility"),
    "private-regression": Pipeline(private_regression.RegressionConfig, private_regression.run,
                                   "private geodesic regression in two K-norm gradient steps", "regression"),
    "private-optimization": Pipeline(private_optimization.OptimizationConfig, private_optimization.run,
                                     "DP-RGD on one application of Han et al. against its noiseless twin, and the "
                                     "accountant (the Private optimization page)", "optimization"),
    "private-subspace": Pipeline(private_subspace.PrivateSubspaceConfig, private_subspace.run,
                                 "a private k-subspace of R^d (Singhal & Steinke and baselines)", "subspaces"),
    "who-wins-map": Pipeline(who_wins_map.WhoWinsMapConfig, who_wins_map.run,
                             "error ratio intrinsic / Euclidean Laplace over radius × dimension, and the ties",
                             "Utility (where each wins)"),
    "samplers": Pipeline(sampler_comparison.SamplerComparisonConfig, sampler_comparison.run,
                         "exact against Metropolis–Hastings draws of one Laplace law (the Samplers page)", "samplers"),
    "audit": Pipeline(audit.AuditConfig, audit.run,
                      "a 95 % lower bound on ε of a mechanism beside a broken control (the Audit page)", "audit"),
}


def _space_defaults(key: str) -> dict:
    entry = spaces.space(key)
    return {"radius": entry.default_radius, "kappa": float(entry.make(spaces.DEFAULT_LANDMARKS).kappa_max),
            "source": next(iter(entry.sources), None)}


@dataclass(frozen=True)
class Follow:
    """Fields whose default follows the value of the field ``key`` (as on the pages): ``defaults(value)``
    maps the chosen value to their defaults; ``whose`` names them in ``--help``."""

    key: str
    fields: tuple[str, ...]
    whose: str
    defaults: Callable[[object], dict]


FOLLOWS = (
    Follow("space", ("radius", "source", "kappa"), "the space's", _space_defaults),
    Follow("app", ("data", "size", "eta", "batch", "steps"), "the application's",
           lambda app: private_optimization.APP_DEFAULTS.get(app, {})),
    Follow("dataset", ("tau",), "the data set's",
           lambda dataset: {"tau": private_regression.DEFAULT_TAU[dataset]}
           if dataset in private_regression.DEFAULT_TAU else {}),
)


def _follow(config: type, name: str) -> Follow | None:
    """The ``FOLLOWS`` entry whose default ``config``'s field ``name`` follows, if any."""
    fields = config.__dataclass_fields__
    return next((f for f in FOLLOWS if name in f.fields and f.key in fields), None)


def _parse(kind: type, many: bool, name: str) -> Callable[[str], object]:
    """A converter of one option's text (comma-separated when ``many``) naming the field on failure."""
    def convert(text: str):
        try:
            values = tuple(kind(part) for part in text.split(",") if part) if many else kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be {'comma-separated ' if many else ''}"
                                             f"{kind.__name__}, got {text!r}") from None
        return values
    return convert


def _add_fields(parser: argparse.ArgumentParser, config: type) -> None:
    """One option per field of ``config``, absent from the namespace unless given."""
    for field in dataclasses.fields(config):
        flags = (f"--{field.name.replace('_', '-')}", *ALIASES.get(field.name, ()))
        follow = _follow(config, field.name)
        default = follow.whose if follow else field.default
        kind = settings_file.scalar_type(field)
        if kind is bool:
            parser.add_argument(*flags, dest=field.name, action=argparse.BooleanOptionalAction,
                                default=argparse.SUPPRESS, help=f"default: {default}")
            continue
        many = isinstance(field.default, tuple)
        shown = ",".join(map(str, default)) if many else default
        parser.add_argument(*flags, dest=field.name, type=_parse(kind, many, field.name), default=argparse.SUPPRESS,
                            metavar=kind.__name__.upper() + ("S" if many else ""), help=f"default: {shown}")


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="python -m engine.pipelines", description=__doc__,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="name the pipelines and exit")
    commands = parser.add_subparsers(dest="pipeline", metavar="PIPELINE")
    for name, pipeline in PIPELINES.items():
        sub = commands.add_parser(name, help=pipeline.help, description=pipeline.help)
        _add_fields(sub, pipeline.config)
        sub.add_argument("--settings", type=Path, default=None, metavar="FILE",
                         help=f"the {pipeline.page} page's settings (JSON); options given override it")
        sub.add_argument("--json", action="store_true", help="print JSON instead of a table")
        if name == "private-mean":
            sub.add_argument("--releases-out", type=Path, default=None, help="save data, mean and releases (.npz)")
        if name == "who-wins-map":
            sub.add_argument("--out", type=Path, default=None, help="folder for the cells and ties (CSV) and the map "
                                                                     "(HTML)")
    return parser


def _note(line: str) -> None:
    """Say ``line`` on stderr, as ``note: LINE``."""
    print(f"note: {line}", file=sys.stderr)


def config_from_args(args: argparse.Namespace):
    """The config of ``args.pipeline`` from the ``--settings`` file, then the given options; a field that
    follows another (``FOLLOWS``) defaults to the chosen value's; ``ValueError`` naming a bad value."""
    pipeline = PIPELINES[args.pipeline]
    config = pipeline.config
    names = [field.name for field in dataclasses.fields(config)]
    given = {name: getattr(args, name) for name in names if hasattr(args, name)}
    if args.settings is not None:
        given = {**settings_file.read(args.settings, config, pipeline.page, _note), **given}
    for follow in (f for f in FOLLOWS if f.key in names and set(f.fields) & set(names)):
        defaults = follow.defaults(given.get(follow.key, config.__dataclass_fields__[follow.key].default))
        given = {**{name: value for name, value in defaults.items() if name in names}, **given}
    _check_selections(config, given)
    return config(**given)


def _check_selections(config: type, given: dict) -> None:
    """``ValueError`` if a list field whose default is not empty is given empty (``--mechanisms ''`` or
    ``"mechanisms": []``): a run of nothing would end with exit 0 and no result. A page lets one
    deselect every mechanism and says so; a command line refuses it."""
    for field in dataclasses.fields(config):
        value = given.get(field.name)
        if isinstance(field.default, tuple) and field.default and isinstance(value, (list, tuple)) and not value:
            example = ",".join(map(str, field.default))
            raise ValueError(f"{field.name} is empty; give at least one, e.g. --{field.name.replace('_', '-')} "
                             f"{example}")


def _print_private_mean(result: private_mean.PrivateMeanResult, summary: dict) -> None:
    print(f"{result.manifold_name}: n = {result.n_used}, mean = {np.array2string(result.mean, precision=6)}")
    for r in summary["mechanisms"]:
        if r["skipped"]:
            print(f"  {r['label']:26s} skipped: {r['skipped']}")
            continue
        g, error = r["guarantee"], r["errors"]["geodesic"]
        error = "not computable" if error is None else f"{error:.6g}"
        print(f"  {r['label']:26s} Δ = {r['sensitivity']:.6g}  σ = {r['sigma']:.6g}  "
              f"geodesic error = {error}  " + (f"NOT DP: {g['void']}" if g["void"] else
                                                f"({g['epsilon']:g}, {g['delta']:g})-DP"))
    for check in result.checks:
        print(f"  [{check.level}] {check.title}: {check.text}")


def _print_summary(summary: dict) -> None:
    """Scalars as ``name: value`` lines, lists of rows as tables, dicts as indented lines."""
    for name, value in summary.items():
        if isinstance(value, list) and value and all(isinstance(row, dict) for row in value):
            print(f"{name}:\n{pd.DataFrame(value).to_string(index=False)}")
        elif isinstance(value, dict):
            print(f"{name}:")
            for key, item in value.items():
                print(f"  {key}: {item}")
        else:
            print(f"{name}: {value}")


def _map_files(out: Path, space: str) -> dict[str, Path]:
    """The files ``who-wins-map --out`` writes in the existing folder ``out`` (cells, ties, figure,
    settings), each checked writable before the run (``engine.cli.check_output_file``)."""
    if not out.is_dir():
        why = "is a file" if out.exists() else "does not exist"
        raise ValueError(f"--out {str(out)!r} {why}; give an existing folder")
    names = {"cells": "cells.csv", "ties": "ties.csv", "figure": "figure.html", "settings": "settings.json"}
    return {part: check_output_file("--out", out / f"who-wins-map-{space}-{name}") for part, name in names.items()}


def _write_map(files: dict[str, Path], result: who_wins_map.WhoWinsMap) -> None:
    """The map's cells and ties (CSV), its figure (HTML) and settings (JSON), each written whole; every
    text is made before the first file is written."""
    from engine.viz.export import figure_to_html
    from engine.viz.who_wins_map import who_wins_map_figure

    fig = who_wins_map_figure(result.cells, result.ties, space=result.family.label,
                              parameter_label=result.family.parameter_label, n=result.config.n,
                              epsilon=result.config.epsilon, predicted=result.predicted_ties,
                              mechanism=result.config.mechanism)
    texts = {"cells": result.cells.to_csv(index=False), "ties": result.ties.to_csv(index=False),
             "figure": figure_to_html(fig), "settings": json.dumps(dataclasses.asdict(result.config), indent=1) + "\n"}
    for part, path in files.items():
        write_whole(path, lambda file, text=texts[part]: file.write(text.encode()))


@quiet_interrupt
def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.list:
        width = max(map(len, PIPELINES))
        for name, pipeline in PIPELINES.items():
            print(f"{name:{width}s}  {pipeline.help}")
        return 0
    if args.pipeline is None:
        parser.error(f"name a pipeline: {', '.join(PIPELINES)} (or --list)")
    releases_out, out = getattr(args, "releases_out", None), getattr(args, "out", None)
    try:
        if releases_out is not None:
            # np.savez's own naming: FILE becomes FILE.npz.
            releases_out = check_output_file("--releases-out", releases_out, suffix=".npz")
        config = config_from_args(args)
        files = _map_files(out, config.space) if out is not None else None
        result = PIPELINES[args.pipeline].run(config)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    summary = result.summary()
    if files is not None:
        _write_map(files, result)
    if releases_out is not None:
        arrays = {f"releases_{r.key}": r.releases for r in result.runs if r.releases is not None}
        write_whole(releases_out, lambda file: np.savez(file, data=result.data, m0=result.m0, mean=result.mean,
                                                         **arrays))
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    elif args.pipeline == "private-mean":
        _print_private_mean(result, summary)
    else:
        _print_summary(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
