"""What the Private optimization page draws from a ``compute.Computed``: the notes on the settings, the
run's numbers, one section at a time (``ui.sections``: only the chosen one is computed and drawn) and the guarantee."""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from engine import formulas
from engine.pipelines import private_optimization as po
from engine.pipelines import settings_file
from ui import errors, first_paint, presenter, presets, reproduce, sections
from ui.downloads import download_row
from ui.live_chart import PLAIN_CHART, live_chart
from ui.optimization import figures as figs
from ui.optimization.apps import APPS, MAX_STEPS, PRESET_NOTES, SECTION_KEY, SECTIONS
from ui.optimization.compute import Computed, accountant, completion, run_settings, study, study_blocks, study_settings
from ui.optimization.controls import PRESET_NOTE, Settings


def tex_number(value: float) -> str:
    """A number for LaTeX with 4 significant digits: 5.169\\times 10^{-6} rather than 5.169e-06."""
    text = f"{value:.4g}"
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    power = rf"10^{{{int(exponent)}}}"
    return power if mantissa == "1" else rf"{mantissa}\times {power}"


def show_notes(computed: Computed, settings: Settings) -> None:
    """The loaded preset, a T capped from the paper's rule, a batch above n, the eigenvector's public radius."""
    presets.show_note(PRESET_NOTE, {
        name: f"Loaded the settings of Han et al. {text}. The noise follows the paper's rule σ² = T log(1/δ) "
              "L0²/(n²ε²) with c = 1, which the accountant charges more than ε for: switch Noise calibration to the "
              "accountant for an exact ε." for name, text in PRESET_NOTES.items()})
    p, rule = computed.problem, computed.rule_steps
    if settings.steps is None and rule is not None and rule > MAX_STEPS:
        st.warning(f"The paper's rule asks for T = {rule:,} iterations here; this run stops at {MAX_STEPS:,} to "
                   "stay interactive (switch the rule off to choose T).")
    if settings.batch > p.n:
        st.warning(f"Batch size b = {settings.batch} exceeds n = {p.n}: ran the full batch (DP-RGD).")
    if settings.app == "eigenvector":
        st.info(f"Assumption: every record is clipped to the public radius R = √(d/n) = {p.view['radius']:.4g} "
                f"({p.view['clipped']} of {p.n} records were longer), so the clipping norm L0 = 2R² = "
                f"{p.clip:.4g} is public, unlike the paper's L0 = max 2‖z_i‖² taken from the data. R bounds the "
                "root-mean-square record once the data are scaled to ‖Z‖₂ = 1, the paper's preprocessing, which is "
                "computed from the data: the guarantee treats the scaled records as the data set.")


def show_metrics(computed: Computed, settings: Settings) -> None:
    """σ, the ε spent, T, L0 and the batch of the run."""
    info, b, n = computed.run.info, computed.batch, computed.problem.n
    cols = st.columns(5)
    cols[0].metric("Noise σ", f"{info.sigma:.4g}",
                   help="Standard deviation of the tangent Gaussian ξ_t, isotropic in the Riemannian metric at w_t.")
    cols[1].metric("ε spent (accountant)", f"{info.epsilon_spent:.4g}",
                   help=f"At δ = {settings.delta:g}, over all {computed.steps} steps.")
    cols[2].metric("Iterations T", f"{computed.steps}",
                   help="From the paper's rule." if settings.steps is None else "Chosen in the sidebar.")
    cols[3].metric("Clipping norm L0", f"{info.clip:.4g}", help="Per-record gradients are clipped to this norm, "
                   "so one record moves a step's average by at most 2·L0/b.")
    cols[4].metric("Batch", "all n" if b == n else f"b = {b}", delta=f"n = {n}", delta_color="off",
                   delta_arrow="off",
                   help="DP-RGD uses every record each step; DP-RSGD samples b of them without replacement.")


def show_summary(computed: Computed, settings: Settings) -> None:
    """The run's notes and numbers, above its charts."""
    show_notes(computed, settings)
    show_metrics(computed, settings)


def show_convergence(computed: Computed, settings: Settings, url: dict) -> None:
    """Excess loss and gradient norm along the iterations, private against non-private."""
    first_paint.in_full_run(lambda: st.header("Convergence: private against non-private"))
    paths = computed.run.paths
    fig_loss, fig_grad = figs.convergence(settings.app, paths)
    left, right = st.columns(2)
    with left:
        first_paint.main_chart(fig_loss, key="chart-loss", **PLAIN_CHART)
        st.caption(figs.LOSS_CAPTION + (f" {figs.SPD_START_NOTE.format(factor=po.START_FACTOR)}"
                                         if settings.app in po.METRICS else ""))
        download_row("optimization-loss", fig=fig_loss, data=paths, settings=url)
    with right:
        live_chart(fig_grad, key="chart-gradient", **PLAIN_CHART)
        st.caption("Look at the floor of the private gradient norm: each step's noise keeps it from reaching 0 "
                   "(diagnostic only: these losses and norms use the data and are not released).")
        download_row("optimization-gradient", fig=fig_grad, data=paths, settings=url)


def show_accounting(computed: Computed, settings: Settings, url: dict) -> None:
    """ε(t) for the calibrated σ and the paper's rule, and the rule's numbers plugged in."""
    p, b, steps, spec, eps = computed.problem, computed.batch, computed.steps, APPS[settings.app], settings.eps
    with st.spinner("Accounting …", show_time=True), errors.shown_as_error("account for the privacy loss"):
        acc = accountant(settings=run_settings(settings), steps=steps, n=p.n, batch=b, clip=p.clip)
    left, right = st.columns(2)
    with left:
        fig_acc = figs.accountant(acc["curves"], eps, settings.noise)
        live_chart(fig_acc, key="chart-accountant", fit=presenter.active(), **PLAIN_CHART)
        st.caption("Look at where each curve crosses the dotted target: the calibrated σ ends exactly at ε after "
                   "T steps, the paper's rule wherever its constant c puts it.")
        download_row("optimization-accountant", fig=fig_acc, data=acc["curves"], settings=url)
    with right:
        c, tex = spec.paper_c, tex_number
        st.latex(r"\sigma_{\text{rule}}^2 = c\,\frac{T\log(1/\delta)\,L_0^2}{n^2\varepsilon^2}")
        st.latex(formulas.rows(rf"c &= {tex(c)},\ T = {steps},\ n = {p.n},",
                               rf"L_0 &= {tex(p.clip)},\ \delta = {tex(settings.delta)},\ \varepsilon = {tex(eps)}"))
        st.latex(rf"\sigma_{{\text{{rule}}}} = {tex(acc['paper_sigma'])}\ \Rightarrow\ "
                 rf"\varepsilon_{{\text{{spent}}}} = {tex(acc['paper_epsilon'])}")
        st.latex(rf"\sigma_{{\text{{RDP}}}} = z\,\frac{{2L_0}}{{b}} = "
                 rf"{tex(acc['z'])}\cdot\frac{{2 \cdot {tex(p.clip)}}}{{{b}}}")
        st.latex(rf"= {tex(acc['sigma'])}\ \Rightarrow\ \varepsilon_{{\text{{spent}}}} = {tex(eps)}")
        st.latex(rf"c_{{\text{{needed}}}} = \Big(\frac{{\sigma_{{\text{{RDP}}}}}}{{\sigma_{{\text{{rule}}}}(c = 1)}}"
                 rf"\Big)^2 = {tex(acc['c_needed'])}")
        if spec.rule is not None:
            st.latex(rf"\text{{paper's rule: }} {spec.rule} = {computed.rule_steps}")
        st.caption(f"Look at c: the rule with c = {c:g} spends ε = {acc['paper_epsilon']:.3g}, while c = "
                   f"{acc['c_needed']:.3g} would spend exactly ε = {eps:g}; the constant is the whole difference.")


def show_manifold(computed: Computed, settings: Settings, url: dict) -> None:
    """The released points on the manifold (no picture of Gr(30, 5))."""
    if settings.app == "lrmc":
        st.markdown("Gr(30, 5) has dimension 125 and no faithful picture: the RMSE charts of the Study section show "
                    "the fit instead.")
        return
    from ui.optimization import scene  # pyvista's import waits until this section is chosen

    p, run = computed.problem, computed.run
    fig_view, view_data = scene.manifold_view(settings.app, p.view, p.optimum, run.outputs, run.laplace)
    first_paint.main_chart(fig_view, key="chart-manifold", **PLAIN_CHART)
    st.caption(scene.VIEW_CAPTIONS[settings.app].format(d=p.view.get("d")))
    download_row("optimization-manifold", fig=fig_view, data=view_data, settings=url)


def show_study(computed: Computed, settings: Settings, url: dict) -> None:
    """The study of the application (RMSE along the iterations for matrix completion), piece by piece
    under a progress bar."""
    app, eps = settings.app, settings.eps
    progress = st.progress(0.0, text="Study …")
    parts = []
    with errors.shown_as_error("run the study"):
        if APPS[app].sweep == "iterations":
            progress.progress(0.1, text="Study: matrix completion RMSE …")
            rmse_data = completion(settings=run_settings(settings), steps=computed.steps)
        else:
            fixed = study_settings(settings)
            blocks = study_blocks(settings)
            for i, xs in enumerate(blocks):
                progress.progress(i / len(blocks), text=f"Study: {figs.study_x(app)} = "
                                  f"{', '.join(f'{x:g}' for x in xs)} ({i + 1} of {len(blocks)})")
                parts.append(study(settings=fixed, xs=xs))
    progress.empty()
    if APPS[app].sweep == "iterations":
        st.header("Matrix completion: RMSE along the iterations")
        rmse = figs.completion(rmse_data)
        left, right = st.columns(2)
        for column, split in zip((left, right), ("train", "test")):
            with column:
                live_chart(rmse[f"rmse-{split}"], key=f"chart-rmse-{split}", fit=presenter.active(), **PLAIN_CHART)
                st.caption(f"Look at the gap between DP-RSGD and RSGD on the {split} entries: what privacy costs "
                           f"in prediction error at ε = {eps:g}.")
                download_row(f"optimization-rmse-{split}", fig=rmse[f"rmse-{split}"],
                             data=rmse_data["rmse"][rmse_data["rmse"]["split"] == split], settings=url)
        return
    x_name = figs.study_x(app)
    summary = pd.concat(parts, ignore_index=True)
    st.header(f"Excess risk against {'ε' if x_name == 'epsilon' else 'n'}")
    fig_study = figs.study(app, summary, eps if x_name == "epsilon" else settings.size)
    live_chart(fig_study, key="chart-study", fit=presenter.active(), **PLAIN_CHART)
    st.caption(figs.STUDY_CAPTIONS[app])
    download_row("optimization-study", fig=fig_study, data=summary.rename(columns={"x": x_name}), settings=url,
                 study=po.STUDY_OF_APPLICATION[app])


def show_guarantee(computed: Computed) -> None:
    """The run's privacy guarantee in an expander."""
    with st.expander("Privacy guarantee of this run"):
        g = computed.run.guarantee
        st.markdown(f"**(ε, δ) = ({g.epsilon:.4g}, {g.delta:g})** for {g.mechanism}, with σ = {g.sigma:.4g}.")
        st.markdown(f"Rule: `{g.rule}`")
        st.markdown(g.reason)
        st.markdown("It rests on these assumptions:\n" + "\n".join(f"- {item}" for item in g.assumptions))


SHOW = (show_convergence, show_accounting, show_manifold, show_study)


def show(computed: Computed, settings: Settings) -> None:
    """The whole page below the introduction: notes, numbers, the chosen section, the guarantee."""
    url = settings_file.payload("optimization", settings.config)
    first_paint.in_full_run(partial(show_summary, computed, settings))
    reproduce.expander("optimization", settings.config)
    sections.show(SECTION_KEY, {label: partial(draw, computed, settings, url) for label, draw in zip(SECTIONS, SHOW)})
    show_guarantee(computed)
