"""Empirical audit: the sphere Laplace at 10^6 releases per side, the page's first bound (issue 13), and
audit power (issue 43): every mechanism and its 2× twin (built at 2ε, claiming ε) at the entry's default
budget on its default space.

A row of the power table gives the correct mechanism's lower bound and reach over the claim, the twin's,
the releases per side each used and whether the twin was flagged (its bound above the claim). The
regression entries are left out (``SLOW``): their MCMC releases take minutes per thousand, and
``tests/engine/audit/test_regression.py`` audits them and their control.
"""

from __future__ import annotations

import time

from benchmarks.timing import Row
from engine.audit import AUDITS, run_audit

SAMPLES = 1_000_000
FIRST_BOUND_BATCH = 10_000
#: Entries left out of the power table, with why.
SLOW = {name: "MCMC releases, minutes per thousand" for name in AUDITS if name.startswith("regression-")}


def power_rows() -> list[Row]:
    """One row per mechanism entry: its audit and its twin's (or why it has none) at the default budget."""
    rows = []
    for name, spec in AUDITS.items():
        if spec.control or name in SLOW:
            continue
        correct = run_audit(spec.target(), samples=spec.default_samples, rng=0)
        note = (f"{spec.default_space}, claim ε = {correct.epsilon:g}: correct ε ≥ {correct.epsilon_lower:.3f} "
                f"({correct.epsilon_lower / correct.epsilon:.2f} of the claim; reach {correct.reachable_epsilon:.3g}), "
                f"{correct.samples:,} per side, {correct.seconds:.1f} s")
        seconds = correct.seconds
        twin_name = f"twin-{name}"
        if twin_name in AUDITS:
            twin = run_audit(AUDITS[twin_name].target(), samples=spec.default_samples, rng=0)
            note += (f"; twin ε ≥ {twin.epsilon_lower:.3f} ({twin.epsilon_lower / twin.epsilon:.2f}; reach "
                     f"{twin.reachable_epsilon:.3g}), {twin.samples:,} per side, {twin.seconds:.1f} s, "
                     f"{'FLAGGED' if twin.flagged else 'not flagged'}")
            seconds += twin.seconds
            target = "twin flagged"
        else:
            note += "; no twin: the claim is loose by 2 for every pair (the entry's notes)"
            target = "—"
        rows.append(Row(f"audit power: {name}", seconds, target, note))
    return rows


def run() -> list[Row]:
    target = AUDITS["laplace"].target("sphere")
    cpu = time.process_time()
    result = run_audit(target, samples=SAMPLES, rng=0, early_stop=False)
    cpu = time.process_time() - cpu
    first = {}
    start = time.perf_counter()

    def stop_after_first(checkpoint):
        first.setdefault("seconds", time.perf_counter() - start)
        first.setdefault("bound", checkpoint.epsilon_lower)

    run_audit(target, samples=2 * FIRST_BOUND_BATCH, batch_size=FIRST_BOUND_BATCH, rng=1, progress=stop_after_first)
    return [
        Row(f"audit of the S² Laplace, {SAMPLES:,} releases per side (ε = 1)", result.seconds, "< 10 s",
            f"CPU time {cpu:.2f} s (wall time includes other processes on the 2 cores); lower bound "
            f"{result.epsilon_lower:.3f}, the pair can show {result.reachable_epsilon:.3f}"),
        Row(f"first bound of the page's audit ({FIRST_BOUND_BATCH:,} releases per side per batch)",
            first["seconds"], "< 2 s", f"bound {first['bound']:.3f}"),
        *power_rows(),
    ]
