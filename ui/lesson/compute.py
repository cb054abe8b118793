"""The lesson's computations, each through the cached builder or pipeline call of the page it comes from;
what no page computes (the pair's gap, the game, the best attacker) is cached here the same way."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from engine.audit.pairs import frechet_gap, replace_one_pair
from engine.audit.tradeoff import target_tradeoff
from engine.bounds import frechet_mean_sensitivity
from engine.lesson.game import BEST_ROUNDS, Game, Tally, which_data_set
from engine.pipelines import PrivateMeanConfig, who_wins
from engine.pipelines import private_optimization as po
from engine.pipelines.private_mean import MechanismRun
from engine.pipelines.private_regression import RegressionConfig
from engine.pipelines.private_subspace import PrivateSubspaceConfig
from engine.pipelines.sensitivity import adversarial_move_vs_r, bound_vs_r
from engine.spaces import make_manifold
from engine.viz.odds import game_scene_figure, posterior_figure, tradeoff_figure
from engine.viz.spd_cone import spd_cone_figure
from engine.viz.sphere import ball_boundary
from engine.viz.tradeoff import add_measured
from ui import who_wins as page_verdict
from ui.figure_cache import cache_figure_json, cache_figures
from ui.optimization import compute as optimization_compute
from ui.optimization import figures as optimization_figures
from ui.optimization.controls import Settings as OptimizationSettings
from ui.playground.compute import private_means
from ui.playground.views import figure as playground_figure
from ui.regression.compute import main_figure as regression_figure
from ui.regression.compute import private_regression
from ui.sensitivity.views import curves_figure
from ui.spaces.figure import clouds
from ui.subspaces.compute import main_figure as subspace_figure
from ui.subspaces.compute import private_subspaces


def sensitivity_figure(n: int, radius: float):
    """The Sensitivity page's Δ-against-r chart on S² (κ = 1) with the lesson's r marked, and how far one replaced
    record moves the mean there (the audit's adversarial pair): the question's deciding curve against 2r/n."""
    r_max = float(np.pi / 4) * 0.98
    measured = adversarial_move_vs_r("sphere", n, r_max)
    curves = pd.concat([bound_vs_r(n, 1.0, r_max), measured], ignore_index=True)
    # capped at twice the measured move: Theorem 2's bound, which grows without limit towards π/4, leaves at the
    # top instead of flattening the two curves the question compares into one line
    return curves_figure(curves, x="r", x_title="radius r of the data's ball", y_title="how far the mean moves",
                         markers={f"r = {radius:.3g}": radius}, y_max=2.0 * float(measured["value"].max()))


@st.cache_data(max_entries=8, show_spinner=False)
def moved_mean(n: int, radius: float) -> tuple[float, float, float]:
    """How far one replaced record moves the Fréchet mean on S² (the audit's adversarial pair), the flat
    worst case 2r/n and Theorem 2's bound."""
    pair = replace_one_pair(make_manifold("sphere"), n, radius)
    return frechet_gap(pair), 2.0 * radius / n, float(frechet_mean_sensitivity(n, radius, 1.0))


def mean_figure(settings: PrivateMeanConfig):
    """The playground's chart for ``settings``."""
    return playground_figure(settings)


#: The multiples of the sensitivity Δ that ``sensitivity_rings_figure`` rings the true mean with.
RING_MULTIPLES = (1, 10)


def sensitivity_rings_figure(settings: PrivateMeanConfig):
    """The playground's sphere chart for ``settings`` with geodesic circles of radius Δ and 10 Δ (Theorem 2's
    sensitivity of its intrinsic run) about the true mean, drawn under the mean's marker: the scale a question
    about "how far, compared with Δ" is read on."""
    result = private_means(settings)
    delta = float(next(run for run in result.runs if run.key == "exact").sensitivity)
    figure = playground_figure(settings)
    rings = []
    for multiple in RING_MULTIPLES:
        circle = ball_boundary(result.mean, multiple * delta)
        rings.append(go.Scatter3d(x=circle[:, 0], y=circle[:, 1], z=circle[:, 2], mode="lines", hoverinfo="skip",
                                  name=f"{'' if multiple == 1 else f'{multiple} '}Δ from the true mean",
                                  line=dict(color="#000000", width=3 if multiple == 1 else 2,
                                            dash="solid" if multiple == 1 else "dash")))
    return go.Figure(data=[*figure.data[:-1], *rings, figure.data[-1]], layout=figure.layout)


def unmarked_mean_figure(settings: PrivateMeanConfig):
    """The playground's SPD(2) chart for ``settings``, its releases outside the cone neither counted nor marked."""
    result = private_means(settings)
    return spd_cone_figure(data=result.data, mean=result.mean, releases=clouds(result), height=640,
                           mark_outside=False)


def mean_verdict(settings: PrivateMeanConfig) -> who_wins.Verdict | None:
    """The playground's who-wins verdict for ``settings``."""
    return page_verdict.playground_verdict(private_means(settings), settings)


def released(settings: PrivateMeanConfig, key: str) -> MechanismRun:
    """The run of mechanism ``key`` in the playground's result."""
    return next(run for run in private_means(settings).runs if run.key == key)


@st.cache_resource(show_spinner=False)
def game(epsilon: float) -> Game:
    """The game at ``epsilon`` (read-only, shared by every session)."""
    return which_data_set(epsilon)


@st.cache_data(max_entries=8, show_spinner=False)
def best_attacker(epsilon: float, broken: bool) -> Tally:
    """The best attacker's tally over ``BEST_ROUNDS`` rounds against the mechanism (or its broken control)."""
    return game(epsilon).best_attacker(BEST_ROUNDS, seed=1 if not broken else 2, broken=broken)


@cache_figure_json(max_entries=8)
def game_scene(epsilon: float):
    """The game's sphere without a release, as JSON (built and serialised once, not on every session's
    rerun): ``engine.viz.odds.game_scene_figure`` of the game's pair and means."""
    game_at = game(epsilon)
    return game_scene_figure(first=game_at.pair.first, second=game_at.pair.second, means=np.stack(game_at.means),
                             center=game_at.pair.manifold.origin, radius=game_at.radius)


@cache_figures(max_entries=8)
def odds_figure(epsilon: float):
    """The trade-off curve of the game's mechanism on its pair against the ε-DP bound, and the curve measured
    from 50,000 of its releases per side with its 95 % band (``engine.audit.tradeoff.target_tradeoff``)."""
    return add_measured(tradeoff_figure(epsilon, reach=game(epsilon).mechanism.reachable_epsilon),
                        target_tradeoff(game(epsilon).mechanism, samples=50_000, rng=0), name="measured on the pair")


@cache_figures(max_entries=8)
def odds_range_figure(epsilon: float):
    """The posterior range of an ε-DP release against the prior."""
    return posterior_figure(epsilon)


def regression(config: RegressionConfig):
    """The Private regression page's result and chart for ``config``."""
    return private_regression(config), regression_chart(config)


def regression_chart(config: RegressionConfig):
    """The Private regression page's chart for ``config``."""
    return regression_figure(config)


def optimization(settings: OptimizationSettings):
    """The Private optimization page's run (its cached blocks) and excess-loss chart for ``settings``."""
    fixed = optimization_compute.run_settings(settings)
    _, steps = optimization_compute.steps(settings, optimization_compute.problem(settings=fixed))
    paths = po.combine([optimization_compute.run_block(settings=fixed, steps=steps, start=start, stop=stop)
                        for start, stop in po.blocks(settings.reps)]).paths
    return paths, optimization_figures.convergence(settings.app, paths)[0]


def optimization_chart(settings: OptimizationSettings):
    """The Private optimization page's excess-loss chart for ``settings``."""
    return optimization(settings)[1]


def subspaces(config: PrivateSubspaceConfig):
    """The Private subspaces page's result and chart for ``config``."""
    return private_subspaces(config), subspaces_chart(config)


def subspaces_chart(config: PrivateSubspaceConfig):
    """The Private subspaces page's chart for ``config``."""
    return subspace_figure(config)
