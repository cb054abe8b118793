"""Real data sets that ship inside installed packages (nothing is downloaded), one loader per space.

- S^2: US airports of ``vega_datasets`` (``_data/airports.csv``, a subset of OurAirports, public
  domain), as unit vectors; filter by state for a concentrated cluster.
- SPD(k): region covariance descriptors (Tuzel, Porikli & Meer 2006) of the two sample images of
  scikit-learn (``china.jpg``, ``flower.jpg``; CC BY 2.0, see ``sklearn/datasets/images/README.txt``).
- H^2: a tree (default the networkx balanced tree) embedded in the hyperbolic plane by Sarkar's
  construction (Sarkar 2011, "Low distortion Delaunay embedding of trees in hyperbolic plane").
- Gr(d, p): feature matrices of scikit-learn's iris, wine, digits and breast-cancer data sets,
  z-scored, as input of subspace estimation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from vega_datasets import local_data

from engine.data._common import HYPERBOLIC_MAX_RADIUS
from engine.manifolds import _linalg
from engine.manifolds.hyperbolic import Hyperbolic
from engine.manifolds.spd import SPD
from engine.manifolds.sphere import Sphere
from engine.validation import check_int, check_nonnegative, check_positive

# ----- S^2: US airports ------------------------------------------------------------------------


@dataclass(frozen=True)
class Airports:
    """US airports as points of S^2.

    Attributes
    ----------
    points : ndarray of shape (m, 3)
        Unit vectors (cos φ cos λ, cos φ sin λ, sin φ) for latitude φ and longitude λ, so the north
        pole (0, 0, 1) is ``Sphere(2).origin`` and the polar angle is 90° − latitude.
    table : pandas.DataFrame
        The matching rows of ``airports.csv`` (iata, name, city, state, country, latitude,
        longitude), index reset to 0..m−1.
    """

    points: np.ndarray
    table: pd.DataFrame


def airport_states() -> list[str]:
    """Sorted state codes present in the airports file (12 airports have no state)."""
    return sorted(local_data.airports()["state"].dropna().unique())


def load_airports(states=None) -> Airports:
    """US airports of ``vega_datasets`` (3,376 rows) as points of S^2, optionally by state.

    Loaded through ``vega_datasets.local_data`` from the file shipped in the package (no network).

    Parameters
    ----------
    states : str or iterable of str, optional
        Two-letter state codes to keep (e.g. ``"CO"`` or ``["NY", "NJ"]``); default all airports.
        A single state gives a concentrated cluster (a cap of a few degrees), useful for the
        Fréchet-mean privacy demonstrations.

    Returns
    -------
    Airports with ``points`` of shape ``(m, 3)`` and the matching ``table``.
    """
    table = local_data.airports()
    if states is not None:
        wanted = [states] if isinstance(states, str) else list(states)
        known = set(table["state"].dropna())
        unknown = [s for s in wanted if s not in known]
        if unknown or not wanted:
            raise ValueError(f"states must be codes present in the airports file, got {states!r}; "
                             f"known: {', '.join(sorted(known))}")
        table = table[table["state"].isin(wanted)]
    table = table.reset_index(drop=True)
    lat = np.deg2rad(table["latitude"].to_numpy(dtype=float))
    lon = np.deg2rad(table["longitude"].to_numpy(dtype=float))
    return Airports(points=Sphere(2).polar_point(0.5 * np.pi - lat, lon), table=table)


# ----- SPD(k): covariance descriptors of image patches ----------------------------------------

_FEATURES = ("intensity-gradient", "rgb")


def _pixel_features(image: np.ndarray, features: str) -> np.ndarray:
    """Per-pixel feature vectors ``(H, W, k)`` of an RGB image with values in [0, 1]."""
    if features == "rgb":
        return image
    # Luma (ITU-R BT.601 weights) and its horizontal derivative (central differences).
    intensity = image @ np.array([0.299, 0.587, 0.114])
    return np.stack([intensity, np.gradient(intensity, axis=1)], axis=-1)


def image_covariances(image="china", *, features="intensity-gradient", patch=32, ridge=0.1,
                      normalize=True, radius=None) -> np.ndarray:
    """Region covariance descriptors of a scikit-learn sample image, points of SPD(k).

    The image is cut into non-overlapping ``patch`` × ``patch`` squares (the right and bottom
    remainders are dropped); each patch gives the sample covariance C of its pixels' feature
    vectors (Tuzel, Porikli & Meer 2006). A ridge λ·(mean_i tr C_i / k)·I, proportional to the
    average feature variance, makes flat patches (sky) positive definite. With ``normalize`` the
    descriptors are congruence-whitened by their log-Euclidean mean M = exp(mean_i log C_i):
    C_i ↦ M^{−1/2} C_i M^{−1/2}, so they sit around the identity. Patches differ a lot in contrast,
    so even then the descriptors spread: with the defaults the median affine-invariant distance to I
    is 1.9 (china) and 1.4 (flower), the largest 3.0 and 4.0. ``radius`` keeps only those within a
    ball B_r(I), the data assumption of the privacy mechanisms (as the Wishart recipe does).

    Parameters
    ----------
    image : {"china", "flower"}
        Sample image of ``sklearn.datasets.load_sample_image`` (427 × 640 RGB; CC BY 2.0).
    features : {"intensity-gradient", "rgb"}
        (luma, ∂luma/∂x) gives SPD(2); (R, G, B) gives SPD(3).
    patch : int
        Side of the square patches in pixels, >= 2 (32 gives 13 × 20 = 260 descriptors).
    ridge : float
        λ >= 0, relative ridge (see above); larger values pull the descriptors together.
    normalize : bool
        Whiten by the log-Euclidean mean.
    radius : float, optional
        Keep only descriptors at affine-invariant distance < radius from I (after whitening).

    Returns
    -------
    ndarray of shape ``(m, k, k)``, symmetric positive definite, patches in row-major order
    (m = 260 for china/flower with patch 32 when ``radius`` is None).
    """
    if image not in ("china", "flower"):
        raise ValueError(f"image must be 'china' or 'flower', got {image!r}")
    if features not in _FEATURES:
        raise ValueError(f"features must be one of {_FEATURES}, got {features!r}")
    patch = check_int("patch", patch, minimum=2)
    ridge = check_nonnegative("ridge", ridge)
    radius = None if radius is None else check_positive("radius", radius)
    pixels = _sklearn_datasets().load_sample_image(f"{image}.jpg").astype(float) / 255.0
    height, width = pixels.shape[0] // patch, pixels.shape[1] // patch
    if height == 0 or width == 0:
        raise ValueError(f"patch must be at most the image side {min(pixels.shape[:2])}, got {patch!r}")
    feats = _pixel_features(pixels, features)
    k = feats.shape[-1]
    blocks = feats[: height * patch, : width * patch].reshape(height, patch, width, patch, k)
    blocks = blocks.transpose(0, 2, 1, 3, 4).reshape(height * width, patch * patch, k)
    centred = blocks - blocks.mean(axis=1, keepdims=True)
    cov = np.swapaxes(centred, -1, -2) @ centred / (patch * patch - 1)
    scale = np.trace(cov, axis1=-2, axis2=-1).mean() / k
    cov = _linalg.sym(cov) + ridge * scale * np.eye(k)
    if not np.all(np.linalg.eigvalsh(cov)[:, 0] > 0):
        raise ValueError(f"ridge {ridge!r} is too small: some patches of {image!r} have singular covariance")
    if normalize:
        whitener = _linalg.invsqrtm(_linalg.expm(_linalg.logm(cov).mean(axis=0)))
        cov = _linalg.sym(whitener @ cov @ whitener)
    if radius is not None:
        cov = cov[SPD(k).dist(np.eye(k), cov) < radius]
    return cov


# ----- H^2: Sarkar embedding of a tree ----------------------------------------------------------


@dataclass(frozen=True)
class TreeEmbedding:
    """A tree embedded in H^2 (Lorentz model).

    Attributes
    ----------
    points : ndarray of shape (N, 3)
        Node positions on ``Hyperbolic(2)``; row i is node ``nodes[i]``; the root is the origin.
    edges : ndarray of shape (N − 1, 2)
        Row indices (parent, child) of the tree's edges, parents first (breadth-first order).
    depth : ndarray of shape (N,)
        Graph distance of each node to the root.
    parent : ndarray of shape (N,)
        Row index of each node's parent, −1 for the root.
    nodes : list
        Node labels of the networkx graph, in row order (breadth-first from the root).
    edge_length : float
        Hyperbolic length τ of every edge.
    """

    points: np.ndarray
    edges: np.ndarray
    depth: np.ndarray
    parent: np.ndarray
    nodes: list
    edge_length: float


def tree_embedding(graph=None, *, branching=2, height=5, root=None, edge_length=2.0) -> TreeEmbedding:
    """Sarkar's construction: every edge is a geodesic of length τ, children spread evenly in angle.

    The root sits at the origin with its c children at angles 2πj/c. A node v with c children and
    parent u has its children at angles α + 2π(j + 1)/(c + 1), j = 0..c−1, around v, where α is the
    direction of u seen from v (angles in the orthonormal frame ``tangent_basis(v)``); the child
    is Exp_v(τ·direction). Each level is built at once (vectorised over its nodes). Larger τ
    separates sibling subtrees more and lowers the distortion d_H(x_a, x_b)/(τ·d_T(a, b)) of
    non-adjacent pairs (Sarkar 2011; De Sa, Gu, Ré & Sala 2018). Coordinates grow like e^{τ·depth}:
    trees with depth × τ > 30 are refused (doubles cannot place points that far out).

    Parameters
    ----------
    graph : networkx.Graph, optional
        An undirected tree; default ``networkx.balanced_tree(branching, height)``.
    branching, height : int
        Parameters of the default balanced tree (branching >= 1, height >= 1).
    root : node label, optional
        Root of ``graph``; default its first node (node 0 of a balanced tree).
    edge_length : float
        τ > 0.

    Returns
    -------
    TreeEmbedding.
    """
    import networkx as nx  # imported here: networkx takes ~0.3 s and only the tree data set needs it

    tau = check_positive("edge_length", edge_length)
    if graph is None:
        branching = check_int("branching", branching)
        _check_depth(check_int("height", height), tau)
        graph = nx.balanced_tree(branching, height)
    if not isinstance(graph, nx.Graph) or graph.is_directed() or not nx.is_tree(graph):
        raise ValueError(f"graph must be an undirected networkx tree, got {graph!r}")
    root = next(iter(graph.nodes)) if root is None else root
    if root not in graph:
        raise ValueError(f"root must be a node of the graph, got {root!r}")
    bfs = list(nx.bfs_edges(graph, root))
    order = [root] + [child for _, child in bfs]
    index = {node: i for i, node in enumerate(order)}
    parent = np.array([-1] + [index[p] for p, _ in bfs], dtype=int)
    hops = nx.single_source_shortest_path_length(graph, root)
    depth = np.array([hops[node] for node in order], dtype=int)
    _check_depth(int(depth.max()), tau)
    edges = np.stack([parent[1:], np.arange(1, len(order))], axis=-1)
    return TreeEmbedding(points=_sarkar_points(parent, depth, tau), edges=edges, depth=depth,
                         parent=parent, nodes=order, edge_length=tau)


def _check_depth(depth: int, tau: float) -> None:
    """Refuse trees whose deepest nodes could lie beyond ``HYPERBOLIC_MAX_RADIUS`` from the origin."""
    if depth * tau > HYPERBOLIC_MAX_RADIUS:
        raise ValueError(
            f"edge_length {tau!r} × tree depth {depth} exceeds {HYPERBOLIC_MAX_RADIUS:g}: the deepest nodes "
            f"would lie farther from the origin than double precision can place them accurately"
        )


def _sarkar_points(parent: np.ndarray, depth: np.ndarray, tau: float) -> np.ndarray:
    """Lorentz positions ``(N, 3)`` of nodes in breadth-first order (row 0 the root), level by level.

    In breadth-first order the children of a node are contiguous, so a child's rank among its
    siblings is its row minus the row of its parent's first child.
    """
    manifold = Hyperbolic(2)
    size = parent.shape[0]
    rows = np.arange(size)
    n_children = np.bincount(parent[1:], minlength=size)
    first_child = np.full(size, size)
    np.minimum.at(first_child, parent[1:], rows[1:])
    points = np.empty((size, 3))
    points[0] = manifold.origin
    for level in range(1, depth.max() + 1):
        child = rows[depth == level]
        par = parent[child]
        rank = child - first_child[par]
        x = points[par]
        basis = manifold.tangent_basis(x)
        # Angle α of the direction towards the grandparent in the frame at the parent (0 at the root,
        # where the grandparent does not exist and the children spread over the full circle).
        towards = manifold.log(x, points[np.maximum(parent[par], 0)])
        alpha = np.arctan2(manifold.inner(x, towards, basis[:, 1]), manifold.inner(x, towards, basis[:, 0]))
        theta = np.where(
            par == 0,
            2.0 * np.pi * rank / n_children[par],
            alpha + 2.0 * np.pi * (rank + 1) / (n_children[par] + 1),
        )
        coef = tau * np.stack([np.cos(theta), np.sin(theta)], axis=-1)
        points[child] = manifold.exp(x, np.einsum("mi,mij->mj", coef, basis))
    return points


# ----- Gr(d, p): feature matrices ---------------------------------------------------------------

_FEATURE_LOADERS = {"iris": "load_iris", "wine": "load_wine", "digits": "load_digits",
                    "breast_cancer": "load_breast_cancer"}


def _sklearn_datasets():
    """scikit-learn's data sets module, imported on first use (the import takes ~3 s, which every
    page of the app would otherwise pay at start-up)."""
    from sklearn import datasets

    return datasets


def load_feature_matrix(name="wine", *, spectral_normalize=False) -> np.ndarray:
    """z-scored feature matrix of a scikit-learn data set, the input of subspace estimation.

    Each column is centred and divided by its (population) standard deviation; constant columns
    (three border pixels of ``digits``) are only centred, so they stay 0. With
    ``spectral_normalize`` the matrix is then divided by its spectral norm ‖Z‖₂, the preprocessing
    of Han et al.'s principal-eigenvector experiments (rows then have norm <= 1).

    Parameters
    ----------
    name : {"iris", "wine", "digits", "breast_cancer"}
        iris (150 × 4), wine (178 × 13), digits (1797 × 64), breast_cancer (569 × 30); all ship
        inside scikit-learn (BSD-3-Clause package; the data sets are from the UCI repository).
    spectral_normalize : bool

    Returns
    -------
    ndarray of shape ``(n, d)``.
    """
    if name not in _FEATURE_LOADERS:
        raise ValueError(f"name must be one of {sorted(_FEATURE_LOADERS)}, got {name!r}")
    x = getattr(_sklearn_datasets(), _FEATURE_LOADERS[name])(return_X_y=True)[0].astype(float)
    std = x.std(axis=0)
    z = (x - x.mean(axis=0)) / np.where(std > 0, std, 1.0)
    if spectral_normalize:
        z = z / np.linalg.norm(z, ord=2)
    return z
