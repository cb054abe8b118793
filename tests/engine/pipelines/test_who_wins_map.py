"""The map of where the intrinsic mechanism wins (``engine.pipelines.who_wins_map``) against
computations made here independently: the Riemannian Laplace's mean error by quadrature of its radial
law, the Euclidean Laplace's by the playground's own release (``private_mean.release_on``) on data
drawn here, the ties against the cells, the standard errors against a second seed; bad input and the
command line."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from scipy import integrate

from engine.manifolds import SPD, Sphere
from engine.pipelines import private_mean, who_wins_map
from engine.pipelines.__main__ import main as pipelines_main
from engine.pipelines.release_errors import measure_releases
from engine.pipelines.who_wins_map import FAMILIES, WhoWinsMapConfig, reading, run, tie_radii
from engine.spaces import DimensionFamily
from engine.viz.who_wins_map import who_wins_map_figure

#: The families the map compares on (those with a Euclidean baseline), in the registry's order.
MAPPED = [key for key, fam in FAMILIES.items() if fam.baseline_missing is None]


def _sphere_mean_radius(d: int, sigma: float) -> float:
    """E ρ for the density ∝ e^{−ρ/σ} sin^{d−1}ρ on [0, π] (the Laplace law's radius on S^d)."""
    def weight(rho):
        return np.exp(-rho / sigma) * np.sin(rho) ** (d - 1)
    upper, mode = min(np.pi, 200 * sigma), [(d - 1) * sigma]
    top = integrate.quad(lambda rho: rho * weight(rho), 0, upper, points=mode, limit=200)[0]
    return top / integrate.quad(weight, 0, upper, points=mode, limit=200)[0]


def _spd2_mean_radius(sigma: float) -> float:
    """E‖r‖ for the density ∝ e^{−‖r‖/σ} sinh(|r₁ − r₂|/2) on R² (the eigen-logarithms of the Laplace
    law on SPD(2)), in polar coordinates r = ρ(cos θ, sin θ)."""
    def weight(theta, rho):
        return rho * np.exp(-rho / sigma) * np.sinh(rho * abs(np.cos(theta) - np.sin(theta)) / 2)
    upper = 80 * sigma
    top = integrate.dblquad(lambda t, r: r * weight(t, r), 0, upper, 0, 2 * np.pi)[0]
    return top / integrate.dblquad(weight, 0, upper, 0, 2 * np.pi)[0]


@pytest.fixture(scope="module")
def sphere_map():
    return run(WhoWinsMapConfig(space="sphere", dims=(2, 5), radii=8))


@pytest.fixture(scope="module")
def spd_map():
    return run(WhoWinsMapConfig(space="spd", dims=(2,), radii=5))


@pytest.mark.parametrize("which", ["sphere", "spd"])
def test_intrinsic_errors_match_the_quadrature_of_the_radial_law(which, sphere_map, spd_map):
    cells = (sphere_map if which == "sphere" else spd_map).cells
    for row in cells.iloc[[0, len(cells) // 2, -1]].itertuples():
        exact = _sphere_mean_radius(row.dim, row.sigma) if which == "sphere" else _spd2_mean_radius(row.sigma)
        assert abs(row.intrinsic - exact) <= 3 * row.intrinsic_se, (row.parameter, row.radius, row.intrinsic, exact)


def _sphere_tangent_ball(radius, n, rng):
    """n points cos(ρ)m0 + sin(ρ)u on S², ρ = r√V, u uniform on the equator (the map's recipe, d = 2)."""
    rho = radius * np.sqrt(rng.uniform(size=n))
    angle = rng.uniform(0, 2 * np.pi, n)
    return np.column_stack([np.sin(rho) * np.cos(angle), np.sin(rho) * np.sin(angle), np.cos(rho)])


def _spd2_tangent_ball(radius, n, rng):
    """n matrices expm(t W) on SPD(2): W uniform on the Frobenius unit sphere of Sym(2), t = r V^{1/3}."""
    coef = rng.standard_normal((n, 3))
    coef /= np.linalg.norm(coef, axis=1, keepdims=True)
    sym = np.stack([np.stack([coef[:, 0], coef[:, 1] / np.sqrt(2)], -1),
                    np.stack([coef[:, 1] / np.sqrt(2), coef[:, 2]], -1)], 1)
    values, vectors = np.linalg.eigh(radius * rng.uniform(size=n)[:, None, None] ** (1 / 3) * sym)
    return (vectors * np.exp(values)[:, None, :]) @ np.swapaxes(vectors, 1, 2)


@pytest.mark.parametrize("which", ["sphere", "spd"])
def test_euclidean_errors_match_the_playgrounds_own_release(which, sphere_map, spd_map):
    """The map's Euclidean error at a d = 2 cell against 40 data sets drawn here, each released 100
    times by the playground's calibration and release (``private_mean.release_on``)."""
    cells = (sphere_map if which == "sphere" else spd_map).cells
    row = cells[cells["parameter"] == 2].iloc[-2]
    manifold, draw = (Sphere(2), _sphere_tangent_ball) if which == "sphere" else (SPD(2), _spd2_tangent_ball)
    config = private_mean.PrivateMeanConfig(space=which, source="ball" if which == "sphere" else "wishart",
                                            radius=row.radius, epsilon=1.0, releases=100)
    rng = np.random.default_rng(7)
    means, releases = [], []
    for _ in range(40):
        data = draw(row.radius, 50, rng)
        _, release = private_mean.release_on("euclid", config, data, manifold.origin, rng=rng)
        means.append(np.broadcast_to(private_mean.frechet_mean(manifold, data).mean, release.points.shape))
        releases.append(release.points)
    direct = measure_releases(manifold, np.concatenate(means), np.concatenate(releases))
    assert abs(row.euclidean - direct.geodesic) <= 3 * np.hypot(row.euclidean_se, direct.geodesic_se), (
        row.euclidean, direct.geodesic)
    assert abs(row.off_share - direct.off_share) <= 0.05


def test_every_tie_lies_between_two_cells_on_either_side_of_one(sphere_map):
    assert len(sphere_map.ties) >= 1
    for tie in sphere_map.ties.itertuples():
        row = sphere_map.cells[sphere_map.cells["parameter"] == tie.parameter].sort_values("radius")
        below = row[row["radius"] <= tie.radius].iloc[-1]
        above = row[row["radius"] > tie.radius].iloc[0]
        assert (below.ratio - 1) * (above.ratio - 1) < 0
        assert (below.ratio < 1) == (tie.below == "intrinsic")


def test_tie_radii_interpolate_the_log_ratio():
    radii = np.linspace(0.1, 1.0, 10)
    cells = pd.concat([pd.DataFrame(dict(parameter=p, radius=radii, ratio=np.exp(3 * (radii - r0))))
                       for p, r0 in ((2, 0.437), (3, 0.81))] +
                      [pd.DataFrame(dict(parameter=4, radius=radii, ratio=0.5 + 0 * radii))])
    ties = tie_radii(cells)
    assert ties["parameter"].tolist() == [2, 3]
    np.testing.assert_allclose(ties["radius"], [0.437, 0.81], rtol=1e-12)
    assert set(ties["below"]) == {"intrinsic"}


def test_the_map_reads_as_the_theory_says(sphere_map, spd_map):
    """S²: the intrinsic mechanism wins at small r (dimension factor 2/(3·π/4) = 0.85) and loses as
    Theorem 2's curvature factor grows; SPD(2): the intrinsic one wins at every radius (r < r_E)."""
    s2 = sphere_map.cells[sphere_map.cells["parameter"] == 2]
    assert s2["ratio"].iloc[0] < 0.95 and s2["ratio"].iloc[-1] > 2
    assert (spd_map.cells["ratio"] < 1).all()
    assert (sphere_map.cells["off_share"] == 1).all()


def test_the_standard_errors_are_within_target_and_honest(sphere_map):
    """Every ratio within about ±5 % at 95 % (ratio_se <= 3 %), and a second seed lands within 2.5
    combined standard errors in at least 85 % of the cells."""
    other = run(WhoWinsMapConfig(space="sphere", dims=(2, 5), radii=8, seed=1))
    a, b = sphere_map.cells, other.cells
    assert (a["ratio_se"] / a["ratio"]).max() <= 0.03
    z = (a["ratio"] - b["ratio"]).abs() / np.hypot(a["ratio_se"], b["ratio_se"])
    assert (z <= 2.5).mean() >= 0.85


def test_a_cell_does_not_depend_on_the_other_dimensions(sphere_map):
    alone = run(WhoWinsMapConfig(space="sphere", dims=(5,), radii=8))
    pd.testing.assert_frame_equal(alone.cells.reset_index(drop=True),
                                  sphere_map.cells[sphere_map.cells["parameter"] == 5].reset_index(drop=True))


def test_spaces_without_a_euclidean_baseline_are_named_not_mapped(monkeypatch):
    assert all(fam.baseline_missing is None for fam in FAMILIES.values())
    bures = DimensionFamily("bures", "SPD(k), Bures–Wasserstein", "k", "matrix size k",
                            lambda k: SPD(k, metric="bures-wasserstein"), "SPD({})".format, (2, 3), 1.0, 2, 6)
    monkeypatch.setitem(FAMILIES, "bures", bures)
    assert "no Euclidean baseline yet" in bures.baseline_missing
    with pytest.raises(ValueError,
                       match=f"no Euclidean baseline yet.*map one of {', '.join(MAPPED)}"):
        WhoWinsMapConfig(space="bures")


@pytest.mark.parametrize("kwargs, message", [
    (dict(space="torus"), f"space must be one of {', '.join(FAMILIES)}, got 'torus'"),
    (dict(space="spd", dims=(1,)), "dims entry k of SPD\\(k\\) must be an integer >= 2"),
    (dict(space="spd", dims=(9,)), "must be at most 6, got 9"),
    (dict(dims=(2, 2)), "dims must not repeat a value"),
    (dict(radii=1), "radii must be an integer >= 2"),
    (dict(datasets=1), "datasets must be an integer >= 2"),
    (dict(max_radius=-1.0), "max_radius must be"),
    (dict(n=1), "n must be an integer >= 2"),
    (dict(epsilon=0.0), "epsilon must be"),
    (dict(ratio_se=0.9), "ratio_se must lie in \\[0.001, 0.5\\]"),
    (dict(radii=10**9), "need about .* of memory"),
])
def test_bad_settings_are_refused_in_one_line(kwargs, message):
    with pytest.raises(ValueError, match=message) as err:
        WhoWinsMapConfig(**kwargs)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("kwargs, message", [
    (dict(max_radius=0.8), "reaches Theorem 2's r\\* = 0.7854 on Sphere\\(2\\)"),
    (dict(space="spd", max_radius=50.0), "max_radius = 50 is beyond 10"),
    (dict(epsilon=1e300), "noise scale σ = .* below 1e-06, where the errors compare rounding"),
])
def test_grids_the_engine_cannot_compare_are_refused_before_any_draw(kwargs, message):
    with pytest.raises(ValueError, match=message) as err:
        run(WhoWinsMapConfig(**{"dims": (2,), "radii": 3, **kwargs}))
    assert "\n" not in str(err.value)


def test_the_figure_centres_its_colours_at_a_tie_and_draws_the_ties(sphere_map):
    fig = who_wins_map_figure(sphere_map.cells, sphere_map.ties, space="Sᵈ", parameter_label="dimension d", n=50,
                              epsilon=1.0, predicted=sphere_map.predicted_ties)
    heat, measured, predicted = fig.data
    assert heat.type == "heatmap" and heat.zmid == 0 and heat.zmin == -heat.zmax == -2
    assert heat.colorbar.ticktext[0] == "≤ 0.25" and heat.colorbar.ticktext[-1] == "≥ 4"
    np.testing.assert_allclose(np.exp2(np.asarray(heat.z, dtype=float)),
                               sphere_map.cells.pivot(index="parameter", columns="radius", values="ratio"))
    assert sorted(zip(measured.y, measured.x)) == sorted(zip(sphere_map.ties["parameter"], sphere_map.ties["radius"]))
    assert predicted.line.dash == "dot" and len(predicted.x) == len(sphere_map.predicted_ties) == 2
    assert fig.layout.xaxis.title.text == "radius r of the data ball"
    assert fig.layout.title.text.endswith("on Sᵈ at n·ε = 50 (n = 50, ε = 1)")


def test_the_command_line_writes_the_cells_ties_and_figure(tmp_path, capsys):
    out = tmp_path
    assert pipelines_main(["who-wins-map", "--space", "sphere", "--dims", "2", "--radii", "6", "--out", str(out),
                           "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    cells = pd.read_csv(out / "who-wins-map-sphere-cells.csv")
    assert len(cells) == 6 and np.allclose(cells["ratio"], [c["ratio"] for c in summary["cells"]])
    assert "All at n = 50 records and ε = 1, n·ε = 50" in summary["reading"]
    assert (out / "who-wins-map-sphere-ties.csv").exists()
    assert "plotly" in (out / "who-wins-map-sphere-figure.html").read_text()[:100_000].lower()
    assert json.loads((out / "who-wins-map-sphere-settings.json").read_text())["dims"] == [2]
    assert sorted(p.name for p in out.iterdir()) == [f"who-wins-map-sphere-{name}" for name in
                                                     ("cells.csv", "figure.html", "settings.json", "ties.csv")]


@pytest.mark.parametrize("argv, message", [
    (["--space", "torus"], f"space must be one of {', '.join(FAMILIES)}, got 'torus'"),
    (["--radii", "0"], "radii must be an integer >= 2"),
    (["--max-radius", "nan"], "max_radius must be"),
    (["--mechanism", "foo"], f"mechanism must be one of {', '.join(who_wins_map.MAPPED)} (a spec with an error law), got 'foo'"),
    (["--space", "spd", "--mechanism", "rgauss"], "the Riemannian Gaussian is not offered on SPD(k)"),
])
def test_the_command_line_refuses_bad_flags_in_one_line(argv, message, capsys, tmp_path):
    assert pipelines_main(["who-wins-map", *argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err
    assert not list(tmp_path.iterdir())


def test_a_bad_dims_flag_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        pipelines_main(["who-wins-map", "--dims", "2,x"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == "error: argument --dims: dims must be comma-separated int, got '2,x'\n"


@pytest.mark.parametrize("name, message", [("taken", "is a file; give an existing folder"),
                                           ("missing", "does not exist; give an existing folder")])
def test_an_out_that_is_no_folder_is_refused_before_the_run(name, message, tmp_path, capsys):
    (tmp_path / "taken").write_text("")
    assert pipelines_main(["who-wins-map", "--dims", "2", "--out", str(tmp_path / name)]) == 2
    assert message in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]


def test_the_reading_says_where_each_wins_from_the_map(sphere_map, spd_map):
    sphere = reading(sphere_map)
    first = sphere_map.ties.groupby("parameter")["radius"].first()
    assert sphere.startswith("On Sᵈ (d = 2–5, r up to 0.75), the Riemannian Laplace wins below r ≈ ")
    assert f"d = 2: {first[2]:.2g}" in sphere and "and the Euclidean Laplace above" in sphere
    assert "every Euclidean release lies off the space" in sphere
    assert sphere.endswith("All at n = 50 records and ε = 1, n·ε = 50: both noise scales shrink as 1/(n·ε) but the "
                           "ambient mean's bias does not, so the ratios and the ties move with n·ε.")
    spd = reading(spd_map)
    assert "the Riemannian Laplace wins at every radius" in spd
    assert f"{spd_map.cells['ratio'].max():.2f} (k = 2, r = 0.4)" in spd


def test_a_map_without_a_finite_ratio_says_so_in_one_sentence(spd_map):
    """Every cell uncomputable (NaN ratio): the reading says the map is silent and how to fix it."""
    empty = dataclasses.replace(spd_map, cells=spd_map.cells.assign(ratio=np.nan))
    text = reading(empty)
    assert text.startswith("On SPD(k) no cell has a finite error ratio") and "n·ε = 50" in text
