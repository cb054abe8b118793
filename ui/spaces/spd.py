"""SPD(2) on the pages: matrices as points of the positive-definite cone in R³."""

from __future__ import annotations

from engine.viz.spd_cone import spd_cone_figure
from ui.spaces.view import Figure1View, SpaceView

VIEW = SpaceView(
    key="spd",
    radius_slider=(0.5, 3.0, 0.05),
    mh_thin=25,
    caption="Each matrix [[a, b], [b, c]] is the point (a, √2·b, c) and only points inside the cone are positive "
            "definite: open diamonds are Euclidean releases that are not valid covariance matrices.",
    error_note="Euclidean releases count only when positive definite: the others have no geodesic distance.",
    figure=lambda result, clouds, settings, hold: spd_cone_figure(data=result.data, mean=result.mean,
                                                          releases=clouds, height=640),
    coordinates=lambda points: dict(x11=points[:, 0, 0], x12=points[:, 0, 1], x22=points[:, 1, 1]),
    volume_tex=r"\rho \int_0^{2\pi} \sinh\!\big(\rho\,|\cos\varphi - \sin\varphi|/2\big)\,d\varphi",
    # Small SPD balls make the Wishart rejection sampler of the data very slow.
    figure1=Figure1View(
        radius_range=(0.5, 3.0),
        ambient_note="On SPD(2) the ball B_r(I) reaches Frobenius distance e^r − 1 from I (supplement, Proposition "
                     "1): the ambient radius grows exponentially with r.",
        setting="SPD(2) with r = 1.5"),
)
