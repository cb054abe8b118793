"""The charts' palette must be told apart by colour-blind viewers, by shape or dash as well as by hue, in every
figure builder that draws mechanisms, with room for a sixth and a tenth mechanism (Tol's muted colours after
Okabe–Ito's, a rim as the markers' second channel), checked by CIEDE2000."""

import dataclasses
import itertools

import numpy as np
import pandas as pd
import pytest

from engine.mechanisms import specs
from engine.viz import palette
from engine.viz.colour_vision import DEFICIENCIES, ciede2000, contrast, delta_e, lab, simulate, worst_delta_e
from engine.viz.curves import band_figure
from engine.viz.shapes import shapes_figure
from engine.viz.sphere import sphere_figure

PAIRS = list(itertools.combinations(palette.MECHANISMS, 2))
#: The scenes' data and true mean, drawn beside the private-mean family.
BESIDE = {key: palette.LOOKS[key] for key in palette.SCENE_EXTRAS}


def test_every_mechanism_has_its_own_dash_and_a_chart_group():
    """Before: there were no dashes. Every mechanism is drawn in a group of mechanisms sharing charts, and has a
    dash of its own everywhere (symbols may repeat where colours differ for every viewer: 3D scatters draw seven)."""
    assert len(palette.MECHANISMS) >= 7
    assert set(itertools.chain(*palette.CHART_GROUPS)) == set(palette.MECHANISMS)
    for first, second in PAIRS:
        assert palette.dash(first) != palette.dash(second), (first, second)


def test_every_chart_tells_its_looks_apart_and_from_the_background():
    """Two looks on one chart differ by ΔE₀₀ ≥ MIN_DELTA_E in normal vision and, unless their markers differ, for
    every simulated viewer; every mechanism's colour keeps MIN_CONTRAST on the background. Before: the paper's
    baseline was Okabe–Ito's yellow, at contrast 1.32 on white, and it shared "square-open" with DP-RGD."""
    assert palette.chart_clashes() == []
    family = palette.CHART_GROUPS[0]
    for a, b in itertools.product(family, (*family, *palette.SCENE_EXTRAS)):
        if a == b:
            continue
        first, second = palette.LOOKS[a], palette.LOOKS[b]
        assert delta_e(first.color, second.color) >= palette.MIN_DELTA_E, (a, b)
        if (first.symbol, first.rim) == (second.symbol, second.rim):
            for deficiency in DEFICIENCIES:
                assert delta_e(first.color, second.color, deficiency) >= palette.MIN_DELTA_E, (a, b, deficiency)
    for key in palette.MECHANISMS:
        assert contrast(palette.color(key), palette.BACKGROUND) >= palette.MIN_CONTRAST, key


def test_the_check_flags_a_copied_a_faint_and_a_colour_blind_clash_and_the_rim_resolves_the_last():
    """Broken controls: a mechanism copying the exact sampler's look, one in Okabe–Ito's yellow, one whose colour a
    deuteranope cannot tell from the Euclidean baseline's with the same marker; the rim (or another symbol) sets
    the last apart, a rim on an open symbol or a cross does not count."""
    family = {key: palette.LOOKS[key] for key in palette.CHART_GROUPS[0]}
    copied = dataclasses.replace(palette.LOOKS["exact"], dash="16px,4px")
    assert any("ΔE₀₀ 0.0" in why for why in palette.clashes({**family, "new": copied}, BESIDE))
    faint = palette.Look("#F0E442", "diamond", "16px,4px")
    assert any("contrast 1.32" in why for why in palette.clashes({**family, "new": faint}, BESIDE))
    euclid = palette.LOOKS["euclid"]
    worst, viewer = worst_delta_e(euclid.color, "#999933")
    assert delta_e(euclid.color, "#999933") >= palette.MIN_DELTA_E > worst
    twin = palette.Look("#999933", euclid.symbol, "16px,4px")
    assert palette.confusion(euclid, twin) is not None and viewer in palette.confusion(euclid, twin)
    assert palette.confusion(euclid, dataclasses.replace(twin, rim=True)) is None
    assert palette.confusion(euclid, dataclasses.replace(twin, symbol="diamond")) is None
    for symbol in ("circle-open", "cross"):
        assert any("rim" in why for why in palette.clashes({"new": dataclasses.replace(twin, symbol=symbol, rim=True)}))
    assert any("both dash" in why for why in palette.clashes({**family, "new": dataclasses.replace(twin, dash="dot")}))


def _synthetic(index: int, look: palette.Look) -> specs.MechanismSpec:
    """A mechanism spec of its own key and look (the exact sampler's calibration: only the look is under test)."""
    return dataclasses.replace(specs.EXACT, key=f"synthetic-{index}", label=f"Synthetic {index}", color=look.color,
                               symbol=look.symbol, dash=look.dash, rim=look.rim)


def test_ten_synthetic_mechanisms_get_ten_distinct_looks():
    """The palette has room: ten new specs, each copying a look ``free_looks`` proposes, are told apart from each
    other and from the data and the true mean, on their own and beside none of the registry."""
    looks = palette.free_looks(10, taken={})
    made = [_synthetic(i, look) for i, look in enumerate(looks)]
    drawn = {spec.key: palette.Look.of(spec) for spec in made}
    assert len(set(drawn.values())) == len({look.color for look in drawn.values()}) == 10
    assert palette.clashes(drawn, BESIDE) == []


def test_a_sixth_to_a_tenth_mechanism_fit_beside_the_registry():
    """The registry's mechanisms (six, Okabe–Ito's colours but yellow taken) and four more in the free looks: ten in
    the family's scenes, and no colour another chart's mechanism has (DP-RGD, non-private)."""
    registry = {key: palette.LOOKS[key] for key in palette.CHART_GROUPS[0]}
    new = palette.free_looks(10 - len(registry))
    family = {**registry, **{f"new {i}": look for i, look in enumerate(new)}}
    assert len(family) == 10
    assert palette.clashes(family, BESIDE) == []
    others = {palette.color(key) for key in palette.MECHANISMS if key not in registry}
    assert not others & {look.color for look in new}
    with pytest.raises(ValueError, match="room for"):
        palette.free_looks(len(palette.COLOUR_SET) + 1, taken={})


def test_a_rim_reaches_the_scene_markers(monkeypatch):
    """The second channel is drawn: a mechanism whose look has the rim gets ``RIM`` as its markers' outline in a 3D
    scene, one without gets none."""
    rimmed = dict(palette.LOOKS, exact=dataclasses.replace(palette.LOOKS["exact"], rim=True))
    monkeypatch.setattr(palette, "LOOKS", rimmed)
    cloud = np.array([[0.0, 0.1, 1.0], [0.1, 0.0, 1.0]]) / np.hypot(1.0, 0.1)
    north = np.array([0.0, 0.0, 1.0])
    fig = sphere_figure(data=None, mean=north, releases={"exact": cloud, "mh": cloud[::-1]}, center=north, radius=0.5)
    lines = {t.name: t.marker.line for t in fig.data if t.type == "scatter3d" and t.mode == "markers"}
    assert (lines["Riemannian Laplace"].color, lines["Riemannian Laplace"].width) == (palette.RIM["color"],
                                                                                       palette.RIM["width"])
    assert lines[palette.label("mh")].width == 0


def test_ciede2000_matches_sharma_wu_dalal_test_data():
    """Pairs of Table 1 of Sharma, Wu & Dalal (2005), among them the hue-angle wrap-arounds that catch the usual
    implementation slips, and WCAG 2.1's contrast of #777777 on white (4.48) and of black on white (21)."""
    table = [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425), ((50, 0, 0), (50, -1, 2), 2.3669),
             ((50, 2.49, -0.001), (50, -2.49, 0.0009), 7.1792), ((50, -0.001, 2.49), (50, 0.0009, -2.49), 4.8045),
             ((50, 2.5, 0), (73, 25, -18), 27.1492), ((50, 2.5, 0), (56, -27, -3), 31.9030),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644)]
    for first, second, expected in table:
        assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)
        assert ciede2000(second, first) == pytest.approx(expected, abs=1e-4)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)


def test_the_simulation_merges_confusion_pairs_and_keeps_greys():
    """The model is not the identity: a red/green pair that differs widely in normal vision all but merges for a
    deuteranope and a protanope, a blue/green one for a tritanope (Machado et al. 2009), while greys are left alone."""
    red, green = "#FF8000", "#00C040"
    assert delta_e(red, green) > 50
    for deficiency in ("protanopia", "deuteranopia"):
        assert delta_e(red, green, deficiency) < 9
    blue, green = "#40C0FF", "#40C080"
    assert delta_e(blue, green) > 40 and delta_e(blue, green, "tritanopia") < 9
    for deficiency in DEFICIENCIES:
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
