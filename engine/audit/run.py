"""The audit loop: batched draws, a rejection set chosen on one half, a Clopper–Pearson bound on
the other, checkpoints with early stopping and a progress callback.

Releases are drawn in batches of the target's size and cut into slices of at most 1/``CURVE_SLICES``
of the budget, so that a budget of one or two batches still gives a curve. Slices alternate between
the selection half (even slices) and the evaluation half (odd slices); the releases are independent,
so where a slice is cut does not change their law. At every checkpoint (after 2, 4, 8, … slices and
at the end) the rejection set is
chosen on the selection half and bounded on the evaluation half: at level α/2 at the end of the
budget and α_k = 3α/(π²k²) at the k-th interim checkpoint. Since α/2 + Σ_k α_k <= α, every bound on
the curve holds with probability >= 1 − α simultaneously, so stopping early at any checkpoint
keeps the 95 % level while the full budget pays only for α/2.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from engine.audit.rejection import RejectionSet, choose_rejection_set, evaluate
from engine.audit.score import learned_score
from engine.audit.target import AuditTarget
from engine.budget import check_memory
from engine.validation import check_int, check_probability

# Early stop when the bound moved by less than this fraction of ε over the last doubling, once at least
# SETTLE_BATCHES of the target's batches were used (earlier, a bound of 0 that stays 0 says nothing).
SETTLE_TOL = 0.01
SETTLE_BATCHES = 8
# The statistic is rounded to this many decimals: the audit tests the mechanism's law, not the
# low-order bits of float64, where a Laplace law on R^1 produces atoms at ±ε whose rounding
# differs between the two sides (Mironov 2012; a separate, known limit of every float64 release).
DECIMALS = 9
# Evaluation-half statistics kept per side for histograms.
KEEP_STATISTICS = 100_000
#: The budget is cut into at least this many slices, so the bound's curve has a point at 2, 4, …, 64 of
#: them (six before the end) whatever the target's batch size.
CURVE_SLICES = 64
#: Copies of each side's statistics held at a checkpoint: the halves, their concatenations and the sorted
#: copies of the rejection-set search (``engine.budget`` bounds their memory).
PEAK_COPIES = 6


@dataclass(frozen=True)
class AuditCheckpoint:
    """One point of the bound's curve: releases per side so far and the bound there."""

    samples: int
    epsilon_lower: float
    alpha: float
    fraction: float


@dataclass(frozen=True)
class AuditResult:
    """Outcome of ``run_audit``.

    Attributes
    ----------
    label, statistic_name, pair_description, notes : from the target.
    epsilon, delta : the claim.
    reachable_epsilon : the largest ε the pair can show (nan if unknown).
    epsilon_lower : the final 95 % lower confidence bound on ε at δ.
    samples : releases drawn per side (both halves and any training batch).
    flagged : the bound exceeds the claimed ε: the claim is refuted at the 95 % level.
    stop_reason : "budget", "flagged" or "settled".
    rejection : the rejection set of the last checkpoint.
    history : DataFrame with columns samples, epsilon_lower, alpha (one row per checkpoint).
    statistic_first, statistic_second : evaluation-half statistics (at most ``KEEP_STATISTICS``).
    seconds : wall-clock time.
    selection_first, selection_second : selection-half statistics (at most ``KEEP_STATISTICS``), for what
        does not depend on the rejection set (``engine.audit.tradeoff``).
    mu : the target's μ-GDP claim, or None.
    unseen_by_curve : from the target: why a curve of single releases cannot show the defect ("" where it can).
    """

    label: str
    statistic_name: str
    pair_description: str
    notes: str
    epsilon: float
    delta: float
    reachable_epsilon: float
    epsilon_lower: float
    samples: int
    flagged: bool
    stop_reason: str
    rejection: RejectionSet
    history: pd.DataFrame
    statistic_first: np.ndarray = field(repr=False)
    statistic_second: np.ndarray = field(repr=False)
    seconds: float = 0.0
    selection_first: np.ndarray = field(default_factory=lambda: np.empty(0), repr=False)
    selection_second: np.ndarray = field(default_factory=lambda: np.empty(0), repr=False)
    mu: float | None = None
    unseen_by_curve: str = ""

    @property
    def reachable_fraction(self) -> float:
        """reachable_epsilon / epsilon: below 1 the pair cannot show the whole claim."""
        return self.reachable_epsilon / self.epsilon

    def row(self) -> dict:
        """A flat summary for tables and CSV files."""
        return {
            "audit": self.label, "epsilon": self.epsilon, "delta": self.delta,
            "reachable_epsilon": self.reachable_epsilon, "epsilon_lower": self.epsilon_lower,
            "lower_over_epsilon": self.epsilon_lower / self.epsilon, "samples_per_side": self.samples,
            "verdict": "FLAGGED" if self.flagged else "pass", "stop": self.stop_reason,
            "statistic": self.statistic_name, "seconds": self.seconds,
        }


def _checkpoints(n_slices: int) -> list[int]:
    """Slice counts 2, 4, 8, … below ``n_slices``, and ``n_slices``."""
    points, k = [], 2
    while k < n_slices:
        points.append(k)
        k *= 2
    return points + [n_slices]


def run_audit(target: AuditTarget, *, samples: int = 200_000, alpha: float = 0.05, rng=None,
              early_stop: bool = True, batch_size: int | None = None,
              progress: Callable[[AuditCheckpoint], None] | None = None) -> AuditResult:
    """Audit ``target``: a 95 % (for α = 0.05) lower confidence bound on its ε at its δ.

    Parameters
    ----------
    target : AuditTarget
    samples : int >= 2
        Budget of releases per side (selection and evaluation halves together).
    alpha : float in (0, 1)
        Error probability of the whole curve of bounds (module notes).
    rng : numpy Generator, int or None
    early_stop : bool
        Stop at a checkpoint once the bound exceeds the claim (``"flagged"``) or moved by less than
        ``SETTLE_TOL``·ε over the last doubling of the samples (``"settled"``).
    batch_size : int, optional
        Releases per side per call of ``target.draw`` (default ``target.batch_size``, at most
        ``samples // 2``).
    progress : callable, optional
        Called with an ``AuditCheckpoint`` after every checkpoint.

    Returns
    -------
    AuditResult
    """
    start = time.perf_counter()
    samples = check_int("samples", samples, minimum=2)
    check_memory(f"samples = {samples} releases per side", PEAK_COPIES * 2 * samples, fix="lower samples")
    alpha = check_probability("alpha", alpha)
    rng = np.random.default_rng(rng)
    batch = min(check_int("batch_size", batch_size or target.batch_size), samples // 2)
    piece = max(1, min(batch, samples // CURVE_SLICES))
    n_slices = max(2, samples // piece)
    statistic = target.statistic
    drawn = 0
    if statistic is None:
        statistic = learned_score(target.draw(0, batch, rng), target.draw(1, batch, rng))
        drawn += batch
    pending = [np.empty(0), np.empty(0)]  # drawn statistics of each side not yet given to a half

    def next_slice(side: int) -> np.ndarray:
        if pending[side].size < piece:
            fresh = np.round(np.asarray(statistic(target.draw(side, batch, rng)), dtype=float), DECIMALS)
            pending[side] = np.concatenate([pending[side], fresh])
        taken, pending[side] = pending[side][:piece], pending[side][piece:]
        return taken

    halves = [([], []), ([], [])]  # halves[h][side] lists of statistic arrays
    history, rejection, bound, stop = [], RejectionSet(np.inf, True, True), 0.0, "budget"
    checkpoints = _checkpoints(n_slices)
    done = 0
    for k, until in enumerate(checkpoints, start=1):
        while done < until:
            for side in (0, 1):
                halves[done % 2][side].append(next_slice(side))
            done += 1
        drawn_now = drawn + done * piece
        alpha_k = alpha / 2.0 if until == n_slices else 3.0 * alpha / (np.pi**2 * k**2)
        select = [np.concatenate(halves[0][s]) for s in (0, 1)]
        held = [np.concatenate(halves[1][s]) for s in (0, 1)]
        rejection, _ = choose_rejection_set(*select, delta=target.delta, alpha=alpha_k)
        previous = bound
        bound = evaluate(rejection, *held, delta=target.delta, alpha=alpha_k)
        history.append({"samples": drawn_now, "epsilon_lower": bound, "alpha": alpha_k})
        if progress is not None:
            progress(AuditCheckpoint(drawn_now, bound, alpha_k, done / n_slices))
        if early_stop and until < n_slices:
            if bound > target.epsilon:
                stop = "flagged"
                break
            if done * piece >= SETTLE_BATCHES * batch and abs(bound - previous) < SETTLE_TOL * target.epsilon:
                stop = "settled"
                break
    return AuditResult(
        label=target.label, statistic_name=target.statistic_name if target.statistic else "learned quadratic score",
        pair_description=target.pair_description, notes=target.notes, epsilon=target.epsilon,
        delta=target.delta, reachable_epsilon=target.reachable_epsilon, epsilon_lower=bound,
        samples=history[-1]["samples"], flagged=bound > target.epsilon, stop_reason=stop, rejection=rejection,
        history=pd.DataFrame(history), statistic_first=held[0][:KEEP_STATISTICS],
        statistic_second=held[1][:KEEP_STATISTICS], seconds=time.perf_counter() - start,
        selection_first=select[0][:KEEP_STATISTICS], selection_second=select[1][:KEEP_STATISTICS],
        mu=target.mu, unseen_by_curve=target.unseen_by_curve,
    )
