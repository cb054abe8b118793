"""SPD(2) drawn as the open convex cone {a > 0, c > 0, ac > b²} of R^3.

A symmetric 2×2 matrix [[a, b], [b, c]] is plotted at (x, y, z) = (a, √2·b, c). The factor √2
makes the map an isometry from the Frobenius norm, ‖X‖_F² = a² + 2b² + c², to the Euclidean norm
of the plot, so straight-line (Euclidean) distances look as they are. In these coordinates the
positive definite cone is the *round* cone of half-angle 45° about the identity direction
(1, 0, 1)/√2: with t = (a + c)/√2, p = (a − c)/√2 and q = √2·b, det X = (t² − p² − q²)/2 and
X ≻ 0 iff t > sqrt(p² + q²). Its boundary det X = 0 (singular matrices) is built as a pyvista
structured grid in (t, φ) and drawn with ``go.Mesh3d``.

Intrinsic mechanisms (Riemannian Laplace under the affine-invariant metric, ...) release points
of the manifold, always inside. Euclidean Laplace noise added to (a, b, c) can leave the cone; the
figure marks those releases with a different symbol and counts them in the legend.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.viz import palette
from engine.viz._common import (
    CLOUD_OPACITY,
    MEAN_OPACITY,
    MEAN_OUTLINE,
    MEAN_SIZE,
    as_clouds,
    as_points,
    draw_order,
    fit_camera,
    mesh_arrays,
    mesh_trace,
)

SQRT2 = np.sqrt(2.0)
CONE_COLOR = "#B8C4D0"
#: The cone's axis, the identity direction, in plot coordinates: up on screen.
AXIS = np.array([1.0, 0.0, 1.0]) / SQRT2
#: Of the two eyes across the axis along the releases' narrowest direction, the one on this side.
EYE_SIDE = np.array([-1.3, -1.6, 1.3])


def _symmetric(name: str, x, *, single: bool = False) -> np.ndarray:
    """Check a (batch of) 2×2 matrices for symmetry; ``ValueError`` quotes the first offender."""
    arr = as_points(name, x, (2, 2), single=single)
    gap = np.abs(arr[..., 0, 1] - arr[..., 1, 0])
    bad = gap > 1e-8 * (1.0 + np.abs(arr).max(axis=(-2, -1)))
    if np.any(bad):
        where = tuple(int(i) for i in np.argwhere(np.atleast_1d(bad))[0]) if arr.ndim == 3 else ()
        raise ValueError(f"{name} must be symmetric, got {np.array2string(arr[where], precision=4)}"
                         + (f" at index {where}" if where else ""))
    return arr


def spd_coordinates(x) -> np.ndarray:
    """Plot coordinates (a, √2·b, c) of symmetric matrices ``(..., 2, 2)`` -> ``(..., 3)``."""
    x = np.asarray(x, dtype=float)
    return np.stack([x[..., 0, 0], SQRT2 * x[..., 0, 1], x[..., 1, 1]], axis=-1)


def positive_definite(x) -> np.ndarray:
    """Boolean ``(...,)``: is each symmetric 2×2 matrix positive definite (a > 0 and ac − b² > 0).

    Sylvester's criterion in closed form, so the figure does not depend on an eigen-solver.
    """
    x = np.asarray(x, dtype=float)
    a, b, c = x[..., 0, 0], x[..., 0, 1], x[..., 1, 1]
    return (a > 0) & (a * c - b * b > 0)


def cone_boundary_mesh(height: float, n_t: int = 24, n_phi: int = 96) -> tuple[np.ndarray, np.ndarray]:
    """Triangulated boundary {det = 0, a + c ≥ 0} up to t = (a + c)/√2 = ``height``.

    Parameters
    ----------
    height : float
        Extent of the cone along its axis, > 0.
    n_t, n_phi : int
        Grid sizes along the axis and around it.

    Returns
    -------
    points : ndarray, shape ``(V, 3)``
        Vertices in plot coordinates (a, √2·b, c), each with ac = b² up to rounding.
    triangles : ndarray, shape ``(F, 3)``
    """
    if not (np.isfinite(height) and height > 0):
        raise ValueError(f"height must be a finite number > 0, got {height!r}")
    t, phi = np.meshgrid(np.linspace(0.0, height, n_t), np.linspace(0.0, 2.0 * np.pi, n_phi),
                         indexing="ij")
    a = t * (1.0 + np.cos(phi)) / SQRT2
    c = t * (1.0 - np.cos(phi)) / SQRT2
    y = t * np.sin(phi)
    import pyvista as pv  # pyvista's import (~0.4 s) waits for the first 3D mesh

    grid = pv.StructuredGrid(a, y, c)
    return mesh_arrays(grid.extract_surface(algorithm="dataset_surface").triangulate())


def _hover(points: np.ndarray) -> tuple[np.ndarray, str]:
    """customdata [a, b, c, det] and a hover template for matrices ``(n, 2, 2)``."""
    a, b, c = points[:, 0, 0], points[:, 0, 1], points[:, 1, 1]
    custom = np.stack([a, b, c, a * c - b * b], axis=1)
    template = ("[[%{customdata[0]:.3f}, %{customdata[1]:.3f}], [·, %{customdata[2]:.3f}]]"
                "<br>det %{customdata[3]:.3g}<extra>%{fullData.name}</extra>")
    return custom, template


def _markers(points: np.ndarray, *, name: str, key: str, size: float, symbol: str | None = None,
             opacity: float = CLOUD_OPACITY, legendgroup: str | None = None, outline=None) -> go.Scatter3d:
    xyz = spd_coordinates(points)
    custom, template = _hover(points)
    return go.Scatter3d(
        x=xyz[:, 0], y=xyz[:, 1], z=xyz[:, 2], mode="markers", name=name,
        legendgroup=legendgroup or name, customdata=custom, hovertemplate=template,
        marker=dict(size=size, color=palette.color(key), opacity=opacity,
                    symbol=symbol or palette.symbol(key), line=outline or palette.outline(key)),
    )


def eye_direction(mean: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Unit direction ``(3,)`` from the scene to the eye: across the cone's axis (so its boundary shows as two
    lines through the apex), along the direction in which ``points`` ``(k, 3)`` (the releases, plot coordinates)
    spread least about ``mean`` ``(3,)``, so the clouds spread across the screen instead of in depth; on the side
    of ``EYE_SIDE``."""
    plane = np.stack([np.array([1.0, 0.0, -1.0]) / SQRT2, np.array([0.0, 1.0, 0.0])])
    offsets = (points - mean) @ plane.T
    if len(offsets) < 2:
        eye = EYE_SIDE - (EYE_SIDE @ AXIS) * AXIS
    else:
        _, vectors = np.linalg.eigh(offsets.T @ offsets)
        eye = vectors[:, 0] @ plane
    eye = eye / np.linalg.norm(eye)
    return eye if eye @ EYE_SIDE >= 0 else -eye


def spd_cone_figure(*, data, mean, releases, title: str | None = None,
                    height: int = 650, mark_outside: bool = True) -> go.Figure:
    """SPD(2) cone with data, the true mean and release clouds; non-PD releases highlighted.

    Parameters
    ----------
    data : array_like, shape ``(n, 2, 2)``, or None
        Symmetric positive definite data matrices.
    mean : array_like, shape ``(2, 2)``
        The true (non-private) Fréchet mean, positive definite.
    releases : mapping str -> array_like, shape ``(m, 2, 2)``
        Symmetric release matrices keyed by palette name, plotted as given. Each cloud's legend
        label counts its matrices that are not positive definite, e.g. ``"Euclidean Laplace — 37
        of 200 not positive definite"``; those matrices get their own trace (symbol
        ``palette.VIOLATION_SYMBOL``, named ``"<label>: outside the cone"``) in the same legend
        group.
    title : str, optional
    height : int
    mark_outside : bool
        Count and mark the releases outside the cone as above; False draws each cloud as one trace
        named by its label (a question about that count, the Lesson's, shows the chart first).

    Returns
    -------
    go.Figure
        Traces in order: cone boundary, [data], then per cloud (the farthest from the true mean first,
        ``_common.draw_order``, so the closest is painted over the others, larger and nearly opaque) its positive definite releases and, when
        there are any, the ones outside the cone, and the true mean last, over every cloud. Axes are
        x = a, y = √2·b, z = c, a cube with equal scale; the camera (``eye_direction``) looks across the
        cone's axis, the axis up on screen, so its boundary shows as two lines through the apex (the zero
        matrix), and is fitted to the matrices drawn.

    Raises
    ------
    ValueError
        On wrong shapes, non-symmetric matrices, data or mean that are not positive definite, or
        a release name without a palette entry.
    """
    mean = _symmetric("mean", mean, single=True)
    if not positive_definite(mean):
        raise ValueError(f"mean must be positive definite, got {np.array2string(mean, precision=4)}")
    clouds = {name: _symmetric(f"releases[{name!r}]", cloud)
              for name, cloud in as_clouds(releases, (2, 2)).items()}
    if data is not None:
        data = _symmetric("data", data)
        bad = ~positive_definite(data)
        if bad.any():
            first = int(np.argmax(bad))
            raise ValueError(f"data must be positive definite, got "
                             f"{np.array2string(data[first], precision=4)} at index {first}")

    everything = [mean[None]] + ([data] if data is not None else []) + list(clouds.values())
    axis_positions = np.concatenate([(m[:, 0, 0] + m[:, 1, 1]) / SQRT2 for m in everything])
    height_along_axis = 1.15 * float(np.max(np.abs(axis_positions)))
    points, triangles = cone_boundary_mesh(height_along_axis)
    traces = [mesh_trace(points, triangles, name="det = 0 (boundary of the cone)",
                         color=CONE_COLOR, opacity=0.25, showlegend=True)]
    if data is not None:
        traces.append(_markers(data, name=palette.label("data"), key="data", size=3, opacity=0.5))
    plotted = {name: spd_coordinates(cloud) for name, cloud in clouds.items()}
    # how close a cloud lands, in the drawn coordinates (the Frobenius distance): a release outside the cone has
    # no distance along the space
    centre = spd_coordinates(mean[None])[0]
    for name, style in draw_order({name: float(np.mean(np.linalg.norm(xyz - centre, axis=1)))
                                   for name, xyz in plotted.items()}):
        cloud = clouds[name]
        inside = positive_definite(cloud)
        n_out = int((~inside).sum())
        shown = palette.label(name)
        if not mark_outside:
            traces.append(_markers(cloud, name=shown, key=name, legendgroup=name, **style))
            continue
        summary = f"{shown} — {n_out} of {len(cloud)} not positive definite"
        traces.append(_markers(cloud[inside], name=summary, key=name, legendgroup=name, **style))
        if n_out:
            traces.append(_markers(cloud[~inside], name=f"{shown}: outside the cone", key=name,
                                   size=style["size"] + 1, opacity=style["opacity"], symbol=palette.VIOLATION_SYMBOL,
                                   legendgroup=name))
    traces.append(_markers(mean[None], name=palette.label("true mean"), key="true mean", size=MEAN_SIZE,
                           opacity=MEAN_OPACITY, outline=MEAN_OUTLINE))

    matrices = np.concatenate([spd_coordinates(m) for m in everything])
    drawn = np.concatenate([points, matrices])
    lo, hi = drawn.min(axis=0), drawn.max(axis=0)
    mid, half = (lo + hi) / 2, 0.51 * float((hi - lo).max())
    released = np.concatenate(list(plotted.values())) if plotted else np.empty((0, 3))
    # fitted to the matrices, not the cone's boundary (which reaches past them only to show the space's shape)
    camera = fit_camera((matrices - mid) / (2 * half), eye_direction(spd_coordinates(mean), released), AXIS)
    fig = go.Figure(data=traces, layout=palette.layout(title, scene=True, height=height))
    fig.update_layout(scene=dict(
        xaxis=dict(title=dict(text="a"), range=[mid[0] - half, mid[0] + half]),
        yaxis=dict(title=dict(text="√2·b"), range=[mid[1] - half, mid[1] + half]),
        zaxis=dict(title=dict(text="c"), range=[mid[2] - half, mid[2] + half]), aspectmode="cube",
        dragmode="orbit",  # turntable, plotly.js's default, keeps z up on screen instead of the cone's axis
        camera=camera,
    ))
    return fig
