"""Samplers: why the tool samples the Laplace law exactly rather than by Metropolis–Hastings."""

import numpy as np
import streamlit as st

from ui import controls, errors, navigation, presets, state
from ui import samplers as smp
from ui.downloads import download_row
from ui.progress import DelayedProgress

st.set_page_config(page_title="Samplers · Manifold Privacy Explorer", layout="wide")
navigation.sidebar()
smp.preset_from_url()
st.title("Samplers: exact against Metropolis–Hastings")
st.markdown(
    "The privacy guarantee of the Laplace mechanism holds for draws from its exact law. Papers often sample "
    "it with a random-walk **Metropolis–Hastings** (MH) chain, which only approaches that law as the chain "
    "runs. This page draws the same number of points from both samplers on the same target and compares "
    "their distances to the footpoint with the exact radial density."
)


space = controls.space(options=smp.SPACES, default="sphere")
sigma_range = smp.sigma_range(space, low=0.05, high=2.0, step=0.05)
sigma = controls.slider(
    "Scale σ", "sigma", min_value=sigma_range.low, max_value=sigma_range.high, default=0.5, step=0.05,
    help="Laplace scale: the density is ∝ exp(−ρ(x, η)/σ). On H² the law exists only for σ < 1, on SPD(2) "
         "only for σ < √2; close to those limits most mass sits far from η.")
if sigma_range.reason:
    st.sidebar.caption(sigma_range.reason)
adapt = controls.toggle("Adapt the MH step during burn-in", "adapt", default=True,
                        help="Tune the proposal radius towards 30% acceptance in the first half of the burn-in, "
                             "then freeze it.")
step = controls.slider(
    "MH step s", "step", min_value=0.05, max_value=5.0, default=1.0, step=0.05,
    help="Proposal radius: each move goes to Exp_x(v) with v uniform in the tangent ball of radius s. "
         "Must not exceed the injectivity radius (π on S², π/2 on Kendall shapes).")
burn_in = controls.slider("Burn-in steps", "burn", min_value=10, max_value=10_000, default=500, step=10,
                          help="Steps discarded before the first draw. The papers use 10,000.")
thin = controls.slider("Thinning", "thin", min_value=1, max_value=100, default=5, step=1,
                       help="Keep every k-th state after the burn-in. The papers use 100.")
draws = controls.slider("Draws per chain", "draws", min_value=10, max_value=500, default=100, step=10,
                        help="Draws kept from each MH chain; the exact sampler draws as many points in total.")
chains = controls.slider("MH chains", "chains", min_value=1, max_value=20, default=10, step=1,
                         help="Independent chains, all started at the footpoint η and run in parallel.")
seed = controls.seed()
st.sidebar.button("Near-limit example", key="near-limit", on_click=smp.apply_preset, args=("near-limit",),
                  help="H² with σ = 0.95, just below its limit σ < 1, and a 500-step burn-in. "
                       "Shareable as ?preset=near-limit.")
st.sidebar.button("The paper's MH settings", key="preset-mh", on_click=smp.apply_preset,
                  args=("reimherr-mh",),
                  help="Burn-in 10,000 and thinning 100 on S², as in the supplement of Reimherr et al. "
                       "Shareable as ?preset=reimherr-mh.")
KEYS = ["space", "sigma", "adapt", "step", "burn", "thin", "draws", "chains", "seed"]
state.sync(KEYS)
settings = state.settings(KEYS)
presets.show_note(smp.PRESET_NOTE_KEY, smp.PRESET_NOTES)
if adapt:
    st.sidebar.caption("The step slider is ignored while the step adapts.")

total = draws * chains
steps = burn_in + thin * (draws - 1)
st.latex(r"p(x) \propto e^{-\rho(x,\eta)/\sigma}\ \Rightarrow\ f(\rho) \propto e^{-\rho/\sigma} J(\rho),\qquad "
         rf"J(\rho) = {smp.JACOBIANS[space]},\qquad \sigma = {sigma:g}")
with st.spinner(f"Running {chains} MH chains of {steps:,} steps and {total:,} exact draws …", show_time=True), \
        errors.shown_as_error("compare the samplers"), DelayedProgress() as progress:
    args = (space, sigma, None if adapt else step, burn_in, thin, draws, chains, seed)
    result = smp.compare(*args, progress=progress)
    charts = smp.figures(*args)

critical = 1.36 / np.sqrt(total)
quality, cost = st.columns(3), st.columns(3)
quality[0].metric("KS distance, exact", f"{result.ks_exact:.3f}",
                  help=f"sup |F_n − F| between the radii and the exact CDF. For {total} independent draws, values "
                       f"above {critical:.3f} happen 5% of the time.")
biased = result.ks_mh > critical
quality[1].metric("KS distance, MH", f"{result.ks_mh:.3f}", delta=f"{result.ks_mh / critical:.1f}× the 5% level",
                  delta_color="inverse" if biased else "off", delta_arrow="auto" if biased else "off",
                  help="The same distance for the MH draws; correlated draws make it larger even without bias.")
quality[2].metric("MH effective sample size", f"{result.ess:.0f}",
                  help=f"Independent draws worth of information in the {total} kept MH radii (Geyer's initial "
                       f"monotone sequence, summed over chains); autocorrelation time "
                       f"{result.autocorrelation_time:.1f} steps.")
cost[0].metric("MH acceptance", f"{100 * result.acceptance:.0f}%",
               help=f"Share of accepted proposals after the adaptation (step s = {result.step:.3g}).")
cost[1].metric("Exact draws per second", f"{result.exact_per_second:,.0f}",
               help="Points (not only radii) from the exact sampler, timed on this machine.")
cost[2].metric("MH draws per second", f"{result.mh_per_second:,.0f}",
               delta=f"{result.exact_per_second / result.mh_per_second:,.0f}× slower", delta_color="off",
               delta_arrow="off", help="Kept MH draws per second of chain time (burn-in and thinning included).")
st.latex(rf"D_{{KS}} = \sup_\rho \left|F_n(\rho) - F(\rho)\right|:\quad \text{{exact}}\ {result.ks_exact:.3f},\quad "
         rf"\text{{MH}}\ {result.ks_mh:.3f},\quad 1.36/\sqrt{{{total}}} = {critical:.3f}")

left, right = st.columns(2)
radii = charts["radii"]
with left:
    st.plotly_chart(charts["exact"], key="chart-hist-exact", theme=None, config={"displaylogo": False})
    st.caption("Look at the bars against the dashed curve: exact draws follow the radial density up to "
               "sampling noise, whatever σ.")
    download_row("samplers-exact-radii", fig=charts["exact"], data=radii[radii["sampler"] == "exact"],
                 settings=settings)
with right:
    st.plotly_chart(charts["mh"], key="chart-hist-mh", theme=None, config={"displaylogo": False})
    st.caption("A short chain is visibly biased near the normalisability limit (try the near-limit example): its "
               "draws stay too close to the footpoint where it started, which is why this tool samples exactly.")
    download_row("samplers-mh-radii", fig=charts["mh"], data=radii[radii["sampler"] == "metropolis-hastings"],
                 settings=settings)

st.subheader("Trace of the first MH chain")
st.plotly_chart(charts["trace"], key="chart-trace", theme=None, config={"displaylogo": False})
st.caption("Look at how long the chain needs to climb from the footpoint (ρ = 0) to the level of the exact mean "
           "radius (dashed), and whether it has got there by the end of the shaded burn-in.")
download_row("samplers-trace", fig=charts["trace"], data=charts["trace_data"], settings=settings)
