"""The settings both Kulkarni & Soto studies share: the synthetic corpus-callosum data and the public ball."""

from __future__ import annotations

import functools

from engine.experiments.protocol import normalise_seed
from engine.validation import check_int, check_nonnegative, check_positive


def check_callosum_setting(params) -> None:
    """Validate and normalise, on a frozen ``Params``, ``reps``, ``seed``, ``n`` and ``k`` (>= 3), ``noise``,
    ``tau`` (the residual clipping radius) and ``ball_radius`` (the public ball of the footpoint)."""
    set_ = functools.partial(object.__setattr__, params)
    set_("reps", check_int("reps", params.reps))
    set_("seed", normalise_seed(params.seed))
    set_("n", check_int("n", params.n, minimum=3))
    set_("k", check_int("k", params.k, minimum=3))
    set_("noise", check_nonnegative("noise", params.noise))
    set_("tau", check_positive("tau", params.tau))
    set_("ball_radius", check_positive("ball_radius", params.ball_radius))
