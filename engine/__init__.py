"""Manifold Privacy Explorer's numerical engine: geometry, estimators, mechanisms, bounds, studies.

Plain numpy/scipy; no Streamlit. Every sampler takes an explicit ``rng``.
"""
