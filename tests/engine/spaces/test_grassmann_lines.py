"""The Grassmannian of lines Gr(d, 1) ≅ RP^{d−1} as a space of the tool: its exact Laplace sampler,
its Fréchet mean against closed forms, its data sources and the private mean pipeline on it."""

import numpy as np
import pytest
from scipy import integrate, stats

from engine import pipelines, spaces
from engine.bounds import frechet_mean_sensitivity
from engine.data import line_acg, line_ball
from engine.estimators import frechet_mean
from engine.manifolds import Grassmann, Sphere
from engine.mechanisms import radial_law, riemannian_laplace, sample_radius
from engine.mechanisms.radial import real_projective_law
from engine.pipelines import private_mean, sampler_comparison


def laplace_cdf(sigma: float, d: int):
    """CDF of the density ∝ e^{−ρ/σ} sin^{d−2}ρ on [0, π/2], by quadrature (independent of the engine)."""
    total = integrate.quad(lambda r: np.exp(-r / sigma) * np.sin(r) ** (d - 2), 0.0, np.pi / 2)[0]
    return np.vectorize(lambda x: integrate.quad(lambda r: np.exp(-r / sigma) * np.sin(r) ** (d - 2), 0.0,
                                                 np.clip(x, 0.0, np.pi / 2))[0] / total)


@pytest.mark.parametrize("d", [3, 4, 6])
@pytest.mark.parametrize("sigma", [0.05, 0.4, 5.0])
def test_the_exact_radius_follows_the_real_projective_law(d, sigma):
    law = radial_law(Grassmann(d, 1))
    assert law.name == real_projective_law(d - 1).name == f"RealProjective({d - 1})" and law.support == np.pi / 2
    rho = sample_radius(law, sigma, 4000, np.random.default_rng(d))
    assert rho.max() <= np.pi / 2
    cdf = laplace_cdf(sigma, d)
    assert stats.kstest(rho, cdf).pvalue > 1e-3
    # The sphere's law (support π) is not it: at large σ it puts mass beyond π/2.
    if sigma == 5.0:
        assert stats.kstest(sample_radius(radial_law(Sphere(d - 1)), sigma, 4000, np.random.default_rng(0)),
                            cdf).pvalue < 1e-6


def test_the_mechanism_draws_lines_at_the_law_s_distances_in_uniform_directions():
    gr = Grassmann(3, 1)
    eta = gr.canonical(np.array([[1.0], [2.0], [2.0]]) / 3.0)
    x = riemannian_laplace(gr, eta, 0.3, size=4000, rng=np.random.default_rng(1))
    assert np.all(gr.belongs(x))
    assert stats.kstest(gr.dist(eta, x), laplace_cdf(0.3, 3)).pvalue > 1e-3
    # Uniform direction: the angle of Log_η(x) in an orthonormal basis of the tangent plane is uniform.
    basis = gr.tangent_basis(eta)
    logs = gr.log(eta, x)
    angle = np.arctan2(gr.inner(eta, logs, basis[1]), gr.inner(eta, logs, basis[0]))
    assert stats.kstest(angle, stats.uniform(-np.pi, 2 * np.pi).cdf).pvalue > 1e-3


@pytest.mark.parametrize("d", [3, 5])
def test_the_volume_law_is_the_distance_of_a_uniform_line(d):
    gr = Grassmann(d, 1)
    haar = gr.dist(gr.origin, gr.random_point(4000, np.random.default_rng(2)))
    volume = real_projective_law(d - 1).sample_volume((4000,), np.random.default_rng(3))
    cdf = laplace_cdf(1e9, d)
    assert stats.kstest(haar, cdf).pvalue > 1e-3 and stats.kstest(volume, cdf).pvalue > 1e-3
    assert np.exp(real_projective_law(d - 1).log_volume) == pytest.approx(
        integrate.quad(lambda r: np.sin(r) ** (d - 2), 0, np.pi / 2)[0])


def _planar(angles: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(angles), np.sin(angles), np.zeros_like(angles)], axis=-1)[..., None]


def _top_eigenvector(lines: np.ndarray) -> np.ndarray:
    """The extrinsic mean: the line of the top eigenvector of the mean projector (1/n) Σ x xᵀ."""
    return np.linalg.eigh(np.mean(lines @ np.swapaxes(lines, -1, -2), axis=0))[1][:, -1:]


def test_the_frechet_mean_of_coplanar_lines_is_their_mean_angle():
    gr = Grassmann(3, 1)
    angles = 0.3 + np.random.default_rng(4).uniform(-0.5, 0.5, 25) ** 3 * 4  # skewed, within ±0.5 of 0.3
    mean = frechet_mean(gr, _planar(angles), tol=1e-12).mean
    assert gr.dist(mean, _planar(np.mean(angles))) < 1e-8
    # The top eigenvector of the mean projector minimises Σ sin²θ, not Σ θ²: near, but not the Fréchet mean.
    extrinsic = _top_eigenvector(_planar(angles))
    gap = float(gr.dist(mean, extrinsic))
    assert 1e-4 < gap < 0.02
    extrinsic_angle = 0.5 * np.arctan2(np.mean(np.sin(2 * angles)), np.mean(np.cos(2 * angles)))
    assert gr.dist(extrinsic, _planar(np.array(extrinsic_angle))) < 1e-12


def test_symmetric_lines_have_both_means_at_their_centre():
    gr = Grassmann(3, 1)
    u = np.random.default_rng(5).standard_normal((20, 2))
    u *= 0.35 / np.linalg.norm(u, axis=1, keepdims=True)
    logs = np.concatenate([u, -u])  # symmetric about the centre in its tangent plane
    centre = gr.canonical(np.array([[2.0], [1.0], [-2.0]]) / 3.0)
    basis = gr.tangent_basis(centre)
    lines = gr.exp(centre, np.einsum("ik,kab->iab", logs, basis))
    assert gr.dist(frechet_mean(gr, lines, tol=1e-12).mean, centre) < 1e-8
    assert gr.dist(_top_eigenvector(lines), centre) < 1e-8


def test_the_frechet_mean_of_lines_in_a_ball_is_the_sphere_s_mean_of_their_lift():
    gr = Grassmann(3, 1)
    lines = line_ball(40, 0.7, rng=6)
    mean = frechet_mean(gr, lines, tol=1e-12).mean
    assert np.linalg.norm(gr.log(mean, lines).mean(axis=0)) < 1e-9  # first-order condition
    lifted = frechet_mean(Sphere(2), lines[..., 0], tol=1e-12).mean  # all in the hemisphere x₁ > 0
    assert gr.dist(mean, lifted[:, None]) < 1e-8


def test_the_sources_draw_lines_where_they_say():
    gr = Grassmann(3, 1)
    r = np.pi / 8
    ball = line_ball(4000, r, rng=7)
    assert ball.shape == (4000, 3, 1) and np.all(gr.belongs(ball))
    # Uniform in B_r(m0) of RP²: the distance has CDF (1 − cos ρ)/(1 − cos r).
    assert stats.kstest(gr.dist(gr.origin, ball), lambda t: (1 - np.cos(t)) / (1 - np.cos(r))).pvalue > 1e-3
    acg = line_acg(4000, 0.1, rng=8)
    # tan θ = s·|z_⊥|/|z₁|, so tan²θ / (2 s²) ~ F(2, 1).
    assert stats.kstest(np.tan(gr.dist(gr.origin, acg)) ** 2 / (2 * 0.01), stats.f(2, 1).cdf).pvalue > 1e-3
    with pytest.raises(ValueError, match="radius"):
        line_ball(5, 0.8)


def test_lines_have_the_ambient_ball_of_their_projectors():
    gr = Grassmann(4, 1)
    x, y = gr.random_point(2, np.random.default_rng(9))
    assert np.linalg.norm(gr.to_ambient(x) - gr.to_ambient(y)) == pytest.approx(np.sqrt(2) * np.sin(gr.dist(x, y)))
    assert gr.ambient_ball_radius(0.3) == pytest.approx(np.sqrt(2) * np.sin(0.3))
    assert Grassmann(5, 2).ambient_ball_radius(0.3) is None and Grassmann(5, 2).polar_volume is None


@pytest.mark.parametrize("source", list(spaces.space("grassmann").sources))
def test_the_private_mean_pipeline_runs_on_lines(source):
    config = pipelines.PrivateMeanConfig(space="grassmann", source=source, n=40, outside="clip", releases=100,
                                         mechanisms=("exact", "mh", "euclid", "gauss"), burn_in=200, thin=5)
    result = private_mean.run(config)
    gr = Grassmann(3, 1)
    delta = float(frechet_mean_sensitivity(40, config.radius, 1.0))
    for run in result.runs:
        assert run.skipped is None and np.all(gr.belongs(run.releases)), run.key
        assert np.isfinite(run.errors.geodesic) and run.errors.off_share == 0.0
    by_key = {run.key: run for run in result.runs}
    assert by_key["exact"].sigma == pytest.approx(delta / config.epsilon)
    assert by_key["euclid"].sensitivity == pytest.approx(2 * np.sqrt(2) * np.sin(config.radius) / 40)


def test_the_sampler_comparison_runs_on_lines():
    result = sampler_comparison.run(sampler_comparison.SamplerComparisonConfig(
        space="grassmann", sigma=0.5, burn_in=200, draws=100, chains=10, seed=1))
    assert result.grid[-1] == pytest.approx(np.pi / 2)
    assert result.ks_exact == pytest.approx(stats.kstest(result.exact_radii, laplace_cdf(0.5, 3)).statistic,
                                            abs=1e-4)
    assert stats.kstest(result.exact_radii, laplace_cdf(0.5, 3)).pvalue > 1e-3 and result.ks_mh < 0.1
