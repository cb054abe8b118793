"""The figure cache: one build per argument, figures back as plotly drew them (same JSON, subplot grid
kept), wherever they sit in the returned value, and a new figure on every call; the JSON cache: one build
and one serialisation per argument, the same text handed to every caller."""

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from engine.viz.sphere import sphere_figure
from ui.figure_cache import cache_figure_json, cache_figures
from ui.live_chart import FigureJSON

BUILDS = []


@cache_figures(max_entries=4)
def _scene(seed: int) -> go.Figure:
    BUILDS.append(seed)
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(30, 3))
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    return sphere_figure(data=points, mean=points[0], center=points[0], radius=0.5,
                         releases={"riemannian laplace": points[:10]})


@cache_figures(max_entries=4)
def _panels(seed: int) -> dict:
    fig = make_subplots(rows=1, cols=2)
    fig.add_trace(go.Scatter(y=[seed, 1.0]), row=1, col=1)
    return {"figures": (fig, go.Figure(go.Bar(y=[seed]))), "label": f"seed {seed}", "none": None}


@cache_figure_json(max_entries=4)
def _scene_json(seed: int) -> go.Figure:
    BUILDS.append(seed)
    return go.Figure(go.Scatter3d(x=[seed], y=[0.0], z=[1.0]))


@cache_figures(max_entries=2)
def _other(seed: int) -> go.Figure:
    return go.Figure(go.Scatter(y=[-seed]))


def test_a_cached_figure_is_built_once_and_keeps_its_json():
    BUILDS.clear()
    _scene.clear()
    built = _scene(3)
    again = _scene(3)
    assert BUILDS == [3]
    assert again is not built
    assert pio.to_json(again, validate=False) == pio.to_json(built, validate=False)
    assert pio.to_json(again, validate=False) != pio.to_json(_scene(4), validate=False)
    assert BUILDS == [3, 4]


def test_each_call_hands_out_its_own_figure():
    first = _scene(5)
    first.update_layout(title="edited")
    assert _scene(5).layout.title.text is None


def test_figures_inside_tuples_and_dicts_come_back_with_their_subplot_grid():
    value = _panels(2)
    again = _panels(2)
    panel, bar = again["figures"]
    assert isinstance(again["figures"], tuple) and again["label"] == "seed 2" and again["none"] is None
    assert isinstance(panel, go.Figure) and isinstance(bar, go.Figure)
    assert pio.to_json(panel, validate=False) == pio.to_json(value["figures"][0], validate=False)
    panel.add_trace(go.Scatter(y=[0.0, 1.0]), row=1, col=2)
    assert panel.data[-1].xaxis == "x2"


def test_two_functions_with_the_same_arguments_keep_separate_entries():
    assert _other(2).data[0].y == (-2,)
    assert _panels(2)["figures"][1].data[0].y == (2,)


def test_a_figures_json_is_built_and_serialised_once_and_shared():
    BUILDS.clear()
    _scene_json.clear()
    text = _scene_json(7)
    assert isinstance(text, FigureJSON) and text == pio.to_json(go.Figure(go.Scatter3d(x=[7], y=[0.0], z=[1.0])),
                                                                validate=False)
    assert _scene_json(7) is text
    assert _scene_json(8) != text
    assert BUILDS == [7, 8]
