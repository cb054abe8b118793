"""Manifold Privacy Explorer's numerical engine: geometry, estimators, mechanisms, bounds, studies.

Plain numpy/scipy; no Streamlit. Every sampler takes an explicit ``rng``.
"""

#: Package version (as in pyproject.toml); part of the key of cached study results.
__version__ = "0.1.0"
