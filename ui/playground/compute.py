"""The playground's one computation, ``private_means``: the engine's private-mean pipeline
(``engine.pipelines.private_mean``) for the page's settings, its ``PrivateMeanResult`` kept in a shared
``ResultStore`` (each caller gets its own copy) so that the page can show the MH chain's progress."""

from __future__ import annotations

from typing import Callable

from engine.pipelines import private_mean
from engine.pipelines.private_mean import PrivateMeanConfig
from ui.result_store import shared_store


def private_means(settings: PrivateMeanConfig,
                  progress: Callable[[float, str], None] | None = None) -> private_mean.PrivateMeanResult:
    """``private_mean.run(settings)``: data, mean, Theorem 2, one run per mechanism, checks.

    ``progress`` receives (fraction done, what runs now) while a new result is computed; a stored
    result returns at once.

    Raises ``ValueError`` when the data cannot be generated (e.g. a radius the sampler cannot fill).
    """
    return shared_store("playground").get(settings, lambda: private_mean.run(settings, progress=progress))
