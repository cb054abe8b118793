"""Named audits: every mechanism of the engine on its spaces, and the positive controls.

``AUDITS[name].build(space, epsilon)`` returns an ``AuditTarget``; ``run_audit`` runs it. The
settings are the papers': data within r of the space's origin (S²: π/8; SPD(2): 1.5, Figure 1 of
Reimherr et al.; H²: 1; Kendall Σ⁴₂: π/16; the lines Gr(3, 1): π/8; R²: 1) and n = 10 records, the
adversarial replace-one pair of ``engine.audit.pairs``; DP-RGD and its control follow Han et al. §6.1. The Euclidean
baselines, the analytic tangent Gaussian and the paper's baseline run through the code of the page
or study that uses them (``engine.audit.uses``).

**Spaces.** No entry lists its spaces by hand: each reads them, when asked, from the space registry
(``engine.spaces.SPACES``, every entry with an ``audit`` setting) and what its mechanism needs
(``engine.audit.space_rules``), so a space added by README's recipe is audited by every mechanism
the pages offer on it.

**Mechanisms of the playground.** A mechanism the playground offers (``engine.mechanisms.specs.PLAYGROUND``, exact
draws) that no entry names as its ``mechanism`` is audited through the playground's pipeline by an entry made from
its spec (``playground-<key>``), so a mechanism added by README's recipe has its audit and its twin.

**Twins.** Every mechanism's entry has a positive control ``twin-<name>`` (``engine.audit.twin``): the
same target built at 2ε, claiming ε. The audit has power on the entry only if it flags its twin.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

from engine.audit import space_rules, subspace
from engine.audit.controls import ReusedRandomnessLaplace, theorem2_without_factor
from engine.audit.mechanisms import (
    dp_rgd_target,
    kng_target,
    laplace_target,
    riemannian_gaussian_target,
    tangent_gaussian_target,
)
from engine.audit.pairs import frechet_gap, replace_one_pair
from engine.audit.problems import far_replace_one_problems
from engine.audit.regression import regression_audit
from engine.audit.space_rules import audit_spaces
from engine.audit.target import AuditTarget, reach_note
from engine.audit.twin import twin_target
from engine.audit.uses import figure1_target, playground_target
from engine.bounds import (
    frechet_gradient_sensitivity,
    frechet_mean_sensitivity,
    tangent_mean_sensitivity,
)
from engine.mechanisms import DPRGD, KNormGradient, RiemannianLaplace, TangentGaussian, specs
from engine.mechanisms.riemannian_gaussian import RiemannianGaussian
from engine.validation import check_positive

GAUSSIAN_DELTA = 1e-5
#: Budget of the Gaussian (ε, δ) entries: their loss beyond ε lives on events of probability ~1e-3, and
#: about 400,000 releases per side flag a 2× twin (reach 2ε) with every seed tried (benchmarks/RESULTS.md).
GAUSSIAN_SAMPLES = 400_000


def space_label(key: str) -> str:
    """The label of a space of ``audit_spaces()`` or of a data setting of the subspace audits."""
    spaces = audit_spaces()
    return spaces[key].label if key in spaces else subspace.SETTINGS[key]


@dataclass(frozen=True)
class AuditSpec:
    """A named audit.

    Attributes
    ----------
    name, title, description : identification and a sentence on what it checks.
    space_rule : callable ``() -> tuple[str, ...]``
        The keys of ``audit_spaces()`` (or of ``subspace.SETTINGS``, data in R^d) it runs on, read from
        the registries when asked (``spaces``; ``default_space`` the first).
    default_epsilon, default_samples : CLI and page defaults.
    control : a deliberately broken mechanism (the audit must flag it).
    build : ``(space, epsilon) -> AuditTarget``.
    has_twin : whether ``twin-<name>`` (built at 2ε, claiming ε) is registered; ``False`` only where the
        guarantee is provably loose by 2 for every pair, so the twin keeps its claim (the notes say why).
    mechanism : the key of the playground's mechanism (``engine.mechanisms.specs``) it audits, or "".
    """

    name: str
    title: str
    description: str
    space_rule: Callable[[], tuple[str, ...]]
    default_epsilon: float
    default_samples: int
    control: bool
    build: Callable[[str, float], AuditTarget]
    has_twin: bool = True
    mechanism: str = ""

    @property
    def spaces(self) -> tuple[str, ...]:
        """The spaces it runs on, from the registries as they are now."""
        return tuple(self.space_rule())

    @property
    def default_space(self) -> str:
        return self.spaces[0]

    def target(self, space: str | None = None, epsilon: float | None = None) -> AuditTarget:
        """The target on ``space`` (default the first) at ``epsilon`` (default ``default_epsilon``)."""
        space = self.default_space if space is None else space
        if space not in self.spaces:
            raise ValueError(f"space must be one of {self.spaces} for audit {self.name!r}, got {space!r}")
        eps = check_positive("epsilon", self.default_epsilon if epsilon is None else epsilon)
        return self.build(space, eps)


def _setting(space: str, gap=frechet_gap):
    s = audit_spaces()[space]
    m = s.make()
    return s, m, replace_one_pair(m, s.n, s.radius, gap=gap)


def _laplace(space, eps):
    s, m, pair = _setting(space)
    delta = float(frechet_mean_sensitivity(s.n, s.radius, m.kappa_max))
    mech = RiemannianLaplace(manifold=m, epsilon=eps, sensitivity=delta)
    gap = float(m.dist(*pair.frechet_means()))
    return laplace_target(mech, pair, notes=reach_note(gap, delta, "the Fréchet mean"))


def _riemannian_gaussian(space, eps):
    s, m, pair = _setting(space)
    delta = float(frechet_mean_sensitivity(s.n, s.radius, m.kappa_max))
    mech = RiemannianGaussian(manifold=m, epsilon=eps, delta=GAUSSIAN_DELTA, sensitivity=delta)
    gap = float(m.dist(*pair.frechet_means()))
    return riemannian_gaussian_target(mech, pair, notes=reach_note(gap, delta, "the Fréchet mean"))


def _euclidean(space, eps):
    s = audit_spaces()[space]
    return playground_target(specs.EUCLID.key, space, s.radius, n=s.n, epsilon=eps, k=4)


def _euclidean_fig1(space, eps):
    s = audit_spaces()[space]
    return figure1_target(specs.EUCLID.key, space, s.radius, n=s.n, epsilon=eps)


def _tangent_gaussian(space, eps):
    s, m, pair = _setting(space)
    delta = float(tangent_mean_sensitivity(s.n, s.radius, m.kappa_max))
    mech = TangentGaussian(manifold=m, epsilon=eps, delta=GAUSSIAN_DELTA, sensitivity=delta, base_point=m.origin,
                           calibration="classical" if eps <= 1 else "analytic")
    means = pair.frechet_means()
    gap = float(m.norm(m.origin, m.log(m.origin, means[0]) - m.log(m.origin, means[1])))
    return tangent_gaussian_target(mech, pair, notes=reach_note(gap, delta, "Log at m₀ of the Fréchet mean"))


def _tangent_gaussian_analytic(space, eps):
    s = audit_spaces()[space]
    return playground_target(specs.GAUSS.key, space, s.radius, n=s.n, epsilon=eps, delta=GAUSSIAN_DELTA, k=4)


def _kng(space, eps):
    s, m, pair = _setting(space)
    delta = float(frechet_gradient_sensitivity(s.n, s.radius, m.kappa_max))
    ball = dict(ball_center=m.origin, ball_radius=s.radius) if m.kappa_max > 0 else {}
    mech = KNormGradient(manifold=m, epsilon=eps, sensitivity=delta, **ball)
    return kng_target(mech, pair)


DP_RGD = dict(n=20, steps=20, step_size=0.05, clip=1.0, delta=1e-5, distance=4.0)
PAPER_RULE = dict(n=300, steps=300, step_size=0.01, clip=1.0, delta=1e-3, distance=10.0)


def _dp_rgd_run(space, eps, settings, sigma):
    m = audit_spaces()[space].make()
    first, second, description = far_replace_one_problems(m, settings["n"], settings["distance"])
    mech = DPRGD(epsilon=eps, delta=settings["delta"], clip=settings["clip"], steps=settings["steps"],
                 step_size=settings["step_size"], sigma=sigma, n=settings["n"])
    return m, mech, first, second, description


def _dp_rgd(space, eps):
    m, mech, first, second, description = _dp_rgd_run(space, eps, DP_RGD, None)
    return dp_rgd_target(mech, first, second, m.origin, pair_description=description, notes=(
        "The claim is the RDP accountant's ε; the exact ε of the composed Gaussian steps "
        "(the most any test can show) is below it, as RDP conversion is not tight."))


def _half_noise(space, eps):
    s, m, pair = _setting(space)
    delta = float(frechet_mean_sensitivity(s.n, s.radius, m.kappa_max))
    mech = RiemannianLaplace(manifold=m, epsilon=2.0 * eps, sensitivity=delta)
    return laplace_target(mech, pair, claimed_epsilon=eps, label=f"Laplace with half the noise scale on {m.name}",
                          notes="σ = sensitivity / (2 ε): the scale its ε needs, halved.")


def _no_factor(space, eps):
    s, m, pair = _setting(space)
    delta = theorem2_without_factor(s.n, s.radius, m.kappa_max)
    mech = RiemannianLaplace(manifold=m, epsilon=eps, sensitivity=delta)
    gap = float(m.dist(*pair.frechet_means()))
    return laplace_target(
        mech, pair, label=f"Laplace with Theorem 2 without (2 − h) on {m.name}",
        notes=(f"Sensitivity 2r/(n h) = {delta:.4g} instead of 2r(2 − h)/(n h). The adversarial pair moves the mean "
               f"by {gap:.4g} = {gap / delta:.2f} of this smaller value, so even the broken mechanism is "
               f"{gap / delta:.2f} ε-DP on it: the factor (2 − h) is slack for every pair we can build, "
               "and no audit can flag a bound that still covers the true sensitivity."))


def _paper_rule(space, eps):
    m, mech, first, second, description = _dp_rgd_run(space, eps, PAPER_RULE, "paper")
    target = dp_rgd_target(mech, first, second, m.origin, pair_description=description, claimed_epsilon=eps,
                           batch_size=50_000)
    # With the public n the guarantee quotes the accountant's epsilon for this sigma and n.
    guarantee, exact = mech.privacy_guarantee().epsilon, target.reachable_epsilon
    return dataclasses.replace(
        target,
        label=(f"DP-RGD with the paper's rule c = 1 on {m.name} (n = T = 300, δ = 1e-3): claims ε {eps:g}, "
               f"guarantee {guarantee:.3g} (RDP), exactly {exact:.3g}"),
        notes=(f"The paper's σ² = T log(1/δ) L₀²/(n²ε²) claims ε = {eps:g}; that claim is "
               f"what is audited, and it is not a guarantee. The guarantee for this σ is the RDP accountant's "
               f"ε = {guarantee:.3g} (what the engine reports for the paper's rule); the exact ε of the "
               f"composed Gaussian steps is {exact:.3g}, the most any test on this pair can show. So {eps:g} is "
               f"false and {guarantee:.3g} holds (at the paper's ε = 0.1 a test needs about 2 million runs per "
               "side to refute the claim). The defect is in the noise rule, not the geometry: R^1 keeps a million 300-step "
               "runs per side affordable (SPD(2) costs 50 times more)."))


def _reused(space, eps):
    s, m, pair = _setting(space)
    delta = float(frechet_mean_sensitivity(s.n, s.radius, m.kappa_max))
    mech = ReusedRandomnessLaplace(manifold=m, epsilon=eps, sensitivity=delta)
    target = laplace_target(mech, pair, label=f"Laplace sampler that reuses its random numbers on {m.name}",
                            notes=("Every call reseeds the same generator: the release is a function of the data. "
                                   "The audit sees it because calls of 500 draws repeat the same points."),
                            batch_size=500)
    return dataclasses.replace(target, unseen_by_curve=mech.UNSEEN_BY_CURVE)


def _karcher_baseline(space, eps):
    s = audit_spaces()[space]
    return figure1_target(specs.PAPER.key, space, s.radius, n=s.n, epsilon=eps)


def _spec(name, title, description, space_rule, build, *, eps=1.0, samples=200_000, control=False, has_twin=True,
          mechanism=""):
    return AuditSpec(name, title, description, space_rule, eps, samples, control, build, has_twin, mechanism)


def _through_playground(key):
    def build(space, eps):
        s = audit_spaces()[space]
        return playground_target(key, space, s.radius, n=s.n, epsilon=eps, delta=GAUSSIAN_DELTA, k=4)
    return build


def _playground_audits(entries) -> tuple[AuditSpec, ...]:
    """An entry through the playground's pipeline for each of its exact mechanisms no entry of ``entries`` audits."""
    audited = {entry.mechanism for entry in entries}
    return tuple(
        _spec(f"playground-{spec.key}", spec.label, f"{spec.long_label}, through the playground's pipeline",
              space_rules.offered_by(spec), _through_playground(spec.key),
              samples=GAUSSIAN_SAMPLES if spec.needs_delta else 200_000, mechanism=spec.key)
        for spec in specs.PLAYGROUND if not spec.chain and spec.key not in audited)


def twin_name(name: str) -> str:
    """The name of the 2× twin of the audit ``name``."""
    return f"twin-{name}"


def twin(spec: AuditSpec) -> AuditSpec:
    """The positive control ``twin-<name>``: ``spec``'s mechanism built at 2ε, claiming ε (``engine.audit.twin``)."""
    def build(space, eps):
        return twin_target(spec.build, space, eps)
    return dataclasses.replace(
        spec, name=twin_name(spec.name), title=f"Control: {spec.title} at 2ε",
        description=f"{spec.description}; calibrated for 2ε, claiming ε", control=True, build=build, has_twin=False)


def _regression(kind):
    def build(space, eps):
        s = audit_spaces()[space]
        return regression_audit(kind, s.make(), s.n, s.radius, eps)
    return build


_AUDITED = (
    _spec("laplace", "Riemannian Laplace", "Laplace around the Fréchet mean, σ from Theorems 1 and 2",
          space_rules.intrinsic, _laplace, mechanism=specs.EXACT.key),
    _spec("riemannian-gaussian", "Riemannian Gaussian",
          "Riemannian Gaussian around the Fréchet mean (Jiang et al. 2023), μ-GDP by quadrature, claiming the "
          "(ε, 1e-5) its μ implies",
          space_rules.preferring(space_rules.constant_curvature, space_rules.hadamard_setting), _riemannian_gaussian,
          samples=GAUSSIAN_SAMPLES, mechanism=specs.RGAUSS.key),
    _spec("euclidean-baseline", "Euclidean (playground)",
          "K-norm noise around the ambient mean with sensitivity 2 r_E / n, through the playground's pipeline",
          space_rules.offered_by(specs.EUCLID), _euclidean, mechanism=specs.EUCLID.key),
    _spec("euclidean-baseline-fig1", "Euclidean (Utility, Figure 1)",
          "K-norm noise around the ambient mean with sensitivity 2 r_E / n, through the Figure 1 study's release",
          space_rules.figure1, _euclidean_fig1),
    _spec("tangent-gaussian", "Tangent Gaussian (classical)",
          "Gaussian in the tangent space of the public centre m₀, σ by the classical rule (analytic for "
          "ε > 1, where the classical rule is not proven)",
          space_rules.preferring(space_rules.intrinsic, space_rules.hadamard_setting), _tangent_gaussian,
          samples=GAUSSIAN_SAMPLES),
    _spec("tangent-gaussian-analytic", "Tangent Gaussian (analytic)",
          "Gaussian in the tangent space of the public centre m₀, σ by the analytic rule, through the "
          "playground's pipeline",
          space_rules.preferring(space_rules.offered_by(specs.GAUSS), space_rules.hadamard_setting),
          _tangent_gaussian_analytic, samples=GAUSSIAN_SAMPLES, mechanism=specs.GAUSS.key),
    _spec("kng", "K-norm gradient", "KNG Fréchet mean by Metropolis–Hastings (ball-conditioned where κ > 0)",
          space_rules.preferring(space_rules.intrinsic, space_rules.flat_setting), _kng, samples=20_000),
    _spec("dp-rgd", "DP-RGD end to end", "DP Riemannian gradient descent, σ by the RDP accountant, whole path",
          space_rules.hadamard, _dp_rgd, samples=GAUSSIAN_SAMPLES),
    _spec("exact-subspace", "Subspace: Algorithm 1 (exact)",
          "Singhal-Steinke Algorithm 1: stable selection of the subspace or bottom, score gaps at its threshold",
          space_rules.fixed("r5-threshold", "r5-edge"), subspace.exact_subspace),
    _spec("subsample-aggregate-subspace", "Subspace: Algorithm 2",
          "Singhal-Steinke Algorithm 2: stable histogram over the blocks' cells, one record flips one block "
          "(its claim is loose by 2 at the fewest blocks: no twin)",
          space_rules.fixed("r5"), subspace.subsample_aggregate, samples=100_000, has_twin=False),
    _spec("subsample-aggregate-subspace-tight", "Subspace: Algorithm 2, tight",
          "Algorithm 2 calibrated to its actual loss: built at 2ε, which at the fewest blocks loses ε",
          space_rules.fixed("r5"), subspace.subsample_aggregate_tight, samples=100_000),
    _spec("analyze-gauss", "Subspace: Analyze Gauss", "Top-k eigenvectors of A + Gaussian noise, orthogonal records "
          "at the clipping norm", space_rules.fixed("r5"), subspace.analyze_gauss, samples=GAUSSIAN_SAMPLES),
    _spec("bingham-subspace", "Subspace: Bingham", "Exponential mechanism on the sphere (one exact Bingham draw), "
          "records piled on two orthogonal lines, one moved between them", space_rules.fixed("r5"), subspace.bingham,
          samples=100_000),
    _spec("regression-footpoint", "Regression: footpoint",
          "K-norm gradient footpoint of the private geodesic regression, MCMC at the page's chain settings",
          space_rules.fixed("sphere"), _regression("footpoint"), samples=10_000),
    _spec("regression-velocity", "Regression: shooting vector",
          "K-norm gradient shooting vector at a public footpoint, MCMC at the page's chain settings",
          space_rules.fixed("sphere"), _regression("velocity"), samples=10_000),
    _spec("regression-composed", "Regression: (p, v) composed",
          "footpoint and shooting vector released together through the page's release, claiming ε_p + "
          "ε_v", space_rules.fixed("sphere"), _regression("composed"), eps=2.0, samples=10_000),
)
_MECHANISMS = (*_AUDITED, *_playground_audits(_AUDITED))
_CONTROLS = (
    _spec("control-half-noise", "Control: half the noise", "Laplace with σ halved", space_rules.intrinsic, _half_noise,
          control=True),
    _spec("control-theorem2-no-factor", "Control: no (2 − h) factor",
          "Laplace with the sensitivity 2r/(n h)", space_rules.curved, _no_factor, control=True),
    _spec("control-dp-rgd-paper-rule", "Control: DP-RGD, paper's c = 1",
          "DP-RGD at the paper's setting with σ² = T log(1/δ) L₀² / (n²ε²): it claims ε, "
          "but the guarantee is the accountant's (0.171 by RDP for a claimed 0.1; exactly 0.142)",
          space_rules.line_first(space_rules.hadamard), _paper_rule, eps=0.1, samples=2_000_000, control=True),
    _spec("control-reused-randomness", "Control: reused random numbers",
          "Laplace sampler that reseeds the same generator at every call", space_rules.intrinsic, _reused, control=True),
    _spec("control-karcher-baseline", "Control: Karcher baseline",
          "Euclidean noise for the ambient mean added around the Karcher mean, through the Figure 1 study's "
          "release (the Utility page's 'paper's baseline')", space_rules.figure1, _karcher_baseline,
          control=True),
    _spec("control-subspace-basis", "Control: search basis",
          "Algorithm 1 releasing the basis its search built (first column a record)",
          space_rules.fixed("r5-threshold", "r5-edge"), subspace.search_basis_control, control=True),
    _spec("control-subspace-half-bound", "Control: Algorithm 1, A halved",
          "Algorithm 1 with the truncated Laplace bound A halved, claiming the same (ε, δ)",
          space_rules.fixed("r5-edge", "r5-threshold"), subspace.half_bound_control, control=True),
    _spec("control-regression-paper-scale", "Control: KNG at paper's scale",
          "K-norm gradient footpoint at Kulkarni & Soto's σ = Δ/ε claiming ε (2 ε-DP), "
          "drawn exactly", space_rules.fixed("sphere"), _regression("paper-scale"), eps=3.0, samples=200_000, control=True),
)
#: Every audit: the mechanisms, then the positive controls, then each mechanism's 2× twin.
AUDITS = {spec.name: spec for spec in (*_MECHANISMS, *_CONTROLS, *(twin(spec) for spec in _MECHANISMS if spec.has_twin))}
