"""The Utility page's path (``engine.pipelines.utility``) against closed forms written out here, a
Monte Carlo of the Euclidean noise, exact power laws for the scaling fit and the geometry of the
sphere (Euclidean releases always leave it, intrinsic ones never do)."""

import numpy as np
import pandas as pd
import pytest

from engine.manifolds import Sphere
from engine.mechanisms import euclidean_laplace
from engine.pipelines import utility
from engine.pipelines.utility import UtilityConfig


def _theorem2_constant(r, kappa=1.0):
    """2r(2 − h)/h with h = 2r√κ cot(2r√κ)."""
    x = 2 * r * np.sqrt(kappa)
    h = x / np.tan(x)
    return 2 * r * (2 - h) / h


def test_noise_constant_and_radius_note():
    assert utility.noise_constant("sphere", np.pi / 8, "theorem") == pytest.approx(_theorem2_constant(np.pi / 8))
    assert utility.noise_constant("spd", 1.5, "empirical") == pytest.approx(3.0)  # SPD: always 2r(2 − 1)/1
    assert utility.radius_note("sphere", 0.7) is None and utility.radius_note("spd", 3.0) is None
    note = utility.radius_note("sphere", 0.8)
    assert note.level == "warning" and f"{np.pi / 4:.4f}" in note.text
    with pytest.raises(ValueError, match="radius 0.8 is at or beyond"):
        utility.noise_constant("sphere", 0.8, "empirical")


def test_euclidean_constant_is_the_mean_norm_of_the_noise():
    """E‖noise‖ = D·σ_E for the ℓ2 Laplace noise in R^D, here D = 3 (Monte Carlo, 5 SE)."""
    sphere, sigma, size = Sphere(2), 0.01, 40_000
    c_e = utility.euclidean_constant("sphere", 0.4)
    assert c_e == pytest.approx(3 * 2 * 2 * np.sin(0.2))
    centre = np.broadcast_to(sphere.origin, (size, 3))
    norms = np.linalg.norm(euclidean_laplace(sphere, centre, sigma, rng=3) - centre, axis=-1)
    assert abs(norms.mean() - 3 * sigma) < 5 * norms.std() / np.sqrt(size)
    bounds = utility.error_bounds("sphere", 0.4, 1.0, n=np.array([10.0, 20.0]), epsilon=0.5)
    assert bounds["euclid"].to_numpy() == pytest.approx(c_e / (np.array([10, 20]) * 0.5))
    assert bounds["bound"].iloc[0] == pytest.approx(2 * bounds["bound"].iloc[1])  # √bound ∝ σ ∝ 1/n


def test_release_summary_scales_and_geometry():
    constant = utility.noise_constant("sphere", np.pi / 8, "theorem")
    summary = utility.release_summary("sphere", np.pi / 8, 10, 200, 0, constant, (0.5, 2.0), paper_baseline=True)
    assert len(summary) == 6 and (summary["status"] == "ok").all()
    rows = summary.set_index(["epsilon", "mechanism"])
    r_e = 2 * np.sin(np.pi / 16)
    for eps in (0.5, 2.0):
        assert rows.loc[(eps, "exact"), "sigma"] == pytest.approx(constant / (10 * eps))
        assert rows.loc[(eps, "euclid"), "sigma"] == pytest.approx(2 * r_e / (10 * eps))
        assert rows.loc[(eps, "exact"), "share_off_manifold"] == 0.0
        assert rows.loc[(eps, "euclid"), "share_off_manifold"] == 1.0
        # the chord is shorter than the arc, and the RMS geodesic error stays under √ of Theorem 3's bound
        intrinsic = rows.loc[(eps, "exact")]
        assert intrinsic["mean_error"] <= intrinsic["rms_geodesic"] <= intrinsic["sqrt_bound"]
    assert rows.loc[(2.0, "euclid"), "mean_error"] < rows.loc[(0.5, "euclid"), "mean_error"]
    again = utility.release_summary("sphere", np.pi / 8, 10, 200, 0, constant, (0.5, 2.0), True,
                                    means=utility.sample_means("sphere", np.pi / 8, 10, 200, 0))
    pd.testing.assert_frame_equal(summary, again)


def test_release_summary_skips_a_law_that_is_not_normalisable():
    """On SPD(2) the Laplace law needs σ < √2 (``scale_limit``): at ε = 0.05, n = 10, σ = 3/0.5 = 6."""
    summary = utility.release_summary("spd", 1.5, 10, 20, 0, 3.0, (0.05,))
    intrinsic = summary.set_index("mechanism").loc["exact"]
    assert "not normalisable" in intrinsic["status"] and np.isnan(intrinsic["mean_error"])


def test_reduction_table_is_the_percentage_per_n():
    summary = pd.DataFrame({"n": [10, 10, 20, 20], "mechanism": ["exact", "euclid"] * 2,
                            "mean_error": [0.5, 1.0, 0.3, 0.4], "share_off_manifold": [0.0, 0.25, 0.0, 0.1],
                            "rms_geodesic": [0.6, np.nan, 0.35, np.nan], "sqrt_bound": [0.7, np.nan, 0.4, np.nan]})
    table = utility.reduction_table(summary).set_index("n")
    assert table["noise reduction (%)"].to_numpy() == pytest.approx([50.0, 25.0])
    assert table["Euclidean off the manifold (%)"].to_numpy() == pytest.approx([25.0, 10.0])
    assert table["√ Theorem 3 bound"].to_numpy() == pytest.approx([0.7, 0.4])


def test_fit_scaling_recovers_an_exact_power_law_and_plans_with_it():
    n = np.array([10, 20, 50, 100, 10, 10])
    eps = np.array([1.0, 1.0, 1.0, 1.0, 0.5, 2.0])
    points = pd.concat([pd.DataFrame({"n": n, "epsilon": eps, "mechanism": m, "mean_error": c / (n * eps)})
                        for m, c in (("exact", 0.8), ("euclid", 2.5))], ignore_index=True)
    fits = utility.fit_scaling(points).set_index("mechanism")
    assert fits["alpha"].to_numpy() == pytest.approx([1.0, 1.0])
    assert fits["c"].to_numpy() == pytest.approx([0.8, 2.5])
    assert fits["lo"].to_numpy() == pytest.approx([5.0, 5.0]) and fits["hi"].to_numpy() == pytest.approx([100, 100])
    fits = fits.reset_index()
    eps_plan = utility.plan(fits, space="sphere", radius=0.4, constant=1.0, target=0.05, solve="eps", held=40)
    assert eps_plan["simulated"].to_numpy() == pytest.approx([0.8 / 2, 2.5 / 2])
    assert eps_plan.loc[1, "theory"] == pytest.approx(utility.euclidean_constant("sphere", 0.4) / 2)
    assert eps_plan["outside"].tolist() == [False, False]
    n_plan = utility.plan(fits, space="sphere", radius=0.4, constant=1.0, target=0.001, solve="n", held=1.0)
    assert n_plan["simulated"].tolist() == [800.0, 2500.0] and n_plan["outside"].all()
    with pytest.raises(ValueError, match="solve"):
        utility.plan(fits, space="sphere", radius=0.4, constant=1.0, target=0.05, solve="delta", held=1.0)


def test_run_is_its_pieces():
    config = UtilityConfig(space="sphere", radius=np.pi / 8, sphere_constant="theorem", ns=(10, 30), epsilon=1.0,
                           n=20, reps=20, seed=2, paper_baseline=True)
    calls = []
    result = utility.run(config, progress=lambda done, total, n: calls.append((done, total, n)))
    assert calls == [(1, 3, 10), (2, 3, 30), (3, 3, 20)]
    assert result.constant == pytest.approx(_theorem2_constant(np.pi / 8))
    piece = utility.release_summary("sphere", np.pi / 8, 30, 20, 2, result.constant, (1.0,), True)
    pd.testing.assert_frame_equal(result.by_n[result.by_n["n"] == 30].reset_index(drop=True), piece)
    assert set(result.by_eps["epsilon"]) == set(utility.EPS_GRID)
    assert result.skipped.empty and len(result.ok_n) == 6
    points = result.scaling_points()
    assert "paper" not in set(points["mechanism"])
    assert not points.duplicated(["n", "epsilon", "mechanism"]).any()


@pytest.mark.parametrize(("field", "value"), [("space", "hyperbolic"), ("radius", 0.0), ("sphere_constant", "x"),
                                              ("ns", ()), ("epsilon", -1.0), ("reps", 1)])
def test_config_refuses_bad_values_naming_them(field, value):
    with pytest.raises(ValueError, match=field):
        UtilityConfig(**{field: value})


def test_baseline_privacy_of_the_paper_baseline_on_spd():
    """Reimherr et al.'s baseline on SPD(2), n = 10, r = 1.5: true ε 1.1616/0.6963 = 1.67 for a claimed 1."""
    pair = utility.baseline_privacy("spd", 1.5, 10, 1.0).set_index("baseline")
    assert pair.loc["paper", "ratio"] == pytest.approx(1.668, abs=1e-3)
    assert pair.loc["euclid", "ratio"] <= 1.0 + 1e-9
