"""Command line: ``python -m engine.audit --list`` and
``python -m engine.audit NAME [--space S] [--eps E] [--samples N] [--seed S] [--no-early-stop]
[--tradeoff FILE.csv]``.

Prints the audit's table: nominal ε, δ, the most the pair can show, the 95 % lower bound, the
releases used per side and the verdict (``FLAGGED`` when the bound exceeds the claim). ``all``
runs every audit on its default space. ``--tradeoff`` writes the measured trade-off curve of one
audit (``engine.audit.tradeoff``: columns alpha, beta, beta_low, beta_high, claimed_beta). Exit status
0 unless an argument is invalid.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from engine.audit.registry import AUDITS
from engine.audit.run import run_audit
from engine.audit.tradeoff import audit_tradeoff
from engine.cli import OneLineParser, check_output_file, quiet_interrupt, write_whole
from engine.validation import check_int

#: ``--samples`` may be at most this many times the audit's default budget: the defaults take seconds
#: (0.6 s for laplace's 200,000, 7 s for dp-rgd's 40,000 on one core), so the most is minutes to an hour.
MAX_SAMPLES_FACTOR = 100


def _table(rows) -> str:
    frame = pd.DataFrame(rows)[["audit", "epsilon", "delta", "reachable_epsilon", "epsilon_lower",
                                "lower_over_epsilon", "samples_per_side", "verdict", "stop", "seconds"]]
    return frame.to_string(index=False, float_format=lambda v: f"{v:.4g}")


def _samples(given: int | None, spec) -> int:
    """The releases per side: the audit's default when not given, else ``given`` if in [2, the most]."""
    if given is None:
        return spec.default_samples
    most = MAX_SAMPLES_FACTOR * spec.default_samples
    if not 2 <= given <= most:
        raise ValueError(f"--samples must be an integer from 2 to {most} ({MAX_SAMPLES_FACTOR} × the default "
                         f"{spec.default_samples} of {spec.name}, which takes seconds), got {given}; omit it for "
                         f"the default")
    return given


@quiet_interrupt
def main(argv=None) -> int:
    parser = OneLineParser(prog="python -m engine.audit", description=__doc__.split("\n\n")[0])
    parser.add_argument("name", nargs="?", help="audit name (see --list), or 'all'")
    parser.add_argument("--list", action="store_true", help="list the audits and their spaces")
    parser.add_argument("--space", help="space key (default: the audit's first)")
    parser.add_argument("--eps", type=float, help="claimed epsilon (default: the audit's)")
    parser.add_argument("--samples", type=int, help="releases per side, at least 2 (default: the audit's)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the releases, an integer >= 0")
    parser.add_argument("--no-early-stop", action="store_true", help="always use the whole budget")
    parser.add_argument("--tradeoff", type=Path, metavar="FILE.csv",
                        help="write the measured trade-off curve with its band and the claim's curve (one audit)")
    args = parser.parse_args(argv)
    if args.list or not args.name:
        for spec in AUDITS.values():
            kind = "control" if spec.control else "audit"
            print(f"{spec.name:28s} {kind:8s} spaces: {', '.join(spec.spaces):42s} {spec.description}")
        return 0
    names = list(AUDITS) if args.name == "all" else [args.name]
    if args.name != "all" and args.name not in AUDITS:
        parser.error(f"unknown audit {args.name!r}; choose from {', '.join(AUDITS)}")
    try:
        if args.tradeoff is not None and args.name == "all":
            raise ValueError("--tradeoff writes the curve of one audit; give its name instead of 'all'")
        seed = check_int("--seed", args.seed, minimum=0)
        budgets = [_samples(args.samples, AUDITS[name]) for name in names]
        targets = [AUDITS[name].target(args.space if args.name != "all" else None, args.eps) for name in names]
        tradeoff = None if args.tradeoff is None else check_output_file("--tradeoff", args.tradeoff, suffix=".csv")
    except ValueError as err:
        parser.error(str(err))
    rows = []
    for samples, target in zip(budgets, targets):
        try:
            result = run_audit(target, samples=samples, rng=seed, early_stop=not args.no_early_stop)
        except ValueError as err:
            parser.error(str(err))
        rows.append(result.row())
        if args.name != "all":
            print(f"{result.label}\n  pair: {result.pair_description}\n  statistic: {result.statistic_name}")
            print(f"  rejection set: {result.rejection.describe()}")
            if result.notes:
                print(f"  note: {result.notes}")
            if tradeoff is not None:
                curve = audit_tradeoff(result)
                write_whole(tradeoff, lambda file: curve.frame().to_csv(file, index=False))
                print(f"  trade-off curve: {tradeoff} ({curve.claim} claimed; simultaneous band at "
                      f"{1 - curve.level:.1%}; {'below the claim' if curve.refutes else 'not below the claim'})")
    print(_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
