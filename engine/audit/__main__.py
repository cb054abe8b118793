"""Command line: ``python -m engine.audit --list`` and
``python -m engine.audit NAME [--space S] [--eps E] [--samples N] [--seed S] [--no-early-stop]``.

Prints the audit's table: nominal ε, δ, the most the pair can show, the 95 % lower bound, the
releases used per side and the verdict (``FLAGGED`` when the bound exceeds the claim). ``all``
runs every audit on its default space. Exit status 0 unless an argument is invalid.
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from engine.audit.registry import AUDITS
from engine.audit.run import run_audit


def _table(rows) -> str:
    frame = pd.DataFrame(rows)[["audit", "epsilon", "delta", "reachable_epsilon", "epsilon_lower",
                                "lower_over_epsilon", "samples_per_side", "verdict", "stop", "seconds"]]
    return frame.to_string(index=False, float_format=lambda v: f"{v:.4g}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.audit", description=__doc__.split("\n\n")[0])
    parser.add_argument("name", nargs="?", help="audit name (see --list), or 'all'")
    parser.add_argument("--list", action="store_true", help="list the audits and their spaces")
    parser.add_argument("--space", help="space key (default: the audit's first)")
    parser.add_argument("--eps", type=float, help="claimed epsilon (default: the audit's)")
    parser.add_argument("--samples", type=int, help="releases per side (default: the audit's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-early-stop", action="store_true", help="always use the whole budget")
    args = parser.parse_args(argv)
    if args.list or not args.name:
        for spec in AUDITS.values():
            kind = "control" if spec.control else "audit"
            print(f"{spec.name:28s} {kind:8s} spaces: {', '.join(spec.spaces):42s} {spec.description}")
        return 0
    names = list(AUDITS) if args.name == "all" else [args.name]
    rows = []
    for name in names:
        if name not in AUDITS:
            parser.error(f"unknown audit {name!r}; choose from {', '.join(AUDITS)}")
        spec = AUDITS[name]
        try:
            target = spec.target(args.space if args.name != "all" else None, args.eps)
        except ValueError as err:
            parser.error(str(err))
        result = run_audit(target, samples=args.samples or spec.default_samples, rng=args.seed,
                           early_stop=not args.no_early_stop)
        rows.append(result.row())
        if args.name != "all":
            print(f"{result.label}\n  pair: {result.pair_description}\n  statistic: {result.statistic_name}")
            print(f"  rejection set: {result.rejection.describe()}")
            if result.notes:
                print(f"  note: {result.notes}")
    print(_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
