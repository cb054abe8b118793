"""Audit targets for the mechanisms exactly as the pages and the studies call them.

A defect can sit in the way a page uses a correct mechanism (noise calibrated for one statistic
and added around another, issue 19 item 2), so these targets release through the callers' own
code, on the adversarial replace-one pair of ``engine.audit.pairs``, at any radius:

* ``playground_target``: the private-mean playground (page 1). Calibration and release go through
  ``engine.pipelines.private_mean.release_on``, the code of the pipeline's ``run``: ``"exact"`` the
  Riemannian Laplace around the Fréchet mean (Theorem 2), ``"euclid"`` the Euclidean Laplace
  around the ambient mean with Δ_E = 2 r_E/n, ``"gauss"`` the tangent Gaussian at the public
  centre m0 (analytic calibration), ``"rgauss"`` the Riemannian Gaussian around the Fréchet mean
  (Theorem 2's Δ, σ from (ε, δ) through its exact μ).
* ``figure1_target``: the Utility page (page 3) and the Figure 1 study
  (``engine.experiments.reimherr_fig1``). σ as ``reimherr_fig1.simulate_cell`` and
  ``engine.pipelines.utility.release_summary`` (the page's) compute it (a test pins all three
  together), releases through ``figure1_setting.release_errors``: ``"exact"`` the Riemannian
  Laplace (Δ = C/n, C from Theorem 2 or the supplement's boundary constant on the sphere),
  ``"euclid"`` (the ε-DP baseline, Δ_E = 2 r_E/n around the ambient mean) and ``"paper"`` (the
  same σ_E around the Fréchet mean: not ε-DP, a positive control).

The claimed law of each target is the mechanism the caller builds (its spec in
``engine.mechanisms.specs``), so σ is the mechanism's own, never re-derived from a σ.

Each spec answers for its own audit (``MechanismSpec.audit_pair_gap``: the summary the adversarial pair moves
furthest; ``MechanismSpec.audit_target``: the log-likelihood ratio of the law it claims, and how much of the
sensitivity the pair reaches), never chosen here.
A radius outside the domain of the caller's sensitivity bound raises the caller's own ``ValueError``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from engine.audit.pairs import replace_one_pair
from engine.audit.target import AuditTarget
from engine.bounds import frechet_mean_sensitivity
from engine.estimators import ambient_mean, frechet_mean
from engine.mechanisms import specs
from engine.pipelines import figure1_setting
from engine.pipelines.private_mean import PrivateMeanConfig, release_on
from engine.pipelines.sources import SOURCES
from engine.spaces import DEFAULT_LANDMARKS, make_manifold
from engine.validation import check_int, check_positive

#: The playground's exact mechanisms (the MH chain is approximate: its law is not the claimed one).
PLAYGROUND_KEYS = tuple(spec.key for spec in specs.PLAYGROUND if not spec.chain)
FIGURE1_MECHANISMS = figure1_setting.MECHANISMS
FIGURE1_SPACES = tuple(setting.key for setting in figure1_setting.SETTINGS)


def playground_target(key: str, space: str, radius: float, *, n: int = 10, epsilon: float = 1.0,
                      delta: float = 1e-5, k: int = DEFAULT_LANDMARKS, batch_size: int = 50_000) -> AuditTarget:
    """The playground's mechanism ``key`` on ``space`` for n records in B_r(m0), m0 = the space's origin.

    Parameters
    ----------
    key : one of ``PLAYGROUND_KEYS``
    space : a key of ``engine.spaces.SPACES`` offering ``key`` (a ``requires_ambient`` one: a space with an ambient ball)
    radius : float > 0, the public radius r (the playground's slider)
    n : int >= 2; epsilon : float > 0; delta : the tangent Gaussian's δ; k : Kendall landmarks

    Raises
    ------
    ValueError
        The pipeline's own refusal, e.g. a radius at or beyond Theorem 2's limit π/(4√κ).
    """
    if key not in PLAYGROUND_KEYS:
        raise ValueError(f"key must be one of {PLAYGROUND_KEYS}, got {key!r}")
    n = check_int("n", n, minimum=2)
    radius = check_positive("radius", radius)
    config = PrivateMeanConfig(space=space, source=next(iter(SOURCES[space])), n=n, radius=radius, epsilon=epsilon,
                               delta=delta, k=k, mechanisms=(key,), releases=1)
    m = make_manifold(space, k)
    spec = specs.spec(key)
    pair = replace_one_pair(m, n, radius, gap=spec.audit_pair_gap)
    data = (pair.first, pair.second)
    mechanism, _ = release_on(key, config, pair.first, m.origin, rng=0)
    target = spec.audit_target(mechanism, pair, sensitivity=mechanism.sensitivity)

    def draw(side, size, rng):
        return release_on(key, dataclasses.replace(config, releases=size), data[side], m.origin, rng=rng)[1].points

    return dataclasses.replace(target, draw=draw, batch_size=batch_size,
                               label=f"{spec.audit_label} as the playground runs it on {m.name}, r = {radius:g}, n = {n}")


def figure1_sigma(mechanism: str, space: str, radius: float, n: int, epsilon: float,
                  sphere_constant: str = "theorem") -> float:
    """σ of ``mechanism`` as the Figure 1 study and the Utility page calibrate it
    (``figure1_setting.noise_scales``, the mechanisms' own). ``ValueError`` beyond Theorem 2."""
    setting = _figure1_setting(space, radius)
    return figure1_setting.noise_scale(setting, mechanism, _figure1_constant(setting, mechanism, n, sphere_constant),
                                       n, epsilon)


def _figure1_constant(setting, mechanism: str, n: int, sphere_constant: str) -> float:
    """C of Δ = C/n for the Riemannian Laplace (``nan`` for the baselines, which do not read it)."""
    if mechanism not in FIGURE1_MECHANISMS:
        raise ValueError(f"mechanism must be one of {FIGURE1_MECHANISMS}, got {mechanism!r}")
    if not figure1_setting.reads_constant(mechanism):
        return float("nan")
    # Both constants divide by h(r, κ): Theorem 2's domain check refuses where h <= 0, even where
    # the boundary constant alone would return a number (a negative one).
    frechet_mean_sensitivity(n, setting.radius, setting.manifold.kappa_max)
    return figure1_setting.sensitivity_constant(setting, sphere_constant)


def _figure1_setting(space: str, radius: float):
    if space not in FIGURE1_SPACES:
        raise ValueError(f"space must be one of {FIGURE1_SPACES} for the Figure 1 study, got {space!r}")
    manifold = next(s for s in figure1_setting.SETTINGS if s.key == space).manifold
    return figure1_setting.SpaceSetting(space, manifold, check_positive("radius", radius))


def figure1_target(mechanism: str, space: str, radius: float, *, n: int = 10, epsilon: float = 1.0,
                   sphere_constant: str = "theorem", batch_size: int = 50_000) -> AuditTarget:
    """A mechanism of the Figure 1 study and the Utility page on ``space`` ("spd" or "sphere").

    Parameters
    ----------
    mechanism : one of ``figure1_setting.MECHANISMS``
    radius : float > 0, the public radius r (the Utility page's slider)
    n : int >= 2; epsilon : float > 0
    sphere_constant : {"theorem", "empirical"}, C of the Riemannian Laplace on the sphere

    Raises
    ------
    ValueError
        A radius beyond Theorem 2's domain (Riemannian Laplace with Theorem 2's constant), or a
        constant C <= 0 (the boundary constant there).
    """
    n = check_int("n", n, minimum=2)
    epsilon = check_positive("epsilon", epsilon)
    setting = _figure1_setting(space, radius)
    m = setting.manifold
    spec = specs.spec(mechanism)
    claimed = figure1_setting.mechanism(setting, mechanism, _figure1_constant(setting, mechanism, n, sphere_constant),
                                        n, epsilon)
    sigma = claimed.sigma
    pair = replace_one_pair(m, n, radius, gap=spec.audit_pair_gap)
    data = (pair.first, pair.second)
    # The summaries the study and the page compute (default solver tolerance, as they use it).
    means = [frechet_mean(m, d).mean for d in data]
    ambient = [ambient_mean(m, d) for d in data]
    target = spec.audit_target(claimed, pair, sensitivity=claimed.sensitivity)

    def draw(side, size, rng):
        shape = (size,) + m.point_shape
        release, _, _ = figure1_setting.release_errors(
            setting, np.broadcast_to(means[side], shape), mechanism, sigma, rng,
            ambient_means=np.broadcast_to(ambient[side], shape))
        return release

    constant = (f", {sphere_constant} constant"
                if figure1_setting.reads_constant(mechanism) and setting.recipe.boundary_constant else "")
    return dataclasses.replace(
        target, draw=draw, batch_size=batch_size,
        label=f"{spec.audit_label} as the Utility page and Figure 1 run it on {m.name}, r = {radius:g}, "
              f"n = {n}{constant}")
