"""The who-wins map compares the intrinsic mechanism its config names, read from its spec (``error_radius``,
``flat_error``, ``scale``): the Riemannian Laplace's map keeps its numbers, and the Riemannian Gaussian maps with no
other edit, where its spec supports the space."""

import numpy as np
import pytest
from scipy import stats
from scipy.integrate import quad

from engine.bounds import frechet_mean_sensitivity
from engine.mechanisms import radial_law, specs
from engine.mechanisms.riemannian_gaussian import gaussian_radial_log_density
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
