"""Data generators (synthetic, as in the papers) and loaders of real data sets that ship inside
installed packages or ``assets/``.

Generators return arrays of shape ``(*size, n, *point_shape)`` (``size`` batches independent data
sets), take an explicit ``rng`` and validate their parameters with ``ValueError``s that quote the
bad value; ball radii are checked by ``engine.bounds.check_radius``.
"""

from engine.data.ball import enforce_ball
from engine.data.grassmann import SpikedSample, line_acg, line_ball, random_subspace, spiked_gaussian, top_subspace
from engine.data.hyperbolic import hyperbolic_ball, hyperbolic_wrapped_gaussian
from engine.data.kendall import kendall_noisy, load_outline, resample_closed_curve, shape_template, template_names
from engine.data.real import (
    Airports,
    TreeEmbedding,
    airport_states,
    image_covariances,
    load_airports,
    load_feature_matrix,
    tree_embedding,
)
from engine.data.regression import (
    CellShapes,
    age_covariate,
    callosum_data,
    callosum_template,
    load_cells,
    size_covariate,
    sphere_drift,
)
from engine.data.spd import spd_wishart
from engine.data.sphere import sphere_ball, sphere_cap, sphere_vmf
from engine.data.subspace import SubspacePoints, subspace_points
from engine.data.wordnet import Hierarchy, load_hierarchy, wordnet_available

__all__ = [
    "Airports",
    "CellShapes",
    "Hierarchy",
    "SpikedSample",
    "SubspacePoints",
    "TreeEmbedding",
    "age_covariate",
    "airport_states",
    "enforce_ball",
    "callosum_data",
    "callosum_template",
    "hyperbolic_ball",
    "hyperbolic_wrapped_gaussian",
    "image_covariances",
    "kendall_noisy",
    "line_acg",
    "line_ball",
    "load_airports",
    "load_cells",
    "load_feature_matrix",
    "load_hierarchy",
    "load_outline",
    "random_subspace",
    "resample_closed_curve",
    "shape_template",
    "size_covariate",
    "spd_wishart",
    "spiked_gaussian",
    "subspace_points",
    "sphere_ball",
    "sphere_cap",
    "sphere_drift",
    "sphere_vmf",
    "template_names",
    "top_subspace",
    "tree_embedding",
    "wordnet_available",
]
