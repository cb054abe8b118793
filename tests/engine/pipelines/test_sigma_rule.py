"""One σ rule: every pipeline, study and page reads the Riemannian Laplace's scale from the mechanism.

The spaces of the app are homogeneous, where σ = Δ/ε; a caller that wrote Δ/ε itself would agree
with the mechanism there and nowhere else. Each test declares a space not homogeneous (its geometry
unchanged), where the mechanism takes the conservative σ = 2Δ/ε, and checks the caller follows.
"""

import dataclasses

import numpy as np
import pytest

from engine import spaces
from engine.experiments import reimherr_fig1
from engine.manifolds import SPD, Hyperbolic
from engine.mechanisms import RiemannianLaplace
from engine.pipelines import PrivateMeanConfig, run, utility
from engine.pipelines.sample_size_frames import sample_size_frames


def _not_homogeneous(manifold):
    """``manifold`` declaring a footpoint-dependent normaliser: the mechanism then uses 2Δ/ε."""
    manifold.homogeneous = False
    return manifold


@pytest.fixture
def registry_not_homogeneous(monkeypatch):
    """The registry's hyperbolic plane and SPD(2) declared not homogeneous."""
    for key, make in (("hyperbolic", lambda k: _not_homogeneous(Hyperbolic(2))),
                      ("spd", lambda k: _not_homogeneous(SPD(2)))):
        monkeypatch.setitem(spaces.SPACES, key, dataclasses.replace(spaces.SPACES[key], make=make))


def test_the_mechanism_doubles_sigma_off_a_homogeneous_space():
    h2 = _not_homogeneous(Hyperbolic(2))
    assert RiemannianLaplace.scale(manifold=h2, epsilon=0.5, sensitivity=0.1) == pytest.approx(0.4)
    assert RiemannianLaplace(manifold=h2, epsilon=0.5, sensitivity=0.1).sigma == pytest.approx(0.4)
    assert RiemannianLaplace.scale(manifold=Hyperbolic(2), epsilon=0.5, sensitivity=0.1) == pytest.approx(0.2)


def test_private_mean_checks_the_sigma_its_mechanism_uses(registry_not_homogeneous):
    # Δ = 2r/n = 1/15 on H² (h = 1): Δ/ε = 0.67 is below the limit 1, the mechanism's 2Δ/ε = 1.33 is not.
    refused = run(PrivateMeanConfig(space="hyperbolic", source="ball", n=30, radius=1.0, epsilon=0.1,
                                    mechanisms=("exact",), releases=5))
    assert refused.runs[0].skipped is not None
    check = next(c for c in refused.checks if "normalisable" in c.title)
    assert check.level == "error" and "σ = 1.333" in check.text
    released = run(PrivateMeanConfig(space="hyperbolic", source="ball", n=30, radius=1.0, epsilon=1.0,
                                     mechanisms=("exact",), releases=5))
    laplace = released.runs[0]
    assert laplace.skipped is None and laplace.sigma == pytest.approx(2 * laplace.sensitivity / 1.0)
    check = next(c for c in released.checks if "normalisable" in c.title)
    assert check.level == "success" and f"σ = {laplace.sigma:.4g}" in check.text


def test_sample_size_frames_use_the_mechanisms_sigma():
    h2 = _not_homogeneous(Hyperbolic(2))
    data = h2.exp(h2.origin, np.array([[0.0, 0.3, 0.0], [0.0, 0.0, -0.2], [0.0, -0.1, 0.1]] * 10))
    # Δ(n) = 2/n: n = 3 is normalisable at Δ/ε = 0.67 but not at the mechanism's 1.33 (limit 1): dropped.
    f = sample_size_frames(h2, data, sizes=[3, 5, 30], radius=1.0, epsilon=1.0, size=4, rng=0)
    np.testing.assert_allclose(f.sigmas, 2 * f.sensitivities / 1.0)
    assert f.dropped == (3,) and f.sizes.tolist() == [5, 30]


def test_utility_page_uses_the_mechanisms_sigma(registry_not_homogeneous):
    constant, n, eps = utility.noise_constant("spd", 1.0, "theorem"), 10, 1.0
    rows = utility.release_summary("spd", 1.0, n, 5, 0, constant, (eps,)).set_index("mechanism")
    assert rows.loc["exact", "sigma"] == pytest.approx(2 * constant / (n * eps))
    scales = utility.noise_scales("spd", 1.0, constant, n, eps)
    assert scales["exact"] == rows.loc["exact", "sigma"]
    assert scales["euclid"] == rows.loc["euclid", "sigma"]


def test_figure1_study_uses_the_mechanisms_sigma(monkeypatch):
    settings = tuple(dataclasses.replace(s, manifold=_not_homogeneous(SPD(2))) if s.key == "spd" else s
                     for s in reimherr_fig1.SETTINGS)
    monkeypatch.setattr(reimherr_fig1, "SETTINGS", settings)
    cell = reimherr_fig1.simulate_cell("spd", 10, 0, 3, 1.0, "theorem", rng=np.random.default_rng(0))
    constant = reimherr_fig1.sensitivity_constant(next(s for s in settings if s.key == "spd"), "theorem")
    assert cell["sigma"]["exact"] == pytest.approx(2 * constant / 10)
