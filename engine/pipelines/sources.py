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
from engine.spaces import KENDALL_STD, SPACES, TEMPLATES, TREE, VMF_CONCENTRATION, WRAPPED_STD

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


@dataclass(frozen=True)
class _Request:
    """What a draw needs: the space's manifold, n, r, landmarks k, the airports' region, the stream
    of synthetic draws and the stream that subsamples a catalogue."""

    manifold: object
    n: int
    radius: float
    k: int
    region: str
    data_rng: np.random.Generator
    subsample_rng: np.random.Generator


def _synthetic(draw):
    """A synthetic source around the space's origin m0: ``draw(request)`` gives the records."""
    return lambda q, note: Sample(draw(q), q.manifold.origin, None, None, note)


def _airports(q: _Request, note: str) -> Sample:
    catalogue = load_airports(None if q.region == "all" else q.region)
    where = "all US states and territories" if q.region == "all" else q.region
    note = (f"Real data: {len(catalogue.points):,} airports in {where} (vega_datasets). The catalogue is "
            f"treated as public and the private data set is a random sample of n of its airports; m₀ is "
            f"the Fréchet mean of the whole catalogue, fixed before sampling.")
    m0 = frechet_mean(q.manifold, catalogue.points).mean
    return _catalogue_sample(catalogue.points, m0, q.n, q.subsample_rng, note)


def _patches(image: str):
    def draw(q: _Request, note: str) -> Sample:
        note = (f"Real data: covariance descriptors of (brightness, horizontal gradient) over the 260 patches "
                f"of scikit-learn's {image}.jpg, whitened by the log-Euclidean mean of all 260, so m₀ = I. "
                f"The 260 patches are the public catalogue; the private data set is a random sample of n.")
        return _catalogue_sample(image_covariances(image), q.manifold.origin, q.n, q.subsample_rng, note)
    return draw


def _tree(q: _Request, note: str) -> Sample:
    tree = tree_embedding(**TREE)
    note = (f"A balanced tree (branching {TREE['branching']}, height {TREE['height']}, "
            f"{len(tree.points)} nodes) embedded by Sarkar's construction with edges of hyperbolic length "
            f"{TREE['edge_length']:g}; the root is m₀. The private data set is a random sample of n nodes; "
            f"edges are drawn between sampled nodes.")
    return _catalogue_sample(tree.points, q.manifold.origin, q.n, q.subsample_rng, note, edges=tree.edges)


def _noisy_shapes(template: str):
    def draw(q: _Request, note: str) -> Sample:
        note = (f"Synthetic landmark data: the {template} outline resampled to k = {q.k} landmarks (m₀, its "
                f"pre-shape), each copy perturbed by Gaussian noise of standard deviation {KENDALL_STD:g} per "
                f"coordinate. The noise is unbounded, so a copy may fall outside B_r(m₀).")
        return Sample(kendall_noisy(q.n, template, k=q.k, std=KENDALL_STD, rng=q.data_rng),
                      shape_template(template, q.k), None, None, note)
    return draw


#: How each (space, source) of ``SOURCES`` draws its data: ``draw(request, note) -> Sample``.
DRAWS = {
    ("sphere", "cap"): _synthetic(lambda q: sphere_cap(q.n, q.radius, rng=q.data_rng)),
    ("sphere", "ball"): _synthetic(lambda q: sphere_ball(q.n, q.radius, rng=q.data_rng)),
    ("sphere", "vmf"): _synthetic(lambda q: sphere_vmf(q.n, VMF_CONCENTRATION, rng=q.data_rng)),
    ("sphere", "airports"): _airports,
    ("spd", "wishart"): _synthetic(lambda q: spd_wishart(q.n, radius=q.radius, rng=q.data_rng)),
    ("spd", "china"): _patches("china"),
    ("spd", "flower"): _patches("flower"),
    ("hyperbolic", "ball"): _synthetic(lambda q: hyperbolic_ball(q.n, q.radius, rng=q.data_rng)),
    ("hyperbolic", "wrapped"): _synthetic(lambda q: hyperbolic_wrapped_gaussian(q.n, WRAPPED_STD, rng=q.data_rng)),
    ("hyperbolic", "tree"): _tree,
    **{("kendall", name): _noisy_shapes(name) for name in TEMPLATES},
}


def sample_data(space: str, source: str, manifold, *, n: int, radius: float, k: int, region: str,
                data_rng, subsample_rng) -> Sample:
    """One data set of the source ``source`` on ``space`` (see ``SOURCES`` and ``DRAWS``)."""
    if source not in SOURCES.get(space, {}):
        raise ValueError(f"data source {source!r} is not available on the space {space!r}; "
                         f"choose one of {', '.join(SOURCES.get(space, {})) or 'none'}")
    request = _Request(manifold, n, radius, k, region, data_rng, subsample_rng)
    return DRAWS[space, source](request, NOTES.get((space, source), ""))
