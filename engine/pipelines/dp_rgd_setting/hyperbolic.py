"""The hyperbolic structured-prediction problem of Han, Mishra, Jawanpuria & Gao (§5.4, §6.4),
shared by the study ``engine.experiments.dp_rgd_hyperbolic`` and the Private optimization pipeline
(``engine.pipelines.private_optimization``): a tree embedded in H² by Sarkar's construction with
edge length D_W/(2·height) (diameter at most D_W), features from a 3-dimensional Laplacian eigenmap
of its adjacency matrix with self-loops, the RBF kernel-ridge weights α(x) = (K + γI)⁻¹ K_x of the
held-out node, the weighted Fréchet-mean problem of the other labels with its public
L0 = max|α|·D_W and L1 = D_W/tanh(D_W), its exact optimum and Theorem 5's steps.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from engine.data import load_hierarchy, tree_embedding
from engine.estimators.erm import riemannian_gradient_descent
from engine.estimators.riemannian_problems import FrechetMeanProblem
from engine.manifolds.hyperbolic import Hyperbolic
from engine.validation import check_finite_array, check_int, check_positive


def krr_weights(features, x, *, width: float, ridge: float) -> np.ndarray:
    """α(x) = (K + γI)⁻¹ K_x for the RBF kernel of ``width`` υ; ``features`` (n, r), ``x`` (r,)."""
    features = check_finite_array("features", features)
    x = check_finite_array("x", x)
    width, ridge = check_positive("width", width), check_positive("ridge", ridge)
    sq = np.sum((features[:, None, :] - features[None, :, :]) ** 2, axis=-1)
    gram = np.exp(-sq / (2.0 * width**2))
    kx = np.exp(-np.sum((features - x) ** 2, axis=-1) / (2.0 * width**2))
    return np.linalg.solve(gram + ridge * np.eye(len(features)), kx)


def steps_rule(n: int, epsilon: float, delta: float, clip: float, smoothness: float, dim: int = 2) -> int:
    """T = √L1·n·ε/(√(d log(1/δ))·L0) of Theorem 5, rounded down, at least 1."""
    return max(1, int(np.sqrt(smoothness) * n * epsilon / (np.sqrt(dim * np.log(1.0 / delta)) * clip)))


def taxonomy_tree(taxonomy: str, branching: int, height: int):
    """``(graph, root, height)`` of the tree to embed: a balanced tree (``"balanced"``) or WordNet's
    mammal subtree (``"wordnet-mammal"``, 1,182 nouns; needs Debian's wordnet-base, and says so)."""
    import networkx as nx  # imported on first use, like every networkx and scikit-learn import here (~1 s together)

    if taxonomy == "balanced":
        height = check_int("height", height)
        return nx.balanced_tree(check_int("branching", branching), height), 0, height
    if taxonomy == "wordnet-mammal":
        hierarchy = load_hierarchy("mammal.n.01")
        depth = nx.shortest_path_length(hierarchy.tree, hierarchy.root)
        return hierarchy.tree.to_undirected(), hierarchy.root, max(depth.values())
    raise ValueError(f"taxonomy must be 'balanced' or 'wordnet-mammal', got {taxonomy!r}")


@dataclass(frozen=True)
class PredictionTask:
    """The held-out-node prediction problem: the embedded tree, the weighted Fréchet-mean problem of
    the training labels with kernel-ridge weights ``alpha``, its public clip L0 = max|α|·D_W and
    smoothness L1 = D_W/tanh(D_W), and the exact non-private optimum ``best``."""

    manifold: Hyperbolic
    tree: object
    problem: FrechetMeanProblem
    test: int
    alpha: np.ndarray
    clip: float
    smoothness: float
    best: object


@functools.lru_cache(maxsize=8)
def prediction_task(*, taxonomy: str = "balanced", branching: int = 2, height: int = 7, test_node=None,
                    diameter: float = 10.0, width: float = 0.2, ridge: float = 1e-5) -> PredictionTask:
    """Build the prediction problem (see the module notes); ``test_node`` defaults to the
    last node in breadth-first order (a leaf). Cached: a sweep over ε reuses the embedding, the
    kernel weights and the optimum (treat the returned arrays as read-only)."""
    diameter = check_positive("diameter", diameter)
    manifold = Hyperbolic(2)
    graph, root, height = taxonomy_tree(taxonomy, branching, height)
    tree = tree_embedding(graph, root=root, edge_length=diameter / (2 * height))
    total = len(tree.nodes)
    test = total - 1 if test_node is None else check_int("test_node", test_node, minimum=0)
    if test >= total:
        raise ValueError(f"test_node must be a row index below {total}, got {test_node!r}")
    import networkx as nx
    from sklearn.manifold import SpectralEmbedding

    adjacency = nx.to_numpy_array(graph, nodelist=tree.nodes) + np.eye(total)
    features = SpectralEmbedding(n_components=3, affinity="precomputed", random_state=0).fit_transform(adjacency)
    train = np.arange(total) != test
    alpha = krr_weights(features[train], features[test], width=width, ridge=ridge)
    problem = FrechetMeanProblem(manifold, tree.points[train], alpha)
    # Non-private optimum: a Karcher-type step η = n/(2 Σα) on F converges in a few iterations.
    best = riemannian_gradient_descent(problem, manifold.origin, step=0.5 * problem.n / abs(alpha.sum()),
                                       tol=1e-8, max_iter=100_000)
    return PredictionTask(manifold, tree, problem, test, alpha, float(np.abs(alpha).max() * diameter),
                          diameter / np.tanh(diameter), best)
