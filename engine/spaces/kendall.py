"""Kendall's planar shape space Σ^k_2 (planar shapes): noisy copies of template outlines.

Its points are configurations of k landmarks (``make(k)``). Pre-shapes rotated onto the public centre m0
(the template) lie within the chord 2 sin(r/2) of m0's pre-shape in R^{2k−2}
(``Kendall.ambient_ball_radius``), so the Euclidean baseline is offered; its releases, never of unit
size, are normalised back. The paper's Figure 1 did not study it.
"""

from __future__ import annotations

import numpy as np

from engine.data import kendall_noisy, shape_template
from engine.manifolds import Kendall
from engine.spaces.entry import AuditSetting, NotOffered, SamplerSetting, SpaceEntry
from engine.spaces.family import DimensionFamily, power_name
from engine.spaces.source import DataSource, Sample, SourceRequest
from engine.validation import check_int

#: Standard deviation per coordinate of the noisy copies.
KENDALL_STD = 0.03
#: The template outlines, one data source each.
TEMPLATES = ("heart", "leaf", "star", "hand")


def _noisy_shapes(template: str):
    def draw(q: SourceRequest, note: str) -> Sample:
        note = (f"Synthetic landmark data: the {template} outline resampled to k = {q.k} landmarks (m₀, its "
                f"pre-shape), each copy perturbed by Gaussian noise of standard deviation {KENDALL_STD:g} per "
                f"coordinate. The noise is unbounded, so a copy may fall outside B_r(m₀).")
        return Sample(kendall_noisy(q.n, template, k=q.k, std=KENDALL_STD, rng=q.data_rng),
                      shape_template(template, q.k), None, None, note)
    return draw


ENTRY = SpaceEntry(
    key="kendall",
    label="Kendall shape space Σ^k_2 (planar shapes)",
    short_label="Kendall planar shapes",
    make=lambda k: Kendall(check_int("k", k, minimum=3)),
    default_radius=0.25,
    data_sources={name: DataSource(f"Noisy copies of the {name}", _noisy_shapes(name)) for name in TEMPLATES},
    ambient_radius_tex=r"2\sin({r}/2)",
    recipe=NotOffered("Figure 1 of Reimherr, Bharath & Soto (2021) studies SPD(2) and S² only"),
    audit=AuditSetting("Kendall shapes, 4 landmarks", lambda: Kendall(4), np.pi / 16),
    sampler=SamplerSetting(sigmas=(0.1, 0.4), landmarks=5),
    family=DimensionFamily("kendall", "Σᵏ₂", "k", "landmarks k", Kendall, lambda k: f"Σ{power_name('')(k)}₂",
                           tuple(range(3, 13)), float(np.pi / 8), 3, 50),
    landmarks=True,
)
