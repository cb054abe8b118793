"""What the pages keep about one space of ``engine.spaces``: ``SpaceView``.

A view holds the playground's slider range, captions and figure, the coordinates of its downloads,
the TeX of the volume density the Samplers page shows and, for the spaces of the paper's Figure 1,
the Sensitivity and Utility pages' settings (``Figure1View``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import plotly.graph_objects as go

from engine.pipelines.private_mean import PrivateMeanResult


@dataclass(frozen=True)
class Figure1View:
    """The Sensitivity and Utility pages on a space of the paper's Figure 1.

    ``radius_range`` (min, max) of their radius slider; ``ambient_note`` says what the ambient
    radius r_E means there; ``setting`` names the paper's setting in the Utility preset's note and
    ``setting_detail`` adds what only the space on show needs said.
    """

    radius_range: tuple[float, float]
    ambient_note: str
    setting: str
    setting_detail: str = ""


def no_hidden_releases(result: PrivateMeanResult, clouds: dict) -> int:
    """Releases the figure leaves out: none."""
    return 0


@dataclass(frozen=True)
class SpaceView:
    """One space as the pages show it.

    Attributes
    ----------
    key : str
        Its key in ``engine.spaces.SPACES``.
    radius_slider : (float, float, float)
        (min, max, step) of the playground's radius slider (the default is the entry's radius).
    mh_thin : int
        Default MH thinning, just above the chain's autocorrelation time at the default settings.
    caption, error_note : str
        Under the playground's figure, and what its geodesic error column measures.
    figure : callable ``(result, clouds, settings, hold) -> go.Figure``
        The playground's figure of a result and its release ``clouds`` (palette name -> releases;
        ``hold``: further points the 3D scene must frame).
    coordinates : callable ``points (m, *point_shape) -> dict`` of named columns ``(m,)``
        The columns of the downloads.
    volume_tex : str or None
        J(ρ) in TeX beside the Samplers page's radial law (``None`` where the sampler comparison is
        not offered).
    figure1 : Figure1View or None
        The Sensitivity and Utility pages' settings (``None`` without the paper's recipe).
    hidden_releases : callable ``(result, clouds) -> int``
        Releases the figure leaves out, counted in the caption by ``hidden_caption`` (``{count}``).
    animated : bool
        Whether its figure animates over ε and n (``ui.playground.animation``) and has a slides export.
    """

    key: str
    radius_slider: tuple[float, float, float]
    mh_thin: int
    caption: str
    error_note: str
    figure: Callable[[dict, dict, object, np.ndarray | None], go.Figure]
    coordinates: Callable[[np.ndarray], dict]
    volume_tex: str | None
    figure1: Figure1View | None
    hidden_releases: Callable[[dict, dict], int] = no_hidden_releases
    hidden_caption: str = ""
    animated: bool = False
