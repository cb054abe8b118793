"""Private regression: geodesic regression of shapes or directions on a covariate, released with the
K-norm gradient mechanism (Kulkarni & Soto)."""

from pathlib import Path

import streamlit as st

from engine.viz.curves import trace_figure
from engine.viz.regression import figure1_panels
from ui import navigation, regression, state
from ui.downloads import download_row
from ui.errors import shown_as_error

LOGO = Path(__file__).resolve().parents[1] / "assets" / "logo.svg"
CHART = {"config": {"displaylogo": False}}
VIEWS = ("Fitted and private geodesics", "Table 1 and diagnostics", "Figure 1 curves")

st.set_page_config(page_title="Private regression · Manifold Privacy Explorer", page_icon=str(LOGO), layout="wide")
navigation.sidebar()
st.title("Private regression: geodesics through shapes and directions")
st.markdown(
    "**Geodesic regression** (Fletcher 2011) fits the curve y = Exp(p, x·v) through responses on a manifold against "
    "a covariate x: a footpoint p and a shooting vector v. Kulkarni & Soto release it privately in two steps with the "
    "**K-norm gradient mechanism**: first p̃ with density ∝ exp(−‖∇_p E‖/σ_p), then ṽ at p̃ with density "
    "∝ exp(−‖∇_v E‖/σ_v), spending ε_p + ε_v."
)
st.latex(r"E(p, v) = \frac{1}{2n}\sum_{i=1}^n d\big(\mathrm{Exp}(p, x_i v),\, y_i\big)^2")

settings, keys = regression.sidebar()
if st.session_state.pop("reg-preset-note", None):
    st.info("Loaded the paper's Figure 1 settings: Σ^50_2, n = 100, ε_p = ε_v = 0.3 (Figure 2's split).")

with st.spinner("Fitting the geodesic and drawing the private releases…"), shown_as_error("run the private regression"):
    result = regression.private_regression(settings)

geodesics, table, curves = state.tabs("reg_view", VIEWS)
with geodesics:
    if geodesics.open:
        fig = regression.main_figure(settings)
        st.plotly_chart(fig, key="reg-main-chart", **CHART)
        st.caption("Each private outline is rotated onto the non-private prediction at the same covariate value, so "
                   "what differs is the shape. High dimension is expensive: Σ^k_2 has 2k − 4 dimensions and the "
                   "K-norm noise radius grows like (2k − 4)·σ.")
        st.table(result.energies.round(5), hide_index=True, border="horizontal")
        download_row(f"regression-{settings.dataset}", fig=fig, data=result.energies, settings=state.settings(keys))
with table:
    if table.open:
        left, right = st.columns(2, gap="large")
        with left:
            st.subheader("Table 1 with the numbers plugged in")
            regression.show_table1(result)
            st.subheader("Assumptions checked")
            regression.show_assumptions(result)
        with right:
            st.subheader("Privacy guarantee")
            regression.show_guarantee(result)
            st.subheader("Metropolis–Hastings diagnostics")
            regression.show_diagnostics(result)
        trace = trace_figure(result.trace.assign(quantity="‖∇_p E‖ (footpoint step), chain " + result.trace.chain
                                                 .astype(str)), quantity="quantity", name="non-private",
                             title="Footpoint chains after warm-up", row_height=110)
        st.plotly_chart(trace, key="reg-trace-chart", **CHART)
with curves:
    if curves.open:
        st.markdown("Figure 1 of the paper on the synthetic shapes: ln of the average energy of "
                    f"{regression.PAGE_PAIRS} private pairs per budget split (the command line "
                    "`python -m engine.experiments kulkarni-soto-fig1` draws 100).")
        with st.spinner("Running the Figure 1 grid (about a minute the first time)…"), \
                shown_as_error("run the Figure 1 study"):
            fig1 = regression.figure1(settings.n, settings.k, settings.tau, settings.paper_scale, settings.clip,
                                      settings.seed)
        for name, fig in figure1_panels(fig1["curves"]).items():
            st.plotly_chart(fig, key=f"reg-{name}", **CHART)
        st.subheader("Table 1 against simulated neighbours")
        st.table(fig1["sensitivity"].round(6), hide_index=True, border="horizontal")
        download_row("kulkarni-soto-fig1", data=fig1["curves"], settings=state.settings(keys),
                     study="kulkarni-soto-fig1")
