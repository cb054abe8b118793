"""Cached computations and figures of the Utility page: how much error does privacy cost?

The simulation follows the utility panels of Figure 1 of Reimherr, Bharath & Soto (2021), as
``engine.experiments.reimherr_fig1`` runs them (same data generators, noise calibration and error
metric), but one (space, n) at a time so that each piece is cached and a progress bar can follow:
data in B_r(m0) -> Fréchet mean x̄ and ambient mean x̄_E -> one release per replicate from the
intrinsic (Riemannian) Laplace around x̄ with σ = C/(nε) and from the Euclidean Laplace around x̄_E
with σ_E = 2r_E/(nε) (the ambient mean is the statistic 2r_E/n bounds, so this baseline is ε-DP);
optionally the paper's baseline, the same noise around x̄, which is not ε-DP
(``reimherr_fig1.baseline_privacy``); error = Euclidean distance between release and x̄ in ambient
coordinates (the paper's metric).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from engine import bounds
from engine.estimators import ambient_mean, frechet_mean
from engine.experiments import reimherr_fig1
from engine.mechanisms import scale_limit
from engine.viz import palette
from engine.viz.curves import band_figure
from ui import presets
from ui.sensitivity import PAPER_RADIUS, manifold

LABELS = {"riemannian laplace": "Riemannian Laplace", "euclidean laplace": "Euclidean Laplace",
          "paper euclidean baseline": "Paper's Euclidean baseline (not ε-DP)"}
N_GRIDS = {"quick": (10, 20, 50, 100, 300), "paper": tuple(reimherr_fig1.DEFAULT_NS)}
N_GRID_LABELS = {"quick": "Quick: 10, 20, 50, 100, 300",
                 "paper": f"Figure 1: n = {min(reimherr_fig1.DEFAULT_NS)} … {max(reimherr_fig1.DEFAULT_NS)}"}
EPS_GRID = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
#: The page's sections, one tab each (URL parameter ``util_view``); only the open one is drawn.
TAB_KEY = "util_view"
SECTIONS = ("Error curves", "Noise reduction", "Budget planner")
CONSTANTS = {"empirical": "Boundary constant (paper)",
             "theorem": "Theorem 2: 2r(2 − h)/h"}
PRESETS = {
    "reimherr-fig1": {"space": "spd", "r_spd": PAPER_RADIUS["spd"], "r_sphere": float(PAPER_RADIUS["sphere"]),
                      "sconst": "empirical", "ngrid": "paper", "eps": 1.0, "reps": 200, "paper": True},
}
BOUND_NAME = "Theorem 3: √(bound on E ρ²)"


def apply_preset(name: str) -> None:
    """Load preset ``name`` (a button callback)."""
    presets.apply_preset(PRESETS, name, "preset-note")


def preset_from_url() -> str | None:
    """Apply ``?preset=NAME`` from the address once (see ``ui.presets.preset_from_url``)."""
    return presets.preset_from_url(PRESETS, "preset-note")


@st.cache_data(max_entries=16, show_spinner=False)
def noise_constant(space: str, radius: float, sphere_constant: str) -> float:
    """C with σ = C/(nε): Theorem 2's 2r(2 − h)/h, or the supplement's boundary constant on the sphere."""
    setting = reimherr_fig1.SpaceSetting(space, manifold(space), radius)
    return float(reimherr_fig1.sensitivity_constant(setting, sphere_constant))


@st.cache_data(max_entries=32, show_spinner=False)
def sample_means(space: str, radius: float, n: int, reps: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Fréchet means and ambient means ``(reps, *point_shape)`` of ``reps`` data sets of size n in B_r(m0)."""
    m = manifold(space)
    data = reimherr_fig1.SpaceSetting(space, m, radius).sample(n, reps, np.random.default_rng([seed, n]))
    return frechet_mean(m, data).mean, ambient_mean(m, data)


@st.cache_data(max_entries=8, show_spinner=False)
def baseline_privacy(space: str, radius: float, n: int, eps: float) -> pd.DataFrame:
    """True ε of both Euclidean baselines on the pair of ``reimherr_fig1.baseline_privacy``."""
    setting = reimherr_fig1.SpaceSetting(space, manifold(space), radius)
    return reimherr_fig1.baseline_privacy(setting, n, epsilon=eps)


@st.cache_data(max_entries=32, show_spinner=False)
def release_summary(space: str, radius: float, n: int, reps: int, seed: int, constant: float,
                    epsilons: tuple[float, ...], paper_baseline: bool = False) -> pd.DataFrame:
    """Error of each mechanism at sample size n, one row per (ε, mechanism); the paper's baseline
    (not ε-DP) only when ``paper_baseline``.

    Columns: n, epsilon, mechanism, sigma, status ("ok", or why no release was made), mean_error and
    se (ambient distance to the Fréchet mean), share_off_manifold and share_se, rms_geodesic (√ mean ρ²,
    intrinsic only) and sqrt_bound (√ of Theorem 3's bound on E ρ² at that σ, intrinsic only).
    """
    setting = reimherr_fig1.SpaceSetting(space, manifold(space), radius)
    m = setting.manifold
    means, ambient_means = sample_means(space, radius, n, reps, seed)
    limit = scale_limit(m)
    r_e = float(bounds.ambient_radius(m, radius))
    mechanisms = reimherr_fig1.MECHANISMS if paper_baseline else reimherr_fig1.MECHANISMS[:2]
    rows = []
    for eps in epsilons:
        rng = np.random.default_rng([seed, n, round(eps * 1e6)])
        sigma_e = float(bounds.ambient_sensitivity(n, r_e)) / eps
        for mechanism in mechanisms:
            sigma = constant / (n * eps) if mechanism == "riemannian laplace" else sigma_e
            row = {"n": n, "epsilon": eps, "mechanism": mechanism, "sigma": sigma, "status": "ok",
                   "mean_error": np.nan, "se": np.nan, "share_off_manifold": np.nan, "share_se": np.nan,
                   "rms_geodesic": np.nan, "sqrt_bound": np.nan}
            if mechanism == "riemannian laplace" and sigma >= limit:
                row["status"] = f"σ = {sigma:.3g} ≥ {limit:.3g}: the Laplace law on {m.name} is not normalisable"
                rows.append(row)
                continue
            try:
                release, error, off = reimherr_fig1.release_errors(setting, means, mechanism, sigma, rng,
                                                                   ambient_means=ambient_means)
            except ValueError as err:  # draws beyond what float64 holds, near the normalisability limit
                row["status"] = str(err)
                rows.append(row)
                continue
            row.update(mean_error=error.mean(), se=error.std(ddof=1) / np.sqrt(reps),
                       share_off_manifold=off.mean(), share_se=np.sqrt(off.mean() * (1 - off.mean()) / reps))
            if mechanism == "riemannian laplace":
                row["rms_geodesic"] = float(np.sqrt(np.mean(m.dist(release, means) ** 2)))
                row["sqrt_bound"] = sqrt_bound(space, radius, sigma)
            rows.append(row)
    return pd.DataFrame(rows)


def sqrt_bound(space: str, radius: float, sigma) -> np.ndarray:
    """√ of Theorem 3's bound (C₂/C₁)·d(d + 1)σ² on E ρ(x̃, x̄)²."""
    m = manifold(space)
    return np.sqrt(bounds.laplace_utility_bound(sigma, m.dim, radius, m.kappa_min, m.kappa_max))


def euclidean_constant(space: str, radius: float) -> float:
    """c_E with E‖noise‖ = c_E/(nε) exactly: D·2r_E (the ℓ2 Laplace radius is σ_E·Gamma(D, 1)); the
    ε-DP baseline's error against the Fréchet mean adds the ambient mean's bias to it."""
    m = manifold(space)
    return m.ambient_dim * 2.0 * float(bounds.ambient_radius(m, radius))


def reduction_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per n: mean error of both mechanisms, the intrinsic noise reduction in percent (as Figure 1
    reports it), the Euclidean share off the manifold, and the intrinsic RMS geodesic error against
    √ of Theorem 3's bound."""
    by = {mechanism: rows.set_index("n") for mechanism, rows in summary.groupby("mechanism")}
    intrinsic, euclidean = by.get("riemannian laplace"), by.get("euclidean laplace")
    table = pd.DataFrame(index=pd.Index(sorted(summary["n"].unique()), name="n"))
    table["intrinsic error"] = intrinsic["mean_error"] if intrinsic is not None else np.nan
    table["Euclidean error"] = euclidean["mean_error"] if euclidean is not None else np.nan
    table["noise reduction (%)"] = 100 * (1 - table["intrinsic error"] / table["Euclidean error"])
    table["Euclidean off the manifold (%)"] = 100 * euclidean["share_off_manifold"] if euclidean is not None else np.nan
    table["intrinsic RMS ρ"] = intrinsic["rms_geodesic"] if intrinsic is not None else np.nan
    table["√ Theorem 3 bound"] = intrinsic["sqrt_bound"] if intrinsic is not None else np.nan
    return table.reset_index()


@st.cache_data(max_entries=32, show_spinner=False)
def error_figure(summary: pd.DataFrame, *, x: str, x_title: str, bound: pd.DataFrame, euclid: pd.DataFrame,
                 log: bool) -> go.Figure:
    """Mean error ± 2 SE per mechanism against ``x``, Theorem 3's √bound (dashed) and the exact
    Euclidean mean error Dσ_E (dotted)."""
    fig = band_figure(summary, x=x, y="mean_error", se="se", group="mechanism", bound=bound, bound_y="bound",
                      bound_name=BOUND_NAME, log_x=log, log_y=log, x_title=x_title,
                      y_title="error ‖x̃ − x̄‖ (ambient)", height=500)
    fig.add_scatter(x=euclid[x], y=euclid["bound"], mode="lines",
                    name=palette.chart_text("Euclidean noise alone: E‖noise‖ = Dσ_E"),
                    line=dict(color=palette.color("euclidean laplace"), width=2, dash="dot"),
                    hovertemplate=f"{x} %{{x:.4g}}<br>{palette.chart_text('Dσ_E')} %{{y:.4g}}<extra></extra>")
    return fig


@st.cache_data(max_entries=32, show_spinner=False)
def share_figure(summary: pd.DataFrame, *, log: bool) -> go.Figure:
    """Share of Euclidean releases off the manifold (not positive definite on SPD) against n, ± 2 SE."""
    rows = summary[summary["mechanism"] == "euclidean laplace"]
    fig = band_figure(rows, x="n", y="share_off_manifold", se="share_se", group="mechanism", log_x=log,
                      x_title="sample size n", y_title="share of releases not positive definite", height=420)
    fig.update_yaxes(range=[0, 1], tickformat=".0%")
    return fig


def fit_scaling(points: pd.DataFrame) -> pd.DataFrame:
    """Per mechanism, fit error ≈ c'/(nε)^α on log scales (α), and c with α = 1 (c).

    Returns columns mechanism, alpha (free fit), c (median of error·nε, robust to the points where large
    noise bends the curve), lo and hi (range of nε).
    """
    rows = []
    for mechanism, group in points.groupby("mechanism", sort=False):
        x = (group["n"] * group["epsilon"]).to_numpy(dtype=float)
        y = group["mean_error"].to_numpy(dtype=float)
        slope = np.polyfit(np.log(x), np.log(y), 1)[0] if np.unique(x).size > 1 else np.nan
        rows.append({"mechanism": mechanism, "alpha": -slope, "c": float(np.median(x * y)),
                     "lo": float(x.min()), "hi": float(x.max())})
    return pd.DataFrame(rows)


@st.cache_data(max_entries=32, show_spinner=False)
def scaling_figure(points: pd.DataFrame, fits: pd.DataFrame) -> go.Figure:
    """n·ε·error against n·ε (flat when error ∝ 1/(nε)), with the fitted constant c dotted."""
    n_eps = points["n"] * points["epsilon"]
    scaled = points.assign(n_eps=n_eps, scaled=points["mean_error"] * n_eps, scaled_se=points["se"] * n_eps)
    scaled = scaled.groupby(["mechanism", "n_eps"], sort=False, as_index=False)[["scaled", "scaled_se"]].mean()
    fig = band_figure(scaled, x="n_eps", y="scaled", se="scaled_se", group="mechanism", log_x=True,
                      x_title="n · ε", y_title="n · ε · error", height=440)
    for row in fits.itertuples():
        fig.add_hline(y=row.c, line=dict(color=palette.color(row.mechanism), width=1.5, dash="dot"),
                      annotation_text=f"c = {row.c:.3g}", annotation_position="top left")
    return fig
