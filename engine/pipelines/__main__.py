"""Command line: ``python -m engine.pipelines private-mean --space sphere --n 50 --eps 1 --seed 0 --json``.

Prints the run's numbers (mean, Theorem 2, σ, errors and guarantee per mechanism, the assumption
checks) as a table or, with ``--json``, as JSON; ``--releases-out FILE.npz`` also saves the arrays.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from engine.data.ball import POLICIES
from engine.pipelines.private_mean import MECHANISMS, PrivateMeanConfig, run
from engine.spaces import SPACES

DEFAULTS = PrivateMeanConfig()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine.pipelines", description=__doc__)
    parser.add_argument("pipeline", choices=["private-mean"], help="the pipeline to run")
    parser.add_argument("--space", default=DEFAULTS.space, choices=list(SPACES))
    parser.add_argument("--source", default=None, help="data source (default: the space's first)")
    parser.add_argument("--n", type=int, default=DEFAULTS.n)
    parser.add_argument("--radius", type=float, default=None, help="public data radius r (default: the space's)")
    parser.add_argument("--eps", type=float, default=DEFAULTS.epsilon)
    parser.add_argument("--delta", type=float, default=DEFAULTS.delta)
    parser.add_argument("--mechanisms", default=",".join(DEFAULTS.mechanisms),
                        help=f"comma-separated subset of {','.join(MECHANISMS)}")
    parser.add_argument("--outside", default=DEFAULTS.outside, choices=POLICIES,
                        help="records outside B_r(m0): refuse (default), clip, drop or keep (voids the guarantee)")
    parser.add_argument("--k", type=int, default=DEFAULTS.k, help="landmarks (Kendall shapes)")
    parser.add_argument("--releases", type=int, default=DEFAULTS.releases)
    parser.add_argument("--seed", type=int, default=DEFAULTS.seed)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--releases-out", type=Path, default=None, help="save data, mean and releases (.npz)")
    return parser


def config_from_args(args) -> PrivateMeanConfig:
    from engine.pipelines.sources import SOURCES
    from engine.spaces import space

    return PrivateMeanConfig(
        space=args.space, source=args.source or next(iter(SOURCES[args.space])), n=args.n,
        radius=space(args.space).default_radius if args.radius is None else args.radius, epsilon=args.eps,
        delta=args.delta, mechanisms=tuple(m for m in args.mechanisms.split(",") if m), outside=args.outside,
        k=args.k, releases=args.releases, seed=args.seed)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        result = run(config_from_args(args))
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    summary = result.summary()
    if args.releases_out is not None:
        arrays = {f"releases_{r.key}": r.releases for r in result.runs if r.releases is not None}
        np.savez(args.releases_out, data=result.data, m0=result.m0, mean=result.mean, **arrays)
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
        return 0
    print(f"{result.manifold_name}: n = {result.n_used}, mean = {np.array2string(result.mean, precision=6)}")
    for r in summary["mechanisms"]:
        if r["skipped"]:
            print(f"  {r['label']:26s} skipped: {r['skipped']}")
            continue
        g = r["guarantee"]
        print(f"  {r['label']:26s} Δ = {r['sensitivity']:.6g}  σ = {r['sigma']:.6g}  "
              f"geodesic error = {r['errors']['geodesic']:.6g}  ({g['epsilon']:g}, {g['delta']:g})-DP")
    for check in result.checks:
        print(f"  [{check.level}] {check.title}: {check.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
