"""What the Sensitivity page shows of a result: Theorem 2's formula and numbers, the simulated
sensitivities against n, and the sections of the bound against r and κ, the curvature factor and the
intrinsic against the ambient sensitivity (only the chosen one is computed)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from engine import formulas, spaces
from engine.pipelines import sensitivity, settings_file
from engine.viz import sensitivity as figures
from ui import errors, first_paint, reproduce, sections, state
from ui.downloads import download_row
from ui.figure_cache import cache_figures
from ui.live_chart import PLAIN_CHART, live_chart
from ui.sensitivity.compute import boundary_constants
from ui.sensitivity.controls import Settings
from ui.spaces import view

#: The page's secondary charts, one button each of the section switch (URL parameter ``sens_view``); only the chosen one is drawn.
SECTION_KEY = "sens_view"
SECTIONS = ("Against r", "Against κ", "Curvature factor h", "Intrinsic vs ambient")

curves_figure = cache_figures(max_entries=32)(figures.curves_figure)


@cache_figures(max_entries=32)
def empirical_figure(replicates, bound, *, log: bool):
    """``figures.empirical_figure`` with the summary of ``replicates`` (computed once per cached figure)."""
    return figures.empirical_figure(replicates, sensitivity.summarise(replicates), bound, log=log)


def show(result: sensitivity.SensitivityResult, settings: Settings) -> None:
    """The whole page below the intro: the bound, the simulation and the sections."""
    first_paint.in_full_run(lambda: _summary(result))
    fig = empirical_figure(result.replicates, result.bound_curve(), log=settings.log_axes)
    first_paint.main_chart(fig, key="chart-empirical", **PLAIN_CHART)
    st.caption("Look at the dots (one pair of neighbouring data sets each): they stay under the dashed Theorem 2 line, "
               "adversarial replacements (a record moved across the ball) come closest, and all fall like 1/n.")
    download_row("sensitivity-vs-n", fig=fig, data=result.table(),
                 settings=settings_file.payload("sensitivity", settings.config), pipeline="sensitivity")
    reproduce.expander("sensitivity", settings.config)

    t2 = result.theorem2
    sections.show(SECTION_KEY, dict(zip(SECTIONS, (
        lambda: _against_r(t2, settings), lambda: _against_kappa(t2, settings), lambda: _constants(t2, settings),
        lambda: _ambient(t2, settings)))))


def _summary(result: sensitivity.SensitivityResult) -> None:
    """Theorem 2's bound, its numbers and the largest simulated move, above the chart of the simulation."""
    t2 = result.theorem2
    _show_bound(t2)
    cols = st.columns(4)
    cols[0].metric("h(r, κ)", f"{t2.h:.4f}" if t2.valid else "—",
                   help="Curvature factor of Theorem 2: 1 on flat and negatively curved spaces, falling to 0 as r "
                        "approaches π/(4√κ).")
    cols[1].metric(f"Bound Δ at n = {t2.n}", f"{t2.delta:.4g}" if t2.valid else "—",
                   help="Theorem 2: no pair of neighbouring data sets moves the mean further.")
    cols[2].metric("Validity limit r*", f"{t2.limit:.4f}" if np.isfinite(t2.limit) else "∞",
                   help="min{inj/2, π/(4√κ)}: Theorem 2 needs r < r*.")
    st.header("Simulated sensitivity against n")
    largest = result.largest
    cols[3].metric(f"Largest move at n = {t2.n}", f"{largest:.4g}",
                   delta=f"{100 * largest / t2.delta:.0f}% of the bound" if t2.valid else None, delta_color="off",
                   delta_arrow="off",
                   help="Maximum of ρ(x̄, x̄′) over the simulated pairs (random and adversarial replacements).")


def _show_bound(t2: sensitivity.Theorem2) -> None:
    """Theorem 2's formula with the numbers plugged in, or why it does not apply."""
    st.latex(formulas.rows(
        r"\Delta(n, r, \kappa) &= \frac{2r\,(2-h)}{n\,h},",
        r"h(r,\kappa) &= \begin{cases} 2r\sqrt{\kappa}\,\cot\!\left(2r\sqrt{\kappa}\right) & \kappa > 0\\ "
        r"1 & \kappa \le 0\end{cases},",
        r"r &< r^* = \min\left\{\tfrac{\mathrm{inj}}{2}, \tfrac{\pi}{4\sqrt{\kappa}}\right\}"))
    r, kappa, h = t2.radius, t2.kappa, t2.h
    if t2.valid:
        st.latex(formulas.rows(rf"h({r:.3f}, {kappa:g}) &= {h:.4f},",
                               rf"\Delta &= \frac{{2 \cdot {r:.3f} \cdot (2 - {h:.4f})}}{{{t2.n} \cdot {h:.4f}}}",
                               rf"&= {t2.delta:.4g}"))
    else:
        st.warning(
            f"r = {r:.3f} is at or beyond r* = {t2.limit:.4f} = π/(4√κ) for κ = {kappa:g}, "
            f"where h(r, κ) falls to 0. "
            f"h measures how convex the squared distance stays across the ball, and the proof of Theorem 2 needs "
            f"h > 0, so the theorem does not apply: no bound is drawn, the simulated sensitivities still are. "
            f"Lower r below {t2.limit:.4f} to see the bound.")
    if t2.below_own:
        st.warning(
            f"κ = {kappa:g} is below the curvature of {t2.manifold_name} (κ = {t2.own_kappa:g}). The bound then "
            f"rests on a false assumption and guarantees nothing: simulated dots may cross the dashed line.")


def _against_r(t2: sensitivity.Theorem2, settings: Settings) -> None:
    st.header("The bound against r")
    curves = sensitivity.bound_vs_r(t2.n, t2.kappa, max(settings.radius_max, t2.radius))
    fig = curves_figure(curves, x="r", x_title="data radius r", y_title=f"bound Δ at n = {t2.n}",
                        invalid_from=t2.limit if np.isfinite(t2.limit) else None,
                        markers={f"r = {t2.radius:.3f}": t2.radius}, log_y=settings.log_axes)
    live_chart(fig, key="chart-vs-r", **PLAIN_CHART)
    st.caption(f"Look where the dashed bound leaves the grey flat-space line: curvature κ = {t2.kappa:g} inflates it "
               f"without limit as r nears π/(4√κ) (shaded; the curve stops at h = {sensitivity.H_FLOOR}).")
    download_row("sensitivity-vs-r", fig=fig, data=curves, settings=state.settings(list(settings.keys)))


def _against_kappa(t2: sensitivity.Theorem2, settings: Settings) -> None:
    st.header("The bound against κ")
    curves = sensitivity.bound_vs_kappa(t2.n, t2.radius)
    markers = {f"κ = {t2.kappa:g}": t2.kappa}
    if t2.own_kappa != t2.kappa:
        markers[f"{t2.manifold_name}: κ = {t2.own_kappa:g}"] = t2.own_kappa
    fig = curves_figure(curves, x="kappa", x_title="curvature bound κ", y_title=f"bound Δ at n = {t2.n}",
                        invalid_from=t2.kappa_limit, markers=markers, log_y=settings.log_axes)
    live_chart(fig, key="chart-vs-kappa", **PLAIN_CHART)
    st.caption(f"Look how fast the bound rises with κ at r = {t2.radius:.3f}, from the flat-space 2r/n at κ ≤ 0 to "
               f"infinity at κ = (π/(4r))² = {t2.kappa_limit:.3g} (shaded beyond).")
    download_row("sensitivity-vs-kappa", fig=fig, data=curves, settings=state.settings(list(settings.keys)))


def _constants(t2: sensitivity.Theorem2, settings: Settings) -> None:
    st.header("Curvature factor h and the supplement's boundary constant")
    r_max = settings.radius_max
    with errors.shown_as_error("compute the boundary constant"):
        boundary = boundary_constants(settings.space, sensitivity.boundary_radii(r_max))
    curves = sensitivity.constants_vs_r(settings.space, r_max, boundary)
    fig = curves_figure(curves, x="r", x_title="data radius r", y_title="value", invalid_from=t2.own_limit,
                        markers={f"r = {t2.radius:.3f}": t2.radius})
    live_chart(fig, key="chart-constants", **PLAIN_CHART)
    st.latex(formulas.rows(
        r"&2r\,(2-h)\quad\text{vs.}",
        r"C_{\partial B} &= \max_{x_1, x_i, x_j \in \partial B_r(m_0)} \left\|\log_{x_1} x_i - \log_{x_1} x_j\right\|,",
        r"\Delta &= \frac{C_{\partial B}}{n\,h}\ \text{(the paper's sphere study)}"))
    st.caption(f"Look at the pink boundary constant, which the paper's sphere study used in place of the green "
               f"2r(2 − h) of Theorem 2 (κ = {t2.own_kappa:g}, the curvature of {t2.manifold_name}): where it is "
               f"lower, the study added less noise than the theorem asks.")
    download_row("sensitivity-constants", fig=fig, data=curves, settings=state.settings(list(settings.keys)))


def _ambient(t2: sensitivity.Theorem2, settings: Settings) -> None:
    st.header("Intrinsic against ambient sensitivity")
    left, right = st.columns([3, 2])
    with left:
        curves = sensitivity.intrinsic_vs_ambient(settings.space, t2.radius, t2.kappa)
        fig = curves_figure(curves, x="n", x_title="sample size n", y_title="sensitivity",
                            markers={f"n = {t2.n}": t2.n}, log_x=settings.log_axes, log_y=settings.log_axes)
        live_chart(fig, key="chart-ambient", **PLAIN_CHART)
        st.caption("Look at the gap between the lines: Δ_E/Δ is the ratio σ_E/σ of the noise scales of the "
                   "Euclidean and the intrinsic Laplace mechanisms at the same ε.")
        download_row("sensitivity-intrinsic-vs-ambient", fig=fig, data=curves,
                     settings=state.settings(list(settings.keys)))
    with right:
        r, r_e, delta_e = t2.radius, t2.ambient_radius, t2.ambient_delta
        entry = spaces.space(settings.space)
        st.latex(formulas.chain("r_E", entry.ambient_radius_formula(), entry.ambient_radius_formula(f"{r:.3f}"),
                                f"{r_e:.4f}"))
        st.markdown(view(settings.space).figure1.ambient_note)
        st.latex(formulas.chain(r"\Delta_E", r"\frac{2 r_E}{n}", rf"\frac{{2 \cdot {r_e:.4f}}}{{{t2.n}}}", f"{delta_e:.4g}"))
        row = st.container(horizontal=True, horizontal_alignment="distribute")  # wraps rather than cuts a label
        row.metric(f"Intrinsic Δ at n = {t2.n}", f"{t2.delta:.4g}" if t2.valid else "—", width="content",
                   help="Theorem 2, a bound on the geodesic distance ρ(x̄, x̄′).")
        row.metric(f"Ambient $\\Delta_E$ at n = {t2.n}", f"{delta_e:.4g}", width="content",
                   delta=f"× {delta_e / t2.delta:.2f} the intrinsic Δ" if t2.valid else None, delta_color="off",
                   delta_arrow="off",
                   help="A bound on the Euclidean distance between the ambient means.")
