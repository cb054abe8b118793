"""The setting of Figure 1 of Reimherr, Bharath & Soto (2021), shared by its study and the pages.

The paper's data recipe per space (``RECIPES``), one ``SpaceSetting`` per half of the figure, the
neighbouring data sets of the sensitivity panels, the releases of the three mechanisms
(``MECHANISMS``, ``engine.mechanisms.specs.FIGURE1``: the intrinsic Laplace, the ε-DP Euclidean baseline around the ambient mean and the
paper's baseline around the Fréchet mean, which is not ε-DP), their σ as the mechanisms compute it,
and the true ε of both baselines on a pair. The study ``engine.experiments.reimherr_fig1`` and the
Utility and Sensitivity pipelines (``engine.pipelines.utility``, ``engine.pipelines.sensitivity``)
read it from here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from engine import bounds, spaces
from engine.estimators import PAPER_STEP, ambient_mean, frechet_mean
from engine.mechanisms import off_manifold, specs
from engine.validation import check_int, check_positive

DEFAULT_NS = (10, 20, 30, 40, 50, 75, 100, 150, 200, 300)
#: The intrinsic mechanism, the ε-DP Euclidean baseline (ambient mean) and the paper's (Fréchet mean, not ε-DP).
MECHANISMS = tuple(spec.key for spec in specs.FIGURE1)
#: The Utility page's: Figure 1's and those their specs add (``specs.UTILITY``); each releases by ``release_errors``.
UTILITY_MECHANISMS = tuple(spec.key for spec in specs.UTILITY)


#: The paper's recipe per space of ``engine.spaces`` that has one, in the order of the figure's panels.
RECIPES = {entry.key: entry.recipe for entry in sorted(
    (entry for entry in spaces.SPACES.values() if spaces.offered(entry.recipe)), key=lambda entry: entry.recipe.panels)}


@dataclass(frozen=True)
class SpaceSetting:
    """One half of the figure: a space of ``engine.spaces``, its recipe (``RECIPES``) and the ball B_r(m0)."""

    key: str
    manifold: object
    radius: float

    @property
    def recipe(self) -> spaces.PaperRecipe:
        return RECIPES[self.key]

    def sample(self, n: int, reps: int, rng) -> np.ndarray:
        return self.recipe.generate(n, self.radius, reps, rng)


SETTINGS = tuple(SpaceSetting(key, spaces.make_manifold(key), spaces.space(key).default_radius) for key in RECIPES)


def adversarial_neighbours(setting: SpaceSetting, data: np.ndarray) -> np.ndarray:
    """Replace each data set's outermost point by the boundary point on the opposite side of m0.

    That replacement moves one point by about 2r, the largest change a single record can make
    inside B_r(m0).
    """
    m = setting.manifold
    m0 = m.origin
    logs = m.log(m0, data)
    radii = m.norm(m0, logs)
    j = np.argmax(radii, axis=1)
    rows = np.arange(len(data))
    direction = logs[rows, j] / m.per_point(np.maximum(radii[rows, j], 1e-12))
    # Stay a hair inside the closed ball so generators' strict "< r" is respected.
    out = data.copy()
    out[rows, j] = m.exp(m0, -0.999999 * setting.radius * direction)
    return out


def random_neighbours(setting: SpaceSetting, data: np.ndarray, rng) -> np.ndarray:
    """Replace each data set's first record by a fresh draw of the generator."""
    out = data.copy()
    out[:, 0] = setting.sample(1, len(data), rng)[:, 0]
    return out


def neighbour_sensitivities(setting: SpaceSetting, data: np.ndarray, means: np.ndarray, rng, *,
                            tol: float = 1e-5) -> dict[str, np.ndarray]:
    """ρ(x̄, x̄′) per data set ``(reps,)`` for a random and an adversarial replacement of one record.

    ``data`` is ``(reps, n, *point_shape)`` and ``means`` their Fréchet means; the neighbours' means
    start from ``means`` (they are close), which saves most iterations.
    """
    m = setting.manifold
    out = {}
    for kind, neighbours in (("random", random_neighbours(setting, data, rng)),
                             ("adversarial", adversarial_neighbours(setting, data))):
        out[kind] = m.dist(means, frechet_mean(m, neighbours, step=PAPER_STEP, init=means, tol=tol).mean)
    return out


def release_errors(setting: SpaceSetting, means: np.ndarray, mechanism: str, sigma: float, rng, *,
                   ambient_means: np.ndarray | None = None):
    """One release per data set by ``mechanism`` (one of ``UTILITY_MECHANISMS``) at scale σ.

    Its spec's ``statistic`` says around what: the Fréchet ``means``, or ``ambient_means``
    (``engine.estimators.ambient_mean``), the statistic whose sensitivity 2r_E/n calibrates the ε-DP
    Euclidean baseline. Returns the releases, their Euclidean distance to the Fréchet mean in ambient
    coordinates (the paper's metric, ``(reps,)``) and the mask of releases off the manifold.
    """
    m = setting.manifold
    if mechanism not in UTILITY_MECHANISMS:
        raise ValueError(f"mechanism must be one of {UTILITY_MECHANISMS}, got {mechanism!r}")
    spec = specs.spec(mechanism)
    footpoint = means
    if spec.statistic == "ambient":
        if ambient_means is None:
            raise ValueError(f"the {spec.label!r} baseline releases the ambient mean: pass ambient_means")
        footpoint = ambient_means
    release = spec.draw(m, footpoint, sigma, rng=rng)
    error = np.linalg.norm(m.to_ambient(release) - m.to_ambient(means), axis=-1)
    return release, error, off_manifold(m, release)


def baseline_privacy(setting: SpaceSetting, n: int, *, epsilon: float = 1.0) -> pd.DataFrame:
    """True ε of both Euclidean baselines on neighbouring pairs, against the claimed ε.

    Two replace-one pairs on the boundary of B_r(m0), with u, w the first two tangent basis vectors
    at m0 and each baseline reporting the worse: "collinear", D = n copies of Exp_{m0}(r u) and D′ one
    of them moved to Exp_{m0}(−r u) (on SPD(2): diag(e^r, 1) against diag(e^−r, 1)); "orthogonal", the
    other n − 1 records half at Exp_{m0}(r u), half at Exp_{m0}(−r u), and the moved one going from
    Exp_{m0}(r w) to Exp_{m0}(−r w) (positive curvature flattens the Fréchet function across u, so on
    the sphere this pair moves the mean further). For the ℓ2 K-norm mechanism with σ = Δ_E/ε the
    privacy loss of a pair is exactly ‖a − a′‖/σ, so a pair shows true ε = ε·‖a − a′‖/Δ_E, a lower
    bound on the mechanism's real ε; a ratio above 1 breaks the claim. On SPD(2), n = 10, r = 1.5 the
    paper's baseline gives 1.1616/0.6963 = 1.67.

    Returns columns space, n, baseline, pair, claimed_epsilon, gap, sensitivity, true_epsilon_on_pair, ratio.
    """
    n = check_int("n", n, minimum=2)
    epsilon = check_positive("epsilon", epsilon)
    m = setting.manifold
    m0 = m.origin
    u, w = m.tangent_basis(m0)[:2]

    def boundary(direction):
        return m.exp(m0, setting.radius * direction)

    rest = np.stack([boundary(u if i % 2 == 0 else -u) for i in range(n - 1)])
    pairs = {"collinear": (np.broadcast_to(boundary(u), (n - 1,) + m.point_shape), boundary(u), boundary(-u)),
             "orthogonal": (rest, boundary(w), boundary(-w))}
    sensitivity = float(bounds.ambient_sensitivity(n, bounds.ambient_radius(m, setting.radius)))
    worst = {}
    for pair_name, (others, before, after) in pairs.items():
        pair = np.stack([np.concatenate([others, before[None]]), np.concatenate([others, after[None]])])
        summaries = {"ambient": ambient_mean(m, pair),
                     "frechet": frechet_mean(m, pair, step=PAPER_STEP, init=pair[:, 0], tol=1e-13,
                                             max_iter=20_000).mean}
        for baseline, (a, a_prime) in ((s.key, summaries[s.statistic]) for s in specs.FIGURE1 if s.off_manifold):
            gap = float(np.linalg.norm(m.to_ambient(a) - m.to_ambient(a_prime)))
            if gap > worst.get(baseline, (-1.0, ""))[0]:
                worst[baseline] = (gap, pair_name)
    return pd.DataFrame([{"space": setting.key, "n": n, "baseline": baseline, "pair": pair_name,
                          "claimed_epsilon": epsilon, "gap": gap, "sensitivity": sensitivity,
                          "true_epsilon_on_pair": epsilon * gap / sensitivity, "ratio": gap / sensitivity}
                         for baseline, (gap, pair_name) in worst.items()])


def sensitivity_constant(setting: SpaceSetting, sphere_constant: str) -> float:
    """C with Δ(n) = C/n: 2r(2 − h)/h of Theorem 2, or, where the paper's study used it (the sphere,
    ``PaperRecipe.boundary_constant``) and ``sphere_constant="empirical"``, the supplement's boundary
    constant in place of 2r(2 − h), i.e. C = max‖log_{x1}x_i − log_{x1}x_j‖ / h."""
    m = setting.manifold
    if setting.recipe.boundary_constant and sphere_constant == "empirical":
        # The boundary constant replaces 2r(2 − h) inside Theorem 2's proof, so it needs its domain too
        # (beyond it h <= 0 and the "constant" turns negative).
        if not bounds.theorem2_domain(setting.radius, m.kappa_max):
            bounds.frechet_mean_sensitivity(1, setting.radius, m.kappa_max)  # raises, naming the limit
        h = float(bounds.curvature_factor(setting.radius, m.kappa_max))
        return bounds.boundary_log_constant(m, m.origin, setting.radius, grid=60) / h
    return float(bounds.frechet_mean_sensitivity(1, setting.radius, m.kappa_max))


def reads_constant(mechanism: str) -> bool:
    """Whether ``mechanism`` is calibrated from C/n, Theorem 2's Δ of the Fréchet mean (``sensitivity_constant``),
    rather than from the ambient Δ_E."""
    return specs.spec(mechanism).sensitivity == "theorem2"


def sensitivity(setting: SpaceSetting, mechanism: str, constant: float, n: int) -> float:
    """Δ that calibrates ``mechanism`` at sample size n: C/n for the Fréchet mean (``constant`` = C,
    ``sensitivity_constant``), Δ_E = 2 r_E/n for the ambient one (both Euclidean baselines)."""
    if reads_constant(mechanism):
        return constant / n
    m = setting.manifold
    return float(bounds.ambient_sensitivity(n, float(bounds.ambient_radius(m, setting.radius))))


def mechanism(setting: SpaceSetting, key: str, constant: float, n: int, epsilon: float, delta: float | None = None):
    """The calibrated mechanism ``key`` (its spec's ``build``) at n, ε and, for an (ε, δ) one, δ; its ``sigma`` is
    the one released with."""
    return specs.spec(key).build(setting.manifold, epsilon=epsilon, sensitivity=sensitivity(setting, key, constant, n),
                                 delta=delta)


def noise_scale(setting: SpaceSetting, key: str, constant: float, n: int, epsilon: float,
                delta: float | None = None) -> float:
    """σ of ``key`` at sample size n, ε and (an (ε, δ) mechanism's) δ as the mechanism computes it (its spec's
    ``scale``: C/(nε) or 2C/(nε) for the Riemannian Laplace, also where its law is not normalisable; σ_E =
    2 r_E/(nε) for both Euclidean baselines; the Riemannian Gaussian's from its exact μ)."""
    return specs.spec(key).scale(setting.manifold, epsilon=epsilon, sensitivity=sensitivity(setting, key, constant, n),
                                 delta=delta)


def noise_scales(setting: SpaceSetting, constant: float, n: int, epsilon: float) -> dict[str, float]:
    """``noise_scale`` of each of ``MECHANISMS``."""
    return {key: noise_scale(setting, key, constant, n, epsilon) for key in MECHANISMS}
