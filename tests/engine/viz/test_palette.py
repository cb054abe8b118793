"""The charts' palette must be told apart by colour-blind viewers, by shape
or dash as well as by hue, in every figure builder that draws mechanisms."""

import itertools

import numpy as np
import pandas as pd
import pytest

from engine.viz import palette
from engine.viz.colour_vision import DEFICIENCIES, delta_e, lab, simulate
from engine.viz.curves import band_figure
from engine.viz.shapes import shapes_figure

#: ΔE*ab between two mechanisms' colours, for every viewer: well above a just-noticeable difference
#: (about 2.3) and above what separates a pair one confuses at a glance.
MIN_DELTA_E = 15.0

PAIRS = list(itertools.combinations(palette.MECHANISMS, 2))


def test_every_mechanism_has_its_own_symbol_and_dash():
    """Before: the paper baseline and DP-RGD shared "square-open", and there were no dashes. Symbols differ
    within each group of mechanisms drawn together (3D scatters draw seven), dashes everywhere."""
    assert len(palette.MECHANISMS) >= 7
    assert set(itertools.chain(*palette.CHART_GROUPS)) == set(palette.MECHANISMS)
    for group in palette.CHART_GROUPS:
        for first, second in itertools.combinations(group, 2):
            assert palette.symbol(first) != palette.symbol(second), (first, second)
    for first, second in PAIRS:
        assert palette.dash(first) != palette.dash(second), (first, second)


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_mechanism_colours_stay_apart_for_colour_blind_viewers(deficiency):
    worst = min((delta_e(palette.color(a), palette.color(b), deficiency), a, b) for a, b in PAIRS)
    assert worst[0] >= MIN_DELTA_E, worst


def test_the_simulation_merges_red_and_green_and_keeps_greys():
    """The model is not the identity: a red/green pair that differs widely in normal vision all but
    merges for a deuteranope and a protanope (Machado et al. 2009), while greys are left alone."""
    red, green = "#FF0000", "#808000"
    assert delta_e(red, green) > 60
    for deficiency in DEFICIENCIES:
        assert delta_e(red, green, deficiency) < MIN_DELTA_E
        np.testing.assert_allclose(simulate("#777777", deficiency), simulate("#777777", None), atol=2e-3)
    np.testing.assert_allclose(lab(simulate("#FFFFFF", None)), [100.0, 0.0, 0.0], atol=0.05)
    with pytest.raises(ValueError, match="deficiency"):
        simulate(red, "tritanopia?")
    with pytest.raises(ValueError, match="RRGGBB"):
        delta_e("red", green)


def test_mechanism_curves_and_outlines_carry_their_dash_and_symbol():
    """The utility and sensitivity curves (``band_figure``) and the shapes' outlines drew every mechanism
    as a solid line of its colour only."""
    keys = ["exact", "euclid", "dp-rgd"]
    df = pd.DataFrame({"n": [10, 20] * 3, "error": np.arange(6.0) + 1, "se": 0.1,
                       "mechanism": np.repeat(keys, 2)})
    fig = band_figure(df, x="n", y="error", se="se", group="mechanism")
    lines = {t.name: t for t in fig.data if t.meta == "mean"}
    for key in keys:
        assert lines[palette.label(key)].line.dash == palette.dash(key)
        assert lines[palette.label(key)].marker.symbol == palette.symbol(key)
    angles = np.linspace(0, 2 * np.pi, 5, endpoint=False)
    mean = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    fig = shapes_figure(mean=mean, releases={key: (mean + 0.01 * i)[None] for i, key in enumerate(keys)})
    dashes = {t.name: t.line.dash for t in fig.data}
    assert [dashes[palette.label(key)] for key in keys] == [palette.dash(key) for key in keys]
