"""The Utility page's "Where each wins" section: the map of ``engine.pipelines.who_wins_map`` for the intrinsic
mechanism chosen in the section (any spec with an error law, ``who_wins_map.MAPPED``; address key ``map_mech``)
on every space with a Euclidean baseline where its spec supports the space, at the playground's defaults
(n = 50, ε = 1), computed once per server process, with its reading, one heatmap per space, a table of how its
tie and ratios move with n·ε (``engine.pipelines.ties_by_budget``) and the spaces not mapped, each with why."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine import spaces
from engine.mechanisms import specs
from engine.pipelines import ties_by_budget, who_wins_map
from engine.viz.who_wins_map import who_wins_map_figure
from ui import presenter, state
from ui.downloads import download_row
from ui.figure_cache import cache_figures
from ui.live_chart import PLAIN_CHART, live_chart

#: The map's settings: the playground's n and ε, the engine's default grid and replicates.
CONFIG = dict(n=50, epsilon=1.0)
#: Address key of the section's mechanism select.
MECHANISM_KEY = "map_mech"
#: The mechanisms the select offers (spec key -> label), in the registry's order.
MECHANISMS = {key: specs.spec(key).label for key in who_wins_map.MAPPED}
#: The grid of a mechanism whose σ is solved numerically (``MechanismSpec.solved_scale``, seconds per cell): the
#: family's first ``SOLVED_PARAMETERS`` parameters at ``SOLVED_RADII`` radii (the Riemannian Gaussian's maps of
#: Sᵈ and Hᵈ took 31 s and 19 s at one parameter and 6 radii, against hours at the full 20 × 20 grid).
SOLVED_PARAMETERS = 2
SOLVED_RADII = 6

figure = cache_figures(max_entries=8)(who_wins_map_figure)


def map_config(space: str, mechanism: str = specs.EXACT.key) -> who_wins_map.WhoWinsMapConfig:
    """The section's map of ``space`` for ``mechanism``: ``CONFIG`` on the engine's grid, or on the smaller grid of
    ``SOLVED_PARAMETERS`` × ``SOLVED_RADII`` where the mechanism's σ is solved numerically."""
    grid = {}
    if specs.spec(mechanism).solved_scale:
        grid = dict(dims=who_wins_map.FAMILIES[space].dims[:SOLVED_PARAMETERS], radii=SOLVED_RADII)
    return who_wins_map.WhoWinsMapConfig(space=space, mechanism=mechanism, **grid, **CONFIG)


@st.cache_data(max_entries=8, show_spinner="Mapping where each mechanism wins…")
def space_map(space: str, mechanism: str = specs.EXACT.key) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, str]:
    """Cells, ties, predicted ties and reading of the map of ``space`` for ``mechanism`` (``who_wins_map.run`` of
    ``map_config``), cached."""
    found = who_wins_map.run(map_config(space, mechanism))
    return found.cells, found.ties, found.predicted_ties, who_wins_map.reading(found)


@st.cache_data(max_entries=8, show_spinner="Mapping the tie at other budgets n·ε…")
def budget_rows(space: str, mechanism: str = specs.EXACT.key) -> pd.DataFrame:
    """``ties_by_budget`` of ``space`` for ``mechanism`` at the map's n and radii (its smallest parameter, the map's
    seed), cached."""
    config = map_config(space, mechanism)
    return ties_by_budget.ties_by_budget(space, n=config.n, radii=config.radii, seed=config.seed, mechanism=mechanism,
                                         delta=config.delta)


def _ranges(ranges) -> str:
    """"0.1–0.44, 0.82–2" for ``ties_by_budget``'s ``intrinsic_ranges``; "none" when empty."""
    return ", ".join(f"{low:.3g}–{high:.3g}" for low, high in ranges) or "none"


def wins_column(mechanism: str) -> str:
    """The budget table's column of the ranges of r where ``mechanism`` wins."""
    return f"{specs.spec(mechanism).label} wins for r in"


def budget_table(found: pd.DataFrame, parameter: str, mechanism: str = specs.EXACT.key) -> pd.DataFrame:
    """``ties_by_budget``'s rows as the section shows them: n·ε, ε, the first tie, every range of r where the
    intrinsic ``mechanism`` wins (so a ratio that crosses 1 more than once shows each crossing) and the ratios
    at the grid's ends."""
    made = found[found["status"] == ""]
    first, last = made["first_radius"].iloc[0], made["last_radius"].iloc[0]
    names = dict(intrinsic=specs.spec(mechanism).label, euclidean=specs.EUCLID.label)
    reached = found["status"] == ""

    def shown(values, text):
        return [text(value) if ok else "out of reach" for value, ok in zip(values, reached)]

    return pd.DataFrame({
        "n·ε": [f"{b:g}" for b in found["n_epsilon"]],
        f"ε at n = {CONFIG['n']}": [f"{e:g}" for e in found["epsilon"]],
        "Tie radius r": shown(found["tie"], lambda t: "none" if np.isnan(t) else f"{t:.3g}"),
        "Wins below the tie": shown(found["below"], lambda w: names.get(w, "—")),
        wins_column(mechanism): shown(found["intrinsic_ranges"], _ranges),
        f"Ratio at r = {first:.2g}": shown(found["first_ratio"], lambda r: f"{r:.2f}"),
        f"Ratio at r = {last:.2g}": shown(found["last_ratio"], lambda r: f"{r:.2f}"),
    })


def mapped_spaces(mechanism: str = specs.EXACT.key) -> list[str]:
    """The spaces with a Euclidean baseline where ``mechanism``'s spec supports the space, in the engine's order."""
    return [key for key, fam in who_wins_map.FAMILIES.items()
            if fam.baseline_missing is None and who_wins_map.offers(key, mechanism)]


def unmapped(mechanism: str) -> list[str]:
    """Why each space is not mapped for ``mechanism``: no Euclidean baseline, no dimension family, or a guarantee
    its spec does not state there."""
    spec = specs.spec(mechanism)
    missing = [fam.baseline_missing for fam in who_wins_map.FAMILIES.values() if fam.baseline_missing]
    missing += [f"{entry.short_label}: {entry.family.reason}" for entry in spaces.SPACES.values()
                if not spaces.offered(entry.family)]
    missing += [f"{fam.label}: the {spec.label}'s guarantee is not stated there" for key, fam in
                who_wins_map.FAMILIES.items() if fam.baseline_missing is None and not who_wins_map.offers(key, mechanism)]
    return missing


def chosen_mechanism() -> str:
    """The section's mechanism select (address key ``MECHANISM_KEY``), the Riemannian Laplace by default."""
    state.init(MECHANISM_KEY, specs.EXACT.key, options=list(MECHANISMS))
    mechanism = st.selectbox("Intrinsic mechanism", list(MECHANISMS), format_func=MECHANISMS.__getitem__,
                             key=MECHANISM_KEY, help="The mechanism compared with the Euclidean Laplace in every cell: "
                             "any mechanism with an error law whose guarantee holds on the space.")
    state.sync([MECHANISM_KEY])
    return mechanism


def _calibration(spec) -> str:
    """How the chosen mechanism's noise is calibrated, in the section's introduction."""
    delta = f", δ = {who_wins_map.WhoWinsMapConfig.delta:g}" if spec.needs_delta else ""
    return f"{spec.guarantee}{delta}, Theorem 2's proven sensitivity"


def show() -> None:
    """The section: the mechanism select, how the map is made, then per space its reading, heatmap and data; the
    rest named, each with why."""
    mechanism = chosen_mechanism()
    spec = specs.spec(mechanism)
    st.markdown(
        f"Each cell compares the mean geodesic error of the **{spec.label}** ({_calibration(spec)}) "
        f"with that of the **Euclidean Laplace** (ambient sensitivity 2r_E/n, released around the ambient mean; "
        f"projected back onto the sphere and the shapes, rounded to the nearest line on Gr(d, 1), left out where "
        f"they leave the SPD cone or the Poincaré disk) for n = {CONFIG['n']} records "
        f"uniform in the tangent ball of radius r around m₀, ε = {CONFIG['epsilon']:g}. Coloured like the "
        f"{spec.label} in every chart: its error is smaller; vermillion: the Euclidean one. The dashed line is where "
        f"they tie (ratio 1), the dotted one where the noise scales and dimensions alone put the tie. Each ratio "
        f"carries a standard error of about 2.5 % (more on SPD(4) and SPD(5) at large r; hover a cell for its own)."
        + (f" Its σ is solved numerically for each cell (seconds each), so each space is mapped at its first "
           f"{SOLVED_PARAMETERS} dimensions and {SOLVED_RADII} radii." if spec.solved_scale else ""))
    for index, space in enumerate(mapped_spaces(mechanism)):
        cells, ties, predicted, sentence = space_map(space, mechanism)
        fam = who_wins_map.FAMILIES[space]
        st.info(sentence)
        fig = figure(cells, ties, space=fam.label, parameter_label=fam.parameter_label, predicted=predicted,
                     mechanism=mechanism, **CONFIG)
        live_chart(fig, key=f"chart-who-wins-map-{space}", fit=presenter.active() and index == 0, **PLAIN_CHART)
        download_row(f"who-wins-map-{space}-{mechanism}", fig=fig, data=cells)
        found = budget_rows(space, mechanism)
        p = int(found["parameter"].iloc[0])
        st.markdown(f"**The same comparison at other budgets n·ε** on {fam.make(p).name} ({fam.parameter} = {p}), "
                    f"n = {CONFIG['n']} records, ε = n·ε / {CONFIG['n']}:")
        st.table(budget_table(found, fam.parameter, mechanism), hide_index=True, border="horizontal")
        for reason in dict.fromkeys(found["status"][found["status"] != ""]):
            st.caption(f"Out of reach: {reason}.")
    missing = unmapped(mechanism)
    if missing:
        st.caption("Not mapped: " + "; ".join(missing) + ".")
