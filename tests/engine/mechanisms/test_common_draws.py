"""Laplace releases over a grid of scales from common random numbers (engine.mechanisms.common_draws):
quantiles against closed-form CDFs, exact law per frame (KS), shared directions, monotone radii."""

import numpy as np
import pytest
from scipy import stats
from scipy.special import gammainc

from engine.manifolds import SPD, Euclidean, Hyperbolic, Sphere
from engine.mechanisms import radial_law
from engine.mechanisms.common_draws import laplace_common_draws, radial_quantile

U = np.array([1e-9, 1e-4, 0.1, 0.5, 0.9, 0.999999, 1 - 1e-12])


def _sphere_cdf(rho, sigma):
    """CDF of f ∝ e^{−ρ/σ} sin ρ on [0, π] in closed form."""
    a = 1.0 / sigma
    g = lambda r: -np.exp(-a * r) * (a * np.sin(r) + np.cos(r)) / (1 + a * a)  # noqa: E731
    return (g(rho) - g(0.0)) / (g(np.pi) - g(0.0))


def _hyperbolic_cdf(rho, sigma):
    """CDF of f ∝ e^{−ρ/σ} sinh ρ on [0, ∞) (σ < 1) in closed form."""
    a = 1.0 / sigma
    g = lambda r: 0.5 * (np.exp((1 - a) * r) / (1 - a) + np.exp(-(1 + a) * r) / (1 + a))  # noqa: E731
    return (g(rho) - g(0.0)) / (0.0 - g(0.0))


@pytest.mark.parametrize("manifold, sigma, cdf", [
    (Euclidean(3), 0.7, lambda r, s: gammainc(3, r / s)),
    (Euclidean(3), 0.01, lambda r, s: gammainc(3, r / s)),
    (Sphere(2), 0.02, _sphere_cdf),
    (Sphere(2), 0.3, _sphere_cdf),
    (Sphere(2), 3.0, _sphere_cdf),
    (Hyperbolic(2), 0.05, _hyperbolic_cdf),
    (Hyperbolic(2), 0.95, _hyperbolic_cdf),
])
def test_radial_quantile_inverts_the_exact_cdf(manifold, sigma, cdf):
    rho = radial_quantile(radial_law(manifold), sigma, U)
    np.testing.assert_allclose(cdf(rho, sigma), U, rtol=0, atol=1e-12)


def test_frames_share_directions_and_move_towards_the_mean():
    sphere = Sphere(2)
    mean = np.array([0.0, 0.6, 0.8])
    sigmas = np.array([2.0, 0.8, 0.3, 0.05])
    frames = laplace_common_draws(sphere, mean, sigmas, size=400, rng=3)
    assert frames.shape == (4, 400, 3)
    np.testing.assert_allclose(np.linalg.norm(frames, axis=-1), 1.0, atol=1e-12)
    radii = sphere.dist(mean, frames)
    assert np.all(np.diff(radii, axis=0) <= 1e-12)               # σ shrinks: every release moves inwards
    logs = sphere.log(mean, frames)
    directions = logs / np.linalg.norm(logs, axis=-1, keepdims=True)
    np.testing.assert_allclose(directions, np.broadcast_to(directions[0], directions.shape), atol=1e-8)
    # Same seed, same frames (common random numbers are reproducible).
    np.testing.assert_array_equal(laplace_common_draws(sphere, mean, sigmas, size=400, rng=3), frames)


@pytest.mark.parametrize("sigma", [0.1, 0.6])
def test_each_frame_has_the_exact_laplace_law(sigma):
    sphere = Sphere(2)
    mean = np.array([1.0, 0.0, 0.0])
    frames = laplace_common_draws(sphere, mean, [1.5, sigma], size=4000, rng=11)
    radii = sphere.dist(mean, frames[1])
    assert stats.kstest(radii, lambda r: _sphere_cdf(r, sigma)).pvalue > 1e-3
    # Directions uniform in the tangent plane: the angle in the basis at the mean is uniform on (−π, π].
    basis = sphere.tangent_basis(mean)
    logs = sphere.log(mean, frames[1])
    angle = np.arctan2(logs @ basis[1], logs @ basis[0])
    assert stats.kstest(angle, stats.uniform(-np.pi, 2 * np.pi).cdf).pvalue > 1e-3


def test_moving_footpoints_keep_the_exact_law_and_the_transported_directions():
    sphere = Sphere(2)
    footpoints = sphere.exp(np.array([0.0, 0.0, 1.0]), np.array([[0.3, 0.0, 0.0], [0.0, -0.2, 0.0], [0.0, 0.0, 0.0]]))
    sigmas = np.array([0.4, 0.2, 0.1])
    frames = laplace_common_draws(sphere, footpoints, sigmas, size=3000, rng=5)
    assert frames.shape == (3, 3000, 3)
    logs = sphere.log(footpoints[:, None], frames)
    radii = np.linalg.norm(logs, axis=-1)
    for s, sigma in enumerate(sigmas):
        assert stats.kstest(radii[s], lambda r: _sphere_cdf(r, sigma)).pvalue > 1e-3
    # The last footpoint is the reference: its directions, carried back from every frame, are the same.
    directions = logs / radii[..., None]
    back = sphere.parallel_transport(np.broadcast_to(footpoints[:, None], frames.shape), footpoints[-1], directions)
    np.testing.assert_allclose(back, np.broadcast_to(back[-1], back.shape), atol=1e-10)
    # Uniform directions at every footpoint: the transported basis angle is uniform on (−π, π].
    basis = sphere.parallel_transport(footpoints[-1], footpoints[0], sphere.tangent_basis(footpoints[-1]))
    angle = np.arctan2(directions[0] @ basis[1], directions[0] @ basis[0])
    assert stats.kstest(angle, stats.uniform(-np.pi, 2 * np.pi).cdf).pvalue > 1e-3
    # One footpoint repeated per scale gives the frames of the single footpoint (same draws).
    np.testing.assert_allclose(laplace_common_draws(sphere, np.stack([footpoints[-1]] * 3), sigmas, size=50, rng=7),
                               laplace_common_draws(sphere, footpoints[-1], sigmas, size=50, rng=7), atol=1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: laplace_common_draws(SPD(2), np.eye(2), [0.5], size=3), "no exact sampler"),
    (lambda: laplace_common_draws(Hyperbolic(2), np.array([1.0, 0.0, 0.0]), [0.5, 1.5], size=3), "1.5"),
    (lambda: laplace_common_draws(Sphere(2), np.array([0.0, 0.0, 1.0]), [], size=3), "non-empty"),
    (lambda: laplace_common_draws(Sphere(2), np.array([0.0, 0.0, 1.0]), [-1.0], size=3), "-1"),
    (lambda: laplace_common_draws(Sphere(2), np.zeros((2, 3)) + [0, 0, 1.0], [0.5], size=3), r"\(2, 3\)"),
    (lambda: radial_quantile(radial_law(Sphere(2)), 0.5, [0.0]), "u must lie"),
    (lambda: laplace_common_draws(Sphere(2), np.array([[0.0, 0.0, 1.0]] * 3), [0.5, 0.2], size=3), r"\(2, 3\)"),
    (lambda: laplace_common_draws(Sphere(2), np.array([0.0, 0.0, 1.0]), [0.5], size=3,
                                  reference=np.array([0.0, 0.0, 1.0])), "reference applies"),
    (lambda: laplace_common_draws(Sphere(2), np.array([[0.0, 0.0, 1.0]] * 2), [0.5, 0.2], size=3,
                                  reference=np.zeros((2, 3)) + [0, 0, 1.0]), "reference must be one point"),
])
def test_bad_arguments_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()
