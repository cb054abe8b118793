"""Private optimization: differentially private Riemannian gradient descent (Han, Mishra, Jawanpuria & Gao)."""

from ui import address_keys, first_paint, glossary, navigation, optimization

navigation.page_config("Private optimization")
first_paint.pending()
navigation.sidebar()
first_paint.intro(
    "Private optimization: DP Riemannian gradient descent",
    "Many statistics are the minimiser of a loss on a manifold: the top eigenvector of a covariance (on the "
    "sphere), a Fréchet mean or a Wasserstein barycenter of covariance matrices (on SPD), a prediction in "
    "hyperbolic space, a low-rank subspace (on the Grassmannian). **DP-RGD** (Han, Mishra, Jawanpuria & Gao) "
    "finds it privately: each step clips every record's gradient to norm L0, averages, adds Gaussian noise "
    "in the tangent space and follows the geodesic. A privacy accountant adds up what the T noisy steps cost.",
    r"w_{t+1} = \mathrm{Exp}_{w_t}\!\Big(-\eta\,\big(\tfrac{1}{b}\textstyle\sum_{i \in B_t}"
    r"\mathrm{clip}_{L_0}(\mathrm{grad}\, f_i(w_t)) + \xi_t\big)\Big),\qquad \xi_t \sim N_{w_t}(0, \sigma^2)",
)

settings, _ = optimization.sidebar()
computed = optimization.run(settings)
optimization.show(computed, settings)
glossary.show("dp-rgd", "epsilon", "delta", "sigma", "frechet-mean", "geodesic", "tangent-space", "k-norm",
              "metropolis-hastings", "burn-in", "grassmannian", "riemannian-laplace", "sensitivity")
address_keys.report()
