"""The n animation's frames (engine.pipelines.sample_size_frames): nested prefixes and their means,
Theorem 2's Δ(n), exact Laplace law per frame (KS), transported directions, monotone radii."""

import numpy as np
import pytest
from scipy import stats

from engine.bounds import frechet_mean_sensitivity
from engine.data import sphere_cap
from engine.estimators import PAPER_STEP, frechet_mean, prefix_frechet_means
from engine.manifolds import Hyperbolic, Sphere
from engine.pipelines.sample_size_frames import sample_size_frames, sample_size_grid
from tests.engine.mechanisms.test_common_draws import _sphere_cdf

S2 = Sphere(2)
R = np.pi / 8


def _frames(n=200, epsilon=0.5, size=200, seed=3, sizes=None):
    data = sphere_cap(n, R, rng=seed)
    return data, sample_size_frames(S2, data, sizes=sample_size_grid(n) if sizes is None else sizes, radius=R,
                                    epsilon=epsilon, size=size, rng=seed + 1)


def test_grid_is_log_spaced_from_five_to_n_with_n():
    assert sample_size_grid(50) == [5, 6, 7, 8, 9, 11, 13, 15, 17, 20, 23, 27, 32, 37, 43, 50]
    grid = sample_size_grid(500)
    assert grid[0] == 5 and grid[-1] == 500 and len(grid) == 16
    np.testing.assert_allclose(grid, np.geomspace(5, 500, 16), atol=0.5)
    assert sample_size_grid(3) == [3] and sample_size_grid(5) == [5]


def test_prefix_means_are_the_means_of_the_prefixes():
    data = sphere_cap(60, R, rng=0)
    fit = prefix_frechet_means(S2, data, [2, 17, 60], tol=1e-10)
    for n, mean in zip([2, 17, 60], fit.mean):
        np.testing.assert_allclose(mean, frechet_mean(S2, data[:n], tol=1e-10).mean, atol=1e-9)
    assert np.all(fit.converged) and np.all(fit.gradient_norm < 1e-9)
    with pytest.raises(ValueError, match=r"\[1, 60\].*61"):
        prefix_frechet_means(S2, data, [5, 61])


def test_frames_use_nested_prefixes_with_theorem_2_at_each_n():
    data, f = _frames()
    assert sorted(f.order.tolist()) == list(range(len(data)))
    np.testing.assert_array_equal(f.sizes, sample_size_grid(len(data)))
    np.testing.assert_allclose(f.sensitivities, frechet_mean_sensitivity(f.sizes, R, 1.0), rtol=1e-14)
    np.testing.assert_allclose(f.sigmas, f.sensitivities / 0.5, rtol=1e-14)
    assert np.all(f.converged) and f.dropped == ()
    for n, mean in zip(f.sizes, f.means):
        prefix = data[f.order[:n]]
        np.testing.assert_allclose(mean, frechet_mean(S2, prefix, step=PAPER_STEP).mean, atol=1e-9)
    # The largest prefix is the whole data set: its mean is the data's mean, whatever the order.
    assert S2.dist(f.means[-1], frechet_mean(S2, data, tol=1e-10).mean) < 1e-4
    # Reproducible for a seed.
    np.testing.assert_array_equal(_frames()[1].releases, f.releases)


def test_each_release_keeps_its_direction_and_moves_inwards_as_n_grows():
    _, f = _frames()
    logs = S2.log(f.means[:, None], f.releases)
    radii = np.linalg.norm(logs, axis=-1)
    assert np.all(np.diff(radii, axis=0) <= 1e-12)
    # Δ ∝ 1/n: the cloud shrinks about 40-fold from n = 5 to 200 (less at n = 5, where S² is curved).
    assert radii[0].mean() > 0.5 * f.sizes[-1] / f.sizes[0] * radii[-1].mean()
    back = S2.parallel_transport(np.broadcast_to(f.means[:, None], f.releases.shape), f.means[-1],
                                 logs / radii[..., None])
    np.testing.assert_allclose(back, np.broadcast_to(back[-1], back.shape), atol=1e-10)


@pytest.mark.parametrize("frame", [0, 7, 15])
def test_each_frame_is_an_exact_draw_at_its_n(frame):
    _, f = _frames(size=3000, seed=11)
    radii = S2.dist(f.means[frame], f.releases[frame])
    sigma = f.sigmas[frame]
    assert stats.kstest(radii, lambda r: _sphere_cdf(r, sigma)).pvalue > 1e-3
    # Not the law of a neighbouring frame's σ (the test can fail).
    assert stats.kstest(radii, lambda r: _sphere_cdf(r, 1.3 * sigma)).pvalue < 1e-6


def test_sizes_beyond_the_normalisability_limit_are_dropped():
    h2 = Hyperbolic(2)
    data = h2.exp(h2.origin, np.array([[0.0, 0.3, 0.0], [0.0, 0.0, -0.2], [0.0, -0.1, 0.1]] * 10))
    f = sample_size_frames(h2, data, sizes=[2, 5, 30], radius=1.0, epsilon=1.0, size=10, rng=0)
    assert f.dropped == (2,) and f.sizes.tolist() == [5, 30] and np.all(f.sigmas < 1.0)
    with pytest.raises(ValueError, match="no size has a normalisable"):
        sample_size_frames(h2, data, sizes=[2], radius=1.0, epsilon=1.0, size=10, rng=0)


@pytest.mark.parametrize("kwargs, match", [
    (dict(sizes=[0, 5]), r"\[1, 40\].*0"),
    (dict(sizes=[5, 41]), "41"),
    (dict(sizes=[2.5]), "integers"),
    (dict(radius=0.8), "r\\*"),
    (dict(epsilon=-1.0), "epsilon must be .*> 0, got -1"),
    (dict(size=0), "size"),
])
def test_bad_arguments_raise(kwargs, match):
    args = dict(sizes=[5, 40], radius=R, epsilon=1.0, size=10) | kwargs
    with pytest.raises(ValueError, match=match):
        sample_size_frames(S2, sphere_cap(40, R, rng=0), **args)
