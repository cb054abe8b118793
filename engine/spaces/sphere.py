"""The sphere S² (directions): the paper's cap recipe, uniform, von Mises–Fisher and airport data.

Its default radius is the paper's r = π/8 (Reimherr, Bharath & Soto 2021, §5); the chord
2 sin(r/2) bounds the ball in R³ (supplement §1.3.2), so the Euclidean baseline is offered.
"""

from __future__ import annotations

import numpy as np

from engine.data import load_airports, sphere_ball, sphere_cap, sphere_vmf
from engine.estimators import frechet_mean
from engine.manifolds import Sphere
from engine.spaces.entry import AuditSetting, PaperRecipe, SamplerSetting, SpaceEntry
from engine.spaces.family import DimensionFamily, power_name
from engine.spaces.source import DataSource, SourceRequest, catalogue_sample, synthetic

#: Concentration of the von Mises–Fisher source (shown in its label).
VMF_CONCENTRATION = 50.0


def _airports(q: SourceRequest, note: str):
    catalogue = load_airports(None if q.region == "all" else q.region)
    where = "all US states and territories" if q.region == "all" else q.region
    note = (f"Real data: {len(catalogue.points):,} airports in {where} (vega_datasets). The catalogue is "
            f"treated as public and the private data set is a random sample of n of its airports; m₀ is "
            f"the Fréchet mean of the whole catalogue, fixed before sampling.")
    m0 = frechet_mean(q.manifold, catalogue.points).mean
    return catalogue_sample(catalogue.points, m0, q.n, q.subsample_rng, note)


ENTRY = SpaceEntry(
    key="sphere",
    label="Sphere S² (directions)",
    short_label="Sphere S²",
    make=lambda k: Sphere(2),
    default_radius=float(np.pi / 8),
    data_sources={
        "cap": DataSource("Cap sampler (paper)", synthetic(lambda q: sphere_cap(q.n, q.radius, rng=q.data_rng)),
                          "The paper's recipe (Reimherr et al., supplement §2.1): polar angle uniform on [0, r] "
                          "around the north pole m₀, so points crowd towards the centre."),
        "ball": DataSource("Uniform in the ball B_r(m₀)",
                           synthetic(lambda q: sphere_ball(q.n, q.radius, rng=q.data_rng)),
                           "Points uniform (by area) in the geodesic ball B_r(m₀) around the north pole."),
        "vmf": DataSource(f"von Mises–Fisher (κ = {VMF_CONCENTRATION:g})",
                          synthetic(lambda q: sphere_vmf(q.n, VMF_CONCENTRATION, rng=q.data_rng)),
                          f"von Mises–Fisher law around the north pole m₀ with concentration {VMF_CONCENTRATION:g}. "
                          "Its support is the whole sphere, so a few points may fall outside B_r(m₀)."),
        "airports": DataSource("US airports (real data)", _airports, reads=("region",)),
    },
    ambient_radius_tex=r"2\sin({r}/2)",
    recipe=PaperRecipe(lambda n, radius, reps, rng: sphere_cap(n, radius, size=(reps,), rng=rng),
                       title="S², r = π/8", panels=(3, 4), boundary_constant=True),
    audit=AuditSetting("S²", lambda: Sphere(2), np.pi / 8),
    sampler=SamplerSetting(sigmas=(0.2, 1.0)),
    family=DimensionFamily("sphere", "Sᵈ", "d", "dimension d", Sphere, power_name("S"), tuple(range(2, 22)),
                           float(np.pi / 4), 1, 100),
)
