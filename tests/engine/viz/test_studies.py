"""Figure builders of the sensitivity and utility studies (``engine.viz.sensitivity``,
``engine.viz.utility``): what each trace holds, computed here from the input frames."""

import numpy as np
import pandas as pd
import pytest

from engine.pipelines import utility as util_pipeline
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


def _reduction_table():
    """``reduction_table`` of a summary whose intrinsic mechanism has no release at n = 40: errors 0.2
    against 0.4 at n = 10 (50 % reduction), 0.3 against 0.2 at n = 20 (-50 %), none at n = 40."""
    summary = pd.DataFrame({"n": [10, 20, 10, 20, 40], "mechanism": ["exact"] * 2 + ["euclid"] * 3,
                            "mean_error": [0.2, 0.3, 0.4, 0.2, 0.1], "share_off_manifold": [0.0, 0.0, 0.5, 0.3, 0.1],
                            "rms_geodesic": [0.25, 0.35, np.nan, np.nan, np.nan],
                            "sqrt_bound": [0.3, 0.4, np.nan, np.nan, np.nan]})
    return util_pipeline.reduction_table(summary)


@pytest.mark.parametrize("log", [True, False])
def test_reduction_figure_draws_the_tables_reductions_over_a_zero_line(log):
    table = _reduction_table()
    assert table[util_viz.REDUCTION].isna().tolist() == [False, False, True]
    fig = util_viz.reduction_figure(table, log=log)
    assert len(fig.data) == 1
    trace = fig.data[0]
    assert trace.meta == "reduction" and trace.mode == "lines+markers"
    assert list(trace.x) == [10, 20], "the n without a reduction is left out, not drawn at 0"
    assert list(trace.y) == pytest.approx([50.0, -50.0])
    assert list(trace.y) == pytest.approx(table[util_viz.REDUCTION].dropna().tolist())
    assert [(shape.y0, shape.y1, shape.line.dash) for shape in fig.layout.shapes] == [(0, 0, "dash")]
    assert [note.text for note in fig.layout.annotations] == [util_viz.ABOVE_ZERO, util_viz.BELOW_ZERO]
    low, high = fig.layout.yaxis.range
    assert low < -50 and high > 50
    assert fig.layout.xaxis.type == ("log" if log else "linear")
    assert fig.layout.xaxis.title.text == "sample size n" and "(%)" in fig.layout.yaxis.title.text


def test_reduction_figure_keeps_its_zero_line_and_words_clear_of_a_positive_line():
    table = pd.DataFrame({"n": [10, 20], util_viz.REDUCTION: [20.0, 60.0]})
    fig = util_viz.reduction_figure(table, log=False)
    low, high = fig.layout.yaxis.range
    assert low < 0 < 60 < high
    assert [(note.x, note.xanchor) for note in fig.layout.annotations] == [(1, "right")] * 2, \
        "the words sit at the end where the line is farther from 0"


def test_reduction_figure_without_a_reduction_is_none_and_needs_the_tables_columns():
    table = _reduction_table()
    assert util_viz.reduction_figure(table[table[util_viz.REDUCTION].isna()], log=True) is None
    with pytest.raises(ValueError, match=r"no column \['noise reduction \(%\)'\]"):
        util_viz.reduction_figure(table.drop(columns=util_viz.REDUCTION), log=True)
