"""Figure builders of the sensitivity and utility studies (``engine.viz.sensitivity``,
``engine.viz.utility``): what each trace holds, computed here from the input frames."""

import numpy as np
import pandas as pd
import pytest

from engine.viz import sensitivity as sens_viz
from engine.viz import utility as util_viz


def _curves():
    r = np.linspace(0.1, 1.0, 10)
    return pd.concat([pd.DataFrame({"r": r, "value": 2 * r, "curve": "2r"}),
                      pd.DataFrame({"r": r, "value": np.where(r < 0.7, r, np.nan), "curve": "Theorem 2 bound"})])


def test_curves_figure_shades_the_invalid_region_and_marks_values():
    fig = sens_viz.curves_figure(_curves(), x="r", x_title="r", y_title="Δ", invalid_from=0.7,
                                 markers={"r = 0.4": 0.4}, log_y=True)
    lines = [t for t in fig.data if t.showlegend is not False]
    assert [t.name for t in lines] == ["2r", "Theorem 2 bound"]
    assert lines[1].line.dash == "dash" and lines[0].line.dash == "solid"
    assert len(fig.layout.shapes) == 1 and fig.layout.shapes[0].x0 == 0.7 and fig.layout.shapes[0].x1 == 1.0
    marker = fig.data[-1]
    assert list(marker.x) == [0.4, 0.4] and list(marker.y) == pytest.approx([0.1, 2.0])
    assert fig.layout.yaxis.type == "log"
    plain = sens_viz.curves_figure(_curves(), x="r", x_title="r", y_title="Δ", invalid_from=1.5, y_max=1.0)
    assert not plain.layout.shapes and tuple(plain.layout.yaxis.range) == (0.0, 1.0)


def test_empirical_figure_draws_the_bound_only_when_given():
    replicates = pd.DataFrame({"n": [10, 10, 20, 20], "neighbour": ["random replacement"] * 4,
                               "sensitivity": [0.1, 0.2, 0.05, 0.1]})
    summary = pd.DataFrame({"n": [10, 20], "neighbour": "random replacement", "sensitivity": [0.15, 0.075],
                            "se": [0.05, 0.025]})
    bound = pd.DataFrame({"n": [10.0, 20.0], "bound": [0.3, 0.15]})
    metas = [t.meta for t in sens_viz.empirical_figure(replicates, summary, bound, log=True).data]
    assert metas == ["band", "mean", "points", "bound"]
    assert "bound" not in [t.meta for t in sens_viz.empirical_figure(replicates, summary, None, log=False).data]


def _summary():
    return pd.DataFrame({"n": [10, 20, 10, 20], "epsilon": 1.0,
                         "mechanism": ["exact"] * 2 + ["euclid"] * 2,
                         "mean_error": [0.2, 0.1, 0.4, 0.2], "se": [0.01, 0.01, 0.02, 0.01],
                         "share_off_manifold": [0.0, 0.0, 0.5, 0.25], "share_se": [0.0, 0.0, 0.05, 0.04]})


def test_error_figure_has_both_reference_curves():
    bounds = pd.DataFrame({"n": [10.0, 20.0], "bound": [0.3, 0.15], "euclid": [0.35, 0.175]})
    fig = util_viz.error_figure(_summary(), x="n", x_title="n", bounds=bounds, log=True)
    bound = next(t for t in fig.data if t.meta == "bound")
    assert bound.name == util_viz.BOUND_NAME and list(bound.y) == [0.3, 0.15]
    dotted = fig.data[-1]
    assert dotted.line.dash == "dot" and list(dotted.y) == [0.35, 0.175]


def test_share_and_scaling_figures():
    share = util_viz.share_figure(_summary(), log=False)
    means = [t for t in share.data if t.meta == "mean"]
    assert len(means) == 1 and list(means[0].y) == [0.5, 0.25] and tuple(share.layout.yaxis.range) == (0, 1)
    fits = pd.DataFrame({"mechanism": ["exact", "euclid"], "c": [2.0, 4.0]})
    scaling = util_viz.scaling_figure(_summary(), fits)
    means = {t.name: list(t.y) for t in scaling.data if t.meta == "mean"}
    assert means["Riemannian Laplace"] == pytest.approx([2.0, 2.0])  # n·ε·error
    assert [s.y0 for s in scaling.layout.shapes] == [2.0, 4.0]
