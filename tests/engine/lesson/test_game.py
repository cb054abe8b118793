"""The "which data set?" game (``engine.lesson.game``): the best attacker stays under e^ε/(1 + e^ε), the
broken control (noise halved) beats it, and the rounds are drawn by the playground's own mechanism."""

import time

import numpy as np
import pytest

from engine.audit import clopper_pearson_lower, clopper_pearson_upper
from engine.bounds import frechet_mean_sensitivity
from engine.lesson.game import BEST_ROUNDS, Tally, which_data_set


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_best_attacker_stays_under_the_ceiling_and_beats_the_broken_control(epsilon):
    game = which_data_set(epsilon)
    best = game.best_attacker(BEST_ROUNDS, seed=1)
    broken = game.best_attacker(BEST_ROUNDS, seed=2, broken=True)
    assert best.rounds == broken.rounds == 10_000
    assert best.interval()[0] <= game.ceiling, (best, game.ceiling)
    assert broken.interval()[0] > game.ceiling, (broken, game.ceiling)
    # The attacker is not a coin: it wins more than half the rounds at every ε.
    assert best.interval()[0] > 0.5


def test_rounds_are_the_playgrounds_riemannian_laplace_on_the_pair():
    game = which_data_set(1.0)
    sides, releases = game.deal(4_000, 3)
    assert set(np.unique(sides)) == {0, 1} and releases.shape == (4_000, 3)
    np.testing.assert_allclose(np.linalg.norm(releases, axis=1), 1.0, atol=1e-12)
    sigma = frechet_mean_sensitivity(game.n, game.radius, 1.0) / game.epsilon
    m = game.pair.manifold
    for side in (0, 1):
        # Radii of the Laplace law on S² at scale σ: E ρ ≈ 2σ for σ << 1.
        radii = m.dist(releases[sides == side], game.means[side])
        assert radii.mean() == pytest.approx(2 * sigma, rel=0.06)
    repeated = game.deal(4_000, 3)
    np.testing.assert_array_equal(repeated[1], releases)


def test_the_control_halves_the_noise():
    game = which_data_set(1.0)
    _, fair = game.deal(4_000, 5)
    _, broken = game.deal(4_000, 5, broken=True)
    m = game.pair.manifold
    ratio = m.dist(broken, game.means[0]).mean() / m.dist(fair, game.means[0]).mean()
    assert 0.4 < ratio < 0.7


def test_best_guess_is_the_sign_of_the_log_likelihood_ratio():
    game = which_data_set(1.0)
    assert game.best_guesses(np.stack(game.means)).tolist() == [0, 1]


def test_ten_thousand_best_attacker_rounds_take_under_a_second():
    game = which_data_set(1.0)
    times = []
    for seed in range(3):
        start = time.perf_counter()
        game.best_attacker(BEST_ROUNDS, seed=seed)
        times.append(time.perf_counter() - start)
    assert min(times) < 1.0, times


def test_tally_records_rounds_and_gives_clopper_pearson_intervals():
    tally = Tally()
    assert np.isnan(tally.rate) and tally.interval() == (0.0, 1.0)
    for hit in (True, True, False, True):
        tally = tally.record(hit)
    assert (tally.hits, tally.rounds, tally.rate) == (3, 4, 0.75)
    low, high = tally.interval(0.99)
    assert low == pytest.approx(float(clopper_pearson_lower(3, 4, 0.005)))
    assert high == pytest.approx(float(clopper_pearson_upper(3, 4, 0.005)))
    assert low < 0.75 < high


@pytest.mark.parametrize(("call", "quoted"), [
    (lambda: which_data_set(0.0), "epsilon must be a finite number > 0, got 0.0"),
    (lambda: which_data_set(1.0, n=1), "n must be an integer >= 2, got 1"),
    (lambda: which_data_set(1.0).deal(0, 0), "rounds must be an integer >= 1, got 0"),
    (lambda: Tally(1, 2).interval(1.5), "level must lie in (0, 1), got 1.5"),
])
def test_bad_input_raises_one_line_quoting_the_value(call, quoted):
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value) == quoted


def test_radius_beyond_theorem_2_is_refused_with_the_pipelines_reason():
    with pytest.raises(ValueError, match="Theorem 2"):
        which_data_set(1.0, radius=1.0)
