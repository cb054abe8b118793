"""A mechanism its spec adds to the Utility page (``MechanismSpec.utility``): the Riemannian Gaussian beside
Figure 1's, at its own σ from (ε, δ), without changing the others' numbers, and only where its spec supports the
space."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from engine import spaces
from engine.mechanisms import specs
from engine.pipelines import utility


def test_an_added_mechanism_releases_at_its_specs_sigma_and_leaves_figure1s_numbers_alone():
    r, n, eps, delta = np.pi / 8, 20, 1.0, 1e-3
    constant = utility.noise_constant("sphere", r, "theorem")
    plain = utility.release_summary("sphere", r, n, 40, 0, constant, (eps,))
    added = utility.release_summary("sphere", r, n, 40, 0, constant, (eps,), added=("rgauss",), delta=delta)
    pd.testing.assert_frame_equal(added[added["mechanism"] != "rgauss"].reset_index(drop=True), plain)
    row = added.set_index("mechanism").loc["rgauss"]
    sphere = spaces.make_manifold("sphere")
    assert row["sigma"] == specs.RGAUSS.scale(sphere, epsilon=eps, sensitivity=constant / n, delta=delta)
    assert row["status"] == "ok" and np.isfinite(row["rms_geodesic"]) and np.isnan(row["sqrt_bound"])
    # Not a Laplace: the page's Theorem 3 bound and the planner's c/(nε) are not said of it.
    result = utility.UtilityResult(utility.UtilityConfig(added=("rgauss",)), constant, added, added)
    assert "rgauss" not in set(result.scaling_points()["mechanism"])


def test_an_added_mechanism_is_left_out_where_its_spec_does_not_support_the_space(monkeypatch):
    sphere_only = dataclasses.replace(specs.RGAUSS, supports=lambda m: m.polar_volume == "sphere")
    monkeypatch.setattr(specs, "UTILITY", tuple(sphere_only if s.key == "rgauss" else s for s in specs.UTILITY))
    summary = utility.release_summary("spd", 1.5, 10, 20, 0, 3.0, (1.0,), added=("rgauss",))
    assert "rgauss" not in set(summary["mechanism"])
    with pytest.raises(ValueError, match="added must hold keys of"):
        utility.UtilityConfig(added=("exact",))


def test_a_budget_out_of_the_added_mechanisms_reach_is_a_row_status_not_an_error():
    """On SPD(2) the Riemannian Gaussian's μ levels off as σ grows: at n = 10, ε = 0.1 no σ reaches the budget, and
    its row says so, as the Riemannian Laplace's says its law is not normalisable, and the Euclidean Laplace releases."""
    summary = utility.release_summary("spd", 1.5, 10, 20, 0, 3.0, (0.1,), added=("rgauss",)).set_index("mechanism")
    assert "is out of reach of the Riemannian Gaussian on SPD(2, affine)" in summary.loc["rgauss", "status"]
    assert np.isnan(summary.loc["rgauss", "sigma"]) and "not normalisable" in summary.loc["exact", "status"]
    assert summary.loc["euclid", "status"] == "ok"
