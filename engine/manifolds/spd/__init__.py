"""Symmetric positive-definite matrices SPD(k), one class per Riemannian metric.

``SPD(k)`` is :class:`SPDAffine`; ``SPD(k, metric)`` is the class registered under ``metric`` in
``METRIC_CLASSES``, and every one of them is an instance of :class:`SPD`:

``"affine"`` (:class:`SPDAffine`)
    Affine-invariant <U, V>_X = tr(X⁻¹U X⁻¹V) (Pennec, Fillard & Ayache 2006), the geometry of
    Reimherr, Bharath & Soto (2021, §5.1): Hadamard, curvature in [−1/2, 0].
``"log-euclidean"`` (:class:`SPDLogEuclidean`)
    Pullback of the Frobenius metric by the matrix logarithm (Arsigny et al. 2007): flat and complete.
``"bures-wasserstein"`` (:class:`SPDBuresWasserstein`)
    The 2-Wasserstein distance between N(0, X) and N(0, Y) (Bhatia, Jain & Lim 2019; Han, Mishra,
    Jawanpuria & Gao, §5.3): curvature ≥ 0 but unbounded above, incomplete.

Every metric is diagonal in the eigenbasis X = Q Λ Qᵀ of the base point: with Ũ = QᵀUQ,
<U, V>_X = Σ_ij Ũ_ij Ṽ_ij / s_ij² (``SPD.frame_scale``); ``inner`` and ``tangent_basis`` share that
form. Tangent vectors are symmetric k×k matrices. A new metric is one module with a subclass
``class SPDNew(SPD, metric="name")`` imported below.
"""

from engine.manifolds.spd.affine import SPDAffine
from engine.manifolds.spd.base import METRIC_CLASSES, SPD
from engine.manifolds.spd.bures_wasserstein import SPDBuresWasserstein
from engine.manifolds.spd.definiteness import is_positive_definite
from engine.manifolds.spd.log_euclidean import SPDLogEuclidean

__all__ = ["SPD", "METRIC_CLASSES", "SPDAffine", "SPDLogEuclidean", "SPDBuresWasserstein", "is_positive_definite"]
