"""What the Utility page shows of a result: the noise scales, the error curves against n and ε,
the noise reduction per n, the budget planner, the map of where each mechanism wins and the sphere comparison of the
Riemannian Gaussian with the Riemannian Laplace (Jiang et al. 2023), one section at a time (only the chosen one is
drawn)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine import bounds, formulas, spaces
from engine.mechanisms import specs
from engine.pipelines import settings_file, utility
from engine.viz import utility as figures
from ui import first_paint, gauss_vs_laplace, presenter, reproduce, sections, state, tables, who_wins, who_wins_map
from ui.downloads import download_row
from ui.figure_cache import cache_figures
from ui.live_chart import PLAIN_CHART, live_chart
from ui.utility.compute import baseline_privacy, verdict
from ui.utility.controls import Settings

#: The page's sections, one button each of the section switch (URL parameter ``util_view``); only the chosen one is drawn.
SECTION_KEY = "util_view"
SECTIONS = ("Error curves", "Noise reduction", "Budget planner", "Where each wins", "Gaussian against Laplace")

error_figure = cache_figures(max_entries=32)(figures.error_figure)
reduction_figure = cache_figures(max_entries=32)(figures.reduction_figure)
share_figure = cache_figures(max_entries=32)(figures.share_figure)
scaling_figure = cache_figures(max_entries=32)(figures.scaling_figure)


def show(result: utility.UtilityResult, settings: Settings) -> None:
    """The whole page below the intro: what was left out, the sections (a chart in the first screen), then the
    noise scales and who wins."""
    first_paint.in_full_run(lambda: _skipped(result))
    if result.ok_n.empty or result.ok_eps.empty:
        first_paint.rerun_in_full()
        st.error("No release could be simulated with these settings: raise ε or lower r.")
        st.stop()
    sections.show(SECTION_KEY, dict(zip(SECTIONS, (
        lambda: _curves(result, settings), lambda: _reduction(result, settings), lambda: _planner(result, settings),
        who_wins_map.show, gauss_vs_laplace.show))))
    _scales(result)
    who_wins.show(lambda: verdict(result))
    reproduce.expander("utility", result.config)


def _scales(result: utility.UtilityResult) -> None:
    """Both noise scales with the numbers plugged in."""
    c = result.config
    r_e = float(bounds.ambient_radius(spaces.make_manifold(c.space), c.radius))
    scales = utility.noise_scales(c.space, c.radius, result.constant, c.n, c.epsilon)
    st.latex(formulas.rows(
        rf"\sigma &= \frac{{C}}{{n\varepsilon}},\ C = {result.constant:.4f} && \text{{at }} n = {c.n},\ "
        rf"\varepsilon = {c.epsilon:g}:\ \sigma = {scales[specs.EXACT.key]:.4g}",
        rf"\sigma_E &= \frac{{2 r_E}}{{n\varepsilon}},\ r_E = {r_e:.4f} && "
        rf"\sigma_E = {scales[specs.EUCLID.key]:.4g}"))


def _skipped(result: utility.UtilityResult) -> None:
    """The settings left out of the charts, and why."""
    skipped = result.skipped
    if len(skipped):
        st.warning("Left out of the charts (the Riemannian Laplace law needs σ below the space's limit; Theorem 3's "
                   "ball-conditioned mechanism would be needed there): "
                   + "; ".join(f"n = {row.n}, ε = {row.epsilon:g}: {row.status}" for row in skipped.itertuples()))


def _curves(result: utility.UtilityResult, settings: Settings) -> None:
    c = result.config
    left, right = st.columns(2)
    with left:
        first_paint.in_full_run(lambda: st.header(f"Error against n (ε = {c.epsilon:g})"))
        n_fine = np.unique(np.geomspace(min(c.ns), max(c.ns), 60).round(2))
        fig_n = error_figure(result.ok_n, x="n", x_title="sample size n",
                             bounds=utility.error_bounds(c.space, c.radius, result.constant, n=n_fine,
                                                         epsilon=c.epsilon), log=settings.log_axes)
        first_paint.main_chart(fig_n, key="chart-error-n", **PLAIN_CHART)
        st.caption(f"Each point averages {c.reps} simulated data sets, one release each. Look at the gap between the "
                   "blue (intrinsic) and vermillion (Euclidean) bands at the same privacy; dashed: √ of Theorem 3's bound on E ρ² (it bounds the squared geodesic error); "
                   "dotted: Dσ_E, the Euclidean noise alone (the ambient mean's distance to the Fréchet mean "
                   "adds to it).")
        download_row("utility-vs-n", fig=fig_n, data=result.by_n, settings=settings_file.payload("utility", c),
                     pipeline="utility")
    with right:
        st.header(f"Error against ε (n = {c.n})")
        eps_fine = np.geomspace(min(c.epsilons), max(c.epsilons), 60)
        fig_e = error_figure(result.ok_eps, x="epsilon", x_title="privacy budget ε",
                             bounds=utility.error_bounds(c.space, c.radius, result.constant, n=c.n, epsilon=eps_fine),
                             log=settings.log_axes)
        live_chart(fig_e, key="chart-error-eps", **PLAIN_CHART)
        st.caption("Look at the slope: error ∝ 1/ε while the noise is small; large noise bends the intrinsic "
                   "curve (it saturates on the bounded sphere and grows faster on SPD, whose ambient distances "
                   "grow exponentially).")
        download_row("utility-vs-eps", fig=fig_e, data=result.by_eps, settings=settings_file.payload("utility", c),
                     pipeline="utility")
    st.latex(r"\mathbb{E}\,\rho(\tilde x, \bar x)^2 \le \frac{C_2}{C_1}\, d(d+1)\,\sigma^2 \quad\text{(Theorem 3)},"
             r"\qquad \mathbb{E}\,\|\tilde x_E - \bar x_E\| = D\,\sigma_E \quad "
             r"(\text{radius} \sim \sigma_E\,\Gamma(D, 1))")
    st.caption("x̄_E is the ambient mean, the statistic the Euclidean mechanism releases.")
    if c.paper_baseline:
        _paper_baseline(c)


def _paper_baseline(c: utility.UtilityConfig) -> None:
    """The paper's baseline's true ε on a neighbouring pair, against the claimed one."""
    pair = baseline_privacy(c.space, c.radius, min(c.ns), c.epsilon)
    shown = pair.assign(baseline=pair["baseline"].map(utility.LABELS))[
        ["baseline", "pair", "n", "claimed_epsilon", "gap", "sensitivity", "true_epsilon_on_pair"]]
    paper_row = pair.set_index("baseline").loc[specs.PAPER.key]
    st.warning(
        f"The paper's baseline adds noise calibrated to Δ_E = 2r_E/n around the Fréchet mean, whose ambient "
        f"sensitivity is larger: on the worse of two neighbouring pairs of boundary points (below) its true ε is "
        f"{paper_row.true_epsilon_on_pair:.3g} for a claimed {c.epsilon:g} ({paper_row.ratio:.3g}×). It is drawn "
        f"for comparison with the paper, not as a private release.")
    st.table(tables.formatted(shown, skip=("baseline", "pair", "n")), hide_index=True, border="horizontal")


def _reduction(result: utility.UtilityResult, settings: Settings) -> None:
    url = state.settings(list(settings.keys))
    table = utility.reduction_table(result.ok_n)
    first_paint.in_full_run(lambda: _reduction_heading(table))
    fig_r = reduction_figure(table, log=settings.log_axes)
    if fig_r is None:
        st.info("No noise reduction to draw: at every simulated n one of the mechanisms has no release (see what "
                "was left out above).")
    else:
        first_paint.main_chart(fig_r, key="chart-reduction", **PLAIN_CHART)
        st.caption("Look at the line against zero: above it the intrinsic release is closer to the mean in ambient "
                   "coordinates at that n, below it the Euclidean one (the box above compares them along the "
                   "space).")
    download_row("utility-noise-reduction", fig=fig_r, data=table, settings=url)
    st.latex(r"\text{reduction} = 100\left(1 - \frac{\overline{\|\tilde x_{\mathrm{Riem}} - \bar x\|}}"
             r"{\overline{\|\tilde x_{E} - \bar x\|}}\right)\%")
    st.table(tables.formatted(table, skip=("n",)), hide_index=True, border="horizontal")
    st.caption("Look at the last two columns: the RMS geodesic error against √ of Theorem 3's bound, which is nearly "
               "tight for small noise, so simulation noise can put the RMS a little above it.")
    if spaces.make_manifold(settings.space).open_in_ambient:  # on the sphere every Euclidean release is off it
        st.header("Euclidean releases that are not positive definite")
        fig_s = share_figure(result.ok_n, log=settings.log_axes)
        live_chart(fig_s, key="chart-share", fit=presenter.active(), **PLAIN_CHART)
        st.caption("Look at small n: a large share of the Euclidean releases are not covariance matrices at "
                   "all; the intrinsic mechanism never leaves the SPD cone.")
        download_row("utility-non-pd-share", fig=fig_s,
                     data=result.ok_n[result.ok_n["mechanism"] == specs.EUCLID.key], settings=url)


def _reduction_heading(table: pd.DataFrame) -> None:
    """The noise reduction section's title and the range of its reductions over n."""
    st.header("Ambient error of the intrinsic against the Euclidean mechanism, per n")
    saved = table[figures.REDUCTION].dropna()
    if len(saved):
        st.metric("Noise reduction in ambient error, intrinsic against Euclidean",
                  f"{saved.min():.0f}% to {saved.max():.0f}%",
                  help="100 · (1 − mean intrinsic error / mean Euclidean error) in ambient coordinates, over the "
                       "simulated n (Figure 1 reports this percentage per n); negative where the intrinsic error is "
                       "the larger.")


def _planner(result: utility.UtilityResult, settings: Settings) -> None:
    c, url = result.config, state.settings(list(settings.keys))
    target, solve = settings.target, settings.solve
    st.header("Budget planner")
    st.markdown("Error falls like 1/(nε), so one constant c per mechanism, fitted on the simulation, answers "
                "“what ε (or n) do I need for a target error?”. The flat lines below check the scaling.")
    points = result.scaling_points()
    fits = utility.fit_scaling(points)
    answers = utility.plan(fits, space=c.space, radius=c.radius, constant=result.constant, target=target,
                           solve=solve, held=c.n if solve == "eps" else c.epsilon)
    what = "ε" if solve == "eps" else "n"
    left, right = st.columns([3, 2])
    with left:
        fig_p = scaling_figure(points, fits)
        live_chart(fig_p, key="chart-scaling", fit=presenter.active(), **PLAIN_CHART)
        st.caption("Look for flat bands: a constant n·ε·error means error ∝ 1/(nε); the dotted level is the "
                   "fitted c (the median), and a bend at small n·ε is large noise leaving that regime.")
        download_row("utility-scaling", fig=fig_p, data=points, settings=url)
    with right:
        st.latex(r"\text{error} \approx \frac{c}{n\varepsilon} \;\Rightarrow\; "
                 + (rf"\varepsilon = \frac{{c}}{{{c.n} \cdot {target:g}}}" if solve == "eps"
                    else rf"n = \left\lceil\frac{{c}}{{{c.epsilon:g} \cdot {target:g}}}\right\rceil"))
        for row in answers.itertuples():
            st.metric(f"{utility.LABELS[row.mechanism]}: {what} needed for error {target:g}", f"{row.simulated:.4g}",
                      delta=f"theory: {row.theory:.4g}", delta_color="off", delta_arrow="off",
                      help=f"Fitted c = {row.c:.4g} (fitted exponent α = {row.alpha:.3f}; 1 means error ∝ "
                           f"1/(nε)).")
        outside = answers.loc[answers["outside"], "mechanism"]
        if len(outside):
            st.warning("Extrapolated beyond the simulated range of n·ε for "
                       + " and ".join(utility.LABELS[mechanism] for mechanism in outside)
                       + ": check the answer by simulating closer to it.")
    shown = pd.DataFrame({
        "mechanism": answers["mechanism"].map(utility.LABELS), "fitted c": answers["c"],
        "fitted exponent α": answers["alpha"],
        f"{what} needed (simulation)": answers["simulated"], f"{what} needed (theory)": answers["theory"],
        "simulated n·ε from": answers["lo"], "simulated n·ε to": answers["hi"],
    })
    st.table(tables.formatted(shown, skip=("mechanism",)), hide_index=True, border="horizontal")
    st.caption("Look at α (near 1: the 1/(nε) law holds on the simulated range); theory is √ of Theorem 3's "
               "bound (conservative, geodesic) for the Riemannian Laplace and the exact E‖noise‖ = Dσ_E for the "
               "Euclidean one.")
    download_row("utility-budget-planner", data=shown, settings=url)
