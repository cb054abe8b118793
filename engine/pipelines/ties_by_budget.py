"""How the who-wins map's verdict moves with the budget n·ε: for one parameter of a family (its smallest
dimension by default) and one intrinsic mechanism (a spec of ``who_wins_map.MAPPED``, the Riemannian Laplace by
default), every radius where the error ratio intrinsic / Euclidean Laplace crosses 1, the ranges of radii where
the intrinsic mechanism wins, and the ratio at the grid's smallest and largest radius, at several values of n·ε.

For the Laplace both noise scales are ∝ 1/(n·ε) (σ = Δ/ε with Δ = 2r(2 − h)/(n h), σ_E = 2r_E/(n ε); Reimherr,
Bharath & Soto 2021), so the ratio of the noise alone does not depend on n·ε; an (ε, δ) calibration (the
Riemannian Gaussian's) is not linear in 1/ε, so its ratio moves with ε too. The measured ratio moves either way:
the ambient mean's bias against the Fréchet mean does not shrink as ε grows, and on a compact space the
intrinsic release's radius is capped when σ is large. Each budget is one map of ``who_wins_map.run`` at
ε = n·ε / n with the same seed, so the budgets share their data sets and random streams.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.mechanisms import specs
from engine.mechanisms.gdp import MuOutOfReach
from engine.pipelines.who_wins_map import WhoWinsMapConfig, family, run
from engine.validation import check_positive

#: The budgets n·ε compared: a tenth of the playground's default (n = 50, ε = 1) to ten times it.
BUDGETS = (5.0, 50.0, 500.0)


def intrinsic_ranges(cells: pd.DataFrame, ties: pd.DataFrame) -> tuple[tuple[float, float], ...]:
    """The ranges of radii where the intrinsic mechanism wins along one parameter's row of a map: from the
    grid's first radius when its ratio is below 1, or from a tie it wins above, to the next tie it wins
    below, or to the grid's last radius.

    ``cells`` holds ``radius`` and ``ratio`` of one parameter, ``ties`` its crossings
    (``who_wins_map.tie_radii``: ``radius``, ``below``); cells without a finite ratio are skipped, as
    ``tie_radii`` skips them. Returns increasing, disjoint pairs (low, high); empty when it never wins.
    """
    cells = cells[np.isfinite(cells["ratio"]) & (cells["ratio"] > 0)].sort_values("radius")
    if cells.empty:
        return ()
    ranges, start = [], float(cells["radius"].iloc[0]) if cells["ratio"].iloc[0] < 1 else None
    for radius, below in ties.sort_values("radius")[["radius", "below"]].itertuples(index=False):
        if below == "intrinsic":
            ranges.append((float(cells["radius"].iloc[0]) if start is None else start, float(radius)))
            start = None
        else:
            start = float(radius)
    if start is not None:
        ranges.append((start, float(cells["radius"].iloc[-1])))
    return tuple(ranges)


def ties_by_budget(space: str, budgets=BUDGETS, *, n: int = 50, parameter: int | None = None, radii: int = 20,
                   seed: int = 0, mechanism: str = specs.EXACT.key, delta: float = WhoWinsMapConfig.delta) -> pd.DataFrame:
    """The tie radius and the end ratios of one parameter of the map of ``space`` at each budget n·ε.

    Parameters
    ----------
    space : str
        A family of ``who_wins_map.FAMILIES`` with a Euclidean baseline.
    budgets : sequence of float
        The values of n·ε, positive and distinct; ε = n·ε / n.
    n : int
        Records per data set.
    parameter : int, optional
        The family's parameter (d or k); its smallest default one when omitted.
    radii, seed : int
        The maps' radius grid and seed (``WhoWinsMapConfig``).
    mechanism, delta : str, float
        The intrinsic mechanism (of ``who_wins_map.MAPPED``, offered on the space) and its δ if it needs one.

    Returns
    -------
    pd.DataFrame
        One row per budget, in the order given: ``n_epsilon``, ``epsilon``, ``parameter``, ``tie`` (the
        first radius where the ratio crosses 1, NaN when it does not), ``below`` (the mechanism that wins
        below that first tie, "" without one), ``ties`` (every crossing, increasing, a tuple),
        ``intrinsic_ranges`` (the ranges (low, high) of the grid's radii where the ratio is below 1, a
        tuple of pairs: ``intrinsic_ranges``), ``first_radius`` and ``first_ratio`` (the smallest radius of
        the grid and its ratio), ``last_radius`` and ``last_ratio`` (the largest), and ``status``: "" where the
        map was made, else why the mechanism cannot be calibrated at that budget (``gdp.MuOutOfReach``: the
        Riemannian Gaussian's μ plateau), the other columns NaN or empty.

    Raises
    ------
    ValueError
        No budget, a budget that is not positive or repeats, or a bad map setting (a mechanism without an error
        law or not offered on the space among them).
    """
    budgets = [check_positive("n·ε", budget) for budget in budgets]
    if not budgets:
        raise ValueError("give at least one value of n·ε")
    if len(set(budgets)) != len(budgets):
        raise ValueError(f"the values of n·ε must not repeat, got {', '.join(f'{b:g}' for b in budgets)}")
    p = min(family(space).dims) if parameter is None else parameter
    rows = []
    for budget in budgets:
        try:
            found = run(WhoWinsMapConfig(space=space, dims=(p,), radii=radii, n=n, epsilon=budget / n, seed=seed,
                                         mechanism=mechanism, delta=delta))
        except MuOutOfReach as err:
            rows.append(dict(n_epsilon=budget, epsilon=budget / n, parameter=p, tie=np.nan, below="", ties=(),
                             intrinsic_ranges=(), first_radius=np.nan, first_ratio=np.nan, last_radius=np.nan,
                             last_ratio=np.nan, status=str(err)))
            continue
        cells = found.cells.sort_values("radius")
        tie = found.ties.iloc[0] if len(found.ties) else None
        rows.append(dict(n_epsilon=budget, epsilon=budget / n, parameter=p,
                         tie=np.nan if tie is None else float(tie["radius"]),
                         below="" if tie is None else tie["below"],
                         ties=tuple(float(r) for r in found.ties["radius"]),
                         intrinsic_ranges=intrinsic_ranges(cells, found.ties),
                         first_radius=float(cells["radius"].iloc[0]), first_ratio=float(cells["ratio"].iloc[0]),
                         last_radius=float(cells["radius"].iloc[-1]), last_ratio=float(cells["ratio"].iloc[-1]),
                         status=""))
    return pd.DataFrame(rows)
