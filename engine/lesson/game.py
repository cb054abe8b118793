"""The "which data set?" game: one release, two neighbouring data sets, guess which one it came from.

The two data sets are the audit's adversarial replace-one pair (``engine.audit.pairs``) for n records in
the public ball B_r(m0); each round one of them is chosen by a fair coin and the playground's own
Riemannian Laplace releases its Fréchet mean (``engine.audit.uses.playground_target``, which runs
``engine.pipelines.private_mean.release_on``). Under ε-DP no guess is right more often than
e^ε/(1 + e^ε) (``engine.odds.guess_ceiling``).

The best attacker is the likelihood-ratio test: it names D when log p_D(y)/p_D'(y) =
(ρ(y, μ') − ρ(y, μ))/σ > 0, μ and μ' the two Fréchet means (the normalising constants cancel on a
homogeneous space; Reimherr, Bharath & Soto 2021, Definition 3). The broken control is the same code
at 2ε while ε is claimed: the noise halved, which the best attacker beats.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.audit.confidence import clopper_pearson_lower, clopper_pearson_upper
from engine.audit.pairs import NeighbouringPair, replace_one_pair
from engine.audit.target import AuditTarget
from engine.audit.uses import playground_target
from engine.odds import guess_ceiling
from engine.spaces import make_manifold
from engine.validation import check_int, check_positive, check_probability

#: The game's defaults: 10 records in a cap of radius 0.1 on S², where Theorem 2's bound is nearly
#: attained by the pair (0.98 of it), so halving the noise shows.
GAME_SPACE, GAME_RADIUS, GAME_N = "sphere", 0.1, 10
#: Rounds the best attacker plays, and the level of every interval the game shows.
BEST_ROUNDS, LEVEL = 10_000, 0.99


@dataclass(frozen=True)
class Tally:
    """Right guesses ``hits`` out of ``rounds``."""

    hits: int = 0
    rounds: int = 0

    @property
    def rate(self) -> float:
        """hits/rounds (NaN before the first round)."""
        return self.hits / self.rounds if self.rounds else float("nan")

    def interval(self, level: float = LEVEL) -> tuple[float, float]:
        """The two-sided Clopper–Pearson interval of the hit rate at ``level`` ((0, 1) before the first round)."""
        tail = (1.0 - check_probability("level", level)) / 2.0
        return (float(clopper_pearson_lower(self.hits, self.rounds, tail)),
                float(clopper_pearson_upper(self.hits, self.rounds, tail)))

    def record(self, hit: bool) -> Tally:
        """This tally with one more round, right or not."""
        return Tally(self.hits + int(bool(hit)), self.rounds + 1)


@dataclass(frozen=True)
class Game:
    """A game at ``epsilon`` on ``space``: the pair, its Fréchet means, the mechanism and its broken control."""

    space: str
    epsilon: float
    radius: float
    n: int
    pair: NeighbouringPair
    means: tuple[np.ndarray, np.ndarray]
    mechanism: AuditTarget
    control: AuditTarget

    @property
    def ceiling(self) -> float:
        """e^ε/(1 + e^ε) at the claimed ε."""
        return guess_ceiling(self.epsilon)

    def _target(self, broken: bool) -> AuditTarget:
        return self.control if broken else self.mechanism

    def deal(self, rounds: int, rng, *, broken: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``rounds`` rounds: which data set each used (0 = D, 1 = D'), shape ``(rounds,)``, and its release,
        shape ``(rounds, *point_shape)``, drawn by the mechanism (``broken``: by the control)."""
        rounds = check_int("rounds", rounds)
        rng = np.random.default_rng(rng)
        target = self._target(broken)
        sides = rng.integers(0, 2, rounds)
        releases = np.empty((rounds,) + self.pair.manifold.point_shape)
        for side in (0, 1):
            chosen = sides == side
            if chosen.any():
                releases[chosen] = target.draw(side, int(chosen.sum()), rng)
        return sides, releases

    def best_guesses(self, releases, *, broken: bool = False) -> np.ndarray:
        """The likelihood-ratio test's guess for each release: 0 (D) where log p_D/p_D' > 0, else 1."""
        return (self._target(broken).statistic(releases) <= 0).astype(int)

    def best_attacker(self, rounds: int = BEST_ROUNDS, *, seed: int = 0, broken: bool = False) -> Tally:
        """The best attacker's tally over ``rounds`` rounds dealt from ``seed``."""
        sides, releases = self.deal(rounds, seed, broken=broken)
        return Tally(int(np.sum(self.best_guesses(releases, broken=broken) == sides)), len(sides))


def which_data_set(epsilon: float, *, space: str = GAME_SPACE, radius: float = GAME_RADIUS, n: int = GAME_N) -> Game:
    """The game for the playground's Riemannian Laplace at ``epsilon`` on ``space`` (n records in B_r(m0)).

    Raises
    ------
    ValueError
        A bad ε, n or radius, with the pipeline's own message (e.g. r beyond Theorem 2's domain).
    """
    epsilon = check_positive("epsilon", epsilon)
    n = check_int("n", n, minimum=2)
    radius = check_positive("radius", radius)
    mechanism = playground_target("exact", space, radius, n=n, epsilon=epsilon)
    control = playground_target("exact", space, radius, n=n, epsilon=2.0 * epsilon)
    pair = replace_one_pair(make_manifold(space), n, radius)
    return Game(space=space, epsilon=epsilon, radius=radius, n=n, pair=pair, means=pair.frechet_means(),
                mechanism=mechanism, control=control)
