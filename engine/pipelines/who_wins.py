"""Who wins, and why: an intrinsic mechanism (a spec with an error law, the Riemannian Laplace by default) against
the Euclidean Laplace, said from a run's own errors.

The winner is the mechanism with the smaller mean geodesic error against the true Fréchet mean
(``engine.pipelines.release_errors``: Euclidean releases off the sphere projected back, those
outside the SPD cone left out); a gap within twice its standard error is a tie. The factors that
decide it come from the public parameters (Reimherr, Bharath & Soto 2021):

- noise scales: Δ = 2r(2 − h)/(nh) (Theorem 2, h = 2r√κ·cot(2r√κ) for κ > 0, else 1) against
  Δ_E = 2r_E/n, so Δ/Δ_E = (r/r_E)·(2 − h)/h;
- dimensions: the intrinsic noise has E ρ ≈ dΔ/ε (radius σ·Gamma(d, 1) in flat space), the ambient
  one E‖N‖ = DΔ_E/ε, of which projecting onto the d-dimensional tangent space keeps on average
  k(d, D) = Γ(D/2)Γ((d + 1)/2) / (Γ(d/2)Γ((D + 1)/2)) (E‖Pu‖ for u uniform on S^{D−1});
- scale: near m0 a unit of ambient noise moves a release by λ in geodesic distance (the coordinates'
  metric there: λ = 1 on the sphere, SPD at I and aligned pre-shapes, 2 on the Poincaré disk, 1/√2 for
  projectors of lines);
- calibration: the intrinsic σ is the spec's (``MechanismSpec.scale``: Δ/ε for the Laplace, from (ε, δ) for the
  Riemannian Gaussian) and its flat-space mean radius E ρ/σ the spec's ``flat_error`` (d for the Laplace, √2·Γ((d +
  1)/2)/Γ(d/2) for the Gaussian);
- so noise alone predicts the error ratio (σ/σ_E)·(E ρ/σ)/(D·k·λ), (Δ/Δ_E)·d/(D·k·λ) for the Laplace; the
  ambient mean's bias (its distance to
  the Fréchet mean: geodesic after projection, and in ambient coordinates, where the ambient mean of
  points on a sphere lies inside it) adds to the Euclidean error.

``verdict`` is pure: the playground and the Utility page pass their runs' errors and render its
``sentence``, so both say the same thing for the same setting. They do not average over the same draws
(``over_releases``, ``over_data_sets``): the playground's errors are those of its one data set's releases,
the Utility page's those of many data sets, one release each; the sentence says which, and why the other
page's numbers differ.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from engine import bounds
from engine.mechanisms import specs
from engine.pipelines.release_errors import ReleaseErrors
from engine.validation import check_int, check_positive

INTRINSIC = specs.EXACT.label
EUCLIDEAN = specs.EUCLID.label


def _num(x: float) -> str:
    """Three significant digits, trailing zeros kept (0.100, not 0.1)."""
    return f"{x:#.3g}".rstrip(".")


def _share(x: float) -> str:
    """A share in percent: whole percents, one significant digit below 1% (0.5%, 0.03%; not 0%)."""
    return f"{100 * x:.1g}%" if 0 < x < 0.01 else f"{x:.0%}"


def kept_length(dim: int, ambient_dim: int) -> float:
    """k(d, D) = E‖Pu‖ for u uniform on S^{D−1} and P the projection onto d coordinates (π/4 for d = 2,
    D = 3; 1 for d = D)."""
    d, big_d = check_int("dim", dim), check_int("ambient_dim", ambient_dim)
    if big_d < d:
        raise ValueError(f"ambient_dim must be >= dim = {d}, got {ambient_dim}")
    return float(np.exp(gammaln(big_d / 2) + gammaln((d + 1) / 2) - gammaln(d / 2) - gammaln((big_d + 1) / 2)))


@dataclass(frozen=True)
class Factors:
    """What decides the comparison at radius r and n records (see the module docstring).

    ``h`` is Theorem 2's curvature factor, ``delta`` and ``delta_e`` the two sensitivities,
    ``radius`` and ``ambient_radius`` r and r_E, ``dim`` and ``ambient_dim`` d and D, ``kept`` k(d, D),
    ``stretch`` λ, the geodesic length of a unit of ambient length at m0 (``ambient_stretch``);
    ``mechanism`` the intrinsic spec's key, ``sigma`` its noise scale, ``sigma_e`` = Δ_E/ε the Euclidean one and
    ``flat_error`` its E ρ/σ in Rᵈ (``MechanismSpec.flat_error``).
    """

    h: float
    delta: float
    delta_e: float
    radius: float
    ambient_radius: float
    dim: int
    ambient_dim: int
    kept: float
    sigma: float
    sigma_e: float
    flat_error: float
    mechanism: str = specs.EXACT.key
    stretch: float = 1.0

    @property
    def curvature(self) -> float:
        """(2 − h)/h: how much positive curvature inflates Δ over the flat 2r/n."""
        return (2.0 - self.h) / self.h

    @property
    def scale_ratio(self) -> float:
        """Δ/Δ_E = (r/r_E)·(2 − h)/h."""
        return self.delta / self.delta_e

    @property
    def calibration(self) -> float:
        """σ/(Δ/ε): what the mechanism's calibration adds to its sensitivity's noise (1 for the Laplace)."""
        return self.sigma * self.delta_e / (self.sigma_e * self.delta)

    @property
    def noise_ratio(self) -> float:
        """σ/σ_E = (Δ/Δ_E)·``calibration``."""
        return self.sigma / self.sigma_e

    @property
    def dimension_ratio(self) -> float:
        """(E ρ/σ)/(D·k): the error ratio the dimensions alone give at equal noise scales (d/(D·k) for the Laplace)."""
        return self.flat_error / (self.ambient_dim * self.kept)

    @property
    def predicted_ratio(self) -> float:
        """Intrinsic over Euclidean error predicted by the noise alone (no bias)."""
        return self.noise_ratio * self.dimension_ratio / self.stretch


def ambient_stretch(manifold, step: float = 1e-6) -> float:
    """λ: geodesic over ambient length of short steps from the origin, t/‖a(Exp(t e_i)) − a(origin)‖
    averaged over the tangent basis e_i (a = ``to_ambient``)."""
    origin = manifold.origin
    basis = manifold.tangent_basis(origin)
    ends = manifold.exp(np.broadcast_to(origin, basis.shape), step * basis)
    moved = np.linalg.norm(manifold.to_ambient(manifold.representative(ends, origin))
                           - manifold.to_ambient(origin), axis=-1)
    return float(np.mean(step / moved))


def factors(manifold, radius: float, n: int, *, mechanism: str = specs.EXACT.key, epsilon: float = 1.0,
            delta: float | None = None, stretch: float | None = None) -> Factors:
    """``Factors`` of ``manifold`` (a space with an ambient ball) for n records in B_r(m0), with
    Theorem 2's proven Δ, for the intrinsic ``mechanism`` (a spec with an error law) at budget ε (and δ if its
    guarantee needs one; the Laplace's ratios do not depend on ε); ``ValueError`` beyond Theorem 2's domain,
    without an ambient ball, or for a mechanism without an error law.
    ``stretch``: ``ambient_stretch(manifold)`` when the caller has it already (it depends on the space only)."""
    radius, n = check_positive("radius", radius), check_int("n", n, minimum=2)
    epsilon = check_positive("epsilon", epsilon)
    spec = specs.spec(mechanism)
    if spec.flat_error is None:
        raise ValueError(f"the {spec.label} has no error law to compare (no flat_error in its spec); choose one of "
                         f"{', '.join(s.key for s in specs.REGISTRY if s.flat_error is not None)}")
    if spec.needs_delta and delta is None:
        raise ValueError(f"the {spec.label} is {spec.guarantee}: give its delta")
    delta_f = float(bounds.frechet_mean_sensitivity(n, radius, manifold.kappa_max))
    r_e = float(bounds.ambient_radius(manifold, radius))
    delta_e = float(bounds.ambient_sensitivity(n, r_e))
    sigma = float(spec.scale(manifold, epsilon=epsilon, sensitivity=delta_f, delta=delta if spec.needs_delta else None))
    return Factors(h=float(bounds.curvature_factor(radius, manifold.kappa_max)), delta=delta_f, delta_e=delta_e,
                   radius=radius, ambient_radius=r_e, dim=manifold.dim, ambient_dim=manifold.ambient_dim,
                   kept=kept_length(manifold.dim, manifold.ambient_dim), sigma=sigma, sigma_e=delta_e / epsilon,
                   flat_error=float(spec.flat_error(manifold.dim)), mechanism=spec.key,
                   stretch=ambient_stretch(manifold) if stretch is None else stretch)


@dataclass(frozen=True)
class Verdict:
    """The comparison: ``winner`` ("intrinsic", "euclidean", or ``None`` for a tie), both mechanisms'
    errors, the ambient mean's bias (its ``ReleaseErrors`` taken as a release), the factors, the
    paper's calibration if one was charted, and the ``sentence`` a page shows."""

    winner: str | None
    intrinsic: ReleaseErrors
    euclidean: ReleaseErrors
    bias: ReleaseErrors
    factors: Factors
    paper: tuple[float, ReleaseErrors] | None
    sentence: str

    @property
    def winner_label(self) -> str | None:
        """The winner's name as the pages write it (``None`` for a tie)."""
        return {"intrinsic": specs.spec(self.factors.mechanism).label, "euclidean": EUCLIDEAN}.get(self.winner)


def over_releases(releases: int) -> str:
    """What the playground's errors average over (``PrivateMeanConfig.releases``)."""
    return (f"These errors average {check_int('releases', releases, minimum=1)} releases of this one data set; the "
            "Utility page averages many data sets drawn by the paper's recipe, one release each.")


def over_data_sets(reps: int) -> str:
    """What the Utility page's errors average over (``UtilityConfig.reps``)."""
    return (f"These errors average {check_int('reps', reps, minimum=1)} simulated data sets, one release each; the "
            "playground averages releases of one data set.")


def _other_draws(intrinsic: ReleaseErrors, euclidean: ReleaseErrors) -> str:
    """Why the other page's errors differ: their draws' noise, and each data set's own ambient mean."""
    return (f"So the two pages' errors differ by the noise of their draws (standard errors "
            f"{intrinsic.geodesic_se:.2g} and {euclidean.geodesic_se:.2g} here) and, for the {EUCLIDEAN}, by how far "
            "each data set's ambient mean sits from its Fréchet mean.")


def _headline(where: str, label: str, winner: str | None, intrinsic: float, euclidean: float, gap_se: float) -> str:
    if winner is None:
        return (f"{where}, neither mechanism lands clearly closer to the true Fréchet mean: mean geodesic error "
                f"{_num(intrinsic)} for the {label} against {_num(euclidean)} for the {EUCLIDEAN}, a gap within "
                f"twice its standard error ({gap_se:.2g}).")
    (win, w), (lose, lo) = sorted([(label, intrinsic), (EUCLIDEAN, euclidean)], key=lambda item: item[1])
    return (f"{where}, the {win} lands closer to the true Fréchet mean: mean geodesic error {_num(w)} against "
            f"{_num(lo)} for the {lose}, {_share(1 - w / lo)} smaller.")


def _why(f: Factors, ratio: float) -> str:
    label = specs.spec(f.mechanism).label
    if f.h < 1:
        scale = (f"Theorem 2's curvature factor (2 − h)/h = {f.curvature:.2f} times r/r_E = "
                 f"{f.radius / f.ambient_radius:.2f}")
    else:
        scale = (f"no curvature factor (h = 1) times r/r_E = {f.radius / f.ambient_radius:.2f}, the ambient ball "
                 f"being {'wider' if f.ambient_radius > f.radius else 'narrower'} than the geodesic one")
    law = ("" if abs(f.flat_error - f.dim) < 1e-9 else
           f" (its mean radius in flat space is {f.flat_error:.2f}σ, where the Euclidean noise's is {f.ambient_dim}σ_E)")
    if f.dim < f.ambient_dim:
        dims = (f"its noise spreads over the space's {f.dim} dimensions against {f.ambient_dim} ambient ones{law}, and "
                f"projecting back keeps {_share(f.kept)} of the Euclidean noise's length, so the dimensions alone "
                f"scale the ratio by {f.dimension_ratio:.2f}")
    elif abs(f.dimension_ratio - 1) > 1e-9:
        dims = (f"both noises spread over the same {f.dim} dimensions{law}, so the laws alone scale the ratio by "
                f"{f.dimension_ratio:.2f}")
    else:
        dims = f"both noises spread over the same {f.dim} dimensions, so the dimensions change nothing"
    stretch = ("" if abs(f.stretch - 1) < 1e-3 else
               f"; near m₀ a unit of ambient noise moves a release by {f.stretch:.2f} in geodesic distance")
    noise = f"the intrinsic noise scale is Δ/Δ_E = {f.scale_ratio:.2f} times the Euclidean one ({scale})"
    if abs(f.calibration - 1) > 1e-9:
        noise = (f"the intrinsic noise scale is σ/σ_E = {f.noise_ratio:.2f} times the Euclidean one: Δ/Δ_E = "
                 f"{f.scale_ratio:.2f} ({scale}) times the {f.calibration:.2f} that the {label}'s calibration at its "
                 f"privacy budget puts on Δ/ε")
    return (f"Why: {noise}; "
            f"{dims}{stretch}; the noise alone predicts an intrinsic-to-Euclidean error ratio of {f.predicted_ratio:.2f}, "
            f"the run shows {ratio:.2f}.")


def rounded_text(label: str, smallest: float, largest: float) -> str:
    """What Euclidean releases were before ``from_ambient`` rounded them onto ``label`` (on Gr(d, 1) a noisy
    projector is no projector and goes to the nearest line, its top eigenvector), given the smallest and
    largest share of them so rounded (over a map's cells; equal for one run)."""
    every = smallest == 1
    share = ("every Euclidean release" if every else f"{largest:.0%} of the Euclidean releases" if smallest == largest
             else f"up to {largest:.0%} of the Euclidean releases")
    return (f"no Euclidean release is left off {label}, but only because {share} "
            f"{'was' if every else 'were'} off it before rounding: a noisy projector is no projector, and "
            f"{'it was' if every else 'they were'} rounded onto the nearest line (the top eigenvector) before "
            f"{'its' if every else 'their'} error was measured")


def _euclidean_side(f: Factors, label: str, euclidean: ReleaseErrors, rounded_share: float, bias: float) -> str:
    if rounded_share > 0:
        where = rounded_text(label, rounded_share, rounded_share)
    else:
        where = (f"{_share(euclidean.off_share)} of the Euclidean releases " +
                 ("lie off the space and were projected back onto it" if f.dim < f.ambient_dim
                  else "lie outside the space (they have no nearest point and are left out of its error)"))
    where = where[0].upper() + where[1:]
    return (f"{where}; the ambient mean they are centred on sits {bias:.2g} from the Fréchet mean, a bias of "
            f"{_share(bias / euclidean.geodesic)} of their error.")


def verdict(manifold, radius: float, n: int, epsilon: float, *, intrinsic: ReleaseErrors,
            euclidean: ReleaseErrors, bias: ReleaseErrors, rounded_share: float = 0.0,
            paper: tuple[float, ReleaseErrors] | None = None, averaged: str | None = None,
            mechanism: str = specs.EXACT.key, delta: float | None = None) -> Verdict:
    """Which mechanism has the smaller error in this run, by how much, and why (see the module docstring).

    Parameters
    ----------
    manifold : a space with an ambient ball (sphere, SPD)
    radius, n, epsilon : the public radius r, the number of records in the mean and the budget ε
    intrinsic, euclidean : ``ReleaseErrors`` of the intrinsic ``mechanism`` (Theorem 2's Δ) and of the
        Euclidean Laplace (Δ_E, around the ambient mean)
    bias : ``ReleaseErrors`` of the ambient mean(s) against the Fréchet mean(s): its geodesic error
        (after projection) and its ambient distance
    rounded_share : the share of Euclidean releases that were no point of the space and were rounded onto
        it (``EuclideanLaplace.release_centre``'s ``diagnostics``; 1 on Gr(d, 1), 0 elsewhere)
    paper : ``(C, errors)`` when the page also charts the Riemannian Laplace with a paper's numerical
        constant C (σ = C/(nε), not a proven bound): the sentence says what that changes.
    averaged : what the errors average over (``over_releases``, ``over_data_sets``), said after the headline.
    mechanism, delta : the intrinsic mechanism's spec key (one with an error law, ``MechanismSpec.flat_error``) and
        its δ if its guarantee needs one.

    Returns
    -------
    Verdict

    Raises
    ------
    ValueError
        Beyond Theorem 2's domain, without an ambient ball, for a mechanism without an error law, or when
        either error is not finite.
    """
    f = factors(manifold, radius, n, mechanism=mechanism, epsilon=epsilon, delta=delta)
    label = specs.spec(f.mechanism).label
    for name, errors in ((label, intrinsic), (EUCLIDEAN, euclidean)):
        if not np.isfinite(errors.geodesic):
            raise ValueError(f"the {name} has no geodesic error to compare (got {errors.geodesic}): "
                             f"{_share(errors.off_share)} of its releases lie outside the space")
    gap = intrinsic.geodesic - euclidean.geodesic
    gap_se = float(np.hypot(intrinsic.geodesic_se, euclidean.geodesic_se))
    winner = None if abs(gap) <= 2 * gap_se else ("intrinsic" if gap < 0 else "euclidean")
    ratio = intrinsic.geodesic / euclidean.geodesic
    parts = [_headline(f"At n = {n}, ε = {epsilon:g}", label, winner, intrinsic.geodesic, euclidean.geodesic, gap_se),
             *([averaged, _other_draws(intrinsic, euclidean)] if averaged else []),
             _why(f, ratio), _euclidean_side(f, manifold.name, euclidean, rounded_share, bias.geodesic)]
    if np.isfinite(intrinsic.ambient) and np.isfinite(euclidean.ambient):
        parts.append(f"In ambient coordinates without projecting back (Figure 1's metric) the errors are "
                     f"{_num(intrinsic.ambient)} ({label}) and {_num(euclidean.ambient)} ({EUCLIDEAN}); there "
                     f"the ambient mean itself sits {bias.ambient:.2g} from the Fréchet mean.")
    if paper is not None:
        constant, paper_errors = paper
        side = "below" if paper_errors.geodesic < euclidean.geodesic else "still above"
        parts.append(f"The paper's numerical boundary constant (C = {constant:.3g}, not a proven bound) shrinks Δ to "
                     f"{constant / n / f.delta:.2f} of Theorem 2's and the {INTRINSIC}'s geodesic error to "
                     f"{_num(paper_errors.geodesic)}, {side} the Euclidean {_num(euclidean.geodesic)} (in ambient "
                     f"coordinates {_num(paper_errors.ambient)} against {_num(euclidean.ambient)}).")
    return Verdict(winner=winner, intrinsic=intrinsic, euclidean=euclidean, bias=bias, factors=f,
                   paper=paper, sentence=" ".join(parts))
