"""The playground's sidebar: every widget, bound to the URL, turned into one ``PrivateMeanConfig``."""

from __future__ import annotations

import streamlit as st

from engine import spaces
from engine.data import airport_states
from engine.mechanisms import specs
from engine.pipelines import address_keys
from engine.pipelines.private_mean import PrivateMeanConfig
from engine.spaces import make_manifold
from ui import controls, glossary, limits, presets, state
from ui.playground.spaces import DELTAS, MECHANISMS, OUTSIDE, SPACES, SpaceSpec

#: The page's defaults are the pipeline's (on the sphere; the space-dependent ones come from ``SPACES``).
DEFAULTS = PrivateMeanConfig()
#: Named settings, loaded from ``?preset=NAME`` (``ui.presets``; Home's links carry the values as well).
PRESETS = {
    "reimherr-spd": {"space": "spd", "source": "wishart", "r": 1.5, "n": 20, "eps": 1.0, "mech": ["exact", "euclid"]},
    "reimherr-sphere": {"space": "sphere", "source": "cap", "r": 0.39269908169872414, "n": 20, "eps": 1.0,
                        "mech": ["exact", "euclid"]},
    "han-spd-mean": {"space": "spd", "source": "wishart", "r": 1.0, "n": 100, "eps": 0.1,
                     "mech": ["exact", "mh", "gauss"], "delta": 0.001, "burn": 5_000, "thin": 50, "m": 100},
}
PRESET_NOTES = {
    "reimherr-spd": "Loaded §5 of Reimherr, Bharath & Soto (2021) on SPD(2): Wishart data kept within r = 1.5 of I, "
                    "n = 20, ε = 1, the Riemannian Laplace against the Euclidean Laplace.",
    "reimherr-sphere": "Loaded §5 of Reimherr, Bharath & Soto (2021) on S²: data in the cap of radius r = π/8 "
                       "around the north pole, n = 20, ε = 1, the Riemannian Laplace against the Euclidean Laplace.",
    "han-spd-mean": "Loaded the SPD Fréchet mean of Han et al.: Wishart data within distance r = 1 of I, "
                    "n = 100, ε = 0.1, δ = 10⁻³; the Riemannian Laplace drawn exactly and by a chain (burn-in "
                    "5,000, thinning 50) against the tangent Gaussian, 100 releases each.",
}
PRESET_NOTE_KEY = "playground-preset-note"


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
    """When the space changes, its dependent controls go back to that space's defaults (a preset just
    loaded brings its own)."""
    previous = st.session_state.get("_playground_space")
    if previous is not None and previous != space and PRESET_NOTE_KEY not in st.session_state:
        st.session_state["source"] = spec.default_source
        st.session_state["r"] = spec.radius[2]
        st.session_state["mech"] = list(spec.default_mechanisms)
        st.session_state["thin"] = spec.mh_thin
    st.session_state["_playground_space"] = space
    _keep_valid("source", spec.sources, spec.default_source)
    _keep_valid("mech", spec.mechanisms, list(spec.default_mechanisms))


@st.cache_data(max_entries=1, show_spinner=False)
def _state_options() -> dict:
    """URL value -> label for the airport state filter."""
    return {"all": "All states and territories", **{code: code for code in airport_states()}}


def _mechanism_select(spec: SpaceSpec) -> tuple[str, ...]:
    """Multiselect of the space's mechanisms; the chosen keys in display order."""
    chosen = controls.multiselect(
        "Mechanisms to compare", "mech", {m: MECHANISMS[m] for m in spec.mechanisms}, list(spec.default_mechanisms),
        help="Riemannian Laplace: noise ∝ exp(−ρ/σ) along the manifold, drawn exactly (Riemannian MH: the same "
             "law drawn by the paper's random-walk Metropolis–Hastings chain). Euclidean Laplace: ℓ2 Laplace noise in "
             "flat ambient coordinates, offered where the engine knows an ambient radius (sphere, SPD). Tangent Gaussian: Gaussian noise in the tangent space at m₀ "
             "(an (ε, δ) guarantee).",
    )
    return tuple(m for m in spec.mechanisms if m in chosen)


def _delta_select() -> float:
    """δ of the tangent Gaussian on a log-spaced slider."""
    return float(controls.choice_slider(
        "δ of the tangent Gaussian", "delta", DELTAS, DEFAULTS.delta,
        help=glossary.tooltip("delta", "The tangent Gaussian is (ε, δ)-DP; the Laplace mechanisms are ε-DP (δ = 0)."),
    ))


def _mh_controls(spec: SpaceSpec) -> tuple[int, int, float | None, list[str]]:
    """Burn-in, thinning and proposal radius (``None``: adaptive) of the MH chain, and their URL keys."""
    burn_in = controls.slider(
        "MH burn-in (steps)", "burn", min_value=100, max_value=10_000, default=DEFAULTS.burn_in, step=100,
        help=glossary.tooltip("burn-in", "The paper used 10,000; 1,000 keeps the playground fast."))
    thin = controls.slider(
        "MH thinning", "thin", min_value=1, max_value=100, default=spec.mh_thin, step=1,
        help=glossary.tooltip("thinning", "The paper used 100; the default is just above the chain's "
                                          "autocorrelation time on this space."))
    adapt = controls.toggle(
        "Adapt the MH step size", "adapt", default=True,
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


#: The config field (``PrivateMeanConfig``, the settings file's key) each address key sets (the engine's table, which
#: also reads old downloads). The address keeps its short keys; ``adapt`` (off) is the only one without a
#: field: it gives ``step`` a value.
FIELD_OF_KEY = address_keys.PAGES["playground"].fields
#: Every address key of the sidebar, also those it shows only for some spaces, sources or mechanisms.
KEYS = (*FIELD_OF_KEY, *address_keys.PAGES["playground"].shown_only)


def address(config, keys=tuple(FIELD_OF_KEY)) -> dict[str, str]:
    """The address parameters ``keys`` that open the playground on ``config`` (a ``PrivateMeanConfig`` or the
    page's ``PrivateMeanConfig``): tuples comma-joined, numbers written exactly."""
    def text(value) -> str:
        return ",".join(value) if isinstance(value, tuple) else repr(value) if isinstance(value, float) else str(value)

    return {key: text(getattr(config, FIELD_OF_KEY[key])) for key in keys}


def sidebar() -> tuple[PrivateMeanConfig, list[str]]:
    """Draw the playground's sidebar; return its settings and the URL keys on show."""
    state.own(KEYS)
    presets.preset_from_url(PRESETS, PRESET_NOTE_KEY)
    space = controls.space()
    spec = SPACES[space]
    _reset_on_space_change(space, spec)
    keys = ["space"]
    k = DEFAULTS.k
    if spaces.space(space).landmarks:
        k = int(controls.slider(
            "Landmarks k", "k", min_value=4, max_value=12, default=DEFAULTS.k, step=1,
            help="Number of landmarks on each outline; the shape space has dimension 2k − 4."))
        keys.append("k")
    source = controls.select(
        "Data source", "source", spec.sources, spec.default_source,
        help="Synthetic recipes from the papers or real data shipped with the app (on SPD, covariance matrices of "
             "image patches of scikit-learn's china.jpg and flower.jpg). Real data sets are subsampled to n points "
             "with the seed.")
    keys.append("source")
    region = DEFAULTS.region
    if source == "airports":
        region = controls.select(
            "State or territory", "state", _state_options(), DEFAULTS.region,
            help="Restrict the airports to one state (a tight cluster) or use all of them (a wide spread).")
        keys.append("state")
    n = controls.sample_size(default=DEFAULTS.n)
    low, high, default_r, step_r = spec.radius
    r_range = limits.radius_range(make_manifold(space, k), low=low, high=high, step=step_r)
    radius = controls.slider(
        "Data radius r (public)", "r", min_value=low, max_value=r_range.high, default=default_r, step=step_r,
        fmt="%.3f",
        help="A public promise: every record lies within geodesic distance r of the public centre m₀. The "
             "sensitivity Δ of the mean is computed from r, never from the data.")
    if r_range.reason:
        controls.caption(r_range.reason)
    outside = controls.select(
        "Points outside B_r(m₀)", "outside", OUTSIDE, DEFAULTS.outside,
        help="Records that break the promise. Keeping them voids Theorem 2; clipping moves each onto the "
             "boundary (record by record, so the bound holds); dropping changes n.")
    epsilon = controls.epsilon(default=DEFAULTS.epsilon)
    mechanisms = _mechanism_select(spec)
    keys += ["n", "r", "outside", "eps", "mech"]
    delta = DEFAULTS.delta
    if any(specs.spec(m).needs_delta for m in mechanisms):
        delta = _delta_select()
        keys.append("delta")
    burn_in, thin, step = DEFAULTS.burn_in, spec.mh_thin, DEFAULTS.step
    if any(specs.spec(m).chain for m in mechanisms):
        burn_in, thin, step, mh_keys = _mh_controls(spec)
        keys += mh_keys
    releases = controls.slider(
        "Private releases to draw", "m", min_value=20, max_value=500, default=DEFAULTS.releases, step=10,
        help="How many times each mechanism is run on the same data set: the cloud shows the spread of the "
             "released mean. In practice one publishes a single release.")
    seed = controls.seed(default=DEFAULTS.seed)
    keys += ["m", "seed"]
    state.sync(keys)
    presets.show_note(PRESET_NOTE_KEY, PRESET_NOTES)
    settings = PrivateMeanConfig(space=space, source=source, region=region, k=k, n=int(n), radius=float(radius),
                        outside=outside, epsilon=float(epsilon), mechanisms=mechanisms, delta=delta,
                        burn_in=burn_in, thin=thin, step=step, releases=int(releases), seed=int(seed))
    return settings, keys
