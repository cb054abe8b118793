"""The spaces every generic test runs on, with a scale for tangent vectors that stays inside the
injectivity radius (so exp/log round trips are well defined)."""

from engine.manifolds import SPD, Euclidean, Grassmann, Hyperbolic, Kendall, Sphere

SPACES = {
    "euclidean3": (Euclidean(3), 2.0),
    "sphere2": (Sphere(2), 1.0),
    "sphere5": (Sphere(5), 1.0),
    "spd2-affine": (SPD(2, metric="affine"), 1.0),
    "spd3-affine": (SPD(3, metric="affine"), 1.0),
    "spd3-bw": (SPD(3, metric="bures-wasserstein"), 0.3),
    "spd3-logeuclid": (SPD(3, metric="log-euclidean"), 1.0),
    "hyperbolic2": (Hyperbolic(2), 2.0),
    "hyperbolic4": (Hyperbolic(4), 2.0),
    "kendall4": (Kendall(4), 0.5),
    "kendall6": (Kendall(6), 0.5),
    "grassmann5-2": (Grassmann(5, 2), 0.5),
}
