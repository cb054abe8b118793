"""Privacy accounting for DP-RGD / DP-RSGD: a thin wrapper over dp-accounting's RDP accountant.

Conventions (used by ``engine.mechanisms.dp_rgd`` and stated in its ``privacy_guarantee``):

* **Neighbouring relation: replace-one.** Two data sets of the same public size n are neighbours
  when they differ in one record (Han, Mishra, Jawanpuria & Gao, §2 "a neighbouring dataset ...
  differs in only one sample"). Lemma 2 of the paper, K(λ) ≤ 2λ(λ+1)L0²/(n²σ²), is exactly the
  Gaussian moment λ(λ+1)Δ²/(2σ²) at the replace-one sensitivity Δ = 2L0/n.
* **Sensitivity of one step.** Per-example Riemannian gradients are clipped to norm ≤ L0 (``clip``),
  and the step releases their average over a batch of b records plus ξ ~ N_w(0, σ²). Replacing one
  record moves that average by at most Δ = 2·L0/b in the Riemannian norm (b = n for full batch).
  Under add/remove-one the sum would move by L0 only, but the average over a varying n would not
  be a fixed-size query, so we never use that relation here.
* **Noise multiplier.** The accountant works with z = σ/Δ, so the tangent-space standard deviation
  is σ = z · 2·L0/b (``noise_multiplier_to_sigma``).

Events. Full batch (q = 1): T-fold composition of ``GaussianDpEvent(z)``; by Proposition 2 of the
paper the tangent Gaussian in an orthonormal basis of T_wM *is* the Euclidean Gaussian mechanism,
so its RDP α/(2z²) is exact. Mini-batches (q = b/n < 1): Algorithm 1 draws b distinct records
uniformly *without replacement*, so we compose ``SampledWithoutReplacementDpEvent`` with the
accountant's ``REPLACE_ONE`` relation; dp-accounting evaluates it by Theorem 27 of Wang, Balle &
Kasiviswanathan (AISTATS 2019, "Subsampled Rényi differential privacy and analytical moments
accountant") — the sampler and relation the paper itself uses (Lemma 3). This is faithful (an upper
bound on the RDP of exactly the mechanism we run). ``PoissonSampledDpEvent`` is deliberately not
used: it describes random-size batches under add/remove-one, and charging fixed-size batches with
the Poisson bound can understate ε (Lebeda, Regehr, Kamath & Steinke 2024, "Avoiding pitfalls for
privacy accounting of subsampled mechanisms under composition").

Two valid bounds for mini-batches. Whatever the sampling, each step is also a Gaussian mechanism
with multiplier z on its batch, so the unamplified full-batch composition bounds the same
mechanism. dp-accounting's without-replacement bound is loose for large z and large q (q = 0.5,
T = 1, δ = 1e-5: it levels off near ε ≈ 0.12 and is not monotone in z, while the unamplified bound
goes to 0), so ``epsilon_for`` reports the smaller of the two ε, and ``calibrate_sigma`` the
smallest z for which that minimum meets the target.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from engine.validation import check_int, check_nonnegative, check_positive, check_probability

if TYPE_CHECKING:
    from dp_accounting import dp_event


def _dp_accounting():
    """The ``dp_accounting`` package, imported on first use: it pulls in ``scipy.signal`` (~1 s),
    which every page importing the mechanisms would otherwise pay at start-up."""
    import dp_accounting

    return dp_accounting


def _accountant():
    """A fresh RDP accountant under the replace-one relation."""
    dp_accounting = _dp_accounting()
    return dp_accounting.rdp.RdpAccountant(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)


def _check_rate(sampling_rate) -> float:
    q = check_probability("sampling_rate", sampling_rate, open_interval=False)
    if q == 0:
        raise ValueError(f"sampling_rate must lie in (0, 1], got {sampling_rate!r}")
    return q


def dp_rgd_event(noise_multiplier: float, steps: int, *, sampling_rate: float = 1.0) -> dp_event.DpEvent:
    """The ``DpEvent`` of T steps of DP-RGD (q = 1) or DP-RSGD (q = b/n < 1).

    Parameters
    ----------
    noise_multiplier : z = σ/Δ with Δ = 2·L0/b the replace-one sensitivity of one step (> 0).
    steps : number of iterations T.
    sampling_rate : q = b/n; the batch is drawn uniformly without replacement (see module notes).

    Returns
    -------
    ``SelfComposedDpEvent`` of ``GaussianDpEvent(z)`` (q = 1) or of
    ``SampledWithoutReplacementDpEvent(n', b', GaussianDpEvent(z))`` with b'/n' = q (the RDP bound
    depends on the ratio only).
    """
    z = check_positive("noise_multiplier", noise_multiplier)
    steps = check_int("steps", steps)
    q = _check_rate(sampling_rate)
    dp_event = _dp_accounting().dp_event
    event = dp_event.GaussianDpEvent(z)
    if q < 1.0:
        ratio = Fraction(q).limit_denominator(1 << 40)
        event = dp_event.SampledWithoutReplacementDpEvent(ratio.denominator, ratio.numerator, event)
    return dp_event.SelfComposedDpEvent(event, steps)


@functools.lru_cache(maxsize=1024)
def _epsilon(z: float, steps: int, delta: float, q: float) -> float:
    """ε of the accountant for ``dp_rgd_event(z, steps, sampling_rate=q)``; cached, since a sampled batch's
    bound takes about half a second and every block of a run states the same guarantee."""
    accountant = _accountant()
    accountant.compose(dp_rgd_event(z, steps, sampling_rate=q))
    return float(accountant.get_epsilon(delta))


def epsilon_for(sigma_multiplier: float, steps: int, *, delta: float, sampling_rate: float = 1.0) -> float:
    """ε spent by T steps at noise multiplier z, by the RDP accountant (replace-one relation).

    Parameters
    ----------
    sigma_multiplier : noise multiplier z = σ/(2·L0/b) >= 0; z = 0 (no noise) gives ε = inf.
    steps : number of iterations T >= 1.
    delta : target δ in (0, 1).
    sampling_rate : q = b/n in (0, 1]; q < 1 means batches drawn without replacement.

    Returns
    -------
    float
        The smallest ε over the accountant's Rényi orders with the conversion of Proposition 1
        (Mironov 2017, as refined in dp-accounting); for q < 1 the smaller of the amplified and
        the unamplified bound (module notes).
    """
    z = check_nonnegative("sigma_multiplier", sigma_multiplier)
    steps = check_int("steps", steps)
    delta = check_probability("delta", delta)
    q = _check_rate(sampling_rate)
    if z == 0:
        return float(np.inf)
    full = _epsilon(z, steps, delta, 1.0)
    return full if q == 1.0 else min(full, _epsilon(z, steps, delta, q))


def _initial_multiplier(target_epsilon: float, steps: int, delta: float) -> float:
    """Closed-form full-batch guess: minimising T α/(2z²) + log(1/δ)/(α − 1) over α gives
    ε = s² + 2s√log(1/δ) with s² = T/(2z²), hence z = √(T/2)/(√(log(1/δ) + ε) − √log(1/δ)); the
    difference is written as ε/(√(log(1/δ) + ε) + √log(1/δ)), which does not cancel to 0 for tiny ε."""
    log_term = np.log(1.0 / delta)
    s = target_epsilon / (np.sqrt(log_term + target_epsilon) + np.sqrt(log_term))
    return float(np.sqrt(steps / 2.0) / s)


def calibrate_sigma(target_epsilon: float, steps: int, *, delta: float, sampling_rate: float = 1.0) -> float:
    """Noise multiplier z at which ``epsilon_for`` after T steps equals ``target_epsilon`` (from below).

    Uses ``dp_accounting.calibrate_dp_mechanism`` with the RDP accountant (replace-one): first on
    the full-batch event (bracket from the closed-form guess), giving z_full; for q < 1 then on the
    without-replacement event in [g/2, 2g] around g = 2.5·q·z_full when it brackets the target, else
    in [z_full·10⁻³ᵏ, z_full], unless the amplified bound at z_full is already above the target (then
    z_full is the answer). The tolerance in z is 1e-12·guess, so
    the ε of the result matches the target to about 1e-9 (relative). Multiply by 2·L0/b
    (``noise_multiplier_to_sigma``) for the tangent-space σ. Results are cached: a subsampled
    calibration evaluates dp-accounting's bound (seconds each) a dozen times.

    Parameters
    ----------
    target_epsilon : ε > 0.
    steps : number of iterations T >= 1.
    delta : δ in (0, 1).
    sampling_rate : q = b/n in (0, 1].

    Returns
    -------
    float
        The noise multiplier z (not σ).
    """
    eps = check_positive("target_epsilon", target_epsilon)
    steps = check_int("steps", steps)
    delta = check_probability("delta", delta)
    q = _check_rate(sampling_rate)
    return _calibrate(eps, steps, delta, q)


def _solve(eps: float, steps: int, delta: float, q: float, bracket, tol: float) -> float:
    """dp-accounting's calibration; its failures (no bracket found, overflow of a huge multiplier)
    become a ValueError naming ``target_epsilon``: the RDP orders cannot resolve so small an ε."""
    dp_accounting = _dp_accounting()
    try:
        z = float(dp_accounting.calibrate_dp_mechanism(
            _accountant,
            lambda z: dp_rgd_event(z, steps, sampling_rate=q),
            eps, delta, bracket_interval=bracket, tol=tol,
        ))
    except (dp_accounting.mechanism_calibration.NoBracketIntervalFoundError, ArithmeticError, ValueError):
        z = float("nan")
    if not np.isfinite(z) or z <= 0:
        raise ValueError(f"target_epsilon = {eps:g} is too small for the RDP accountant to calibrate at delta = "
                         f"{delta:g} over {steps} steps: choose a larger epsilon")
    return z


#: z_sampled / (q·z_full) observed between 2 and 3.1 (q = 0.01 … 0.1, T = 100 … 200, ε = 0.002 … 1).
_SAMPLED_RATIO = 2.5


@functools.lru_cache(maxsize=256)
def _calibrate(eps: float, steps: int, delta: float, q: float) -> float:
    """Cached body of ``calibrate_sigma``."""
    dp_accounting = _dp_accounting()
    guess = _initial_multiplier(eps, steps, delta)
    tol = guess * 1e-12
    full = _solve(eps, steps, delta, 1.0, dp_accounting.LowerEndpointAndGuess(guess * 1e-3, guess), tol)
    if q == 1.0 or _epsilon(full, steps, delta, q) >= eps:
        return full
    # Amplification by sampling a fraction q (replace-one) lowers z to about 2–3 q·z_full: a bracket of
    # a factor 4 around it leaves brentq fewer steps than [z_full·10⁻³, z_full] (each step costs the
    # sampled bound, about half a second).
    guess = min(full, _SAMPLED_RATIO * q * full)
    lower, upper = guess / 2.0, min(full, 2.0 * guess)
    if _epsilon(lower, steps, delta, q) > eps >= _epsilon(upper, steps, delta, q):
        return _solve(eps, steps, delta, q, dp_accounting.ExplicitBracketInterval(lower, upper), tol)
    # The amplified bound grows as z -> 0 (a sampled record is then exposed), unless δ is so large
    # that exposing a record with probability about q is already within it.
    for lower in full * 10.0 ** np.arange(-3, -13, -3):
        if _epsilon(lower, steps, delta, q) > eps:
            return _solve(eps, steps, delta, q, dp_accounting.ExplicitBracketInterval(lower, full), tol)
    raise ValueError(
        f"the subsampled bound stays below epsilon = {eps:g} down to noise multiplier {lower:.3g} "
        f"(delta = {delta:g}, sampling_rate = {q:g}): choose delta well below the sampling rate")


def step_sensitivity(clip: float, batch_size: int) -> float:
    """Replace-one sensitivity Δ = 2·L0/b of the averaged clipped gradient of one step."""
    return 2.0 * check_positive("clip", clip) / check_int("batch_size", batch_size)


def noise_multiplier_to_sigma(noise_multiplier: float, *, clip: float, batch_size: int) -> float:
    """Tangent-space σ = z · 2·L0/b of the noise ξ ~ N_w(0, σ²) added to the averaged gradient."""
    return check_nonnegative("noise_multiplier", noise_multiplier) * step_sensitivity(clip, batch_size)


def sigma_to_noise_multiplier(sigma: float, *, clip: float, batch_size: int) -> float:
    """Noise multiplier z = σ / (2·L0/b) of a tangent-space σ (inverse of the above)."""
    return check_nonnegative("sigma", sigma) / step_sensitivity(clip, batch_size)


def paper_sigma(epsilon: float, delta: float, steps: int, n: int, clip: float, *, c: float = 1.0) -> float:
    """The paper's noise rule σ² = c · T log(1/δ) L0² / (n² ε²) (Algorithm 1 of Han et al.).

    The paper states the rule "for some constant c" (§4) without a value in the main text; its
    experiments use c = 1 (Fréchet mean, barycenter, eigenvector, hyperbolic prediction) and
    c = 10⁴ for matrix completion (§6.5). With c = 1 the rule does *not* by itself reach the
    target ε under the RDP accountant (e.g. n = T = 300, ε = 0.1, δ = 1e-3, L0 = 1 spends
    ε ≈ 0.17); for full batches, Lemma 2 with Proposition 1 gives ε_spent ≤ 2√(2/c)·ε +
    2ε²/(c log(1/δ)), so c slightly above 8 suffices. ``epsilon_for`` reports the accountant's spend.

    Parameters
    ----------
    epsilon, delta : privacy target (ε > 0, δ in (0, 1)).
    steps : T >= 1.
    n : number of records n >= 1.
    clip : Lipschitz constant / clipping norm L0 > 0.
    c : the constant (> 0), default 1 as in the experiments.

    Returns
    -------
    float
        σ (tangent-space standard deviation, not a noise multiplier).
    """
    eps = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta)
    steps = check_int("steps", steps)
    n = check_int("n", n)
    l0 = check_positive("clip", clip)
    c = check_positive("c", c)
    return float(np.sqrt(c * steps * np.log(1.0 / delta)) * l0 / (n * eps))


def epsilon_curve(noise_multiplier: float, steps, *, delta: float, sampling_rate: float = 1.0) -> np.ndarray:
    """ε after each number of steps in ``steps`` at noise multiplier z, as ``epsilon_for`` gives it.

    The RDP of T steps is T times the RDP of one step, so the accountant evaluates one step (the
    slow part for sampled batches) and converts T·RDP for every T: the same numbers as calling
    ``epsilon_for`` once per T (replace-one relation; for q < 1 the smaller of the
    amplified and the unamplified bound), at the cost of one call.
    """
    steps = np.asarray(steps, dtype=int)

    def per_step(q: float) -> tuple[np.ndarray, np.ndarray]:
        acc = _accountant()
        acc.compose(dp_rgd_event(noise_multiplier, 1, sampling_rate=q))
        return acc.orders, acc.rdp

    def curve(q: float) -> np.ndarray:
        orders, rdp = per_step(q)
        compute_epsilon = _dp_accounting().rdp.compute_epsilon
        return np.array([compute_epsilon(orders, t * rdp, delta)[0] for t in steps])

    full = curve(1.0)
    return full if sampling_rate == 1.0 else np.minimum(full, curve(sampling_rate))
