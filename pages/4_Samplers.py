"""Samplers: why the tool samples the Laplace law exactly rather than by Metropolis–Hastings."""

from ui import address_keys, first_paint, glossary, navigation, samplers

navigation.page_config("Samplers")
first_paint.pending()
navigation.sidebar()
first_paint.intro(
    "Samplers: exact against Metropolis–Hastings",
    "The privacy guarantee of the Laplace mechanism holds for draws from its exact law. Papers often sample "
    "it with a random-walk **Metropolis–Hastings** (MH) chain, which only approaches that law as the chain "
    "runs. This page draws the same number of points from both samplers on the same target and compares "
    "their distances to the footpoint with the exact radial density.",
)

settings = samplers.sidebar()
result, charts = samplers.compute(settings)
samplers.show(result, charts, settings)
glossary.show("sigma", "epsilon", "sensitivity", "injectivity-radius", "metropolis-hastings", "burn-in", "thinning",
              "grassmannian")
address_keys.report()
