"""Helpers shared by the figure builders: input checks and the pyvista -> plotly mesh hand-off."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from engine.validation import check_finite_array


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
