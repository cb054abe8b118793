"""The lower bound of the page benchmark: a bare Streamlit page with a single plotly chart.

``?chart=2d`` draws a 100-point line and ``?chart=3d`` three 3D markers (a WebGL scene): whatever a
page takes beyond these is its own, below them is Streamlit, plotly.js and the browser.
``?chart=sphere`` draws the playground's sphere scene (``engine.viz.sphere``: surface, cap, ball,
100 data points, two clouds of 200 releases) alone, the floor of the playground page on S².

``&live=true`` draws the same figure with ``ui.live_chart`` (updated in place by ``Plotly.react``)
instead of ``st.plotly_chart``. The sidebar's seed slider (default 1) redraws the random points (cached), the
floor of a page's cached re-render.

``?figure=NAME`` draws a page's own main chart alone, as the page draws it (``ui.live_chart`` with the
page's theme and config, in the pages' wide layout): ``NAME.json`` in the folder named by
``$MPE_REFERENCE_FIGURES`` (``benchmarks.pages.FIGURES_ENV``), written by ``benchmarks/pages.py`` from an
AppTest run of the page at its defaults. ``&width=W`` draws it W CSS pixels wide, the width at which the
page drew it (``benchmarks.pages.first_chart_width``): a chart drawn wider takes longer to draw.
"""

import json
import os
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from benchmarks.pages import FIGURES_ENV
from engine.viz.sphere import sphere_figure
from ui.literal import literal
from ui.live_chart import live_chart


@st.cache_data(show_spinner=False)
def figure(chart: str, seed: int) -> go.Figure:
    """The reference figure ``chart`` with random points from ``seed``."""
    rng = np.random.default_rng(seed)
    if chart == "sphere":
        pole = np.array([0.0, 0.0, 1.0])

        def near_pole(count: int) -> np.ndarray:
            points = pole + 0.2 * rng.normal(size=(count, 3))
            return points / np.linalg.norm(points, axis=1, keepdims=True)

        return sphere_figure(data=near_pole(100), mean=pole, center=pole, radius=0.5,
                             releases={"exact": near_pole(200), "gauss": near_pole(200)})
    if chart == "3d":
        points = rng.normal(size=(3, 3))
        return go.Figure(go.Scatter3d(x=points[:, 0], y=points[:, 1], z=points[:, 2], mode="markers"))
    return go.Figure(go.Scatter(y=rng.normal(size=100)))


@st.cache_resource(show_spinner=False)
def stored_figure(name: str) -> tuple[go.Figure, dict]:
    """The stored figure ``name`` and the options its page drew it with (``theme``, ``config``)."""
    stored = json.loads((Path(os.environ[FIGURES_ENV]) / f"{name}.json").read_text())
    return pio.from_json(stored.pop("figure"), skip_invalid=True), stored


name = st.query_params.get("figure")
if name is not None:
    st.set_page_config(layout="wide")
st.title("Reference page")
if name is not None:
    names = {path.stem for path in Path(os.environ.get(FIGURES_ENV, ".")).glob("*.json")}
    if name not in names:
        st.error(f"No stored figure {literal(name)}: the folder ${FIGURES_ENV} holds {', '.join(sorted(names)) or 'none'}.")
        st.stop()
    width = st.query_params.get("width", "")
    if width and not width.isdigit():
        st.error(f"width={literal(width)} is not a whole number of pixels: give one, e.g. width=940.")
        st.stop()
    fig, options = stored_figure(name)
    with st.container(width=int(width) if width else "stretch"):
        live_chart(fig, key="reference-chart", theme="streamlit" if options["theme"] else None, config=options["config"])
    st.stop()
seed = st.sidebar.slider("Seed", min_value=0, max_value=5, value=1)
shown = figure(st.query_params.get("chart", "2d"), seed)
if st.query_params.get("live") == "true":
    live_chart(shown, key="reference-chart")
else:
    st.plotly_chart(shown, key="reference-chart")
