"""Helpers shared by the figure builders: input checks, the pyvista -> plotly mesh hand-off, and the rules every
3D scene follows: the release clouds' draw order and style (``draw_order``), and a perspective camera fitted to
what is drawn (``fit_camera``)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from engine.validation import check_finite_array

#: Marker size (px) and opacity of a release cloud: of one drawn alone or among others (translucent, so the
#: data beneath show through), and of the one that lands closest to the true mean among two or more (``draw_order``:
#: larger and nearly opaque, painted over the others); and the true mean's size, larger than every cloud's.
CLOUD_SIZE, CLOUD_OPACITY = 3.0, 0.6
OTHER_OPACITY = 0.35
CLOSEST_SIZE, CLOSEST_OPACITY = 4.0, 0.9
MEAN_SIZE = 8.0
#: Just below 1: plotly.js draws translucent traces after opaque ones, in trace order, so the true mean (the
#: last trace) is painted over the clouds instead of under them.
MEAN_OPACITY = 0.99
#: The true mean's outline, which keeps it visible on a cloud of its own colour.
MEAN_OUTLINE = dict(color="#FFFFFF", width=2)
#: plotly.js draws a 3D scene in perspective with this vertical field of view (gl-plot3d's default).
FIELD_OF_VIEW = np.pi / 4
#: A fitted camera fills this fraction of the scene's height (and of its width at its ``aspect``).
FILL = 0.94
#: Narrowest scene a camera is fitted for (width / height: the playground's column at 1280×720).
MIN_ASPECT = 1.8
#: Steps of ``fit_camera`` centring the perspective picture.
CENTRING_STEPS = 6


def as_points(name: str, a, trailing: tuple[int, ...], *, single: bool = False) -> np.ndarray:
    """``a`` as a finite float array of shape ``(n, *trailing)`` (or ``trailing`` if ``single``).

    Raises
    ------
    ValueError
        On another shape (quoted) or a non-finite entry (position and value quoted).
    """
    arr = np.asarray(a, dtype=float)
    expected = trailing if single else (None, *trailing)
    ok = arr.ndim == len(expected) and all(e is None or e == s for e, s in zip(expected, arr.shape))
    if not ok:
        wanted = "(" + ", ".join("n" if e is None else str(e) for e in expected) + ")"
        raise ValueError(f"{name} must have shape {wanted}, got shape {arr.shape}")
    return check_finite_array(name, arr)


def as_clouds(releases, trailing: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Validate a mapping name -> ``(m, *trailing)`` array; names must be non-empty strings."""
    if not isinstance(releases, Mapping):
        raise ValueError(f"releases must be a mapping name -> array, got {type(releases).__name__}")
    clouds = {}
    for name, cloud in releases.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"release names must be non-empty strings, got {name!r}")
        clouds[name] = as_points(f"releases[{name!r}]", cloud, trailing)
    return clouds


def mesh_arrays(mesh) -> tuple[np.ndarray, np.ndarray]:
    """Vertices ``(V, 3)`` float64 and triangles ``(F, 3)`` int of a triangulated pyvista mesh.

    Raises
    ------
    ValueError
        If the mesh has faces that are not triangles (call ``.triangulate()`` first).
    """
    faces = np.asarray(mesh.faces)
    sizes_ok = faces.size % 4 == 0 and np.all(faces.reshape(-1, 4)[:, 0] == 3)
    if not sizes_ok:
        raise ValueError("mesh must be triangulated (all faces with 3 vertices); call .triangulate()")
    return np.asarray(mesh.points, dtype=float), faces.reshape(-1, 4)[:, 1:]


def mesh_trace(points: np.ndarray, triangles: np.ndarray, *, name: str, color: str,
               opacity: float, showlegend: bool = False) -> go.Mesh3d:
    """``go.Mesh3d`` of vertices ``(V, 3)`` and triangles ``(F, 3)``: soft light, no hover."""
    return go.Mesh3d(
        x=points[:, 0], y=points[:, 1], z=points[:, 2],
        i=triangles[:, 0], j=triangles[:, 1], k=triangles[:, 2],
        name=name, color=color, opacity=opacity, showlegend=showlegend, hoverinfo="skip",
        flatshading=False,
        lighting=dict(ambient=0.75, diffuse=0.45, specular=0.05, roughness=0.9, fresnel=0.05),
    )


def segments(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Polyline ``(3m, d)`` drawing m separate segments: start, end, NaN gap for each one."""
    gap = np.full_like(starts, np.nan)
    return np.stack([starts, ends, gap], axis=1).reshape(-1, starts.shape[-1])


def draw_order(distances: Mapping[str, float]) -> list[tuple[str, dict]]:
    """The release clouds' draw order and marker style (``size``, ``opacity``), from ``name ->`` the cloud's mean
    distance to the true mean in its space's own measure: the farthest first. plotly.js paints translucent
    markers in trace order, so with two clouds or more the closest (the mechanism that lands closer) is painted
    last, over the others, larger and nearly opaque (``CLOSEST_SIZE``, ``CLOSEST_OPACITY``), and the others
    translucent (``OTHER_OPACITY``); a cloud alone is drawn as ``CLOUD_SIZE``, ``CLOUD_OPACITY``."""
    order = sorted(distances, key=lambda name: -distances[name])
    if len(order) == 1:
        return [(order[0], dict(size=CLOUD_SIZE, opacity=CLOUD_OPACITY))]
    return [(name, dict(size=CLOSEST_SIZE, opacity=CLOSEST_OPACITY) if at == len(order) - 1
             else dict(size=CLOUD_SIZE, opacity=OTHER_OPACITY)) for at, name in enumerate(order)]


def fit_camera(points: np.ndarray, eye: np.ndarray, up: np.ndarray, aspect: float = MIN_ASPECT) -> dict:
    """Plotly scene camera looking along ``-eye`` (unit ``(3,)``), ``up`` pointing up on screen, that sees every
    point of ``points`` ``(k, 3)`` (scene units: the axes' cube mapped onto [-1/2, 1/2]³) as large as it can.

    With the eye at distance d from the camera's centre c, a point p lies at depth d - (p - c)·e and at height
    (p - c)·u on screen (u: "up" made orthogonal to e); it is in view when |height| ≤ FILL·tan(fov/2)·depth (and
    likewise for the width, times ``aspect``). For a centre c, the smallest such d is a maximum over the points;
    c starts at the middle of the points' extent across the view and moves, ``CENTRING_STEPS`` times, by the
    offset of their perspective projection's middle, so the picture is centred.
    """
    eye = np.asarray(eye, dtype=float) / np.linalg.norm(eye)
    given = np.asarray(up, dtype=float)
    up = given - (given @ eye) * eye
    up /= np.linalg.norm(up)
    across = np.stack([up, np.cross(up, eye)])
    reach = FILL * np.tan(FIELD_OF_VIEW / 2) * np.array([1.0, aspect])

    def distance(shift: np.ndarray) -> float:
        local = points - across.T @ shift
        return float(np.max(local @ eye + np.max(np.abs(local @ across.T) / reach, axis=1)))

    spans = points @ across.T
    shift = (spans.min(axis=0) + spans.max(axis=0)) / 2
    for _ in range(CENTRING_STEPS):
        d = distance(shift)
        local = points - across.T @ shift
        seen = (local @ across.T) / (d - local @ eye)[:, None] / reach
        shift = shift + (seen.min(axis=0) + seen.max(axis=0)) / 2 * reach * d
    centre = across.T @ shift
    d = distance(shift)
    return dict(eye=dict(zip("xyz", (centre + d * eye).tolist())), up=dict(zip("xyz", given.tolist())),
                center=dict(zip("xyz", centre.tolist())), projection=dict(type="perspective"))
