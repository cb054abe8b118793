"""Data sources of the private-mean pipeline: one data set per (space, source) with its public
centre m0 and a note on where it comes from.

Synthetic sources follow the papers (Reimherr, Bharath & Soto 2021, supplement §2.1: the sphere cap
and the Wishart recipe); the real ones are public catalogues from which the private data set is a
random sample (the catalogue, and so m0, is public).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.data import (
    hyperbolic_ball,
    hyperbolic_wrapped_gaussian,
    image_covariances,
    kendall_noisy,
    load_airports,
    shape_template,
    spd_wishart,
    sphere_ball,
    sphere_cap,
    sphere_vmf,
    tree_embedding,
)
from engine.estimators import frechet_mean
from engine.spaces import KENDALL_STD, SPACES, TREE, VMF_CONCENTRATION, WRAPPED_STD

#: Data sources per space (URL value → label), in display order; the first is the default
#: (``engine.spaces``).
SOURCES = {key: entry.sources for key, entry in SPACES.items()}

NOTES = {
    ("sphere", "cap"): "The paper's recipe (Reimherr et al., supplement §2.1): polar angle uniform on [0, r] "
                       "around the north pole m₀, so points crowd towards the centre.",
    ("sphere", "ball"): "Points uniform (by area) in the geodesic ball B_r(m₀) around the north pole.",
    ("sphere", "vmf"): f"von Mises–Fisher law around the north pole m₀ with concentration {VMF_CONCENTRATION:g}. "
                       "Its support is the whole sphere, so a few points may fall outside B_r(m₀).",
    ("spd", "wishart"): "The paper's recipe: Wishart W(I/2, 2) matrices kept when their affine-invariant "
                        "distance to m₀ = I is below r.",
    ("hyperbolic", "ball"): "Points uniform (by hyperbolic area) in the geodesic ball B_r(m₀) around the origin.",
    ("hyperbolic", "wrapped"): f"Wrapped Gaussian around the origin m₀: Exp of a tangent Gaussian with σ = "
                               f"{WRAPPED_STD:g}. Unbounded, so some points may fall outside B_r(m₀).",
}


@dataclass(frozen=True)
class Sample:
    """A data set ``(n, *point_shape)``, its public centre m0, the catalogue size of a real source
    (``None`` when synthetic), tree edges between sampled nodes (else ``None``) and a note."""

    data: np.ndarray
    m0: np.ndarray
    n_available: int | None
    edges: np.ndarray | None
    note: str


def remap_edges(edges: np.ndarray | None, kept: np.ndarray) -> np.ndarray | None:
    """Edges between rows that survive ``kept``, re-indexed to the surviving rows."""
    if edges is None:
        return None
    position = np.cumsum(kept) - 1
    return position[edges[kept[edges].all(axis=1)]]


def _catalogue_sample(points: np.ndarray, m0: np.ndarray, n: int, rng, note: str, edges=None) -> Sample:
    """A random sample of min(n, len(points)) rows of a public catalogue, in catalogue order."""
    chosen = np.zeros(len(points), dtype=bool)
    chosen[rng.choice(len(points), size=min(n, len(points)), replace=False)] = True
    return Sample(points[chosen], m0, len(points), remap_edges(edges, chosen), note)


def sample_data(space: str, source: str, manifold, *, n: int, radius: float, k: int, region: str,
                data_rng, subsample_rng) -> Sample:
    """One data set of the source ``source`` on ``space`` (see ``SOURCES``)."""
    note = NOTES.get((space, source), "")
    if source not in SOURCES.get(space, {}):
        raise ValueError(f"data source {source!r} is not available on the space {space!r}; "
                         f"choose one of {', '.join(SOURCES.get(space, {})) or 'none'}")
    m0 = manifold.origin
    if space == "sphere":
        if source == "airports":
            catalogue = load_airports(None if region == "all" else region)
            where = "all US states and territories" if region == "all" else region
            note = (f"Real data: {len(catalogue.points):,} airports in {where} (vega_datasets). The catalogue is "
                    f"treated as public and the private data set is a random sample of n of its airports; m₀ is "
                    f"the Fréchet mean of the whole catalogue, fixed before sampling.")
            m0 = frechet_mean(manifold, catalogue.points).mean
            return _catalogue_sample(catalogue.points, m0, n, subsample_rng, note)
        draw = {"cap": lambda: sphere_cap(n, radius, rng=data_rng), "ball": lambda: sphere_ball(n, radius, rng=data_rng),
                "vmf": lambda: sphere_vmf(n, VMF_CONCENTRATION, rng=data_rng)}[source]
        return Sample(draw(), m0, None, None, note)
    if space == "spd":
        if source == "wishart":
            return Sample(spd_wishart(n, radius=radius, rng=data_rng), m0, None, None, note)
        note = (f"Real data: covariance descriptors of (brightness, horizontal gradient) over the 260 patches "
                f"of scikit-learn's {source}.jpg, whitened by the log-Euclidean mean of all 260, so m₀ = I. "
                f"The 260 patches are the public catalogue; the private data set is a random sample of n.")
        return _catalogue_sample(image_covariances(source), m0, n, subsample_rng, note)
    if space == "hyperbolic":
        if source == "tree":
            tree = tree_embedding(**TREE)
            note = (f"A balanced tree (branching {TREE['branching']}, height {TREE['height']}, "
                    f"{len(tree.points)} nodes) embedded by Sarkar's construction with edges of hyperbolic length "
                    f"{TREE['edge_length']:g}; the root is m₀. The private data set is a random sample of n nodes; "
                    f"edges are drawn between sampled nodes.")
            return _catalogue_sample(tree.points, m0, n, subsample_rng, note, edges=tree.edges)
        draw = hyperbolic_ball(n, radius, rng=data_rng) if source == "ball" else \
            hyperbolic_wrapped_gaussian(n, WRAPPED_STD, rng=data_rng)
        return Sample(draw, m0, None, None, note)
    note = (f"Synthetic landmark data: the {source} outline resampled to k = {k} landmarks (m₀, its "
            f"pre-shape), each copy perturbed by Gaussian noise of standard deviation {KENDALL_STD:g} per "
            f"coordinate. The noise is unbounded, so a copy may fall outside B_r(m₀).")
    return Sample(kendall_noisy(n, source, k=k, std=KENDALL_STD, rng=data_rng), shape_template(source, k), None,
                  None, note)
