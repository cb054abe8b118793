"""Every mechanism speaks one protocol: ``release``/``fit`` returning a ``Release`` of the
right shape, and a ``privacy_guarantee()`` stated before any release."""

import inspect
import math

import numpy as np
import pytest

import engine.mechanisms as mechanisms
from engine.data import subspace_points
from engine.estimators.riemannian_problems import FrechetMeanProblem
from engine.manifolds import Euclidean, Sphere
from engine.mechanisms import (
    DPRGD,
    AnalyzeGauss,
    BinghamSubspace,
    EuclideanLaplace,
    ExactSubspace,
    GradientKNG,
    IterativeMechanism,
    KNormGradient,
    Mechanism,
    PrivacyGuarantee,
    Release,
    RiemannianLaplace,
    SubsampleAggregateSubspace,
    TangentGaussian,
)
from engine.mechanisms.dp_geodesic_regression import PrivateGeodesicRegression
from tests.plain_text import code_spelling

S2, R2 = Sphere(2), Euclidean(2)
RECORDS = np.random.default_rng(0).uniform(-0.5, 0.5, (10, 2))
SUBSPACE_DATA = subspace_points(60, 4, 1, rng=0).data


def _regression():
    mech = PrivateGeodesicRegression(manifold=R2, n=10, epsilon_p=1.0, epsilon_v=1.0, tau=1.0, v_max=2.0)
    x = np.linspace(-1.0, 1.0, 10)
    return mech, lambda size, rng: mech.release(x, RECORDS, size=size, rng=rng, warmup=20, thin=2,
                                                 velocity_warmup=10, velocity_draws=2, diagnostics=False), (2,)


def _aggregate():
    mech = SubsampleAggregateSubspace(k=1, epsilon=1.0, delta=1e-6, gamma=1e-3)
    data = subspace_points(mech.min_samples, 4, 1, rng=1).data
    return mech, lambda size, rng: mech.release(data, size=size, rng=rng), (4, 1)


def _dp_rgd():
    mech = DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=5, step_size=0.1, n=10)
    problem = FrechetMeanProblem(S2, S2.exp(S2.origin, np.pad(RECORDS, ((0, 0), (0, 1)))))
    return mech, lambda size, rng: mech.fit(problem, np.broadcast_to(S2.origin, (size, 3)), rng=rng), (3,)


def _gradient_kng():
    """KNG on ℓ(θ) = |θ|²/2: the gradient norm |θ| is the data, the optimum 0 the sampler's centre."""
    mech = GradientKNG(manifold=R2, epsilon=1.0, sensitivity=0.1)
    return mech, lambda size, rng: mech.release(lambda th: np.linalg.norm(th, axis=-1), np.zeros(2), size=size,
                                                rng=rng, warmup=20, thin=2, diagnostics=False), (2,)


def _simple(mech, data, shape, **kwargs):
    return mech, lambda size, rng: mech.release(data, size=size, rng=rng, **kwargs), shape


#: Every mechanism class with a factory: (mechanism, release(size, rng), point shape).
MECHANISMS = {
    "riemannian laplace": lambda: _simple(RiemannianLaplace(manifold=S2, epsilon=1.0, sensitivity=0.1), S2.origin,
                                          (3,)),
    "riemannian laplace (mh)": lambda: _simple(RiemannianLaplace(manifold=S2, epsilon=1.0, sensitivity=0.1),
                                               S2.origin, (3,), method="mh", burn_in=40, thin=2),
    "euclidean laplace": lambda: _simple(EuclideanLaplace(manifold=S2, epsilon=1.0, sensitivity=0.1), S2.origin, (3,)),
    "tangent gaussian": lambda: _simple(TangentGaussian(manifold=S2, epsilon=0.5, delta=1e-5, sensitivity=0.1,
                                                        base_point=S2.origin), S2.origin, (3,)),
    "k-norm gradient": lambda: _simple(KNormGradient(manifold=R2, epsilon=1.0, sensitivity=0.1), RECORDS, (2,),
                                       burn_in=40, thin=2),
    "gradient kng": _gradient_kng,
    "geodesic regression": _regression,
    "exact subspace": lambda: _simple(ExactSubspace(k=1, epsilon=1.0, delta=1e-6), SUBSPACE_DATA, (4, 1)),
    "subsample and aggregate": _aggregate,
    "analyze gauss": lambda: _simple(AnalyzeGauss(k=1, epsilon=1.0, delta=1e-6), SUBSPACE_DATA, (4, 1)),
    "bingham": lambda: _simple(BinghamSubspace(k=1, epsilon=1.0), SUBSPACE_DATA, (4, 1)),
    "dp-rgd": _dp_rgd,
}


@pytest.mark.parametrize("name", MECHANISMS)
def test_mechanism_follows_the_protocol(name):
    mech, release, shape = MECHANISMS[name]()
    assert isinstance(mech, Mechanism) or isinstance(mech, IterativeMechanism)
    before = mech.privacy_guarantee()
    assert isinstance(before, PrivacyGuarantee)
    assert before.mechanism and before.rule and before.reason and isinstance(before.assumptions, tuple)
    assert before.epsilon > 0 and 0 <= before.delta < 1 and math.isfinite(before.sigma) and before.sigma > 0
    out = release(3, 0)
    assert isinstance(out, Release)
    assert out.points.shape == (3, *shape)
    assert out.guarantee == before == mech.privacy_guarantee()
    assert out.sigma == before.sigma
    # An approximate release carries its chain's diagnostics; an exact one has none.
    assert isinstance(out.exact, bool) and (out.chain is None) == out.exact


def test_every_exported_mechanism_is_covered():
    """A new mechanism in ``engine.mechanisms`` must be added to ``MECHANISMS`` above."""
    covered = {type(MECHANISMS[name]()[0]) for name in MECHANISMS}
    exported = {obj for _, obj in inspect.getmembers(mechanisms, inspect.isclass)
                if hasattr(obj, "privacy_guarantee") and obj not in (Mechanism, IterativeMechanism)}
    assert exported <= covered


def test_an_object_without_the_protocol_is_refused():
    assert not isinstance(object(), Mechanism) and not isinstance(np.zeros(3), IterativeMechanism)


GUARANTEE_VARIANTS = {
    "laplace in a ball": lambda: RiemannianLaplace(manifold=S2, epsilon=1.0, sensitivity=0.1,
                                                   ball_center=S2.origin, ball_radius=0.4),
    "classical gaussian": lambda: TangentGaussian(manifold=S2, epsilon=0.5, delta=1e-5, sensitivity=0.1,
                                                  calibration="classical", public_footpoint=True),
    "kng in a ball": lambda: KNormGradient(manifold=S2, epsilon=1.0, sensitivity=0.1, ball_center=S2.origin,
                                           ball_radius=0.4),
    "gradient kng at the paper's scale": lambda: GradientKNG(manifold=R2, epsilon=1.0, sensitivity=0.1, scale="paper"),
    "dp-rgd at the paper's sigma": lambda: DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=5, step_size=0.1, n=10,
                                                 sigma="paper"),
}


@pytest.mark.parametrize("name", [*MECHANISMS, *GUARANTEE_VARIANTS])
def test_guarantee_is_written_for_people(name):
    mech = GUARANTEE_VARIANTS[name]() if name in GUARANTEE_VARIANTS else MECHANISMS[name]()[0]
    g = mech.privacy_guarantee()
    for text in (g.mechanism, g.rule, g.reason, *g.assumptions):
        assert code_spelling(text) is None, (code_spelling(text), text)
