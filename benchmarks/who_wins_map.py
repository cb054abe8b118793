"""The map of where the intrinsic mechanism wins (issue 34), as the Utility page's map tab computes it on a
fresh server process: the default grid of every space with a Euclidean baseline (Sᵈ, SPD(k), Hᵈ, Kendall
shapes, Gr(d, 1) × 20 radii) and each space's table of ties at three budgets n·ε (``ties_by_budget``), at
the page's n = 50, ε = 1; then the maps alone.

Every run starts cold (``who_wins_map.clear_caches``): the data sets, Fréchet means and cells a process
keeps are forgotten, so a run does the work of a first visit. Timed three times after a warm-up: best and
median wall clock, and the best CPU time, which the other jobs on the shared cores do not inflate.
"""

from __future__ import annotations

import os
import statistics

from benchmarks.timing import Row, best_cpu, runs
from engine.pipelines import ties_by_budget, who_wins_map

RUNS = 3
#: The page's settings (``ui.who_wins_map.CONFIG``).
PAGE = dict(n=50, epsilon=1.0)


def _mapped() -> list[str]:
    return [key for key, fam in who_wins_map.FAMILIES.items() if fam.baseline_missing is None]


def _every_map() -> list:
    who_wins_map.clear_caches()
    return [who_wins_map.run(who_wins_map.WhoWinsMapConfig(space=key, **PAGE)) for key in _mapped()]


def _map_tab() -> list:
    maps = _every_map()
    for key in _mapped():
        ties_by_budget.ties_by_budget(key, n=PAGE["n"])
    return maps


def run():
    maps = _every_map()
    cells = sum(len(m.cells) for m in maps)
    worst = max(float((m.cells["ratio_se"] / m.cells["ratio"]).max()) for m in maps)
    spaces = ", ".join(m.family.label for m in maps)
    for task, fn in ((f"who-wins map tab, cold: the maps of {spaces} ({cells} cells) and their budget tables", _map_tab),
                     (f"who-wins maps alone, cold ({cells} cells)", _every_map)):
        seconds = runs(fn, RUNS)
        cpu = best_cpu(fn, RUNS)
        yield Row(f"{task}, in-process", min(seconds), "< 10 s",
                  f"CPU {cpu:.2f} s; largest relative standard error of a ratio {worst:.3f}; load average "
                  f"{os.getloadavg()[0]:.1f}", median=statistics.median(seconds))
