"""The private subspace, from data to release: the path the Private subspaces page shows.

data: n points of R^d in a random k-subspace U (on the page d = 3: a plane for k = 2, a line for
k = 1) plus isotropic noise and ``outliers`` Gaussian points off U (``engine.data.subspace_points``)
→ one mechanism of ``engine.mechanisms.subspace`` calibrated from public parameters only (k, ε, δ,
the number of outliers it is told to tolerate, the noise bound γ) → ``releases`` independent
releases on the same data → for each, ⊥ or a point Π̂ of Gr(d, k), its projection distance
‖Π̂ − Π‖₂ = sin θ_max and its principal angles θ_1 <= ... <= θ_k to U (Singhal & Steinke 2021).

``run(PrivateSubspaceConfig(...))`` is deterministic for a seed. A sample too small for the
method's guarantee raises the mechanism's ``ValueError``, which names the n it needs.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from engine.budget import check_memory
from engine.data import subspace_points, top_subspace
from engine.manifolds import Grassmann
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.subspace import AnalyzeGauss, BinghamSubspace, ExactSubspace, SubsampleAggregateSubspace
from engine.pipelines.summary import plain
from engine.threads import blas_capped
from engine.validation import check_int, check_nonnegative, check_positive, check_probability

#: Copies of the n × d data held per release at the peak (measured ~3 at n = 10⁵, d = 50, 10 releases).
PEAK_COPIES = 8
#: The methods (key → label), in the order the page offers them.
METHODS = {
    "exact": "Exact (Algorithm 1)",
    "approx": "Approximate (Algorithm 2)",
    "analyze-gauss": "Analyze Gauss (noisy XᵀX)",
    "bingham": "Bingham (exponential mech.)",
    "non-private": "Non-private PCA",
}
#: Smallest γ Algorithm 2 is told when the data have no noise (γ must be > 0).
MIN_GAMMA = 1e-12


@dataclass(frozen=True)
class PrivateSubspaceConfig:
    """Everything a run depends on (hashable, so a page can key its cache by it).

    ``outliers`` points of the n are replaced by Gaussian points off U, and the private methods are
    told to tolerate that many (Algorithm 1: ℓ = outliers + k − 1; Algorithm 2: one block each).
    A release succeeds when it is not ⊥ and ‖Π̂ − Π‖₂ <= ``alpha``.
    """

    k: int = 2
    d: int = 3
    n: int = 200
    epsilon: float = 1.0
    delta: float = 1e-6
    noise: float = 0.0
    outliers: int = 0
    method: str = "exact"
    releases: int = 50
    alpha: float = 0.1
    seed: int = 0

    def __post_init__(self):
        set_ = functools.partial(object.__setattr__, self)
        set_("k", check_int("k", self.k))
        set_("d", check_int("d", self.d))
        if self.k >= self.d:
            raise ValueError(f"k must be < d = {self.d} (a proper subspace), got {self.k}")
        set_("n", check_int("n", self.n))
        set_("epsilon", check_positive("epsilon", self.epsilon))
        set_("delta", check_probability("delta", self.delta))
        set_("noise", check_nonnegative("noise", self.noise))
        set_("outliers", check_int("outliers", self.outliers, minimum=0))
        if self.outliers > self.n:
            raise ValueError(f"outliers must be <= n = {self.n}, got {self.outliers}")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        set_("releases", check_int("releases", self.releases))
        set_("alpha", check_positive("alpha", self.alpha))
        set_("seed", check_int("seed", self.seed, minimum=0))
        check_memory(f"n = {self.n} points of R^{self.d} and {self.releases} releases",
                     PEAK_COPIES * (self.releases + 1) * self.n * self.d, fix="lower n, d or releases")


def mechanism(config: PrivateSubspaceConfig):
    """The mechanism of ``config.method`` calibrated from the public settings, or None (non-private)."""
    k, eps, delta, outliers = config.k, config.epsilon, config.delta, config.outliers
    if config.method == "exact":
        with np.errstate(over="ignore", divide="ignore"):  # an overflowing bound is refused just below
            exact = ExactSubspace(k=k, epsilon=eps, delta=delta, ell=outliers + k - 1)
        if not math.isfinite(exact.noise_bound):  # n_min = 3ℓ + ⌊2A⌋ + 2 would be no number
            raise ValueError(f"epsilon = {eps!r} with delta = {delta!r} puts the exact method's noise bound "
                             f"A = (2/ε) ln(1 + (e^ε − 1)/(2δ)) beyond float64 (so its n_min); give an epsilon and a delta "
                             f"nearer 1")
        return exact
    if config.method == "approx":
        return SubsampleAggregateSubspace(k=k, epsilon=eps, delta=delta, gamma=max(config.noise, MIN_GAMMA),
                                          outliers=outliers)
    if config.method == "analyze-gauss":
        return AnalyzeGauss(k=k, epsilon=eps, delta=delta)
    if config.method == "bingham":
        return BinghamSubspace(k=k, epsilon=eps)
    return None


@dataclass(frozen=True)
class PrivateSubspaceResult:
    """The data, the true subspace and every release with its errors.

    Attributes
    ----------
    data : (n, d) points; ``outlier`` (n,) bool marks the points off U.
    truth : (d, k) orthonormal basis of U.
    bases : (releases, d, k) private bases, NaN where the release is ⊥.
    bottom : (releases,) bool.
    proj_error : (releases,) ‖Π̂ − Π‖₂, NaN for ⊥.
    angles : (releases, k) principal angles in radians, ascending, NaN for ⊥.
    min_samples : the n the method's guarantee needs (0 for the baselines, which have none).
    guarantee : the mechanism's ``PrivacyGuarantee``, None for non-private PCA.
    diagnostics : public numbers of the mechanism (scores, block size, σ, ...).
    """

    config: PrivateSubspaceConfig
    data: np.ndarray
    outlier: np.ndarray
    truth: np.ndarray
    bases: np.ndarray
    bottom: np.ndarray
    proj_error: np.ndarray
    angles: np.ndarray
    min_samples: int
    guarantee: PrivacyGuarantee | None
    diagnostics: dict

    @property
    def bottom_rate(self) -> float:
        """Share of the releases that are ⊥."""
        return float(self.bottom.mean())

    @property
    def success_rate(self) -> float:
        """Share of the releases that are not ⊥ and within ``alpha`` of U."""
        return float(np.mean(~self.bottom & (np.nan_to_num(self.proj_error, nan=np.inf) <= self.config.alpha)))

    def summary(self) -> dict:
        """The numbers without the data and the bases (JSON-ready, ``engine.pipelines.summary.plain``):
        the config, the rates, the n the guarantee needs, the guarantee, the mechanism's diagnostics and
        per release ⊥, ‖Π̂ − Π‖₂ and the principal angles (``None`` for ⊥)."""
        return plain(dict(config=self.config, bottom_rate=self.bottom_rate, success_rate=self.success_rate,
                          min_samples=self.min_samples, guarantee=self.guarantee, diagnostics=self.diagnostics,
                          bottom=self.bottom, proj_error=self.proj_error, angles=self.angles))


@blas_capped
def run(config: PrivateSubspaceConfig) -> PrivateSubspaceResult:
    """Draw the data, release ``config.releases`` times and measure each release against U."""
    rng = np.random.default_rng(config.seed)
    sample = subspace_points(config.n, config.d, config.k, noise=config.noise, outliers=config.outliers, rng=rng)
    mech = mechanism(config)
    if mech is None:
        bases = np.broadcast_to(top_subspace(sample.data, config.k), (config.releases, config.d, config.k)).copy()
        bottom, diagnostics, guarantee = np.zeros(config.releases, dtype=bool), {}, None
    else:
        release = mech.release(sample.data, size=config.releases, rng=rng)
        bases, bottom, diagnostics, guarantee = release.points, release.bottom, release.diagnostics, release.guarantee
    grassmann = Grassmann(config.d, config.k)
    filled = np.where(bottom[:, None, None], sample.subspace, bases)
    angles = np.where(bottom[:, None], np.nan, grassmann.principal_angles(filled, sample.subspace))
    errors = np.where(bottom, np.nan, grassmann.projection_distance(filled, sample.subspace))
    return PrivateSubspaceResult(config=config, data=sample.data, outlier=sample.outlier, truth=sample.subspace,
                                 bases=bases, bottom=bottom, proj_error=errors, angles=angles,
                                 min_samples=int(getattr(mech, "min_samples", 0)), guarantee=guarantee,
                                 diagnostics=diagnostics)
