"""Every chosen mechanism of a private-mean run released over a grid of ε: the frames of the
playground's ε animation (issues 15 and 34), so that each frame compares the mechanisms at one budget.

Frame s releases every mechanism of the configuration at ``epsilons[s]`` on the same records:

- the exact Riemannian Laplace from one set of draws (``engine.mechanisms.common_draws``): each
  release keeps its direction and its quantile and slides towards the mean as ε grows;
- every other mechanism by the code the run itself uses (``private_mean.release_on``) at that ε, with
  the same seed in every frame. The Euclidean Laplace and the tangent Gaussian scale one standard draw
  by σ = Δ/ε (resp. the analytic Gaussian σ), so their releases slide along fixed rays too; the MH
  chain is rerun at each ε.

Each frame is an exact release of every mechanism at its ε; the frames share their randomness, so only
one of them could ever be published.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from engine.mechanisms import scale_limit, specs
from engine.mechanisms.common_draws import laplace_common_draws
from engine.pipelines.private_mean import MECHANISMS, PrivateMeanConfig, release_on
from engine.spaces import make_manifold
from engine.validation import check_positive

#: Spawn key of the frames' random streams (one per mechanism, after it), apart from the run's own.
STREAM = 15


@dataclass(frozen=True)
class EpsilonFrames:
    """The frames of ``epsilon_frames``; E is the number of ε kept.

    Attributes
    ----------
    epsilons : list of float, ascending: the ε at which every chosen mechanism released.
    releases : dict, mechanism key -> ndarray ``(E, releases, *point_shape)``, in the config's order.
    """

    epsilons: list[float]
    releases: dict[str, np.ndarray]


def epsilon_frames(config: PrivateMeanConfig, data, m0, mean, sensitivity: float, epsilons) -> EpsilonFrames:
    """Releases of every mechanism of ``config`` around the records ``data`` at each ε of ``epsilons``.

    Parameters
    ----------
    config : PrivateMeanConfig
        Space, radius, δ, mechanisms (must include one with ``common_draws``, the exact Laplace), releases
        per frame and seed.
    data : array, shape ``(n, *point_shape)``
        The records the run used (after its ball policy).
    m0 : array, shape ``point_shape``
        The public centre of the data ball.
    mean : array, shape ``point_shape``
        The records' Fréchet mean, the footpoint of the exact Laplace.
    sensitivity : float
        Theorem 2's Δ for these records (the exact Laplace's σ is its spec's ``scale``, Δ/ε on a
        homogeneous space).
    epsilons : sequence of float
        The budgets of the frames.

    Returns
    -------
    EpsilonFrames
        Only the ε at which every mechanism can be calibrated (a normalisable Laplace law, a
        calibratable Gaussian), ascending; no frames when there is none.

    Raises
    ------
    ValueError
        A non-positive ε or sensitivity, or a configuration without the exact Laplace.
    """
    anchor = next(spec for spec in specs.PLAYGROUND if spec.common_draws)
    if anchor.key not in config.mechanisms:
        raise ValueError(f"the ε frames animate the {anchor.long_label}; mechanisms must include {anchor.key!r}, "
                         f"got {config.mechanisms!r}")
    sensitivity = check_positive("sensitivity", sensitivity)
    epsilons = sorted({check_positive("epsilon", e) for e in epsilons})
    manifold = make_manifold(config.space, config.k)
    sigmas = {e: anchor.scale(manifold, epsilon=e, sensitivity=sensitivity, delta=config.delta) for e in epsilons}
    epsilons = [e for e in epsilons if sigmas[e] < scale_limit(manifold)]
    keys = [key for key in MECHANISMS if key in config.mechanisms]
    streams = dict(zip(keys, np.random.SeedSequence([config.seed, STREAM]).spawn(len(keys))))
    others = {key: {} for key in keys if key != anchor.key}
    for e in epsilons:
        at = dataclasses.replace(config, epsilon=e)
        for key, frames in others.items():
            try:
                frames[e] = release_on(key, at, data, m0, rng=np.random.default_rng(streams[key]))[1].points
            except ValueError:
                continue
    kept = [e for e in epsilons if all(e in frames for frames in others.values())]
    if not kept:
        return EpsilonFrames(epsilons=[], releases={})
    exact = laplace_common_draws(manifold, mean, [sigmas[e] for e in kept], size=config.releases,
                                 rng=np.random.default_rng(streams[anchor.key]))
    releases = {key: exact if key == anchor.key else np.stack([others[key][e] for e in kept]) for key in keys}
    return EpsilonFrames(epsilons=kept, releases=releases)
