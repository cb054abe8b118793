"""engine.viz.tangent_view: releases on S² drawn at their Riemannian logarithm at the true mean."""

import numpy as np
import pytest

from engine.manifolds import Sphere
from engine.viz.tangent_view import carried_basis, tangent_coordinates, tangent_view_figure

S2 = Sphere(2)


def _points(mean, count, seed):
    rng = np.random.default_rng(seed)
    tangent = S2.to_tangent(mean, rng.standard_normal((count, 3)))
    return S2.exp(mean, rng.uniform(0.05, 3.0, (count, 1)) * tangent / np.linalg.norm(tangent, axis=-1, keepdims=True))


def test_distance_from_the_origin_is_the_geodesic_error_and_angles_are_kept():
    mean = np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8])
    points = _points(mean, 50, seed=1)
    coords = tangent_coordinates(mean, points)
    assert coords.shape == (50, 2)
    np.testing.assert_allclose(np.linalg.norm(coords, axis=-1), S2.dist(mean, points), atol=1e-12)
    # The angle between two releases seen from the mean is the angle between their logarithms.
    logs = S2.log(mean, points)
    np.testing.assert_allclose(coords @ coords.T, logs @ logs.T, atol=1e-12)
    # Leading axes are kept (frames × releases).
    assert tangent_coordinates(mean, np.stack([points, points])).shape == (2, 50, 2)


def test_figure_draws_releases_mean_and_radius_with_equal_axes():
    mean = np.array([0.0, 0.0, 1.0])
    points = _points(mean, 30, seed=2)
    fig = tangent_view_figure(mean=mean, releases=points, name="releases", key="riemannian laplace", radius=0.4)
    cloud, centre, circle = fig.data
    np.testing.assert_allclose(np.hypot(cloud.x, cloud.y), S2.dist(mean, points), atol=1e-12)
    np.testing.assert_allclose(cloud.customdata, S2.dist(mean, points), atol=1e-12)
    assert list(centre.x) == [0.0] and np.allclose(np.hypot(circle.x, circle.y), 0.4)
    assert fig.layout.yaxis.scaleanchor == "x"
    assert fig.layout.xaxis.range[1] >= np.max(np.abs(cloud.x))


def test_bad_input_is_refused():
    mean = np.array([0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="antipodal"):
        tangent_coordinates(mean, np.array([[0.0, 0.0, -1.0]]))
    with pytest.raises(ValueError, match="points"):
        tangent_coordinates(mean, np.array([[0.0, 0.0, 2.0]]))
    with pytest.raises(ValueError, match="extent"):
        tangent_view_figure(mean=mean, releases=_points(mean, 3, 3), name="r", key="riemannian laplace", extent=-1.0)


def test_carried_bases_keep_the_angle_of_transported_directions():
    reference = np.array([0.0, 0.0, 1.0])
    means = S2.exp(reference, np.array([[0.2, -0.1, 0.0], [0.0, 0.3, 0.0], [0.0, 0.0, 0.0]]))
    bases = carried_basis(reference, means)
    assert bases.shape == (3, 2, 3)
    np.testing.assert_allclose(bases[-1], S2.tangent_basis(reference), atol=1e-15)
    for mean, basis in zip(means, bases):
        np.testing.assert_allclose(basis @ basis.T, np.eye(2), atol=1e-12)
        np.testing.assert_allclose(basis @ mean, 0.0, atol=1e-12)
    # A direction drawn at the reference and transported to each mean has the same coordinates there.
    direction = S2.tangent_basis(reference).T @ np.array([0.6, -0.8])
    for mean, basis in zip(means, bases):
        moved = S2.parallel_transport(reference, mean, direction)
        coords = tangent_coordinates(mean, S2.exp(mean, 0.4 * moved), basis=basis)
        np.testing.assert_allclose(coords, [0.24, -0.32], atol=1e-12)
    with pytest.raises(ValueError, match="orthonormal basis"):
        tangent_coordinates(reference, means, basis=np.eye(3)[:2] * 2)
