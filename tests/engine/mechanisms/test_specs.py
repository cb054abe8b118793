"""One spec per mechanism (``engine.mechanisms.specs``): one vocabulary, one σ.

The registry is complete and the palette reads it; no table keyed by a mechanism's name and no σ
formula remains outside the specs and the mechanisms; the audit's Figure 1 targets claim the σ the
mechanism computes, also on a space that is not homogeneous (σ = 2Δ/ε there).
"""

import dataclasses
import re
import types
from pathlib import Path

import numpy as np
import pytest

from engine import spaces
from engine.audit.pairs import frechet_gap, replace_one_pair
from engine.audit.uses import PLAYGROUND_KEYS, figure1_sigma, figure1_target, playground_target
from engine.bounds import frechet_mean_sensitivity
from engine.manifolds import Sphere
from engine.mechanisms import specs
from engine.mechanisms.specs.spec import FIGURE1_SENSITIVITIES
from engine.pipelines import figure1_setting, private_mean
from engine.viz import palette
from ui import who_wins

ROOT = Path(__file__).resolve().parents[3]


def test_every_spec_is_complete_and_the_palette_reads_it():
    keys = [spec.key for spec in specs.REGISTRY]
    assert len(set(keys)) == len(keys) == len(specs.SPECS)
    assert len({spec.color for spec in specs.REGISTRY}) == len(keys)
    for spec in specs.REGISTRY:
        assert spec.key == spec.key.strip().lower() and spec.label and spec.long_label and spec.chip
        assert (palette.color(spec.key), palette.label(spec.key), palette.symbol(spec.key)) == (
            spec.color, spec.label, spec.symbol)
        assert palette.color(spec.label) == spec.color  # a legend label names its mechanism too
        assert palette.LOOKS[spec.key] == palette.Look.of(spec)  # colour, symbol, dash and rim
        assert spec.guarantee in ("ε-DP", "(ε, δ)-DP", "none")
        assert callable(spec.build) and callable(spec.scale)
        assert spec.draw is not None or not spec.figure1
    assert tuple(private_mean.MECHANISMS) == tuple(spec.key for spec in specs.PLAYGROUND)
    assert figure1_setting.MECHANISMS == tuple(spec.key for spec in specs.FIGURE1)
    with pytest.raises(ValueError, match="'laplace'"):
        specs.spec("laplace")


def test_each_spec_builds_the_mechanism_whose_sigma_it_states():
    s2 = Sphere(2)
    for spec in specs.REGISTRY:
        built = spec.build(s2, epsilon=0.5, sensitivity=0.1, delta=1e-5, m0=s2.origin)
        assert built.sigma == spec.scale(s2, epsilon=0.5, sensitivity=0.1, delta=1e-5)
        assert (built.privacy_guarantee().delta > 0) == spec.needs_delta


@pytest.mark.parametrize("flag", ["figure1", "utility"])
def test_a_sweep_mechanism_with_a_sensitivity_the_sweeps_cannot_compute_is_refused(flag):
    """Figure 1's sweeps compute C/n or Δ_E at each n (``figure1_setting.sensitivity``): a tangent spec offered to them
    would be calibrated to the wrong Δ, so the registry refuses it when it is declared."""
    tangent = specs.spec("gauss")
    assert tangent.sensitivity not in FIGURE1_SENSITIVITIES
    with pytest.raises(ValueError, match=r"gauss: Figure 1's sweeps .* got 'tangent'"):
        dataclasses.replace(tangent, **{flag: True})
    assert {spec.sensitivity for spec in specs.UTILITY} <= set(FIGURE1_SENSITIVITIES)


#: Files that held a mechanism table or a branch on a mechanism's name before the specs.
MECHANISM_USERS = ("engine/pipelines/private_mean.py", "engine/pipelines/utility.py",
                   "engine/pipelines/figure1_setting.py", "engine/pipelines/epsilon_frames.py",
                   "engine/audit/uses.py", "engine/audit/registry.py", "engine/viz/palette.py", "ui/who_wins.py",
                   "ui/playground", "ui/utility", "pages/1_Private_mean_playground.py")
#: The other vocabulary the palette and Figure 1 used to key mechanisms by.
OLD_NAMES = re.compile(r"""["'](riemannian laplace( \(mh\))?|euclidean laplace|paper euclidean baseline|"""
                       r"""tangent gaussian)["']""")
#: A mechanism key as a dict key, compared, or tested for membership ("paper" also names the Utility
#: page's grid of n, so only the playground's keys are checked).
KEY_BRANCH = re.compile(r"""["'](exact|mh|euclid|gauss)["']\s*(:|==|!=|\bin\b)|"""
                        r"""(==|!=|\bin)\s*\(?["'](exact|mh|euclid|gauss)["']""")


def _sources(*parts):
    for part in parts:
        path = ROOT / part
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


@pytest.mark.guard
def test_no_mechanism_table_or_name_branch_outside_the_specs():
    offenders = []
    for path in _sources("engine/pipelines", "engine/audit", "engine/viz", "ui", "pages"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if OLD_NAMES.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    for path in _sources(*MECHANISM_USERS):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if KEY_BRANCH.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


#: σ written as a multiple of Δ/ε, or Δ taken back from σ (Δ = σε): the mechanisms' job.
SIGMA_FORMULA = re.compile(r"\b2(\.0)?\s*\*\s*[\w.\[\]\"']+\s*/\s*\(?\s*[\w.]*eps|\bsigma\s*\*\s*[\w.]*eps")


def test_no_sigma_formula_outside_the_mechanisms():
    offenders = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
                 for path in _sources("engine/pipelines", "engine/audit", "ui", "pages")
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 if SIGMA_FORMULA.search(line.split("#")[0])]
    assert offenders == []


@pytest.fixture
def sphere_not_homogeneous(monkeypatch):
    """Figure 1's sphere declared not homogeneous (its geometry unchanged): the Laplace takes σ = 2Δ/ε."""
    sphere = Sphere(2)
    sphere.homogeneous = False
    settings = tuple(dataclasses.replace(s, manifold=sphere) if s.key == "sphere" else s
                     for s in figure1_setting.SETTINGS)
    monkeypatch.setattr(figure1_setting, "SETTINGS", settings)
    return sphere


def test_the_figure1_audit_claims_the_mechanisms_sigma_off_a_homogeneous_space(sphere_not_homogeneous):
    r, n, eps = np.pi / 8, 10, 1.0
    setting = next(s for s in figure1_setting.SETTINGS if s.key == "sphere")
    constant = figure1_setting.sensitivity_constant(setting, "theorem")
    sigma = figure1_sigma("exact", "sphere", r, n, eps)
    assert sigma == pytest.approx(2 * constant / (n * eps), rel=1e-12)
    target = figure1_target("exact", "sphere", r, n=n, epsilon=eps)
    m = sphere_not_homogeneous
    x = target.draw(0, 5, np.random.default_rng(0))
    distances = [m.dist(x, mean) for mean in _pair_means(m, n, r)]
    # The claimed law's log-likelihood ratio divides by the σ the releases were drawn with.
    np.testing.assert_allclose(target.statistic(x) * sigma, distances[1] - distances[0], rtol=1e-9, atol=1e-12)


def _pair_means(m, n, r):
    return replace_one_pair(m, n, r, gap=frechet_gap).frechet_means()


@pytest.mark.parametrize("key", ["exact", "rgauss"])
def test_the_playground_audit_uses_the_statistic_of_the_law_its_spec_claims(key):
    """The statistic comes from the spec's law (``MechanismSpec.law``), not from its sensitivity: the Riemannian
    Gaussian, calibrated by Theorem 2's Δ like the Laplace, is audited by the Gaussian log-likelihood ratio."""
    r, n = np.pi / 8, 10
    target = playground_target(key, "sphere", r, n=n)
    m = Sphere(2)
    x = target.draw(0, 7, np.random.default_rng(1))
    near, far = (m.dist(x, mean) for mean in _pair_means(m, n, r))
    sigma = specs.spec(key).build(m, epsilon=1.0, sensitivity=float(frechet_mean_sensitivity(n, r, m.kappa_max)),
                                  delta=1e-5, m0=m.origin).sigma
    laplace, gauss = (far - near) / sigma, (far**2 - near**2) / (2 * sigma**2)
    expected, wrong = (gauss, laplace) if key == "rgauss" else (laplace, gauss)
    np.testing.assert_allclose(target.statistic(x), expected, rtol=1e-9, atol=1e-12)
    assert not np.allclose(target.statistic(x), wrong, rtol=1e-3)


def test_the_playground_audit_is_the_one_its_spec_builds(monkeypatch):
    """The audit reads its pair and its target from the spec (``audit_pair_gap``, ``audit_target``): a spec that
    answers differently changes the playground's target, with no table in ``engine.audit`` to edit."""
    calls = []

    def audit_target(mechanism, pair, *, sensitivity):
        calls.append(sensitivity)
        return specs.EXACT.audit_target(mechanism, pair, sensitivity=sensitivity)

    monkeypatch.setitem(specs.SPECS, "exact", dataclasses.replace(specs.EXACT, audit_target=audit_target))
    target = playground_target("exact", "sphere", np.pi / 8, n=10)
    assert calls == [pytest.approx(float(frechet_mean_sensitivity(10, np.pi / 8, 1.0)))]
    assert target.label.startswith(specs.EXACT.audit_label)


#: A branch on a mechanism's kind (what its spec's sensitivity, statistic or guarantee is, or its law's table).
KIND_BRANCH = re.compile(r"\.(sensitivity|statistic|guarantee|law)\s*(==|!=|\bin\b)|\[\w*\.?(sensitivity|law)\]")


def test_no_branch_on_a_mechanisms_kind_in_the_playgrounds_views_or_the_audit():
    """The noise formula and the audit target are the spec's own (``noise_formula``, ``audit_target``)."""
    offenders = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
                 for path in _sources("ui/playground", "engine/audit")
                 for number, line in enumerate(path.read_text().splitlines(), 1) if KIND_BRANCH.search(line)]
    assert offenders == []
    assert KIND_BRANCH.search('if spec.sensitivity == "ambient":') and KIND_BRANCH.search("_GAPS[spec.sensitivity]")


def _noise_numbers(spec, **run):
    return specs.NoiseNumbers(**{**dict(epsilon=1.0, delta=1e-3, sigma=0.2, sensitivity=0.1, kappa_max=1.0,
                                        footpoint_dependent=False, ambient_radius=0.39, ambient_radius_tex="2\\sin(r/2)",
                                        lipschitz=1.03), **run})


def test_each_playground_spec_writes_the_sigma_it_was_given_and_none_without_one():
    for spec in specs.PLAYGROUND:
        formula = spec.noise_formula(_noise_numbers(spec))
        assert formula.text and formula.tex and "0.2" in formula.tex[-1]
    assert specs.EXACT.noise_formula(_noise_numbers(specs.EXACT, sigma=float("nan"))) is None
    assert specs.EUCLID.noise_formula(_noise_numbers(specs.EUCLID, ambient_radius=None)) is None


def test_only_the_laplace_writes_theorem_1s_sigma():
    """σ = Δ/ε (2Δ/ε off a homogeneous space) is Theorem 1's, for the Riemannian Laplace: the Riemannian Gaussian,
    calibrated from the same Δ, takes σ from its μ, and said Δ/ε before the spec wrote its own formula."""
    assert "Theorem 1 allows" in specs.EXACT.noise_formula(_noise_numbers(specs.EXACT)).text
    assert "Theorem 1 needs" in specs.MH.noise_formula(_noise_numbers(specs.MH, footpoint_dependent=True)).text
    gaussian = specs.RGAUSS.noise_formula(_noise_numbers(specs.RGAUSS))
    assert "Theorem 1" not in gaussian.text and "(1, 0.001)" in gaussian.text
    assert not any(r"\frac{\Delta}{\varepsilon}" in tex for tex in gaussian.tex)


def test_the_playground_audit_names_each_mechanism_by_its_spec():
    for key in PLAYGROUND_KEYS:
        target = playground_target(key, "sphere", np.pi / 8, n=10)
        assert target.label.startswith(f"{specs.spec(key).audit_label} as the playground runs it")


def test_the_playground_run_says_when_sigma_is_doubled(monkeypatch):
    """The run carries the mechanism's own footpoint dependence, so the page's σ formula (Δ/ε or 2Δ/ε)
    matches the σ it prints on a space that is not homogeneous too."""
    def make(k):
        sphere = Sphere(2)
        sphere.homogeneous = False
        return sphere

    monkeypatch.setitem(spaces.SPACES, "sphere", dataclasses.replace(spaces.SPACES["sphere"], make=make))
    config = private_mean.PrivateMeanConfig(mechanisms=("exact", "mh"), releases=20, burn_in=10, thin=1)
    for laplace in private_mean.run(config).runs:
        assert laplace.footpoint_dependent is True
        assert laplace.sigma == pytest.approx(2 * laplace.sensitivity / config.epsilon, rel=1e-12)
    homogeneous = private_mean.run(dataclasses.replace(config, space="hyperbolic", source="ball", radius=0.5))
    assert [run.footpoint_dependent for run in homogeneous.runs] == [False, False]


def test_the_who_wins_sentence_never_takes_another_intrinsic_law_for_the_laplace():
    """A playground run of the Riemannian Gaussian and the Euclidean Laplace, without the Riemannian Laplace, has no
    who-wins sentence (it compares the Laplace's law): the Gaussian, calibrated by the same Theorem 2, is not it."""
    runs = [private_mean.MechanismRun(key=key, label=key, releases=np.zeros((1, 3))) for key in ("rgauss", "euclid")]
    theorem2 = private_mean.Theorem2Sensitivity(h=0.9, sensitivity=0.1)
    result = types.SimpleNamespace(runs=runs, theorem2=theorem2)
    assert who_wins.playground_verdict(result, private_mean.PrivateMeanConfig()) is None
