"""Who wins, and why (``engine.pipelines.who_wins``) against errors computed here directly from the
playground's releases: on S² the geodesic distance is arccos of the dot product after normalising, on
SPD(2) the affine-invariant distance comes from the generalised eigenvalues of the pair; the factors
against Theorem 2's h written out by hand."""

import numpy as np
import pytest
from scipy.linalg import eigh

from engine.manifolds import SPD, Sphere
from engine.pipelines import private_mean, utility, who_wins
from engine.pipelines.release_errors import ReleaseErrors, measure_releases


def _sphere_geodesic(mean, points):
    """Per point: arccos⟨x̄, x/‖x‖⟩ (a release off the sphere projected back first)."""
    unit = points / np.linalg.norm(points, axis=-1, keepdims=True)
    return np.arccos(np.clip(unit @ mean, -1.0, 1.0))


def _spd_geodesic(mean, points):
    """Per PD point: √Σ log² λ_i with λ the eigenvalues of mean⁻¹·x; non-PD points are dropped."""
    pd_points = [x for x in points if np.linalg.eigvalsh(x).min() > 0]
    return np.array([np.sqrt(np.sum(np.log(eigh(x, mean, eigvals_only=True)) ** 2)) for x in pd_points])


def _run(space, source):
    """The playground's defaults on ``space`` (n = 50, ε = 1, seed 0, exact against Euclidean)."""
    config = private_mean.PrivateMeanConfig(space=space, source=source, radius=1.5 if space == "spd" else np.pi / 8,
                                            outside="clip")
    result = private_mean.run(config)
    return config, result, {run.key: run.releases for run in result.runs}


def _verdict(manifold, config, result, releases):
    bias = measure_releases(manifold, result.mean, result.data.mean(axis=0)[None])
    return who_wins.verdict(manifold, config.radius, result.n_used, config.epsilon,
                            intrinsic=measure_releases(manifold, result.mean, releases["exact"]),
                            euclidean=measure_releases(manifold, result.mean, releases["euclid"]), bias=bias)


def test_sphere_at_the_playground_defaults_the_euclidean_laplace_wins():
    """S², n = 50, r = π/8, ε = 1 with Theorem 2's constant: 0.0403 against 0.0542 (science notes: 0.040, 0.054)."""
    config, result, releases = _run("sphere", "cap")
    intrinsic = _sphere_geodesic(result.mean, releases["exact"])
    euclidean = _sphere_geodesic(result.mean, releases["euclid"])
    assert intrinsic.mean() == pytest.approx(0.0542, abs=5e-4)
    assert euclidean.mean() == pytest.approx(0.0403, abs=5e-4)
    found = _verdict(Sphere(2), config, result, releases)
    assert found.winner == "euclidean" and found.winner_label == "Euclidean Laplace"
    assert found.intrinsic.geodesic == pytest.approx(intrinsic.mean(), rel=1e-9)
    assert found.euclidean.geodesic == pytest.approx(euclidean.mean(), rel=1e-9)
    assert found.intrinsic.geodesic_se == pytest.approx(intrinsic.std(ddof=1) / np.sqrt(intrinsic.size), rel=1e-9)
    assert found.bias.geodesic == pytest.approx(_sphere_geodesic(result.mean, result.data.mean(axis=0)[None])[0],
                                                abs=1e-12)
    r = np.pi / 8
    h = np.pi / 4  # 2r·cot(2r) at r = π/8
    assert found.factors.curvature == pytest.approx((2 - h) / h)
    assert found.factors.scale_ratio == pytest.approx((2 * r * (2 - h) / h) / (2 * 2 * np.sin(r / 2)))
    assert found.factors.kept == pytest.approx(np.pi / 4)  # E|sin θ| for a uniform direction in R³
    assert found.factors.predicted_ratio == pytest.approx(found.factors.scale_ratio * 2 / (3 * np.pi / 4))
    assert found.sentence.startswith("At n = 50, ε = 1, the Euclidean Laplace lands closer to the true Fréchet mean: "
                                     "mean geodesic error 0.0403 against 0.0542 for the Riemannian Laplace, 26% "
                                     "smaller.")
    assert "(2 − h)/h = 1.55" in found.sentence and "100% of the Euclidean releases lie off the space" in found.sentence


def test_spd_at_the_playground_defaults_the_riemannian_laplace_wins():
    """SPD(2), n = 50, r = 1.5, ε = 1: 0.178 against 0.508 (science notes), non-PD Euclidean releases left out."""
    config, result, releases = _run("spd", "wishart")
    intrinsic = _spd_geodesic(result.mean, releases["exact"])
    euclidean = _spd_geodesic(result.mean, releases["euclid"])
    assert intrinsic.mean() == pytest.approx(0.178, abs=5e-4)
    assert euclidean.mean() == pytest.approx(0.508, abs=5e-4)
    found = _verdict(SPD(2), config, result, releases)
    assert found.winner == "intrinsic"
    assert found.intrinsic.geodesic == pytest.approx(intrinsic.mean(), rel=1e-7)
    assert found.euclidean.geodesic == pytest.approx(euclidean.mean(), rel=1e-7)
    assert found.euclidean.off_share == pytest.approx(1 - euclidean.size / len(releases["euclid"]))
    assert found.factors.h == 1.0 and found.factors.kept == pytest.approx(1.0)
    assert found.factors.scale_ratio == pytest.approx(1.5 / (np.exp(1.5) - 1))  # 2r/n against 2(e^r − 1)/n
    assert found.sentence.startswith("At n = 50, ε = 1, the Riemannian Laplace lands closer to the true Fréchet mean: "
                                     "mean geodesic error 0.178 against 0.508 for the Euclidean Laplace, 65% smaller.")


def test_utility_simulation_names_the_same_winner_as_the_playground():
    """The Utility page's path at its defaults (200 data sets, one release each) against the playground's."""
    for space, radius, winner in (("sphere", np.pi / 8, "euclidean"), ("spd", 1.5, "intrinsic")):
        constant = utility.noise_constant(space, radius, "theorem")
        rows = utility.release_summary(space, radius, 50, 200, 0, constant, (1.0,))
        assert utility.verdict(space, radius, 50, 1.0, rows).winner == winner


def test_a_gap_within_twice_its_standard_error_is_a_tie():
    close = ReleaseErrors(geodesic=0.050, geodesic_se=0.002, ambient=0.05, off_share=0.0)
    other = ReleaseErrors(geodesic=0.045, geodesic_se=0.002, ambient=0.05, off_share=1.0)
    bias = ReleaseErrors(geodesic=0.001, geodesic_se=np.nan, ambient=0.02, off_share=0.0)
    found = who_wins.verdict(Sphere(2), np.pi / 8, 50, 1.0, intrinsic=close, euclidean=other, bias=bias)
    assert found.winner is None and found.winner_label is None
    assert found.sentence.startswith("At n = 50, ε = 1, neither mechanism lands clearly closer")
    clear = ReleaseErrors(geodesic=0.040, geodesic_se=0.002, ambient=0.05, off_share=1.0)
    found = who_wins.verdict(Sphere(2), np.pi / 8, 50, 1.0, intrinsic=close, euclidean=clear, bias=bias)
    assert found.winner == "euclidean"


def test_bad_input_is_refused_in_one_line():
    errors = ReleaseErrors(geodesic=0.05, geodesic_se=0.002, ambient=0.05, off_share=0.0)
    missing = ReleaseErrors(geodesic=np.nan, geodesic_se=np.nan, ambient=1.0, off_share=1.0)
    with pytest.raises(ValueError, match=r"the Euclidean Laplace has no geodesic error to compare \(got nan\): "
                                         r"100% of its releases lie outside"):
        who_wins.verdict(SPD(2), 1.5, 50, 1.0, intrinsic=errors, euclidean=missing, bias=errors)
    with pytest.raises(ValueError, match="at or beyond"):
        who_wins.verdict(Sphere(2), 0.8, 50, 1.0, intrinsic=errors, euclidean=errors, bias=errors)
    with pytest.raises(ValueError, match="ambient_dim must be >= dim = 3, got 2"):
        who_wins.kept_length(3, 2)
