"""Sphere numerics near the antipode against a 40-digit reference."""

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.manifolds import Sphere
from engine.manifolds.sphere import _angle

S2 = Sphere(2)


def _transport_reference(x, y, v, digits=40):
    """Rotation by the angle θ = ρ(x, y) in the plane (x, e) at ``digits`` decimal digits (mpmath), y
    normalised in that precision: an independent computation of the exact transport of the float inputs."""
    mp.mp.dps = digits
    x, y, v = (mp.matrix([mp.mpf(float(t)) for t in a]) for a in (x, y, v))
    y = y / mp.norm(y)
    c = sum(x[i] * y[i] for i in range(len(x)))
    u = y - c * x
    e = u / mp.norm(u)
    theta = mp.atan2(mp.norm(u), c)
    ev = sum(e[i] * v[i] for i in range(len(x)))
    out = v - ev * ((1 - mp.cos(theta)) * e + mp.sin(theta) * x)
    return np.array([float(t) for t in out])


@pytest.mark.parametrize("delta", [1e-2, 1e-4, 1e-6, 1e-8, 1e-10])
def test_parallel_transport_near_the_antipode_matches_a_40_digit_reference(delta):
    """y = (−1, δ, 0)/|·| is δ from the antipode of x = e0; e1 must arrive as ≈ (−δ, −1, 0) with every
    component to 12 significant digits (the old form returned [nan, −inf, nan] at δ = 1e−8)."""
    x = np.array([1.0, 0.0, 0.0])
    y = np.array([-1.0, delta, 0.0]) / np.hypot(1.0, delta)
    for v in ([0.0, 1.0, 0.0], [0.0, 0.3, 2.5]):
        moved = S2.parallel_transport(x, y, np.array(v))
        np.testing.assert_allclose(moved, _transport_reference(x, y, v), rtol=1e-12, atol=1e-300)


def test_parallel_transport_is_an_isometry_into_the_target_tangent_space_near_the_antipode():
    """General positions δ = 1e−2 … 1e−10 from the antipode: tangent to y and isometric to 1e−12."""
    rng = np.random.default_rng(0)
    x = S2.projection(rng.standard_normal((200, 3)))
    offsets = S2.to_tangent(-x, rng.standard_normal((200, 3))) * np.geomspace(1e-2, 1e-10, 200)[:, None]
    y = S2.projection(-x + offsets)
    v = S2.to_tangent(x, rng.standard_normal((200, 3)))
    w = S2.to_tangent(x, rng.standard_normal((200, 3)))
    pv, pw = S2.parallel_transport(x, y, v), S2.parallel_transport(x, y, w)
    np.testing.assert_allclose(np.sum(pv * y, axis=-1), 0.0, atol=1e-12)
    np.testing.assert_allclose(np.sum(pv * pw, axis=-1), np.sum(v * w, axis=-1), atol=1e-12)
    # The way back is only as well conditioned as the geodesic's direction: ~eps/δ at distance δ from −x.
    back_error = np.linalg.norm(S2.parallel_transport(y, x, pv) - v, axis=-1)
    assert np.all(back_error <= 1e-12 + 1e-14 / np.geomspace(1e-2, 1e-10, 200) * np.linalg.norm(v, axis=-1))


def test_parallel_transport_refuses_exact_antipodes():
    with pytest.raises(ValueError, match="antipodal"):
        S2.parallel_transport([1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0])


@pytest.mark.parametrize("d", [2, 5])
def test_random_step_is_exp_of_the_random_direction(d):
    """The closed form cos t·x + sin t·u equals Exp_x(t u) for the direction ``random_unit_tangent`` draws
    from the same random numbers, lands at distance t (t ≤ π) and stays on the sphere."""
    space = Sphere(d)
    x = space.random_point(6, 1)
    t = np.array([0.0, 1e-9, 0.3, 1.5, 3.0, np.pi])
    step = space.random_step(x, t, np.random.default_rng(8))
    generic = space.exp(x, t[:, None] * space.random_unit_tangent(x, np.random.default_rng(8)))
    np.testing.assert_allclose(step, generic, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(step, axis=-1), 1.0, atol=1e-15)
    np.testing.assert_allclose(space.dist(x, step), t, atol=2e-8)


@pytest.mark.parametrize("d", [1, 2, 5])
def test_farthest_distance_is_the_largest_distance_over_the_records_of_nonzero_weight(d):
    manifold = Sphere(d)
    rng = np.random.default_rng(d)
    x, points = manifold.random_point(6, rng), manifold.random_point(6 * 40, rng).reshape(6, 40, d + 1)
    weights = rng.uniform(size=(6, 40)) * (rng.uniform(size=(6, 40)) < 0.7)
    brute = np.array([max(manifold.dist(x[b], points[b, i]) for i in range(40) if weights[b, i] != 0)
                      for b in range(6)])
    np.testing.assert_allclose(manifold.farthest_distance(x, points, weights), brute, rtol=0, atol=1e-15)


@settings(max_examples=300, deadline=None)
@given(st.floats(0.0, np.pi))
def test_angle_from_sine_and_cosine_is_the_40_digit_angle(theta):
    """θ from (sin θ, cos θ) as the Fréchet mean's pass computes it (arctan(s/c), shifted by π past π/2) is within
    3e-16 relative of the 40-digit angle of the same float pair, as close as arctan2 gets."""
    c = np.cos(theta)
    s = np.sqrt((1.0 - c) * (1.0 + c))
    mp.mp.dps = 40
    exact = mp.atan2(mp.mpf(float(s)), mp.mpf(float(c)))
    for got in (_angle(np.array([s]), np.array([c]))[0], np.arctan2(s, c)):
        assert abs(mp.mpf(float(got)) - exact) <= 3e-16 * max(exact, mp.mpf("1e-300"))


def test_angle_at_the_quarter_turn_and_the_poles():
    """c = ±0 gives π/2 (the sign bit decides, not c < 0), c = 1 gives 0 and c = −1 gives π."""
    s = np.array([1.0, 1.0, 0.0, 0.0])
    c = np.array([0.0, -0.0, 1.0, -1.0])
    np.testing.assert_array_equal(_angle(s, c), [np.pi / 2, np.pi / 2, 0.0, np.pi])
