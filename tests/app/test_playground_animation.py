"""The playground's ε animation (issue 15): a toggle bound to the URL adds plotly frames over ε."""

import numpy as np

from tests.app import charts
from tests.app.conftest import PLAYGROUND, assert_clean, run_page
from ui.playground.animation import EPSILON_GRID


def _spec(at) -> dict:
    return charts.specs(at)[0]


def test_animation_toggle_adds_one_frame_per_epsilon():
    at = run_page(PLAYGROUND, {"anim": "true", "eps": "2.5"})
    assert_clean(at)
    assert at.toggle(key="anim").value is True
    spec = _spec(at)
    names = [frame["name"] for frame in spec["frames"]]
    assert names == [f"{e:g}" for e in sorted(set(EPSILON_GRID) | {2.5})]
    slider = spec["layout"]["sliders"][0]
    assert slider["steps"][slider["active"]]["label"] == "2.5"
    # Larger ε, releases closer to the true mean: the mean geodesic error shrinks along the frames.
    errors = [np.mean(charts.values(frame["data"][0]["customdata"])) for frame in spec["frames"]]
    assert np.all(np.diff(errors) <= 1e-12) and errors[0] > 5 * errors[-1]
    assert at.query_params["anim"] == "true"


def test_animation_is_off_by_default_and_absent_off_the_sphere():
    at = run_page(PLAYGROUND)
    assert at.toggle(key="anim").value is False
    assert not _spec(at).get("frames")
    at = run_page(PLAYGROUND, {"space": "hyperbolic", "anim": "true"})
    assert_clean(at)
    assert not [t for t in at.toggle if t.key == "anim"]
    assert not _spec(at).get("frames")


def test_tangent_view_animates_the_same_frames_without_redraws():
    at = run_page(PLAYGROUND, {"anim": "true", "eps": "2.5"})
    assert_clean(at)
    assert charts.live_keys(at) == ["playground-chart"]  # the 3D scene is updated in place
    found = charts.specs(at)
    assert len(found) == 2
    sphere, flat = found
    assert [f["name"] for f in flat["frames"]] == [f["name"] for f in sphere["frames"]]
    # Same releases: the distance from the centre of the flat view is the geodesic error on the sphere.
    for flat_frame, sphere_frame in zip(flat["frames"], sphere["frames"]):
        flat_trace, sphere_trace = flat_frame["data"][0], sphere_frame["data"][0]
        np.testing.assert_allclose(charts.values(flat_trace["customdata"]), charts.values(sphere_trace["customdata"]))
        np.testing.assert_allclose(np.hypot(charts.values(flat_trace["x"]), charts.values(flat_trace["y"])),
                                   charts.values(flat_trace["customdata"]), atol=1e-12)
    assert not any(step["args"][1]["frame"]["redraw"] for step in flat["layout"]["sliders"][0]["steps"])
    at = run_page(PLAYGROUND)
    assert len(charts.specs(at)) == 1
