"""Charts of the Private optimization page (convergence, accountant, study, RMSE), built (and cached) from the
results of ``ui.optimization.compute``; the 3D pictures are in ``ui.optimization.scene``.

Every builder returns the figure and the tidy table behind it (for the download row).
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from engine.pipelines.private_optimization import summarize
from engine.pipelines.studies import study as registered_study
from engine.viz import palette
from engine.viz.curves import band_figure
from ui.figure_cache import cache_figures
from ui.optimization.apps import APPS

#: Means this close to 0 are rounding noise of an exact optimum; drawn at FLOOR on log axes.
FLOOR = 1e-12
RULES = {"calibrated": ("Calibrated σ (RDP accountant)", palette.color("dp-rgd"), "solid"),
         "paper": ("Paper's rule σ² = c·T log(1/δ) L0²/(n²ε²)", palette.color("bound"), "dash")}
BASELINES = {"dp-pgd": "DP-PGD (ambient noise)", "analyze gauss": "Analyze Gauss (noisy covariance)",
             "k-norm gradient": "K-norm gradient (MH)"}
BASELINE_COLORS = {BASELINES[method]: color for name in ("dp-rgd-eigenvector", "dp-rgd-frechet")
                   for method, color in registered_study(name).colors.items()}
STUDY_AXES = {
    "eigenvector": ("privacy budget ε", "excess risk |wᵀAw − λ_max|/λ_max"),
    "frechet": ("sample size n", "excess risk F(W) − F(W*)"),
    "barycenter": ("sample size n", "excess risk F(W) − F(W*)"),
    "hyperbolic": ("privacy budget ε", "distance to the held-out truth d(ŷ, y)"),
}
LOSS_TITLES = {"eigenvector": "excess loss (F(w_t) − F*)/λ_max"}
LOSS_CAPTION = ("Look at where each band levels off. Both runs take the same steps from the same public start with "
                "the same clipping: the noiseless one (orange) keeps falling towards the minimiser, DP-RGD (pink) "
                "stalls at a floor set by its noise. The gap between the two floors is what privacy costs.")
SPD_START_NOTE = ("The start W₀ lies {factor:g}·r from I, outside the data ball, and was chosen before looking at "
                  "the data.")
STUDY_CAPTIONS = {
    "eigenvector": "Look at the slopes: every method improves as ε grows; DP-RGD adds its noise on the sphere, DP-PGD "
                   "in R^d, Analyze Gauss to the covariance (T by the paper's rule at each ε; dotted: this run's ε).",
    "frechet": "Look at which band falls fastest with n: DP-RGD (T = n) against releasing the exact mean by the "
               "Riemannian Laplace or the K-norm gradient mechanism (dotted: this run's n).",
    "barycenter": "Look at which band falls fastest with n: DP-RGD (T = n) against the Laplace and K-norm gradient "
                  "releases, both sampled by MH on this metric (dotted: this run's n).",
    "hyperbolic": "Look at the DP-RGD band approach the exact prediction's distance as ε grows (T by the paper's rule "
                  "at each ε; dotted: this run's ε).",
}


def _floored(summary: pd.DataFrame) -> tuple[pd.DataFrame, bool]:
    """The summary with means in (−FLOOR, FLOOR] set to FLOOR, and whether a log axis can show it."""
    tiny = summary["mean"].abs() <= FLOOR
    out = summary.assign(mean=summary["mean"].where(~tiny, FLOOR))
    return out, bool((out["mean"] > 0).all())


@cache_figures(max_entries=16)
def convergence(app: str, paths: pd.DataFrame) -> tuple[go.Figure, go.Figure]:
    """Excess loss and gradient norm per iteration, mean ± 2 SE over the chains, both runs."""
    loss, log_loss = _floored(summarize(paths, ["method", "iteration"], "excess_loss"))
    grad, log_grad = _floored(summarize(paths, ["method", "iteration"], "gradient_norm"))
    fig_loss = band_figure(loss, x="iteration", y="mean", se="se", group="method", log_y=log_loss,
                           x_title="iteration t", y_title=LOSS_TITLES.get(app, "excess loss F(w_t) − F(w*)"),
                           height=440)
    fig_grad = band_figure(grad, x="iteration", y="mean", se="se", group="method", log_y=log_grad,
                           x_title="iteration t", y_title="gradient norm ‖grad F(w_t)‖", height=440)
    return fig_loss, fig_grad


@cache_figures(max_entries=16)
def accountant(curves: pd.DataFrame, eps: float, noise: str) -> go.Figure:
    """ε spent after t steps for both noise rules; the rule of this run thick, the target dotted."""
    fig = go.Figure(layout=palette.layout(None, height=440))
    for rule, rows in curves.groupby("rule", sort=False):
        name, color, dash = RULES[rule]
        fig.add_scatter(x=rows["t"], y=rows["epsilon"], mode="lines",
                        name=name + (" (this run)" if rule == noise else ""),
                        line=dict(color=color, dash=dash, width=4 if rule == noise else 2),
                        hovertemplate="t = %{x}<br>ε = %{y:.4g}<extra></extra>")
    fig.add_hline(y=eps, line=dict(color=palette.color("data"), width=2, dash="dot"),
                  annotation_text=f"target ε = {eps:g}", annotation_position="top left")
    fig.update_layout(xaxis=dict(title=dict(text="iteration t")), yaxis=dict(title=dict(text="ε spent after t steps")))
    return fig


@cache_figures(max_entries=16)
def study(app: str, summary: pd.DataFrame, here: float) -> go.Figure:
    """Error of each method against the study's x (ε or n), mean ± 2 SE; this run's x dotted."""
    x_title, y_title = STUDY_AXES[app]
    shown = summary.assign(method=summary["method"].replace(BASELINES))
    shown, log_y = _floored(shown)
    fig = band_figure(shown, x="x", y="mean", se="se", group="method", log_x=x_title.startswith("privacy"),
                      log_y=log_y, colors=BASELINE_COLORS, x_title=x_title, y_title=y_title, height=480)
    fig.add_vline(x=here, line=dict(color=palette.color("data"), width=2, dash="dot"))
    return fig


@cache_figures(max_entries=8)
def completion(results: dict) -> dict:
    """Train and test RMSE per iteration (the study's figures), keyed "rmse-train" and "rmse-test"."""
    figs = registered_study("dp-rgd-matrix-completion").figures(results)
    for fig in figs.values():
        fig.update_layout(title=None, height=440)
    return figs


def study_x(app: str) -> str:
    """Name of the study's x column in downloads: "epsilon" or "n"."""
    return "n" if APPS[app].sweep == "n" else "epsilon"
