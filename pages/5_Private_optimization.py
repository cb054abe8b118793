"""Private optimization: differentially private Riemannian gradient descent (Han, Mishra, Jawanpuria & Gao)."""

import pandas as pd
import streamlit as st

from ui import errors, navigation, state
from ui import optimization as opt
from ui import optimization_figures as figs
from ui import optimization_settings as cfg
from ui.downloads import download_row

CHART = {"theme": None, "config": {"displaylogo": False}}

st.set_page_config(page_title="Private optimization · Manifold Privacy Explorer", layout="wide")
navigation.sidebar()
cfg.preset_from_url()
st.title("Private optimization: DP Riemannian gradient descent")
st.markdown(
    "Many statistics are the minimiser of a loss on a manifold: the top eigenvector of a covariance (on the "
    "sphere), a Fréchet mean or a Wasserstein barycenter of covariance matrices (on SPD), a prediction in "
    "hyperbolic space, a low-rank subspace (on the Grassmannian). **DP-RGD** (Han, Mishra, Jawanpuria & Gao) "
    "finds it privately: each step clips every record's gradient to norm L0, averages, adds Gaussian noise "
    "in the tangent space and follows the geodesic. A privacy accountant adds up what the T noisy steps cost."
)
st.latex(r"w_{t+1} = \mathrm{Exp}_{w_t}\!\Big(-\eta\,\big(\tfrac{1}{b}\textstyle\sum_{i \in B_t}"
         r"\mathrm{clip}_{L_0}(\mathrm{grad}\, f_i(w_t)) + \xi_t\big)\Big),\qquad \xi_t \sim N_{w_t}(0, \sigma^2)")

choice = cfg.sidebar()
app, data, size, eps, delta, noise = choice.app, choice.data, choice.size, choice.eps, choice.delta, choice.noise
batch, eta, reps, seed, burn = choice.batch, choice.eta, choice.reps, choice.seed, choice.burn
spec, keys = cfg.APPS[app], list(choice.keys)
state.sync(keys)
settings = state.settings(keys)

note = st.session_state.pop("opt-preset-note", None)
if note:
    st.info(f"Loaded the settings of Han et al. {cfg.PRESET_NOTES[note]}. The noise follows the paper's rule "
            "σ² = T log(1/δ) L0²/(n²ε²) with c = 1, which the accountant charges more than ε for: switch Noise "
            "calibration to the accountant for an exact ε.")

progress = st.progress(0.0, text="Setting up the problem …")
with errors.shown_as_error("set up the problem"):
    setup = opt.setup(app, data, size, seed)
n = setup.n
rule_T = opt.rule_steps(app, setup, eps, delta)
steps = choice.steps
if steps is None:
    steps = min(rule_T, cfg.MAX_STEPS)
    if rule_T > cfg.MAX_STEPS:
        st.warning(f"The paper's rule asks for T = {rule_T:,} iterations here; this run stops at {cfg.MAX_STEPS:,} to "
                   "stay interactive (switch the rule off to choose T).")
b = opt.batch_size(batch, n)
if batch > n:
    st.warning(f"Batch size b = {batch} exceeds n = {n}: ran the full batch (DP-RGD).")
if app == "eigenvector":
    st.info(f"Assumption: every record is clipped to the public radius R = √(d/n) = {setup.view['radius']:.4g} "
            f"({setup.view['clipped']} of {n} records were longer), so the clipping norm L0 = 2R² = "
            f"{setup.clip:.4g} is public, unlike the paper's L0 = max 2‖z_i‖² taken from the data. R bounds the "
            "root-mean-square record once the data are scaled to ‖Z‖₂ = 1, the paper's preprocessing, which is "
            "computed from the data: the guarantee treats the scaled records as the data set.")
progress.progress(0.2, text="Running DP-RGD …" if b == n else f"Running DP-RSGD: calibrating σ for batches of "
                  f"b = {b} (the accountant of sampled batches takes 5–20 s the first time) …")
with errors.shown_as_error("run DP-RGD"):
    result = opt.run(app, data, size, eps, delta, noise, steps, batch, eta, reps, seed)
progress.empty()
info = result["info"]

cols = st.columns(5)
cols[0].metric("Noise σ", f"{info['sigma']:.4g}",
               help="Standard deviation of the tangent Gaussian ξ_t, isotropic in the Riemannian metric at w_t.")
cols[1].metric("ε spent (accountant)", f"{info['epsilon_spent']:.4g}",
               help=f"At δ = {delta:g}, over all {steps} steps.")
cols[2].metric("Iterations T", f"{steps}",
               help="From the paper's rule." if choice.steps is None else "Chosen in the sidebar.")
cols[3].metric("Clipping norm L0", f"{info['clip']:.4g}", help="Per-record gradients are clipped to this norm, so one "
               "record moves a step's average by at most 2·L0/b.")
cols[4].metric("Batch", "all n" if b == n else f"b = {b}", delta=f"n = {n}", delta_color="off", delta_arrow="off",
               help="DP-RGD uses every record each step; DP-RSGD samples b of them without replacement.")

convergence, accounting, manifold, study = state.tabs(cfg.TAB_KEY, cfg.SECTIONS)
with convergence:
    if convergence.open:
        st.subheader("Convergence: private against non-private")
        fig_loss, fig_grad = figs.convergence(app, result["paths"])
        left, right = st.columns(2)
        with left:
            st.plotly_chart(fig_loss, key="chart-loss", **CHART)
            st.caption(figs.LOSS_CAPTION + (f" {figs.SPD_START_NOTE.format(factor=opt.START_FACTOR)}"
                                             if app in opt.METRICS else ""))
            download_row("optimization-loss", fig=fig_loss, data=result["paths"], settings=settings)
        with right:
            st.plotly_chart(fig_grad, key="chart-gradient", **CHART)
            st.caption("Look at the floor of the private gradient norm: each step's noise keeps it from reaching 0 "
                       "(diagnostic only: these losses and norms use the data and are not released).")
            download_row("optimization-gradient", fig=fig_grad, data=result["paths"], settings=settings)

with accounting:
    if accounting.open:
        with st.spinner("Accounting …", show_time=True), errors.shown_as_error("account for the privacy loss"):
            acc = opt.accountant(eps, delta, steps, n, b, setup.clip, spec.paper_c)
        left, right = st.columns(2)
        with left:
            fig_acc = figs.accountant(acc["curves"], eps, noise)
            st.plotly_chart(fig_acc, key="chart-accountant", **CHART)
            st.caption("Look at where each curve crosses the dotted target: the calibrated σ ends exactly at ε after "
                       "T steps, the paper's rule wherever its constant c puts it.")
            download_row("optimization-accountant", fig=fig_acc, data=acc["curves"], settings=settings)
        with right:
            c, tex = spec.paper_c, cfg.tex_number
            st.latex(r"\sigma_{\text{rule}}^2 = c\,\frac{T\log(1/\delta)\,L_0^2}{n^2\varepsilon^2}")
            st.latex(rf"c = {tex(c)},\ T = {steps},\ n = {n},\ L_0 = {tex(setup.clip)},\ \delta = {tex(delta)},\ "
                     rf"\varepsilon = {tex(eps)}")
            st.latex(rf"\sigma_{{\text{{rule}}}} = {tex(acc['paper_sigma'])}\ \Rightarrow\ "
                     rf"\varepsilon_{{\text{{spent}}}} = {tex(acc['paper_epsilon'])}")
            st.latex(rf"\sigma_{{\text{{RDP}}}} = z\,\frac{{2L_0}}{{b}} = "
                     rf"{tex(acc['z'])}\cdot\frac{{2 \cdot {tex(setup.clip)}}}{{{b}}}")
            st.latex(rf"= {tex(acc['sigma'])}\ \Rightarrow\ \varepsilon_{{\text{{spent}}}} = {tex(eps)}")
            st.latex(rf"c_{{\text{{needed}}}} = \Big(\frac{{\sigma_{{\text{{RDP}}}}}}{{\sigma_{{\text{{rule}}}}(c = 1)}}"
                     rf"\Big)^2 = {tex(acc['c_needed'])}")
            if spec.rule is not None:
                st.latex(rf"\text{{paper's rule: }} {spec.rule} = {rule_T}")
            st.caption(f"Look at c: the rule with c = {c:g} spends ε = {acc['paper_epsilon']:.3g}, while c = "
                       f"{acc['c_needed']:.3g} would spend exactly ε = {eps:g}; the constant is the whole difference.")

with manifold:
    if manifold.open:
        if app == "lrmc":
            st.markdown("Gr(30, 5) has dimension 125 and no faithful picture: the RMSE charts of the Study tab show "
                        "the fit instead.")
        else:
            fig_view, view_data = figs.manifold_view(app, setup.view, setup.optimum, result["outputs"],
                                                     result["laplace"])
            st.plotly_chart(fig_view, key="chart-manifold", **CHART)
            st.caption(figs.VIEW_CAPTIONS[app].format(d=setup.view.get("d")))
            download_row("optimization-manifold", fig=fig_view, data=view_data, settings=settings)

with study:
    if study.open:
        progress = st.progress(0.0, text="Study …")
        parts = []
        with errors.shown_as_error("run the study"):
            if spec.sweep == "iterations":
                progress.progress(0.1, text="Study: matrix completion RMSE …")
                completion = opt.completion_study(size, eps, delta, noise, steps, batch, eta, reps, seed)
            else:
                blocks = opt.study_blocks(app, opt.study_grid(app, choice.grid, eps, size))
                for i, xs in enumerate(blocks):
                    progress.progress(i / len(blocks), text=f"Study: {figs.study_x(app)} = "
                                      f"{', '.join(f'{x:g}' for x in xs)} ({i + 1} of {len(blocks)})")
                    parts.append(opt.study(app, data, size, xs, eps, delta, noise, eta, reps, seed, burn))
        progress.empty()
        if spec.sweep == "iterations":
            st.subheader("Matrix completion: RMSE along the iterations")
            rmse = figs.completion(completion)
            left, right = st.columns(2)
            for column, split in zip((left, right), ("train", "test")):
                with column:
                    st.plotly_chart(rmse[f"rmse-{split}"], key=f"chart-rmse-{split}", **CHART)
                    st.caption(f"Look at the gap between DP-RSGD and RSGD on the {split} entries: what privacy costs "
                               f"in prediction error at ε = {eps:g}.")
                    download_row(f"optimization-rmse-{split}", fig=rmse[f"rmse-{split}"],
                                 data=completion["rmse"][completion["rmse"]["split"] == split], settings=settings)
        else:
            x_name = figs.study_x(app)
            summary = pd.concat(parts, ignore_index=True)
            st.subheader(f"Excess risk against {'ε' if x_name == 'epsilon' else 'n'}")
            fig_study = figs.study(app, summary, eps if x_name == "epsilon" else size)
            st.plotly_chart(fig_study, key="chart-study", **CHART)
            st.caption(figs.STUDY_CAPTIONS[app])
            download_row("optimization-study", fig=fig_study, data=summary.rename(columns={"x": x_name}),
                         settings=settings)

with st.expander("Privacy guarantee of this run"):
    g = result["guarantee"]
    st.markdown(f"**(ε, δ) = ({g['epsilon']:.4g}, {g['delta']:g})** for {g['mechanism']}, "
                f"with σ = {g['sigma']:.4g}.")
    st.markdown(f"Rule: `{g['rule']}`")
    st.markdown(g["reason"])
    st.markdown("It rests on these assumptions:\n" + "\n".join(f"- {item}" for item in g["assumptions"]))
