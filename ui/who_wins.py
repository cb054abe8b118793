"""The who-wins sentence of the playground and the Utility page: each page hands its run to the one
engine function (``engine.pipelines.who_wins.verdict``) and shows its sentence in the same box, so
both pages say the same thing for the same setting."""

from __future__ import annotations

from typing import Callable

import streamlit as st

from engine.estimators import ambient_mean
from engine.mechanisms import specs
from engine.pipelines import PrivateMeanConfig, who_wins
from engine.pipelines.private_mean import PrivateMeanResult
from engine.pipelines.release_errors import measure_releases
from engine.spaces import make_manifold

#: The bold lead of the box, which tests and readers look for.
LEAD = "Who wins here, and why."


def playground_verdict(result: PrivateMeanResult, settings: PrivateMeanConfig) -> who_wins.Verdict | None:
    """The verdict of the playground's result (``ui.playground.private_means(settings)``), or ``None``
    when it did not release both the Riemannian Laplace (exact, else MH) and the Euclidean one."""
    released = [run for run in result.runs if run.releases is not None]
    # The sentence compares the Riemannian Laplace's law (another intrinsic run, e.g. the Riemannian Gaussian, is not it).
    intrinsic = next((run for run in released if specs.spec(run.key).law == specs.EXACT.law), None)
    euclidean = next((run for run in released if specs.spec(run.key).statistic == "ambient"), None)
    if intrinsic is None or euclidean is None or result.theorem2 is None:
        return None
    manifold = make_manifold(settings.space, settings.k)
    bias = measure_releases(manifold, result.mean, ambient_mean(manifold, result.data, result.m0)[None])
    return who_wins.verdict(manifold, settings.radius, result.n_used, settings.epsilon,
                            intrinsic=intrinsic.errors, euclidean=euclidean.errors, bias=bias,
                            rounded_share=euclidean.rounded_share or 0.0,
                            averaged=who_wins.over_releases(settings.releases))


def show(verdict: Callable[[], who_wins.Verdict | None]) -> None:
    """Compute ``verdict()`` and show its sentence in an info box; why there is none in a caption when
    the engine refuses (e.g. no Euclidean release inside the space)."""
    try:
        found = verdict()
    except ValueError as err:
        st.caption(f"No comparison of the two mechanisms here: {err}")
        return
    if found is not None:
        st.info(f"**{LEAD}** {found.sentence}")
