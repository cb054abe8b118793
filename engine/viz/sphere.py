"""Interactive 3D figure of S^2: surface, geodesic ball B_r(m0), data, mean and release clouds.

The surface is a pyvista ``pv.Sphere`` triangulated and handed to ``go.Mesh3d`` (pyvista builds
meshes, plotly draws them in the browser). Releases are plotted exactly as
given: intrinsic mechanisms put them on the sphere, the Euclidean Laplace baseline of Reimherr,
Bharath & Soto (2021) adds noise in R^3 and its releases float off the sphere; segments to
their radial projections x/|x| make that gap visible.

The scene is a dome: only the patch of the sphere around what is drawn, seen from outside, the radius
pointing up on screen, at a tilt chosen from what is drawn (``eye_tilt``: steep enough that heights above
and below the surface show when a cloud floats off it, else nearly facing the mean), in true proportions
and with the camera's distance fitted to the patch (``fit_camera``). Clouds are drawn the farthest from the true
mean first (``_common.draw_order``: the closest last, larger and nearly opaque). The true mean is the last trace,
larger than every cloud's markers and outlined in white, so it stays visible on top of the clouds.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.manifolds.sphere import Sphere
from engine.validation import check_int, check_positive
from engine.viz import palette
from engine.viz._common import (
    CLOUD_OPACITY,
    CLOUD_SIZE,
    MEAN_OPACITY,
    MEAN_OUTLINE,
    MEAN_SIZE,
    MIN_ASPECT,
    as_clouds,
    as_points,
    draw_order,
    mesh_arrays,
    mesh_trace,
    segments,
)
from engine.viz._common import fit_camera as _fit_camera

_S2 = Sphere(2)
SURFACE_COLOR = "#DCE3EA"
#: The dome's colour: darker than ``SURFACE_COLOR`` so its edge stands out against the page.
DOME_COLOR = "#B8C4CF"
#: The dome is lit evenly: plotly.js shades a mesh differently after a full redraw than after the live
#: chart's in-place animation frames (``ui/live_chart/frontend/frames3d.js``), which must look alike.
DOME_LIGHTING = dict(ambient=1.0, diffuse=0.0, specular=0.0, fresnel=0.0)
CAP_LIFT = 1.002  # the cap sits just above the surface mesh so the two never z-fight
ON_SPHERE_ATOL = 1e-6
#: Framing: the dome reaches this fraction beyond the farthest point drawn (geodesic radius), enough
#: of the sphere around the data for its curvature to show.
FRAME_PAD = 0.3
#: The frame zooms on the releases and the mean when the data ball is this many times wider.
ZOOM_RATIO = 6.0
#: Smallest half-width of the frame (WebGL draws in float32: about 170 ulps at |x| = 1).
MIN_HALF_WIDTH = 1e-5
#: Camera tilts off the radial direction (``eye_tilt``): when a cloud floats off the sphere, 50° (40° above
#: the tangent plane), so heights above the surface show without rotating while the cap still reads as a
#: disc; when nothing does, 20°, facing the mean (a grazing view squashed the cap into a band under its mean).
FLOATING_TILT_DEG = 50.0
FACING_TILT_DEG = 20.0
#: Marker size (px) of the data (the clouds' and the true mean's are ``_common``'s).
DATA_SIZE = 3.0


def sphere_mesh(resolution: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """Triangulated unit sphere from ``pv.Sphere``.

    Parameters
    ----------
    resolution : int
        Number of meridians and of parallels (at least 8).

    Returns
    -------
    points : ndarray, shape ``(V, 3)``
        Vertices, float64 and renormalised to |x| = 1 (pyvista stores float32).
    triangles : ndarray, shape ``(F, 3)``
        Vertex indices of each triangle.
    """
    import pyvista as pv  # pyvista's import (~0.4 s) waits for the first 3D mesh

    res = check_int("resolution", resolution, minimum=8)
    mesh = pv.Sphere(radius=1.0, theta_resolution=res, phi_resolution=res).triangulate()
    points, triangles = mesh_arrays(mesh)
    return points / np.linalg.norm(points, axis=1, keepdims=True), triangles


def ball_name(radius: float) -> str:
    """The legend name of the data ball's boundary drawn at radius r."""
    return f"data ball, r = {radius:.3g}"


def ball_boundary(center, radius: float, n: int = 181) -> np.ndarray:
    """Closed curve ∂B_r(m0) = {exp_m0(r (cos φ e1 + sin φ e2)) : φ ∈ [0, 2π]}, shape ``(n, 3)``.

    (e1, e2) is ``Sphere(2).tangent_basis(center)``; the last point repeats the first.
    """
    center = _S2.check_points(as_points("center", center, (3,), single=True), "center")
    radius = check_positive("radius", radius)
    phi = np.linspace(0.0, 2.0 * np.pi, check_int("n", n, minimum=4))
    basis = _S2.tangent_basis(center)
    directions = np.cos(phi)[:, None] * basis[0] + np.sin(phi)[:, None] * basis[1]
    curve = _S2.exp(center, radius * directions)
    curve[-1] = curve[0]
    return curve


def cap_mesh(center, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Geodesic cap B_r(m0) as a triangulated mesh, lifted by ``CAP_LIFT`` above the sphere.

    A flat ``pv.Disc`` of radius r in the tangent plane (coordinates in the basis of
    ``tangent_basis(center)``) is mapped onto the sphere by exp_m0, so rings are geodesic circles.
    """
    center = _S2.check_points(as_points("center", center, (3,), single=True), "center")
    import pyvista as pv  # pyvista's import (~0.4 s) waits for the first 3D mesh

    radius = check_positive("radius", radius)
    disc = pv.Disc(center=(0.0, 0.0, 0.0), inner=0.0, outer=radius, normal=(0.0, 0.0, 1.0),
                   r_res=12, c_res=96).triangulate()
    flat, triangles = mesh_arrays(disc)
    basis = _S2.tangent_basis(center)
    points = _S2.exp(center, flat[:, :1] * basis[0] + flat[:, 1:2] * basis[1])
    return CAP_LIFT * points, triangles


def view_direction(center, tilt_deg: float = 30.0) -> tuple[np.ndarray, np.ndarray]:
    """Unit eye direction looking at m0 from outside, tilted towards "up", and that up vector.

    Looking straight down the radius would hide radial offsets (Euclidean releases above the
    surface); the tilt keeps them visible. "Up" is the z axis, or the y axis when m0 is near a
    pole.
    """
    center = np.asarray(center, dtype=float)
    up = np.array([0.0, 0.0, 1.0]) if abs(center[2]) < 0.9 else np.array([0.0, 1.0, 0.0])
    toward_up = _S2.to_tangent(center, up)
    toward_up /= np.linalg.norm(toward_up)
    tilt = np.deg2rad(tilt_deg)
    return np.cos(tilt) * center + np.sin(tilt) * toward_up, up


def patch_mesh(center, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """The part of the unit sphere within geodesic distance ``radius`` of ``center``, finely meshed
    (a ``pv.Disc`` mapped by exp_center, like ``cap_mesh`` but on the surface itself)."""
    import pyvista as pv  # pyvista's import (~0.4 s) waits for the first 3D mesh

    disc = pv.Disc(center=(0.0, 0.0, 0.0), inner=0.0, outer=min(radius, np.pi), normal=(0.0, 0.0, 1.0),
                   r_res=24, c_res=96).triangulate()
    flat, triangles = mesh_arrays(disc)
    basis = _S2.tangent_basis(center)
    return _S2.exp(center, flat[:, :1] * basis[0] + flat[:, 1:2] * basis[1]), triangles


def _box(points: np.ndarray) -> tuple[np.ndarray, float]:
    lo, hi = points.min(axis=0), points.max(axis=0)
    return (lo + hi) / 2, float((hi - lo).max()) / 2


def frame(mean, clouds: dict, context) -> tuple[np.ndarray, float, bool]:
    """What a sphere figure shows: the centre ``(3,)`` and half-width of the box holding it, and
    whether it is zoomed.

    The box holds the mean, every release and its radial projection, and ``context`` (the data and
    the ball's boundary, shape ``(k, 3)``). When the context is more than ``ZOOM_RATIO`` times wider
    than the releases (large n and ε), the box holds only the mean and the releases (``zoomed``
    True), so the clouds do not shrink into the mean's marker; without releases it is never zoomed.
    """
    mean = np.asarray(mean, dtype=float)[None]
    nonempty = [c for c in clouds.values() if c.size]
    released = np.concatenate([mean, *nonempty, *(c / np.linalg.norm(c, axis=1, keepdims=True) for c in nonempty)])
    context = np.concatenate([released, np.asarray(context, dtype=float).reshape(-1, 3)])
    mid, half = _box(context)
    zoom_mid, zoom_half = _box(released)
    zoomed = bool(nonempty) and half > ZOOM_RATIO * zoom_half
    if zoomed:
        mid, half = zoom_mid, zoom_half
    return mid, max(half, MIN_HALF_WIDTH), bool(zoomed)


def _nonzero(points: np.ndarray, name: str) -> np.ndarray:
    """``points`` if none is the origin (which has no radial projection), else ``ValueError``."""
    zero = np.flatnonzero(~np.any(points, axis=1))
    if zero.size:
        raise ValueError(f"{name}[{zero[0]}] is the origin, which has no radial projection")
    return points


def _facing(mid: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """The point of the sphere the view faces: the box's centre projected, or the mean when the box
    is centred near the origin (a frame around the whole sphere)."""
    norm = np.linalg.norm(mid)
    return mid / norm if norm > 0.1 else mean


def dome(facing, shown: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The patch of the sphere under what is drawn: the geodesic disc about ``facing`` reaching
    ``FRAME_PAD`` beyond the farthest radial projection of ``shown`` ``(k, 3)`` (vertices, triangles)."""
    projected = shown / np.linalg.norm(shown, axis=1, keepdims=True)
    reach = float(np.max(_S2.dist(facing, projected)))
    return patch_mesh(facing, max((1.0 + FRAME_PAD) * reach, 2.0 * MIN_HALF_WIDTH))


def eye_tilt(clouds: dict) -> float:
    """The camera's tilt off the radius (degrees), chosen from what is drawn: ``FLOATING_TILT_DEG`` when a
    cloud floats off the sphere (its heights show), else ``FACING_TILT_DEG`` (nothing above the surface to show:
    the cap is seen nearly from above, as a round disc, not edge-on)."""
    floating = any(np.any(np.abs(np.linalg.norm(c, axis=1) - 1.0) > ON_SPHERE_ATOL) for c in clouds.values())
    return FLOATING_TILT_DEG if floating else FACING_TILT_DEG


def fit_camera(points: np.ndarray, facing, aspect: float = MIN_ASPECT, tilt_deg: float = FLOATING_TILT_DEG) -> dict:
    """Plotly scene camera seeing every point of ``points`` ``(k, 3)`` (scene units) as large as it can
    (``_common.fit_camera``), tilted ``tilt_deg`` off the radius at ``facing``, the radius pointing up on screen."""
    eye, _ = view_direction(facing, tilt_deg=tilt_deg)
    return _fit_camera(points, eye, facing, aspect)


def _scatter(points: np.ndarray, *, name: str, key: str, size: float, customdata=None,
             hovertemplate: str | None = None, opacity: float = CLOUD_OPACITY, outline=None) -> go.Scatter3d:
    return go.Scatter3d(
        x=points[:, 0], y=points[:, 1], z=points[:, 2], mode="markers", name=name,
        legendgroup=name, customdata=customdata, hovertemplate=hovertemplate,
        marker=dict(size=size, color=palette.color(key), symbol=palette.symbol(key),
                    opacity=opacity, line=outline or palette.outline(key)),
    )


def landing_distance(cloud: np.ndarray, mean: np.ndarray) -> float:
    """Mean geodesic distance from ``mean`` of the releases ``(m, 3)`` where they land on the sphere (x/|x| of one
    off it): how close a cloud lands, which ``_common.draw_order`` paints the closest over the others by."""
    return float(np.mean(_S2.dist(mean, cloud / np.linalg.norm(cloud, axis=1, keepdims=True))))


def release_traces(name: str, cloud: np.ndarray, mean: np.ndarray, show_gaps: bool = True,
                   size: float = CLOUD_SIZE, opacity: float = CLOUD_OPACITY) -> list:
    """Markers of one release cloud ``(m, 3)`` named by its palette entry, hover errors against ``mean``,
    and segments to x/|x| when it is off the sphere (and ``show_gaps``): the traces ``sphere_figure``
    draws for it, also the frames of an animation."""
    shown = palette.label(name)
    norms = np.linalg.norm(cloud, axis=1)
    if np.all(np.abs(norms - 1.0) <= ON_SPHERE_ATOL):
        error = _S2.dist(mean, cloud)
        return [_scatter(cloud, name=shown, key=name, size=size, opacity=opacity, customdata=error,
                         hovertemplate="geodesic error %{customdata:.3f}<extra>%{fullData.name}</extra>")]
    _nonzero(cloud, f"releases[{name!r}]")
    projected = cloud / norms[:, None]
    custom = np.stack([norms, _S2.dist(mean, projected)], axis=1)
    traces = [_scatter(cloud, name=shown, key=name, size=size, opacity=opacity, customdata=custom,
                       hovertemplate="|x| = %{customdata[0]:.3f} (off the sphere)<br>"
                                     "geodesic error of x/|x| %{customdata[1]:.3f}"
                                     "<extra>%{fullData.name}</extra>")]
    if show_gaps:
        line = segments(cloud, projected)
        traces.append(go.Scatter3d(
            x=line[:, 0], y=line[:, 1], z=line[:, 2], mode="lines", name=f"{shown}: gap to the sphere",
            legendgroup=shown, showlegend=False, hoverinfo="skip",
            line=dict(color=palette.rgba(palette.color(name), 0.7), width=3),
        ))
    return traces


def sphere_figure(*, data, mean, releases, center, radius: float, title: str | None = None,
                  show_cap: bool = True, show_gaps: bool = True, resolution: int = 64,
                  height: int = 650, hold=None) -> go.Figure:
    """Interactive S^2 figure of a private Fréchet mean experiment: a dome seen from outside.

    Parameters
    ----------
    data : array_like, shape ``(n, 3)``, or None
        Data points on the unit sphere.
    mean : array_like, shape ``(3,)``
        The true (non-private) Fréchet mean; hover texts report geodesic errors against it.
    releases : mapping str -> array_like, shape ``(m, 3)``
        Release clouds keyed by palette name (``"exact"``, ``"euclid"``,
        ...). Plotted as given: a cloud whose points are not all unit vectors (Euclidean releases)
        floats off the sphere and is joined to its radial projection by segments.
    center : array_like, shape ``(3,)``
        Centre m0 of the data ball B_r(m0).
    radius : float
        Radius r of the ball, 0 < r < π.
    title : str, optional
    show_cap : bool
        Shade the cap B_r(m0) in addition to drawing its boundary circle.
    show_gaps : bool
        Draw segments from off-sphere releases to their radial projections.
    resolution : int
        Meridians and parallels of the whole-sphere mesh (drawn when the frame spans the sphere).
    height : int
        Figure height in pixels.
    hold : array_like, shape ``(k, 3)``, optional
        Further points of the sphere the scene frames as if they were releases, without drawing
        them (e.g. the releases of every frame of an animation, which share one camera).

    Returns
    -------
    go.Figure
        Traces in order: surface, [cap], ball boundary, [data], each release cloud (and its gap
        segments when off the sphere), the cloud landing farthest from the true mean first
        (``landing_distance``), and the true mean last. The surface is the dome under the frame of
        ``frame``; the axes' ranges are the cube around it and the camera is ``fit_camera``'s, fitted to
        what is drawn. ``layout.meta["zoomed_on_releases"]`` says whether the frame left the data out to
        show the releases; ``layout.meta["dome"]`` holds the
        dome's centre ``facing`` and geodesic ``reach`` (π for the whole sphere), read by ``beyond_dome``.

    Raises
    ------
    ValueError
        On wrong shapes, points off the sphere (data, mean, center), a radius outside (0, π),
        or a release name without a palette entry.
    """
    r = check_positive("radius", radius)
    if not r < np.pi:
        raise ValueError(f"radius must be < π on the unit sphere, got {radius!r}")
    center = _S2.check_points(as_points("center", center, (3,), single=True), "center")
    mean = _S2.check_points(as_points("mean", mean, (3,), single=True), "mean")
    clouds = {name: _nonzero(cloud, f"releases[{name!r}]") for name, cloud in as_clouds(releases, (3,)).items()}

    circle = ball_boundary(center, r)
    if data is not None:
        data = _S2.check_points(as_points("data", data, (3,)), "data")
    context = circle if data is None else np.concatenate([circle, data])
    framed = clouds if hold is None else {**clouds, "hold": _S2.check_points(as_points("hold", hold, (3,)), "hold")}
    mid, half, zoomed = frame(mean, framed, context)
    facing = _facing(mid, mean)
    shown = [mean[None]] + [c for c in framed.values() if c.size]
    if not zoomed:
        shown.append(context)
    shown = np.concatenate(shown)
    if np.max(_S2.dist(facing, shown / np.linalg.norm(shown, axis=1, keepdims=True))) < np.pi / 2:
        points, triangles = dome(facing, shown)
        reach = float(np.max(_S2.dist(facing, points)))
    else:
        points, triangles = sphere_mesh(resolution)
        reach = np.pi
    traces = [mesh_trace(points, triangles, name="sphere", color=DOME_COLOR, opacity=0.45)]
    traces[0].update(lighting=DOME_LIGHTING)
    if show_cap and not zoomed:
        cap_points, cap_triangles = cap_mesh(center, r)
        traces.append(mesh_trace(cap_points, cap_triangles, name="B_r(m₀)",
                                 color=palette.color("data"), opacity=0.2))
    traces.append(go.Scatter3d(
        x=circle[:, 0], y=circle[:, 1], z=circle[:, 2], mode="lines",
        name=ball_name(r), hoverinfo="skip", line=dict(color="#444444", width=4),
    ))
    if data is not None:
        traces.append(_scatter(data, name=palette.label("data"), key="data", size=DATA_SIZE,
                               customdata=_S2.dist(center, data), opacity=0.5,
                               hovertemplate="distance to m₀ %{customdata:.3f}<extra>data</extra>"))
    for name, style in draw_order({name: landing_distance(cloud, mean) for name, cloud in clouds.items()}):
        traces.extend(release_traces(name, clouds[name], mean, show_gaps, **style))
    traces.append(_scatter(mean[None], name=palette.label("true mean"), key="true mean", size=MEAN_SIZE,
                           hovertemplate="true Fréchet mean<extra></extra>", opacity=MEAN_OPACITY,
                           outline=MEAN_OUTLINE))

    drawn = np.concatenate([points, shown, *(c / np.linalg.norm(c, axis=1, keepdims=True) for c in clouds.values())])
    mid, half = _box(drawn)
    half = 1.02 * half + MIN_HALF_WIDTH
    # A cube: plotly.js scales each axis by its range before shading the dome, so equal ranges keep its
    # normals true (and its shading the same after a full redraw); plotly maps the cube onto [-1/2, 1/2]³.
    scaled = (drawn - mid) / (2 * half)

    fig = go.Figure(data=traces, layout=palette.layout(title, scene=True, height=height))
    # Each entry a group of its own, as wide as its label: plotly.js flows groups along a row and starts the next
    # row before one would pass the chart's edge, so no label is cut however long (half-width columns cut the
    # playground's animated "… (ε on the slider below)" at 800 and 1280 px) and short ones share a row.
    fig.update_layout(legend=dict(traceorder="grouped", tracegroupgap=0))
    scene = {f"{c}axis": dict(range=[m - half, m + half], visible=False) for c, m in zip("xyz", mid.tolist())}
    fig.update_layout(scene=dict(**scene, aspectmode="cube", camera=fit_camera(scaled, facing, tilt_deg=eye_tilt(clouds))),
                      meta=dict(zoomed_on_releases=zoomed, dome=dict(facing=facing.tolist(), reach=reach)))
    return fig


def beyond_dome(fig: go.Figure, points) -> np.ndarray:
    """Which of ``points`` ``(m, 3)`` (nonzero) a ``sphere_figure`` leaves out of its scene: those whose radial
    projection lies farther from the dome's centre than the dome reaches, or outside the axes' ranges (which
    plotly.js clips), shape ``(m,)`` bool. Points that ``hold`` framed are never beyond."""
    points = _nonzero(as_points("points", points, (3,)), "points")
    dome_meta = fig.layout.meta["dome"]
    projected = points / np.linalg.norm(points, axis=1, keepdims=True)
    far = _S2.dist(np.asarray(dome_meta["facing"]), projected) > dome_meta["reach"] + ON_SPHERE_ATOL
    ranges = np.array([getattr(fig.layout.scene, f"{c}axis").range for c in "xyz"])
    return far | np.any((points < ranges[:, 0]) | (points > ranges[:, 1]), axis=1)
