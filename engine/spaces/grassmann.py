"""The Grassmannian of lines Gr(3, 1) ≅ RP² (axes: directions without a sign), and the family Gr(d, 1).

The distance between two lines is their angle θ ∈ [0, π/2] and the curvature is 1, so Theorem 2
needs r < π/4 (``engine.bounds.radius_limits``: min(inj/2, π/(4√κ)) with inj = π/2). The Laplace
law has an exact sampler (radial density ∝ e^{−ρ/σ} sin^{d−2} ρ on [0, π/2], ``real_projective_law``).
Projectors xxᵀ are its ambient coordinates (symmetric matrices, D = d(d + 1)/2): ‖xxᵀ − yyᵀ‖_F = √2 sin θ
bounds B_r(m0) in an ambient ball of radius √2 sin r, so the Euclidean baseline is offered and its noisy
projector is rounded to the nearest rank-1 projector (the top eigenvector).

The who-wins map sweeps Gr(d, 1) for d = 3…10 (``family``). Subspaces of dimension p > 1 are not mapped:
the polar volume of Gr(n, p) depends on the direction, so the Riemannian Laplace has no exact sampler
there (only Metropolis–Hastings chains, far too slow for a map's 10⁵ draws per cell), and
``Grassmann.ambient_ball_radius`` states no ambient ball for p > 1 yet, so the baseline has no Δ_E.

The audits run on Gr(3, 1) at r = π/8 with n = 10 (``audit``): the Riemannian Laplace, the projector
baseline and the tangent Gaussian, and the positive controls.
"""

from __future__ import annotations

import numpy as np

from engine.data import line_acg, line_ball
from engine.manifolds import Grassmann
from engine.spaces.entry import AuditSetting, NotOffered, SamplerSetting, SpaceEntry
from engine.spaces.family import DimensionFamily
from engine.spaces.source import DataSource, synthetic

#: Spread s of the angular central Gaussian source, ACG(diag(1, s², s²)) (shown in its label).
ACG_SPREAD = 0.1

ENTRY = SpaceEntry(
    key="grassmann",
    label="Lines through the origin of R³, Gr(3, 1) (axes)",
    short_label="Lines in R³, Gr(3, 1)",
    make=lambda k: Grassmann(3, 1),
    default_radius=float(np.pi / 8),
    data_sources={
        "ball": DataSource("Uniform in the ball B_r(m₀)", synthetic(lambda q: line_ball(q.n, q.radius, rng=q.data_rng)),
                           "Lines uniform (by the Riemannian volume) within angle r of the axis m₀ = span(e₁)."),
        "acg": DataSource(f"Angular central Gaussian (s = {ACG_SPREAD:g})",
                          synthetic(lambda q: line_acg(q.n, ACG_SPREAD, rng=q.data_rng)),
                          f"Lines spanned by Gaussian vectors with covariance diag(1, s², s²), s = {ACG_SPREAD:g}: "
                          "concentrated around m₀ = span(e₁), but unbounded, so a few lines may fall outside "
                          "B_r(m₀)."),
    },
    ambient_radius_tex=r"\sqrt{{2}}\,\sin {r}",
    recipe=NotOffered("Figure 1 of Reimherr, Bharath & Soto (2021) studies SPD(2) and S² only"),
    # Measured with the playground's audit targets (engine.audit.uses), 10^4 releases at n = 10, ε = 1.
    audit=AuditSetting("Gr(3, 1)", lambda: Grassmann(3, 1), float(np.pi / 8)),
    sampler=SamplerSetting(sigmas=(0.2, 1.0)),
    family=DimensionFamily("grassmann", "Gr(d, 1)", "d", "ambient dimension d", lambda d: Grassmann(d, 1),
                           "Gr({}, 1)".format, tuple(range(3, 11)), float(np.pi / 4), 3, 30),
)
