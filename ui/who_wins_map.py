"""The Utility page's "Where each wins" section: the map of ``engine.pipelines.who_wins_map`` for every
space with a Euclidean baseline at the playground's defaults (n = 50, ε = 1), computed once per
server process, with its reading, one heatmap per space, a table of how its tie and ratios move with
n·ε (``engine.pipelines.ties_by_budget``) and the spaces not mapped yet."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine import spaces
from engine.pipelines import ties_by_budget, who_wins_map
from engine.viz.who_wins_map import who_wins_map_figure
from ui import presenter
from ui.downloads import download_row
from ui.figure_cache import cache_figures
from ui.live_chart import PLAIN_CHART, live_chart

#: The map's settings: the playground's n and ε, the engine's default grid and replicates.
CONFIG = dict(n=50, epsilon=1.0)

figure = cache_figures(max_entries=8)(who_wins_map_figure)


@st.cache_data(max_entries=4, show_spinner="Mapping where each mechanism wins…")
def space_map(space: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, str]:
    """Cells, ties, predicted ties and reading of the map of ``space`` (``who_wins_map.run`` at
    ``CONFIG``), cached."""
    found = who_wins_map.run(who_wins_map.WhoWinsMapConfig(space=space, **CONFIG))
    return found.cells, found.ties, found.predicted_ties, who_wins_map.reading(found)


@st.cache_data(max_entries=4, show_spinner="Mapping the tie at other budgets n·ε…")
def budget_rows(space: str) -> pd.DataFrame:
    """``ties_by_budget`` of ``space`` at the map's n (its smallest parameter, the map's seed), cached."""
    return ties_by_budget.ties_by_budget(space, n=CONFIG["n"])


def _ranges(ranges) -> str:
    """"0.1–0.44, 0.82–2" for ``ties_by_budget``'s ``intrinsic_ranges``; "none" when empty."""
    return ", ".join(f"{low:.3g}–{high:.3g}" for low, high in ranges) or "none"


def budget_table(found: pd.DataFrame, parameter: str) -> pd.DataFrame:
    """``ties_by_budget``'s rows as the section shows them: n·ε, ε, the first tie, every range of r where the
    Riemannian Laplace wins (so a ratio that crosses 1 more than once shows each crossing) and the ratios
    at the grid's ends."""
    first, last = found["first_radius"].iloc[0], found["last_radius"].iloc[0]
    return pd.DataFrame({
        "n·ε": [f"{b:g}" for b in found["n_epsilon"]],
        f"ε at n = {CONFIG['n']}": [f"{e:g}" for e in found["epsilon"]],
        "Tie radius r": ["none" if np.isnan(t) else f"{t:.3g}" for t in found["tie"]],
        "Wins below the tie": [dict(intrinsic="Riemannian", euclidean="Euclidean").get(w, "—") for w in found["below"]],
        "Riemannian wins for r in": [_ranges(ranges) for ranges in found["intrinsic_ranges"]],
        f"Ratio at r = {first:.2g}": [f"{r:.2f}" for r in found["first_ratio"]],
        f"Ratio at r = {last:.2g}": [f"{r:.2f}" for r in found["last_ratio"]],
    })


def mapped_spaces() -> list[str]:
    """The spaces with a Euclidean baseline, in the engine's order."""
    return [key for key, fam in who_wins_map.FAMILIES.items() if fam.baseline_missing is None]


def show() -> None:
    """The section: how the map is made, then per space its reading, heatmap and data; the rest named."""
    st.markdown(
        f"Each cell compares the mean geodesic error of the **Riemannian Laplace** (Theorem 2's proven sensitivity) "
        f"with that of the **Euclidean Laplace** (ambient sensitivity 2r_E/n, released around the ambient mean; "
        f"projected back onto the sphere and the shapes, rounded to the nearest line on Gr(d, 1), left out where "
        f"they leave the SPD cone or the Poincaré disk) for n = {CONFIG['n']} records "
        f"uniform in the tangent ball of radius r around m₀, ε = {CONFIG['epsilon']:g}. Blue: the intrinsic error "
        f"is smaller; vermillion: the Euclidean one. The dashed line is where they tie (ratio 1), the dotted one "
        f"where the noise scales and dimensions alone put the tie. Each ratio carries a standard error of about "
        f"2.5 % (more on SPD(4) and SPD(5) at large r; hover a cell for its own).")
    for index, space in enumerate(mapped_spaces()):
        cells, ties, predicted, sentence = space_map(space)
        fam = who_wins_map.FAMILIES[space]
        st.info(sentence)
        fig = figure(cells, ties, space=fam.label, parameter_label=fam.parameter_label, predicted=predicted,
                     **CONFIG)
        live_chart(fig, key=f"chart-who-wins-map-{space}", fit=presenter.active() and index == 0, **PLAIN_CHART)
        download_row(f"who-wins-map-{space}", fig=fig, data=cells)
        found = budget_rows(space)
        p = int(found["parameter"].iloc[0])
        st.markdown(f"**The same comparison at other budgets n·ε** on {fam.make(p).name} ({fam.parameter} = {p}), "
                    f"n = {CONFIG['n']} records, ε = n·ε / {CONFIG['n']}:")
        st.table(budget_table(found, fam.parameter), hide_index=True, border="horizontal")
    missing = [fam.baseline_missing for fam in who_wins_map.FAMILIES.values() if fam.baseline_missing]
    missing += [f"{entry.short_label}: {entry.family.reason}" for entry in spaces.SPACES.values()
                if not spaces.offered(entry.family)]
    if missing:
        st.caption("Not mapped: " + "; ".join(missing) + ".")
