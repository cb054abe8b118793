"""The Poincaré disk: H^2 drawn in the unit disk with geodesic circles, tree edges and releases.

Points are written as complex numbers z = p_1 + i p_2 of the open unit disk. The Möbius map

    T_a(z) = (z + a)/(1 + conj(a) z),   |a| < 1,

is an isometry of the disk sending 0 to a (its inverse is T_{−a}). Everything is exact from there:

- the geodesic circle of hyperbolic radius ρ about 0 is the Euclidean circle |z| = tanh(ρ/2)
  (d(0, z) = 2 artanh|z|), so the circle about a is T_a of it — again a Euclidean circle, with a
  different Euclidean centre than a;
- the geodesic from a to b is T_a of the diameter segment from 0 to w = T_{−a}(b), an arc of a
  circle orthogonal to the boundary; the point at fraction t of its length is
  T_a(tanh(t·artanh|w|) w/|w|);
- d(a, b) = 2 artanh |(b − a)/(1 − conj(a) b)|.

Reference: Ratcliffe, *Foundations of Hyperbolic Manifolds* (2006), §4.5 (the conformal ball model).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from engine.manifolds.hyperbolic import Hyperbolic
from engine.validation import check_int, check_positive
from engine.viz import palette
from engine.viz._common import as_clouds, as_points

_H2 = Hyperbolic(2)
DISK_RANGE = (-1.05, 1.05)


def _complex(p: np.ndarray) -> np.ndarray:
    return p[..., 0] + 1j * p[..., 1]


def _real(z: np.ndarray) -> np.ndarray:
    return np.stack([z.real, z.imag], axis=-1)


def mobius(a: complex, z: np.ndarray) -> np.ndarray:
    """T_a(z) = (z + a)/(1 + conj(a) z): the disk isometry sending 0 to ``a`` (complex arrays)."""
    return (z + a) / (1.0 + np.conj(a) * z)


def poincare_dist(p, q) -> np.ndarray:
    """Hyperbolic distance of Poincaré points ``p, q`` of shape ``(..., 2)`` (broadcast)."""
    a = _complex(np.asarray(p, dtype=float))
    b = _complex(np.asarray(q, dtype=float))
    return 2.0 * np.arctanh(np.abs((b - a) / (1.0 - np.conj(a) * b)))


def geodesic_circle(center, rho: float, n: int = 181) -> np.ndarray:
    """Closed circle of hyperbolic radius ``rho`` about a Poincaré point, shape ``(n, 2)``.

    Computed as T_center(tanh(ρ/2) e^{iφ}); the last point repeats the first.
    """
    a = complex(*as_points("center", center, (2,), single=True))
    radius = np.tanh(check_positive("rho", rho) / 2.0)
    phi = np.linspace(0.0, 2.0 * np.pi, check_int("n", n, minimum=4))
    curve = mobius(a, radius * np.exp(1j * phi))
    curve[-1] = curve[0]
    return _real(curve)


def geodesic_arc(p, q, n: int = 48) -> np.ndarray:
    """Points of the geodesic from ``p`` to ``q`` (Poincaré, shape ``(2,)``), equally spaced in
    hyperbolic length, shape ``(n, 2)``; the ends are ``p`` and ``q``."""
    a = complex(*as_points("p", p, (2,), single=True))
    b = complex(*as_points("q", q, (2,), single=True))
    w = (b - a) / (1.0 - np.conj(a) * b)
    t = np.linspace(0.0, 1.0, check_int("n", n, minimum=2))
    length = np.arctanh(abs(w))
    along = np.tanh(t * length) * (w / abs(w) if abs(w) > 0 else 0.0)
    return _real(mobius(a, along))


def _to_disk(name: str, x, coords: str, single: bool = False) -> np.ndarray:
    """Poincaré coordinates of Lorentz points (``coords="lorentz"``) or checked disk points."""
    if coords == "lorentz":
        return _H2.to_poincare(_H2.check_points(as_points(name, x, (3,), single=single), name))
    p = as_points(name, x, (2,), single=single)
    r = np.linalg.norm(p, axis=-1)
    if np.any(r >= 1.0):
        raise ValueError(f"{name} must lie in the open unit disk, got a point of norm {np.max(r)!r}")
    return p


def _markers(p: np.ndarray, mean: np.ndarray, *, key: str, size: float, opacity: float) -> go.Scatter:
    return go.Scatter(
        x=p[:, 0], y=p[:, 1], mode="markers", name=palette.label(key),
        customdata=poincare_dist(mean, p),
        hovertemplate="distance to the true mean %{customdata:.3f}<extra>%{fullData.name}</extra>",
        marker=dict(size=size, color=palette.color(key), symbol=palette.symbol(key), opacity=opacity,
                    line=palette.outline(key)),
    )


def poincare_figure(*, data, mean, releases, circle_radii=(0.5, 1.0, 2.0), edges=None,
                    coords: str = "lorentz", title: str | None = None, height: int = 650) -> go.Figure:
    """Poincaré-disk figure of a private Fréchet mean on H^2.

    Parameters
    ----------
    data : array_like, shape ``(n, 3)`` (Lorentz) or ``(n, 2)`` (Poincaré), or None
        Data points (e.g. nodes of an embedded tree).
    mean : array_like, shape ``(3,)`` or ``(2,)``
        The true Fréchet mean; geodesic circles are drawn around it and hover texts give the
        hyperbolic distance to it.
    releases : mapping str -> array_like, shape ``(m, 3)`` or ``(m, 2)``
        Release clouds keyed by palette name. They must be points of H^2 (inside the disk).
    circle_radii : sequence of float
        Hyperbolic radii ρ of the geodesic circles about the mean (each > 0).
    edges : array_like of int, shape ``(e, 2)``, optional
        Index pairs into ``data`` joined by geodesic arcs (the edges of a tree).
    coords : {"lorentz", "poincare"}
        Coordinates of all point inputs: the Lorentz model of ``Hyperbolic(2)`` (converted with
        ``to_poincare``) or Poincaré-disk coordinates.
    title : str, optional
    height : int

    Returns
    -------
    go.Figure
        Traces in order: boundary circle, one trace per geodesic circle (named ``"ρ = …"``,
        ``meta="geodesic circle"``) and their text labels, [tree edges], [data], true mean,
        release clouds. Axes are equal with range [−1.05, 1.05].

    Raises
    ------
    ValueError
        On a bad ``coords``, wrong shapes, points off H^2 / outside the disk, radii ≤ 0, edge
        indices out of range, or a release name without a palette entry.
    """
    if coords not in ("lorentz", "poincare"):
        raise ValueError(f"coords must be 'lorentz' or 'poincare', got {coords!r}")
    mean_p = _to_disk("mean", mean, coords, single=True)
    clouds = {name: _to_disk(f"releases[{name!r}]", c, coords)
              for name, c in as_clouds(releases, (3,) if coords == "lorentz" else (2,)).items()}
    data_p = None if data is None else _to_disk("data", data, coords)

    phi = np.linspace(0.0, 2.0 * np.pi, 241)
    traces = [go.Scatter(x=np.cos(phi), y=np.sin(phi), mode="lines", name="boundary at infinity",
                         hoverinfo="skip", showlegend=False, line=dict(color="#444444", width=2))]
    tops = []
    for rho in circle_radii:
        circle = geodesic_circle(mean_p, rho)
        tops.append(circle[np.argmax(circle[:, 1])])
        traces.append(go.Scatter(
            x=circle[:, 0], y=circle[:, 1], mode="lines", name=f"ρ = {float(rho):g}",
            meta="geodesic circle", showlegend=False,
            hovertemplate=f"hyperbolic distance {float(rho):g} from the mean<extra></extra>",
            line=dict(color="#888888", width=1.5, dash="dot"),
        ))
    if tops:
        tops = np.array(tops)
        traces.append(go.Scatter(
            x=tops[:, 0], y=tops[:, 1], mode="text", name="circle labels", showlegend=False,
            text=[f"ρ = {float(rho):g}" for rho in circle_radii], textposition="top center",
            textfont=dict(size=14, color="#666666"), hoverinfo="skip",
        ))
    if edges is not None:
        if data_p is None:
            raise ValueError("edges index into data, but data is None")
        pairs = np.asarray(edges)
        if pairs.ndim != 2 or pairs.shape[1] != 2 or not np.issubdtype(pairs.dtype, np.integer):
            raise ValueError(f"edges must be an integer array of shape (e, 2), got {pairs.dtype} {pairs.shape}")
        if pairs.size and (pairs.min() < 0 or pairs.max() >= len(data_p)):
            raise ValueError(f"edges must index data (0..{len(data_p) - 1}), got indices "
                             f"{pairs.min()}..{pairs.max()}")
        arcs = [np.vstack([geodesic_arc(data_p[i], data_p[j]), [[np.nan, np.nan]]]) for i, j in pairs]
        path = np.vstack(arcs) if arcs else np.empty((0, 2))
        traces.append(go.Scatter(x=path[:, 0], y=path[:, 1], mode="lines", name="edges (geodesics)",
                                 hoverinfo="skip", line=dict(color="#BBBBBB", width=1)))
    if data_p is not None:
        traces.append(_markers(data_p, mean_p, key="data", size=6, opacity=0.7))
    traces.append(_markers(mean_p[None], mean_p, key="true mean", size=14, opacity=1.0))
    for name, cloud in clouds.items():
        traces.append(_markers(cloud, mean_p, key=name, size=6, opacity=0.75))

    fig = go.Figure(data=traces, layout=palette.layout(title, height=height))
    fig.update_layout(
        xaxis=dict(range=list(DISK_RANGE), visible=False, constrain="domain"),
        yaxis=dict(range=list(DISK_RANGE), visible=False, scaleanchor="x", scaleratio=1,
                   constrain="domain"),
    )
    return fig
