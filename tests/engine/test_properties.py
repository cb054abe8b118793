"""Property-based tests (hypothesis) over the engine's public entry points.

Whatever the arguments, a public function returns finite values of its documented shape or raises
a ``ValueError`` that names the offending argument; never another exception, a NaN or a hang.
Sizes are bounded (n <= 40, batch <= 3) and each property runs a few dozen examples
(``PROPERTY_EXAMPLES=500`` in the environment searches deeper).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import accounting, bounds
from engine.data import (
    hyperbolic_ball,
    hyperbolic_wrapped_gaussian,
    kendall_noisy,
    random_subspace,
    spd_wishart,
    sphere_ball,
    sphere_cap,
    sphere_vmf,
    spiked_gaussian,
)
from engine.estimators import frechet_mean
from engine.experiments import dp_rgd_eigenvector, dp_rgd_frechet, dp_rgd_hyperbolic, dp_rgd_matrix_completion
from engine.manifolds import SPD, Hyperbolic, Sphere
from engine.mechanisms import DPRGD, EuclideanLaplace, KNormGradient, RiemannianLaplace, TangentGaussian
from tests.engine.registry import SPACES

PROFILE = settings(max_examples=int(os.environ.get("PROPERTY_EXAMPLES", 30)), deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])

#: Anything a caller might pass where a number is expected.
ANYTHING = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**6, 10**6), st.none(), st.booleans(),
    st.text(max_size=4), st.just([1.0, 2.0]),
)
#: Numbers of every sign and size, NaN and infinities included.
NUMBER = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-1000, 1000))
SMALL_INT = st.one_of(st.integers(-3, 40), st.floats(-3.0, 40.0), st.just(float("nan")))
SEED = st.integers(0, 2**32 - 1)


def finite_or_named_error(call, names, shape=None):
    """Run ``call``: a ValueError must name one of ``names``; a result must be finite (of ``shape``)."""
    try:
        out = call()
    except ValueError as err:
        assert any(name in str(err) for name in names), f"{err} names none of {names}"
        return None
    values = np.asarray(out, dtype=float)
    assert np.all(np.isfinite(values)), out
    if shape is not None:
        assert values.shape == shape, (values.shape, shape)
    return out


def _as_int(value) -> int | None:
    """The integer a validator accepts for ``value``, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


# --- manifolds -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(SPACES))
@PROFILE
@given(seed=SEED, batch=st.integers(0, 3), scale=st.floats(0.0, 1.0))
def test_manifold_operations_are_finite_and_keep_their_shapes(name, seed, batch, scale):
    m, step = SPACES[name]
    rng = np.random.default_rng(seed)
    x = m.random_point(batch, rng) if batch else m.random_point(1, rng)[0]
    lead = x.shape[: x.ndim - len(m.point_shape)]
    v = m.random_unit_tangent(x, rng) * (scale * step)
    y = m.exp(x, v)
    assert y.shape == x.shape and np.all(np.isfinite(y)) and np.all(m.belongs(y, atol=1e-6))
    w = m.log(x, y)
    assert w.shape == x.shape and np.all(np.isfinite(w))
    d = m.dist(x, y)
    assert d.shape == lead and np.all(np.isfinite(d)) and np.all(d >= 0)
    assert np.allclose(d, m.norm(x, w), atol=1e-6)


# --- data generators -------------------------------------------------------------------------

def _expected(n, size, point_shape):
    return (*size, _as_int(n), *point_shape)


@PROFILE
@given(n=SMALL_INT, radius=NUMBER, dim=st.integers(-1, 5), size=st.sampled_from([(), (2,)]), seed=SEED,
       sampler=st.sampled_from([sphere_cap, sphere_ball]))
def test_sphere_generators(n, radius, dim, size, seed, sampler):
    out = finite_or_named_error(lambda: sampler(n, radius, dim=dim, size=size, rng=seed), ("n", "radius", "dim"))
    if out is not None:
        assert out.shape == _expected(n, size, (dim + 1,))
        assert np.all(Sphere(dim).belongs(out, atol=1e-8))


@PROFILE
@given(n=SMALL_INT, kappa=NUMBER, dim=st.integers(-1, 5), seed=SEED)
@example(n=3, kappa=1.7976931348623157e308, dim=3, seed=0)  # scipy's sampler overflowed on κ²
def test_von_mises_fisher(n, kappa, dim, seed):
    out = finite_or_named_error(lambda: sphere_vmf(n, kappa, dim=dim, rng=seed), ("n", "concentration", "dim"))
    if out is not None:
        assert out.shape == _expected(n, (), (dim + 1,))


@PROFILE
@given(n=SMALL_INT, spread=NUMBER, dim=st.integers(-1, 4), seed=SEED,
       sampler=st.sampled_from([hyperbolic_ball, hyperbolic_wrapped_gaussian]))
@example(n=1, spread=130.0, dim=4, seed=2647, sampler=hyperbolic_wrapped_gaussian)  # overflowed to inf
def test_hyperbolic_generators(n, spread, dim, seed, sampler):
    out = finite_or_named_error(lambda: sampler(n, spread, dim=dim, rng=seed), ("n", "radius", "std", "dim"))
    if out is not None:
        assert out.shape == _expected(n, (), (dim + 1,))
        assert np.all(Hyperbolic(dim).belongs(out, atol=1e-6))


@PROFILE
@given(n=SMALL_INT, k=st.integers(-1, 4), radius=NUMBER, metric=st.sampled_from(["affine", "log-euclidean", "x"]),
       seed=SEED)
def test_spd_wishart(n, k, radius, metric, seed):
    out = finite_or_named_error(lambda: spd_wishart(n, k=k, radius=radius, metric=metric, rng=seed),
                                ("n", "k", "radius", "metric", "df"))
    if out is not None:
        assert out.shape == _expected(n, (), (k, k))
        assert np.all(np.linalg.eigvalsh(out) > 0)


@PROFILE
@given(n=SMALL_INT, k=st.one_of(st.none(), st.integers(-1, 12)), std=NUMBER,
       template=st.sampled_from(["heart", "nonsense"]), seed=SEED)
def test_kendall_noisy(n, k, std, template, seed):
    out = finite_or_named_error(lambda: kendall_noisy(n, template, k=k, std=std, rng=seed),
                                ("n", "k", "std", "template"))
    if out is not None:
        assert out.shape[:2] == (_as_int(n), k or out.shape[1]) and out.shape[2] == 2


@PROFILE
@given(n=SMALL_INT, d=st.integers(-1, 8), p=st.integers(-1, 8), gap=NUMBER, seed=SEED)
def test_grassmann_generators(n, d, p, gap, seed):
    basis = finite_or_named_error(lambda: random_subspace(d, p, rng=seed), ("d", "p"), shape=None)
    if basis is not None:
        assert basis.shape == (d, p) and np.allclose(basis.T @ basis, np.eye(p), atol=1e-8)
    try:
        sample = spiked_gaussian(n, d, p, eigengap=gap, rng=seed)
    except ValueError as err:
        assert any(name in str(err) for name in ("n", "d", "p", "eigengap")), str(err)
        return
    assert np.all(np.isfinite(sample.data)) and sample.data.shape == (_as_int(n), d)


# --- estimators ------------------------------------------------------------------------------

@PROFILE
@given(n=st.integers(1, 20), seed=SEED, weights=st.one_of(st.none(), st.lists(NUMBER, min_size=1, max_size=20)),
       step=NUMBER)
def test_frechet_mean_on_the_sphere(n, seed, weights, step):
    m = Sphere(2)
    points = sphere_cap(n, 0.5, rng=seed)
    result = finite_or_named_error(lambda: frechet_mean(m, points, weights=weights, step=step).mean,
                                   ("weights", "step"), shape=(3,))
    if result is not None:
        assert m.belongs(result, atol=1e-8)


# --- mechanisms ------------------------------------------------------------------------------

MANIFOLDS = [Sphere(2), Hyperbolic(2), SPD(2)]


@PROFILE
@given(which=st.integers(0, 2), epsilon=ANYTHING, sensitivity=ANYTHING, size=st.integers(1, 5), seed=SEED)
def test_riemannian_laplace(which, epsilon, sensitivity, size, seed):
    m = MANIFOLDS[which]
    foot = m.random_point(1, 0)[0]

    def release():
        mech = RiemannianLaplace(manifold=m, epsilon=epsilon, sensitivity=sensitivity)
        guarantee = mech.privacy_guarantee()
        assert np.isfinite(guarantee.epsilon)
        return mech.release(foot, size=size, rng=seed).points

    finite_or_named_error(release, ("epsilon", "sensitivity", "sigma", "σ"), shape=(size, *m.point_shape))


@PROFILE
@given(epsilon=ANYTHING, sensitivity=ANYTHING, size=st.integers(1, 5), seed=SEED)
def test_euclidean_laplace(epsilon, sensitivity, size, seed):
    m = Sphere(2)
    foot = m.random_point(1, 0)[0]
    finite_or_named_error(
        lambda: EuclideanLaplace(manifold=m, epsilon=epsilon, sensitivity=sensitivity).release(foot, size=size,
                                                                                            rng=seed).points,
        ("epsilon", "sensitivity"), shape=(size, 3))


@PROFILE
@given(epsilon=ANYTHING, delta=ANYTHING, sensitivity=ANYTHING, calibration=st.sampled_from(["classical", "analytic",
                                                                                           "other"]),
       size=st.integers(1, 5), seed=SEED)
def test_tangent_gaussian(epsilon, delta, sensitivity, calibration, size, seed):
    m = Sphere(2)
    foot = m.random_point(1, 0)[0]
    finite_or_named_error(
        lambda: TangentGaussian(manifold=m, epsilon=epsilon, delta=delta, sensitivity=sensitivity,
                                calibration=calibration, base_point=m.origin).release(foot, size=size,
                                                                                     rng=seed).points,
        ("epsilon", "delta", "sensitivity", "calibration"), shape=(size, 3))


@PROFILE
@given(epsilon=ANYTHING, sensitivity=ANYTHING)
def test_k_norm_gradient_validates_eagerly(epsilon, sensitivity):
    finite_or_named_error(
        lambda: KNormGradient(manifold=Sphere(2), epsilon=epsilon, sensitivity=sensitivity).privacy_guarantee().epsilon,
        ("epsilon", "sensitivity"))


@PROFILE
@given(epsilon=ANYTHING, delta=ANYTHING, clip=ANYTHING, steps=ANYTHING, step_size=ANYTHING,
       batch_size=st.one_of(st.none(), ANYTHING))
def test_dp_rgd_validates_eagerly(epsilon, delta, clip, steps, step_size, batch_size):
    def build():
        mech = DPRGD(epsilon=epsilon, delta=delta, clip=clip, steps=steps, step_size=step_size,
                     batch_size=batch_size)
        return mech.epsilon, mech.delta, mech.clip, mech.steps

    finite_or_named_error(build, ("epsilon", "delta", "clip", "steps", "step_size", "batch_size"))


# --- accounting ------------------------------------------------------------------------------

@PROFILE
@given(z=ANYTHING, steps=ANYTHING, delta=ANYTHING, q=ANYTHING)
def test_epsilon_for(z, steps, delta, q):
    finite_or_named_error(lambda: accounting.epsilon_for(z, steps, delta=delta, sampling_rate=q),
                          ("sigma_multiplier", "noise_multiplier", "steps", "delta", "sampling_rate"))


@PROFILE
@given(epsilon=st.one_of(ANYTHING, st.floats(1e-3, 50.0)), steps=st.one_of(ANYTHING, st.integers(1, 500)),
       delta=st.one_of(ANYTHING, st.floats(1e-9, 0.5)))
@example(epsilon=1e-212, steps=1, delta=0.5)  # dp-accounting's bracket search failed with its own error
@example(epsilon=1e-3, steps=1, delta=0.5)
def test_calibrate_sigma(epsilon, steps, delta):
    z = finite_or_named_error(lambda: accounting.calibrate_sigma(epsilon, steps, delta=delta),
                              ("target_epsilon", "epsilon", "steps", "delta"))
    if z is not None:
        assert z > 0


@PROFILE
@given(epsilon=ANYTHING, delta=ANYTHING, steps=ANYTHING, n=ANYTHING, clip=ANYTHING, c=ANYTHING)
def test_paper_sigma(epsilon, delta, steps, n, clip, c):
    finite_or_named_error(lambda: accounting.paper_sigma(epsilon, delta, steps, n, clip, c=c),
                          ("epsilon", "delta", "steps", "n", "clip", "c"))


# --- bounds ----------------------------------------------------------------------------------

@PROFILE
@given(n=st.integers(-5, 10**6), radius=st.floats(-1e6, 1e6),
       kappa=st.floats(-10.0, 10.0))
def test_theorem2_sensitivity_on_numbers(n, radius, kappa):
    finite_or_named_error(lambda: bounds.frechet_mean_sensitivity(n, radius, kappa), ("n", "radius", "r", "kappa"))


@pytest.mark.parametrize("radius", [8.98846567431158e307, np.inf])
def test_theorem2_sensitivity_of_a_huge_radius_is_finite_or_refused(radius):
    finite_or_named_error(lambda: bounds.frechet_mean_sensitivity(1, radius, 0.0), ("radius", "r"))


def test_theorem2_refuses_the_radius_limit():
    with pytest.raises(ValueError, match="radius"):
        bounds.frechet_mean_sensitivity(10, np.pi / 4, 1.0)


@pytest.mark.parametrize(("n", "radius"), [(10, float("nan")), (float("nan"), 0.5)])
def test_theorem2_refuses_nan(n, radius):
    with pytest.raises(ValueError):
        bounds.frechet_mean_sensitivity(n, radius, 1.0)


def test_theorem2_refuses_a_fractional_sample_size():
    with pytest.raises(ValueError, match="n"):
        bounds.frechet_mean_sensitivity(2.5, 0.5, 1.0)


# --- studies: bad parameters are refused before any work -------------------------------------

BAD = st.one_of(st.floats(max_value=0.0), st.just(float("nan")), st.just(float("inf")),
                st.text(alphabet="abxyz", max_size=3))
STUDIES = {
    "eigenvector": (dp_rgd_eigenvector.run, ("reps", "epsilon", "delta", "n", "d", "radius")),
    "frechet": (dp_rgd_frechet.run, ("reps", "epsilon", "delta", "radius", "clip", "step_size")),
    "hyperbolic": (dp_rgd_hyperbolic.run, ("reps", "epsilon", "delta", "height", "diameter", "width")),
    "matrix-completion": (dp_rgd_matrix_completion.run, ("reps", "epsilon", "delta", "steps", "clip", "n")),
}


@pytest.mark.parametrize("study", list(STUDIES))
@PROFILE
@given(data=st.data())
def test_study_parameters_are_checked_before_running(study, data):
    run, names = STUDIES[study]
    name = data.draw(st.sampled_from(names), label="argument")
    value = data.draw(BAD, label="value")
    kwargs = {"epsilons": (value,)} if (study, name) == ("eigenvector", "epsilon") else {name: value}
    with pytest.raises(ValueError) as err:
        run(**kwargs)
    assert name in str(err.value) or (name == "epsilon" and "epsilon" in str(err.value)), str(err.value)
