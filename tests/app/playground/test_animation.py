"""The playground's animations: a toggle bound to the URL adds plotly frames over ε, or over
the sample size n when ``?anim_over=n``."""

import numpy as np

from engine.manifolds import Sphere
from engine.pipelines.sample_size_frames import sample_size_grid
from engine.viz import palette
from tests.app import charts
from tests.app.charts import specs, values
from tests.app.conftest import PLAYGROUND, assert_clean, messages, run_page
from ui.playground.animation import EPSILON_GRID

S2 = Sphere(2)


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
    errors = [np.mean(values(frame["data"][0]["customdata"])) for frame in spec["frames"]]
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
    found = specs(at)
    assert len(found) == 2
    sphere, flat = found
    assert [f["name"] for f in flat["frames"]] == [f["name"] for f in sphere["frames"]]
    # Same releases: the distance from the centre of the flat view is the geodesic error on the sphere.
    for flat_frame, sphere_frame in zip(flat["frames"], sphere["frames"]):
        flat_trace, sphere_trace = flat_frame["data"][0], sphere_frame["data"][0]
        np.testing.assert_allclose(values(flat_trace["customdata"]), values(sphere_trace["customdata"]))
        np.testing.assert_allclose(np.hypot(values(flat_trace["x"]), values(flat_trace["y"])),
                                   values(flat_trace["customdata"]), atol=1e-12)
    assert not any(step["args"][1]["frame"]["redraw"] for step in flat["layout"]["sliders"][0]["steps"])
    at = run_page(PLAYGROUND)
    assert len(specs(at)) == 1


def _points(trace) -> np.ndarray:
    return np.stack([values(trace[axis]) for axis in "xyz"], axis=-1)


def test_n_animation_moves_releases_mean_and_data_through_nested_prefixes():
    at = run_page(PLAYGROUND, {"anim": "true", "anim_over": "n", "n": "100", "eps": "2.5"})
    assert_clean(at)
    assert at.selectbox(key="anim_over").value == "n" and at.query_params["anim_over"] == "n"
    spec = _spec(at)
    sizes = sample_size_grid(100)
    assert [frame["name"] for frame in spec["frames"]] == [str(n) for n in sizes]
    slider = spec["layout"]["sliders"][0]
    assert slider["steps"][slider["active"]]["label"] == "100" and slider["currentvalue"]["prefix"] == "n = "
    names = [trace["name"] for trace in spec["data"]]
    releases, mean, data = spec["frames"][0]["traces"]
    assert names[releases].endswith("(n on the slider below)")
    assert names[mean] == palette.label("true mean") and names[data] == palette.label("data")
    means, clouds, records = [], [], []
    for frame in spec["frames"]:
        cloud, centre, points = (_points(trace) for trace in frame["data"])
        means.append(centre[0]), clouds.append(cloud), records.append(points)
        # The hover error is the distance to this frame's own mean.
        np.testing.assert_allclose(values(frame["data"][0]["customdata"]), S2.dist(centre[0], cloud), atol=1e-9)
    # Nested prefixes: frame n shows n records, each frame's records start with the previous frame's.
    assert [len(r) for r in records] == sizes
    for smaller, larger in zip(records, records[1:]):
        np.testing.assert_array_equal(larger[:len(smaller)], smaller)
    # The last frame is the page's data set and its mean.
    np.testing.assert_allclose(np.sort(records[-1], axis=0), np.sort(_points(spec["data"][data]), axis=0))
    assert S2.dist(means[-1], _points(spec["data"][mean])[0]) < 1e-4
    # Every release moves towards its frame's mean as n grows; the cloud shrinks about like 1/n.
    errors = np.array([values(frame["data"][0]["customdata"]) for frame in spec["frames"]])
    assert np.all(np.diff(errors, axis=0) <= 1e-12) and errors[0].mean() > 8 * errors[-1].mean()
    # The scene holds every frame's releases.
    scene = spec["layout"]["scene"]
    every = np.concatenate(clouds)
    for axis, column in zip("xyz", every.T):
        low, high = scene[f"{axis}axis"]["range"]
        assert low <= column.min() and column.max() <= high
    assert any("first n records" in caption.value for caption in at.caption)


def test_n_animation_in_the_tangent_plane_keeps_each_release_on_its_ray():
    at = run_page(PLAYGROUND, {"anim": "true", "anim_over": "n"})
    sphere, flat = specs(at)
    assert [f["name"] for f in flat["frames"]] == [f["name"] for f in sphere["frames"]]
    coords = np.array([np.stack([values(f["data"][0]["x"]), values(f["data"][0]["y"])], axis=-1) for f in flat["frames"]])
    radii = np.linalg.norm(coords, axis=-1)
    for sphere_frame, r in zip(sphere["frames"], radii, strict=True):
        np.testing.assert_allclose(r, values(sphere_frame["data"][0]["customdata"]), atol=1e-12)
    # Directions carried by parallel transport and axes carried the same way: each release keeps its angle.
    angles = np.arctan2(coords[..., 1], coords[..., 0])
    np.testing.assert_allclose(np.cos(angles - angles[-1]), 1.0, atol=1e-9)
    assert not any(step["args"][1]["frame"]["redraw"] for step in flat["layout"]["sliders"][0]["steps"])


def test_the_select_switches_between_epsilon_and_n_and_the_toggle_removes_it():
    at = run_page(PLAYGROUND, {"anim": "true"})
    assert at.selectbox(key="anim_over").value == "eps"
    assert _spec(at)["layout"]["sliders"][0]["currentvalue"]["prefix"] == "ε = "
    at.selectbox(key="anim_over").select("n").run()
    assert_clean(at)
    assert _spec(at)["layout"]["sliders"][0]["currentvalue"]["prefix"] == "n = "
    assert at.query_params["anim_over"] == "n" and len(specs(at)) == 2
    at.toggle(key="anim").set_value(False).run()
    assert_clean(at)
    assert not _spec(at).get("frames") and not [s for s in at.selectbox if s.key == "anim_over"]
    assert len(specs(at)) == 1


def test_bad_address_values_are_named_with_what_they_may_be():
    at = run_page(PLAYGROUND, {"anim": "true", "anim_over": "size"})
    assert any("anim_over" in m and "it must be one of eps, n" in m for m in messages(at, "warning"))
    assert _spec(at)["layout"]["sliders"][0]["currentvalue"]["prefix"] == "ε = "
    at = run_page(PLAYGROUND, {"anim": "maybe", "anim_over": "n"})
    assert any("anim" in m and "it must be true or false" in m for m in messages(at, "warning"))
    assert not _spec(at).get("frames")
    at = run_page(PLAYGROUND, {"space": "hyperbolic", "anim": "true", "anim_over": "n"})
    assert not [s for s in at.selectbox if s.key == "anim_over"] and not messages(at, "warning")


def test_every_mechanism_moves_with_the_animated_epsilon():
    """Each frame releases every shown mechanism at the frame's ε, so the Euclidean and Gaussian
    clouds shrink along the slider as the Riemannian one does (they stayed at the sidebar's ε)."""
    at = run_page(PLAYGROUND, {"anim": "true", "eps": "1", "mech": "exact,euclid,gauss"})
    spec = _spec(at)
    names = [trace["name"] for trace in spec["data"]]
    epsilons = np.array([float(frame["name"]) for frame in spec["frames"]])
    for key in ("euclidean laplace", "tangent gaussian"):
        shown = palette.label(key)
        index = names.index(shown)
        assert index in spec["frames"][0]["traces"], f"{shown} does not move with the slider"
        position = spec["frames"][0]["traces"].index(index)
        clouds = [_points(frame["data"][position]) for frame in spec["frames"]]
        spread = np.array([np.mean(np.linalg.norm(c - c.mean(axis=0), axis=1)) for c in clouds])
        assert np.all(np.diff(spread) < 0) and spread[0] > 30 * spread[-1]
        if key == "euclidean laplace":
            # One set of standard draws scaled by σ_E = Δ_E/ε: the spread about the centroid is ∝ 1/ε.
            np.testing.assert_allclose(spread * epsilons, spread[0] * epsilons[0], rtol=1e-9)
            gaps = names.index(f"{shown}: gap to the sphere")
            assert gaps in spec["frames"][0]["traces"]
            for frame in spec["frames"]:
                line = _points(frame["data"][spec["frames"][0]["traces"].index(gaps)]).reshape(-1, 3, 3)
                np.testing.assert_allclose(line[:, 0], _points(frame["data"][position]))


def test_epsilon_animation_keeps_the_scene_on_the_data():
    """The ε animation's scene is the static figure's (data and the sidebar's releases); holding
    the releases at ε = 0.1 zoomed out to the whole sphere."""
    still = _spec(run_page(PLAYGROUND))["layout"]["scene"]
    moving = _spec(run_page(PLAYGROUND, {"anim": "true"}))["layout"]["scene"]
    for axis in "xyz":
        assert moving[f"{axis}axis"]["range"] == still[f"{axis}axis"]["range"]


def _beyond(spec, frame) -> int:
    """Releases of one frame outside the scene, computed from the chart itself: the dome is the first trace
    (its farthest vertex from the camera's "up", the dome's centre, gives its reach) and plotly clips what
    lies outside the axes' ranges."""
    scene = spec["layout"]["scene"]
    facing = np.array([scene["camera"]["up"][axis] for axis in "xyz"])
    reach = S2.dist(facing, _points(spec["data"][0])).max()
    ranges = np.array([scene[f"{axis}axis"]["range"] for axis in "xyz"])
    count = 0
    for index, trace in zip(frame["traces"], frame["data"]):
        if spec["data"][index]["mode"] != "markers":
            continue
        points = _points(trace)
        projected = points / np.linalg.norm(points, axis=1, keepdims=True)
        outside = np.any((points < ranges[:, 0]) | (points > ranges[:, 1]), axis=1)
        count += int((outside | (S2.dist(facing, projected) > reach + 1e-6)).sum())
    return count


def test_the_caption_counts_the_releases_the_frames_put_beyond_the_dome():
    """Over ε the scene stays on the data, so at ε = 0.1 on the slider releases lay beyond the drawn
    dome without a word; the caption now counts them, frame by frame as the chart draws them."""
    at = run_page(PLAYGROUND, {"anim": "true", "eps": "1"})
    assert_clean(at)
    spec = _spec(at)
    counts = [_beyond(spec, frame) for frame in spec["frames"]]
    some = [s for s, count in enumerate(counts) if count]
    assert some and some[0] == 0 and counts[0] > 50, counts
    names = [frame["name"] for frame in spec["frames"]]
    caption = " ".join(c.value for c in at.caption)
    expected = f"Beyond the drawn dome: {counts[0]} of 400 releases at ε = 0.1 on the slider"
    if some[-1] != 0:
        expected += f", {counts[some[-1]]} at ε = {names[some[-1]]}"
    assert expected + f", none from ε = {names[some[-1] + 1]} on." in caption
    assert "a smaller ε in the sidebar widens it" in caption
    # At ε = 0.1 in the sidebar the scene is the whole sphere: the same frame leaves far fewer out, and no advice.
    wide = run_page(PLAYGROUND, {"anim": "true", "eps": "0.1"})
    assert _beyond(_spec(wide), _spec(wide)["frames"][0]) < counts[0] / 10
    assert "widens it" not in " ".join(c.value for c in wide.caption)
    assert "Beyond the drawn dome" not in " ".join(c.value for c in run_page(PLAYGROUND).caption)
