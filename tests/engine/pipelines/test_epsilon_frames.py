"""Frames of the playground's ε animation: every chosen mechanism at every frame's ε."""

import numpy as np
import pytest

from engine.mechanisms import specs
from engine.pipelines import run
from engine.pipelines.epsilon_frames import epsilon_frames
from engine.pipelines.private_mean import PrivateMeanConfig


def test_every_mechanism_releases_at_every_frames_epsilon():
    config = PrivateMeanConfig(mechanisms=("exact", "euclid", "gauss"), releases=300)
    result = run(config)
    delta = result.theorem2.sensitivity
    frames = epsilon_frames(config, result.data, result.m0, result.mean, delta, [4.0, 0.5, 1.0, 2.0])
    assert frames.epsilons == [0.5, 1.0, 2.0, 4.0] and list(frames.releases) == ["exact", "euclid", "gauss"]
    assert all(f.shape == (4, 300, 3) for f in frames.releases.values())
    # The ambient Laplace scales one standard draw by Δ_E/ε: its spread about its centroid is ∝ 1/ε.
    euclid = frames.releases["euclid"]
    spread = np.linalg.norm(euclid - euclid.mean(axis=1, keepdims=True), axis=2).mean(axis=1)
    np.testing.assert_allclose(spread * frames.epsilons, spread[0] * 0.5, rtol=1e-9)
    # At the run's own ε the ambient spread is the run's (a law at that ε, not at another).
    run_spread = np.linalg.norm(result.runs[1].releases - result.runs[1].releases.mean(axis=0), axis=1).mean()
    assert 0.8 < spread[1] / run_spread < 1.25
    for key in (key for key in frames.releases if not specs.spec(key).off_manifold):
        errors = np.arccos(np.clip(frames.releases[key] @ result.mean, -1, 1)).mean(axis=1)
        assert np.all(np.diff(errors) < 0), key


def test_frames_need_the_exact_laplace():
    config = PrivateMeanConfig(mechanisms=("euclid",))
    result = run(config)
    with pytest.raises(ValueError, match="must include 'exact'"):
        epsilon_frames(config, result.data, result.m0, result.mean, 0.02, [1.0])
