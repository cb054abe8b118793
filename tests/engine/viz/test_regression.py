"""The sphere's regression figure (Private regression page, Lesson step 7): the scene holds everything it draws."""

import numpy as np

from engine.manifolds.sphere import Sphere
from engine.viz.regression import sphere_regression_figure
from engine.viz.sphere import beyond_dome, sphere_figure

S2 = Sphere(2)


def _figure(releases: int = 6):
    rng = np.random.default_rng(0)
    center = S2.polar_point(0.6, 0.4)
    data = S2.exp(center, 0.3 * S2.to_tangent(center, rng.standard_normal((20, 3))))
    velocity = 0.2 * S2.to_tangent(center, rng.standard_normal(3))
    footpoints = S2.exp(center, 0.25 * S2.to_tangent(center, rng.standard_normal((releases, 3))))
    velocities = 0.3 * S2.to_tangent(footpoints, rng.standard_normal((releases, 3)))
    return sphere_regression_figure(data=data, footpoint=center, velocity=velocity, private_footpoints=footpoints,
                                    private_velocities=velocities, center=center, radius=0.4)


def _ranges(fig) -> np.ndarray:
    return np.array([getattr(fig.layout.scene, f"{c}axis").range for c in "xyz"])


def test_the_scene_holds_the_data_the_fit_and_every_private_geodesic():
    """Lesson step 7 drew an empty box: with no release cloud the frame zoomed onto the fit's footpoint
    (axes 6e-5 wide) and clipped the data and every arc away."""
    fig = _figure()
    ranges = _ranges(fig)
    for trace in fig.data[1:]:
        points = np.stack([np.asarray(trace[c], dtype=float) for c in "xyz"], axis=-1)
        points = points[~np.isnan(points).any(axis=1)]
        assert np.all((points >= ranges[:, 0]) & (points <= ranges[:, 1])), trace.name
        assert not beyond_dome(fig, points).any(), trace.name
    assert not fig.layout.meta["zoomed_on_releases"]


def test_the_private_geodesics_have_one_legend_entry():
    fig = _figure()
    shown = [trace.name for trace in fig.data if trace.showlegend]
    assert shown.count("private geodesics") == 1 and shown.count("non-private geodesic") == 1
    assert sum(trace.name == "private geodesics" for trace in fig.data) == 6


def test_a_sphere_figure_without_releases_frames_its_data():
    rng = np.random.default_rng(1)
    center = S2.polar_point(0.3, 1.0)
    data = S2.exp(center, 0.3 * S2.to_tangent(center, rng.standard_normal((30, 3))))
    fig = sphere_figure(data=data, mean=center, releases={}, center=center, radius=0.5)
    ranges = _ranges(fig)
    assert np.all((data >= ranges[:, 0]) & (data <= ranges[:, 1]))
    assert not fig.layout.meta["zoomed_on_releases"]
