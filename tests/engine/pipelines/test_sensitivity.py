"""The Sensitivity page's path (``engine.pipelines.sensitivity``) against closed forms written out
here, an independent Fréchet mean (scipy on the sphere's embedding) and the flat limit of the
supplement's boundary constant."""

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize

from engine.data import sphere_cap
from engine.pipelines import sensitivity
from engine.pipelines.sensitivity import SensitivityConfig


def _h(r, kappa):
    """h(r, κ) = 2r√κ cot(2r√κ) for κ > 0, 1 otherwise (Theorem 2)."""
    x = 2 * r * np.sqrt(kappa)
    return x / np.tan(x) if kappa > 0 else 1.0


def test_theorem2_on_the_paper_sphere():
    t2 = sensitivity.theorem2(SensitivityConfig(space="sphere", radius=np.pi / 8, kappa=1.0, n=50))
    assert t2.valid and not t2.below_own
    assert t2.h == pytest.approx(np.pi / 4)
    assert t2.delta == pytest.approx((2 - np.pi / 4) / 50)  # 0.02429, the page's metric
    assert t2.limit == pytest.approx(np.pi / 4) and t2.own_limit == pytest.approx(np.pi / 4)
    assert t2.ambient_radius == pytest.approx(2 * np.sin(np.pi / 16))
    assert t2.ambient_delta == pytest.approx(4 * np.sin(np.pi / 16) / 50)
    assert t2.kappa_limit == pytest.approx(4.0)


def test_theorem2_beyond_its_domain_and_below_the_spaces_curvature():
    beyond = sensitivity.theorem2(SensitivityConfig(space="sphere", radius=1.0, kappa=1.0))
    assert not beyond.valid and np.isnan(beyond.delta) and np.isnan(beyond.h)
    assert sensitivity.theorem2(SensitivityConfig(space="sphere", kappa=0.5)).below_own
    spd = sensitivity.theorem2(SensitivityConfig(space="spd", radius=1.5, kappa=0.0, n=10))
    assert spd.limit == np.inf and spd.valid and not spd.below_own
    assert spd.delta == pytest.approx(2 * 1.5 / 10)  # h = 1 on a flat or negatively curved space
    assert spd.ambient_radius == pytest.approx(np.exp(1.5) - 1)  # supplement, Proposition 1


@pytest.mark.parametrize(("field", "value"), [("space", "kendall"), ("radius", -1.0), ("n", 0), ("reps", 1),
                                              ("kappa", np.inf), ("seed", -2)])
def test_config_refuses_bad_values_naming_them(field, value):
    with pytest.raises(ValueError, match=field):
        SensitivityConfig(**{field: value})


def _sphere_mean(points: np.ndarray) -> np.ndarray:
    """argmin over the unit sphere of Σ arccos(⟨x, p⟩)², by scipy from the normalised ambient mean."""
    def cost(v):
        x = v / np.linalg.norm(v)
        return np.sum(np.arccos(np.clip(points @ x, -1, 1)) ** 2)

    start = points.mean(axis=0)
    x = minimize(cost, start / np.linalg.norm(start), method="Nelder-Mead",
                 options=dict(xatol=1e-12, fatol=1e-16, maxiter=20_000)).x
    return x / np.linalg.norm(x)


def test_neighbour_replicates_match_an_independent_frechet_mean():
    """Same draws as the pipeline (stream [seed, n]); neighbours built here, means found by scipy."""
    radius, n, reps, seed = np.pi / 8, 8, 3, 4
    frame = sensitivity.neighbour_replicates("sphere", radius, n, reps, seed)
    assert len(frame) == 2 * reps and set(frame["n"]) == {n}
    rng = np.random.default_rng([seed, n])
    data = sphere_cap(n, radius, size=(reps,), rng=rng)
    fresh = sphere_cap(1, radius, size=(reps,), rng=rng)[:, 0]
    north = np.array([0.0, 0.0, 1.0])
    for i in range(reps):
        mean = _sphere_mean(data[i])
        random = data[i].copy()
        random[0] = fresh[i]
        far = np.argmax(np.arccos(np.clip(data[i] @ north, -1, 1)))
        direction = data[i, far] - north * (data[i, far] @ north)
        direction /= np.linalg.norm(direction)
        adversarial = data[i].copy()
        angle = 0.999999 * radius
        adversarial[far] = np.cos(angle) * north - np.sin(angle) * direction
        for kind, moved in (("random", random), ("adversarial", adversarial)):
            expected = np.arccos(np.clip(mean @ _sphere_mean(moved), -1, 1))
            got = frame.loc[(frame["neighbour"] == f"{kind} replacement") & (frame["replicate"] == i), "sensitivity"]
            assert float(got.iloc[0]) == pytest.approx(expected, abs=1e-6)


def test_run_is_its_pieces_and_stays_under_theorem2():
    config = SensitivityConfig(space="sphere", n=30, reps=20, seed=1)
    calls = []
    result = sensitivity.run(config, progress=lambda done, total, n: calls.append((done, total, n)))
    assert config.sample_sizes == (10, 25, 30, 50, 100, 200)
    assert calls == [(i + 1, 6, n) for i, n in enumerate(config.sample_sizes)]
    pieces = [sensitivity.neighbour_replicates("sphere", config.radius, n, 20, 1) for n in config.sample_sizes]
    pd.testing.assert_frame_equal(result.replicates, sensitivity.assemble(config, pieces).replicates)
    table = result.table()
    assert (table["sensitivity"] <= table["bound"]).all()
    assert table["bound"].to_numpy() == pytest.approx(2 * config.radius * (2 - np.pi / 4) / (table["n"] * np.pi / 4))
    assert result.largest == table.loc[table["n"] == 30, "sensitivity"].max()
    curve = result.bound_curve()
    assert curve["n"].min() == 10 and curve["n"].max() == 200
    assert sensitivity.run(SensitivityConfig(space="sphere", radius=1.0, reps=2)).bound_curve() is None


def test_summarise_is_mean_se_and_max_per_group():
    replicates = pd.DataFrame({"n": [5, 5, 5, 7], "neighbour": ["a", "a", "a", "a"],
                               "sensitivity": [1.0, 2.0, 6.0, 4.0]})
    out = sensitivity.summarise(replicates).set_index("n")
    assert out.loc[5, "sensitivity"] == 3.0 and out.loc[5, "maximum"] == 6.0
    assert out.loc[5, "se"] == pytest.approx(np.std([1, 2, 6], ddof=1) / np.sqrt(3))
    assert out.loc[7, "se"] == 0.0  # one replicate: no spread


def test_drawn_bound_stops_at_the_h_floor():
    r = np.linspace(0.05, 1.0, 50)
    drawn = sensitivity.drawn_bound(20, r, 1.0)
    h = np.array([_h(v, 1.0) if 2 * v < np.pi / 2 else -1.0 for v in r])
    shown = h >= sensitivity.H_FLOOR
    assert np.isnan(drawn[~shown]).all()
    assert drawn[shown] == pytest.approx(2 * r[shown] * (2 - h[shown]) / (20 * h[shown]))


def test_curves_against_r_kappa_and_n():
    by_r = sensitivity.bound_vs_r(10, 1.0, 1.5)
    flat = by_r[by_r["curve"] == "flat space (κ ≤ 0)"]
    assert flat["value"].to_numpy() == pytest.approx(2 * flat["r"].to_numpy() / 10)
    by_kappa = sensitivity.bound_vs_kappa(10, 0.3)
    assert by_kappa["value"].iloc[0] == pytest.approx(0.06)  # κ = 0: 2r/n
    inside = by_kappa["kappa"] < (np.pi / 1.2) ** 2
    assert np.isnan(by_kappa.loc[~inside, "value"]).all()
    ambient = sensitivity.intrinsic_vs_ambient("spd", 1.5, 0.0)
    rows = ambient[ambient["curve"] == "ambient Δ_E = 2r_E/n"]
    assert rows["value"].to_numpy() == pytest.approx(2 * (np.exp(1.5) - 1) / rows["n"].to_numpy())
    assert set(sensitivity.intrinsic_vs_ambient("sphere", 1.0, 1.0)["curve"]) == {"ambient Δ_E = 2r_E/n"}


def test_boundary_constant_reaches_its_flat_limit_and_joins_the_constants():
    """On a small ball the sphere is nearly flat: max ‖x_i − x_j‖ over a circle of radius r is 2r."""
    boundary = sensitivity.boundary_constants("sphere", (0.01, 0.05))
    assert boundary["value"].to_numpy() == pytest.approx([0.02, 0.1], rel=2e-3)
    curves = sensitivity.constants_vs_r("sphere", 1.5, boundary)
    h = curves[curves["curve"] == "h(r, κ)"].dropna()
    assert h["value"].to_numpy() == pytest.approx([_h(r, 1.0) for r in h["r"]])
    assert h["r"].max() < np.pi / 4
    assert len(curves[curves["curve"] == "boundary constant"]) == 2
    assert sensitivity.boundary_radii(1.5)[-1] == 1.5 and len(sensitivity.boundary_radii(1.5)) == 20


def test_spaces_follow_the_registry_order():
    """The page's select lists them in this order (sphere first, as the browser test expects)."""
    assert sensitivity.SPACES == ("sphere", "spd")


def test_the_measured_move_against_r_is_the_audits_adversarial_gap():
    """``adversarial_move_vs_r``: each value is ``frechet_gap`` of the audit's replace-one pair at that radius."""
    from engine.audit.pairs import frechet_gap, replace_one_pair
    from engine.pipelines.sensitivity import ADVERSARIAL_MOVE, adversarial_move_vs_r
    from engine.spaces import make_manifold

    curve = adversarial_move_vs_r("sphere", 10, 0.6, points=3)
    assert list(curve["curve"].unique()) == [ADVERSARIAL_MOVE]
    np.testing.assert_allclose(curve["r"], [0.2, 0.4, 0.6])
    expected = [frechet_gap(replace_one_pair(make_manifold("sphere"), 10, r)) for r in (0.2, 0.4, 0.6)]
    np.testing.assert_allclose(curve["value"], expected)
    assert np.all(curve["value"] > 2 * curve["r"] / 10)  # on the sphere, further than the flat worst case
