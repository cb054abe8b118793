"""What each page's reproduction runs and draws: its pipeline, its paper and its figure builders."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One figure of a view: ``call`` builds it from the names ``config`` and ``result`` and those of
    ``imports`` (import lines); ``name`` names it (the script writes ``PAGE-NAME.html``); ``note``
    says what it shows (a markdown paragraph)."""

    name: str
    imports: tuple[str, ...]
    call: str
    note: str


@dataclass(frozen=True)
class View:
    """A page's view: its title, the ``engine.pipelines`` command that runs it, the paper it follows,
    what the run does (``steps``, markdown) and its figures in the order the page draws them."""

    page: str
    title: str
    pipeline: str
    paper: str
    steps: str
    figures: tuple[Figure, ...]


#: The reference of the playground and the Sensitivity page (README's References).
REIMHERR_BHARATH_SOTO = "M. Reimherr, K. Bharath, C. Soto (2021). Differential privacy over Riemannian manifolds. NeurIPS."

#: The reference of the Private subspaces page (README's References).
SINGHAL_STEINKE = "V. Singhal, T. Steinke (2021). Privately learning subspaces. NeurIPS."

#: The reference of the Private optimization page (README's References).
HAN_MISHRA_JAWANPURIA_GAO = ("A. Han, B. Mishra, P. Jawanpuria, J. Gao. Differentially private Riemannian "
                             "optimization (Algorithm 1, DP-RGD).")

#: The reference of the Private regression page (README's References).
KULKARNI_SOTO = "A. Kulkarni, C. Soto. Differentially private geodesic regression (K-norm gradient mechanism)."

#: The reference of the Audit page's method (``engine.audit.confidence``).
JAGIELSKI_ULLMAN_OPREA = ("M. Jagielski, J. Ullman, A. Oprea (2020). Auditing differentially private machine learning: "
                          "how private is private SGD? NeurIPS.")

VIEWS = {
    "playground": View(
        page="playground", title="Private mean playground", pipeline="private-mean",
        paper=REIMHERR_BHARATH_SOTO,
        steps="The pipeline draws the data set from the chosen source, applies the ball policy to records "
              "outside the public ball B_r(m₀), computes the Fréchet mean, bounds its sensitivity by Theorem 2 "
              "of Reimherr, Bharath & Soto (2021), Δ = 2r(2 − h)/(n h) with h = 2r√κ·cot(2r√κ), calibrates each "
              "mechanism from the public r, m₀, n, ε and δ only, draws its releases and checks the assumptions.",
        figures=(Figure(
            "space_figure", ("from ui.spaces import space_figure",),
            "space_figure(result, config)",
            "The page's figure: the data, the true Fréchet mean and every mechanism's releases on the space "
            "(the Riemannian Laplace of Reimherr, Bharath & Soto 2021 beside its alternatives)."),),
    ),
    "sensitivity": View(
        page="sensitivity", title="Sensitivity of the Fréchet mean", pipeline="sensitivity",
        paper=REIMHERR_BHARATH_SOTO,
        steps="For every sample size of the study's grid and n, the pipeline draws reps data sets in the ball B_r(m₀), replaces one "
              "record at random or adversarially (moved across the ball) and measures how far the Fréchet mean "
              "moves, ρ(x̄, x̄′); Theorem 2 of Reimherr, Bharath & Soto (2021) bounds every such move by "
              "Δ = 2r(2 − h)/(n h), h = 2r√κ·cot(2r√κ).",
        figures=(Figure(
            "empirical_figure", ("from engine.pipelines.sensitivity import summarise",
                                 "from engine.viz.sensitivity import empirical_figure"),
            "empirical_figure(result.replicates, summarise(result.replicates), result.bound_curve(), log=True)",
            "The page's first chart, on its default log–log axes: one dot per simulated pair of neighbouring data "
            "sets, their mean and maximum per n, under Theorem 2's dashed bound."),),
    ),
    "utility": View(
        page="utility", title="Utility: intrinsic against Euclidean", pipeline="utility",
        paper=REIMHERR_BHARATH_SOTO,
        steps="For every n of the sweep (at ε) and every ε of the sweep (at n), the pipeline draws reps data sets "
              "in B_r(m₀), releases their Fréchet mean by the Riemannian Laplace with σ = C/(nε) (C from Theorem "
              "2) and their ambient mean by the Euclidean Laplace with σ_E = 2r_E/(nε), and averages the geodesic "
              "errors; Theorem 3 of Reimherr, Bharath & Soto (2021) bounds the intrinsic one.",
        figures=tuple(Figure(
            name, ("import numpy as np", "from engine.pipelines.utility import error_bounds",
                   "from engine.viz.utility import error_figure"),
            f"error_figure(result.ok_{axis}, x={column!r}, x_title={title!r}, bounds=error_bounds(config.space, "
            f"config.radius, result.constant, {grid}), log=True)",
            f"The page's chart of the error against {title}, on its default log–log axes: mean ± 2 SE bands of "
            f"both mechanisms, and Theorem 3's bound (dashed).")
            for name, axis, column, title, grid in (
                ("error_against_n", "n", "n", "sample size n",
                 "n=np.unique(np.geomspace(min(config.ns), max(config.ns), 60).round(2)), epsilon=config.epsilon"),
                ("error_against_epsilon", "eps", "epsilon", "privacy budget ε",
                 "n=config.n, epsilon=np.geomspace(min(config.epsilons), max(config.epsilons), 60)"))),
    ),
    "subspaces": View(
        page="subspaces", title="Private subspaces", pipeline="private-subspace", paper=SINGHAL_STEINKE,
        steps="The pipeline draws n points of R^d in a random k-dimensional subspace U (plus noise and "
              "outliers), then runs the chosen method releases times on the same data: Singhal & Steinke's "
              "exact algorithm (a stable selection among candidate subspaces, or ⊥), their approximate one "
              "(subsample and aggregate), Analyze Gauss, the exponential mechanism or non-private PCA; a "
              "release succeeds when it is not ⊥ and ‖Π̂ − Π‖₂ <= alpha.",
        figures=(Figure(
            "private_subspace_figure", ("from engine.viz.subspaces import private_subspace_figure",),
            "private_subspace_figure(result)",
            "The page's figure: the points, the true subspace and the distinct private releases."),),
    ),
    "optimization": View(
        page="optimization", title="Private optimization", pipeline="private-optimization",
        paper=HAN_MISHRA_JAWANPURIA_GAO,
        steps="The pipeline draws the application's data from child 0 of the seed's stream and finds its exact "
              "minimiser, takes T from the paper's rule (capped at 5,000) unless given, sets σ by the RDP "
              "accountant (or the paper's rule σ² = c·T log(1/δ) L0²/(n²ε²)) and runs reps chains of DP-RGD "
              "(Algorithm 1 of Han et al.: clip each record's Riemannian gradient to L0, average, add the tangent "
              "Gaussian, follow the exponential map) beside the same iterations without noise, in blocks of ten "
              "chains, each from its own stream; then the accountant's ε(t) for both rules.",
        figures=(*(Figure(
            name, ("from ui.optimization.figures import convergence",),
            f"convergence(config.app, result.run.paths)[{index}]",
            f"The page's {what} chart: mean ± 2 SE along the iterations of DP-RGD and its noiseless twin.")
            for index, (name, what) in enumerate((("excess_loss", "excess-loss"), ("gradient_norm", "gradient-norm")))),
            Figure("accountant", ("from ui.optimization.figures import accountant",),
                   "accountant(result.accountant['curves'], config.epsilon, config.noise)",
                   "The Privacy accounting section's chart: ε spent after t steps for the calibrated σ and for the paper's "
                   "rule, against the target ε.")),
    ),
    "regression": View(
        page="regression", title="Private regression", pipeline="private-regression", paper=KULKARNI_SOTO,
        steps="The pipeline draws the data set (the ball's centre and radius public, records clipped onto the "
              "ball), fits the geodesic y = Exp(p, x·v) without privacy, then releases the footpoint p̃ with "
              "density ∝ exp(−‖∇_p E‖/σ_p) and the shooting vector ṽ at p̃ with density ∝ exp(−‖∇_v E‖/σ_v) by "
              "Metropolis–Hastings chains (the K-norm gradient mechanism of Kulkarni & Soto, Table 1's "
              "sensitivities Δ_p = Δ_v = 2τ/n where the curvature is ≥ 0), and checks the chains (split R̂, ESS).",
        figures=(Figure(
            "main_figure", ("from ui.regression.figures import main_figure",), "main_figure(result)",
            "The page's figure: the non-private geodesic's predictions and the private releases' at the page's "
            "covariate values."),),
    ),
    "samplers": View(
        page="samplers", title="Samplers: exact against Metropolis–Hastings", pipeline="samplers",
        paper=REIMHERR_BHARATH_SOTO,
        steps="Both samplers target the Riemannian Laplace law p(x) ∝ exp(−ρ(x, η)/σ) of Reimherr, Bharath & "
              "Soto (2021), Definition 3, around the space's origin η. The exact sampler draws a uniform direction "
              "and an exact radius from f(ρ) ∝ e^{−ρ/σ} J(ρ); the random-walk Metropolis–Hastings sampler of the "
              "paper's supplement runs `chains` chains from η (burn-in, thinning, a step adapted towards 30 % "
              "acceptance unless fixed). Both sets of radii are compared with the exact radial CDF by the "
              "Kolmogorov–Smirnov distance; the two timings of the page are left out of the numbers (they "
              "measure the machine).",
        figures=(*(Figure(
            name, ("from engine.viz.samplers import radius_histograms",),
            f"radius_histograms(result)[{index}]",
            f"The page's {side} histogram of the distances to the footpoint against the exact radial density "
            f"(dashed), on the same axes as the other sampler's.")
            for index, (name, side) in enumerate((("exact_radii", "left: the exact sampler's"),
                                                  ("mh_radii", "right: the Metropolis–Hastings sampler's")))),
            Figure("chain_trace", ("from engine.viz.samplers import chain_trace",),
                   "chain_trace(result, config.burn_in)[0]",
                   "The trace of the first chain's distance to the footpoint, burn-in shaded, beside the exact "
                   "mean radius E ρ (dashed).")),
    ),
    "audit": View(
        page="audit", title="Audit", pipeline="audit", paper=JAGIELSKI_ULLMAN_OPREA,
        steps="The pipeline runs the chosen mechanism `samples` times on each of two neighbouring data sets built by "
              "an adversary from the public ball and n, reduces each release to the log-likelihood ratio of the law "
              "it claims to sample (or a learned score), chooses a rejection set S on half of the releases and "
              "bounds ε from below on the other half by ε >= log((P_lo(S) − δ)/Q_hi(S)) with one-sided "
              "Clopper–Pearson bounds (Jagielski, Ullman & Oprea 2020), at checkpoints whose levels add up to 5 %, "
              "so the whole curve holds at 95 %. The deliberately broken control is audited the same way; the "
              "wall-clock seconds are left out of the numbers (they measure the machine).",
        figures=tuple(Figure(
            f"{which}_{name}", (f"from engine.viz.audit import {builder}",), f"{builder}(result.{which})",
            f"The page's {what} of the {'mechanism' if which == 'audit' else 'positive control'}.")
            for which in ("audit", "control")
            for name, builder, what in (("curve", "audit_curve", "95 % lower bound on ε against the releases per "
                                                                 "side, under the claimed ε (dashed)"),
                                        ("histograms", "audit_histograms", "histograms of the statistic on both "
                                                                           "data sets, with the rejection threshold"))),
    ),
}
