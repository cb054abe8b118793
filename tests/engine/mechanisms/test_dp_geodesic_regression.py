"""Private geodesic regression: Table 1, assumption checks, composition, bad input, data sets."""

import numpy as np
import pytest

from engine.bounds.regression import radius_limit, table1_sensitivities
from engine.data.regression import (
    age_covariate,
    callosum_data,
    callosum_template,
    load_cells,
    size_covariate,
    sphere_drift,
)
from engine.estimators import geodesic_regression
from engine.estimators.geodesic_regression import energy, energy_gradient, residuals
from engine.manifolds import Hyperbolic, Kendall, Sphere
from engine.mechanisms.dp_geodesic_regression import PrivateGeodesicRegression


def test_table1_values():
    assert table1_sensitivities(100, 0.05, 1.0) == pytest.approx((1e-3, 1e-3))
    dp, dv = table1_sensitivities(10, 0.1, -1.0, tau_m=0.4)
    assert dp == pytest.approx(0.02 * np.cosh(1.0)) and dv == pytest.approx(0.1 * np.sinh(1.0) / (10 * 0.5))
    assert radius_limit(1.0, 4.0) == pytest.approx(np.pi / 16)
    with pytest.raises(ValueError, match="tau_m is required"):
        table1_sensitivities(10, 0.1, -1.0)


@pytest.mark.parametrize("m", [Sphere(2), Kendall(6), Hyperbolic(2)], ids=lambda m: m.name)
def test_one_record_moves_the_clipped_gradients_by_at_most_table1(m):
    # Replace one record adversarially (residual reversed and stretched) at random (p, v): the clipped
    # gradients move by at most Table 1's bound, and the adversarial change comes close to it at v = 0.
    rng = np.random.default_rng(0)
    n, tau, tau_m = 20, 0.1, 0.5
    p0 = m.exp(m.origin, m.to_tangent(m.origin, 0.2 * rng.standard_normal(m.origin.shape)))
    x = rng.uniform(-1, 1, n)
    noise = m.to_tangent(p0, 0.3 * rng.standard_normal((n,) + m.point_shape))
    y = m.exp(np.broadcast_to(p0, noise.shape), noise)
    dp, dv = table1_sensitivities(n, tau, m.kappa_min, tau_m=tau_m)
    worst = np.zeros(2)
    for trial in range(30):
        p = m.exp(p0, m.to_tangent(p0, 0.1 * rng.standard_normal(p0.shape)))
        v = m.to_tangent(p, rng.standard_normal(p.shape))
        v *= (0.0 if trial < 10 else rng.uniform(0, 2 * (tau_m + tau))) / m.norm(p, v)
        q, e = residuals(m, p, v, x, y)
        j = trial % n
        y2 = y.copy()
        y2[j] = m.exp(q[j], -3.0 * e[j])
        g1 = energy_gradient(m, p, v, x, y, clip=tau)
        g2 = energy_gradient(m, p, v, x, y2, clip=tau)
        worst = np.maximum(worst, [m.norm(p, g1[0] - g2[0]), m.norm(p, g1[1] - g2[1])])
    assert worst[0] <= dp * (1 + 1e-9) and worst[1] <= dv * (1 + 1e-9)
    assert worst[0] > 0.9 * 2 * tau / n


def test_release_composes_the_budgets_and_respects_the_balls():
    m = Kendall(12)
    ages, y = callosum_data(30, k=12, noise=0.003, rng=0)
    centre = callosum_template(70.0, k=12)
    mech = PrivateGeodesicRegression(manifold=m, n=30, epsilon_p=3.0, epsilon_v=2.0, tau=0.05, ball_center=centre,
                                     ball_radius=np.pi / 16)
    g = mech.privacy_guarantee()
    assert g.epsilon == pytest.approx(5.0) and "sequential composition" in g.rule
    assert mech.delta_p == pytest.approx(2 * 0.05 / 30)
    out = mech.release(age_covariate(ages), y, size=8, rng=1, warmup=200, thin=5, velocity_warmup=60,
                       velocity_draws=20)
    assert out.points.shape == out.velocity.shape == (8, 12, 2)
    assert (m.dist(out.points, centre) <= np.pi / 16 + 1e-9).all()
    assert (m.norm(out.points, out.velocity) <= mech.v_max + 1e-9).all()
    np.testing.assert_allclose(m.to_tangent(out.points, out.velocity), out.velocity, atol=1e-10)
    assert out.chain.rhat.shape == () and out.velocity_chain.rhat.shape == (8,)
    paper = PrivateGeodesicRegression(manifold=m, n=30, epsilon_p=3.0, epsilon_v=2.0, tau=0.05, scale="paper")
    assert paper.privacy_guarantee().epsilon == pytest.approx(10.0)
    unclipped = PrivateGeodesicRegression(manifold=m, n=30, epsilon_p=1.0, epsilon_v=1.0, tau=0.05,
                                          clip_residuals=False)
    assert "not established" in " ".join(unclipped.privacy_guarantee().assumptions)


@pytest.mark.slow
def test_large_budget_release_is_close_to_the_fit():
    m = Sphere(2)
    t, y = sphere_drift(200, noise=0.05, rng=3)
    mech = PrivateGeodesicRegression(manifold=m, n=200, epsilon_p=200.0, epsilon_v=200.0, tau=0.2)
    out = mech.release(t, y, rng=4, warmup=300)
    assert m.dist(out.points, out.fit.footpoint) < 0.05
    assert energy(m, out.points, out.velocity, t, y) < 1.5 * out.fit.energy


def test_assumption_checks_report_what_fails():
    m = Kendall(12)
    ages, y = callosum_data(30, k=12, noise=0.01, rng=0)
    mech = PrivateGeodesicRegression(manifold=m, n=30, epsilon_p=1.0, epsilon_v=1.0, tau=0.01)
    checks = {c.name: c for c in mech.assumptions(age_covariate(ages), y)}
    assert not checks["tau-close fit"].holds and "clipped" in checks["tau-close fit"].detail
    assert checks["covariate range"].holds


@pytest.mark.parametrize("kwargs, args, match", [
    (dict(epsilon_p=0), None, "epsilon must be"),
    (dict(epsilon_v=-1), None, "epsilon must be"),
    (dict(tau=0), None, "tau must be"),
    (dict(), "x_short", "length n = 30"),
    (dict(), "x_out", "outside the public range"),
    (dict(), "y_nan", "non-finite"),
    (dict(ball_center="c", ball_radius=0.01), None, "outside the public data ball"),
])
def test_bad_input_names_the_value(kwargs, args, match):
    m = Kendall(12)
    ages, y = callosum_data(30, k=12, rng=0)
    x = age_covariate(ages)
    if kwargs.get("ball_center") == "c":
        kwargs = dict(kwargs, ball_center=callosum_template(70.0, k=12))
    base = dict(manifold=m, n=30, epsilon_p=1.0, epsilon_v=1.0, tau=0.05) | kwargs
    with pytest.raises(ValueError, match=match):
        mech = PrivateGeodesicRegression(**base)
        if args == "x_short":
            x = x[:-1]
        elif args == "x_out":
            x = x * 3
        elif args == "y_nan":
            y = y.copy()
            y[3, 2, 1] = np.nan
        mech.release(x, y, rng=0, warmup=10)


def test_hyperbolic_needs_tau_m_and_a_ball():
    with pytest.raises(ValueError, match="tau_m"):
        PrivateGeodesicRegression(manifold=Hyperbolic(2), n=10, epsilon_p=1, epsilon_v=1, tau=0.1)


def test_data_sets():
    ages, y = callosum_data(40, k=20, size=2, rng=0)
    assert ages.shape == (2, 40) and y.shape == (2, 40, 20, 2) and ((ages >= 60) & (ages <= 80)).all()
    assert Kendall(20).belongs(y).all()
    # The stand-in changes with age: the 60- and 80-year templates are 0.1 rad or more apart.
    t = callosum_template(np.array([60.0, 80.0]), k=50)
    assert Kendall(50).dist(t[0], t[1]) > 0.1
    cells = load_cells(k=30)
    assert cells.shapes.shape == (650, 30, 2) and set(cells.line) == {"dlm8", "dunn"}
    x = size_covariate(cells.log_size, cells)
    assert x.min() == pytest.approx(-1) and x.max() == pytest.approx(1)
    with pytest.raises(ValueError, match="at most 100"):
        load_cells(k=101)
    times, d = sphere_drift(50, rng=0)
    fit = geodesic_regression(Sphere(2), times, d)
    assert np.linalg.norm(fit.velocity) == pytest.approx(0.8, abs=0.1)
