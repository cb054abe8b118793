"""What the page shows of a playground result: the space's figure, the error and release tables,
and the boxes and formulas of the data note, noise scale, checks and guarantees."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from engine import formulas, spaces
from engine.mechanisms import specs
from engine.mechanisms.specs import NoiseNumbers
from engine.pipelines.private_mean import PrivateMeanConfig, PrivateMeanResult
from ui.figure_cache import cache_figures
from ui.playground.compute import private_means
from ui.spaces import clouds, space_figure, view


def hidden_caption(result: PrivateMeanResult) -> str:
    """What the caption says of the releases the space's figure leaves out ("" when it draws them all)."""
    space = view(result.config.space)
    count = space.hidden_releases(result, clouds(result))
    return space.hidden_caption.format(count=count) if count else ""


@cache_figures(max_entries=16)
def figure(settings: PrivateMeanConfig, hold: np.ndarray | None = None) -> go.Figure:
    """The space's figure for the playground's result (data, true mean, release clouds).

    Drawn by the space's view (``ui.spaces``); ``hold`` ``(k, 3)``: on the sphere, further points the
    scene must frame (every frame of an animation).
    """
    return space_figure(private_means(settings), settings, hold)


def _fmt(value: float) -> str:
    """Four significant digits, or a dash for a missing value."""
    return "—" if value is None or not np.isfinite(value) else f"{value:.4g}"


def error_table(result: PrivateMeanResult) -> pd.DataFrame:
    """One row per mechanism: Δ, σ, mean errors, share off the manifold (and MH diagnostics)."""
    rows = []
    for run in result.runs:
        errors = run.errors
        rows.append({"Mechanism": run.label, "Δ": _fmt(run.sensitivity), "σ": _fmt(run.sigma),
                     "Geodesic error": "not released" if run.skipped else _fmt(errors and errors.geodesic),
                     "Ambient error": _fmt(errors and errors.ambient),
                     "Off manifold": "—" if not errors else f"{errors.off_share:.0%}"})
    table = pd.DataFrame(rows)
    if not spaces.space(result.config.space).embedded_in_ambient and not table.empty:
        table = table.drop(columns="Ambient error")
    return table


def _coordinates(result: PrivateMeanResult, points: np.ndarray) -> dict:
    """Named coordinate columns of points of the playground's space (its view's)."""
    return view(result.config.space).coordinates(points)


def points_table(result: PrivateMeanResult) -> pd.DataFrame:
    """Tidy table of everything the chart draws, for the CSV: the records (``points`` = "data"), the true
    Fréchet mean and every mechanism's releases (``points`` = "release", ``mechanism`` its label), each
    numbered from 1 within its group, in the coordinates of the space."""
    frames = [pd.DataFrame({"points": "data", "mechanism": "", "number": np.arange(1, len(result.data) + 1),
                            **_coordinates(result, np.asarray(result.data))}),
              pd.DataFrame({"points": "true Fréchet mean", "mechanism": "", "number": 1,
                            **_coordinates(result, result.mean[None])})]
    for run in result.runs:
        if run.releases is not None:
            count = len(run.releases)
            frames.append(pd.DataFrame({"points": "release", "mechanism": run.label,
                                        "number": np.arange(1, count + 1), **_coordinates(result, run.releases)}))
    return pd.concat(frames, ignore_index=True)


def show_data_note(result: PrivateMeanResult) -> None:
    """Where the data come from and how many records enter the mean."""
    note = result.note
    if result.n_available is not None:
        if result.config.n >= result.n_available:
            note += (f" n = {result.config.n} is at least the {result.n_available} records available, so "
                     f"all are used (n = {result.n_available} in Δ) and the sample is the catalogue itself.")
        else:
            note += f" Here n = {result.n_before} of {result.n_available}, drawn with the seed."
    st.info(note)


def show_noise_scale(result: PrivateMeanResult, settings: PrivateMeanConfig) -> None:
    """Δ from Theorem 2 and each mechanism's σ, formulas with the numbers plugged in."""
    n, r = result.n_used, settings.radius
    theorem2 = result.theorem2
    if theorem2 is None:
        st.markdown("**Theorem 2** gives no bound at this radius (see the checks below).")
    else:
        h, sens = theorem2.h, theorem2.sensitivity
        st.markdown("**Sensitivity of the Fréchet mean** (Reimherr et al., Theorem 2), data in $B_r(m_0)$:")
        st.latex(r"\Delta = \frac{2r\,(2-h)}{n\,h}")
        if result.kappa_max > 0:
            st.latex(formulas.chain("h", r"2r\sqrt{\kappa}\,\cot\!\big(2r\sqrt{\kappa}\big)",
                                    rf"{h:.4f}\quad (\kappa = {result.kappa_max:g})"))
        else:
            st.latex(r"h = 1 \quad (\kappa_{\max} \le 0)")
        st.latex(formulas.chain(r"\Delta", rf"\frac{{2 \times {r:.4f} \times (2 - {h:.4f})}}{{{n} \times {h:.4f}}}",
                                f"{sens:.4g}"))
        if result.kappa_max > 0:
            st.caption(f"Positive curvature inflates Δ by (2 − h)/h = {(2 - h) / h:.3f} against the flat-space "
                       f"bound 2r/n. (The paper's sphere study used a tighter empirical constant instead.)")
    for run in result.runs:
        formula = specs.spec(run.key).noise_formula(_noise_numbers(result, settings, run))
        if formula is not None:
            st.markdown(f"**{run.label}**: {formula.text}")
            for tex in formula.tex:
                st.latex(tex)


def _noise_numbers(result: PrivateMeanResult, settings: PrivateMeanConfig, run) -> NoiseNumbers:
    """What the run computed for one mechanism's σ, for its spec's noise formula."""
    entry = spaces.space(result.config.space)
    return NoiseNumbers(
        epsilon=settings.epsilon, delta=settings.delta, sigma=run.sigma, sensitivity=run.sensitivity,
        kappa_max=result.kappa_max, footpoint_dependent=run.footpoint_dependent,
        ambient_radius=run.ambient_radius, lipschitz=run.lipschitz,
        ambient_radius_tex=entry.ambient_radius_formula() if spaces.offered(entry.ambient_radius_tex) else None)


def show_checks(result: PrivateMeanResult) -> None:
    """Each assumption as a coloured box saying whether it holds and why."""
    show = dict(success=st.success, info=st.info, warning=st.warning, error=st.error)
    for check in result.checks:
        show[check.level](f"**{check.title}.** {check.text}")
    for run in result.runs:
        if run.skipped:
            st.error(f"**{run.label} not released.** {run.skipped}")


def show_guarantees(result: PrivateMeanResult) -> None:
    """Each released mechanism's ``privacy_guarantee()`` in an expander."""
    for run in result.runs:
        guarantee = run.guarantee
        if guarantee is None:
            continue
        with st.expander(f"Privacy guarantee: {run.label}", expanded=bool(guarantee.void)):
            if guarantee.void:
                st.error(f"**Not differentially private.** {guarantee.void}. The statement below is what "
                         f"{guarantee.mechanism} would guarantee on data that meet its assumptions.")
            gdp = "" if guarantee.mu is None else f"**μ-GDP with μ = {guarantee.mu:.4g}**, hence "
            st.markdown(f"{gdp}**(ε, δ) = ({guarantee.epsilon:g}, {guarantee.delta:g})** for "
                        f"{guarantee.mechanism}, with σ = {guarantee.sigma:.4g}.")
            if run.diagnostics:
                st.info("These releases are Metropolis–Hastings draws: the guarantee is that of the exact law, and "
                        "holds for them only as far as the chain has reached it (see the mixing check).")
            st.markdown(f"Rule: `{guarantee.rule}`")
            st.markdown(guarantee.reason)
            st.markdown("It rests on these assumptions:\n" +
                        "\n".join(f"- {item}" for item in guarantee.assumptions))
