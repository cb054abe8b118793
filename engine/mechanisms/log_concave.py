"""Exact rejection sampling of a log-concave density on an interval under a tangent-line envelope.

If h = log f is concave on [a, b], every tangent line of h lies above h, so the pointwise minimum
u(x) = min_j h(x_j) + h'(x_j)(x − x_j) over any set of touching points x_j is an upper bound of h
and e^u is a piecewise-exponential envelope of f (Gilks & Wild 1992, *Adaptive rejection sampling
for Gibbs sampling*, Appl. Statist. 41; Devroye 1986, *Non-Uniform Random Variate Generation*,
ch. VII). A proposal from the normalised e^u, accepted with probability e^{h(x) − u(x)} against a
fresh uniform, is an exact draw from f whatever the touching points are; their choice only sets
the acceptance rate ∫f / ∫e^u. Here they are the mode (a bracketed root of h') and, on each side,
the points where h has fallen ``LEVELS`` below its maximum, so the envelope follows f at every
scale: its acceptance stays above 0.9 for the radial Laplace laws of this package (measured in
``tests/engine/mechanisms/test_log_concave.py``) whether f is narrow, skewed, pressed against an end of its
support or nearly exponential.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.optimize import brentq
from scipy.special import logsumexp

from engine.mechanisms.rejection import rejection_sample

#: Falls of log f below its maximum at which the envelope touches f, on each side of the mode.
LEVELS = np.array([0.3, 1.0, 2.2, 4.0, 7.0, 12.0, 20.0, 34.0])
#: Grid steps (ratio 2^{1/4}) between a side's full length and the closest point to the mode looked at.
GRID_STEPS = 180
# Widths |slope|·w below this are treated as flat pieces: expm1(−x)/x = 1 − x/2 + … to double precision.
_FLAT = 1e-12


@dataclass(frozen=True)
class TangentEnvelope:
    """Piecewise-exponential upper bound e^{u(x)} of a log-concave density on [edges[0], edges[-1]].

    On piece j, [edges[j], edges[j+1]], u(x) = offset + values[j] + slopes[j](x − points[j]), the
    tangent of log f at ``points[j]``; ``offset`` is log f at the mode (values are relative to it).

    Attributes
    ----------
    points, values, slopes : ndarray, shape ``(k,)``
        Touching points, log f − offset there, and (log f)' there; slopes decrease.
    edges : ndarray, shape ``(k + 1,)``
        Piece boundaries (the first and last are the interval's ends; the last may be ``inf``).
    offset : float
        log f at the mode.
    log_mass : float
        log ∫ e^u, in the units of log f (so exp(log ∫f − log_mass) is the acceptance rate).
    cumulative : ndarray, shape ``(k,)``
        Cumulative probabilities of the pieces under the normalised envelope (last entry 1).
    """

    points: np.ndarray
    values: np.ndarray
    slopes: np.ndarray
    edges: np.ndarray
    offset: float
    log_mass: float
    cumulative: np.ndarray

    def upper(self, x: np.ndarray, piece: np.ndarray) -> np.ndarray:
        """u(x) − offset on the given pieces (arrays of one shape)."""
        return self.values[piece] + self.slopes[piece] * (x - self.points[piece])

    def propose(self, m: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``m`` draws from the normalised envelope and the piece each came from, shapes ``(m,)``.

        The piece is chosen by its mass; inside it, the distance t from the piece's higher end has
        density ∝ e^{−|s| t} on [0, w] and is drawn by inverse CDF, t = −log1p(V·expm1(−|s|w))/|s|.
        """
        piece = np.minimum(np.searchsorted(self.cumulative, rng.random(m), side="right"), len(self.points) - 1)
        s, lo, hi = self.slopes[piece], self.edges[piece], self.edges[piece + 1]
        width = hi - lo
        rate = np.abs(s)
        v = rng.random(m)
        flat = rate * width < _FLAT
        safe_rate = np.where(flat, 1.0, rate)
        with np.errstate(invalid="ignore"):  # inf·0 on the flat pieces, replaced below
            t = np.where(flat, v * width, -np.log1p(v * np.expm1(-safe_rate * width)) / safe_rate)
        # Rounding may carry t past the piece's far end by an ulp; the envelope there is still valid.
        x = np.where(s > 0, hi - t, lo + t)
        return np.clip(x, lo, hi), piece


def _piece_log_masses(values, slopes, points, edges) -> np.ndarray:
    """log ∫ e^{u − offset} over each piece, shape ``(k,)``: e^{top}·(1 − e^{−|s|w})/|s| with ``top``
    the value at the piece's higher end (e^{top}·w for a flat piece)."""
    lo, hi = edges[:-1], edges[1:]
    width = hi - lo
    rate = np.abs(slopes)
    at = np.where(slopes > 0, hi, lo)
    top = values + slopes * (at - points)
    flat = rate * width < _FLAT
    safe_rate = np.where(flat, 1.0, rate)
    with np.errstate(divide="ignore", invalid="ignore"):  # zero-width pieces have no mass
        log_flat = top + np.log(width)
        log_curved = top + np.log(-np.expm1(-safe_rate * width)) - np.log(safe_rate)
    return np.where(width > 0, np.where(flat, log_flat, log_curved), -np.inf)


def find_mode(derivative: Callable, lower: float, upper: float) -> float:
    """argmax of a log-concave density on [lower, upper] from its log-derivative h' (non-increasing).

    Returns ``lower`` when h' <= 0 just above it, ``upper`` when h'(upper) >= 0, and otherwise the
    root of h' by Brent's method inside a bracket found on a geometric grid.

    Raises
    ------
    ValueError
        If ``upper`` is infinite and h' never turns negative (the density has no finite mass).
    """
    # h' may be ±inf or overflow at the probes closest to an end.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if np.isfinite(upper):
            if not derivative(np.float64(upper)) < 0:
                return float(upper)
            hi = float(upper)
        else:
            grid = lower + 2.0 ** np.arange(-30.0, 1000.0)
            falling = np.flatnonzero(derivative(grid) < 0)
            if not falling.size:
                raise ValueError(f"the log-density still increases at {grid[-1]:.3g}: it has no finite mass")
            hi = float(grid[falling[0]])
        # Probes halve the distance to `lower` down to the smallest double.
        probes = lower + (hi - lower) * 2.0 ** -np.arange(1.0, 1075.0)
        rising = np.flatnonzero(derivative(probes) > 0)
    if not rising.size:
        return float(lower)
    lo = float(probes[rising[0]])

    def finite(x):
        # h' = −inf at an end where f vanishes; a huge finite value of the same sign keeps Brent's bracket.
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return float(np.clip(derivative(np.float64(x)), -1e300, 1e300))

    # The tangent at a point near the mode is as valid as at the mode: a relative 1e-8 suffices.
    return float(brentq(finite, lo, hi, xtol=1e-8 * (hi - lo)))


def _touching_points(log_density: Callable, lower: float, upper: float, mode: float, peak: float) -> np.ndarray:
    """The mode and, on each side, points where log f ≈ peak − LEVELS.

    log f is evaluated once on a geometric grid of distances from the mode on each side (ratio
    2^{1/4}, from the whole side down to 2^{−45} of it); each level is placed by linear
    interpolation between the two grid points around it. A level not reached inside the interval
    is placed at its end.
    """
    if np.isfinite(upper):
        right_end = upper
    else:
        # log f is concave and has finite mass, so it falls past every level within a finite distance.
        reach = mode + 2.0 ** np.arange(-30.0, 1000.0)
        right_end = float(reach[np.flatnonzero(log_density(reach) < peak - LEVELS[-1])[0]])
    ratios = np.concatenate([[0.0], 2.0 ** (-np.arange(GRID_STEPS, -1, -1) / 4)])
    sides = []
    for end in (lower, right_end):
        if end == mode:
            continue
        x = mode + (end - mode) * ratios  # outwards from the mode
        with np.errstate(divide="ignore", invalid="ignore"):
            drop = peak - log_density(x)
        drop[0] = 0.0
        # First grid point at or past each level (the last one, the end, when the level is not reached).
        past = np.minimum(np.searchsorted(np.maximum.accumulate(drop), LEVELS), len(x) - 1)
        before = np.maximum(past - 1, 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.clip((LEVELS - drop[before]) / (drop[past] - drop[before]), 0.0, 1.0)
        sides.append(np.where(np.isfinite(share), x[before] + share * (x[past] - x[before]), x[past]))
    return np.unique(np.concatenate([[mode], *sides]))


def tangent_envelope(log_density: Callable, derivative: Callable, lower: float, upper: float) -> TangentEnvelope:
    """The tangent-line envelope of a log-concave density on [lower, upper] (module docstring).

    Parameters
    ----------
    log_density : callable
        x -> log f(x) up to a constant, vectorised, concave on [lower, upper] (``-inf`` allowed
        at the ends).
    derivative : callable
        x -> (log f)'(x), vectorised, exact at interior points (the tangents must be tangents).
    lower, upper : float
        Interval; ``upper`` may be ``inf`` when log f falls to −∞ there at least linearly.

    Returns
    -------
    TangentEnvelope
    """
    mode = find_mode(derivative, lower, upper)
    peak = float(log_density(np.float64(mode)))
    if not np.isfinite(peak):
        raise ValueError(f"the log-density is {peak} at its mode {mode:g}: it has no mass there")
    points = _touching_points(log_density, lower, upper, mode, peak)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        values = log_density(points) - peak
        slopes = derivative(points)
    # Ends where f vanishes (or h' is infinite) touch nothing: their neighbours' tangents cover them.
    keep = np.isfinite(values) & np.isfinite(slopes)
    points, values, slopes = points[keep], values[keep], slopes[keep]
    # Tangents j and j+1 cross between their touching points; by concavity any place there gives a
    # valid bound, so a crossing lost to rounding (equal slopes) is clipped into that range.
    gap = slopes[:-1] - slopes[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = points[:-1] + (values[1:] - values[:-1] - slopes[1:] * (points[1:] - points[:-1])) / gap
    cross = np.where(gap > 0, cross, 0.5 * (points[:-1] + points[1:]))
    edges = np.concatenate([[lower], np.clip(cross, points[:-1], points[1:]), [upper]])
    if np.isinf(upper) and not slopes[-1] < 0:
        raise ValueError("the last tangent does not fall: the envelope on [lower, inf) would have infinite mass")
    log_masses = _piece_log_masses(values, slopes, points, edges)
    total = float(logsumexp(log_masses))
    cumulative = np.cumsum(np.exp(log_masses - total))
    return TangentEnvelope(points, values, slopes, edges, peak, peak + total, cumulative / cumulative[-1])


def sample_log_concave(log_density: Callable, derivative: Callable, lower: float, upper: float, size, rng=None,
                       *, envelope: TangentEnvelope | None = None) -> np.ndarray:
    """Exact draws from a log-concave density on [lower, upper] by rejection under its tangent envelope.

    Parameters
    ----------
    log_density, derivative, lower, upper
        As in ``tangent_envelope``.
    size : int or tuple of int
        Shape of the result.
    rng : numpy.random.Generator, int or None
    envelope : TangentEnvelope, optional
        A ready envelope of the same density (built when omitted).

    Returns
    -------
    ndarray, shape ``size``
        Exact draws: proposals from e^u accepted with probability e^{log f − u} against fresh uniforms.
    """
    rng = np.random.default_rng(rng)
    env = envelope if envelope is not None else tangent_envelope(log_density, derivative, lower, upper)
    shape_ = (size,) if np.isscalar(size) else tuple(size)

    def propose(m, g):
        x, piece = env.propose(m, g)
        with np.errstate(divide="ignore"):
            return x, log_density(x) - env.offset - env.upper(x, piece)

    return rejection_sample(propose, shape_, rng)
