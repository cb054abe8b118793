"""Privacy mechanisms on manifolds: Riemannian and Euclidean Laplace, tangent Gaussian, K-norm
gradient, DP-RGD, the private subspaces, and the Metropolis–Hastings samplers they share.

Every sampler takes an explicit ``rng`` and says in its docstring whether it is exact or
approximate; every mechanism class validates eagerly, states its guarantee through
``privacy_guarantee()`` and releases a ``Release`` (``protocol.py``: ``Mechanism.release`` or
``IterativeMechanism.fit``).
"""

from engine.mechanisms.diagnostics import chain_diagnostics, effective_sample_size
from engine.mechanisms.dp_rgd import DPRGD, DPRGDResult
from engine.mechanisms.gaussian import (
    TangentGaussian,
    analytic_gaussian_sigma,
    classical_gaussian_sigma,
    gaussian_delta,
    tangent_gaussian,
)
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.kng import GradientKNG, KNormGradient, frechet_gradient_norm
from engine.mechanisms.laplace import (
    EuclideanLaplace,
    RiemannianLaplace,
    euclidean_laplace,
    fraction_off_manifold,
    is_homogeneous,
    off_manifold,
    radial_law,
    riemannian_laplace,
    scale_limit,
)
from engine.mechanisms.mcmc import MHResult, laplace_mh, metropolis_hastings
from engine.mechanisms.multichain import ChainsResult, multichain_mh
from engine.mechanisms.protocol import IterativeMechanism, Mechanism, Release
from engine.mechanisms.radial import RadialLaw, sample_radius
from engine.mechanisms.spd_laplace import sample_eigenlog, spd_growth
from engine.mechanisms.subspace import (
    AnalyzeGauss,
    BinghamSubspace,
    ExactSubspace,
    SubsampleAggregateSubspace,
    SubspaceRelease,
)

__all__ = [
    "AnalyzeGauss",
    "BinghamSubspace",
    "ChainsResult",
    "DPRGD",
    "DPRGDResult",
    "EuclideanLaplace",
    "ExactSubspace",
    "GradientKNG",
    "IterativeMechanism",
    "KNormGradient",
    "MHResult",
    "Mechanism",
    "PrivacyGuarantee",
    "RadialLaw",
    "Release",
    "RiemannianLaplace",
    "SubsampleAggregateSubspace",
    "SubspaceRelease",
    "TangentGaussian",
    "analytic_gaussian_sigma",
    "chain_diagnostics",
    "classical_gaussian_sigma",
    "effective_sample_size",
    "euclidean_laplace",
    "fraction_off_manifold",
    "frechet_gradient_norm",
    "gaussian_delta",
    "is_homogeneous",
    "laplace_mh",
    "metropolis_hastings",
    "multichain_mh",
    "off_manifold",
    "radial_law",
    "riemannian_laplace",
    "sample_eigenlog",
    "sample_radius",
    "scale_limit",
    "spd_growth",
    "tangent_gaussian",
]
