"""Privately learning subspaces (Singhal & Steinke 2021) and the baselines they are compared with.

``ExactSubspace`` (Algorithm 1) and ``SubsampleAggregateSubspace`` (Algorithm 2) have sample
complexities free of the ambient dimension d; ``AnalyzeGauss`` and ``BinghamSubspace`` are the
noise-addition / exponential-mechanism baselines whose sample complexity grows with d.
"""

from engine.mechanisms.subspace.analyze_gauss import AnalyzeGauss
from engine.mechanisms.subspace.approximate import SubsampleAggregateSubspace
from engine.mechanisms.subspace.bingham import BinghamSubspace, bingham_sample, bingham_samples
from engine.mechanisms.subspace.exact import ExactSubspace
from engine.mechanisms.subspace.fitted_subspace import RefusedRelease
from engine.mechanisms.subspace.release import SubspaceRelease
from engine.mechanisms.subspace.stable_histogram import histogram_threshold, stable_histogram_argmax
from engine.mechanisms.subspace.stable_selection import selection_margin, stable_select
from engine.mechanisms.subspace.truncated_laplace import truncated_laplace, truncated_laplace_bound

__all__ = ["AnalyzeGauss", "BinghamSubspace", "ExactSubspace", "RefusedRelease", "SubsampleAggregateSubspace", "SubspaceRelease",
           "bingham_sample", "bingham_samples", "histogram_threshold", "selection_margin", "stable_histogram_argmax", "stable_select",
           "truncated_laplace", "truncated_laplace_bound"]
