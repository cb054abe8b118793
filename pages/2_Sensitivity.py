"""Sensitivity: how far can one record move the Fréchet mean? Theorem 2 of Reimherr, Bharath & Soto (2021)."""

from ui import address_keys, first_paint, glossary, navigation, sensitivity

navigation.page_config("Sensitivity")
first_paint.pending()
navigation.sidebar()
first_paint.intro(
    "Sensitivity of the Fréchet mean",
    "The Laplace mechanism adds noise in proportion to the **sensitivity** Δ: the largest distance the "
    "mean can move when one record of the data set is replaced. Reimherr, Bharath & Soto (2021, "
    "Theorem 2) bound it for data inside a geodesic ball of radius r on a space of curvature at most κ. "
    "Below, the bound is checked against simulated neighbouring data sets and explored as n, r and κ change.",
)

settings = sensitivity.sidebar()
result = sensitivity.compute(settings)
sensitivity.show(result, settings)
glossary.show("sensitivity", "frechet-mean", "geodesic", "theorem-2", "curvature", "curvature-factor",
              "injectivity-radius", "epsilon", "sigma")
address_keys.report()
