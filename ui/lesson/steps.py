"""The lesson's steps, as data: one ``Step`` record each, in the order the story is told (issue 33, item 1).

Each record names its chart (a builder of the page it comes from, at the step's settings), a question
to answer before the reveal, the answer computed from the same run, a headline and a one-sentence takeaway that
``views`` shows only after the reveal (so its title and chart must not answer the question either), and the
full page with the step's settings as address keys, and the step's reproduction: the ``engine.reproduce``
view and the pipeline config of the step's settings, the run the full page shows at those address keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import numpy as np

from engine.odds import guess_ceiling
from engine.pipelines import PrivateMeanConfig
from engine.pipelines.audit import AuditConfig
from engine.pipelines.private_regression import DEFAULT_TAU, RegressionConfig
from engine.pipelines.private_subspace import PrivateSubspaceConfig
from engine.pipelines.sensitivity import SensitivityConfig
from engine.pipelines.who_wins import EUCLIDEAN, INTRINSIC
from ui.lesson import compute
from ui.optimization.controls import Settings as OptimizationSettings
from ui.playground.controls import address as playground_address

#: Releases per mechanism in the lesson's private-mean runs (the playground draws 200 too).
RELEASES = 200
SPHERE = PrivateMeanConfig(space="sphere", source="cap", n=50, radius=float(np.pi / 8), epsilon=1.0,
                           mechanisms=("exact", "euclid"), releases=RELEASES)
SPHERE_ALONE = PrivateMeanConfig(space="sphere", source="cap", n=50, radius=float(np.pi / 8), epsilon=1.0,
                                 mechanisms=("exact",), releases=RELEASES)
SPD = PrivateMeanConfig(space="spd", source="wishart", n=20, radius=1.5, epsilon=1.0, mechanisms=("exact", "euclid"),
                        releases=RELEASES)
SENSITIVITY_N, SENSITIVITY_R = 10, float(np.pi / 8)
GAME_EPSILON = 1.0
CEILING = guess_ceiling(GAME_EPSILON)
#: The Private regression page's run on the drifting directions at its defaults (τ the data set's), but with n at the
#: slider's least and 20 releases, whose mean footpoint distance is steady from seed to seed (5 releases at n = 30:
#: 0.34 to 0.81 of the ball's radius over seeds 0-4; 20 at n = 20: 0.54 to 0.75).
REGRESSION = RegressionConfig(dataset="drift", n=20, tau=DEFAULT_TAU["drift"], releases=20)
OPTIMIZATION = OptimizationSettings(app="frechet", data="synthetic", size=50, eps=1.0, delta=1e-3, noise="calibrated",
                                    steps=None, batch=0, eta=0.05, reps=3, seed=0, grid=None, burn=0)
SUBSPACES = PrivateSubspaceConfig(k=2, d=3, n=200, epsilon=1.0, delta=1e-6, outliers=5, method="exact", releases=20)
#: The Sensitivity page's simulation at the first step's n and r, and the Audit page at the game's ε.
SENSITIVITY = SensitivityConfig(space="sphere", radius=SENSITIVITY_R, kappa=1.0, n=SENSITIVITY_N)
AUDIT = AuditConfig(audit="laplace", space="sphere", epsilon=GAME_EPSILON, control="control-half-noise")


@dataclass(frozen=True)
class Step:
    """One step: ``title`` its topic, ``chart()`` its figure, ``question`` with ``choices``, ``answer()`` the
    index of the right choice and the numbers that show it; ``headline`` and ``takeaway``, what the answer teaches,
    shown after the reveal; the full ``page`` opened with ``params``, and
    ``reproduction``, the ``engine.reproduce.VIEWS`` key and the config that run the step outside the app (the
    config the full page runs at ``params``)."""

    title: str
    chart: Callable[[], object]
    question: str
    choices: tuple[str, ...]
    answer: Callable[[], tuple[int, str]]
    headline: str
    takeaway: str
    page: str
    params: dict = field(default_factory=dict)
    game: bool = False
    reproduction: tuple[str, object] = field(kw_only=True)


def _moved_mean() -> tuple[int, str]:
    gap, flat, bound = compute.moved_mean(SENSITIVITY_N, SENSITIVITY_R)
    return int(gap > flat), (f"The adversarial pair moves the mean by {gap:.4f}; the flat worst case 2r/n is "
                             f"{flat:.4f} and Theorem 2's bound is {bound:.4f}.")


def _noise_hides() -> tuple[int, str]:
    run = compute.released(SPHERE_ALONE, "exact")
    ratio = run.errors.geodesic / run.sensitivity
    return (0 if ratio < 1 else 1 if ratio <= 10 else 2), (
        f"The releases land {run.errors.geodesic:.4f} from the mean on average, {ratio:.2f} times Δ = "
        f"{run.sensitivity:.4f}: the move one record makes is lost in the noise.")


def _off_cone() -> tuple[int, str]:
    share = compute.released(SPD, "euclid").errors.off_share
    return (0 if share == 0 else 1 if share < 0.5 else 2), (
        f"{share:.0%} of the Euclidean releases are not positive definite: not a covariance matrix at all.")


def _winner(settings: PrivateMeanConfig) -> tuple[int, str]:
    """The playground's verdict in a few plain words: the two average distances, and the wider noise's cause."""
    verdict = compute.mean_verdict(settings)
    index = {"intrinsic": 0, "euclidean": 1, None: 2}[verdict.winner]
    errors = {INTRINSIC: verdict.intrinsic.geodesic, EUCLIDEAN: verdict.euclidean.geodesic}
    (near, low), (far, high) = sorted(errors.items(), key=lambda item: item[1])
    distances = f"on average {low:.3g} from the true mean against {high:.3g} for the {far}"
    if verdict.winner is None:
        return index, f"Neither lands clearly closer: the {near} {distances}, a gap within the run's noise."
    ratio = verdict.factors.scale_ratio
    if ratio >= 1:
        why = f"the {INTRINSIC} must add {ratio:.2f} times as much noise" + (
            ", since on a curved cap one record moves the mean further than on a plane" if verdict.factors.h < 1
            else "")
    else:
        why = (f"the {EUCLIDEAN} must add {1 / ratio:.2f} times as much noise, since the same ball of data is wider in "
               "flat coordinates than along the space")
    return index, f"The {near} lands closer: {distances}. Why: {why}."


def _game() -> tuple[int, str]:
    game, best = compute.game(GAME_EPSILON), compute.best_attacker(GAME_EPSILON, False)
    low, high = best.interval()
    index = 0 if high < 0.55 else 1 if low <= game.ceiling else 2
    return index, (f"The likelihood-ratio test guessed right in {best.rate:.1%} of {best.rounds:,} rounds "
                   f"(99% interval {low:.1%} to {high:.1%}), under the ceiling {game.ceiling:.1%}.")


def _regression() -> tuple[int, str]:
    result, _ = compute.regression(REGRESSION)
    spread = result.footpoint_spread
    verdict = "the noise is large" if spread >= 0.5 else "the noise stays within half the ball"
    return int(spread >= 0.5), (f"The private footpoints lie on average {spread:.0%} of the public ball's radius "
                                f"from the non-private fit: with n = {REGRESSION.n} {verdict}.")


def _optimization() -> tuple[int, str]:
    paths, _ = compute.optimization(OPTIMIZATION)
    last = paths[paths["iteration"] == paths["iteration"].max()].groupby("method")["excess_loss"].mean()
    ratio = last["dp-rgd"] / last["non-private"]
    return int(ratio > 2), (f"After {int(paths['iteration'].max())} steps the private run's excess loss is "
                            f"{last['dp-rgd']:.3g} against {last['non-private']:.3g} without privacy ({ratio:.1f}×).")


def _subspaces() -> tuple[int, str]:
    result, _ = compute.subspaces(SUBSPACES)
    exact = float(np.mean(~result.bottom & (result.proj_error <= SUBSPACES.alpha)))
    guarantee = result.guarantee
    return (0 if exact == 0 else 1 if exact < 0.9 else 2), (
        f"{exact:.0%} of {SUBSPACES.releases} releases are the plane within {SUBSPACES.alpha:g} (projection error), "
        f"despite {SUBSPACES.outliers} adversarial points. The released plane's coordinates carry no noise: the "
        "noise went into the choice (truncated Laplace noise on the gap between the best and the second-best score), "
        f"and the guarantee is (ε, δ) = ({guarantee.epsilon:g}, {_delta(guarantee.delta)}).")


def _delta(delta: float) -> str:
    """δ as the lesson writes it: 1e-3, 1e-6."""
    return f"{delta:.0e}".replace("e-0", "e-")


def _playground_params(c: PrivateMeanConfig) -> dict:
    return playground_address(c, ("space", "source", "r", "n", "eps", "mech"))


WINNERS = ("The Riemannian Laplace (intrinsic)", "The Euclidean Laplace (ambient)", "Neither: a tie")

STEPS = (
    Step("One record moves the mean",
         partial(compute.sensitivity_figure, SENSITIVITY_N, SENSITIVITY_R),
         f"Replace one of n = {SENSITIVITY_N} records on a sphere cap of radius π/8. Can the Fréchet mean move "
         "further than 2r/n, the most it can move on a flat plane?",
         ("No: 2r/n is the most", "Yes: further than 2r/n"), _moved_mean, "Curvature enlarges the move",
         "The sensitivity Δ is how far one person can move the answer; curvature makes it larger than on a plane.",
         "pages/2_Sensitivity.py",
         {"space": SENSITIVITY.space, "r_sphere": repr(SENSITIVITY.radius), "kappa_sphere": repr(SENSITIVITY.kappa),
          "n": str(SENSITIVITY.n)},
         reproduction=("sensitivity", SENSITIVITY)),
    Step("How far the noise goes",
         partial(compute.sensitivity_rings_figure, SPHERE_ALONE),
         "At ε = 1, how far from the true mean will a typical release of the Riemannian Laplace land, compared "
         "with the sensitivity Δ?",
         ("Closer than Δ", "Between Δ and 10 Δ", "More than 10 Δ"), _noise_hides, "Noise hides the move",
         "Noise of scale Δ/ε makes the release about as likely with or without any one person.",
         "pages/1_Private_mean_playground.py", _playground_params(SPHERE_ALONE),
         reproduction=("playground", SPHERE_ALONE)),
    Step("Flat noise on covariance matrices",
         partial(compute.unmarked_mean_figure, SPD),
         "Covariance matrices (SPD(2), drawn as a cone). Adding flat Euclidean noise to their mean: what share of "
         "the releases will not be a covariance matrix (outside the cone)?",
         ("None", "Less than half", "Half or more"), _off_cone, "Flat noise leaves the space",
         "Noise that ignores the geometry releases things that are not in the space at all.",
         "pages/1_Private_mean_playground.py", _playground_params(SPD), reproduction=("playground", SPD)),
    Step("On a sphere cap: which noise lands closer?",
         partial(compute.mean_figure, SPHERE),
         "On the sphere (cap π/8, n = 50, ε = 1), which cloud lands closer to the true mean?",
         WINNERS, partial(_winner, SPHERE), "Curvature has a price",
         "Positive curvature inflates Theorem 2's Δ by (2 − h)/h: on a sphere cap the flat mechanism can win.",
         "pages/1_Private_mean_playground.py", _playground_params(SPHERE), reproduction=("playground", SPHERE)),
    Step("On covariance matrices: which noise lands closer?",
         partial(compute.unmarked_mean_figure, SPD),
         "On covariance matrices (SPD(2), no positive curvature), which cloud lands closer to the true mean?",
         WINNERS, partial(_winner, SPD), "Where the intrinsic mechanism wins",
         "Without a curvature price, noise that follows the space beats noise in the ambient coordinates.",
         "pages/1_Private_mean_playground.py", _playground_params(SPD), reproduction=("playground", SPD)),
    Step("The guarantee, audited: which data set?",
         partial(compute.odds_figure, GAME_EPSILON),
         f"Two data sets differ in one person. Seeing one release at ε = {GAME_EPSILON:g}, how often can the best "
         "possible attacker tell which data set it came from?",
         ("About half the time (a coin)", f"More than half, but at most e^ε/(1 + e^ε) = {CEILING:.1%}",
          f"More than e^ε/(1 + e^ε) = {CEILING:.1%}"),
         _game, "The guarantee holds",
         "ε caps how far any release can move anyone's odds about one person: by a factor e^ε at most.",
         "pages/8_Audit.py", {"audit": AUDIT.audit, "space": AUDIT.space, "eps": repr(AUDIT.epsilon),
                              "control": AUDIT.control}, game=True, reproduction=("audit", AUDIT)),
    Step("Beyond means: regression",
         partial(compute.regression_chart, REGRESSION),
         f"A private geodesic regression of n = {REGRESSION.n} directions on the sphere: will the private "
         "footpoints stay close to the non-private fit?",
         ("Yes, within half the public ball's radius", "No, they spread over the ball"), _regression,
         "A fitted curve, privately",
         "The same guarantee covers a fitted curve; with few records its noise is large.",
         "pages/6_Private_regression.py",
         {"reg_data": REGRESSION.dataset, "reg_n": str(REGRESSION.n), "reg_releases": str(REGRESSION.releases)},
         reproduction=("regression", REGRESSION)),
    Step("Beyond means: optimisation",
         partial(compute.optimization_chart, OPTIMIZATION),
         f"Gradient descent for the Fréchet mean of n = {OPTIMIZATION.size} covariance matrices, with noise on "
         f"every step (DP-RGD, ε = {OPTIMIZATION.eps:g}, δ = {_delta(OPTIMIZATION.delta)}): after T = n steps, how does its excess loss compare with "
         "the same descent without noise?",
         ("About the same (within 2×)", "More than twice as large"), _optimization,
         "Noise on every step costs accuracy",
         f"Privacy can be paid step by step: the accountant splits (ε, δ) = ({OPTIMIZATION.eps:g}, "
         f"{_delta(OPTIMIZATION.delta)}) over the iterations, and each noisy step costs accuracy.",
         "pages/5_Private_optimization.py",
         {"app": OPTIMIZATION.app, "n_frechet": str(OPTIMIZATION.size), "eps": repr(OPTIMIZATION.eps),
          "delta": f"{OPTIMIZATION.delta:g}", "reps": str(OPTIMIZATION.reps)},
         reproduction=("optimization", OPTIMIZATION.config)),
    Step("Beyond means: subspaces",
         partial(compute.subspaces_chart, SUBSPACES),
         f"Learn the plane {SUBSPACES.n} points lie near, privately at ε = {SUBSPACES.epsilon:g}, δ = "
         f"{_delta(SUBSPACES.delta)}, with {SUBSPACES.outliers} adversarial points: how many of {SUBSPACES.releases} "
         "releases will be the plane itself?",
         ("None", "Some", "Nearly all (90% or more)"), _subspaces, "Noise on the choice, not on the answer",
         "Noise can go into a choice instead of the answer: each candidate plane's score counts points, and a stable "
         "selection adds truncated-Laplace noise to the gap between the best and the second-best score (Singhal & "
         f"Steinke 2021), so the exact plane (or ⊥) is released with (ε, δ) = ({SUBSPACES.epsilon:g}, "
         f"{_delta(SUBSPACES.delta)}).",
         "pages/7_Private_subspaces.py",
         {"shape": "plane", "method": SUBSPACES.method, "n": str(SUBSPACES.n), "outliers": str(SUBSPACES.outliers),
          "releases": str(SUBSPACES.releases)},
         reproduction=("subspaces", SUBSPACES)),
)
