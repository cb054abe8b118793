"""The playground's data: the space of a URL value, one data set per source with its public
centre m0, and the choice for records outside the public ball B_r(m0)."""

from __future__ import annotations

import numpy as np

from engine.data import (
    hyperbolic_ball,
    hyperbolic_wrapped_gaussian,
    image_covariances,
    kendall_noisy,
    load_airports,
    shape_template,
    sphere_ball,
    sphere_cap,
    sphere_vmf,
    spd_wishart,
    tree_embedding,
)
from engine.estimators import frechet_mean
from engine.manifolds import SPD, Hyperbolic, Kendall, Sphere
from ui.playground.spaces import (
    KENDALL_STD,
    SOURCE_NOTES,
    SPACES,
    TEMPLATES,
    TREE,
    VMF_CONCENTRATION,
    WRAPPED_STD,
    Settings,
)

# Relative slack when testing dist(m0, x) <= r, so points sampled on the boundary count as inside.


def make_manifold(space: str, k: int):
    """The engine's space for a URL value."""
    if space == "sphere":
        return Sphere(2)
    if space == "spd":
        return SPD(2)
    if space == "hyperbolic":
        return Hyperbolic(2)
    if space == "kendall":
        return Kendall(k)
    raise ValueError(f"space must be one of {', '.join(SPACES)}, got {space!r}")


def _real_data(points: np.ndarray, m0: np.ndarray, n: int, rng, note: str) -> dict:
    """A random sample of min(n, len(points)) rows of a catalogue, in catalogue order."""
    chosen = np.zeros(len(points), dtype=bool)
    chosen[rng.choice(len(points), size=min(n, len(points)), replace=False)] = True
    return dict(data=points[chosen], m0=m0, n_available=len(points), chosen=chosen, note=note)


def sample_data(settings: Settings, manifold, data_rng, subsample_rng) -> dict:
    """Data set, public centre m0 and a description for one data source.

    Returns a dict with ``data``, ``m0``, ``n_available`` (``None`` for synthetic data), ``edges``
    (tree edges between sampled nodes, else ``None``) and ``note``.
    """
    s = settings
    out = dict(n_available=None, edges=None, note=SOURCE_NOTES.get((s.space, s.source), ""))
    if s.space == "sphere":
        m0 = manifold.origin
        if s.source == "cap":
            return out | dict(data=sphere_cap(s.n, s.radius, rng=data_rng), m0=m0)
        if s.source == "ball":
            return out | dict(data=sphere_ball(s.n, s.radius, rng=data_rng), m0=m0)
        if s.source == "vmf":
            return out | dict(data=sphere_vmf(s.n, VMF_CONCENTRATION, rng=data_rng), m0=m0)
        if s.source == "airports":
            catalogue = load_airports(None if s.region == "all" else s.region)
            where = "all US states and territories" if s.region == "all" else s.region
            note = (f"Real data: {len(catalogue.points):,} airports in {where} (vega_datasets). The catalogue is "
                    f"treated as public and the private data set is a random sample of n of its airports; m₀ is "
                    f"the Fréchet mean of the whole catalogue, fixed before sampling.")
            m0 = frechet_mean(manifold, catalogue.points).mean
            return out | _real_data(catalogue.points, m0, s.n, subsample_rng, note)
    if s.space == "spd":
        if s.source == "wishart":
            return out | dict(data=spd_wishart(s.n, radius=s.radius, rng=data_rng), m0=manifold.origin)
        if s.source in ("china", "flower"):
            catalogue = image_covariances(s.source)
            note = (f"Real data: covariance descriptors of (brightness, horizontal gradient) over the 260 patches "
                    f"of scikit-learn's {s.source}.jpg, whitened by the log-Euclidean mean of all 260, so m₀ = I. "
                    f"The 260 patches are the public catalogue; the private data set is a random sample of n.")
            return out | _real_data(catalogue, manifold.origin, s.n, subsample_rng, note)
    if s.space == "hyperbolic":
        m0 = manifold.origin
        if s.source == "ball":
            return out | dict(data=hyperbolic_ball(s.n, s.radius, rng=data_rng), m0=m0)
        if s.source == "wrapped":
            return out | dict(data=hyperbolic_wrapped_gaussian(s.n, WRAPPED_STD, rng=data_rng), m0=m0)
        if s.source == "tree":
            tree = tree_embedding(**TREE)
            note = (f"A balanced tree (branching {TREE['branching']}, height {TREE['height']}, "
                    f"{len(tree.points)} nodes) embedded by Sarkar's construction with edges of hyperbolic length "
                    f"{TREE['edge_length']:g}; the root is m₀. The private data set is a random sample of n nodes; "
                    f"edges are drawn between sampled nodes.")
            sample = _real_data(tree.points, m0, s.n, subsample_rng, note)
            return out | sample | dict(edges=remap_edges(tree.edges, sample["chosen"]))
    if s.space == "kendall" and s.source in TEMPLATES:
        note = (f"Synthetic landmark data: the {s.source} outline resampled to k = {s.k} landmarks (m₀, its "
                f"pre-shape), each copy perturbed by Gaussian noise of standard deviation {KENDALL_STD:g} per "
                f"coordinate. The noise is unbounded, so a copy may fall outside B_r(m₀).")
        data = kendall_noisy(s.n, s.source, k=s.k, std=KENDALL_STD, rng=data_rng)
        return out | dict(data=data, m0=shape_template(s.source, s.k), note=note)
    raise ValueError(f"data source {s.source!r} is not available on the space {s.space!r}")


def remap_edges(edges: np.ndarray | None, kept: np.ndarray) -> np.ndarray | None:
    """Edges between rows that survive ``kept``, re-indexed to the surviving rows."""
    if edges is None:
        return None
    position = np.cumsum(kept) - 1
    return position[edges[kept[edges].all(axis=1)]]
