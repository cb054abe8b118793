"""Utility: how much error does ε-differential privacy cost? Intrinsic against Euclidean Laplace."""

import numpy as np
import pandas as pd
import streamlit as st

from engine import bounds
from ui import controls, errors, formulas, navigation, state, tables
from ui import utility as util
from ui.downloads import download_row
from ui.sensitivity import PAPER_RADIUS, RADIUS_RANGE, SPACES, manifold

st.set_page_config(page_title="Utility · Manifold Privacy Explorer", layout="wide")
navigation.sidebar()
util.preset_from_url()
st.title("Utility: the price of privacy")
st.markdown(
    "Each simulated data set lies in a ball B_r(m0). The **Riemannian Laplace** mechanism releases its Fréchet mean "
    "with noise along the space; the **Euclidean Laplace** mechanism releases its ambient (arithmetic) mean, the "
    "statistic whose sensitivity 2r_E/n it is calibrated to, with noise in flat ambient coordinates. With Theorem "
    "2's constant both are ε-differentially private for records in the ball; the sphere's default constant, the "
    "paper's numerical boundary maximum, is smaller than Theorem 2's and not a proven bound. The question is which "
    "release stays closer to the truth, the Fréchet mean: the error is the ambient Euclidean distance ‖x̃ − x̄‖, "
    "as in Figure 1 of Reimherr, Bharath & Soto (2021)."
)

space = controls.space(options=SPACES)
r_key = f"r_{space}"
r_lo, r_hi = RADIUS_RANGE[space]
radius = controls.slider(
    "Data radius r", r_key, min_value=r_lo, max_value=r_hi, default=float(PAPER_RADIUS[space]), step=0.01,
    fmt="%.3f", help="Records lie within geodesic distance r of m0; the noise grows with r. "
                     "Figure 1 uses r = π/8 on the sphere and r = 1.5 on SPD(2).")
sphere_constant = "theorem"
if space == "sphere":
    sphere_constant = controls.select(
        "Sensitivity constant", "sconst", util.CONSTANTS, "empirical",
        help="C in σ = C/(nε). Theorem 2 gives C = 2r(2 − h)/h; the paper's sphere study put the supplement's "
             "boundary constant max ‖log_{x1} x_i − log_{x1} x_j‖ over ∂B_r in place of 2r(2 − h).")
grid_key = controls.select("Sample sizes n", "ngrid", util.N_GRID_LABELS, "quick",
                           help="The values of n of the error-against-n chart; Figure 1 uses ten sizes from 10 to 300.")
eps = controls.epsilon()
n = controls.slider("Sample size n of the ε sweep", "n", min_value=5, max_value=500, default=50, step=5,
                    help="The error-against-ε chart holds n at this value.")
reps = controls.slider("Replicates", "reps", min_value=20, max_value=1000, default=100, step=10,
                       help="Data sets simulated per point. Figure 1 used 1,000; fewer are faster, with wider bands.")
seed = controls.seed()
log_axes = controls.toggle("Logarithmic axes", "log", default=True,
                           help="Log–log axes turn error ∝ 1/(nε) into a straight line of slope −1.")
paper_baseline = controls.toggle(
    "Add the paper's Euclidean baseline (not ε-DP)", "paper", default=False,
    help="Figure 1 adds the Euclidean noise around the Fréchet mean, whose ambient sensitivity exceeds 2r_E/n: "
         "that release is not ε-DP (its true ε on a neighbouring pair is printed below the charts).")
st.sidebar.button("Load Figure 1 settings", key="preset-fig1", on_click=util.apply_preset, args=("reimherr-fig1",),
                  help="SPD(2) with r = 1.5 (sphere: r = π/8), n = 10 … 300, ε = 1, 200 replicates. "
                       "Shareable as ?preset=reimherr-fig1.")
st.sidebar.subheader("Budget planner")
target = controls.slider("Target mean error", "target", min_value=0.005, max_value=1.0, default=0.05, step=0.005,
                         help="The mean ambient error ‖x̃ − x̄‖ you can accept; the planner finds the ε or n it "
                              "needs.")
solve = controls.select("Solve for", "solve", {"eps": "ε, holding n of the ε sweep", "n": "n, holding ε"}, "eps",
                        help="Which of the two the planner finds; the other keeps its sidebar value.")
KEYS = ["space", r_key, *(["sconst"] if space == "sphere" else []), "ngrid", "eps", "n", "reps", "seed", "log",
        "paper", "target", "solve"]
state.sync(KEYS)
settings = state.settings(KEYS)

if st.session_state.pop("preset-note", None):
    where = ("S² with r = π/8 and the supplement's boundary constant (switch the space for SPD(2) with r = 1.5)"
             if space == "sphere" else "SPD(2) with r = 1.5 (switch the space for S² with r = π/8)")
    st.info(f"Loaded the settings of Figure 1 of Reimherr, Bharath & Soto (2021): {where}, n = 10 … 300, ε = 1. "
            "The paper averaged 1,000 replicates; the preset uses 200 to keep the page quick: raise the Replicates "
            "slider to match.")

m = manifold(space)
limit = bounds.radius_limits(m.kappa_max, m.injectivity_radius).sensitivity
if radius >= limit:
    st.warning(f"r = {radius:.3f} is at or beyond π/(4√κ) = {limit:.4f}, where Theorem 2 stops applying: neither "
               f"its constant nor the paper's boundary constant (which replaces a step of its proof) calibrates the "
               f"noise there. Lower r below {limit:.4f}.")
with errors.shown_as_error("calibrate the noise"):
    constant = util.noise_constant(space, radius, sphere_constant)
r_e = float(bounds.ambient_radius(m, radius))
st.latex(formulas.rows(
    rf"\sigma &= \frac{{C}}{{n\varepsilon}},\ C = {constant:.4f} && \text{{at }} n = {n},\ \varepsilon = {eps:g}:\ "
    rf"\sigma = {constant / (n * eps):.4g}",
    rf"\sigma_E &= \frac{{2 r_E}}{{n\varepsilon}},\ r_E = {r_e:.4f} && \sigma_E = {2 * r_e / (n * eps):.4g}"))

grid = util.N_GRIDS[grid_key]
eps_grid = tuple(sorted(set(util.EPS_GRID) | {eps}))
progress = st.progress(0.0, text="Simulating releases …")
parts = []
with errors.shown_as_error("simulate the releases"):
    for i, size in enumerate(grid):
        parts.append(util.release_summary(space, radius, size, reps, seed, constant, (eps,), paper_baseline))
        progress.progress((i + 1) / (len(grid) + 1), text=f"Simulated n = {size} ({i + 1} of {len(grid) + 1} steps)")
    by_eps = util.release_summary(space, radius, n, reps, seed, constant, eps_grid, paper_baseline)
progress.empty()
by_n = pd.concat(parts, ignore_index=True)
skipped = pd.concat([by_n, by_eps])
skipped = skipped[skipped["status"] != "ok"].drop_duplicates(["n", "epsilon", "mechanism"])
if len(skipped):
    st.warning("Left out of the charts (the Riemannian Laplace law needs σ below the space's limit; Theorem 3's "
               "ball-conditioned mechanism would be needed there): "
               + "; ".join(f"n = {row.n}, ε = {row.epsilon:g}: {row.status}" for row in skipped.itertuples()))
ok_n, ok_eps = by_n[by_n["status"] == "ok"], by_eps[by_eps["status"] == "ok"]
if ok_n.empty or ok_eps.empty:
    st.error("No release could be simulated with these settings: raise ε or lower r.")
    st.stop()

curves, reduction, planner = state.tabs(util.TAB_KEY, util.SECTIONS)
with curves:
    if curves.open:
        euclid = util.euclidean_constant(space, radius)
        left, right = st.columns(2)
        with left:
            st.subheader(f"Error against n (ε = {eps:g})")
            n_fine = np.unique(np.geomspace(min(grid), max(grid), 60).round(2))
            bound_n = pd.DataFrame({"n": n_fine, "bound": util.sqrt_bound(space, radius, constant / (n_fine * eps))})
            euclid_n = pd.DataFrame({"n": n_fine, "bound": euclid / (n_fine * eps)})
            fig_n = util.error_figure(ok_n, x="n", x_title="sample size n", bound=bound_n, euclid=euclid_n,
                                      log=log_axes)
            st.plotly_chart(fig_n, key="chart-error-n", theme=None, config={"displaylogo": False})
            st.caption("Look at the gap between the blue (intrinsic) and vermillion (Euclidean) bands at the same "
                       "privacy; dashed: √ of Theorem 3's bound on E ρ² (it bounds the squared geodesic error); "
                       "dotted: Dσ_E, the Euclidean noise alone (the ambient mean's distance to the Fréchet mean "
                       "adds to it).")
            download_row("utility-vs-n", fig=fig_n, data=by_n, settings=settings)
        with right:
            st.subheader(f"Error against ε (n = {n})")
            eps_fine = np.geomspace(min(eps_grid), max(eps_grid), 60)
            bound_e = pd.DataFrame({"epsilon": eps_fine,
                                    "bound": util.sqrt_bound(space, radius, constant / (n * eps_fine))})
            euclid_e = pd.DataFrame({"epsilon": eps_fine, "bound": euclid / (n * eps_fine)})
            fig_e = util.error_figure(ok_eps, x="epsilon", x_title="privacy budget ε", bound=bound_e,
                                      euclid=euclid_e, log=log_axes)
            st.plotly_chart(fig_e, key="chart-error-eps", theme=None, config={"displaylogo": False})
            st.caption("Look at the slope: error ∝ 1/ε while the noise is small; large noise bends the intrinsic "
                       "curve (it saturates on the bounded sphere and grows faster on SPD, whose ambient distances "
                       "grow exponentially).")
            download_row("utility-vs-eps", fig=fig_e, data=by_eps, settings=settings)
        st.latex(r"\mathbb{E}\,\rho(\tilde x, \bar x)^2 \le \frac{C_2}{C_1}\, d(d+1)\,\sigma^2 \quad\text{(Theorem 3)},"
                 r"\qquad \mathbb{E}\,\|\tilde x_E - \bar x_E\| = D\,\sigma_E \quad "
                 r"(\text{radius} \sim \sigma_E\,\Gamma(D, 1))")
        st.caption("x̄_E is the ambient mean, the statistic the Euclidean mechanism releases.")
        if paper_baseline:
            pair = util.baseline_privacy(space, radius, min(grid), eps)
            shown = pair.assign(baseline=pair["baseline"].map(util.LABELS))[
                ["baseline", "pair", "n", "claimed_epsilon", "gap", "sensitivity", "true_epsilon_on_pair"]]
            paper_row = pair.set_index("baseline").loc["paper euclidean baseline"]
            st.warning(
                f"The paper's baseline adds noise calibrated to Δ_E = 2r_E/n around the Fréchet mean, whose ambient "
                f"sensitivity is larger: on the worse of two neighbouring pairs of boundary points (below) its true ε is {paper_row.true_epsilon_on_pair:.3g} for a claimed "
                f"{eps:g} ({paper_row.ratio:.3g}×). It is drawn for comparison with the paper, not as a private "
                f"release.")
            st.table(tables.formatted(shown, skip=("baseline", "pair", "n")), hide_index=True, border="horizontal")

with reduction:
    if reduction.open:
        st.subheader("Noise reduction of the intrinsic mechanism, per n")
        table = util.reduction_table(ok_n)
        saved = table["noise reduction (%)"].dropna()
        if len(saved):
            st.metric("Noise reduction, intrinsic against Euclidean", f"{saved.min():.0f}% – {saved.max():.0f}%",
                      help="100 · (1 − mean intrinsic error / mean Euclidean error), over the simulated n (Figure 1 "
                           "reports this percentage per n).")
        st.latex(r"\text{reduction} = 100\left(1 - \frac{\overline{\|\tilde x_{\mathrm{Riem}} - \bar x\|}}"
                 r"{\overline{\|\tilde x_{E} - \bar x\|}}\right)\%")
        st.table(tables.formatted(table, skip=("n",)), hide_index=True, border="horizontal")
        st.caption("Look at the reduction column, the share of error the intrinsic mechanism saves at each n, and at "
                   "the last two: the RMS geodesic error stays under √ of Theorem 3's bound.")
        download_row("utility-noise-reduction", data=table, settings=settings)
        if space == "spd":
            st.subheader("Euclidean releases that are not positive definite")
            fig_s = util.share_figure(ok_n, log=log_axes)
            st.plotly_chart(fig_s, key="chart-share", theme=None, config={"displaylogo": False})
            st.caption("Look at small n: a large share of the Euclidean releases are not covariance matrices at "
                       "all; the intrinsic mechanism never leaves the SPD cone.")
            download_row("utility-non-pd-share", fig=fig_s, data=ok_n[ok_n["mechanism"] == "euclidean laplace"],
                         settings=settings)

with planner:
    if planner.open:
        st.subheader("Budget planner")
        st.markdown("Error falls like 1/(nε), so one constant c per mechanism, fitted on the simulation, answers "
                    "“what ε (or n) do I need for a target error?”. The flat lines below check the scaling.")
        points = pd.concat([ok_n, ok_eps]).drop_duplicates(["n", "epsilon", "mechanism"])
        points = points[points["mechanism"] != "paper euclidean baseline"]  # plan with private mechanisms only
        fits = util.fit_scaling(points)
        theory = {"riemannian laplace": float(util.sqrt_bound(space, radius, constant)),
                  "euclidean laplace": util.euclidean_constant(space, radius)}
        held = n if solve == "eps" else eps
        answers = fits.assign(simulated=fits["c"] / (held * target),
                              theory=fits["mechanism"].map(theory) / (held * target))
        if solve == "n":
            answers[["simulated", "theory"]] = np.ceil(answers[["simulated", "theory"]])
        what = "ε" if solve == "eps" else "n"
        left, right = st.columns([3, 2])
        with left:
            fig_p = util.scaling_figure(points, fits)
            st.plotly_chart(fig_p, key="chart-scaling", theme=None, config={"displaylogo": False})
            st.caption("Look for flat bands: a constant n·ε·error means error ∝ 1/(nε); the dotted level is the "
                       "fitted c (the median), and a bend at small n·ε is large noise leaving that regime.")
            download_row("utility-scaling", fig=fig_p, data=points, settings=settings)
        with right:
            st.latex(r"\text{error} \approx \frac{c}{n\varepsilon} \;\Rightarrow\; "
                     + (rf"\varepsilon = \frac{{c}}{{{n} \cdot {target:g}}}" if solve == "eps"
                        else rf"n = \left\lceil\frac{{c}}{{{eps:g} \cdot {target:g}}}\right\rceil"))
            for row in answers.itertuples():
                st.metric(f"{util.LABELS[row.mechanism]}: {what} needed for error {target:g}", f"{row.simulated:.4g}",
                          delta=f"theory: {row.theory:.4g}", delta_color="off", delta_arrow="off",
                          help=f"Fitted c = {row.c:.4g} (fitted exponent α = {row.alpha:.3f}; 1 means error ∝ "
                               f"1/(nε)).")
            needed = answers["c"] / target  # the n·ε the answer asks for
            outside = answers.loc[(needed < answers["lo"]) | (needed > answers["hi"]), "mechanism"]
            if len(outside):
                st.warning("Extrapolated beyond the simulated range of n·ε for "
                           + " and ".join(util.LABELS[mechanism] for mechanism in outside)
                           + ": check the answer by simulating closer to it.")
        shown = pd.DataFrame({
            "mechanism": answers["mechanism"].map(util.LABELS), "fitted c": answers["c"],
            "fitted exponent α": answers["alpha"],
            f"{what} needed (simulation)": answers["simulated"], f"{what} needed (theory)": answers["theory"],
            "simulated n·ε from": answers["lo"], "simulated n·ε to": answers["hi"],
        })
        st.table(tables.formatted(shown, skip=("mechanism",)), hide_index=True, border="horizontal")
        st.caption("Look at α (near 1: the 1/(nε) law holds on the simulated range); theory is √ of Theorem 3's "
                   "bound (conservative, geodesic) for the Riemannian Laplace and the exact E‖noise‖ = Dσ_E for the "
                   "Euclidean one.")
        download_row("utility-budget-planner", data=shown, settings=settings)
