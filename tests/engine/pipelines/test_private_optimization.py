"""DP-RGD as the Private optimization page runs it (``engine.pipelines.private_optimization``): a run is
made of blocks of chains, so a progress bar can follow it, and the blocks do not change the numbers."""

import numpy as np
import pytest

from engine.pipelines import private_optimization as po

SETTINGS = dict(epsilon=1.0, delta=1e-3, sigma=None, steps=20, batch=0, eta=0.05, seed=3)


@pytest.fixture(scope="module")
def frechet():
    return po.problem(app="frechet", data="synthetic", size=40, seed=3)


def _run(p, reps):
    return po.combine([po.run_block(p, app="frechet", start=a, stop=b, **SETTINGS) for a, b in po.blocks(reps)])


def test_blocks_cover_the_repeats_in_order():
    assert po.blocks(5) == [(0, 5)]
    assert po.blocks(23) == [(0, 10), (10, 20), (20, 23)]
    assert sum(b - a for a, b in po.blocks(50)) == 50


def test_a_run_in_blocks_has_every_chain_once_and_one_noiseless_path(frechet):
    run = _run(frechet, 23)
    assert run.outputs["dp-rgd"].shape == (23, 2, 2) and run.laplace.shape == (23, 2, 2)
    private = run.paths[run.paths["method"] == "dp-rgd"]
    assert sorted(private["repeat"].unique()) == list(range(23))
    # A fixed public start and the full batch: the noiseless run is one path, run once.
    assert run.outputs["non-private"].shape == (1, 2, 2)
    assert len(np.unique(run.outputs["dp-rgd"].round(12), axis=0)) == 23  # independent streams per block


def test_whole_blocks_do_not_depend_on_how_many_repeats_are_asked(frechet):
    """The first 20 chains are the same in runs of 20 and 23 repeats: block k has its own stream."""
    small, large = _run(frechet, 20), _run(frechet, 23)
    np.testing.assert_array_equal(small.outputs["dp-rgd"], large.outputs["dp-rgd"][:20])
    assert small.info == large.info


def test_unknown_application_is_named():
    with pytest.raises(ValueError, match="app must be one of .* got 'nonsense'"):
        po.problem(app="nonsense", data="synthetic", size=10, seed=0)
