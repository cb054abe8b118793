"""Riemannian manifolds with batched geometry (see ``base.Manifold`` for the contract)."""

from engine.manifolds.base import Manifold
from engine.manifolds.euclidean import Euclidean
from engine.manifolds.grassmann import Grassmann
from engine.manifolds.hyperbolic import Hyperbolic
from engine.manifolds.kendall import Kendall
from engine.manifolds.spd import SPD
from engine.manifolds.sphere import Sphere

__all__ = ["Manifold", "Euclidean", "Sphere", "SPD", "Hyperbolic", "Kendall", "Grassmann"]
