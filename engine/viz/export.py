"""Exports: offline HTML, PNG through kaleido, and high-resolution pyvista renderings.

- ``figure_to_html`` inlines plotly.js (about 4.5 MB), so the file opens without a network;
- ``figure_to_png`` uses kaleido, which drives an installed Chrome/Chromium. Nothing here ever
  downloads a browser: without one, a ``RuntimeError`` says what to install;
- ``scene_png`` renders S^2 and point clouds with pyvista off screen (EGL on Linux, no X server)
  at poster resolution. A broken GL driver can crash or hang the process that opens a window, so
  ``offscreen_rendering_available`` probes rendering once in a child process with a timeout.
"""

from __future__ import annotations

import functools
import io
import os
import subprocess
import sys
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from engine.validation import check_int, check_positive
from engine.viz import palette
from engine.viz._common import as_points

PROBE_TIMEOUT_S = 60.0
EGL_ENV = {"VTK_DEFAULT_OPENGL_WINDOW": "vtkEGLRenderWindow"} if sys.platform.startswith("linux") else {}

_PROBE = """
import pyvista as pv
plotter = pv.Plotter(off_screen=True, window_size=(16, 12))
plotter.add_mesh(pv.Sphere())
image = plotter.screenshot(return_img=True)
window = type(plotter.ren_win).__name__
plotter.close()
assert image.shape[:2] == (12, 16), image.shape
print(window)
"""


def _check_figure(fig) -> go.Figure:
    if not isinstance(fig, go.Figure):
        raise ValueError(f"fig must be a plotly go.Figure, got {type(fig).__name__}")
    return fig


def figure_to_html(fig) -> str:
    """Self-contained HTML page of a figure, plotly.js inlined so it works offline.

    Parameters
    ----------
    fig : go.Figure

    Returns
    -------
    str
        A full HTML document with no external script (no CDN, no MathJax download).
    """
    return pio.to_html(_check_figure(fig), include_plotlyjs=True, include_mathjax=False,
                       full_html=True, config={"displaylogo": False})


@functools.lru_cache(maxsize=1)
def png_export_available() -> tuple[bool, str]:
    """Can kaleido make PNGs here? ``(True, browser path)`` or ``(False, why not)``.

    Looks for Chrome/Chromium exactly where kaleido will (``BROWSER_PATH``, ``PATH``, the usual
    install locations); never downloads one. The answer is cached for the process.
    """
    try:
        from choreographer.browsers import Chromium
    except ImportError:
        return False, "kaleido is not installed (pip install kaleido), so PNG export is unavailable"
    path = Chromium.find_browser(skip_local=False)
    if path is None:
        return False, ("PNG export needs Chrome or Chromium, and none was found: install the system "
                       "package (Debian/Ubuntu: apt-get install chromium) or set BROWSER_PATH; "
                       "this app never downloads a browser")
    return True, str(path)


def figure_to_png(fig, *, scale: float = 2.0, width: int | None = None,
                  height: int | None = None) -> bytes:
    """PNG bytes of a figure rendered by kaleido (2–4 s each).

    Parameters
    ----------
    fig : go.Figure
    scale : float
        Pixel density; 2 gives sharp slides.
    width, height : int, optional
        Size in CSS pixels before scaling (defaults: the figure's own, else 700×500).

    Returns
    -------
    bytes
        Starting with the PNG signature ``b"\\x89PNG\\r\\n\\x1a\\n"``.

    Raises
    ------
    RuntimeError
        When no Chrome/Chromium is installed or the browser fails to start (the reason is given).
    ValueError
        On a non-figure or a bad size.
    """
    fig = _check_figure(fig)
    scale = check_positive("scale", scale)
    width = None if width is None else check_int("width", width)
    height = None if height is None else check_int("height", height)
    ok, reason = png_export_available()
    if not ok:
        raise RuntimeError(reason)
    from kaleido.errors import BrowserFailedError, ChromeNotFoundError

    try:
        return pio.to_image(fig, format="png", scale=scale, width=width, height=height)
    except (BrowserFailedError, ChromeNotFoundError) as err:
        raise RuntimeError(f"PNG export failed: the browser at {reason} did not start ({err})") from err


@functools.lru_cache(maxsize=1)
def offscreen_rendering_available() -> tuple[bool, str]:
    """Can pyvista render off screen here? ``(True, render window class)`` or ``(False, why not)``.

    Renders a tiny scene in a child Python process (``PROBE_TIMEOUT_S`` seconds at most), so a
    crashing or hanging GL driver cannot take the caller down. The answer is cached.
    """
    env = {**os.environ, **{k: os.environ.get(k, v) for k, v in EGL_ENV.items()}}
    try:
        done = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                              text=True, timeout=PROBE_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return False, f"the off-screen rendering probe hung for more than {PROBE_TIMEOUT_S:g} s"
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        detail = lines[-1] if lines else "no error output"
        return False, f"the off-screen rendering probe failed (exit code {done.returncode}): {detail}"
    return True, done.stdout.strip().splitlines()[-1]


def scene_png(*, points: Mapping[str, np.ndarray], center=None, curves: Mapping[str, np.ndarray] | None = None,
              sphere: bool = True, window_size: tuple[int, int] = (1600, 1200),
              point_radius: float = 0.015) -> bytes:
    """High-resolution PNG of S^2 with point clouds as small spheres, rendered by pyvista.

    Parameters
    ----------
    points : mapping str -> array_like, shape ``(n, 3)``
        Point clouds keyed by palette name ("data", "true mean", mechanisms), drawn as sphere
        glyphs in their palette colours and listed in a legend.
    center : array_like, shape ``(3,)``, optional
        Unit vector m0 the camera looks at (tilted as in the interactive figure); default +z.
    curves : mapping str -> array_like, shape ``(n, 3)``, optional
        Polylines (e.g. ``sphere.ball_boundary``) drawn as dark grey tubes.
    sphere : bool
        Draw the translucent unit sphere.
    window_size : (int, int)
        Image width and height in pixels.
    point_radius : float
        Radius of each point glyph (the sphere has radius 1).

    Returns
    -------
    bytes
        PNG of exactly ``window_size``.

    Raises
    ------
    RuntimeError
        When off-screen rendering does not work here (the reason from
        ``offscreen_rendering_available``).
    ValueError
        On wrong shapes, a bad size, or a cloud name without a palette entry.
    """
    from engine.viz.sphere import SURFACE_COLOR, view_direction

    width, height = (check_int("window_size[0]", window_size[0]), check_int("window_size[1]", window_size[1]))
    radius = check_positive("point_radius", point_radius)
    clouds = {name: as_points(f"points[{name!r}]", p, (3,)) for name, p in points.items()}
    colors = {name: palette.color(name) for name in clouds}
    lines = {name: as_points(f"curves[{name!r}]", c, (3,)) for name, c in (curves or {}).items()}
    eye, up = view_direction(np.array([0.0, 0.0, 1.0]) if center is None
                             else as_points("center", center, (3,), single=True))
    ok, reason = offscreen_rendering_available()
    if not ok:
        raise RuntimeError(f"off-screen rendering is unavailable: {reason}")
    for key, value in EGL_ENV.items():
        os.environ.setdefault(key, value)  # read by vtk when the render window is created
    import pyvista as pv
    from PIL import Image

    plotter = pv.Plotter(off_screen=True, window_size=(width, height))
    try:
        plotter.set_background("white")
        if sphere:
            plotter.add_mesh(pv.Sphere(radius=1.0, theta_resolution=120, phi_resolution=120),
                             color=SURFACE_COLOR, opacity=0.35, smooth_shading=True, ambient=0.5)
        glyph = pv.Sphere(radius=radius, theta_resolution=12, phi_resolution=12)
        for name, cloud in clouds.items():
            if len(cloud):
                scale = 2.0 if name.strip().lower() == "true mean" else 1.0
                glyphs = pv.PolyData(cloud).glyph(geom=glyph, scale=False, orient=False, factor=scale)
                plotter.add_mesh(glyphs, color=colors[name], smooth_shading=True)
        for line in lines.values():
            if len(line) >= 2:
                plotter.add_mesh(pv.lines_from_points(line).tube(radius=radius / 3), color="#444444")
        if clouds:
            plotter.add_legend([[palette.label(n), colors[n]] for n in clouds], bcolor="white",
                               face="circle", size=(0.24, 0.05 * len(clouds)), loc="upper right")
        plotter.camera_position = [tuple(4.6 * eye), (0.0, 0.0, 0.0), tuple(up)]
        plotter.reset_camera_clipping_range()
        image = plotter.screenshot(return_img=True)
    finally:
        plotter.close()
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image)).save(buffer, format="PNG")
    return buffer.getvalue()
