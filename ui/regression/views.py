"""What the Private regression page shows of a run, one section at a time (only the chosen one is drawn,
and only the Figure 1 section runs its study): the fitted and private geodesics with the release energies,
Table 1 with the assumption checks, the guarantee and the sampler diagnostics, and Figure 1's curves.

Text from the engine (messages, assumption details) is shown as literal text, never as markdown.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from engine.mechanisms.multichain import RHAT_LIMIT
from engine.pipelines import settings_file
from engine.pipelines.private_regression import RegressionResult
from engine.viz.regression import figure1_panels
from ui import errors, first_paint, presenter, reproduce, sections, tables
from ui.downloads import download_row
from ui.live_chart import live_chart
from ui.progress import DelayedProgress
from ui.regression import figures
from ui.regression.compute import PAGE_PAIRS, PAGE_VELOCITY_WARMUP, PAGE_WARMUP, compute, figure1, main_figure
from ui.regression.controls import Settings

#: The page's sections, one button each of the section switch (URL parameter ``reg_view``).
SECTION_KEY = "reg_view"
SECTIONS = ("Fitted and private geodesics", "Table 1 and diagnostics", "Figure 1 curves")
CHART = {"config": {"displaylogo": False}}


def show(settings: Settings) -> None:
    """The whole page below the introduction: the chosen section. The private run is computed by the sections
    that show it (not by the Figure 1 section, which runs its own study: Home's preset opens that section)."""
    url = settings_file.payload("regression", settings.config)
    draws = (show_geodesics, show_checks, show_figure1)
    sections.show(SECTION_KEY, {label: partial(draw, settings, url) for label, draw in zip(SECTIONS, draws)})


def show_geodesics(settings: Settings, url: dict) -> None:
    """The non-private and private predictions, and the energy of each release."""
    result = compute(settings)
    fig = main_figure(settings.config)
    first_paint.main_chart(fig, key="reg-main-chart", **CHART)
    st.caption("Each private outline is rotated onto the non-private prediction at the same covariate value, so "
               "what differs is the shape. High dimension is expensive: Σ^k_2 has 2k − 4 dimensions and the "
               "K-norm noise radius grows like (2k − 4)·σ.")
    show_spread(result)
    st.table(tables.readable(result.energies.round(5)), hide_index=True, border="horizontal")
    download_row(f"regression-{settings.dataset}", fig=fig, data=result.energies, settings=url,
                 pipeline="private-regression")
    reproduce.expander("regression", settings.config)


#: Private footpoints this far out on average (as a fraction of the public ball's radius) sit near its edge.
FLAT_FRACTION = 0.75


def show_spread(result: RegressionResult) -> None:
    """Say so when the private footpoints lie near the edge of the public ball: the K-norm law is then
    nearly flat over the ball, and a slightly larger ε_p leaves the seeded releases where they were."""
    if result.footpoint_spread < FLAT_FRACTION:
        return
    radius = result.ball_radius
    st.info(f"At this budget the footpoint law is nearly flat over the public ball: the private footpoints lie on "
            f"average {result.footpoint_spread * radius:.3g} from the non-private fit, and the ball's radius is "
            f"{radius:.3g}. With residuals clipped at τ = {result.config.tau:g} the gradient norm levels off near "
            f"τ, so the log-density varies by only about τ/σ_p = {result.config.tau / result.footpoint_sigma:.3g} "
            f"over the ball, while in {result.manifold.dim} dimensions almost all of a ball's volume lies near its "
            "edge. Raising ε_p a little then leaves the releases where they are; a larger ε_p or n concentrates "
            "them near the fit (Kulkarni & Soto's densities, §3).")


def show_checks(settings: Settings, url: dict) -> None:
    """Table 1, the assumption checks, the guarantee, the chains' diagnostics and the footpoint trace."""
    result = compute(settings)
    left, right = st.columns(2, gap="large")
    with left:
        st.header("Table 1 with the numbers plugged in")
        show_table1(result)
        st.header("Assumptions checked")
        show_assumptions(result)
    with right:
        st.header("Privacy guarantee")
        show_guarantee(result)
    st.header("Metropolis–Hastings diagnostics")
    show_diagnostics(result)
    live_chart(figures.trace(result), key="reg-trace-chart", fit=presenter.active(), **CHART)


def show_figure1(settings: Settings, url: dict) -> None:
    """Figure 1 of the paper on the synthetic shapes, and Table 1 against simulated neighbours."""
    st.markdown("Figure 1 of the paper on the synthetic shapes: ln of the average energy of "
                f"{PAGE_PAIRS} private pairs per budget split, after {PAGE_WARMUP} footpoint and "
                f"{PAGE_VELOCITY_WARMUP} shooting-vector warm-up steps (the command line "
                "`python -m engine.experiments kulkarni-soto-fig1` draws 100 pairs after 400 and 60).")
    with st.spinner("Running the Figure 1 grid (a few seconds the first time)…"), \
            errors.shown_as_error("run the Figure 1 study"), DelayedProgress() as progress:
        fig1 = figure1(settings.n, settings.k, settings.tau, settings.scale, settings.clip, settings.seed,
                       progress=progress)
    for index, (name, fig) in enumerate(figure1_panels(fig1["curves"]).items()):
        live_chart(fig, key=f"reg-{name}", fit=presenter.active() and index == 0, **CHART)
    st.header("Table 1 against simulated neighbours")
    st.table(tables.readable(fig1["sensitivity"].round(6)), hide_index=True, border="horizontal")
    download_row("kulkarni-soto-fig1", data=fig1["curves"], settings=url, study="kulkarni-soto-fig1")


def show_table1(result: RegressionResult) -> None:
    """Kulkarni & Soto's Table 1 with this run's n, τ and σ plugged in."""
    st.table(result.table1.round(6), hide_index=True, border="horizontal")
    st.caption("Kulkarni & Soto's Table 1 with κ_l = " f"{result.manifold.kappa_min:g}" " (the lower curvature bound "
               "of this space). The noise scale is σ = 2Δ/ε (ε-DP) or the paper's Δ/ε (then 2ε-DP).")


def show_assumptions(result: RegressionResult) -> None:
    """One box per assumption of Table 1 and the guarantee: green when it holds, amber when it fails."""
    for check in result.assumptions:
        box = st.success if check.holds else st.warning
        box(f"{check.name}: {'holds' if check.holds else 'fails'} — {check.detail}", icon=None)


def show_guarantee(result: RegressionResult) -> None:
    """The composed (ε_p + ε_v) guarantee of the exact K-norm law, its rule, and why it holds under which
    assumptions; a warning that it is not established for these draws while the chains disagree."""
    g = result.guarantee
    st.metric("Guarantee of the exact K-norm law", f"ε = {g.epsilon:g}, δ = 0",
              help="The releases are Metropolis–Hastings draws: they carry this guarantee only as far as the chains "
                   "have reached the K-norm law (see the diagnostics).")
    worst = result.worst_rhat
    if result.chains_disagree:
        st.warning(f"Not established for these releases: split R̂ = {worst:.3f} > {RHAT_LIMIT}, so the chains have not "
                   "reached the law the guarantee is about. Raise the warm-up and thinning until R̂ ≤ "
                   f"{RHAT_LIMIT}.")
    st.text(g.rule)
    with st.expander("Why, and what it assumes"):
        st.text(g.reason)
        for item in g.assumptions:
            st.text(f"• {item}")


def show_diagnostics(result: RegressionResult) -> None:
    """Acceptance, split R̂ and ESS of both steps' chains, with a warning when R̂ exceeds ``RHAT_LIMIT``."""
    st.table(result.diagnostics.round(3), hide_index=True, border="horizontal")
    worst = result.worst_rhat
    if result.chains_disagree:
        st.warning(f"Split R̂ = {worst:.3f} > {RHAT_LIMIT}: the chains disagree, so the draws may not follow the "
                   "K-norm gradient law yet (the guarantee is that of the exact law).")
    st.caption("Four chains per target from over-dispersed starts; rank-normalised split-R̂ and bulk/tail ESS of the "
               "log density (arviz-stats). These depend on the data: they are for the curator, not for publication.")
