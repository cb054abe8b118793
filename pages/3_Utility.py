"""Utility: how much error does ε-differential privacy cost? Intrinsic against Euclidean Laplace."""

from ui import address_keys, first_paint, glossary, navigation, utility

navigation.page_config("Utility")
first_paint.pending()
navigation.sidebar()
first_paint.intro(
    "Utility: the price of privacy",
    "Each simulated data set lies in a ball B_r(m0). The **Riemannian Laplace** mechanism releases its Fréchet mean "
    "with noise along the space, the **Euclidean Laplace** its ambient mean with noise in flat coordinates; both are "
    "ε-differentially private with Theorem 2's constant, the default (the sphere's Figure 1 preset loads the paper's "
    "smaller numerical constant, not a proven bound). Which release stays closer to the Fréchet mean? The charts "
    "measure it in ambient coordinates (‖x̃ − x̄‖, as in Figure 1 of Reimherr, Bharath & Soto 2021), the box below "
    "them along the space.",
)

settings = utility.sidebar()
result = utility.compute(settings)
utility.show(result, settings)
glossary.show("epsilon", "sigma", "sensitivity", "frechet-mean", "geodesic", "theorem-2", "curvature", "grassmannian",
              "curvature-factor", "riemannian-laplace", "euclidean-laplace", "delta")
address_keys.report()
