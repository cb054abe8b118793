"""The who-wins map computes a parameter's data sets and Fréchet means once for every budget ε, its cells
once per setting and Hᵈ's means by Newton steps (``engine.pipelines.who_wins_map``): its cells must equal
those computed here one cell at a time from the recipe of its docstring (the data of radius r alone, its
Fréchet mean by the paper's fixed-step iteration, the cell's own Euclidean releases and intrinsic radii),
cold and after maps at other budgets have filled the caches."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.estimators import ambient_centre, frechet_mean
from engine.mechanisms import specs
from engine.mechanisms.laplace import ambient_laplace
from engine.pipelines.release_errors import release_distances
from engine.pipelines.who_wins import factors
from engine.pipelines.who_wins_map import (
    FAMILIES,
    WhoWinsMapConfig,
    clear_caches,
    data_set_means,
    intrinsic_errors,
    radius_grid,
    releases_per_cell,
    run,
    tangent_ball_data,
)


def _reference_cell(config: WhoWinsMapConfig, p: int, j: int) -> dict:
    """Cell j (the j-th radius) of parameter p, alone: its mean errors and their ratio."""
    fam = FAMILIES[config.space]
    manifold = fam.make(p)
    radius = radius_grid(manifold, fam, config.radii, config.max_radius)[j]
    data_seed, intrinsic_seed, noise_seed = np.random.SeedSequence([config.seed, p]).spawn(3)
    data = tangent_ball_data(manifold, np.array([radius]), config.datasets, config.n,
                             np.random.default_rng(data_seed))[0]
    mean = frechet_mean(manifold, data, step=1.0, tol=1e-12, max_iter=2000).mean
    f = factors(manifold, float(radius), config.n)
    sigma = specs.spec(config.mechanism).build(manifold, epsilon=config.epsilon, sensitivity=f.delta,
                                               delta=config.delta, m0=None).sigma
    m = releases_per_cell(manifold.dim, config.ratio_se)
    releases = ambient_laplace(manifold, ambient_centre(manifold, data, reference=manifold.origin),
                               f.delta_e / config.epsilon, size=math.ceil(m / config.datasets),
                               rng=np.random.default_rng(noise_seed))
    found = release_distances(manifold, mean[None], releases[None])
    euclidean = found.geodesic[found.measured].mean()
    intrinsic = intrinsic_errors(manifold, sigma, m, np.random.default_rng(intrinsic_seed), config.mechanism).mean()
    return dict(intrinsic=intrinsic, euclidean=euclidean, ratio=intrinsic / euclidean)


CONFIGS = [WhoWinsMapConfig(space="sphere", dims=(3,), radii=4, n=12, datasets=3, ratio_se=0.1, seed=5),
           WhoWinsMapConfig(space="hyperbolic", dims=(3,), radii=4, n=12, datasets=3, ratio_se=0.1, seed=5),
           WhoWinsMapConfig(space="spd", dims=(4,), radii=3, n=50, epsilon=2.0, datasets=3, ratio_se=0.1, seed=5),
           WhoWinsMapConfig(space="grassmann", dims=(4,), radii=3, n=10, datasets=3, ratio_se=0.1, seed=5),
           WhoWinsMapConfig(space="sphere", dims=(3,), radii=4, n=12, datasets=3, ratio_se=0.1, seed=5,
                            mechanism="rgauss"),
           WhoWinsMapConfig(space="hyperbolic", dims=(3,), radii=4, n=40, epsilon=2.0, datasets=3, ratio_se=0.1, seed=5,
                            mechanism="rgauss", delta=1e-5)]


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{c.space}-{c.mechanism}" for c in CONFIGS])
def test_every_cell_equals_its_computation_alone_cold_and_after_other_budgets(config):
    clear_caches()
    cold = run(config).cells
    other = run(WhoWinsMapConfig(**{**config.__dict__, "epsilon": 10 * config.epsilon})).cells
    warm = run(config).cells
    assert warm.equals(cold)
    # σ = Δ/ε for an ε-DP law; an (ε, δ) calibration shrinks σ with ε too, not as 1/ε.
    shrunk = cold["sigma"] / 10 if specs.spec(config.mechanism).guarantee == "ε-DP" else other["sigma"]
    assert np.allclose(other["sigma"], shrunk) and (other["sigma"] < cold["sigma"]).all()
    assert not np.allclose(other["intrinsic"], cold["intrinsic"])
    p = config.dims[0]
    for j, row in cold.iterrows():
        alone = _reference_cell(config, p, j)
        for column in ("intrinsic", "euclidean", "ratio"):
            assert row[column] == pytest.approx(alone[column], rel=1e-8), (config.space, j, column)


def test_a_cells_budget_reuses_the_data_sets_and_their_means_which_no_caller_can_change():
    clear_caches()
    config = CONFIGS[0]
    run(config)
    shared = data_set_means(config.space, 3, config.radii, config.max_radius, config.n, config.datasets, config.seed)
    run(WhoWinsMapConfig(**{**config.__dict__, "epsilon": 0.1}))
    assert data_set_means.cache_info().hits >= 1
    assert data_set_means(config.space, 3, config.radii, config.max_radius, config.n, config.datasets,
                          config.seed) is shared
    for array in (shared.means, shared.centres):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0.0
