"""Private subspaces: learn a plane or a line through the origin privately (Singhal & Steinke 2021)
and see why the sample size their algorithms need does not grow with the dimension."""


import streamlit as st

from engine.pipelines import settings_file
from ui import address_keys, first_paint, glossary, navigation, reproduce, subspaces
from ui.downloads import download_row
from ui.errors import shown_as_error

navigation.page_config("Private subspaces")
first_paint.pending()
navigation.sidebar()
first_paint.intro(
    "Private subspaces",
    "Which plane or line through the origin do the points lie in? The answer is a point of the Grassmannian "
    "Gr(d, k). Singhal & Steinke (2021) release it privately by a stable choice, with truncated-Laplace noise on "
    "the gap between the best candidates' counts of points rather than on coordinates, and **⊥** when the data "
    "do not fit; their sample size does not depend on the dimension d.",
)
config, _ = subspaces.sidebar()

with st.spinner("Drawing the points and the private releases…"), shown_as_error("release the subspace"):
    result = subspaces.private_subspaces(config)
    fig = subspaces.main_figure(config)

view, numbers = st.columns([3, 2], gap="large")
with view:
    first_paint.main_chart(fig, key="subspaces-chart", config={"displaylogo": False})
    st.caption(subspaces.caption(result))
with numbers:
    st.header("Releases against the truth")
    subspaces.show_numbers(result)
    st.header("Privacy guarantee")
    subspaces.show_guarantee(result)

st.header("Downloads")
download_row(f"subspaces-{config.method}", fig=fig, data=subspaces.releases_table(result),
             settings=settings_file.payload("subspaces", config), pipeline="private-subspace")
reproduce.expander("subspaces", config)

st.header("Does the dimension matter?")
with shown_as_error("run the dimension sweep"):
    summary = subspaces.dimension_sweep(config.k, config.epsilon, config.delta, config.seed)
    sweep = subspaces.sweep_figure(summary)
chart, why = st.columns([3, 2], gap="large")
with chart:
    st.plotly_chart(sweep, key="subspaces-sweep", config={"displaylogo": False})
    st.caption(subspaces.sweep_caption(config.epsilon, config.delta))
with why:
    st.markdown(subspaces.WHY_D_DROPS_OUT)
download_row("subspaces-dimension-sweep", fig=sweep, data=summary,
             settings=subspaces.sweep_settings(config.k, config.epsilon, config.delta, config.seed),
             study="singhal-steinke-dimension")
glossary.show("grassmannian", "bottom", "epsilon", "delta", "sigma", "sensitivity")
address_keys.report()
