"""Cached computations and figures of the Sensitivity page (Theorem 2 of Reimherr, Bharath & Soto 2021).

The empirical part simulates neighbouring data sets, D and D′ differing in one record, inside the
ball B_r(m0) of the paper's study (``engine.experiments.reimherr_fig1``), and measures how far the
Fréchet mean moves: ρ(x̄, x̄′). Everything else is a closed-form bound from ``engine.bounds``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from engine import bounds, spaces
from engine.estimators import frechet_mean
from engine.experiments import reimherr_fig1
from engine.viz import palette
from engine.viz.curves import band_figure
from ui import presets

SPACES = {"sphere": "Sphere S² (curvature κ = 1)", "spd": "SPD(2), affine (κ ≤ 0)"}
#: Data radius of the paper's study on each space (its default here; ``engine.spaces``).
PAPER_RADIUS = {key: spaces.space(key).default_radius for key in SPACES}
#: Slider range of r: the sphere's cap sampler needs r < π/2; small SPD balls make the Wishart
#: rejection sampler of the data very slow.
RADIUS_RANGE = {"sphere": (0.05, 1.5), "spd": (0.5, 3.0)}
#: Upper curvature bound of each space (SPD affine-invariant has κ in [−1/2, 0]).
OWN_KAPPA = {key: float(spaces.make_manifold(key).kappa_max) for key in SPACES}
KAPPA_RANGE = (0.0, 4.0)
#: Sample sizes of the empirical study (the page adds the current n).
N_GRID = (10, 25, 50, 100, 200)
#: The bound is drawn while h >= H_FLOOR; it grows without limit as h -> 0 (r -> π/(4√κ)).
H_FLOOR = 0.1
#: Adversarial replacements sit this fraction of r from m0 (inside the closed ball).
BOUNDARY = 1.0 - 1e-6
#: Fréchet mean tolerance: far below the smallest moves measured (~1e-4 at n = 500).
TOL = 1e-9
#: The page's secondary charts, one tab each (URL parameter ``sens_view``); only the open one is drawn.
TAB_KEY = "sens_view"
SECTIONS = ("Against r", "Against κ", "Curvature factor h", "Intrinsic vs ambient")
NEIGHBOUR_COLORS = {"random replacement": "#56B4E9", "adversarial replacement": "#CC79A7"}
CURVE_COLORS = {
    "Theorem 2 bound": palette.color("bound"),
    "flat space (κ ≤ 0)": palette.color("data"),
    "h(r, κ)": "#0072B2",
    "2r": "#E69F00",
    "2r(2 − h)": "#009E73",
    "boundary constant": "#CC79A7",
    "intrinsic Δ (Theorem 2)": palette.color("riemannian laplace"),
    "ambient Δ_E = 2r_E/n": palette.color("euclidean laplace"),
}
INVALID_FILL = "rgba(213, 94, 0, 0.10)"
#: Named settings, loaded by a sidebar button or ``?preset=NAME`` (``ui.presets``).
PRESETS = {
    "reimherr-theorem2": {"space": "sphere", "r_sphere": float(PAPER_RADIUS["sphere"]), "kappa_sphere": 1.0,
                          "n": 10, "reps": 200, "log": True},
}
PRESET_NOTES = {
    "reimherr-theorem2": "Loaded Theorem 2 of Reimherr, Bharath & Soto (2021) on the sphere: data in a cap of radius "
                         "r = π/8, curvature κ = 1, n = 10. There h = π/4 and Δ = (2 − π/4)/n = 0.1215; 200 pairs "
                         "of neighbouring data sets per n test the bound.",
}
PRESET_NOTE_KEY = "sens-preset-note"


def apply_preset(name: str) -> None:
    """Load preset ``name`` (a button callback)."""
    presets.apply_preset(PRESETS, name, PRESET_NOTE_KEY)


def preset_from_url() -> str | None:
    """Apply ``?preset=NAME`` from the address once (see ``ui.presets.preset_from_url``)."""
    return presets.preset_from_url(PRESETS, PRESET_NOTE_KEY)


def manifold(space: str):
    """The manifold of a page space key (``engine.spaces``)."""
    return spaces.make_manifold(space)


@st.cache_data(max_entries=32, show_spinner=False)
def neighbour_sensitivity(space: str, radius: float, n: int, reps: int, seed: int) -> pd.DataFrame:
    """ρ(x̄, x̄′) for ``reps`` pairs of neighbouring data sets of size ``n`` in B_r(m0).

    Returns a tidy frame: n, replicate, neighbour ("random replacement" replaces the first record
    by a fresh draw; "adversarial replacement" moves the outermost record to the opposite side of
    the boundary, see ``engine.experiments.reimherr_fig1``), sensitivity.
    """
    setting = reimherr_fig1.SpaceSetting(space, manifold(space), radius)
    rng = np.random.default_rng([seed, n])
    data = setting.sample(n, reps, rng)
    means = frechet_mean(setting.manifold, data, tol=TOL).mean
    moved = reimherr_fig1.neighbour_sensitivities(setting, data, means, rng, tol=TOL)
    return pd.concat([pd.DataFrame({"n": n, "replicate": np.arange(reps), "neighbour": f"{kind} replacement",
                                    "sensitivity": values}) for kind, values in moved.items()], ignore_index=True)


@st.cache_data(max_entries=8, show_spinner=False)
def boundary_constants(space: str, radii: tuple[float, ...]) -> pd.DataFrame:
    """The supplement's empirical constant max ‖log_{x1}(x_i) − log_{x1}(x_j)‖ on ∂B_r(m0), per r."""
    m = manifold(space)
    values = [bounds.boundary_log_constant(m, m.origin, r, grid=24) for r in radii]
    return pd.DataFrame({"r": radii, "value": values})


def summarise(replicates: pd.DataFrame) -> pd.DataFrame:
    """Mean (column ``sensitivity``), standard error and maximum per n and kind of neighbour."""
    grouped = replicates.groupby(["neighbour", "n"], sort=False)["sensitivity"]
    out = grouped.agg(sensitivity="mean", sd="std", maximum="max", count="size").reset_index()
    out["se"] = out["sd"].fillna(0.0) / np.sqrt(out["count"])
    return out.drop(columns=["sd", "count"])


def theorem2(n, radius, kappa) -> np.ndarray:
    """Δ of Theorem 2 (``engine.bounds``), NaN where h < ``H_FLOOR`` (at or near the end of its validity region)."""
    n, radius, kappa = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (n, radius, kappa)))
    drawn = bounds.theorem2_domain(radius, kappa) & (bounds.curvature_factor(radius, kappa) >= H_FLOOR)
    out = np.full(radius.shape, np.nan)
    out[drawn] = bounds.frechet_mean_sensitivity(n[drawn], radius[drawn], kappa[drawn])
    return out


def _axis_type(values: np.ndarray, log: bool) -> dict:
    """Linear, or log labelled at powers of ten only when the data span a decade (readable on a projector)."""
    if not log:
        return dict(type="linear")
    positive = values[np.isfinite(values) & (values > 0)]
    decades = np.log10(positive.max() / positive.min()) if positive.size else 0.0
    return dict(type="log", dtick=1 if decades >= 1 else "D2")


@st.cache_data(max_entries=32, show_spinner=False)
def curves_figure(curves: pd.DataFrame, *, x: str, x_title: str, y_title: str, invalid_from: float | None = None,
                  markers: dict[str, float] | None = None, log_x: bool = False, log_y: bool = False,
                  y_max: float | None = None, height: int = 440) -> go.Figure:
    """Lines of ``curves`` (columns ``x``, ``value``, ``curve``) with the invalid region shaded.

    ``invalid_from`` shades x >= that value ("Theorem 2 does not apply"); ``markers`` draws labelled
    dotted vertical lines (e.g. the current r); ``y_max`` caps a linear y axis (curves leave at the top).
    """
    fig = go.Figure(layout=palette.layout(None, height=height))
    for name, rows in curves.groupby("curve", sort=False):
        dashed = name == "Theorem 2 bound"
        shown = palette.chart_text(name)
        fig.add_scatter(x=rows[x], y=rows["value"], mode="lines", name=shown, connectgaps=False,
                        line=dict(color=CURVE_COLORS[name], width=3, dash="dash" if dashed else "solid"),
                        hovertemplate=f"{x} %{{x:.4g}}<br>%{{y:.4g}}<extra>{shown}</extra>")
    upper = float(curves[x].max())
    if invalid_from is not None and invalid_from < upper:
        fig.add_vrect(x0=invalid_from, x1=upper, fillcolor=INVALID_FILL, line_width=0,
                      annotation_text="Theorem 2 does not apply", annotation_position="top left")
    values = curves["value"].to_numpy(dtype=float)
    values = values[np.isfinite(values) & ((values > 0) if log_y else True)]
    low, high = (float(values.min()), float(min(values.max(), y_max or np.inf))) if values.size else (0.0, 1.0)
    for label, value in (markers or {}).items():
        # A trace rather than a shape: shapes and annotations need log10 coordinates on log axes.
        fig.add_scatter(x=[value, value], y=[low, high], mode="lines+text", text=["", label],
                        textposition="bottom right", showlegend=False, hoverinfo="skip",
                        line=dict(color="#444444", width=1.5, dash="dot"))
    fig.update_xaxes(title_text=x_title, **_axis_type(curves[x].to_numpy(dtype=float), log_x))
    fig.update_yaxes(title_text=y_title, **_axis_type(values, log_y))
    if y_max is not None and not log_y:
        fig.update_yaxes(range=[min(0.0, float(curves["value"].min())), y_max])
    return fig


@st.cache_data(max_entries=32, show_spinner=False)
def empirical_figure(replicates: pd.DataFrame, radius: float, kappa: float, valid: bool, *, log: bool) -> go.Figure:
    """Empirical sensitivities (dots, mean ± 2 SE) over the Theorem 2 bound (dashed) against n."""
    ns = np.unique(replicates["n"])
    grid = np.unique(np.geomspace(ns.min(), ns.max(), 80).round())
    bound = (pd.DataFrame({"n": grid, "bound": bounds.frechet_mean_sensitivity(grid, radius, kappa)})
             if valid else None)
    return band_figure(summarise(replicates), x="n", y="sensitivity", se="se", group="neighbour",
                       points=replicates, bound=bound, bound_y="bound", bound_name="Theorem 2 bound",
                       colors=NEIGHBOUR_COLORS, log_x=log, log_y=log, x_title="sample size n",
                       y_title="ρ(x̄, x̄′), distance the mean moves", height=500)


def bound_vs_r(n: int, kappa: float, r_max: float) -> pd.DataFrame:
    """Δ against r for curvature bound κ and for a flat space (κ ≤ 0), at sample size n."""
    r = np.linspace(r_max / 200, r_max, 200)
    return pd.concat([
        pd.DataFrame({"r": r, "value": theorem2(n, r, kappa), "curve": "Theorem 2 bound"}),
        pd.DataFrame({"r": r, "value": theorem2(n, r, 0.0), "curve": "flat space (κ ≤ 0)"}),
    ], ignore_index=True)


def bound_vs_kappa(n: int, radius: float) -> pd.DataFrame:
    """Δ against κ in ``KAPPA_RANGE`` at radius r and sample size n."""
    kappa = np.linspace(*KAPPA_RANGE, 200)
    return pd.DataFrame({"kappa": kappa, "value": theorem2(n, radius, kappa), "curve": "Theorem 2 bound"})


def constants_vs_r(space: str, r_max: float) -> pd.DataFrame:
    """h(r, κ), 2r, 2r(2 − h) and the boundary constant against r, κ = the space's own."""
    kappa = OWN_KAPPA[space]
    r = np.linspace(r_max / 200, r_max, 200)
    h = bounds.curvature_factor(r, kappa)
    inside = bounds.theorem2_domain(r, kappa)
    ok = inside & (h >= H_FLOOR)
    coarse = tuple(float(v) for v in np.round(np.linspace(r_max / 20, r_max, 20), 4))
    empirical = boundary_constants(space, coarse).assign(curve="boundary constant")
    return pd.concat([
        pd.DataFrame({"r": r, "value": np.where(inside, h, np.nan), "curve": "h(r, κ)"}),
        pd.DataFrame({"r": r, "value": 2 * r, "curve": "2r"}),
        pd.DataFrame({"r": r, "value": np.where(ok, 2 * r * (2 - h), np.nan), "curve": "2r(2 − h)"}),
        empirical,
    ], ignore_index=True)


def intrinsic_vs_ambient(space: str, radius: float, kappa: float, valid: bool) -> pd.DataFrame:
    """Theorem 2's Δ and the ambient sensitivity 2 r_E / n against n (r_E from ``engine.bounds``)."""
    n = np.unique(np.geomspace(5, 500, 80).round())
    r_e = float(bounds.ambient_radius(manifold(space), radius))
    frames = [pd.DataFrame({"n": n, "value": bounds.ambient_sensitivity(n, r_e), "curve": "ambient Δ_E = 2r_E/n"})]
    if valid:
        delta = bounds.frechet_mean_sensitivity(n, radius, kappa)
        frames.insert(0, pd.DataFrame({"n": n, "value": delta, "curve": "intrinsic Δ (Theorem 2)"}))
    return pd.concat(frames, ignore_index=True)
