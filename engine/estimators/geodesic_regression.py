"""Geodesic regression (Fletcher 2011) with gradients from adjoint Jacobi fields, batched.

Model: a response y ∈ M against a scalar covariate x ∈ R follows the geodesic x ↦ Exp(p, x v) with
footpoint p ∈ M and shooting vector v ∈ T_pM. The least-squares fit minimises the energy

    E(p, v) = (1/(2n)) Σ_i d(Exp(p, x_i v), y_i)².

With q_i = Exp(p, x_i v) and the residual e_i = Log(q_i, y_i) ∈ T_{q_i}M, Fletcher (2011, §3) gives

    ∇_p E = −(1/n) Σ_i d_pExp(p, x_i v)^† e_i,     ∇_v E = −(1/n) Σ_i x_i d_vExp(p, x_i v)^† e_i,

where the adjoints are read off Jacobi fields along t ↦ Exp(p, t x_i v). Here ∇_p is the gradient for
variations of p that carry v along by parallel transport (Fletcher's convention), i.e.
d/dh E(Exp(p, h ξ), Γ_{p→Exp(p, hξ)} v) at h = 0 equals <∇_p E, ξ>_p.

**Adjoint Jacobi fields in closed form.** Let w = x_i v, L = |w|, u = w/L and u_q the unit velocity at q.
Split the residual e at q into its part a·u_q along the geodesic and the normal part. On a space of
constant curvature K (sphere K = 1, hyperbolic K = −1, Euclidean K = 0) every normal direction has the
curvature K, the normal part is parallel along the geodesic (fixed in the ambient coordinates used
here), and with s_K(L) = sin(√K L)/√K, c_K(L) = cos(√K L) (sinh/cosh for K < 0):

    d_pExp^† e = a u + c_K(L) e^⊥,          d_wExp^† e = a u + (s_K(L)/L) e^⊥,     e^⊥ = e − a u_q.

On Kendall's planar shape space Σ^k_2 ≅ CP^{k−2} (Fubini–Study, curvature in [1, 4]) the curvature
operator R(·, γ')γ' along a geodesic has eigenvalue 4 on the complex-structure direction i·γ' and 1 on
the directions complex-orthogonal to γ' (Kendall et al. 1999, §6). In the horizontal lift on the
pre-shape sphere both i·u_q and the complex-orthogonal part are parallel, so with b = <e, i u_q>:

    d_pExp^† e = a u + c_4(L) b i u + c_1(L) e^⊥,   d_wExp^† e = a u + (s_4(L)/L) b i u + (s_1(L)/L) e^⊥,

e^⊥ = e − a u_q − b i u_q. The tests check every gradient against central finite differences.

**Residual clipping.** ``clip=τ`` replaces e_i by e_i·min(1, τ/|e_i|): this is the gradient of the
Huber energy (1/n) Σ ρ_τ(d_i) with ρ_τ(d) = d²/2 (d ≤ τ), τd − τ²/2 (d > τ), which equals E wherever
every residual is at most τ. The private mechanism uses it so that each record moves the gradient by
at most the Table 1 bound at every (p, v), not only at the least-squares fit (Kulkarni & Soto assume
τ-closeness at the fit only).

References: P. T. Fletcher, *Geodesic regression on Riemannian manifolds*, MFCA 2011; Kendall, Barden,
Carne & Le, *Shape and Shape Theory* (1999); Kulkarni & Soto, *Differentially private geodesic
regression* (the energy and Table 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.estimators.frechet_mean import frechet_mean
from engine.validation import check_finite_array, check_int, check_positive


def _sn_over_t(kappa: float, t: np.ndarray) -> np.ndarray:
    """s_K(t)/t = sin(√K t)/(√K t) (sinh for K < 0, 1 for K = 0), with the limit 1 at t = 0."""
    if kappa > 0:
        return np.sinc(np.sqrt(kappa) * t / np.pi)
    if kappa < 0:
        a = np.sqrt(-kappa) * t
        small = np.abs(a) < 1e-4
        return np.where(small, 1.0 + a * a / 6.0, np.sinh(np.where(small, 1.0, a)) / np.where(small, 1.0, a))
    return np.ones_like(t)


def _cs(kappa: float, t: np.ndarray) -> np.ndarray:
    """c_K(t) = cos(√K t) (cosh for K < 0, 1 for K = 0)."""
    if kappa > 0:
        return np.cos(np.sqrt(kappa) * t)
    if kappa < 0:
        return np.cosh(np.sqrt(-kappa) * t)
    return np.ones_like(t)


def _complex_structure(manifold):
    """The map u ↦ i·u of a Kähler space (Kendall), or ``None`` on a space of constant curvature."""
    return getattr(manifold, "complex_structure", None)


def check_regression_space(manifold) -> None:
    """Refuse spaces without the closed-form Jacobi fields used here."""
    constant = manifold.kappa_min == manifold.kappa_max
    if not constant and _complex_structure(manifold) is None:
        raise ValueError(
            f"geodesic regression needs closed-form Jacobi fields: a space of constant curvature (Sphere, Hyperbolic, "
            f"Euclidean) or Kendall's shape space, got {manifold.name}"
        )


def adjoint_exp(manifold, p, w, e):
    """Adjoints of the derivatives of Exp(p, w) in p and in w, applied to e ∈ T_{Exp(p,w)}M.

    Parameters
    ----------
    manifold : Manifold
        Constant curvature (Sphere, Hyperbolic, Euclidean) or Kendall.
    p : array ``(..., *point_shape)``
    w : array ``(..., *point_shape)``, tangent at ``p``
    e : array ``(..., *point_shape)``, tangent at q = Exp(p, w)

    Returns
    -------
    (a_p, a_w) : arrays ``(..., *point_shape)``, tangent at ``p``
        d_pExp(p, w)^† e and d_wExp(p, w)^† e (module docstring).
    """
    p, w, e = np.broadcast_arrays(np.asarray(p, float), np.asarray(w, float), np.asarray(e, float))
    length = manifold.norm(p, w)
    safe = np.where(length > 0, length, 1.0)
    u = w / manifold.per_point(safe)
    pl = manifold.per_point(length)
    jstruct = _complex_structure(manifold)
    # Unit velocity at q of t ↦ Exp(p, t u): −K s_K(L) p + c_K(L) u in the ambient coordinates of the
    # embedded models (sphere K = 1, Lorentz model K = −1; pre-shapes are a unit sphere, K = 1).
    k_lift = 1.0 if jstruct is not None else manifold.kappa_min
    u_q = -k_lift * pl * _sn_over_t(k_lift, pl) * p + _cs(k_lift, pl) * u
    q = manifold.exp(p, w)
    a = manifold.inner(q, e, u_q)
    normal = e - manifold.per_point(a) * u_q
    a_p = manifold.per_point(a) * u
    a_w = manifold.per_point(a) * u
    if jstruct is not None:
        iu_q = jstruct(u_q)
        b = manifold.inner(q, e, iu_q)
        normal = normal - manifold.per_point(b) * iu_q
        iu = jstruct(u)
        a_p = a_p + manifold.per_point(b * _cs(4.0, length)) * iu
        a_w = a_w + manifold.per_point(b * _sn_over_t(4.0, length)) * iu
        k_normal = 1.0
    else:
        k_normal = manifold.kappa_min
    a_p = a_p + _cs(k_normal, pl) * normal
    a_w = a_w + _sn_over_t(k_normal, pl) * normal
    return a_p, a_w


def _prepare(manifold, x, y):
    """Validated covariate ``(..., n)`` broadcast to the batch of ``y`` ``(..., n, *point_shape)``."""
    y = manifold.check_points(y, "y")
    if y.ndim < manifold.point_ndim + 1:
        raise ValueError(f"y must have shape (..., n, *{manifold.point_shape}), got shape {y.shape}")
    n = y.shape[y.ndim - manifold.point_ndim - 1]
    x = check_finite_array("x", x)
    if x.ndim < 1 or x.shape[-1] != n:
        raise ValueError(f"covariate x must have last axis of length n = {n} (one value per response), got shape "
                         f"{x.shape}")
    batch = y.shape[: y.ndim - manifold.point_ndim - 1]
    return np.broadcast_to(x, batch + (n,)), y


def residuals(manifold, p, v, x, y):
    """Fitted points q_i = Exp(p, x_i v) and residuals e_i = Log(q_i, y_i).

    Parameters
    ----------
    p, v : arrays ``(..., *point_shape)``; x : ``(..., n)``; y : ``(..., n, *point_shape)``

    Returns
    -------
    (q, e) : arrays ``(..., n, *point_shape)``
    """
    p = np.asarray(p, float)[..., None, *([slice(None)] * manifold.point_ndim)]
    w = np.asarray(v, float)[..., None, *([slice(None)] * manifold.point_ndim)] * manifold.per_point(np.asarray(x))
    q = manifold.exp(p, w)
    return q, manifold.log(q, y)


def _complex(a) -> np.ndarray:
    a = np.asarray(a, dtype=float)
    return a[..., 0] + 1j * a[..., 1]


def _herm_rows(z, y) -> np.ndarray:
    """<z, y_i> = Σ_j conj(z_j) y_ij for z ``(..., k)``, y ``(..., n, k)``: ``(..., n)`` (one gemm if y is shared)."""
    if y.ndim == 2:
        return np.conj(z) @ y.T
    return (y @ np.conj(z)[..., :, None])[..., 0]


def _combine_rows(w, y) -> np.ndarray:
    """Σ_i w_i y_i for w ``(..., n)``, y ``(..., n, k)``: ``(..., k)``."""
    if y.ndim == 2:
        return w @ y
    return (w[..., None, :] @ y)[..., 0, :]


def _kendall_terms(z, nu, x, y, clip, parts):
    """Energy (``parts`` empty) or gradients (``parts`` "p", "v" or "pv") on Kendall's space, in complex
    pre-shape coordinates and without (n, k) temporaries.

    Along q_i = cos t_i z + sin t_i u (t_i = x_i |ν|, u = ν/|ν|) every quantity of the adjoint formulas is a
    scalar per record except the data y_i, so the sums reduce to Y^T w + A z + B u + C i·u with scalar
    weights: two matrix products with the (n, k) data per evaluation. Same formulas as ``adjoint_exp``.
    """
    length = np.linalg.norm(nu, axis=-1, keepdims=True)
    u = nu / np.where(length > 0, length, 1.0)
    t = x * length
    cos_t, sin_t = np.cos(t), np.sin(t)
    alpha = _herm_rows(z, y)
    beta = _herm_rows(u, y)
    h = cos_t * alpha + sin_t * beta
    c = np.abs(h)
    s = np.sqrt(np.maximum(1.0 - c * c, 0.0))
    theta = np.arctan2(s, c)
    if not parts:
        if clip is None:
            return 0.5 * np.mean(theta**2, axis=-1), None, None
        return np.mean(np.where(theta <= clip, 0.5 * theta**2, clip * theta - 0.5 * clip**2), axis=-1), None, None
    phase_bar = np.where(c > 0, np.conj(h) / np.where(c > 0, c, 1.0), 1.0)
    f = np.where(s > 1e-12, theta / np.maximum(s, 1e-300), 1.0)
    if clip is not None:
        f = f * np.minimum(1.0, clip / np.maximum(theta, 1e-300))
    g = f * phase_bar * (-sin_t * alpha + cos_t * beta)
    n = x.shape[-1]
    grads = []
    for part in ("p", "v"):
        if part not in parts:
            grads.append(None)
            continue
        # cos 2t = 2cos²t − 1 and sin(2t)/(2t) = (sin t / t)·cos t reuse cos t and sin t (no further
        # transcendental functions on the (chains, n) arrays; this runs at every step of every chain).
        if part == "p":
            omega, radial, radial2 = np.full_like(t, 1.0 / n), cos_t, 2.0 * cos_t * cos_t - 1.0
        else:
            sinc_t = np.divide(sin_t, t, out=np.ones_like(t), where=t != 0)
            omega, radial, radial2 = x / n, sinc_t, sinc_t * cos_t
        wr = omega * radial
        coef_z = np.sum(wr * (-f * c * cos_t + g * sin_t), axis=-1, keepdims=True)
        coef_u = np.sum(omega * g.real + wr * (-f * c * sin_t - g * cos_t), axis=-1, keepdims=True)
        coef_iu = np.sum(omega * g.imag * radial2, axis=-1, keepdims=True)
        total = _combine_rows(wr * f * phase_bar, y) + coef_z * z + coef_u * u + 1j * coef_iu * u
        grads.append(-total)
    return None, grads[0], grads[1]


def _kendall(manifold) -> bool:
    return _complex_structure(manifold) is not None and hasattr(manifold, "k")


def energy(manifold, p, v, x, y, *, clip=None) -> np.ndarray:
    """E(p, v) = (1/(2n)) Σ d(Exp(p, x_i v), y_i)² (Huber form with ``clip=τ``), shape ``(...)``."""
    if _kendall(manifold):
        return _kendall_terms(_complex(p), _complex(v), np.asarray(x, float), _complex(y), clip, "")[0]
    q, e = residuals(manifold, p, v, x, y)
    d = manifold.norm(q, e)
    if clip is None:
        return 0.5 * np.mean(d**2, axis=-1)
    return np.mean(np.where(d <= clip, 0.5 * d**2, clip * d - 0.5 * clip**2), axis=-1)


def energy_gradient(manifold, p, v, x, y, *, clip=None, part=None):
    """(∇_p E, ∇_v E) by adjoint Jacobi fields, each ``(..., *point_shape)`` (module docstring).

    Parameters
    ----------
    manifold : Manifold
    p, v : arrays ``(..., *point_shape)``
        Footpoint and shooting vector (tangent at ``p``).
    x : array ``(..., n)``; y : array ``(..., n, *point_shape)``
    clip : float or None
        Residual clipping level τ (gradient of the Huber energy).
    part : {None, "p", "v"}
        Return both gradients (default) or only ∇_p E or ∇_v E (half the work on Kendall's space).
    """
    p = np.asarray(p, float)
    v = np.asarray(v, float)
    x = np.asarray(x, float)
    if _kendall(manifold):
        _, gp, gv = _kendall_terms(_complex(p), _complex(v), x, _complex(y), clip, part or "pv")
        # Each term is horizontal at p by construction (transported back along the geodesic), so no
        # projection is needed; the tests check tangency.
        grads = tuple(None if g is None else np.stack([g.real, g.imag], axis=-1) for g in (gp, gv))
    else:
        grads = _generic_gradient(manifold, p, v, x, y, clip)
    return grads if part is None else grads[part == "v"]


def _generic_gradient(manifold, p, v, x, y, clip):
    """Gradients through ``adjoint_exp`` record by record (any supported space)."""
    q, e = residuals(manifold, p, v, x, y)
    if clip is not None:
        d = manifold.norm(q, e)
        e = e * manifold.per_point(np.minimum(1.0, clip / np.maximum(d, 1e-300)))
    axes = (Ellipsis, None) + (slice(None),) * manifold.point_ndim
    a_p, a_w = adjoint_exp(manifold, p[axes], v[axes] * manifold.per_point(x), e)
    n = x.shape[-1]
    grad_p = -a_p.sum(axis=-manifold.point_ndim - 1) / n
    grad_v = -(a_w * manifold.per_point(x)).sum(axis=-manifold.point_ndim - 1) / n
    return manifold.to_tangent(p, grad_p), manifold.to_tangent(p, grad_v)


@dataclass(frozen=True)
class GeodesicRegressionResult:
    """Least-squares geodesic per data set.

    Attributes
    ----------
    footpoint, velocity : ndarray ``(..., *point_shape)``
        p̂ and v̂ ∈ T_p̂M.
    energy : ndarray ``(...)``
        E(p̂, v̂).
    gradient_norm : ndarray ``(...)``
        sqrt(‖∇_p E‖² + ‖∇_v E‖²) at the fit (the first-order condition).
    n_iter : ndarray ``(...)``; converged : ndarray ``(...)`` of bool
    """

    footpoint: np.ndarray
    velocity: np.ndarray
    energy: np.ndarray
    gradient_norm: np.ndarray
    n_iter: np.ndarray
    converged: np.ndarray

    def predict(self, manifold, x) -> np.ndarray:
        """Points Exp(p̂, x v̂) for covariate values ``x`` ``(T,)``: shape ``(T, ..., *point_shape)``."""
        return manifold.geodesic(self.footpoint, self.velocity, x)


def _transport(manifold, p, p_new, v):
    if manifold.kappa_min == manifold.kappa_max == 0:
        return v
    return manifold.to_tangent(p_new, manifold.parallel_transport(p, p_new, v))


def geodesic_regression(manifold, x, y, *, tol: float = 1e-8, max_iter: int = 500,
                        init=None) -> GeodesicRegressionResult:
    """Fletcher's least-squares geodesic for each data set, by preconditioned Riemannian gradient descent.

    Start: p₀ the Fréchet mean of the responses, v₀ the least-squares slope of Log(p₀, y_i) on the centred
    covariate, then p₀ moved to covariate 0. Step: p ← Exp(p, −∇_p E), v ← Γ(v − ∇_v E / mean(x²)) (the
    Newton step of the flat problem when x is centred), halved per data set until the energy does not
    increase; stop when the gradient norm is below ``tol``.

    Parameters
    ----------
    manifold : Manifold
        Sphere, Hyperbolic, Euclidean or Kendall.
    x : array_like ``(n,)`` or ``(..., n)``
        Covariate (centring it makes p̂ the point at the mean covariate and speeds convergence).
    y : array_like ``(..., n, *point_shape)``
        Responses; leading axes index independent data sets.
    tol : float > 0
    max_iter : int
    init : array ``(..., *point_shape)`` or None
        Start of the Fréchet mean of the responses (``frechet_mean``'s ``init``; its first response when
        ``None``). A public point makes the fit independent of the records' order and representatives.

    Returns
    -------
    GeodesicRegressionResult
    """
    check_regression_space(manifold)
    tol = check_positive("tol", tol)
    max_iter = check_int("max_iter", max_iter)
    x, y = _prepare(manifold, x, y)
    pn = manifold.point_ndim
    if np.any(np.ptp(x, axis=-1) == 0):
        raise ValueError(f"covariate x must not be constant within a data set, got {x}")
    xbar = x.mean(axis=-1, keepdims=True)
    xc = x - xbar
    p = frechet_mean(manifold, y, init=init).mean
    logs = manifold.log(p[(Ellipsis, None) + (slice(None),) * pn], y)
    v = np.einsum("...n,...n" + "abcd"[:pn] + "->..." + "abcd"[:pn], xc, logs) / manifold.per_point(
        np.sum(xc**2, axis=-1))
    v = manifold.to_tangent(p, v)
    shift = manifold.per_point(-xbar[..., 0]) * v
    p_new = manifold.exp(p, shift)
    v = _transport(manifold, p, p_new, v)
    p = p_new
    scale = manifold.per_point(np.mean(x**2, axis=-1))
    e_now = energy(manifold, p, v, x, y)
    step = np.ones(e_now.shape)
    n_iter = np.zeros(e_now.shape, dtype=int)
    converged = np.zeros(e_now.shape, dtype=bool)
    for _ in range(max_iter):
        gp, gv = energy_gradient(manifold, p, v, x, y)
        gnorm = np.sqrt(manifold.inner(p, gp, gp) + manifold.inner(p, gv, gv))
        converged = gnorm < tol
        if converged.all():
            break
        h = manifold.per_point(np.where(converged, 0.0, step))
        p_try = manifold.exp(p, -h * gp)
        v_try = _transport(manifold, p, p_try, v - h * gv / scale)
        e_try = energy(manifold, p_try, v_try, x, y)
        better = (e_try <= e_now) & ~converged
        p = np.where(manifold.per_point(better), p_try, p)
        v = np.where(manifold.per_point(better), v_try, v)
        e_now = np.where(better, e_try, e_now)
        step = np.where(better, np.minimum(1.0, 2.0 * step), 0.5 * step)
        n_iter = n_iter + ~converged
    gp, gv = energy_gradient(manifold, p, v, x, y)
    gnorm = np.sqrt(manifold.inner(p, gp, gp) + manifold.inner(p, gv, gv))
    return GeodesicRegressionResult(footpoint=p, velocity=v, energy=e_now, gradient_norm=gnorm, n_iter=n_iter,
                                    converged=gnorm < tol)
