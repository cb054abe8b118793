"""The private-subspace pipeline behind the Private subspaces page, and its figure builders."""

import numpy as np
import pandas as pd
import pytest

from engine.pipelines.private_subspace import METHODS, PrivateSubspaceConfig, run
from engine.viz.subspaces import MAX_DRAWN, dimension_sweep_figure, disc, subspace_figure


@pytest.mark.parametrize("method", list(METHODS))
def test_every_method_releases_points_of_the_grassmannian(method):
    noise = 0.0 if method == "exact" else 1e-8  # the exact method refuses points only near U (next test)
    config = PrivateSubspaceConfig(method=method, n=2000 if method in ("approx", "bingham") else 300, noise=noise,
                                   releases=12)
    result = run(config)
    assert result.bases.shape == (12, 3, 2) and result.angles.shape == (12, 2)
    ok = ~result.bottom
    gram = np.swapaxes(result.bases[ok], -1, -2) @ result.bases[ok]
    assert np.allclose(gram, np.eye(2), atol=1e-10)
    assert np.allclose(np.sin(result.angles[ok, -1]), result.proj_error[ok])
    assert np.isnan(result.proj_error[~ok]).all() and np.isnan(result.angles[~ok]).all()
    assert (result.guarantee is None) == (method == "non-private")
    assert 0.0 <= result.bottom_rate <= 1.0 and result.success_rate >= 0.5


def test_the_exact_method_refuses_points_only_near_the_subspace_in_one_line():
    with pytest.raises(ValueError, match=r"too far from it .* > delta/20 = 5e-08") as err:
        run(PrivateSubspaceConfig(method="exact", n=300, noise=1e-8, releases=2))
    assert "\n" not in str(err.value)


def test_exact_case_is_exact_and_deterministic():
    config = PrivateSubspaceConfig(n=100, outliers=3, releases=5, seed=4)
    first, second = run(config), run(config)
    assert np.array_equal(first.bases, second.bases) and np.array_equal(first.data, second.data)
    assert first.outlier.sum() == 3 and first.min_samples == 3 * 4 + 56 and first.success_rate == 1.0
    assert first.proj_error.max() < 1e-3  # exact up to the public grid of the representation
    assert first.config.outliers == 3 and first.guarantee.delta == 1e-6


def test_noise_gives_bottom_for_the_exact_case():
    result = run(PrivateSubspaceConfig(noise=0.01, releases=10))
    assert result.bottom.all() and result.success_rate == 0.0


@pytest.mark.parametrize("kwargs, message", [
    ({"k": 3}, "k must be < d = 3"),
    ({"method": "pca"}, "method must be one of exact, approx"),
    ({"delta": 1.0}, r"delta must lie in \(0, 1\), got 1.0"),
    ({"n": 10, "outliers": 11}, "outliers must be <= n = 10, got 11"),
    ({"noise": -1.0}, "noise must be a finite number >= 0, got -1.0"),
])
def test_bad_config(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PrivateSubspaceConfig(**kwargs)


def test_n_below_the_guarantee_names_the_n_needed():
    with pytest.raises(ValueError, match="n = 40 is too small .* needs n >= 59"):
        run(PrivateSubspaceConfig(n=40))


def test_disc_lies_in_the_plane_at_the_radius():
    basis = np.linalg.qr(np.random.default_rng(0).standard_normal((3, 2)))[0]
    vertices, triangles = disc(basis, 2.0, segments=12)
    normal = np.cross(basis[:, 0], basis[:, 1])
    assert np.allclose(vertices @ normal, 0) and np.allclose(np.linalg.norm(vertices[1:], axis=1), 2.0)
    assert triangles.shape == (12, 3) and set(triangles.ravel()) == set(range(13))


def test_subspace_figure_draws_at_most_the_cap_and_skips_bottom():
    result = run(PrivateSubspaceConfig(method="analyze-gauss", n=200, releases=12))
    bottom = np.zeros(12, dtype=bool)
    bottom[:3] = True
    fig = subspace_figure(result.data, result.outlier, result.truth, result.bases, bottom)
    assert sum(trace.type == "mesh3d" for trace in fig.data) == 1 + MAX_DRAWN
    exact = run(PrivateSubspaceConfig(n=100, releases=12))
    fig = subspace_figure(exact.data, exact.outlier, exact.truth, exact.bases, exact.bottom)
    assert sum(trace.type == "mesh3d" for trace in fig.data) == 2  # identical releases are drawn once
    line = run(PrivateSubspaceConfig(k=1, method="analyze-gauss", n=200, releases=2))
    fig = subspace_figure(line.data, line.outlier, line.truth, line.bases, line.bottom)
    assert sum(trace.mode == "lines" for trace in fig.data if trace.type == "scatter3d") == 3  # truth + 2 releases
    with pytest.raises(ValueError, match=r"bases must have shape \(12, 3, 2\)"):
        subspace_figure(result.data, result.outlier, result.truth, result.bases[:, :, :1], bottom)


def test_dimension_sweep_figure_one_trace_per_method_and_d():
    summary = pd.DataFrame({"d": [10, 10, 100, 100], "n": [100, 400, 100, 400], "method": "analyze-gauss",
                            "success": [0.2, 0.9, 0.0, 0.5]})
    fig = dimension_sweep_figure(summary, colors={"analyze-gauss": "#D55E00"}, labels={"analyze-gauss": "AG"})
    assert [trace.name for trace in fig.data] == ["AG, d = 10", "AG, d = 100"]
    assert [trace.line.dash for trace in fig.data] == ["solid", "dash"]
    with pytest.raises(ValueError, match="has no colour or label"):
        dimension_sweep_figure(summary, colors={}, labels={})
