"""Private regression: geodesic regression of shapes or directions on a covariate, released with the
K-norm gradient mechanism (Kulkarni & Soto)."""

from ui import address_keys, first_paint, glossary, navigation, regression

navigation.page_config("Private regression")
first_paint.pending()
navigation.sidebar()
first_paint.intro(
    "Private regression: geodesics through shapes and directions",
    "**Geodesic regression** (Fletcher 2011) fits the curve y = Exp(p, x·v) through responses on a manifold against "
    "a covariate x: a footpoint p and a shooting vector v. Kulkarni & Soto release it privately in two steps with the "
    "**K-norm gradient mechanism**: first p̃ with density ∝ exp(−‖∇_p E‖/σ_p), then ṽ at p̃ with density "
    "∝ exp(−‖∇_v E‖/σ_v), spending ε_p + ε_v.",
    r"E(p, v) = \frac{1}{2n}\sum_{i=1}^n d\big(\mathrm{Exp}(p, x_i v),\, y_i\big)^2",
)

settings = regression.sidebar()
regression.show(settings)
glossary.show("geodesic", "epsilon", "delta", "sigma", "sensitivity", "curvature", "k-norm", "metropolis-hastings",
              "rhat", "ess")
address_keys.report()
