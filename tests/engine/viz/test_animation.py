"""engine.viz.animation: frames, slider and play button over a parameter grid."""

import numpy as np
import plotly.graph_objects as go
import pytest

from engine.viz.animation import add_parameter_frames


def _figure():
    return go.Figure([go.Scatter3d(x=[0.0], y=[0.0], z=[1.0], name="mean"),
                      go.Scatter3d(x=[], y=[], z=[], name="cloud")])


def _coordinates(count):
    rng = np.random.default_rng(0)
    return [dict(x=rng.standard_normal(5), y=rng.standard_normal(5), z=rng.standard_normal(5)) for _ in range(count)]


def test_frames_replace_only_the_animated_trace():
    coords = _coordinates(3)
    fig = add_parameter_frames(_figure(), trace=1, coordinates=coords, labels=["0.5", "1", "2"], active=1)
    assert [f.name for f in fig.frames] == ["0.5", "1", "2"]
    for frame, c in zip(fig.frames, coords):
        assert frame.traces == (1,) and len(frame.data) == 1
        np.testing.assert_allclose(frame.data[0].x, c["x"])
        np.testing.assert_allclose(frame.data[0].z, c["z"])
    np.testing.assert_allclose(fig.data[1].y, coords[1]["y"])      # the active frame is drawn first
    assert list(fig.data[0].z) == [1.0]                            # other traces untouched
    slider = fig.layout.sliders[0]
    assert slider.active == 1 and [list(s.args[0]) for s in slider.steps] == [["0.5"], ["1"], ["2"]]
    assert all(s.method == "animate" for s in slider.steps)
    play, pause = fig.layout.updatemenus[0].buttons
    assert play.args[0] is None and play.args[1]["frame"]["redraw"] and list(pause.args[0]) == [None]


def test_further_traces_move_with_the_frames():
    coords, means = _coordinates(3), [dict(x=[0.1 * s], y=[0.0], z=[1.0]) for s in range(3)]
    fig = add_parameter_frames(_figure(), trace=1, coordinates=coords, labels=["a", "b", "c"], active=2,
                               also={0: means}, name="cloud (n on the slider below)")
    for frame, c, m in zip(fig.frames, coords, means):
        assert frame.traces == (1, 0)
        np.testing.assert_allclose(frame.data[0].x, c["x"])
        assert list(frame.data[1].x) == m["x"] and frame.data[1].name is None   # only the first is renamed
    assert list(fig.data[0].x) == [0.2] and fig.data[1].name == "cloud (n on the slider below)"


@pytest.mark.parametrize("kwargs, match", [
    (dict(trace=1, coordinates=[], labels=[]), "non-empty"),
    (dict(trace=1, coordinates=_coordinates(2), labels=["a"]), "equal length"),
    (dict(trace=1, coordinates=_coordinates(2), labels=["a", "a"]), "unique"),
    (dict(trace=5, coordinates=_coordinates(1), labels=["a"]), "got 5"),
    (dict(trace=1, coordinates=_coordinates(1), labels=["a"], active=3), "got 3"),
    (dict(trace=1, coordinates=_coordinates(1), labels=["a"], also={1: _coordinates(1)}), "twice"),
    (dict(trace=1, coordinates=_coordinates(1), labels=["a"], also={4: _coordinates(1)}), "also must index"),
    (dict(trace=1, coordinates=_coordinates(2), labels=["a", "b"], also={0: _coordinates(1)}), "one coordinate"),
])
def test_bad_arguments_raise(kwargs, match):
    with pytest.raises(ValueError, match=match):
        add_parameter_frames(_figure(), **kwargs)


def test_two_dimensional_frames_skip_the_redraw():
    fig = go.Figure([go.Scatter(x=[0.0], y=[0.0])])
    coords = [dict(x=[0.0, 1.0], y=[1.0, 0.0]), dict(x=[0.5, 0.5], y=[0.0, 0.0])]
    add_parameter_frames(fig, trace=0, coordinates=coords, labels=["1", "2"], redraw=False)
    play, pause = fig.layout.updatemenus[0].buttons
    assert not play.args[1]["frame"]["redraw"] and not pause.args[1]["frame"]["redraw"]
    assert not any(step.args[1]["frame"]["redraw"] for step in fig.layout.sliders[0].steps)
