"""The who-wins map, its budget table and its sentence compare the intrinsic mechanism they are given, read from its
spec (``error_radius``, ``flat_error``, ``scale``): the Riemannian Laplace's map keeps its numbers, and the Riemannian
Gaussian maps with no other edit, where its spec supports the space."""

import numpy as np
import pytest
from scipy import stats
from scipy.integrate import quad

from engine.bounds import frechet_mean_sensitivity
from engine.manifolds import Sphere
from engine.mechanisms import radial_law, specs
from engine.mechanisms.riemannian_gaussian import gaussian_radial_log_density
from engine.pipelines.release_errors import ReleaseErrors
from engine.pipelines.ties_by_budget import ties_by_budget
from engine.pipelines.who_wins import verdict
from engine.pipelines.who_wins_map import MAPPED, WhoWinsMapConfig, reading, run

SMALL = dict(dims=(2, 3), radii=4, datasets=4, ratio_se=0.1, n=20)


def test_the_laplace_map_keeps_its_cells_and_ties():
    """Cells and ties of the map before the comparison was read from the specs (computed then, on main)."""
    sphere = run(WhoWinsMapConfig(space="sphere", **SMALL))
    np.testing.assert_allclose(sphere.cells["ratio"].to_numpy()[[0, 3, 4, 7]],
                               [1.0347831626423605, 6.612981761635021, 0.9123447073809522, 4.794061919612899],
                               rtol=1e-12)
    np.testing.assert_allclose(sphere.cells["predicted_ratio"].to_numpy()[[0, 7]],
                               [0.9335835007963917, 14.497195065870955], rtol=1e-12)
    assert sphere.ties["parameter"].tolist() == [3]
    assert sphere.ties["radius"].iloc[0] == pytest.approx(0.2519265054104761, rel=1e-12)
    np.testing.assert_allclose(sphere.predicted_ties["radius"], [0.22909218921285013, 0.204247065838433], rtol=1e-12)
    spd = run(WhoWinsMapConfig(space="spd", **SMALL))
    np.testing.assert_allclose(spd.cells["intrinsic"].to_numpy()[[0, 7]], [0.1462654192944382, 1.4391919025471314],
                               rtol=1e-12)
    assert spd.ties.empty
    assert "the Riemannian Laplace wins at every radius" in reading(spd)


def test_the_riemannian_gaussian_maps_through_its_spec():
    assert set(MAPPED) == {spec.key for spec in specs.REGISTRY if spec.error_radius is not None} >= {"exact", "rgauss"}
    config = WhoWinsMapConfig(space="sphere", dims=(2,), radii=2, max_radius=0.3, datasets=4, ratio_se=0.1, n=20,
                              mechanism="rgauss")
    found = run(config)
    sphere = found.family.make(2)
    first = found.cells.iloc[0]
    assert first["sigma"] == specs.RGAUSS.scale(
        sphere, epsilon=1.0, sensitivity=float(frechet_mean_sensitivity(20, first["radius"], 1.0)), delta=config.delta)
    # The cell's errors are the Gaussian's radius law: their mean is its quadrature (within 4 standard errors).
    law = radial_law(sphere)
    for row in found.cells.itertuples():
        weights = [quad(lambda r, k=k: r**k * np.exp(gaussian_radial_log_density(law, r, row.sigma)), 0, np.pi)[0]
                   for k in (0, 1)]
        assert abs(row.intrinsic - weights[1] / weights[0]) <= 4 * row.intrinsic_se
    text = reading(found)
    assert "Riemannian Gaussian / Euclidean Laplace" in text and "Riemannian Laplace" not in text
    with pytest.raises(ValueError, match="not offered on SPD"):
        WhoWinsMapConfig(space="spd", mechanism="rgauss")
    with pytest.raises(ValueError, match="mechanism must be one of"):
        WhoWinsMapConfig(space="sphere", mechanism="euclid")


def test_the_flat_error_of_each_mapped_law_is_its_mean_radius_in_flat_space():
    for d in (1, 2, 3, 10):
        assert specs.EXACT.flat_error(d) == pytest.approx(stats.gamma(d).mean(), rel=1e-12)
        assert specs.RGAUSS.flat_error(d) == pytest.approx(stats.chi(d).mean(), rel=1e-12)


def test_the_verdict_reads_the_intrinsic_mechanism_from_its_spec():
    """The who-wins sentence of a Riemannian Gaussian run: its σ from its spec's (ε, δ) calibration, its error law's
    flat-space mean radius (σ·E χ_d) in the noise-alone prediction, its label in the sentence."""
    sphere, r, n = Sphere(2), np.pi / 8, 50
    errors = ReleaseErrors(geodesic=0.05, geodesic_se=0.001, ambient=0.05, off_share=0.0)
    euclidean = ReleaseErrors(geodesic=0.04, geodesic_se=0.001, ambient=0.04, off_share=1.0)
    found = verdict(sphere, r, n, 1.0, intrinsic=errors, euclidean=euclidean, bias=errors, mechanism="rgauss",
                    delta=1e-5)
    f = found.factors
    delta = float(frechet_mean_sensitivity(n, r, 1.0))
    assert f.sigma == specs.RGAUSS.scale(sphere, epsilon=1.0, sensitivity=delta, delta=1e-5)
    assert f.sigma_e == pytest.approx(2 * 2 * np.sin(r / 2) / n)  # Δ_E = 2 r_E/n, r_E the chord
    assert f.predicted_ratio == pytest.approx(f.sigma * stats.chi(2).mean() / (3 * f.sigma_e * np.pi / 4 * f.stretch))
    assert f.calibration == pytest.approx(f.sigma * 1.0 / delta)
    assert found.winner_label == "Euclidean Laplace"
    assert found.sentence.count("Riemannian Gaussian") >= 3 and "Riemannian Laplace" not in found.sentence
    assert f"σ/σ_E = {f.noise_ratio:.2f} times the Euclidean one" in found.sentence
    laplace = verdict(sphere, r, n, 1.0, intrinsic=errors, euclidean=euclidean, bias=errors)
    assert laplace.factors.calibration == pytest.approx(1.0) and "calibration" not in laplace.sentence
    with pytest.raises(ValueError, match="the Euclidean Laplace has no error law to compare"):
        verdict(sphere, r, n, 1.0, intrinsic=errors, euclidean=euclidean, bias=errors, mechanism="euclid")
    with pytest.raises(ValueError, match=r"the Riemannian Gaussian is \(ε, δ\)-DP: give its delta"):
        verdict(sphere, r, n, 1.0, intrinsic=errors, euclidean=euclidean, bias=errors, mechanism="rgauss")


def test_the_budget_table_of_the_gaussian_is_read_from_its_own_maps():
    found = ties_by_budget("sphere", (5.0, 50.0), n=20, parameter=2, radii=4, mechanism="rgauss")
    for row in found.itertuples():
        cells = run(WhoWinsMapConfig(space="sphere", dims=(2,), radii=4, n=20, epsilon=row.epsilon,
                                     mechanism="rgauss")).cells
        assert row.first_ratio == cells["ratio"].iloc[0] and row.last_ratio == cells["ratio"].iloc[-1]
    assert found["first_ratio"].iloc[0] != found["first_ratio"].iloc[1]
    with pytest.raises(ValueError, match="not offered on SPD"):
        ties_by_budget("spd", (5.0,), mechanism="rgauss")
