"""Sensitivity: how far can one record move the Fréchet mean? Theorem 2 of Reimherr, Bharath & Soto (2021)."""

import numpy as np
import pandas as pd
import streamlit as st

from engine import bounds
from ui import controls, errors, navigation, presets, state
from ui import sensitivity as sens
from ui.downloads import download_row

st.set_page_config(page_title="Sensitivity · Manifold Privacy Explorer", layout="wide")
navigation.sidebar()
sens.preset_from_url()
st.title("Sensitivity of the Fréchet mean")
st.markdown(
    "The Laplace mechanism adds noise in proportion to the **sensitivity** Δ: the largest distance the "
    "mean can move when one record of the data set is replaced. Reimherr, Bharath & Soto (2021, "
    "Theorem 2) bound it for data inside a geodesic ball of radius r on a space of curvature at most κ. "
    "Below, the bound is checked against simulated neighbouring data sets and explored as n, r and κ change."
)

space = controls.space(options=sens.SPACES)
r_key, k_key = f"r_{space}", f"kappa_{space}"
r_lo, r_hi = sens.RADIUS_RANGE[space]
radius = controls.slider(
    "Data radius r", r_key, min_value=r_lo, max_value=r_hi, default=float(sens.PAPER_RADIUS[space]), step=0.01,
    fmt="%.3f", help="All records lie within geodesic distance r of a public centre m0 (Assumption 1). "
                     "The default is the paper's study: r = π/8 on the sphere, r = 1.5 on SPD(2).")
kappa = controls.slider(
    "Curvature bound κ", k_key, min_value=sens.KAPPA_RANGE[0], max_value=sens.KAPPA_RANGE[1],
    default=sens.OWN_KAPPA[space], step=0.05,
    help="Upper bound on the sectional curvature fed to Theorem 2. The space's own value (1 for the unit "
         "sphere, 0 for SPD) is the default; κ = 0 stands for every κ ≤ 0, where h = 1.")
n = controls.sample_size(default=50, max_value=500)
reps = controls.slider(
    "Replicates", "reps", min_value=20, max_value=1000, default=100, step=10,
    help="Pairs of neighbouring data sets simulated per sample size. More replicates find larger moves "
         "but take longer.")
seed = controls.seed()
log_axes = controls.toggle("Logarithmic axes", "log", default=True,
                           help="Log–log axes turn Δ ∝ 1/n into a straight line of slope −1.")
st.sidebar.button("Theorem 2 on the sphere", key="preset-theorem2", on_click=sens.apply_preset,
                  args=("reimherr-theorem2",), help="S² with r = π/8, κ = 1 and n = 10, as in the paper's example. "
                                                    "Shareable as ?preset=reimherr-theorem2.")
KEYS = ["space", r_key, k_key, "n", "reps", "seed", "log"]
state.sync(KEYS)
settings = state.settings(KEYS)
presets.show_note(sens.PRESET_NOTE_KEY, sens.PRESET_NOTES)

m = sens.manifold(space)
own_kappa = sens.OWN_KAPPA[space]
limit = bounds.radius_limits(kappa, m.injectivity_radius).sensitivity
valid = radius < limit
h = float(bounds.curvature_factor(radius, kappa))

st.latex(r"\Delta(n, r, \kappa) = \frac{2r\,(2-h)}{n\,h},\qquad "
         r"h(r,\kappa) = \begin{cases} 2r\sqrt{\kappa}\,\cot\!\left(2r\sqrt{\kappa}\right) & \kappa > 0\\ "
         r"1 & \kappa \le 0\end{cases},\qquad "
         r"r < r^* = \min\left\{\tfrac{\mathrm{inj}}{2}, \tfrac{\pi}{4\sqrt{\kappa}}\right\}")
if valid:
    delta = float(bounds.frechet_mean_sensitivity(n, radius, kappa))
    st.latex(rf"h({radius:.3f}, {kappa:g}) = {h:.4f},\qquad \Delta = \frac{{2 \cdot {radius:.3f} \cdot (2 - {h:.4f})}}"
             rf"{{{n} \cdot {h:.4f}}} = {delta:.4g}")
else:
    delta = float("nan")
    st.warning(
        f"r = {radius:.3f} is at or beyond r* = {limit:.4f} = π/(4√κ) for κ = {kappa:g}, "
        f"where h(r, κ) falls to 0. "
        f"h measures how convex the squared distance stays across the ball, and the proof of Theorem 2 needs "
        f"h > 0, so the theorem does not apply: no bound is drawn, the simulated sensitivities still are. "
        f"Lower r below {limit:.4f} to see the bound.")
if kappa < own_kappa:
    st.warning(
        f"κ = {kappa:g} is below the curvature of {m.name} (κ = {own_kappa:g}). The bound then rests on a false "
        f"assumption and guarantees nothing: simulated dots may cross the dashed line.")

cols = st.columns(4)
cols[0].metric("h(r, κ)", f"{h:.4f}" if valid else "—",
               help="Curvature factor of Theorem 2: 1 on flat and negatively curved spaces, falling to 0 as r "
                    "approaches π/(4√κ).")
cols[1].metric(f"Bound Δ at n = {n}", f"{delta:.4g}" if valid else "—",
               help="Theorem 2: no pair of neighbouring data sets moves the mean further.")
cols[2].metric("Validity limit r*", f"{limit:.4f}" if np.isfinite(limit) else "∞",
               help="min{inj/2, π/(4√κ)}: Theorem 2 needs r < r*.")

st.subheader("Simulated sensitivity against n")
ns = sorted(set(sens.N_GRID) | {n})
progress = st.progress(0.0, text="Simulating neighbouring data sets …")
frames = []
with errors.shown_as_error("simulate neighbouring data sets"):
    for i, size in enumerate(ns):
        frames.append(sens.neighbour_sensitivity(space, radius, size, reps, seed))
        progress.progress((i + 1) / len(ns), text=f"Simulated n = {size} ({i + 1} of {len(ns)} sample sizes)")
progress.empty()
replicates = pd.concat(frames, ignore_index=True)
largest = float(replicates.loc[replicates["n"] == n, "sensitivity"].max())
cols[3].metric(f"Largest move at n = {n}", f"{largest:.4g}",
               delta=f"{100 * largest / delta:.0f}% of the bound" if valid else None, delta_color="off",
               delta_arrow="off",
               help="Maximum of ρ(x̄, x̄′) over the simulated pairs (random and adversarial replacements).")
fig = sens.empirical_figure(replicates, radius, kappa, valid, log=log_axes)
st.plotly_chart(fig, key="chart-empirical", theme=None, config={"displaylogo": False})
st.caption("Look at the dots (one pair of neighbouring data sets each): they stay under the dashed Theorem 2 line, "
           "adversarial replacements (a record moved across the ball) come closest, and all fall like 1/n.")
table = replicates.assign(bound=bounds.frechet_mean_sensitivity(replicates["n"], radius, kappa) if valid else np.nan)
download_row("sensitivity-vs-n", fig=fig, data=table, settings=settings)

against_r, against_kappa, constants, ambient = state.tabs(sens.TAB_KEY, sens.SECTIONS)
with against_r:
    if against_r.open:
        st.subheader("The bound against r")
        curves_r = sens.bound_vs_r(n, kappa, max(r_hi, radius))
        fig_r = sens.curves_figure(curves_r, x="r", x_title="data radius r", y_title=f"bound Δ at n = {n}",
                                   invalid_from=limit if np.isfinite(limit) else None,
                                   markers={f"r = {radius:.3f}": radius}, log_y=log_axes)
        st.plotly_chart(fig_r, key="chart-vs-r", theme=None, config={"displaylogo": False})
        st.caption(f"Look where the dashed bound leaves the grey flat-space line: curvature κ = {kappa:g} inflates it "
                   f"without limit as r nears π/(4√κ) (shaded; the curve stops at h = {sens.H_FLOOR}).")
        download_row("sensitivity-vs-r", fig=fig_r, data=curves_r, settings=settings)

with against_kappa:
    if against_kappa.open:
        st.subheader("The bound against κ")
        curves_k = sens.bound_vs_kappa(n, radius)
        kappa_limit = (np.pi / (4 * radius)) ** 2
        markers_k = {f"κ = {kappa:g}": kappa}
        if own_kappa != kappa:
            markers_k[f"{m.name}: κ = {own_kappa:g}"] = own_kappa
        fig_k = sens.curves_figure(curves_k, x="kappa", x_title="curvature bound κ", y_title=f"bound Δ at n = {n}",
                                   invalid_from=kappa_limit, markers=markers_k, log_y=log_axes)
        st.plotly_chart(fig_k, key="chart-vs-kappa", theme=None, config={"displaylogo": False})
        st.caption(f"Look how fast the bound rises with κ at r = {radius:.3f}, from the flat-space 2r/n at κ ≤ 0 to "
                   f"infinity at κ = (π/(4r))² = {kappa_limit:.3g} (shaded beyond).")
        download_row("sensitivity-vs-kappa", fig=fig_k, data=curves_k, settings=settings)

with constants:
    if constants.open:
        st.subheader("Curvature factor h and the supplement's boundary constant")
        with errors.shown_as_error("compute the boundary constant"):
            curves_c = sens.constants_vs_r(space, r_hi)
        fig_c = sens.curves_figure(curves_c, x="r", x_title="data radius r", y_title="value",
                                   invalid_from=bounds.radius_limits(own_kappa, m.injectivity_radius).sensitivity,
                                   markers={f"r = {radius:.3f}": radius})
        st.plotly_chart(fig_c, key="chart-constants", theme=None, config={"displaylogo": False})
        st.latex(r"2r\,(2-h)\quad\text{vs.}\quad C_{\partial B} = "
                 r"\max_{x_1, x_i, x_j \in \partial B_r(m_0)} \left\|\log_{x_1} x_i - \log_{x_1} x_j\right\|,"
                 r"\qquad \Delta = \frac{C_{\partial B}}{n\,h}\ \text{(the paper's sphere study)}")
        st.caption(f"Look at the pink boundary constant, which the paper's sphere study used in place of the green "
                   f"2r(2 − h) of Theorem 2 (κ = {own_kappa:g}, the curvature of {m.name}): where it is lower, the "
                   f"study added less noise than the theorem asks.")
        download_row("sensitivity-constants", fig=fig_c, data=curves_c, settings=settings)

with ambient:
    if ambient.open:
        st.subheader("Intrinsic against ambient sensitivity")
        left, right = st.columns([3, 2])
        with left:
            curves_a = sens.intrinsic_vs_ambient(space, radius, kappa, valid)
            fig_a = sens.curves_figure(curves_a, x="n", x_title="sample size n", y_title="sensitivity",
                                       markers={f"n = {n}": n}, log_x=log_axes, log_y=log_axes)
            st.plotly_chart(fig_a, key="chart-ambient", theme=None, config={"displaylogo": False})
            st.caption("Look at the gap between the lines: Δ_E/Δ is the ratio σ_E/σ of the noise scales of the "
                       "Euclidean and the intrinsic Laplace mechanisms at the same ε.")
            download_row("sensitivity-intrinsic-vs-ambient", fig=fig_a, data=curves_a, settings=settings)
        with right:
            r_e = float(bounds.ambient_radius(m, radius))
            delta_e = float(bounds.ambient_sensitivity(n, r_e))
            if space == "spd":
                st.latex(rf"r_E = e^{{r}} - 1 = e^{{{radius:.3f}}} - 1 = {r_e:.4f}")
                st.markdown("On SPD(2) the ball B_r(I) reaches Frobenius distance e^r − 1 from I (supplement, "
                            "Proposition 1): the ambient radius grows exponentially with r.")
            else:
                st.latex(rf"r_E = 2\sin(r/2) = 2\sin({radius:.3f}/2) = {r_e:.4f}")
                st.markdown("On the sphere the chord is shorter than the arc, so the ambient sensitivity is the "
                            "smaller one; but ambient noise pushes the release off the sphere (see the Utility page).")
            st.latex(rf"\Delta_E = \frac{{2 r_E}}{{n}} = \frac{{2 \cdot {r_e:.4f}}}{{{n}}} = {delta_e:.4g}")
            sub = st.columns(2)
            sub[0].metric(f"Intrinsic Δ at n = {n}", f"{delta:.4g}" if valid else "—",
                          help="Theorem 2, a bound on the geodesic distance ρ(x̄, x̄′).")
            sub[1].metric(f"Ambient Δ_E at n = {n}", f"{delta_e:.4g}",
                          delta=f"× {delta_e / delta:.2f} the intrinsic Δ" if valid else None, delta_color="off",
                          delta_arrow="off",
                          help="A bound on the Euclidean distance between the ambient means.")
