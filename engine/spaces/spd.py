"""SPD(2) matrices with the affine-invariant metric (covariances): the paper's Wishart recipe and
image-patch covariances.

Its default radius is the paper's r = 1.5 (Reimherr, Bharath & Soto 2021, §5); B_r(I) reaches
Frobenius distance e^r − 1 from I (supplement, Proposition 1), so the Euclidean baseline is offered.
Its Laplace law is not radial in the distance alone: the exact sampler draws the eigen-logarithm
(``engine.mechanisms.spd_laplace``).
"""

from __future__ import annotations

import numpy as np

from engine.data import image_covariances, spd_wishart
from engine.manifolds import SPD
from engine.mechanisms import sample_eigenlog, spd_growth
from engine.spaces.entry import AuditSetting, PaperRecipe, SamplerSetting, SpaceEntry
from engine.spaces.family import DimensionFamily
from engine.spaces.source import DataSource, SourceRequest, catalogue_sample, synthetic

#: Largest σ on SPD(2) whose exact releases float64 holds: points at radius 20 and more lose positive
#: definiteness and the engine refuses such releases; up to σ = 0.7 fewer than 1 in 10⁵ exact draws go
#: that far (measured).
SPD_REPRESENTABLE_SIGMA = 0.7


def _patches(image: str):
    def draw(q: SourceRequest, note: str):
        note = (f"Real data: covariance descriptors of (brightness, horizontal gradient) over the 260 patches "
                f"of scikit-learn's {image}.jpg, whitened by the log-Euclidean mean of all 260, so m₀ = I. "
                f"The 260 patches are the public catalogue; the private data set is a random sample of n.")
        return catalogue_sample(image_covariances(image), q.manifold.origin, q.n, q.subsample_rng, note)
    return draw


def _eigenlog_radii(manifold, sigma, size, rng) -> np.ndarray:
    """ρ = ‖r‖ of exact eigen-logarithm draws (the exact sampler's distance)."""
    return np.linalg.norm(sample_eigenlog(manifold.k, sigma, size, rng), axis=-1)


def _eigenlog_envelope(manifold) -> tuple[int, float, float]:
    """The Gamma envelope of the eigen-log law: shape dim, growth c_k, unbounded support."""
    return manifold.dim, spd_growth(manifold.k), np.inf


ENTRY = SpaceEntry(
    key="spd",
    label="SPD(2) matrices, affine-invariant (covariances)",
    short_label="SPD(2), affine",
    make=lambda k: SPD(2),
    default_radius=1.5,
    data_sources={
        "wishart": DataSource("Wishart recipe (paper)",
                              synthetic(lambda q: spd_wishart(q.n, radius=q.radius, rng=q.data_rng)),
                              "The paper's recipe: Wishart W(I/2, 2) matrices kept when their affine-invariant "
                              "distance to m₀ = I is below r."),
        "china": DataSource("china.jpg patches (real)", _patches("china")),
        "flower": DataSource("flower.jpg patches (real)", _patches("flower")),
    },
    ambient_radius_tex="e^{{{r}}} - 1",
    recipe=PaperRecipe(lambda n, radius, reps, rng: spd_wishart(n, k=2, radius=radius, size=(reps,), rng=rng),
                       title="SPD(2), affine-invariant, r = 1.5", panels=(1, 2)),
    audit=AuditSetting("SPD(2), affine-invariant", lambda: SPD(2), 1.5),
    sampler=SamplerSetting(sigmas=(0.3, 0.8), radii=_eigenlog_radii, envelope=_eigenlog_envelope,
                           representable_sigma=SPD_REPRESENTABLE_SIGMA),
    family=DimensionFamily("spd", "SPD(k)", "k", "matrix size k", SPD, "SPD({})".format, (2, 3, 4, 5), 2.0, 2, 6),
)
