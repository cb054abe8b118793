"""The study runner: in-process, LocalCluster and scheduler runs give bit-identical tables."""

import numpy as np
import pandas as pd
import pytest

from engine.experiments import reimherr_fig1, runner
from engine.experiments.protocol import Task, make_config, replicate_blocks, task_seed

SMALL = reimherr_fig1.Config(reps=24, seed=7, ns=(10, 30), block=8)


def assert_same_tables(a: dict, b: dict):
    assert list(a) == list(b)
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True)


@pytest.mark.slow
def test_two_local_workers_equal_the_in_process_run_exactly():
    """A real LocalCluster of 2 processes (started and closed here) against the in-process run."""
    calls = []
    local = runner.run("reimherr-fig1", SMALL)
    distributed = runner.run("reimherr-fig1", SMALL, workers=2, progress=calls.append)
    assert_same_tables(local, distributed)
    assert len(local["utility"]) == 2 * 2 * len(reimherr_fig1.MECHANISMS) * 24
    assert calls[-1] == 1.0 and np.all(np.diff(calls) > 0)


def test_an_existing_scheduler_gives_the_same_tables():
    """The scheduler path: a client connects to the address of a running (in-process) cluster."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as cluster:
        remote = runner.run("reimherr-fig1", SMALL, scheduler=cluster.scheduler_address)
        with pytest.raises(ValueError, match="n must be an integer >= 1, got 0"):
            runner.execute([Task(("bad",), reimherr_fig1.simulate_cell, ("spd", 0, 0, 2, 1.0, "theorem"))], 0,
                           scheduler=cluster.scheduler_address)
    assert_same_tables(runner.run("reimherr-fig1", SMALL), remote)


def test_task_order_does_not_change_any_output():
    tasks = reimherr_fig1.tasks(SMALL)
    forward = runner.execute(tasks, SMALL.seed)
    backward = runner.execute(tasks[::-1], SMALL.seed)[::-1]
    assert_same_tables(reimherr_fig1.combine(SMALL, forward), reimherr_fig1.combine(SMALL, backward))


def test_task_seeds_depend_on_the_key_only():
    a = np.random.default_rng(task_seed(3, ("spd", 10, 0))).random(4)
    assert np.array_equal(a, np.random.default_rng(task_seed(3, ("spd", 10, 0))).random(4))
    for seed, key in ((3, ("spd", 10, 8)), (3, ("sphere", 10, 0)), (4, ("spd", 10, 0)), ((3, 1), ("spd", 10, 0))):
        assert not np.array_equal(a, np.random.default_rng(task_seed(seed, key)).random(4))


def test_replicate_blocks_cover_every_replicate_once():
    assert replicate_blocks(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert replicate_blocks(3, 250) == [(0, 3)]


def test_keys_are_unique_and_blocks_are_a_study_parameter():
    keys = [t.key for t in reimherr_fig1.tasks(SMALL)]
    assert len(keys) == len(set(keys)) == 2 * 2 * 3
    assert all(isinstance(t, Task) for t in reimherr_fig1.tasks(SMALL))


def test_bad_parameters_and_scheduler_arguments():
    with pytest.raises(ValueError, match="unknown setting 'repz'"):
        make_config(reimherr_fig1.Config, {"repz": 3})
    with pytest.raises(ValueError, match="block must be an integer >= 1, got 0"):
        reimherr_fig1.Config(block=0)
    with pytest.raises(ValueError, match="workers must be an integer >= 1, got 0"):
        runner.run("reimherr-fig1", SMALL, workers=0)
    with pytest.raises(ValueError, match="not both"):
        runner.run("reimherr-fig1", SMALL, workers=2, scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(ValueError, match="config must be engine.experiments.reimherr_fig1.Config, got dict"):
        runner.run("reimherr-fig1", {"reps": 3})


def test_the_costliest_tasks_get_the_highest_priority_and_ties_keep_their_order():
    tasks = [Task(("a", i), task_seed, cost=c) for i, c in enumerate((1.0, 5.0, 1.0, 3.0))]
    ranked = runner._by_cost(tasks)
    assert [task.key for _, task in ranked] == [task.key for task in tasks]
    assert [rank for rank, _ in ranked] == [1, 3, 0, 2]


def test_reimherr_fig1_tasks_cost_their_sample_size_times_their_replicates():
    costs = {task.key: task.cost for task in reimherr_fig1.tasks(reimherr_fig1.Config(reps=1500, ns=(10, 300)))}
    assert costs[("spd", 300, 1000)] == 300 * 500 and costs[("sphere", 10, 0)] == 10 * 1000
