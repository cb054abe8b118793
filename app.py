"""Home page of Manifold Privacy Explorer: what the tool is, one card per page, and presets that
open a page with a paper's settings."""

import streamlit as st

from ui import address_keys, glossary, navigation
from ui.home_presets import PRESETS

navigation.page_config()
navigation.sidebar()

intro, picture = st.columns([3, 1], gap="large", vertical_alignment="center")
with intro:
    st.title("Manifold Privacy Explorer")
    st.markdown(
        "Many statistics live on curved spaces: directions on a sphere, covariance matrices, hierarchies in "
        "hyperbolic space, shapes. This tool shows how to publish such statistics with **differential privacy**, "
        "adding noise that respects the geometry instead of pretending the space is flat. Every page runs the "
        "papers' mechanisms live, so you can change ε, the sample size and the data and see what privacy costs."
    )
with picture, st.container(width=180):  # 180 px at most, narrower in a narrow column (an 800 px window)
    st.image(str(navigation.LOGO), width="stretch", caption="Private releases scattered around a mean on the sphere",
             alt="The logo: a sphere with a geodesic and private releases scattered around a mean")

with st.expander("How differential privacy works here"):
    st.markdown(
        "A mechanism is **ε-differentially private** if replacing one person's record changes the probability of "
        "any output by at most a factor $e^{\\varepsilon}$. For a mean $\\bar x$ on a manifold with geodesic "
        "distance $\\rho$, the **Riemannian Laplace mechanism** (Reimherr, Bharath & Soto, 2021) releases one draw "
        "from the density"
    )
    st.latex(r"p(x \mid \bar x) \;\propto\; \exp\!\left(-\frac{\rho(x, \bar x)}{\sigma}\right),"
             r"\qquad \sigma = \frac{\Delta}{\varepsilon},")
    st.markdown(
        "taken with respect to the manifold's volume. The **sensitivity** $\\Delta$ bounds how far one record can "
        "move the mean; for data in a ball $B_r(m_0)$ it is $\\Delta = 2r(2-h)/(nh)$, where $h \\le 1$ accounts "
        "for positive curvature. Both $r$ and $m_0$ must be fixed in public before looking at the data. Smaller ε "
        "or smaller n means a larger σ, and more noise."
    )

st.header("Pages")
columns = st.columns(3)
for i, page in enumerate(navigation.PAGES[1:]):
    with columns[i % 3], st.container(border=True):
        st.subheader(f"{i + 1} · {page.label}")
        st.markdown(page.teaches)
        st.page_link(page.script, label="Open the page", icon=":material/arrow_forward:")

st.header("Presets from the papers")
st.markdown("Each link opens a page with a paper's settings already in place; change anything from there.")
for label, script, params in PRESETS:
    st.page_link(script, label=label, icon=":material/tune:", query_params=params)
glossary.show("epsilon", "delta", "sigma", "sensitivity", "frechet-mean", "geodesic", "theorem-2",
              "riemannian-laplace", "euclidean-laplace", "k-norm", "metropolis-hastings", "burn-in", "thinning",
              "dp-rgd", "grassmannian", "bottom")
address_keys.report()
