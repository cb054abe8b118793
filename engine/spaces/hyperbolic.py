"""The hyperbolic plane H² (hierarchies): uniform, wrapped Gaussian and embedded-tree data.

Every source is centred at the origin m0, where the Poincaré disk holds B_r(m0) in the Euclidean disk
of radius tanh(r/2) (``Hyperbolic.ambient_ball_radius``; the class notes say why Poincaré coordinates),
so the Euclidean baseline is offered; its releases outside the unit disk are off H² and counted so.
The paper's Figure 1 did not study it.
"""

from __future__ import annotations

from engine.data import hyperbolic_ball, hyperbolic_wrapped_gaussian, tree_embedding
from engine.manifolds import Hyperbolic
from engine.spaces.entry import AuditSetting, NotOffered, SamplerSetting, SpaceEntry
from engine.spaces.family import DimensionFamily, power_name
from engine.spaces.source import DataSource, SourceRequest, catalogue_sample, synthetic

#: Standard deviation of the wrapped Gaussian source (shown in its label).
WRAPPED_STD = 0.4
#: The embedded tree of the tree source.
TREE = dict(branching=3, height=3, edge_length=0.3)


def _tree(q: SourceRequest, note: str):
    tree = tree_embedding(**TREE)
    note = (f"A balanced tree (branching {TREE['branching']}, height {TREE['height']}, "
            f"{len(tree.points)} nodes) embedded by Sarkar's construction with edges of hyperbolic length "
            f"{TREE['edge_length']:g}; the root is m₀. The private data set is a random sample of n nodes; "
            f"edges are drawn between sampled nodes.")
    return catalogue_sample(tree.points, q.manifold.origin, q.n, q.subsample_rng, note, edges=tree.edges)


ENTRY = SpaceEntry(
    key="hyperbolic",
    label="Hyperbolic plane H² (hierarchies)",
    short_label="Hyperbolic plane H²",
    make=lambda k: Hyperbolic(2),
    default_radius=1.0,
    data_sources={
        "ball": DataSource("Uniform in the ball B_r(m₀)",
                           synthetic(lambda q: hyperbolic_ball(q.n, q.radius, rng=q.data_rng)),
                           "Points uniform (by hyperbolic area) in the geodesic ball B_r(m₀) around the origin."),
        "wrapped": DataSource(f"Wrapped Gaussian (σ = {WRAPPED_STD:g})",
                              synthetic(lambda q: hyperbolic_wrapped_gaussian(q.n, WRAPPED_STD, rng=q.data_rng)),
                              f"Wrapped Gaussian around the origin m₀: Exp of a tangent Gaussian with σ = "
                              f"{WRAPPED_STD:g}. Unbounded, so some points may fall outside B_r(m₀)."),
        "tree": DataSource("Embedded tree (40 nodes)", _tree),
    },
    ambient_radius_tex=r"\tanh({r}/2)",
    recipe=NotOffered("Figure 1 of Reimherr, Bharath & Soto (2021) studies SPD(2) and S² only"),
    audit=AuditSetting("H²", lambda: Hyperbolic(2), 1.0),
    sampler=SamplerSetting(sigmas=(0.3, 0.9)),
    family=DimensionFamily("hyperbolic", "Hᵈ", "d", "dimension d", Hyperbolic, power_name("H"), tuple(range(2, 11)),
                           2.0, 2, 100),
)
