"""Interactive 3D figure of S^2: surface, geodesic ball B_r(m0), data, mean and release clouds.

The surface is a pyvista ``pv.Sphere`` triangulated and handed to ``go.Mesh3d`` (pyvista builds
meshes, plotly draws them in the browser). Releases are plotted exactly as
given: intrinsic mechanisms put them on the sphere, the Euclidean Laplace baseline of Reimherr,
Bharath & Soto (2021) adds noise in R^3 and its releases float off the sphere; thin segments to
their radial projections x/|x| make that gap visible.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.manifolds.sphere import Sphere
from engine.validation import check_int, check_positive
from engine.viz import palette
from engine.viz._common import as_clouds, as_points, mesh_arrays, mesh_trace, segments

_S2 = Sphere(2)
SURFACE_COLOR = "#DCE3EA"
CAP_LIFT = 1.002  # the cap sits just above the surface mesh so the two never z-fight
ON_SPHERE_ATOL = 1e-6
#: Framing: the scene is the smallest cube holding what matters, padded by this fraction.
FRAME_PAD = 0.15
#: The frame zooms on the releases and the mean when the data ball is this many times wider.
ZOOM_RATIO = 6.0
#: Smallest half-width of the frame (WebGL draws in float32: about 170 ulps at |x| = 1).
MIN_HALF_WIDTH = 1e-5
#: Below this half-width the whole-sphere mesh is too coarse: a fine local patch is drawn instead.
PATCH_BELOW = 0.5
#: Camera: eye this far from the cube's centre (plotly scene units, the cube's side being 1), and
#: tilted this far from the radial direction, so heights above the surface show without rotating.
EYE_DISTANCE = 1.7
EYE_TILT_DEG = 55.0


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


def frame(mean, clouds: dict, context) -> tuple[np.ndarray, float, bool]:
    """The cube a sphere figure shows: its centre ``(3,)``, its half-width and whether it is zoomed.

    The cube holds the mean, every release and its radial projection, and ``context`` (the data and
    the ball's boundary, shape ``(k, 3)``), padded by ``FRAME_PAD``. When the context is more than
    ``ZOOM_RATIO`` times wider than the releases (large n and ε), the cube holds only the mean and
    the releases (``zoomed`` True), so the clouds do not shrink into the mean's marker.
    """
    mean = np.asarray(mean, dtype=float)[None]
    released = [mean] + [c for c in clouds.values() if c.size]
    released += [c / np.linalg.norm(c, axis=1, keepdims=True) for c in clouds.values() if c.size]
    released = np.concatenate(released)
    context = np.concatenate([released, np.asarray(context, dtype=float).reshape(-1, 3)])

    def box(points):
        lo, hi = points.min(axis=0), points.max(axis=0)
        return (lo + hi) / 2, float((hi - lo).max()) / 2

    mid, half = box(context)
    zoom_mid, zoom_half = box(released)
    zoomed = half > ZOOM_RATIO * zoom_half
    if zoomed:
        mid, half = zoom_mid, zoom_half
    return mid, max((1 + FRAME_PAD) * half, MIN_HALF_WIDTH), bool(zoomed)


def _nonzero(points: np.ndarray, name: str) -> np.ndarray:
    """``points`` if none is the origin (which has no radial projection), else ``ValueError``."""
    zero = np.flatnonzero(~np.any(points, axis=1))
    if zero.size:
        raise ValueError(f"{name}[{zero[0]}] is the origin, which has no radial projection")
    return points


def _facing(mid: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """The point of the sphere the view faces: the cube's centre projected, or the mean when the cube
    is centred near the origin (a frame around the whole sphere)."""
    norm = np.linalg.norm(mid)
    return mid / norm if norm > 0.1 else mean


def _camera(facing: np.ndarray) -> dict:
    """Plotly scene camera looking at the cube's centre from ``EYE_TILT_DEG`` off the radius at ``facing``."""
    eye, up = view_direction(facing, tilt_deg=EYE_TILT_DEG)
    return dict(eye=dict(zip("xyz", (EYE_DISTANCE * eye).tolist())), up=dict(zip("xyz", up.tolist())),
                center=dict(x=0.0, y=0.0, z=0.0))


def _scatter(points: np.ndarray, *, name: str, key: str, size: float, customdata=None,
             hovertemplate: str | None = None, opacity: float = 0.85) -> go.Scatter3d:
    return go.Scatter3d(
        x=points[:, 0], y=points[:, 1], z=points[:, 2], mode="markers", name=name,
        legendgroup=name, customdata=customdata, hovertemplate=hovertemplate,
        marker=dict(size=size, color=palette.color(key), symbol=palette.symbol(key),
                    opacity=opacity, line=dict(width=0)),
    )


def release_traces(name: str, cloud: np.ndarray, mean: np.ndarray, show_gaps: bool = True) -> list:
    """Markers of one release cloud ``(m, 3)`` named by its palette entry, hover errors against ``mean``,
    and segments to x/|x| when it is off the sphere (and ``show_gaps``): the traces ``sphere_figure``
    draws for it, also the frames of an animation."""
    shown = palette.label(name)
    norms = np.linalg.norm(cloud, axis=1)
    if np.all(np.abs(norms - 1.0) <= ON_SPHERE_ATOL):
        error = _S2.dist(mean, cloud)
        return [_scatter(cloud, name=shown, key=name, size=3.5, customdata=error,
                         hovertemplate="geodesic error %{customdata:.3f}<extra>%{fullData.name}</extra>")]
    _nonzero(cloud, f"releases[{name!r}]")
    projected = cloud / norms[:, None]
    custom = np.stack([norms, _S2.dist(mean, projected)], axis=1)
    traces = [_scatter(cloud, name=shown, key=name, size=3.5, customdata=custom,
                       hovertemplate="|x| = %{customdata[0]:.3f} (off the sphere)<br>"
                                     "geodesic error of x/|x| %{customdata[1]:.3f}"
                                     "<extra>%{fullData.name}</extra>")]
    if show_gaps:
        line = segments(cloud, projected)
        traces.append(go.Scatter3d(
            x=line[:, 0], y=line[:, 1], z=line[:, 2], mode="lines", name=f"{shown}: gap to the sphere",
            legendgroup=shown, hoverinfo="skip",
            line=dict(color=palette.rgba(palette.color(name), 0.45), width=2),
        ))
    return traces


def sphere_figure(*, data, mean, releases, center, radius: float, title: str | None = None,
                  show_cap: bool = True, show_gaps: bool = True, resolution: int = 64,
                  height: int = 650, hold=None) -> go.Figure:
    """Interactive S^2 figure of a private Fréchet mean experiment.

    Parameters
    ----------
    data : array_like, shape ``(n, 3)``, or None
        Data points on the unit sphere.
    mean : array_like, shape ``(3,)``
        The true (non-private) Fréchet mean; hover texts report geodesic errors against it.
    releases : mapping str -> array_like, shape ``(m, 3)``
        Release clouds keyed by palette name (``"exact"``, ``"euclid"``,
        ...). Plotted as given: a cloud whose points are not all unit vectors (Euclidean releases)
        floats off the sphere and is joined to its radial projection by thin segments.
    center : array_like, shape ``(3,)``
        Centre m0 of the data ball B_r(m0); the camera looks at it.
    radius : float
        Radius r of the ball, 0 < r < π.
    title : str, optional
    show_cap : bool
        Shade the cap B_r(m0) in addition to drawing its boundary circle.
    show_gaps : bool
        Draw segments from off-sphere releases to their radial projections.
    resolution : int
        Meridians and parallels of the surface mesh.
    height : int
        Figure height in pixels.
    hold : array_like, shape ``(k, 3)``, optional
        Further points of the sphere the scene frames as if they were releases, without drawing
        them (e.g. the releases of every frame of an animation, which share one camera).

    Returns
    -------
    go.Figure
        Traces in order: surface, [cap], ball boundary, [data], true mean, then each release
        cloud (and its gap segments when off the sphere). The scene is the cube of ``frame``, seen
        from ``EYE_TILT_DEG`` off the vertical; ``layout.meta["zoomed_on_releases"]`` says whether it
        left the data out to show the releases.

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
    if half < PATCH_BELOW:
        # sqrt(3)·half reaches the cube's corners; the patch is centred on the cube's projection.
        points, triangles = patch_mesh(_facing(mid, mean), 2.0 * np.sqrt(3.0) * half)
    else:
        points, triangles = sphere_mesh(resolution)
    traces = [mesh_trace(points, triangles, name="sphere", color=SURFACE_COLOR, opacity=0.35)]
    if show_cap and not zoomed:
        cap_points, cap_triangles = cap_mesh(center, r)
        traces.append(mesh_trace(cap_points, cap_triangles, name="B_r(m₀)",
                                 color=palette.color("data"), opacity=0.25))
    traces.append(go.Scatter3d(
        x=circle[:, 0], y=circle[:, 1], z=circle[:, 2], mode="lines",
        name=f"boundary of the data ball, r = {r:.3g}", hoverinfo="skip", line=dict(color="#444444", width=4),
    ))
    if data is not None:
        traces.append(_scatter(data, name=palette.label("data"), key="data", size=3,
                               customdata=_S2.dist(center, data), opacity=0.7,
                               hovertemplate="distance to m₀ %{customdata:.3f}<extra>data</extra>"))
    traces.append(_scatter(mean[None], name=palette.label("true mean"), key="true mean", size=7 if zoomed else 9,
                           hovertemplate="true Fréchet mean<extra></extra>", opacity=1.0))
    for name, cloud in clouds.items():
        traces.extend(release_traces(name, cloud, mean, show_gaps))

    fig = go.Figure(data=traces, layout=palette.layout(title, scene=True, height=height))
    scene = {f"{c}axis": dict(range=[m - half, m + half], visible=False) for c, m in zip("xyz", mid.tolist())}
    fig.update_layout(scene=dict(**scene, aspectmode="cube", camera=_camera(_facing(mid, mean))),
                      meta=dict(zoomed_on_releases=zoomed))
    return fig
