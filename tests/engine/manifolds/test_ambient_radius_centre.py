"""The ambient radius r_E around a public centre other than the origin (SPD's I, H^d's origin): brute force
over the boundary of B_r(m0), and the private mean's Euclidean baseline calibrated with it."""

import numpy as np
import pytest

from engine.bounds import ambient_radius
from engine.manifolds import SPD, Grassmann, Hyperbolic, Kendall, Sphere
from engine.pipelines import PrivateMeanConfig
from engine.pipelines.private_mean import release_on

SPACES = [SPD(2), SPD(3), SPD(2, "log-euclidean"), SPD(3, "log-euclidean"), Hyperbolic(2), Hyperbolic(3),
          Sphere(2), Kendall(5), Grassmann(4, 1)]


def _off_origin_centre(manifold, rng):
    """A centre well away from the origin: λ_max about 2.7–4 on SPD, distance 1.5 from the origin on H^d."""
    if isinstance(manifold, SPD):
        return np.diag(np.exp(np.linspace(1.0, -0.5, manifold.k) + rng.uniform(0, 0.3)))
    direction = manifold.random_unit_tangent(manifold.origin[None], rng)[0]
    return manifold.exp(manifold.origin, 1.5 * direction)


def _boundary(manifold, centre, radius, size, rng):
    directions = manifold.random_unit_tangent(np.broadcast_to(centre, (size,) + manifold.point_shape), rng)
    return manifold.exp(np.broadcast_to(centre, directions.shape), manifold.per_point(radius) * directions)


def _top_direction(manifold, centre, radius):
    """The boundary point the SPD radius is attained at: M^{1/2} exp(r vvᵀ) M^{1/2} (affine) or
    exp(log M + r vvᵀ) (log-Euclidean), v M's top eigenvector, as the tangent vector at M pointing there."""
    w, q = np.linalg.eigh(centre)
    v = q[:, -1]
    if manifold.metric == "affine":
        root = q @ np.diag(np.sqrt(w)) @ q.T
        return root @ np.outer(v, v) @ root
    return manifold.log(centre, (q * np.exp(np.log(w) + radius * (np.arange(len(w)) == len(w) - 1))) @ q.T) / radius


@pytest.mark.parametrize("manifold", SPACES, ids=lambda m: m.name)
@pytest.mark.parametrize("radius", [0.2, 0.9])
def test_every_record_of_the_ball_lies_within_r_e_of_one_ambient_point(manifold, radius):
    """Two records of B_r(m0) differ by at most 2 r_E in ambient coordinates; on H^d the bound is the ball's
    exact Euclidean diameter in the Poincaré model, on SPD r_E is attained at the top eigen-direction."""
    rng = np.random.default_rng(11)
    centre = _off_origin_centre(manifold, rng)
    r_e = float(ambient_radius(manifold, radius, centre))
    points = _boundary(manifold, centre, radius, 1_500, rng)
    a = manifold.to_ambient(manifold.representative(points, centre))
    a_centre = manifold.to_ambient(manifold.representative(centre[None], centre))[0]
    gaps = np.linalg.norm(a[:, None] - a[None], axis=-1)
    assert gaps.max() <= 2 * r_e * (1 + 1e-9)
    if isinstance(manifold, Hyperbolic):
        assert gaps.max() >= 2 * r_e * (1 - 2e-3)
        assert r_e < float(ambient_radius(manifold, radius))  # far from the origin the disk compresses the ball
    elif isinstance(manifold, SPD):
        assert np.linalg.norm(a - a_centre, axis=-1).max() <= r_e * (1 + 1e-9)
        top = manifold.exp(centre, radius * _top_direction(manifold, centre, radius) /
                           manifold.norm(centre, _top_direction(manifold, centre, radius)))
        assert np.linalg.norm(manifold.to_ambient(top) - a_centre) == pytest.approx(r_e, rel=1e-9)
        assert r_e > float(ambient_radius(manifold, radius))  # λ_max(m0) > 1: the origin's radius is too small
    else:
        assert r_e == pytest.approx(float(ambient_radius(manifold, radius)))  # the same around every centre


@pytest.mark.parametrize("space, source, manifold", [("spd", "wishart", SPD(2)), ("hyperbolic", "ball", Hyperbolic(2))])
def test_the_euclidean_baseline_reads_the_radius_around_its_public_centre(space, source, manifold):
    """σ = 2 r_E(m0)/(n ε) for records in B_r(m0) with m0 off the origin, by the code the playground runs."""
    rng = np.random.default_rng(4)
    centre = _off_origin_centre(manifold, rng)
    data = _boundary(manifold, centre, rng.uniform(0, 0.5, 12), 12, rng)
    config = PrivateMeanConfig(space=space, source=source, radius=0.5, epsilon=0.8, mechanisms=("euclid",), releases=10)
    mechanism, _ = release_on("euclid", config, data, centre, rng=1)
    expected = 2 * float(ambient_radius(manifold, 0.5, centre)) / 12
    assert mechanism.sensitivity == pytest.approx(expected, rel=1e-12)
    assert expected != pytest.approx(2 * float(ambient_radius(manifold, 0.5)) / 12, rel=1e-3)
