"""The five applications of the Private optimization page (Han, Mishra, Jawanpuria & Gao), their
controls' ranges and texts, the page's sections and the paper's presets.

One ``AppSpec`` per application holds the sliders whose range and default depend on it (sample size,
iterations, step size in the paper's units), its default batch, its study grid and its preset.
``PRESETS`` are the paper's settings, applied from ``?preset=NAME`` or the sidebar button
(``ui.optimization.controls``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.pipelines import private_optimization as po
from engine.pipelines.studies import study
from ui import glossary


@dataclass(frozen=True)
class Slider:
    """A sidebar slider: URL key, label, range, default, step, tooltip and number format."""

    key: str
    label: str
    min_value: float
    max_value: float
    default: float
    step: float
    help: str
    fmt: str | None = None


@dataclass(frozen=True)
class AppSpec:
    """One application: its label, the sliders that depend on it, its study and its preset."""

    label: str
    size: Slider | None
    steps: Slider
    eta: Slider
    batch: int  # default batch size; 0 means the full batch (DP-RGD)
    sweep: str  # "epsilon", "n" or "iterations": the x axis of the study
    grids: dict  # grid name -> (label, values); empty without a sweep
    paper_c: float  # c of the paper's noise rule in its experiments
    rule: str | None  # LaTeX of the paper's rule for T, or None
    preset: str | None


MAX_STEPS = po.MAX_STEPS  # cap of a single run's T taken from the paper's rule
#: Sections of the page, one button each of the section switch (URL parameter ``opt_view``); only the chosen one is computed and drawn.
SECTION_KEY = "opt_view"
SECTIONS = ("Convergence", "Privacy accounting", "On the manifold", "Study")
SPD_APPS = ("frechet", "barycenter")
EPSILONS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
DELTAS = (1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2)
TAXONOMIES = {"balanced": "Balanced binary tree",
              "wordnet-mammal": "WordNet mammals (1,182)"}
NOISE = {"calibrated": "RDP accountant (exact ε)",
         "paper": "Paper's rule σ² = c·T…"}
DATASETS = {
    "synthetic": "Synthetic spiked, d = 50",
    "china-patches": "china.jpg 8×8 patches, d = 64",
    "digits": "digits, n = 1,797, d = 64",
    "breast_cancer": "breast cancer, n = 569",
    "wine": "wine, n = 178, d = 13",
    "iris": "iris, n = 150, d = 4",
}
STEPS_HELP = "Iterations T of Algorithm 1. More steps leave less noise budget per step: the accountant raises σ."
SPD_ETA_HELP = ("η of w ← Exp_w(−η(g + ξ)). The paper uses 0.01 (its preset); 0.05 reaches the noise floor "
                "within T = 100 steps from the public start")
SPD_SIZE = dict(min_value=20, max_value=500, default=100, step=10)
SPD_STEPS = dict(min_value=1, max_value=1_000, default=100, step=1)
SPD_ETA = dict(min_value=0.001, max_value=1.0, default=0.05, step=0.001, fmt="%.3f")
HELP = {
    "taxonomy": "The tree whose nodes are embedded in the Poincaré disk (our own Sarkar-style embedding). The "
                "WordNet mammal subtree is read from Debian's wordnet-base package when it is installed.",
    "app": "The problem DP-RGD solves; each has its own manifold, data and baselines (§5–6 of Han et al.): the "
           "principal eigenvector on the sphere, the Fréchet mean on SPD(2) with the affine-invariant metric, the "
           "Wasserstein barycenter on SPD(2) with the Bures–Wasserstein metric, structured prediction on the "
           "Poincaré disk, low-rank matrix completion on the Grassmannian Gr(30, 5).",
    "data": "Synthetic: a spiked covariance with d = 50 and eigengap 10⁻³. The others are scikit-learn's bundled "
            "data sets (no download). Records are z-scored and divided by the spectral norm, as in the paper.",
    "eps": glossary.tooltip("epsilon", "The paper uses ε = 0.1 (0.001 … 0.7 for the eigenvector)."),
    "delta": glossary.tooltip("delta", "The paper uses 10⁻³."),
    "noise": "The accountant finds the σ that spends exactly ε; the paper's rule fixes σ by a formula with a constant "
             "c ({c:g} in its experiments for this application) and may spend more or less than ε (see Privacy "
             "accounting).",
    "Trule": "Take T from the paper's rule for this application (shown under Privacy accounting); switch off to "
             "choose T.",
    "batch": "Records per step. 0 (or n and above) uses all n records: DP-RGD. A smaller b samples b records without "
             "replacement each step (DP-RSGD) and the accountant credits the sampling; that calibration takes 5–20 s "
             "the first time.",
    "reps": "Independent private runs per setting (the bands are ± 2 standard errors over them). The paper uses 20; "
            "fewer are faster.",
    "grid": "The values of the study below; the paper's grid takes longer.",
    "burn": "The K-norm gradient releases (and the Laplace ones on Bures–Wasserstein) are drawn by random-walk "
            "Metropolis–Hastings started at the exact minimiser: approximate, and closer to the law the longer the "
            "burn-in. Han et al. ran 5,000 steps.",
}
APPS = {
    "eigenvector": AppSpec(
        label="Top eigenvector (sphere)",
        size=Slider("n_eigenvector", "Sample size n (synthetic data)", 1_000, 50_000, 20_000, 1_000,
                    "Records of the synthetic data. With calibrated noise n = 2,000 leaves every method near chance; "
                    "the study's default is 20,000."),
        steps=Slider("T_eigenvector", "Iterations T", 1, 200, 25, 1, STEPS_HELP),
        eta=Slider("eta_eigenvector", "Step size (paper's units)", 0.05, 3.0, 0.9, 0.05,
                   "In the paper's units for data with ‖Z‖₂ = 1: η = step · n on F(w) = −wᵀAw. The paper uses "
                   "0.9."),
        batch=0, sweep="epsilon", paper_c=po.PAPER_C["eigenvector"],
        grids={"quick": ("Quick: ε = 0.01 … 1 (5)", (0.01, 0.05, 0.1, 0.5, 1.0)),
               "full": ("Han et al.: ε = 0.001 … 0.7", study("dp-rgd-eigenvector").default("epsilons"))},
        rule=r"T = \left\lceil \log \frac{n^2\varepsilon^2}{d\,L_0^2 \log(1/\delta)} \right\rceil",
        preset="han-eigenvector"),
    "frechet": AppSpec(
        label="Fréchet mean (SPD, affine)",
        size=Slider("n_frechet", "Sample size n", help="Wishart W(I/2, 2) matrices within distance 1 of I.",
                    **SPD_SIZE),
        steps=Slider("T_frechet", "Iterations T", help=STEPS_HELP + " The paper takes T = n.", **SPD_STEPS),
        eta=Slider("eta_frechet", "Step size η", help=SPD_ETA_HELP + "; η = 1 is the Karcher step, which reaches "
                   "the mean in a few steps without noise.", **SPD_ETA),
        batch=0, sweep="n", paper_c=po.PAPER_C["frechet"],
        grids={"quick": ("Quick: n = 20, 50, 100", (20, 50, 100)),
               "full": ("Han et al.: n = 20, 40, …, 300", study("dp-rgd-frechet").default("ns"))},
        rule=r"T = n", preset="han-frechet-mean"),
    "barycenter": AppSpec(
        label="Wasserstein barycenter (SPD)",
        size=Slider("n_barycenter", "Sample size n", help="Wishart W(I/2, 2) matrices within Bures–Wasserstein "
                    "distance 0.3 of I (the paper's code), where the barycenter problem is geodesically strongly "
                    "convex.", **SPD_SIZE),
        steps=Slider("T_barycenter", "Iterations T", help=STEPS_HELP + " The paper takes T = n.", **SPD_STEPS),
        eta=Slider("eta_barycenter", "Step size η", help=SPD_ETA_HELP + ".", **SPD_ETA),
        batch=0, sweep="n", paper_c=po.PAPER_C["barycenter"],
        grids={"quick": ("Quick: n = 20, 50, 100", (20, 50, 100)),
               "full": ("Han et al.: n = 20, 40, …, 300", study("dp-rgd-frechet").default("ns"))},
        rule=r"T = n", preset="han-barycenter"),
    "hyperbolic": AppSpec(
        label="Hyperbolic prediction (H²)",
        size=Slider("height", "Tree depth", 3, 8, 5, 1,
                    "Depth of the balanced binary tree embedded in H²; one leaf is held out and predicted from the "
                    "other n = 2^(depth+1) − 2 nodes."),
        steps=Slider("T_hyperbolic", "Iterations T", 1, 2_000, 50, 1, STEPS_HELP),
        eta=Slider("eta_hyperbolic", "Step size (paper's units)", 0.0001, 0.01, 0.001, 0.0001,
                   "In the paper's units (its code descends on Σ α_i d²): η = 2n · step on F. The paper uses "
                   "0.001 private and 0.003 non-private; here both runs share one step.", fmt="%.4f"),
        batch=0, sweep="epsilon", paper_c=po.PAPER_C["hyperbolic"],
        grids={"quick": ("Quick: ε = 0.05, 0.1, 0.5, 1", (0.05, 0.1, 0.5, 1.0)),
               "full": ("Wide: ε = 0.01 … 2", (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0))},
        rule=r"T = \frac{\sqrt{L_1}\,n\varepsilon}{\sqrt{d \log(1/\delta)}\,L_0}", preset="han-hyperbolic"),
    "lrmc": AppSpec(
        label="Matrix completion Gr(30, 5)",
        size=Slider("n_lrmc", "Columns N (users)", 200, 10_000, 1_000, 100,
                    "Columns of the 30 × N low-rank matrix; one column is one user's ratings, the privacy unit. The "
                    "paper uses N = 10,000."),
        steps=Slider("T_lrmc", "Iterations T", 10, 2_000, 200, 10, STEPS_HELP),
        eta=Slider("eta_lrmc", "Step size η", 0.005, 1.0, 0.05, 0.005,
                   "η of the private run; the study's non-private RSGD uses 0.5 (see the RMSE charts).", fmt="%.3f"),
        batch=10, sweep="iterations", paper_c=po.PAPER_C["lrmc"], grids={}, rule=None, preset=None),
}
APP_LABELS = {name: spec.label for name, spec in APPS.items()}
PRESETS = {
    "han-frechet-mean": {"app": "frechet", "eps": 0.1, "delta": 1e-3, "noise": "paper", "Trule": True,
                         "n_frechet": 100, "eta_frechet": 0.01, "b_frechet": 0, "reps": 20, "grid": "full",
                         "burn": 2_000},
    "han-barycenter": {"app": "barycenter", "eps": 0.1, "delta": 1e-3, "noise": "paper", "Trule": True,
                       "n_barycenter": 100, "eta_barycenter": 0.01, "b_barycenter": 0, "reps": 20, "grid": "full",
                       "burn": 2_000},
    "han-eigenvector": {"app": "eigenvector", "data": "synthetic", "n_eigenvector": 20_000, "eps": 0.1, "delta": 1e-3,
                        "noise": "paper", "Trule": True, "eta_eigenvector": 0.9, "b_eigenvector": 0, "reps": 20,
                        "grid": "full"},
    "han-hyperbolic": {"app": "hyperbolic", "height": 7, "eps": 0.1, "delta": 1e-3, "noise": "paper", "Trule": True,
                       "eta_hyperbolic": 0.001, "b_hyperbolic": 0, "reps": 20, "grid": "quick"},
}
PRESET_NOTES = {
    "han-frechet-mean": "§6.1: Fréchet mean on SPD(2) at ε = 0.1, δ = 10⁻³, T = n, η = 0.01, L0 = 1, "
                        "n = 20 … 300, 20 repeats",
    "han-barycenter": "§6.2: Wasserstein barycenter at ε = 0.1, δ = 10⁻³, T = n, η = 0.01, L0 = 0.3, "
                      "n = 20 … 300, 20 repeats",
    "han-eigenvector": "§6.3: principal eigenvector, synthetic d = 50, eigengap 10⁻³, ε = 0.001 … 0.7, "
                       "δ = 10⁻³, step 0.9, 20 repeats",
    "han-hyperbolic": "§6.4: hyperbolic structured prediction, binary tree of depth 7, ε = 0.1, δ = 10⁻³, "
                      "step 0.001, 20 repeats",
}
