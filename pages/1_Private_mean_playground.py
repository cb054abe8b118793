"""Private mean playground: release the Fréchet mean of a data set on a curved space privately and
compare the Riemannian Laplace mechanism with its Euclidean and Gaussian alternatives."""


import streamlit as st

from engine.pipelines import settings_file
from ui import address_keys, first_paint, glossary, navigation, playground, reproduce, who_wins
from ui.downloads import download_row
from ui.errors import shown_as_error
from ui.playground import animation
from ui.progress import DelayedProgress

navigation.page_config("Private mean playground")
first_paint.pending()
navigation.sidebar()
first_paint.intro(
    "Private mean playground",
    "Pick a curved space and a data set, then release its **Fréchet mean** (the point minimising the sum of "
    "squared geodesic distances) with differential privacy. Each mechanism is run many times on the same data, so "
    "the clouds show how far a single private release typically lands from the true mean.",
)

settings, keys = playground.sidebar()
animate = animation.control(settings, keys)

work = "Computing the mean and drawing the releases"
if settings.chain:
    work += f", {settings.burn_in + settings.thin * (settings.releases - 1):,} MH steps among them"
with st.spinner(f"{work} …", show_time=True), shown_as_error("compute the private means"), \
        DelayedProgress() as progress:
    result = playground.private_means(settings, progress=progress)
    fig = playground.figure(settings)
    shown = animation.animated_figure(settings, animate) if animate else fig
    flat = animation.tangent_figure(settings, animate) if animate else None

first_paint.in_full_run(lambda: playground.show_data_note(result))
if not settings.mechanisms:
    st.warning("No mechanism is selected: pick at least one under **Mechanisms to compare** in the sidebar.")

view, numbers = st.columns([3, 2], gap="large")
with view:
    first_paint.main_chart(shown, key="playground-chart", config={"displaylogo": False})
    if animate == "n":
        st.caption(animation.SIZE_CAPTION)
    if flat is not None:
        st.plotly_chart(flat, key="playground-tangent-chart", config={"displaylogo": False})
        st.caption(animation.TANGENT_CAPTION)
    caption = playground.CAPTIONS[settings.space]
    if hidden := playground.hidden_caption(result):
        caption += " " + hidden
    if shown.layout.meta and shown.layout.meta.get("zoomed_on_releases"):
        caption += " " + playground.ZOOM_NOTE
    if animate and (beyond := animation.beyond_dome_caption(settings, animate)):
        caption += " " + beyond
    st.caption(caption)
    st.header("How far the releases land")
    who_wins.show(lambda: who_wins.playground_verdict(result, settings))
    table = playground.error_table(result)
    if table.empty:
        st.caption("No releases to summarise.")
    else:
        st.table(table, hide_index=True, border="horizontal")
        st.caption("Look at the geodesic error: the typical distance, along the manifold, from a release to the true "
                   f"Fréchet mean, averaged over the {settings.releases} releases of this one data set. "
                   f"{playground.ERROR_NOTES[settings.space]} Ambient error, where shown, is the "
                   "straight-line distance in flat coordinates.")
with numbers:
    st.header("Noise scale")
    playground.show_noise_scale(result, settings)
    st.header("Assumptions checked")
    playground.show_checks(result)
    st.header("Privacy guarantees")
    playground.show_guarantees(result)

st.header("Downloads")
download_row(f"playground-{settings.space}", fig=fig, data=playground.points_table(result),
             settings=settings_file.payload("playground", settings), pipeline="private-mean")
if animation.available_for(settings.space):
    playground.slides_button(settings)
reproduce.expander("playground", settings)
glossary.show("frechet-mean", "geodesic", "tangent-space", "epsilon", "delta", "sigma", "sensitivity", "theorem-2",
              "curvature", "curvature-factor", "injectivity-radius", "riemannian-laplace", "euclidean-laplace",
              "k-norm", "metropolis-hastings", "burn-in", "thinning", "grassmannian")
address_keys.report()
