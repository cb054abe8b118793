"""Figure builders of engine.viz: traces, geometry of what is drawn, exports."""

import re
import struct

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from engine.manifolds.hyperbolic import Hyperbolic
from engine.manifolds.kendall import Kendall
from engine.manifolds.sphere import Sphere
from engine.viz import palette
from engine.viz.curves import band_figure, histogram_with_density, trace_figure
from engine.viz.export import (
    figure_to_html,
    figure_to_png,
    offscreen_rendering_available,
    png_export_available,
    scene_png,
)
from engine.viz.poincare import geodesic_arc, poincare_figure
from engine.viz.shapes import shapes_figure
from engine.viz.spd_cone import spd_cone_figure
from engine.viz.sphere import CAP_LIFT, FRAME_PAD, MIN_ASPECT, ball_boundary, sphere_figure

S2 = Sphere(2)
H2 = Hyperbolic(2)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _xyz(trace) -> np.ndarray:
    return np.stack([np.asarray(trace[c], dtype=float) for c in "xyz"], axis=-1)


def _xy(trace) -> np.ndarray:
    return np.stack([np.asarray(trace[c], dtype=float) for c in "xy"], axis=-1)


def _by_name(fig: go.Figure, name: str):
    matches = [t for t in fig.data if t.name == name]
    assert len(matches) == 1, (name, [t.name for t in fig.data])
    return matches[0]


def _png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == PNG_SIGNATURE
    return struct.unpack(">II", png[16:24])


# ----- palette ---------------------------------------------------------------------------------
def test_palette_has_one_colour_per_mechanism_and_large_fonts():
    mechanisms = ["riemannian laplace", "riemannian laplace (mh)", "euclidean laplace",
                  "tangent gaussian", "dp-rgd", "non-private"]
    colours = [palette.color(m) for m in mechanisms + ["data", "true mean"]]
    assert len(set(colours)) == len(colours)
    assert set(palette.COLORS) == set(palette.LABELS) == set(palette.SYMBOLS)
    assert palette.color("Euclidean Laplace") == palette.color("euclidean laplace")
    assert palette.rgba("#D55E00", 0.5) == "rgba(213, 94, 0, 0.5)"
    assert palette.TEMPLATE.layout.font.size >= 14
    assert palette.TEMPLATE.layout.xaxis.tickfont.size >= 14
    assert palette.layout("t", scene=True).legend.y < 0  # the legend sits below the scene
    flat = palette.layout("t").legend  # and at a 2D figure's bottom edge, under its x axis's title at any height
    assert (flat.yref, flat.y, flat.yanchor) == ("container", 0.0, "bottom")


def test_palette_refuses_unknown_names_and_bad_colours():
    with pytest.raises(ValueError, match="'kng'"):
        palette.color("kng")
    with pytest.raises(ValueError, match="'red'"):
        palette.rgba("red", 0.5)


# ----- sphere ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sphere_case():
    rng = np.random.default_rng(0)
    center = S2.polar_point(0.6, 0.4)
    data = S2.exp(center, 0.4 * S2.to_tangent(center, rng.standard_normal((40, 3))))
    intrinsic = S2.exp(center, 0.1 * S2.to_tangent(center, rng.standard_normal((25, 3))))
    euclidean = center + 0.2 * rng.standard_normal((25, 3))
    fig = sphere_figure(data=data, mean=center, center=center, radius=0.7, title="S²",
                        releases={"riemannian laplace": intrinsic, "euclidean laplace": euclidean})
    return dict(center=center, data=data, intrinsic=intrinsic, euclidean=euclidean, fig=fig)


def test_the_cloud_that_lands_closer_is_drawn_last_and_nearly_opaque_even_when_wider():
    """The Euclidean releases float off the sphere, so their cloud is the wider in R³ though their
    projections x/|x| land closer; the draw order follows where each cloud lands (``landing_distance``), not its
    width: the closer one last, larger and nearly opaque, the other first and translucent."""
    from engine.viz._common import CLOSEST_OPACITY, CLOSEST_SIZE, CLOUD_OPACITY, CLOUD_SIZE, OTHER_OPACITY
    rng = np.random.default_rng(4)
    center = S2.polar_point(0.6, 0.4)
    near = S2.exp(center, 0.02 * S2.to_tangent(center, rng.standard_normal((50, 3))))
    floating = near * rng.uniform(0.5, 1.5, (50, 1))  # wide along the radius, landing where ``near`` lies
    far = S2.exp(center, 0.08 * S2.to_tangent(center, rng.standard_normal((50, 3))))
    fig = sphere_figure(data=None, mean=center, center=center, radius=0.7,
                        releases={"exact": far, "euclid": floating})
    clouds = [trace for trace in fig.data if trace.name in ("Riemannian Laplace", "Euclidean Laplace")]
    assert np.ptp(floating, axis=0).max() > np.ptp(far, axis=0).max()
    assert [(t.name, t.marker.size, t.marker.opacity) for t in clouds] == [
        ("Riemannian Laplace", CLOUD_SIZE, OTHER_OPACITY), ("Euclidean Laplace", CLOSEST_SIZE, CLOSEST_OPACITY)]
    alone = sphere_figure(data=None, mean=center, center=center, radius=0.7, releases={"exact": far})
    (cloud,) = [trace for trace in alone.data if trace.name == "Riemannian Laplace"]
    assert (cloud.marker.size, cloud.marker.opacity) == (CLOUD_SIZE, CLOUD_OPACITY)


def test_sphere_figure_traces(sphere_case):
    fig = sphere_case["fig"]
    assert isinstance(fig, go.Figure)
    assert [t.type for t in fig.data] == ["mesh3d", "mesh3d"] + ["scatter3d"] * 6
    names = [t.name for t in fig.data]
    assert names[2:] == ["data ball, r = 0.7", "Data", "Euclidean Laplace", "Euclidean Laplace: gap to the sphere",
                         "Riemannian Laplace", "True mean (not private)"]  # the widest cloud first, the mean last
    assert fig.layout.scene.aspectmode == "cube"
    eye = np.array([fig.layout.scene.camera.eye[c] - fig.layout.scene.camera.center[c] for c in "xyz"])
    assert eye @ sphere_case["center"] / np.linalg.norm(eye) > 0.25  # m0's side of the sphere, at a grazing angle


def test_sphere_points_and_mesh_lie_on_the_unit_sphere(sphere_case):
    fig = sphere_case["fig"]
    for name in ["Data", "True mean (not private)", "Riemannian Laplace"]:
        np.testing.assert_allclose(np.linalg.norm(_xyz(_by_name(fig, name)), axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(_xyz(_by_name(fig, "sphere")), axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(_xyz(fig.data[1]), axis=1), CAP_LIFT, atol=1e-12)
    mesh = _by_name(fig, "sphere")
    assert max(max(mesh.i), max(mesh.j), max(mesh.k)) < len(mesh.x)
    assert 0 < mesh.opacity < 1


def test_sphere_ball_boundary_is_the_geodesic_circle(sphere_case):
    center = sphere_case["center"]
    circle = _xyz(_by_name(sphere_case["fig"], "data ball, r = 0.7"))
    np.testing.assert_allclose(S2.dist(center, circle), 0.7, atol=1e-12)
    np.testing.assert_allclose(circle[0], circle[-1])
    np.testing.assert_allclose(ball_boundary(center, 0.7), circle)


def test_sphere_euclidean_releases_are_not_projected(sphere_case):
    fig, euclidean = sphere_case["fig"], sphere_case["euclidean"]
    np.testing.assert_array_equal(_xyz(_by_name(fig, "Euclidean Laplace")), euclidean)
    gaps = _xyz(_by_name(fig, "Euclidean Laplace: gap to the sphere")).reshape(-1, 3, 3)
    np.testing.assert_array_equal(gaps[:, 0], euclidean)
    np.testing.assert_allclose(gaps[:, 1], euclidean / np.linalg.norm(euclidean, axis=1, keepdims=True))
    assert np.isnan(gaps[:, 2]).all()
    errors = np.asarray(_by_name(fig, "Riemannian Laplace").customdata, dtype=float)
    np.testing.assert_allclose(errors, S2.dist(sphere_case["center"], sphere_case["intrinsic"]))


def _scene_box(fig) -> tuple[np.ndarray, np.ndarray]:
    scene = fig.layout.scene
    ranges = np.array([getattr(scene, f"{c}axis").range for c in "xyz"], dtype=float)
    return ranges[:, 0], ranges[:, 1]


def _inside(fig, points) -> bool:
    lo, hi = _scene_box(fig)
    points = points[np.isfinite(points).all(axis=1)]
    return bool(np.all((points >= lo) & (points <= hi)))


def _released(scale: float, n: int = 200, seed: int = 0) -> tuple[np.ndarray, dict]:
    """A mean near the north pole, data in a cap of radius 0.4, and clouds of spread ``scale``."""
    rng = np.random.default_rng(seed)
    center = S2.polar_point(0.2, 0.3)
    data = S2.exp(center, 0.4 * S2.to_tangent(center, rng.uniform(-1, 1, (50, 3))))
    clouds = {"riemannian laplace": S2.exp(center, scale * S2.to_tangent(center, rng.standard_normal((n, 3)))),
              "euclidean laplace": center + scale * rng.standard_normal((n, 3))}
    return center, dict(data=data, mean=center, center=center, radius=0.4, releases=clouds)


@pytest.mark.parametrize("scale", [1e-4, 0.05, 1.5])
def test_sphere_frame_holds_every_release_and_shows_the_clouds(scale):
    """At ε = 0.05 the releases left the frame; at n = 500, ε = 10 every cloud shrank
    into the mean's marker; the old camera clipped the sphere."""
    center, args = _released(scale)
    fig = sphere_figure(**args)
    for name in ["Riemannian Laplace", "Euclidean Laplace", "Euclidean Laplace: gap to the sphere", "True mean (not private)"]:
        assert _inside(fig, _xyz(_by_name(fig, name))), name
    lo, hi = _scene_box(fig)
    clouds = np.concatenate(list(args["releases"].values()))
    spread = (clouds.max(axis=0) - clouds.min(axis=0)).max()
    zoomed = fig.layout.meta["zoomed_on_releases"]
    assert zoomed == (scale < 0.01)
    # zoomed, the clouds fill the frame but for the dome's margin; else they span at least
    # 1/(ZOOM_RATIO·(1 + pad)) of it
    assert spread > (1 / (1 + FRAME_PAD) - 0.1 if zoomed else 0.14) * (hi - lo).max()
    if scale >= 0.05:
        assert _inside(fig, args["data"])


def _screen(fig, points: np.ndarray, aspect: float = MIN_ASPECT) -> np.ndarray:
    """Where plotly.js draws ``points`` ``(k, 3)``: (height, width) on screen in [-1, 1], by its perspective
    camera (field of view π/4; the cube of the axes' ranges mapped onto [-1/2, 1/2]³)."""
    scene = fig.layout.scene
    assert scene.aspectmode == "cube"
    lo, hi = _scene_box(fig)
    local = (points - (lo + hi) / 2) / (hi - lo)
    eye, centre, up = (np.array([getattr(scene.camera, part)[c] for c in "xyz"]) for part in ("eye", "center", "up"))
    back = (eye - centre) / np.linalg.norm(eye - centre)
    up = up - (up @ back) * back
    up /= np.linalg.norm(up)
    depth = np.linalg.norm(eye - centre) - (local - centre) @ back
    across = np.stack([(local - centre) @ up, (local - centre) @ np.cross(up, back)], axis=1)
    return across / depth[:, None] / np.tan(np.pi / 8) / np.array([1.0, aspect])


def test_sphere_camera_shows_heights_above_the_surface():
    """The Euclidean releases did not visibly float. The eye sits at a grazing angle
    to the tangent plane, the radius pointing up on screen: a release at height h above the sphere is
    drawn higher than its radial projection by a visible share of the picture."""
    center, args = _released(0.05)
    fig = sphere_figure(**args)
    camera = fig.layout.scene.camera
    eye = np.array([camera.eye[c] - camera.center[c] for c in "xyz"])
    tilt = np.degrees(np.arccos(eye @ center / np.linalg.norm(eye)))
    assert 40 < tilt < 60
    np.testing.assert_allclose(np.array([camera.up[c] for c in "xyz"]) @ center, 1.0, atol=0.05)  # radius up
    floating = args["releases"]["euclidean laplace"]
    norms = np.linalg.norm(floating, axis=1)
    lifted = floating[norms > 1.05]
    rise = _screen(fig, lifted)[:, 0] - _screen(fig, lifted / np.linalg.norm(lifted, axis=1, keepdims=True))[:, 0]
    assert lifted.size and np.all(rise > 0.02)  # above the surface is up on screen, by 1 % of the height or more


def _eye_angle(fig, direction) -> float:
    """Degrees between the camera's eye (seen from its centre) and ``direction``."""
    camera = fig.layout.scene.camera
    eye = np.array([camera.eye[c] - camera.center[c] for c in "xyz"])
    return float(np.degrees(np.arccos(eye @ direction / np.linalg.norm(eye) / np.linalg.norm(direction))))


@pytest.mark.parametrize("scale", [1e-4, 0.05, 0.3])
def test_a_sphere_scene_with_nothing_off_the_surface_faces_its_mean(scale):
    """The Lesson's step 2 (the intrinsic cloud alone) showed its cap nearly edge-on (65° off the
    radius), both clouds squashed in a band under the mean's diamond. With nothing above the surface to show, the
    eye faces the mean, and the cap is drawn as a round disc: as tall on screen as it is wide."""
    center, args = _released(scale)
    fig = sphere_figure(**{**args, "releases": {"riemannian laplace": args["releases"]["riemannian laplace"]}})
    assert _eye_angle(fig, center) < 25
    if not fig.layout.meta["zoomed_on_releases"]:
        seen = _screen(fig, _xyz(_by_name(fig, "data ball, r = 0.4")), aspect=1.0)
        height, width = np.ptp(seen, axis=0)
        assert height > 0.85 * width
    floating = sphere_figure(**args)  # a cloud off the sphere: tilted so that its heights show, still facing m0
    assert 25 < _eye_angle(floating, center) < 60


@pytest.mark.parametrize("scale", [1e-4, 0.02, 0.3])
def test_sphere_scene_is_framed_on_the_data(scale):
    """40 % of the chart's height was empty and the scene a grey bowl around the whole
    sphere. The axes' ranges now hold every drawn point and no more than the data's cap with its
    margin, and the camera's picture of them fills the scene's height."""
    center, args = _released(scale)
    fig = sphere_figure(**args)
    zoomed = fig.layout.meta["zoomed_on_releases"]
    framed = [t for t in fig.data if not (zoomed and t.name in ("Data", "data ball, r = 0.4"))]
    drawn = np.concatenate([_xyz(t) for t in framed])
    drawn = drawn[np.isfinite(drawn).all(axis=1)]
    assert _inside(fig, drawn)
    lo, hi = _scene_box(fig)
    points = np.concatenate([_xyz(t) for t in framed if t.name != "sphere"])
    points = points[np.isfinite(points).all(axis=1)]
    reach = S2.dist(center, points / np.linalg.norm(points, axis=1, keepdims=True)).max()
    heights = np.abs(np.linalg.norm(points, axis=1) - 1).max()
    # the dome: FRAME_PAD beyond the farthest point (seen from the frame's centre, near m0)
    assert (hi - lo).max() < 2 * np.sin(min((1 + FRAME_PAD) * reach + 0.05, np.pi / 2)) + 2 * heights + 0.01
    seen = _screen(fig, drawn)
    assert np.abs(seen).max() <= 1.0  # nothing drawn leaves the picture
    assert seen[:, 0].max() - seen[:, 0].min() > 1.6 or seen[:, 1].max() - seen[:, 1].min() > 1.6  # and it fills it


def test_sphere_true_mean_is_drawn_last_and_largest(sphere_case):
    """The true mean's marker was hidden under the Euclidean cloud. It is now the last
    trace (plotly.js paints translucent traces in order, after opaque ones), larger than every cloud's
    markers, outlined in white."""
    fig = sphere_case["fig"]
    last = fig.data[-1]
    assert last.name == "True mean (not private)"
    markers = [t for t in fig.data[:-1] if t.type == "scatter3d" and t.mode == "markers"]
    assert markers and all(last.marker.size > 1.5 * t.marker.size for t in markers)
    assert last.marker.opacity < 1 and last.marker.line.color == "#FFFFFF" and last.marker.line.width >= 2
    sizes = {t.name: t.marker.size for t in markers}
    assert sizes["Riemannian Laplace"] > sizes["Euclidean Laplace"]  # the tighter cloud drawn later and larger


def test_sphere_frame_holds_the_points_of_every_animation_frame():
    """An animation shares one camera: a zoomed figure widens to hold the larger clouds of other frames."""
    center, args = _released(1e-4)
    wide = S2.exp(center, 0.3 * S2.to_tangent(center, np.random.default_rng(1).standard_normal((40, 3))))
    fig = sphere_figure(**args, hold=wide)
    assert _inside(fig, wide) and not fig.layout.meta["zoomed_on_releases"]
    assert "hold" not in [t.name for t in fig.data]
    with pytest.raises(ValueError, match="hold"):
        sphere_figure(**args, hold=np.ones((3, 2)))


def test_zoomed_sphere_draws_a_fine_patch_on_the_surface():
    center, args = _released(1e-4)
    fig = sphere_figure(**args)
    surface = _xyz(_by_name(fig, "sphere"))
    np.testing.assert_allclose(np.linalg.norm(surface, axis=1), 1.0, atol=1e-12)
    lo, hi = _scene_box(fig)
    assert np.mean(np.all((surface >= lo) & (surface <= hi), axis=1)) > 0.05  # vertices inside the frame


@pytest.mark.parametrize("bad", [dict(radius=0.0), dict(radius=3.5), dict(center=[0.0, 0.0, 2.0]),
                                 dict(releases={"kng": np.zeros((2, 3))}),
                                 dict(data=np.ones((4, 2)))])
def test_sphere_figure_rejects_bad_input(bad):
    args = dict(data=None, mean=[0.0, 0.0, 1.0], releases={}, center=[0.0, 0.0, 1.0], radius=0.5)
    with pytest.raises(ValueError):
        sphere_figure(**{**args, **bad})


# ----- SPD cone --------------------------------------------------------------------------------
def test_spd_cone_counts_releases_outside_the_cone():
    rng = np.random.default_rng(1)
    g = 0.5 * rng.standard_normal((30, 2, 2))
    data = g @ np.swapaxes(g, -1, -2) + 0.2 * np.eye(2)
    mean = data.mean(axis=0)
    noise = 0.7 * rng.standard_normal((200, 2, 2))
    euclidean = mean + 0.5 * (noise + np.swapaxes(noise, -1, -2))
    fig = spd_cone_figure(data=data, mean=mean,
                          releases={"riemannian laplace": data[:10], "euclidean laplace": euclidean})
    outside = int((np.linalg.eigvalsh(euclidean)[:, 0] <= 0).sum())
    assert 0 < outside < 200
    names = [t.name for t in fig.data]
    assert "Riemannian Laplace — 0 of 10 not positive definite" in names
    label = next(n for n in names if n.startswith("Euclidean Laplace —"))
    assert int(re.search(r"— (\d+) of 200 not positive definite", label).group(1)) == outside
    flagged = _by_name(fig, "Euclidean Laplace: outside the cone")
    assert len(flagged.x) == outside and flagged.marker.symbol == palette.VIOLATION_SYMBOL
    assert len(_by_name(fig, label).x) == 200 - outside
    # plot coordinates are (a, √2 b, c) and the cone surface is det = 0
    xyz = _xyz(flagged)
    assert np.all((xyz[:, 0] <= 0) | (xyz[:, 0] * xyz[:, 2] - xyz[:, 1] ** 2 / 2 <= 0))
    cone = _xyz(fig.data[0])
    np.testing.assert_allclose(cone[:, 0] * cone[:, 2], cone[:, 1] ** 2 / 2, atol=1e-9)
    assert fig.layout.scene.aspectmode == "cube"
    ranges = np.array([getattr(fig.layout.scene, f"{c}axis").range for c in "xyz"])
    np.testing.assert_allclose(np.ptp(ranges, axis=1), np.ptp(ranges[0]))  # equal scale on every axis


@pytest.mark.parametrize("mark_outside", [True, False])
def test_spd_cone_draws_the_tight_cloud_and_the_mean_on_top_seen_across_the_axis(mark_outside):
    """On the Lesson's SPD cone the Euclidean squares, drawn last and larger, covered the winning
    Riemannian cloud and the true mean (which, opaque, plotly.js painted before every translucent cloud). Now the
    widest cloud comes first and smaller, the tight one after it and larger, every cloud translucent, and the true
    mean last (translucent too, so painted after them) and largest; the camera looks across the cone's axis along
    the clouds' narrowest direction, the axis up on screen (orbit, since turntable forces z up)."""
    rng = np.random.default_rng(3)
    mean = np.array([[1.0, 0.2], [0.2, 0.8]])
    tight = mean + 0.05 * np.eye(2) * rng.uniform(0.5, 1.5, (100, 1, 1))
    noise = rng.standard_normal((100, 2, 2))
    wide = mean + 0.6 * (noise + np.swapaxes(noise, -1, -2))
    fig = spd_cone_figure(data=None, mean=mean, releases={"riemannian laplace": tight, "euclidean laplace": wide},
                          mark_outside=mark_outside)
    markers = [t for t in fig.data if t.type == "scatter3d"]
    names = [t.name for t in markers]
    assert names[-1] == "True mean (not private)"
    first_tight = next(i for i, name in enumerate(names) if name.startswith("Riemannian Laplace"))
    assert all(i < first_tight for i, name in enumerate(names) if name.startswith("Euclidean Laplace"))
    assert all(t.marker.opacity < 1 for t in markers)
    sizes = {name.split(" —")[0]: t.marker.size for name, t in zip(names, markers)}
    assert sizes["True mean (not private)"] > sizes["Riemannian Laplace"] > sizes["Euclidean Laplace"]
    scene = fig.layout.scene
    eye = np.array([scene.camera.eye[c] - scene.camera.center[c] for c in "xyz"])
    axis = np.array([1.0, 0.0, 1.0]) / np.sqrt(2)
    assert abs(eye @ axis) < 1e-9 * np.linalg.norm(eye)
    np.testing.assert_allclose([scene.camera.up[c] for c in "xyz"], axis)
    assert scene.dragmode == "orbit"


def test_spd_cone_rejects_asymmetric_and_indefinite_input():
    eye = np.eye(2)
    with pytest.raises(ValueError, match="symmetric"):
        spd_cone_figure(data=None, mean=[[1.0, 0.5], [0.0, 1.0]], releases={})
    with pytest.raises(ValueError, match="positive definite"):
        spd_cone_figure(data=np.stack([eye, -eye]), mean=eye, releases={})


# ----- Poincaré disk ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hyperbolic_case():
    rng = np.random.default_rng(2)
    disk = rng.uniform(-0.5, 0.5, (20, 2))
    return dict(data=H2.from_poincare(disk), mean=H2.from_poincare(np.array([0.3, -0.2])),
                releases=H2.from_poincare(0.6 * rng.uniform(-1, 1, (15, 2)) / np.sqrt(2)))


def test_poincare_figure_points_inside_and_equal_axes(hyperbolic_case):
    c = hyperbolic_case
    edges = np.array([[0, i] for i in range(1, 20)])
    fig = poincare_figure(data=c["data"], mean=c["mean"], releases={"riemannian laplace": c["releases"]},
                          edges=edges)
    for name in ["Data", "True mean (not private)", "Riemannian Laplace"]:
        assert np.all(np.linalg.norm(_xy(_by_name(fig, name)), axis=1) < 1.0)
    np.testing.assert_allclose(_xy(_by_name(fig, "Riemannian Laplace")), H2.to_poincare(c["releases"]))
    assert list(fig.layout.xaxis.range) == list(fig.layout.yaxis.range) == [-1.05, 1.05]
    assert fig.layout.yaxis.scaleanchor == "x"
    circles = [t for t in fig.data if t.meta == "geodesic circle"]
    assert [t.name for t in circles] == ["ρ = 0.5", "ρ = 1", "ρ = 2"]
    for rho, trace in zip([0.5, 1.0, 2.0], circles):
        np.testing.assert_allclose(H2.dist(c["mean"], H2.from_poincare(_xy(trace))), rho, atol=1e-9)
    edge_path = _xy(_by_name(fig, "edges (geodesics)"))
    assert np.isnan(edge_path[:, 0]).sum() == len(edges)


def test_poincare_circle_about_the_origin_has_radius_tanh_half_rho():
    fig = poincare_figure(data=None, mean=H2.origin, releases={}, circle_radii=(0.3, 1.7))
    for rho in (0.3, 1.7):
        circle = _xy(_by_name(fig, f"ρ = {rho:g}"))
        np.testing.assert_allclose(np.linalg.norm(circle, axis=1), np.tanh(rho / 2), rtol=1e-12)


def test_poincare_geodesic_arc_is_a_geodesic():
    p, q = np.array([0.5, 0.1]), np.array([-0.2, 0.6])
    arc = H2.from_poincare(geodesic_arc(p, q, n=9))
    total = H2.dist(arc[0], arc[-1])
    np.testing.assert_allclose(H2.dist(arc[0], arc) + H2.dist(arc, arc[-1]), total, rtol=1e-9)
    np.testing.assert_allclose(H2.dist(arc[:-1], arc[1:]), total / 8, rtol=1e-9)


def test_poincare_accepts_disk_coordinates_and_rejects_points_outside():
    fig = poincare_figure(data=None, mean=[0.0, 0.0], releases={"tangent gaussian": [[0.1, 0.2]]},
                          coords="poincare")
    np.testing.assert_allclose(_xy(_by_name(fig, "Tangent Gaussian")), [[0.1, 0.2]])
    with pytest.raises(ValueError, match="unit disk"):
        poincare_figure(data=None, mean=[0.0, 0.0], releases={"dp-rgd": [[1.0, 0.2]]}, coords="poincare")
    with pytest.raises(ValueError, match="coords"):
        poincare_figure(data=None, mean=[0.0, 0.0], releases={}, coords="klein")


# ----- Kendall shapes --------------------------------------------------------------------------
def test_shapes_outlines_are_closed_and_optimally_rotated():
    rng = np.random.default_rng(3)
    space = Kendall(5)
    mean = space.preshape(rng.standard_normal((5, 2)))
    noisy = space.exp(mean, 0.15 * space.to_tangent(mean, rng.standard_normal((4, 5, 2))))
    theta = rng.uniform(0, 2 * np.pi, 4)
    rot = np.stack([np.stack([np.cos(theta), -np.sin(theta)], -1),
                    np.stack([np.sin(theta), np.cos(theta)], -1)], -2)
    releases = noisy @ np.swapaxes(rot, -1, -2)  # the same shapes, turned by random angles
    fig = shapes_figure(mean=mean, releases={"riemannian laplace": releases}, data=noisy)
    assert [t.name for t in fig.data] == ["data shapes", "Riemannian Laplace", "true mean shape (not private)"]
    outline = _xy(_by_name(fig, "true mean shape (not private)"))
    np.testing.assert_allclose(outline[0], outline[-1])
    np.testing.assert_allclose(outline[:-1], mean)
    overlays = _xy(_by_name(fig, "Riemannian Laplace")).reshape(4, 7, 2)
    np.testing.assert_allclose(overlays[:, 0], overlays[:, 5])
    assert np.isnan(overlays[:, 6]).all()
    angles = np.linspace(0, 2 * np.pi, 7200, endpoint=False)
    turn = np.stack([np.stack([np.cos(angles), -np.sin(angles)], -1),
                     np.stack([np.sin(angles), np.cos(angles)], -1)], -2)
    for release, drawn in zip(releases, overlays[:, :5]):
        candidates = release @ np.swapaxes(turn, -1, -2)
        brute = np.linalg.norm(candidates - mean, axis=(-2, -1)).min()
        assert np.linalg.norm(drawn - mean) <= brute + 1e-12
        assert np.linalg.norm(drawn - mean) >= brute - 1e-5  # grid spacing 2π/7200
        np.testing.assert_allclose(np.linalg.norm(drawn), 1.0)  # a rotation: size kept
    assert fig.layout.yaxis.scaleanchor == "x"


# ----- curves ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def study():
    ns = [10, 30, 100, 300]
    mechs = ["riemannian laplace", "euclidean laplace", "tangent gaussian"]
    summary = pd.DataFrame([dict(n=n, mechanism=m, error=(i + 1) / np.sqrt(n), se=0.3 / np.sqrt(n))
                            for i, m in enumerate(mechs) for n in ns])
    rng = np.random.default_rng(4)
    reps = pd.DataFrame([dict(n=n, mechanism="riemannian laplace", error=rng.uniform(0.01, 1) / np.sqrt(n))
                         for n in ns for _ in range(5)])
    bound = pd.DataFrame(dict(n=np.geomspace(10, 300, 20), bound=4 / np.sqrt(np.geomspace(10, 300, 20))))
    return summary, reps, bound


def test_band_figure_has_one_band_per_group(study):
    summary, reps, bound = study
    fig = band_figure(summary, x="n", y="error", se="se", group="mechanism", bound=bound,
                      bound_name="Theorem 2 bound", points=reps, log_x=True, log_y=True)
    bands = [t for t in fig.data if t.meta == "band"]
    assert [t.name for t in bands] == ["Riemannian Laplace ± 2 SE", "Euclidean Laplace ± 2 SE",
                                       "Tangent Gaussian ± 2 SE"]
    assert all(t.fill == "toself" for t in bands)
    assert [t.line.color for t in fig.data if t.meta == "mean"] == [
        palette.color("riemannian laplace"), palette.color("euclidean laplace"), palette.color("tangent gaussian")]
    assert len([t for t in fig.data if t.meta == "points"]) == 1
    bound_trace = _by_name(fig, "Theorem 2 bound")
    assert bound_trace.line.dash == "dash" and bound_trace.line.color == palette.color("bound")
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert all(np.all(np.asarray(t.y, dtype=float) > 0) for t in bands)
    rows = summary[summary.mechanism == "euclidean laplace"]
    np.testing.assert_allclose(np.asarray(bands[1].y, dtype=float)[:4], rows.error + 2 * rows.se)


def test_band_figure_colours_and_errors(study):
    summary = study[0].assign(mechanism=lambda d: d.mechanism.map(
        {"riemannian laplace": "κ = 1", "euclidean laplace": "κ = 2", "tangent gaussian": "κ = 4"}))
    with pytest.raises(ValueError, match="κ = 1"):
        band_figure(summary, x="n", y="error", se="se", group="mechanism")
    colours = {"κ = 1": "#0072B2", "κ = 2": "#D55E00", "κ = 4": "#009E73"}
    fig = band_figure(summary, x="n", y="error", se="se", group="mechanism", colors=colours)
    assert [t.name for t in fig.data if t.meta == "mean"] == ["κ = 1", "κ = 2", "κ = 4"]
    with pytest.raises(ValueError, match="'sd'"):
        band_figure(summary, x="n", y="error", se="sd", group="mechanism", colors=colours)


def test_histogram_is_a_density_and_trace_has_a_row_per_quantity():
    rng = np.random.default_rng(5)
    samples = rng.exponential(0.5, 500)
    grid = np.linspace(0, 4, 100)
    fig = histogram_with_density(samples, grid, 2 * np.exp(-2 * grid))
    bars = fig.data[0]
    assert bars.meta == "histogram" and fig.data[1].meta == "density"
    np.testing.assert_allclose(np.sum(np.asarray(bars.y) * np.asarray(bars.width)), 1.0)
    chain = pd.DataFrame(dict(iteration=np.tile(np.arange(50), 2), value=rng.standard_normal(100),
                              quantity=np.repeat(["radius", "log density"], 50)))
    fig = trace_figure(chain, quantity="quantity", burn_in=10)
    assert [t.name for t in fig.data] == ["radius", "log density"]
    assert {t.yaxis for t in fig.data} == {"y", "y2"}


# ----- exports ---------------------------------------------------------------------------------
def test_html_export_is_self_contained(sphere_case):
    html = figure_to_html(sphere_case["fig"])
    assert "plotly" in html and html.lstrip().lower().startswith("<!doctype html>")
    assert not re.search(r"<script[^>]+src=", html)  # plotly.js inlined: works offline
    assert len(html) > 1_000_000
    with pytest.raises(ValueError):
        figure_to_html({"data": []})


@pytest.mark.slow
def test_png_export_produces_a_png(study):
    ok, reason = png_export_available()
    if not ok:
        pytest.skip(f"PNG export unavailable: {reason}")
    fig = band_figure(study[0], x="n", y="error", se="se", group="mechanism")
    assert _png_size(figure_to_png(fig, scale=1, width=500, height=400)) == (500, 400)


@pytest.mark.slow
def test_offscreen_probe_reports_a_reason_and_is_cached():
    ok, reason = offscreen_rendering_available()
    assert isinstance(ok, bool) and isinstance(reason, str) and reason
    assert offscreen_rendering_available() is offscreen_rendering_available()


@pytest.mark.slow
def test_offscreen_scene_has_the_requested_size(sphere_case):
    ok, reason = offscreen_rendering_available()
    if not ok:
        pytest.skip(f"off-screen rendering unavailable: {reason}")
    png = scene_png(points={"data": sphere_case["data"], "true mean": sphere_case["center"][None]},
                    center=sphere_case["center"], curves={"ball": ball_boundary(sphere_case["center"], 0.7)},
                    window_size=(320, 240))
    assert _png_size(png) == (320, 240)
