"""Riemannian Laplace mechanism and the Euclidean (ambient) Laplace baseline.

Reimherr, Bharath & Soto (2021): the Laplace distribution with footpoint η and scale σ has density
∝ exp(−ρ(x, η)/σ) w.r.t. the Riemannian volume (Definition 3). Theorem 1: releasing a draw around
a summary of global sensitivity Δ is ε-DP with σ = 2Δ/ε, and with σ = Δ/ε when the normalising
constant does not depend on the footpoint. Theorem 3: the same holds for the law conditioned on a
ball B_r(m0) (σ = 2Δ/ε, the conditioned constant depends on η). The baseline adds the K-norm
(ℓ2) Laplace noise σ·R·u, R ~ Gamma(D, 1), in flat ambient coordinates (supplement §1.4).
"""

from __future__ import annotations

import numpy as np

from engine.budget import draw_batch
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.mcmc import check_ball, laplace_mh
from engine.mechanisms.protocol import Release
from engine.mechanisms.radial import (
    RadialLaw,
    euclidean_law,
    hyperbolic_law,
    kendall_law,
    real_projective_law,
    sample_radius,
    sphere_law,
)
from engine.mechanisms.representative import public_reference
from engine.mechanisms.spd_laplace import spd_laplace_points
from engine.threads import blas_capped
from engine.validation import check_finite_array, check_positive

METHODS = ("exact", "mh")
# The ball-conditioned sampler gives up when fewer draws than this fraction land in the ball.
MIN_BALL_ACCEPTANCE = 1e-4
#: Largest scale of the ambient Laplace noise σ·R·u: below it the releases' squared norms stay finite in
#: float64, (σR)² < 1.8e308, for every radius R ~ Gamma(D, 1) below 1e6 (certain for any D up to 1e5).
AMBIENT_SCALE_LIMIT = float(np.sqrt(np.finfo(float).max)) / 1e6


def is_homogeneous(manifold) -> bool:
    """Whether isometries act transitively, so ∫ exp(−ρ(x, η)/σ) dv(x) is the same for every η
    (the space's own ``homogeneous`` declaration)."""
    return bool(manifold.homogeneous)


#: Radial law of the Laplace distribution for each family of polar volume density a space declares
#: (``Manifold.polar_volume``), as a function of the intrinsic dimension.
RADIAL_LAWS = {
    "flat": euclidean_law,
    "sphere": sphere_law,
    "hyperbolic": hyperbolic_law,
    "real-projective": real_projective_law,
    # Σ^k_2 ≅ CP^{k−2} has real dimension 2(k − 2).
    "complex-projective": lambda dim: kendall_law(dim // 2 + 2),
}


def radial_law(manifold) -> RadialLaw:
    """The radial law of the Laplace distribution on a space whose volume density in polar
    coordinates depends on the distance only (``manifold.polar_volume`` names its family).

    Raises ``ValueError`` for spaces whose volume density around a point depends on the direction
    (SPD affine-invariant has its own sampler; Gr(n, p) with p, n − p >= 2 and Bures–Wasserstein need
    ``"mh"``).
    """
    law = RADIAL_LAWS.get(manifold.polar_volume)
    if law is None:
        raise ValueError(
            f"no exact sampler of the Laplace law on {manifold.name}: its volume density around a point "
            f"depends on more than the distance; use method='mh'"
        )
    return law(manifold.dim)


def scale_limit(manifold) -> float:
    """Supremum of the scales σ for which the unconditioned Laplace law is normalisable: 1/c for the
    space's volume growth rate c (1/(d − 1) on H^d, 1/√(k(k² − 1)/12) on SPD(k) affine-invariant),
    ``inf`` when the volume grows polynomially."""
    growth = float(manifold.volume_growth)
    return np.inf if growth == 0 else 1.0 / growth


def _exact(manifold, eta, sigma, rng, max_radius) -> np.ndarray:
    """One exact draw per footpoint in ``eta`` (``(*batch, *point_shape)``), radii <= max_radius."""
    if manifold.polar_volume == "spd-affine":
        return spd_laplace_points(eta, sigma, rng, max_radius=max_radius)
    batch = eta.shape[: eta.ndim - manifold.point_ndim]
    rho = sample_radius(radial_law(manifold), sigma, batch, rng, max_radius=max_radius)
    direction = manifold.random_unit_tangent(eta, rng)
    return manifold.exp(eta, manifold.per_point(rho.reshape(batch)) * direction)


def _exact_in_ball(manifold, eta, sigma, rng, center, radius) -> np.ndarray:
    """Exact draws conditioned on B_r(m0): radial law truncated at R = r + max ρ(η, m0) (a ball
    around η containing B_r(m0), which keeps H^d and SPD normalisable), then rejection of draws
    outside B_r(m0), vectorised over footpoints with several candidates per round."""
    pnd = manifold.point_ndim
    batch = eta.shape[: eta.ndim - pnd]
    flat = eta.reshape((-1,) + manifold.point_shape)
    outer = radius + float(np.max(manifold.dist(flat, center), initial=0.0))
    out = np.empty_like(flat)
    todo = np.arange(len(flat))
    proposed = accepted = 0
    reps = 1
    while todo.size:
        rate = accepted / proposed if proposed else 1.0
        # Candidates per footpoint: enough for ~1.5 hits at the observed rate, growing at most
        # tenfold per round (so a hopeless ball is detected early) and bounded in memory.
        reps = int(np.clip(np.ceil(1.5 / max(rate, 1e-9)), 1, min(10 * reps, max(1, 2_000_000 // todo.size))))
        pending = flat[todo]
        cand = _exact(manifold, np.broadcast_to(pending, (reps,) + pending.shape), sigma, rng, outer)
        inside = manifold.dist(cand, center) <= radius
        hit = inside.any(axis=0)
        cols = np.flatnonzero(hit)
        out[todo[cols]] = cand[inside.argmax(axis=0)[cols], cols]
        proposed += inside.size
        accepted += int(inside.sum())
        todo = todo[~hit]
        if todo.size and proposed >= 10_000 and accepted < MIN_BALL_ACCEPTANCE * proposed:
            raise ValueError(
                f"only {accepted} of {proposed} Laplace draws fell inside the ball of radius {radius:g}: "
                f"the conditioned law has too little mass there (footpoints up to {outer - radius:.4g} "
                f"from the centre, sigma={sigma:g})"
            )
    return out.reshape(batch + manifold.point_shape)


@blas_capped
def riemannian_laplace(
    manifold,
    footpoint,
    sigma,
    *,
    size=None,
    rng=None,
    method: str = "exact",
    ball_center=None,
    ball_radius=None,
    step=None,
    burn_in: int = 10_000,
    thin: int = 100,
):
    """Draws from the Laplace law ∝ exp(−ρ(x, η)/σ) w.r.t. the Riemannian volume.

    Parameters
    ----------
    manifold : Manifold
    footpoint : array_like, shape ``(*batch, *point_shape)``
        Footpoints η (a batch gives independent draws around each).
    sigma : float
        Scale σ > 0.
    size : int or None
        ``None``: one draw per footpoint, shape ``(*batch, *point_shape)``; an int m: shape
        ``(m, *batch, *point_shape)`` (never squeezed).
    rng : numpy.random.Generator, int or None
    method : {"exact", "mh"}
        "exact": direction uniform in T_ηM times an exact radial draw (sphere, hyperbolic, Kendall,
        flat spaces; the eigen-log sampler on SPD affine-invariant). "mh": the random-walk
        Metropolis–Hastings sampler of ``mcmc.laplace_mh`` (approximate; any space).
    ball_center, ball_radius : optional
        Condition on B_r(m0) (Theorem 3); exact by rejection from the law truncated at
        r + ρ(η, m0), so it works on H^d and SPD at any σ.
    step, burn_in, thin
        Passed to ``laplace_mh`` when ``method="mh"``.

    Returns
    -------
    ndarray
        Points on the manifold.

    Raises
    ------
    ValueError
        Bad σ, size, method or footpoint; a non-normalisable unconditioned law (σ at or beyond
        ``scale_limit``); a ball with too little mass; ``"exact"`` on a space without exact sampler.
    """
    sigma = check_positive("sigma", sigma)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    eta = manifold.check_points(footpoint, "footpoint")
    ball = check_ball(manifold, ball_center, ball_radius)
    if method == "mh":
        return laplace_mh(
            manifold, eta, sigma, size=size, rng=rng, step=step, burn_in=burn_in, thin=thin,
            ball_center=ball_center, ball_radius=ball_radius,
        ).samples
    rng = np.random.default_rng(rng)
    batch = eta.shape[: eta.ndim - manifold.point_ndim]
    out_batch = draw_batch(size, batch, manifold.point_shape)
    eta = np.broadcast_to(eta, out_batch + manifold.point_shape)
    if ball is None:
        return _valid_releases(manifold, _exact(manifold, eta, sigma, rng, np.inf), sigma)
    return _valid_releases(manifold, _exact_in_ball(manifold, eta, sigma, rng, *ball), sigma)


def _valid_releases(manifold, releases: np.ndarray, sigma: float) -> np.ndarray:
    """Return ``releases`` if every one is a finite point of the space, else ``ValueError``.

    Near a normalisability limit the exact law reaches radii (30 and more on SPD(2) at σ = 1, limit
    √2) whose points float64 cannot hold: e^{±ρ} eigenvalues overflow or lose positive definiteness.
    Such a draw is not a valid release, and dropping it would change the law, so the call fails.
    """
    bad = ~np.isfinite(releases).all(axis=tuple(range(-manifold.point_ndim, 0))) | ~np.asarray(
        manifold.belongs(np.nan_to_num(releases), atol=1e-6))
    if np.any(bad):
        raise ValueError(
            f"{int(bad.sum())} of {bad.size} Laplace draws on {manifold.name} at sigma={sigma:g} are not "
            f"representable in float64 (non-finite or off the space): sigma is too close to the normalisability "
            f"limit {scale_limit(manifold):.6g}; raise epsilon or pass ball_center/ball_radius"
        )
    return releases


def euclidean_laplace(manifold, footpoint, sigma, *, size=None, rng=None) -> np.ndarray:
    """K-norm (ℓ2 Laplace) noise in the flat coordinates ``manifold.to_ambient`` (exact), around the
    coordinates of ``footpoint``: ``ambient_laplace(manifold, to_ambient(footpoint), ...)``.

    ``footpoint`` needs the point shape but not membership (an extrinsic mean may lie off the manifold).
    """
    arr = check_finite_array("footpoint", footpoint)
    pnd = manifold.point_ndim
    if arr.ndim < pnd or arr.shape[arr.ndim - pnd :] != manifold.point_shape:
        raise ValueError(f"footpoint must have trailing shape {manifold.point_shape}, got shape {arr.shape}")
    return ambient_laplace(manifold, manifold.to_ambient(arr), sigma, size=size, rng=rng)


def ambient_laplace(manifold, centre, sigma, *, size=None, rng=None) -> np.ndarray:
    """K-norm (ℓ2 Laplace) noise around ``centre`` given in the flat coordinates ``manifold.to_ambient``
    ``(..., D)`` (exact): release = from_ambient(a + σ R u), a = centre, u uniform on S^{D−1},
    R ~ Gamma(D, 1) (Reimherr et al. supplement §1.4). Releases generally leave the manifold (or, on
    Gr(n, p), are rounded onto it by ``from_ambient``: post-processing). Shapes follow
    ``riemannian_laplace`` with ``centre``'s batch.
    """
    return manifold.from_ambient(ambient_laplace_coordinates(manifold, centre, sigma, size=size, rng=rng))


def ambient_laplace_coordinates(manifold, centre, sigma, *, size=None, rng=None) -> np.ndarray:
    """The noisy ambient coordinates a + σ R u of ``ambient_laplace``, before ``from_ambient``: shape
    ``(*batch, D)``, the same draws for the same ``rng``."""
    sigma = check_positive("sigma", sigma)
    if sigma > AMBIENT_SCALE_LIMIT:
        raise ValueError(f"sigma must be at most {AMBIENT_SCALE_LIMIT:.4g} (beyond it the squared norms of the "
                         f"releases overflow float64), got {sigma:.4g}; raise epsilon")
    a = check_finite_array("centre", centre)
    if a.ndim < 1 or a.shape[-1] != manifold.ambient_dim:
        raise ValueError(f"centre must have trailing size D = {manifold.ambient_dim} (the ambient coordinates of "
                         f"{manifold.name}), got shape {a.shape}")
    rng = np.random.default_rng(rng)
    out_batch = draw_batch(size, a.shape[:-1], a.shape[-1:])
    g = rng.standard_normal(out_batch + a.shape[-1:])
    radius = rng.gamma(a.shape[-1], 1.0, size=out_batch)
    return a + sigma * radius[..., None] * g / np.linalg.norm(g, axis=-1, keepdims=True)


def rounded_by_from_ambient(manifold, coordinates, points, *, rtol: float = 1e-8) -> np.ndarray:
    """Boolean mask ``(*batch,)``: which ambient ``coordinates`` ``(*batch, D)`` are no point of the space, so
    that ``from_ambient`` rounded them onto it (on Gr(n, p) a noisy projector goes to its top-p eigenvectors,
    the nearest projector), read from ``points = from_ambient(coordinates)``: their own coordinates differ
    from the given ones by more than rtol·(1 + |a|). Always False where ``from_ambient`` only inverts
    ``to_ambient`` (the sphere, SPD, Hᵈ, Kendall: there ``off_manifold`` counts the releases off the space)."""
    a = np.asarray(coordinates, dtype=float)
    with np.errstate(all="ignore"):
        moved = np.linalg.norm(manifold.to_ambient(points) - a, axis=-1)
        return np.isfinite(moved) & (moved > rtol * (1.0 + np.linalg.norm(a, axis=-1)))


def off_manifold(manifold, releases, *, atol: float = 1e-8) -> np.ndarray:
    """Boolean mask ``(*batch,)``: which releases fail ``manifold.belongs(x, atol)`` (non-PD on SPD,
    |x| ≠ 1 on the sphere, not a centred unit pre-shape on Kendall, ...)."""
    return ~np.asarray(manifold.belongs(np.asarray(releases, dtype=float), atol=atol))


def fraction_off_manifold(manifold, releases, *, atol: float = 1e-8) -> float:
    """Share of releases off the manifold (the mean of ``off_manifold``), reported, never hidden."""
    return float(np.mean(off_manifold(manifold, releases, atol=atol)))


def _check_budget(epsilon, sensitivity) -> tuple[float, float]:
    return check_positive("epsilon", epsilon), check_positive("sensitivity", sensitivity)


def _noise_scale(factor: float, sensitivity: float, epsilon: float, *, limit: float = np.inf) -> float:
    """σ = factor·Δ/ε, refusing an ε so small that σ overflows float64 or exceeds ``limit`` (one line
    naming ε, σ and the smallest ε that works)."""
    with np.errstate(over="ignore"):
        sigma = factor * sensitivity / epsilon
    limit = min(limit, float(np.finfo(float).max))
    if not sigma <= limit:
        raise ValueError(
            f"epsilon = {epsilon!r} is too small for sensitivity {sensitivity:g}: sigma = {factor:g}*sensitivity/epsilon "
            f"= {sigma:.4g} is beyond {limit:.4g}, the largest scale float64 can hold for these releases; raise "
            f"epsilon to at least {factor * sensitivity / limit:.4g}"
        )
    return sigma


def require_normalisable(manifold, sigma: float, sensitivity: float, epsilon: float, *, law: str, why: str) -> None:
    """Refuse a scale σ >= ``scale_limit(manifold)`` of an unconditioned law, saying ``why`` it needs
    σ below the limit, the ε that would fix it and the ball-conditioned alternative."""
    limit = scale_limit(manifold)
    if sigma >= limit:
        raise ValueError(
            f"sigma = {sigma:.6g} (sensitivity={sensitivity:g}, epsilon={epsilon:g}) makes the {law} on "
            f"{manifold.name} non-normalisable: {why}, which needs sigma < {limit:.6g}; raise epsilon above "
            f"{sigma * epsilon / limit:.6g} or pass ball_center/ball_radius"
        )


def _theorem1_scale(footpoint_dependent: bool, sensitivity: float, epsilon: float) -> float:
    """σ = Δ/ε where the normalising constant does not depend on the footpoint, else 2Δ/ε (Theorem 1)."""
    return _noise_scale(2.0 if footpoint_dependent else 1.0, sensitivity, epsilon)


def _footpoint_dependent(manifold, conditioned: bool, requested) -> bool:
    """Whether the Laplace law's normalising constant depends on the footpoint: on a space that is not
    homogeneous or a law ``conditioned`` on a ball; ``requested`` (``footpoint_dependent``) may force
    ``True`` and is refused as ``False`` where it is not true."""
    free = is_homogeneous(manifold) and not conditioned
    if requested is False and not free:
        why = "it is conditioned on a ball" if conditioned else f"{manifold.name} is not homogeneous"
        raise ValueError(
            f"footpoint_dependent=False is not valid here: the normalising constant depends on the "
            f"footpoint because {why}"
        )
    return (not free) if requested is None else bool(requested)


class RiemannianLaplace:
    """ε-DP release of a manifold-valued summary with the Riemannian Laplace mechanism.

    Parameters (keyword-only)
    -------------------------
    manifold : Manifold
    epsilon : float > 0
    sensitivity : float > 0
        Public bound Δ on ρ(f(D), f(D')) over neighbouring data sets (e.g. Theorem 2).
    ball_center, ball_radius : optional
        Condition releases on B_r(m0) (Theorem 3); both public.
    footpoint_dependent : bool or None
        Whether the normalising constant depends on the footpoint. ``None`` decides: it does not on
        homogeneous spaces without a ball (σ = Δ/ε), it does otherwise (σ = 2Δ/ε). ``True`` forces
        the conservative 2Δ/ε; ``False`` is refused where it is not true.
    reference : array or None
        Public point fixing the representative of the footpoint and of every release on a quotient
        space (``Manifold.representative``: Kendall pre-shapes rotated onto it, Grassmann bases turned
        onto it); the ball's centre when ``None`` and a ball is given, else ``manifold.origin``.

    Raises
    ------
    ValueError
        Invalid ε or Δ, or a σ at which the unconditioned law is not normalisable.
    """

    def __init__(self, *, manifold, epsilon, sensitivity, ball_center=None, ball_radius=None, footpoint_dependent=None,
                 reference=None):
        self.epsilon, self.sensitivity = _check_budget(epsilon, sensitivity)
        self.manifold = manifold
        self.ball = check_ball(manifold, ball_center, ball_radius)
        self.reference = public_reference(manifold, reference, self.ball)
        self.footpoint_dependent = _footpoint_dependent(manifold, self.ball is not None, footpoint_dependent)
        self.sigma = _theorem1_scale(self.footpoint_dependent, self.sensitivity, self.epsilon)
        if self.ball is None:
            require_normalisable(
                manifold, self.sigma, self.sensitivity, self.epsilon, law="Laplace law",
                why="its density must beat the exponential volume growth (1/(d-1) on H^d, 1/sqrt(k(k^2-1)/12) on "
                    "SPD(k)); the ball-conditioned mechanism (Theorem 3, sigma = 2*sensitivity/epsilon) has no "
                    "such limit")

    @classmethod
    def scale(cls, *, manifold, epsilon, sensitivity, ball_center=None, ball_radius=None,
              footpoint_dependent=None) -> float:
        """σ of the mechanism these arguments build (``_theorem1_scale``: Δ/ε on a homogeneous space without
        ball, else 2Δ/ε), also where the constructor refuses the law as non-normalisable, so a caller can
        say why."""
        epsilon, sensitivity = _check_budget(epsilon, sensitivity)
        ball = check_ball(manifold, ball_center, ball_radius)
        return _theorem1_scale(_footpoint_dependent(manifold, ball is not None, footpoint_dependent), sensitivity,
                               epsilon)

    def release(self, footpoint, *, size=None, rng=None, method="exact", step=None, burn_in=10_000,
                thin=100, progress=None) -> Release:
        """Private release(s) around ``footpoint`` = f(D).

        ``points`` has the shapes of ``riemannian_laplace``; with ``method="mh"`` the release is
        approximate (``exact=False``), ``chain`` holds the ``MHResult`` (acceptance, ESS, step) and
        ``progress`` (optional) receives the fraction of chain steps done.
        """
        center, radius = self.ball if self.ball else (None, None)
        eta = self.manifold.representative(self.manifold.check_points(footpoint, "footpoint"), self.reference)
        if method == "mh":
            chain = laplace_mh(self.manifold, eta, self.sigma, size=size, rng=rng, step=step, burn_in=burn_in,
                               thin=thin, ball_center=center, ball_radius=radius, progress=progress)
            return Release(points=self.manifold.representative(chain.samples, self.reference), sigma=self.sigma,
                           guarantee=self.privacy_guarantee(), exact=False, chain=chain)
        points = riemannian_laplace(self.manifold, eta, self.sigma, size=size, rng=rng, method=method,
                                    ball_center=center, ball_radius=radius)
        return Release(points=self.manifold.representative(points, self.reference), sigma=self.sigma,
                       guarantee=self.privacy_guarantee())

    def privacy_guarantee(self) -> PrivacyGuarantee:
        theorem = "Theorem 1 (Reimherr, Bharath & Soto 2021)"
        ratio = "by the triangle inequality the density ratio is at most exp(Δ/σ)"
        if not self.footpoint_dependent:
            rule = "σ = Δ/ε"
            why = (
                f"{theorem}: isometries of {self.manifold.name} act transitively, so the normalising constant "
                f"does not depend on the footpoint and only the density ratio counts; {ratio}"
            )
        else:
            rule = "σ = 2Δ/ε"
            if self.ball:
                cause = (
                    "the law is conditioned on a ball (Theorem 3), so its normalising constant depends "
                    "on the footpoint"
                )
            elif not is_homogeneous(self.manifold):
                cause = f"{self.manifold.name} is not homogeneous, so the normalising constant depends on the footpoint"
            else:
                cause = (
                    "the conservative rule was requested (the normalising constant treated as "
                    "footpoint-dependent; Δ/ε would suffice)"
                )
            why = f"{theorem}: {cause}; {ratio} and the ratio of normalising constants by the same factor"
        assumptions = [
            f"the sensitivity Δ = {self.sensitivity:g} is a public, data-independent bound on ρ(f(D), f(D′)) for "
            "neighbouring D, D′ (e.g. Theorem 2 for Fréchet means: data in the ball B_r(m₀) with r < r* = "
            "min{inj/2, π/(4√κ)}, and the mean computed exactly)",
            "the footpoint is f(D) itself and only the release is published, both as the representative fixed by "
            "the public reference point (on a quotient space a record's own rotation or basis never shows)",
            "the exact sampler draws the Laplace law exactly; Metropolis–Hastings draws it only approximately, so "
            "the guarantee then holds only up to the unquantified MCMC error",
        ]
        if self.ball:
            assumptions.append(f"the ball (radius {self.ball[1]:g}) and its centre are public and data-independent")
        return PrivacyGuarantee(
            mechanism=f"Riemannian Laplace on {self.manifold.name}",
            epsilon=self.epsilon, delta=0.0, sigma=self.sigma, rule=rule, reason=why, assumptions=tuple(assumptions),
        )


class EuclideanLaplace:
    """ε-DP baseline: ℓ2 Laplace (K-norm) noise in the ambient coordinates, σ = Δ_E/ε.

    Parameters (keyword-only)
    -------------------------
    manifold : Manifold
        Supplies ``to_ambient``/``from_ambient`` (D = ``manifold.ambient_dim``).
    epsilon : float > 0
    sensitivity : float > 0
        Public bound Δ_E on ‖to_ambient(f(D)) − to_ambient(f(D'))‖_2 (e.g. from the ambient radius
        r_E = e^r − 1 on SPD, 2 sin(r/2) on the sphere; ``engine.bounds``).
    """

    def __init__(self, *, manifold, epsilon, sensitivity):
        self.epsilon, self.sensitivity = _check_budget(epsilon, sensitivity)
        self.manifold = manifold
        self.sigma = _noise_scale(1.0, self.sensitivity, self.epsilon, limit=AMBIENT_SCALE_LIMIT)

    def release(self, footpoint, *, size=None, rng=None) -> Release:
        """Releases ``from_ambient(to_ambient(footpoint) + noise)``: points that may lie off the manifold (exact)."""
        points = euclidean_laplace(self.manifold, footpoint, self.sigma, size=size, rng=rng)
        return Release(points=points, sigma=self.sigma, guarantee=self.privacy_guarantee())

    def release_centre(self, centre, *, size=None, rng=None) -> Release:
        """Releases ``from_ambient(centre + noise)`` around ambient coordinates ``centre`` ``(..., D)``: the
        ambient mean itself (``engine.estimators.ambient_centre``), which a point cannot always hold (the
        mean projector of subspaces is no projector). ``diagnostics["rounded_share"]``: the share of noisy
        coordinates that were no point of the space, so that ``from_ambient`` rounded them onto it
        (``rounded_by_from_ambient``: all of them on Gr(n, p), none where it only inverts ``to_ambient``)."""
        noisy = ambient_laplace_coordinates(self.manifold, centre, self.sigma, size=size, rng=rng)
        points = self.manifold.from_ambient(noisy)
        rounded = float(np.mean(rounded_by_from_ambient(self.manifold, noisy, points)))
        return Release(points=points, sigma=self.sigma, guarantee=self.privacy_guarantee(),
                       diagnostics={"rounded_share": rounded})

    def privacy_guarantee(self) -> PrivacyGuarantee:
        return PrivacyGuarantee(
            mechanism=f"Euclidean (ambient ℓ₂) Laplace for {self.manifold.name}",
            epsilon=self.epsilon, delta=0.0, sigma=self.sigma, rule="σ = Δ/ε",
            reason=(
                f"K-norm mechanism with the ℓ₂ norm in R^{self.manifold.ambient_dim} (Hardt & Talwar 2010; "
                "Reimherr et al., supplement §1.4): translation invariance makes the normaliser footpoint-free"
            ),
            assumptions=(
                f"the sensitivity Δ = {self.sensitivity:g} is a public bound on the ambient ℓ₂ distance between the "
                "ambient coordinates of f(D) and f(D′) for neighbouring data sets",
                "releases are reported as they are (possibly off the manifold); any projection is post-processing",
            ),
        )
