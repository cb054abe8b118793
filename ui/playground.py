"""Private mean playground: sidebar controls, the cached computation and its views.

One cached call (``private_means``) samples a data set, computes its Fréchet mean, calibrates each
mechanism from public parameters only (the radius r and centre m0 of the data ball, n, ε, δ) and
draws the releases; ``figure`` and ``slides_png`` turn its result into pictures. The result is a
plain dict of arrays, numbers and strings so that the cache stores it cheaply.
"""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from engine.bounds import (
    ambient_radius,
    ambient_sensitivity,
    curvature_factor,
    frechet_mean_sensitivity,
    radius_limits,
)
from engine.data import (
    airport_states,
    hyperbolic_ball,
    hyperbolic_wrapped_gaussian,
    image_covariances,
    kendall_noisy,
    load_airports,
    shape_template,
    sphere_ball,
    sphere_cap,
    sphere_vmf,
    spd_wishart,
    tree_embedding,
)
from engine.estimators import frechet_mean
from engine.manifolds import SPD, Hyperbolic, Kendall, Sphere
from engine.mechanisms import (
    EuclideanLaplace,
    RiemannianLaplace,
    TangentGaussian,
    laplace_mh,
    off_manifold,
    scale_limit,
)
from engine.viz.export import offscreen_rendering_available, scene_png
from engine.viz.poincare import poincare_figure
from engine.viz.shapes import shapes_figure
from engine.viz.spd_cone import spd_cone_figure
from engine.viz.sphere import ball_boundary, sphere_figure, view_direction
from ui import controls, state

# Fixed parameters of the data sources that have no ball of their own (shown in their labels).
VMF_CONCENTRATION = 50.0
WRAPPED_STD = 0.4
KENDALL_STD = 0.03
TREE = dict(branching=3, height=3, edge_length=0.3)
TEMPLATES = ("heart", "leaf", "star", "hand")
# Releases farther than this from the mean are not drawn on the Poincaré disk: tanh(ρ/2) rounds
# to 1 in double precision beyond ρ ≈ 37, and the rim is unreadable long before.
POINCARE_MAX_DIST = 25.0
# The shapes view draws at most this many private outlines per mechanism (more become a blur).
KENDALL_MAX_OUTLINES = 50
# Camera of the sphere view: looks at m0 from this distance (plotly scene units), aimed at a point
# this far along m0, so the data ball fills the view instead of a whole-sphere overview.
SPHERE_ZOOM_DISTANCE = 0.8
SPHERE_ZOOM_SHIFT = 0.45
# Relative slack when testing dist(m0, x) <= r, so points sampled on the boundary count as inside.
BALL_RTOL = 1e-9

MECHANISMS = {
    "exact": "Riemannian Laplace (exact sampler)",
    "mh": "Riemannian Laplace (Metropolis–Hastings)",
    "euclid": "Euclidean Laplace (ambient coordinates)",
    "gauss": "Tangent Gaussian (ε, δ)",
}
SHORT_NAMES = {
    "exact": "Riemannian Laplace",
    "mh": "Riemannian Laplace (MH)",
    "euclid": "Euclidean Laplace",
    "gauss": "Tangent Gaussian",
}
PALETTE_NAMES = {
    "exact": "riemannian laplace",
    "mh": "riemannian laplace (mh)",
    "euclid": "euclidean laplace",
    "gauss": "tangent gaussian",
}
OUTSIDE = {
    "keep": "Keep them (the bound then fails)",
    "clip": "Clip them onto the ball's boundary",
    "drop": "Drop them",
}
DELTAS = (1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 5e-2)


@dataclass(frozen=True)
class SpaceSpec:
    """Sidebar ranges and choices of one space.

    ``radius`` is (min, max, default, step) of the radius slider; ``sources`` and ``mechanisms``
    map URL values to labels, in display order.
    """

    radius: tuple[float, float, float, float]
    sources: dict
    default_source: str
    mechanisms: tuple[str, ...]
    default_mechanisms: tuple[str, ...]


SPACES = {
    "sphere": SpaceSpec(
        radius=(0.05, 1.5, np.pi / 8, 0.005),
        sources={
            "cap": "Cap sampler (paper)",
            "ball": "Uniform in the ball B_r(m₀)",
            "vmf": f"von Mises–Fisher (κ = {VMF_CONCENTRATION:g})",
            "airports": "US airports (real data)",
        },
        default_source="cap",
        mechanisms=("exact", "mh", "euclid", "gauss"),
        default_mechanisms=("exact", "euclid"),
    ),
    "spd": SpaceSpec(
        radius=(0.5, 3.0, 1.5, 0.05),
        sources={
            "wishart": "Wishart recipe (paper)",
            "china": "Image covariances of china.jpg (real data)",
            "flower": "Image covariances of flower.jpg (real data)",
        },
        default_source="wishart",
        mechanisms=("exact", "mh", "euclid", "gauss"),
        default_mechanisms=("exact", "euclid"),
    ),
    "hyperbolic": SpaceSpec(
        radius=(0.1, 3.0, 1.0, 0.05),
        sources={
            "ball": "Uniform in the ball B_r(m₀)",
            "wrapped": f"Wrapped Gaussian (σ = {WRAPPED_STD:g})",
            "tree": "Embedded tree (40 nodes)",
        },
        default_source="ball",
        mechanisms=("exact", "mh", "gauss"),
        default_mechanisms=("exact", "gauss"),
    ),
    "kendall": SpaceSpec(
        radius=(0.02, 0.75, 0.25, 0.01),
        sources={name: f"Noisy copies of the {name}" for name in TEMPLATES},
        default_source="heart",
        mechanisms=("exact", "mh", "gauss"),
        default_mechanisms=("exact", "gauss"),
    ),
}

SOURCE_NOTES = {
    ("sphere", "cap"): "The paper's recipe (Reimherr et al., supplement §2.1): polar angle uniform on [0, r] "
                       "around the north pole m₀, so points crowd towards the centre.",
    ("sphere", "ball"): "Points uniform (by area) in the geodesic ball B_r(m₀) around the north pole.",
    ("sphere", "vmf"): f"von Mises–Fisher law around the north pole m₀ with concentration {VMF_CONCENTRATION:g}. "
                       "Its support is the whole sphere, so a few points may fall outside B_r(m₀).",
    ("spd", "wishart"): "The paper's recipe: Wishart W(I/2, 2) matrices kept when their affine-invariant "
                        "distance to m₀ = I is below r.",
    ("hyperbolic", "ball"): "Points uniform (by hyperbolic area) in the geodesic ball B_r(m₀) around the origin.",
    ("hyperbolic", "wrapped"): f"Wrapped Gaussian around the origin m₀: Exp of a tangent Gaussian with σ = "
                               f"{WRAPPED_STD:g}. Unbounded, so some points may fall outside B_r(m₀).",
}

CAPTIONS = {
    "sphere": "Drag to rotate: Riemannian releases stay on the sphere around the true mean (black diamond), while "
              "Euclidean ones float off it (grey segments show the gap).",
    "spd": "Each matrix [[a, b], [b, c]] is the point (a, √2·b, c) and only points inside the cone are positive "
           "definite: open diamonds are Euclidean releases that are not valid covariance matrices.",
    "hyperbolic": "Dotted geodesic circles of radius 0.5, 1 and 2 surround the true mean: the same hyperbolic "
                  "distance looks shorter towards the rim.",
    "kendall": f"The thick black outline is the true mean shape and each thin outline one private mean shape rotated "
               f"onto it (at most {KENDALL_MAX_OUTLINES} per mechanism): look at how much the landmarks wobble.",
}


@dataclass(frozen=True)
class Settings:
    """Everything the computation depends on (hashable, so it can key the cache)."""

    space: str
    source: str
    region: str
    k: int
    n: int
    radius: float
    outside: str
    epsilon: float
    mechanisms: tuple[str, ...]
    delta: float
    burn_in: int
    thin: int
    step: float | None
    releases: int
    seed: int


DEFAULTS = dict(k=8, region="CA", delta=1e-3, burn_in=1_000, thin=10, step=None)


# ----- sidebar ---------------------------------------------------------------------------------


def _keep_valid(key: str, options, default) -> None:
    """Replace a session value not among ``options`` (left over from another space or page).

    A list keeps its valid items, or falls back to ``default`` when none is valid.
    """
    value = st.session_state.get(key)
    if value is None:
        return
    if not isinstance(value, list):
        if value not in options:
            st.session_state[key] = default
        return
    valid = [item for item in value if item in options]
    if len(valid) < len(value):
        st.session_state[key] = valid or default


def _reset_on_space_change(space: str, spec: SpaceSpec) -> None:
    """When the space changes, its dependent controls go back to that space's defaults."""
    previous = st.session_state.get("_playground_space")
    if previous is not None and previous != space:
        st.session_state["source"] = spec.default_source
        st.session_state["r"] = spec.radius[2]
        st.session_state["mech"] = list(spec.default_mechanisms)
    st.session_state["_playground_space"] = space
    _keep_valid("source", spec.sources, spec.default_source)
    _keep_valid("mech", spec.mechanisms, list(spec.default_mechanisms))


@st.cache_data(max_entries=1, show_spinner=False)
def _state_options() -> dict:
    """URL value -> label for the airport state filter."""
    return {"all": "All states and territories", **{code: code for code in airport_states()}}


def _mechanism_select(spec: SpaceSpec) -> tuple[str, ...]:
    """Multiselect of the space's mechanisms; the chosen keys in display order."""
    state.init("mech", list(spec.default_mechanisms), options=list(spec.mechanisms))
    chosen = st.sidebar.multiselect(
        "Mechanisms to compare", list(spec.mechanisms), format_func=MECHANISMS.__getitem__, key="mech",
        help="Riemannian Laplace: noise ∝ exp(−ρ/σ) along the manifold (exactly, or by the paper's random-walk "
             "MCMC). Euclidean Laplace: ℓ2 Laplace noise in flat ambient coordinates, offered where the engine "
             "knows an ambient radius (sphere, SPD). Tangent Gaussian: Gaussian noise in the tangent space at m₀ "
             "(an (ε, δ) guarantee).",
    )
    return tuple(m for m in spec.mechanisms if m in chosen)


def _delta_select() -> float:
    """δ of the tangent Gaussian on a log-spaced slider."""
    state.init("delta", DEFAULTS["delta"], options=list(DELTAS))
    return float(st.sidebar.select_slider(
        "δ of the tangent Gaussian", DELTAS, key="delta", format_func=lambda d: f"{d:g}",
        help="The Gaussian mechanism is (ε, δ)-DP: with probability up to δ the ε bound may fail. "
             "Keep δ well below 1/n.",
    ))


def _mh_controls() -> tuple[int, int, float | None, list[str]]:
    """Burn-in, thinning and proposal radius (``None``: adaptive) of the MH chain, and their URL keys."""
    burn_in = controls.slider(
        "MH burn-in (steps)", "burn", min_value=100, max_value=10_000, default=DEFAULTS["burn_in"], step=100,
        help="Steps discarded before the first release. The paper used 10,000; 1,000 keeps the playground fast.")
    thin = controls.slider(
        "MH thinning", "thin", min_value=1, max_value=100, default=DEFAULTS["thin"], step=1,
        help="Keep every thin-th state of the chain as a release. The paper used 100; 10 keeps it fast.")
    state.init("adapt", True)
    adapt = st.sidebar.toggle(
        "Adapt the MH step size", key="adapt",
        help="Tune the proposal radius during the first half of the burn-in towards 30 % acceptance.")
    keys = ["burn", "thin", "adapt"]
    step = None
    if not adapt:
        step = controls.slider(
            "MH proposal radius s", "step", min_value=0.01, max_value=1.5, default=0.2, step=0.01,
            help="Proposals are Exp_x(v) with v uniform in the tangent ball of radius s. Too small: the chain "
                 "crawls; too large: most proposals are rejected.")
        keys.append("step")
    return int(burn_in), int(thin), step, keys


def sidebar() -> tuple[Settings, list[str]]:
    """Draw the playground's sidebar; return its settings and the URL keys on show."""
    space = controls.space()
    spec = SPACES[space]
    _reset_on_space_change(space, spec)
    keys = ["space"]
    k = DEFAULTS["k"]
    if space == "kendall":
        k = int(controls.slider(
            "Landmarks k", "k", min_value=4, max_value=12, default=DEFAULTS["k"], step=1,
            help="Number of landmarks on each outline; the shape space has dimension 2k − 4."))
        keys.append("k")
    source = controls.select(
        "Data source", "source", spec.sources, spec.default_source,
        help="Synthetic recipes from the papers or real data shipped with the app. Real data sets are "
             "subsampled to n points with the seed.")
    keys.append("source")
    region = DEFAULTS["region"]
    if source == "airports":
        region = controls.select(
            "State or territory", "state", _state_options(), DEFAULTS["region"],
            help="Restrict the airports to one state (a tight cluster) or use all of them (a wide spread).")
        keys.append("state")
    n = controls.sample_size()
    low, high, default_r, step_r = spec.radius
    radius = controls.slider(
        "Data radius r (public)", "r", min_value=low, max_value=high, default=default_r, step=step_r,
        fmt="%.3f",
        help="A public promise: every record lies within geodesic distance r of the public centre m₀. The "
             "sensitivity Δ of the mean is computed from r, never from the data.")
    outside = controls.select(
        "Points outside B_r(m₀)", "outside", OUTSIDE, "keep",
        help="Records that break the promise. Keeping them voids Theorem 2; clipping moves each onto the "
             "boundary (record by record, so the bound holds); dropping changes n.")
    epsilon = controls.epsilon()
    mechanisms = _mechanism_select(spec)
    keys += ["n", "r", "outside", "eps", "mech"]
    delta = DEFAULTS["delta"]
    if "gauss" in mechanisms:
        delta = _delta_select()
        keys.append("delta")
    burn_in, thin, step = DEFAULTS["burn_in"], DEFAULTS["thin"], DEFAULTS["step"]
    if "mh" in mechanisms:
        burn_in, thin, step, mh_keys = _mh_controls()
        keys += mh_keys
    releases = controls.slider(
        "Private releases to draw", "m", min_value=20, max_value=500, default=200, step=10,
        help="How many times each mechanism is run on the same data set: the cloud shows the spread of the "
             "released mean. In practice one publishes a single release.")
    seed = controls.seed()
    keys += ["m", "seed"]
    state.sync(keys)
    settings = Settings(space=space, source=source, region=region, k=k, n=int(n), radius=float(radius),
                        outside=outside, epsilon=float(epsilon), mechanisms=mechanisms, delta=delta,
                        burn_in=burn_in, thin=thin, step=step, releases=int(releases), seed=int(seed))
    return settings, keys


# ----- computation -----------------------------------------------------------------------------


def make_manifold(space: str, k: int):
    """The engine's space for a URL value."""
    if space == "sphere":
        return Sphere(2)
    if space == "spd":
        return SPD(2)
    if space == "hyperbolic":
        return Hyperbolic(2)
    if space == "kendall":
        return Kendall(k)
    raise ValueError(f"space must be one of {', '.join(SPACES)}, got {space!r}")


def _real_data(points: np.ndarray, m0: np.ndarray, n: int, rng, note: str) -> dict:
    """A random sample of min(n, len(points)) rows of a catalogue, in catalogue order."""
    chosen = np.zeros(len(points), dtype=bool)
    chosen[rng.choice(len(points), size=min(n, len(points)), replace=False)] = True
    return dict(data=points[chosen], m0=m0, n_available=len(points), chosen=chosen, note=note)


def sample_data(settings: Settings, manifold, data_rng, subsample_rng) -> dict:
    """Data set, public centre m0 and a description for one data source.

    Returns a dict with ``data``, ``m0``, ``n_available`` (``None`` for synthetic data), ``edges``
    (tree edges between sampled nodes, else ``None``) and ``note``.
    """
    s = settings
    out = dict(n_available=None, edges=None, note=SOURCE_NOTES.get((s.space, s.source), ""))
    if s.space == "sphere":
        m0 = manifold.origin
        if s.source == "cap":
            return out | dict(data=sphere_cap(s.n, s.radius, rng=data_rng), m0=m0)
        if s.source == "ball":
            return out | dict(data=sphere_ball(s.n, s.radius, rng=data_rng), m0=m0)
        if s.source == "vmf":
            return out | dict(data=sphere_vmf(s.n, VMF_CONCENTRATION, rng=data_rng), m0=m0)
        if s.source == "airports":
            catalogue = load_airports(None if s.region == "all" else s.region)
            where = "all US states and territories" if s.region == "all" else s.region
            note = (f"Real data: {len(catalogue.points):,} airports in {where} (vega_datasets). The catalogue is "
                    f"treated as public and the private data set is a random sample of n of its airports; m₀ is "
                    f"the Fréchet mean of the whole catalogue, fixed before sampling.")
            m0 = frechet_mean(manifold, catalogue.points).mean
            return out | _real_data(catalogue.points, m0, s.n, subsample_rng, note)
    if s.space == "spd":
        if s.source == "wishart":
            return out | dict(data=spd_wishart(s.n, radius=s.radius, rng=data_rng), m0=manifold.origin)
        if s.source in ("china", "flower"):
            catalogue = image_covariances(s.source)
            note = (f"Real data: covariance descriptors of (brightness, horizontal gradient) over the 260 patches "
                    f"of scikit-learn's {s.source}.jpg, whitened by the log-Euclidean mean of all 260, so m₀ = I. "
                    f"The 260 patches are the public catalogue; the private data set is a random sample of n.")
            return out | _real_data(catalogue, manifold.origin, s.n, subsample_rng, note)
    if s.space == "hyperbolic":
        m0 = manifold.origin
        if s.source == "ball":
            return out | dict(data=hyperbolic_ball(s.n, s.radius, rng=data_rng), m0=m0)
        if s.source == "wrapped":
            return out | dict(data=hyperbolic_wrapped_gaussian(s.n, WRAPPED_STD, rng=data_rng), m0=m0)
        if s.source == "tree":
            tree = tree_embedding(**TREE)
            note = (f"A balanced tree (branching {TREE['branching']}, height {TREE['height']}, "
                    f"{len(tree.points)} nodes) embedded by Sarkar's construction with edges of hyperbolic length "
                    f"{TREE['edge_length']:g}; the root is m₀. The private data set is a random sample of n nodes; "
                    f"edges are drawn between sampled nodes.")
            sample = _real_data(tree.points, m0, s.n, subsample_rng, note)
            return out | sample | dict(edges=_remap_edges(tree.edges, sample["chosen"]))
    if s.space == "kendall" and s.source in TEMPLATES:
        note = (f"Synthetic landmark data: the {s.source} outline resampled to k = {s.k} landmarks (m₀, its "
                f"pre-shape), each copy perturbed by Gaussian noise of standard deviation {KENDALL_STD:g} per "
                f"coordinate. The noise is unbounded, so a copy may fall outside B_r(m₀).")
        data = kendall_noisy(s.n, s.source, k=s.k, std=KENDALL_STD, rng=data_rng)
        return out | dict(data=data, m0=shape_template(s.source, s.k), note=note)
    raise ValueError(f"data source {s.source!r} is not available on the space {s.space!r}")


def _point_axes(manifold, a: np.ndarray) -> np.ndarray:
    """Append one axis per point dimension so ``a`` broadcasts against points."""
    return np.reshape(a, np.shape(a) + (1,) * manifold.point_ndim)


def enforce_ball(manifold, data: np.ndarray, m0: np.ndarray, radius: float, action: str) -> tuple[np.ndarray, dict]:
    """Apply the ``outside`` choice to records farther than ``radius`` from ``m0``.

    ``"keep"`` leaves them, ``"clip"`` moves each to Exp_m0(r·log_m0(x)/|log_m0(x)|) on the boundary,
    ``"drop"`` removes them. Returns the data and ``n_outside``, ``max_dist`` and ``kept`` (mask of
    the input rows still present).
    """
    dist = manifold.dist(m0, data)
    outside = dist > radius * (1.0 + BALL_RTOL)
    info = dict(n_outside=int(outside.sum()), max_dist=float(dist.max()), kept=np.ones(len(data), dtype=bool))
    if not outside.any() or action == "keep":
        return data, info
    if action == "clip":
        v = manifold.log(m0, data[outside])
        scale = radius / manifold.norm(m0, v)
        data = data.copy()
        data[outside] = manifold.exp(m0, _point_axes(manifold, scale) * v)
        return data, info
    if action == "drop":
        if outside.all():
            raise ValueError(f"all {len(data)} records lie outside B_r(m₀) with r = {radius:.4g}: "
                             f"nothing is left after dropping them; raise r or clip instead")
        return data[~outside], info | dict(kept=~outside)
    raise ValueError(f"outside must be one of {', '.join(OUTSIDE)}, got {action!r}")


def _remap_edges(edges: np.ndarray | None, kept: np.ndarray) -> np.ndarray | None:
    """Edges between rows that survive ``kept``, re-indexed to the surviving rows."""
    if edges is None:
        return None
    position = np.cumsum(kept) - 1
    return position[edges[kept[edges].all(axis=1)]]


def log_lipschitz(radius: float, kappa_max: float) -> float:
    """Largest stretch L of log_m0 on B_r(m0): ‖log x − log y‖ ≤ L·ρ(x, y).

    By Rauch comparison the differential of Exp_m0 at distance ρ shrinks directions orthogonal
    to the radius by at least sin(√κ ρ)/(√κ ρ) when curvature ≤ κ, so L = √κ r / sin(√κ r) for
    κ > 0 (r below the conjugate radius) and L = 1 for κ ≤ 0. It turns Theorem 2's bound into a
    sensitivity of the tangent-space query log_m0(x̄).
    """
    if kappa_max <= 0:
        return 1.0
    t = np.sqrt(kappa_max) * radius
    return float(t / np.sin(t))


def _errors(space: str, manifold, mean: np.ndarray, releases: np.ndarray) -> dict:
    """Mean geodesic and ambient errors against the true mean, and the share off the manifold.

    Releases off the sphere are projected radially before measuring their geodesic error; off
    the SPD cone (not positive definite) they have none and are left out of the mean.
    """
    off = off_manifold(manifold, releases)
    if space == "sphere":
        geodesic = manifold.dist(mean, manifold.projection(releases))
    elif off.all():
        geodesic = np.array([np.nan])
    else:
        geodesic = manifold.dist(mean, releases[~off])
    ambient = np.nan
    if space in ("sphere", "spd"):
        gap = manifold.to_ambient(releases) - manifold.to_ambient(mean)
        ambient = float(np.linalg.norm(gap, axis=-1).mean())
    return dict(geodesic=float(np.mean(geodesic)), ambient=ambient, off_share=float(off.mean()))


def _run_euclidean(key: str, s: Settings, manifold, ctx: dict, rng, run: dict):
    """Ambient ℓ2 Laplace around the extrinsic mean, Δ_E = 2 r_E / n."""
    run["ambient_radius"] = float(ambient_radius(manifold.name, s.radius))
    run["sensitivity"] = float(ambient_sensitivity(ctx["n_used"], run["ambient_radius"]))
    mechanism = EuclideanLaplace(manifold=manifold, epsilon=s.epsilon, sensitivity=run["sensitivity"])
    run["sigma"] = mechanism.sigma
    extrinsic = manifold.from_ambient(manifold.to_ambient(ctx["data"]).mean(axis=0))
    return mechanism, mechanism.release(extrinsic, size=s.releases, rng=rng)


def _run_gaussian(key: str, s: Settings, manifold, ctx: dict, rng, run: dict):
    """Gaussian noise on log_m0(x̄) in T_m0M, Δ_T = L·Δ, σ by the analytic calibration."""
    run["lipschitz"] = log_lipschitz(s.radius, manifold.kappa_max)
    run["sensitivity"] = ctx["theorem2"]["sensitivity"] * run["lipschitz"]
    mechanism = TangentGaussian(manifold=manifold, epsilon=s.epsilon, delta=s.delta, sensitivity=run["sensitivity"],
                                base_point=ctx["m0"], calibration="analytic")
    run["sigma"] = mechanism.sigma
    return mechanism, mechanism.release(ctx["mean"], size=s.releases, rng=rng)


def _run_laplace(key: str, s: Settings, manifold, ctx: dict, rng, run: dict):
    """Riemannian Laplace around x̄ with σ = Δ/ε, drawn exactly or by the MH chain."""
    run["sensitivity"] = ctx["theorem2"]["sensitivity"]
    run["sigma"] = run["sensitivity"] / s.epsilon
    limit = scale_limit(manifold)
    if run["sigma"] >= limit:
        raise ValueError(f"σ = {run['sigma']:.4g} is beyond the normalisability limit {limit:.4g} "
                         f"(see the normalisability check).")
    mechanism = RiemannianLaplace(manifold=manifold, epsilon=s.epsilon, sensitivity=run["sensitivity"])
    if key == "exact":
        return mechanism, mechanism.release(ctx["mean"], size=s.releases, rng=rng)
    chain = laplace_mh(manifold, ctx["mean"], mechanism.sigma, size=s.releases, rng=rng, step=s.step,
                       burn_in=s.burn_in, thin=s.thin)
    run["diagnostics"] = dict(acceptance=float(chain.acceptance_rate), ess=float(chain.effective_sample_size),
                              autocorrelation=float(chain.autocorrelation_time), step=float(chain.step),
                              window=int(chain.diagnostic_steps), steps=s.burn_in + s.thin * (s.releases - 1))
    return mechanism, chain.samples


_RUNNERS = {"exact": _run_laplace, "mh": _run_laplace, "euclid": _run_euclidean, "gauss": _run_gaussian}


def _release(key: str, settings: Settings, manifold, ctx: dict, rng) -> dict:
    """Calibrate and run one mechanism; a ``ValueError`` becomes ``skipped`` with its reason."""
    run = dict(key=key, label=SHORT_NAMES[key], palette=PALETTE_NAMES[key], sensitivity=np.nan, sigma=np.nan,
               releases=None, skipped=None, guarantee=None, diagnostics=None, errors=None)
    try:
        if key != "euclid" and ctx["theorem2"] is None:
            raise ValueError("Theorem 2 gives no sensitivity bound at this radius (see the radius check).")
        mechanism, releases = _RUNNERS[key](key, settings, manifold, ctx, rng, run)
    except ValueError as err:
        run["skipped"] = str(err)
        return run
    run["releases"] = releases
    run["guarantee"] = dataclasses.asdict(mechanism.privacy_guarantee())
    run["errors"] = _errors(settings.space, manifold, ctx["mean"], releases)
    return run


def _checks(settings: Settings, manifold, ctx: dict, runs: list[dict]) -> list[dict]:
    """The assumptions behind the numbers, each with a level (success/info/warning/error) and why."""
    s = settings
    checks = []
    limit = ctx["limits"].sensitivity
    if ctx["theorem2"] is not None:
        why = ("κ ≤ 0 and an infinite injectivity radius put no limit on r"
               if not np.isfinite(limit) else f"r = {s.radius:.4f} < r* = {limit:.4f} = min{{inj/2, π/(4√κ)}}")
        checks.append(dict(level="success", title="Radius within the curvature limit",
                           text=f"{why}, so Theorem 2 bounds the sensitivity of the Fréchet mean."))
    else:
        checks.append(dict(level="error", title="Radius beyond the curvature limit", text=ctx["theorem2_failure"]))

    n_out, where = ctx["n_outside"], f"B_r(m₀) (r = {s.radius:.4f})"
    if n_out == 0:
        checks.append(dict(level="success", title="Every record inside the ball",
                           text=f"All {ctx['n_used']} records lie within {where}, as Theorem 2 assumes."))
    elif s.outside == "keep":
        checks.append(dict(level="error", title=f"{n_out} of {ctx['n_before']} records outside the ball",
                           text=f"They lie outside {where} (the farthest at distance {ctx['max_dist']:.3f}), so the "
                                f"sensitivity bound Δ does not hold and these releases are NOT ε-DP. Clip or drop "
                                f"them, or choose a larger public r — but never set r from these distances: that "
                                f"would make r depend on the private data."))
    elif s.outside == "clip":
        checks.append(dict(level="warning", title=f"{n_out} records clipped onto the boundary",
                           text=f"Each was moved along its geodesic from m₀ onto the boundary of {where}. Clipping "
                                f"acts record by record, so Theorem 2 holds for the clipped data; the mean is biased "
                                f"towards m₀."))
    else:
        checks.append(dict(level="warning", title=f"{n_out} records dropped",
                           text=f"n = {ctx['n_used']} remain and enter Δ. How many were dropped depends on the "
                                f"data, so strictly the released n needs protection too; clipping avoids this."))

    if not ctx["mean_converged"]:
        checks.append(dict(level="warning", title="Fréchet mean did not converge",
                           text=f"Gradient descent stopped after {ctx['mean_iterations']} iterations; the footpoint "
                                f"of the releases is then only approximately the mean."))

    laplace = [run for run in runs if run["key"] in ("exact", "mh")]
    limit_sigma = scale_limit(manifold)
    if laplace and ctx["theorem2"] is not None:
        sigma = laplace[0]["sigma"]
        if not np.isfinite(limit_sigma):
            checks.append(dict(level="success", title="Laplace law normalisable",
                               text=f"{manifold.name} is compact, so exp(−ρ/σ) integrates to a finite constant "
                                    f"for every σ."))
        elif sigma < limit_sigma:
            checks.append(dict(level="success", title="Laplace law normalisable",
                               text=f"σ = {sigma:.4g} < {limit_sigma:.4g}, the largest scale at which exp(−ρ/σ) "
                                    f"outweighs the exponential growth of volume on {manifold.name}."))
        else:
            growth = ("balls of H² grow in area like e^ρ, so σ(d − 1) < 1 is needed"
                      if s.space == "hyperbolic" else "volume on SPD(2) grows like e^{√2·ρ}, so σ < √2 is needed")
            checks.append(dict(level="error", title="Laplace law not normalisable",
                               text=f"σ = Δ/ε = {sigma:.4g} ≥ {limit_sigma:.4g}: {growth}. The density "
                                    f"exp(−ρ/σ) cannot be normalised and the Riemannian Laplace releases are skipped. "
                                    f"Raise n or ε, or lower r, to shrink σ."))

    for run in runs:
        diag = run["diagnostics"]
        if diag is None:
            continue
        chain = (f"{diag['steps']:,} steps, acceptance rate {diag['acceptance']:.0%}, proposal radius "
                 f"{diag['step']:.3g}, effective sample size {diag['ess']:.0f} over the last {diag['window']:,} steps")
        if diag["autocorrelation"] > s.thin:
            checks.append(dict(level="warning", title="MH releases are correlated",
                               text=f"The chain's autocorrelation time is {diag['autocorrelation']:.0f} steps, more "
                                    f"than the thinning {s.thin}: consecutive releases are not independent "
                                    f"({chain}). Raise the thinning."))
        else:
            checks.append(dict(level="success", title="MH chain mixes",
                               text=f"Autocorrelation time {diag['autocorrelation']:.1f} steps ≤ thinning {s.thin} "
                                    f"({chain}). The draws are still approximate: the burn-in is {s.burn_in:,} steps "
                                    f"(the paper used 10,000)."))
    return checks


@st.cache_data(max_entries=16, show_spinner=False)
def private_means(settings: Settings) -> dict:
    """Data, Fréchet mean, sensitivity and private releases for one set of playground settings.

    Returns
    -------
    dict
        Plain arrays, numbers and strings: ``space``, ``kappa_max``, ``data`` (after the ball
        choice), ``m0``, ``mean``, ``edges`` (tree data), ``note``, counts (``n_requested``,
        ``n_available``, ``n_before``, ``n_used``), ``theorem2`` (``h`` and ``sensitivity``, or
        ``None`` beyond the curvature limit), ``runs`` (one dict per chosen mechanism: ``sigma``,
        ``sensitivity``, ``releases``, ``errors``, ``guarantee``, ``diagnostics`` or ``skipped``)
        and ``checks`` (``level``, ``title``, ``text``).

    Raises
    ------
    ValueError
        When the data cannot be generated (e.g. a radius the sampler cannot fill).
    """
    s = settings
    manifold = make_manifold(s.space, s.k)
    streams = np.random.SeedSequence(s.seed).spawn(2 + len(MECHANISMS))
    sample = sample_data(s, manifold, np.random.default_rng(streams[0]), np.random.default_rng(streams[1]))
    data, ball = enforce_ball(manifold, sample["data"], sample["m0"], s.radius, s.outside)
    fit = frechet_mean(manifold, data)
    limits = radius_limits(manifold.kappa_max, manifold.injectivity_radius)
    ctx = dict(data=data, m0=sample["m0"], mean=fit.mean, limits=limits, n_before=len(sample["data"]),
               n_used=len(data), n_outside=ball["n_outside"], max_dist=ball["max_dist"],
               mean_converged=bool(np.all(fit.converged)), mean_iterations=int(np.max(fit.n_iter)),
               theorem2=None, theorem2_failure=None)
    if s.radius < limits.sensitivity:
        ctx["theorem2"] = dict(h=float(curvature_factor(s.radius, manifold.kappa_max)),
                               sensitivity=float(frechet_mean_sensitivity(len(data), s.radius, manifold.kappa_max)))
    else:
        ctx["theorem2_failure"] = (
            f"r = {s.radius:.4f} is at or beyond r* = {limits.sensitivity:.4f} = min{{inj/2, π/(4√κ)}} on "
            f"{manifold.name} (curvature up to {manifold.kappa_max:g}). There the factor h = 2r√κ·cot(2r√κ) is ≤ 0 "
            f"and Theorem 2 gives no sensitivity bound, so the Riemannian mechanisms cannot be calibrated. Lower r "
            f"below {limits.sensitivity:.4f}. The Euclidean baseline still runs: it only needs an ambient ball.")
    runs = [_release(key, s, manifold, ctx, np.random.default_rng(streams[2 + i]))
            for i, key in enumerate(MECHANISMS) if key in s.mechanisms]
    return dict(
        space=s.space, kappa_max=float(manifold.kappa_max), data=data, m0=sample["m0"], mean=fit.mean,
        edges=_remap_edges(sample["edges"], ball["kept"]), note=sample["note"], n_requested=s.n,
        n_available=sample["n_available"], n_before=ctx["n_before"], n_used=ctx["n_used"],
        theorem2=ctx["theorem2"], runs=runs, checks=_checks(s, manifold, ctx, runs),
    )


# ----- figures and tables ----------------------------------------------------------------------


def _clouds(result: dict) -> dict:
    """Palette name -> releases of every mechanism that released."""
    return {run["palette"]: run["releases"] for run in result["runs"] if run["releases"] is not None}


def hidden_releases(result: dict) -> int:
    """Releases on H² too far out to draw on the Poincaré disk (counted in the caption)."""
    if result["space"] != "hyperbolic":
        return 0
    h2 = Hyperbolic(2)
    return int(sum((h2.dist(result["mean"], c) > POINCARE_MAX_DIST).sum() for c in _clouds(result).values()))


@st.cache_data(max_entries=16, show_spinner=False)
def figure(settings: Settings) -> go.Figure:
    """The space's figure for the playground's result (data, true mean, release clouds)."""
    result = private_means(settings)
    clouds = _clouds(result)
    if result["space"] == "sphere":
        fig = sphere_figure(data=result["data"], mean=result["mean"], releases=clouds, center=result["m0"],
                            radius=settings.radius, resolution=48, height=640)
        return fig.update_layout(scene_camera=_zoomed_camera(result["m0"]))
    if result["space"] == "spd":
        return spd_cone_figure(data=result["data"], mean=result["mean"], releases=clouds, height=640)
    if result["space"] == "hyperbolic":
        h2 = Hyperbolic(2)
        shown = {name: c[h2.dist(result["mean"], c) <= POINCARE_MAX_DIST] for name, c in clouds.items()}
        return poincare_figure(data=result["data"], mean=result["mean"], releases=shown,
                               edges=result["edges"], height=640)
    outlines = {name: c[:KENDALL_MAX_OUTLINES] for name, c in clouds.items()}
    return shapes_figure(mean=result["mean"], releases=outlines, data=result["data"], release_opacity=0.3,
                         height=640)


def _zoomed_camera(center: np.ndarray) -> dict:
    """Plotly camera closer to the data ball than the whole-sphere default, looking at m0."""
    eye, up = view_direction(center)
    focus = SPHERE_ZOOM_SHIFT * np.asarray(center, dtype=float)
    position = focus + SPHERE_ZOOM_DISTANCE * eye
    return dict(eye=dict(zip("xyz", position.tolist())), center=dict(zip("xyz", focus.tolist())),
                up=dict(zip("xyz", up.tolist())))


def _fmt(value: float) -> str:
    """Four significant digits, or a dash for a missing value."""
    return "—" if value is None or not np.isfinite(value) else f"{value:.4g}"


def error_table(result: dict) -> pd.DataFrame:
    """One row per mechanism: Δ, σ, mean errors, share off the manifold (and MH diagnostics)."""
    rows = []
    for run in result["runs"]:
        errors = run["errors"] or {}
        rows.append({"Mechanism": run["label"], "Δ": _fmt(run["sensitivity"]), "σ": _fmt(run["sigma"]),
                     "Geodesic error": "not released" if run["skipped"] else _fmt(errors.get("geodesic")),
                     "Ambient error": _fmt(errors.get("ambient")),
                     "Off manifold": "—" if not errors else f"{errors['off_share']:.0%}"})
    table = pd.DataFrame(rows)
    if result["space"] not in ("sphere", "spd") and not table.empty:
        table = table.drop(columns="Ambient error")
    return table


def _coordinates(result: dict, points: np.ndarray) -> dict:
    """Named coordinate columns of points of the playground's space."""
    space = result["space"]
    if space == "sphere":
        return dict(zip("xyz", points.T))
    if space == "spd":
        return dict(x11=points[:, 0, 0], x12=points[:, 0, 1], x22=points[:, 1, 1])
    if space == "hyperbolic":
        disk = Hyperbolic(2).to_poincare(points)
        return dict(x0=points[:, 0], x1=points[:, 1], x2=points[:, 2], poincare_u=disk[:, 0], poincare_v=disk[:, 1])
    columns = {}
    for j in range(points.shape[1]):
        columns[f"x{j + 1}"] = points[:, j, 0]
        columns[f"y{j + 1}"] = points[:, j, 1]
    return columns


def releases_table(result: dict) -> pd.DataFrame:
    """Tidy table of the true mean and every release (coordinates of the space), for the CSV."""
    frames = [pd.DataFrame({"mechanism": "true Fréchet mean", "release": 0,
                            **_coordinates(result, result["mean"][None])})]
    for run in result["runs"]:
        if run["releases"] is not None:
            count = len(run["releases"])
            frames.append(pd.DataFrame({"mechanism": run["label"], "release": np.arange(1, count + 1),
                                        **_coordinates(result, run["releases"])}))
    return pd.concat(frames, ignore_index=True)


# ----- rendering helpers -------------------------------------------------------------------------


def show_data_note(result: dict) -> None:
    """Where the data come from and how many records enter the mean."""
    note = result["note"]
    if result["n_available"] is not None:
        if result["n_requested"] >= result["n_available"]:
            note += (f" n = {result['n_requested']} is at least the {result['n_available']} records available, so "
                     f"all are used (n = {result['n_available']} in Δ) and the sample is the catalogue itself.")
        else:
            note += f" Here n = {result['n_before']} of {result['n_available']}, drawn with the seed."
    st.info(note)


def show_noise_scale(result: dict, settings: Settings) -> None:
    """Δ from Theorem 2 and each mechanism's σ, formulas with the numbers plugged in."""
    n, r, eps = result["n_used"], settings.radius, settings.epsilon
    theorem2 = result["theorem2"]
    if theorem2 is None:
        st.markdown("**Theorem 2** gives no bound at this radius (see the checks below).")
    else:
        h, sens = theorem2["h"], theorem2["sensitivity"]
        st.markdown("**Sensitivity of the Fréchet mean** (Reimherr et al., Theorem 2), data in $B_r(m_0)$:")
        st.latex(r"\Delta = \frac{2r\,(2-h)}{n\,h}")
        if result["kappa_max"] > 0:
            st.latex(rf"h = 2r\sqrt{{\kappa}}\,\cot\!\big(2r\sqrt{{\kappa}}\big) = {h:.4f}"
                     rf"\quad (\kappa = {result['kappa_max']:g})")
        else:
            st.latex(r"h = 1 \quad (\kappa_{\max} \le 0)")
        st.latex(rf"\Delta = \frac{{2 \times {r:.4f} \times (2 - {h:.4f})}}{{{n} \times {h:.4f}}} = {sens:.4g}")
        if result["kappa_max"] > 0:
            st.caption(f"Positive curvature inflates Δ by (2 − h)/h = {(2 - h) / h:.3f} against the flat-space "
                       f"bound 2r/n. (The paper's sphere study used a tighter empirical constant instead.)")
    for run in result["runs"]:
        if not np.isfinite(run["sigma"]) and run["key"] != "euclid":
            continue
        if run["key"] in ("exact", "mh"):
            st.markdown(f"**{run['label']}**: the normalising constant does not depend on the footpoint "
                        "(homogeneous space), so Theorem 1 allows")
            st.latex(rf"\sigma = \frac{{\Delta}}{{\varepsilon}} = \frac{{{run['sensitivity']:.4g}}}{{{eps:g}}}"
                     rf" = {run['sigma']:.4g}")
        elif run["key"] == "euclid" and "ambient_radius" in run:
            formula = r"2\sin(r/2)" if result["space"] == "sphere" else r"e^{r} - 1"
            st.markdown(f"**{run['label']}**: the geodesic ball sits inside an ambient ball of radius $r_E$, "
                        "so the ambient mean moves by at most $2r_E/n$:")
            st.latex(rf"r_E = {formula} = {run['ambient_radius']:.4f}")
            st.latex(rf"\Delta_E = \frac{{2r_E}}{{n}} = {run['sensitivity']:.4g},\quad "
                     rf"\sigma_E = \frac{{\Delta_E}}{{\varepsilon}} = {run['sigma']:.4g}")
        elif run["key"] == "gauss":
            st.markdown(f"**{run['label']}**: noise in the tangent space at the public $m_0$. The log map "
                        "stretches distances in $B_r(m_0)$ by at most $L$; σ from the analytic Gaussian "
                        f"mechanism (Balle & Wang 2018) at δ = {settings.delta:g}:")
            if result["kappa_max"] > 0:
                st.latex(rf"L = \frac{{\sqrt{{\kappa}}\,r}}{{\sin(\sqrt{{\kappa}}\,r)}} = {run['lipschitz']:.4f}")
            else:
                st.latex(r"L = 1 \quad (\kappa \le 0)")
            st.latex(rf"\Delta_T = L\,\Delta = {run['sensitivity']:.4g},\quad \sigma = {run['sigma']:.4g}")


def show_checks(result: dict) -> None:
    """Each assumption as a coloured box saying whether it holds and why."""
    show = dict(success=st.success, info=st.info, warning=st.warning, error=st.error)
    for check in result["checks"]:
        show[check["level"]](f"**{check['title']}.** {check['text']}")
    for run in result["runs"]:
        if run["skipped"]:
            st.error(f"**{run['label']} not released.** {run['skipped']}")


def show_guarantees(result: dict) -> None:
    """Each released mechanism's ``privacy_guarantee()`` in an expander."""
    for run in result["runs"]:
        guarantee = run["guarantee"]
        if guarantee is None:
            continue
        with st.expander(f"Privacy guarantee: {run['label']}"):
            st.markdown(f"**(ε, δ) = ({guarantee['epsilon']:g}, {guarantee['delta']:g})** for "
                        f"{guarantee['mechanism']}, with σ = {guarantee['sigma']:.4g}.")
            st.markdown(f"Rule: `{guarantee['rule']}`")
            st.markdown(guarantee["reason"])
            st.markdown("It rests on these assumptions:\n" +
                        "\n".join(f"- {item}" for item in guarantee["assumptions"]))


# ----- high-resolution image for slides ----------------------------------------------------------


class _RendererProbe:
    """Runs ``offscreen_rendering_available`` once in a background thread (it takes seconds)."""

    def __init__(self):
        self.result: tuple[bool, str] | None = None
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        """Store the probe's answer (runs in the background thread)."""
        self.result = offscreen_rendering_available()


@st.cache_resource(show_spinner=False)
def _renderer_probe() -> _RendererProbe:
    """The process-wide probe, started on first use."""
    return _RendererProbe()


@st.cache_data(max_entries=4, show_spinner=False)
def slides_png(settings: Settings) -> bytes:
    """1600×1200 PNG of the sphere view rendered off screen by pyvista."""
    result = private_means(settings)
    points = {"data": result["data"], **_clouds(result), "true mean": result["mean"][None]}
    return scene_png(points=points, center=result["m0"],
                     curves={"boundary": ball_boundary(result["m0"], settings.radius)})


def _pending_slides_button(probe: _RendererProbe) -> None:
    """Disabled button shown while the probe runs; reruns the page once it has an answer."""
    if probe.result is not None:
        st.rerun()
    st.button("High-resolution image for slides", key="pg-slides-pending", disabled=True,
              help="Checking whether this machine can render off screen (a few seconds after the first visit).")


def slides_button(settings: Settings) -> None:
    """A button that renders the sphere view for slides, disabled with the reason when it cannot."""
    probe = _renderer_probe()
    if probe.result is None:
        st.fragment(_pending_slides_button, run_every=2.0)(probe)
        return
    available, reason = probe.result
    if not available:
        st.button("High-resolution image for slides", key="pg-slides", disabled=True,
                  help=f"Off-screen rendering with pyvista is unavailable here: {reason}")
        return
    if st.button("High-resolution image for slides", key="pg-slides",
                 help="Renders a 1600×1200 PNG of the sphere with pyvista (about 5 s the first time)."):
        try:
            with st.spinner("Rendering the sphere off screen…"):
                png = slides_png(settings)
        except RuntimeError as err:
            st.error(f"Cannot render the high-resolution image: {err}")
            return
        st.download_button("Download the 1600×1200 PNG", png, f"playground-{settings.space}-slides.png",
                           "image/png", key="dl-slides", on_click="ignore",
                           help="A poster-resolution rendering of the data, the ball and the release clouds.")
