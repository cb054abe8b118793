"""Utility: how much error does ε-differential privacy cost? Intrinsic against Euclidean Laplace."""

from ui import address_keys, first_paint, glossary, navigation, utility

navigation.page_config("Utility")
first_paint.pending()
navigation.sidebar()
first_paint.intro(
    "Utility: the price of privacy",
    "Each simulated data set lies in a ball B_r(m0). The **Riemannian Laplace** mechanism releases its Fréchet mean "
    "with noise along the space; the **Euclidean Laplace** mechanism releases its ambient (arithmetic) mean, the "
    "statistic whose sensitivity 2r_E/n it is calibrated to, with noise in flat ambient coordinates. With Theorem "
    "2's constant, the default, both are ε-differentially private for records in the ball; on the sphere the "
    "Figure 1 preset loads the paper's numerical boundary constant instead, which is smaller and not a proven "
    "bound. The question is which release stays closer to the truth, the Fréchet mean: the box below answers it "
    "along the space (geodesic error), the charts in ambient coordinates (‖x̃ − x̄‖, as in Figure 1 of Reimherr, "
    "Bharath & Soto 2021).",
)

settings = utility.sidebar()
result = utility.compute(settings)
utility.show(result, settings)
glossary.show("epsilon", "sigma", "sensitivity", "frechet-mean", "geodesic", "theorem-2", "curvature", "grassmannian",
              "curvature-factor", "riemannian-laplace", "euclidean-laplace")
address_keys.report()
