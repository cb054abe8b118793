"""The who-wins map on the lines Gr(d, 1) ≅ RP^{d−1}: each member's exact Laplace radius against the
quadrature of its law, the projectors' ambient ball against brute force, and the map's cells against
the playground's own release (d = 3) and a projector baseline written here from scratch (d = 6)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, stats

from engine.estimators import frechet_mean
from engine.manifolds import Grassmann, Sphere
from engine.mechanisms.laplace import ambient_laplace_coordinates, rounded_by_from_ambient
from engine.pipelines import private_mean
from engine.pipelines.release_errors import measure_releases
from engine.pipelines.who_wins_map import FAMILIES, WhoWinsMapConfig, intrinsic_errors, reading, run


def _weight(d: int, sigma: float):
    return lambda rho: np.exp(-rho / sigma) * np.sin(rho) ** (d - 2)


def _laplace_cdf(d: int, sigma: float):
    """CDF of the density ∝ e^{−ρ/σ} sin^{d−2}ρ on [0, π/2] by quadrature."""
    total = integrate.quad(_weight(d, sigma), 0.0, np.pi / 2)[0]
    return np.vectorize(lambda x: integrate.quad(_weight(d, sigma), 0.0, np.clip(x, 0.0, np.pi / 2))[0] / total)


def _mean_radius(d: int, sigma: float) -> float:
    """E ρ under the same density."""
    weight = _weight(d, sigma)
    return integrate.quad(lambda r: r * weight(r), 0, np.pi / 2)[0] / integrate.quad(weight, 0, np.pi / 2)[0]


def _lines_at(rho: np.ndarray, d: int, rng) -> np.ndarray:
    """Unit vectors cos(ρ)e₁ + sin(ρ)u in R^d, u uniform on the unit sphere of e₁⊥: lines at angles ρ
    from m₀ = span(e₁) in uniform directions, lifted to the hemisphere x₁ > 0."""
    u = rng.standard_normal((len(rho), d - 1))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    return np.column_stack([np.cos(rho), np.sin(rho)[:, None] * u])


def _lines_in_ball(d: int, radius: float, n: int, rng) -> np.ndarray:
    """n lines uniform in the tangent ball of radius r around m₀: angles ρ = r V^{1/(d−1)}."""
    return _lines_at(radius * rng.uniform(size=n) ** (1 / (d - 1)), d, rng)


@pytest.fixture(scope="module")
def lines_map():
    return run(WhoWinsMapConfig(space="grassmann", dims=(3, 6), radii=6))


@pytest.mark.parametrize("d", [3, 5, 10])
@pytest.mark.parametrize("sigma", [0.05, 0.5, 4.0])
def test_every_member_draws_its_radius_from_the_exact_law(d, sigma):
    manifold = FAMILIES["grassmann"].make(d)
    assert manifold.dim == d - 1 and manifold.name == f"Grassmann({d}, 1)"
    radii = intrinsic_errors(manifold, sigma, 4000, np.random.default_rng(d))
    assert radii.max() <= np.pi / 2
    assert stats.kstest(radii, _laplace_cdf(d, sigma)).pvalue > 1e-3


@pytest.mark.parametrize("d", [3, 5, 10])
def test_the_projectors_lie_in_the_stated_ambient_ball(d):
    """Symmetric-matrix coordinates of dimension d(d + 1)/2; brute force over lines on the boundary of
    B_r(m₀) and inside it: ‖P − P₀‖_F = √2 sin r on the boundary, below inside, and any two records
    within 2r_E, the diameter Δ_E = 2r_E/n rests on."""
    m = FAMILIES["grassmann"].make(d)
    assert m.ambient_dim == d * (d + 1) // 2
    rng = np.random.default_rng(d)
    centre = m.to_ambient(m.origin)
    for r in (0.2, 0.5, 0.75):
        bound = float(m.ambient_ball_radius(r))
        assert bound == pytest.approx(np.sqrt(2) * np.sin(r), rel=1e-15)
        boundary = m.to_ambient(_lines_at(np.full(2000, r), d, rng)[:, :, None])
        np.testing.assert_allclose(np.linalg.norm(boundary - centre, axis=1), bound, rtol=1e-12)
        inside = m.to_ambient(_lines_in_ball(d, r, 2000, rng)[:, :, None])
        assert np.linalg.norm(inside - centre, axis=1).max() < bound
        pairs = np.linalg.norm(boundary[:1000] - boundary[1000:], axis=1)
        assert pairs.max() <= 2 * bound


def test_intrinsic_errors_match_the_quadrature_of_the_radial_law(lines_map):
    cells = lines_map.cells
    for row in cells.iloc[[0, 4, 7, -1]].itertuples():
        exact = _mean_radius(row.parameter, row.sigma)
        assert abs(row.intrinsic - exact) <= 3 * row.intrinsic_se, (row.parameter, row.radius, row.intrinsic, exact)


def test_euclidean_errors_on_lines_in_r3_match_the_playgrounds_own_release(lines_map):
    """d = 3: 40 data sets drawn here, each released 100 times by the playground's calibration and
    release (``private_mean.release_on``, the space's own Gr(3, 1))."""
    row = lines_map.cells[lines_map.cells["parameter"] == 3].iloc[-2]
    gr = Grassmann(3, 1)
    config = private_mean.PrivateMeanConfig(space="grassmann", source="ball", radius=row.radius, epsilon=1.0,
                                            releases=100)
    rng = np.random.default_rng(7)
    means, releases = [], []
    for _ in range(40):
        data = _lines_in_ball(3, row.radius, 50, rng)[:, :, None]
        _, release = private_mean.release_on("euclid", config, data, gr.origin, rng=rng)
        means.append(np.broadcast_to(private_mean.frechet_mean(gr, data).mean, release.points.shape))
        releases.append(release.points)
    direct = measure_releases(gr, np.concatenate(means), np.concatenate(releases))
    assert abs(row.euclidean - direct.geodesic) <= 3 * np.hypot(row.euclidean_se, direct.geodesic_se), (
        row.euclidean, direct.geodesic)


def test_euclidean_errors_in_r6_match_a_projector_baseline_written_here(lines_map):
    """d = 6: the ℓ2 Laplace on symmetric 6×6 matrices (Frobenius norm, D = 21, Δ_E = 2√2 sin r/n) around
    the mean projector, rounded to its top eigenvector, against the Fréchet mean (the sphere's mean of the
    lifted records, all in one hemisphere); nothing of the engine's Grassmann code is used."""
    row = lines_map.cells[lines_map.cells["parameter"] == 6].iloc[-2]
    d, n, big_d = 6, 50, 21
    sigma = 2 * np.sqrt(2) * np.sin(row.radius) / n
    assert row.sigma_euclidean == pytest.approx(sigma, rel=1e-12)
    rng = np.random.default_rng(8)
    errors = []
    for _ in range(40):
        lifted = _lines_in_ball(d, row.radius, n, rng)
        frechet = frechet_mean(Sphere(d - 1), lifted, tol=1e-12).mean
        g = rng.standard_normal((100, d, d))
        noise = (g + np.swapaxes(g, 1, 2)) / 2
        noise *= (rng.gamma(big_d, 1.0, 100) / np.linalg.norm(noise, axis=(1, 2)))[:, None, None]
        top = np.linalg.eigh(lifted.T @ lifted / n + sigma * noise)[1][:, :, -1]
        errors.append(np.arccos(np.minimum(1.0, np.abs(top @ frechet))))
    errors = np.concatenate(errors)
    se = errors.std(ddof=1) / np.sqrt(errors.size)
    assert abs(row.euclidean - errors.mean()) <= 3 * np.hypot(row.euclidean_se, se), (row.euclidean, errors.mean())


def test_the_lines_map_reads_as_the_theory_says(lines_map):
    """At small r the intrinsic mechanism wins, by more in R⁶ (5 dimensions against 21) than in R³ (2
    against 6); near Theorem 2's limit π/4 its curvature factor makes it lose; every d has a tie."""
    cells = lines_map.cells
    first = cells[cells["radius"] == cells["radius"].min()].set_index("parameter")["ratio"]
    assert first[6] < first[3] < 0.8
    assert (cells[cells["radius"] == cells["radius"].max()]["ratio"] > 1.5).all()
    assert sorted(lines_map.ties["parameter"]) == [3, 6] and set(lines_map.ties["below"]) == {"intrinsic"}
    assert (cells["off_share"] == 0).all()
    assert (cells["ambient_dim"] == cells["parameter"] * (cells["parameter"] + 1) // 2).all()
    assert reading(lines_map).startswith(
        "On Gr(d, 1) (d = 3–6, r up to 0.75), the Riemannian Laplace wins below r ≈ ")


def test_the_reading_says_every_noisy_projector_was_rounded_onto_a_line(lines_map):
    """No rounded release is off Gr(d, 1) (``off_share`` 0), but the noise around the mean
    projector leaves the projectors: each noisy symmetric matrix of the map's own draws, checked here by
    P² ≠ P or trace P ≠ 1, is no projector; the map's ``rounded_share`` counts them and the reading says
    so instead of "no Euclidean release leaves the space"."""
    cells = lines_map.cells
    d, n = 3, 50
    radius = float(cells["radius"].iloc[0])
    gr = Grassmann(d, 1)
    centre = gr.to_ambient(_lines_in_ball(d, radius, n, np.random.default_rng(9))[:, :, None]).mean(axis=0)
    noisy = ambient_laplace_coordinates(gr, centre, 2 * np.sqrt(2) * np.sin(radius) / n, size=2000,
                                        rng=np.random.default_rng(10))
    upper = np.zeros((len(noisy), d, d))
    upper[:, *np.triu_indices(d)] = noisy / np.where(np.eye(d, dtype=bool)[np.triu_indices(d)], 1.0, np.sqrt(2))
    matrices = upper + np.triu(upper, 1).swapaxes(1, 2)
    no_projector = (np.abs(matrices @ matrices - matrices).max(axis=(1, 2)) > 1e-8) | (
        np.abs(np.trace(matrices, axis1=1, axis2=2) - 1) > 1e-8)
    assert no_projector.all()
    assert rounded_by_from_ambient(gr, noisy, gr.from_ambient(noisy)).all()
    assert not rounded_by_from_ambient(gr, gr.to_ambient(gr.from_ambient(noisy)), gr.from_ambient(noisy)).any()
    assert (cells["off_share"] == 0).all() and (cells["rounded_share"] == 1).all()
    text = reading(lines_map)
    assert "no Euclidean release leaves the space" not in text
    assert ("no Euclidean release is left off Gr(d, 1), but only because every Euclidean release was off it "
            "before rounding: a noisy projector is no projector, and it was rounded onto the nearest line") in text
