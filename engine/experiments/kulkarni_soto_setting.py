"""The settings both Kulkarni & Soto studies share: the synthetic corpus-callosum data and the public ball."""

from __future__ import annotations

import functools

from engine.experiments.protocol import normalise_seed
from engine.validation import check_int, check_nonnegative, check_positive


def check_callosum_setting(config) -> None:
    """Validate and normalise, on a frozen ``Config``, ``reps``, ``seed``, ``n`` and ``k`` (>= 3), ``noise``,
    ``tau`` (the residual clipping radius) and ``ball_radius`` (the public ball of the footpoint)."""
    set_ = functools.partial(object.__setattr__, config)
    set_("reps", check_int("reps", config.reps))
    set_("seed", normalise_seed(config.seed))
    set_("n", check_int("n", config.n, minimum=3))
    set_("k", check_int("k", config.k, minimum=3))
    set_("noise", check_nonnegative("noise", config.noise))
    set_("tau", check_positive("tau", config.tau))
    set_("ball_radius", check_positive("ball_radius", config.ball_radius))
