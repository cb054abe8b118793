"""Differentially private Riemannian (stochastic) gradient descent, Algorithm 1 of Han, Mishra,
Jawanpuria & Gao ("Differentially private Riemannian optimization").

One step, for a batch B_t of b records (all n for DP-RGD, b drawn without replacement for
DP-RSGD):

    g_t = (1/b) Σ_{i ∈ B_t} clip_{L0}(grad f_i(w_t)),   clip_{L0}(v) = v · min(1, L0/‖v‖_{w_t}),
    w_{t+1} = Exp_{w_t}(−η_t (g_t + ξ_t)),               ξ_t ~ N_{w_t}(0, σ²),

with N_w(0, σ²) the tangent Gaussian isotropic in the Riemannian metric (Definition 3,
``engine.mechanisms.tangent_gaussian``). Outputs (§4.1): the last iterate w_T (Theorem 4), the
running geodesic average w̄_1 = w_1, w̄_{t+1} = Exp_{w̄_t}(Log_{w̄_t}(w_{t+1})/(t+1)) (Theorem 2), or
an iterate chosen uniformly from w_1..w_T (Theorem 5). Replacing one record moves g_t by at most
2·L0/b in ‖·‖_{w_t}, whatever the data, so with σ from ``engine.accounting`` the whole path is
(ε, δ)-DP (Proposition 2 + moments accountant, Theorem 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine import accounting
from engine.mechanisms.gaussian import tangent_gaussian
from engine.mechanisms.guarantee import PrivacyGuarantee
from engine.mechanisms.protocol import Release
from engine.validation import check_finite_array, check_int, check_nonnegative, check_positive, check_probability

OUTPUTS = ("last", "average", "uniform")
# Diagnostics over the path are evaluated in chunks of iterates holding about this many numbers.
_CHUNK_ELEMENTS = 1 << 22


@dataclass(frozen=True, kw_only=True)
class DPRGDResult(Release):
    """Run of ``DPRGD.fit`` for a batch of independent chains of shape ``batch`` (a ``Release``).

    Attributes
    ----------
    points : ``(*batch, *point_shape)``, the released point (rule ``output_rule``).
    sigma : tangent-space standard deviation σ actually used.
    guarantee : the guarantee of this run, with the accountant's ε for its data size n.
    path : ``(T + 1, *batch, *point_shape)``, iterates w_0..w_T (all covered by the guarantee).
    output_index : ``(*batch,)``, the index t of the released iterate (−1 for the average).
    diagnostic_iterations : ``(K,)``, the iterations t at which the diagnostics were evaluated.
    losses : ``(K, *batch)``, F(w_t). **Not private**: computed from the data, for study only.
    gradient_norms : ``(K, *batch)``, ‖grad F(w_t)‖ of the unclipped full gradient (not private).
    noise_multiplier : z = σ/(2·L0/b), the accountant's parameter.
    epsilon_spent : ε of the whole path at ``delta`` by the RDP accountant (inf when σ = 0).
    delta : δ.
    paper_sigma : σ of the paper's rule σ² = T log(1/δ) L0²/(n²ε²) (c = 1), for comparison.
    batch_size, steps, clip, output_rule : the settings of the run.
    """

    path: np.ndarray
    output_index: np.ndarray
    diagnostic_iterations: np.ndarray
    losses: np.ndarray
    gradient_norms: np.ndarray
    noise_multiplier: float
    epsilon_spent: float
    delta: float
    paper_sigma: float
    batch_size: int
    steps: int
    clip: float
    output_rule: str


class DPRGD:
    """DP-RGD (full batch) and DP-RSGD (mini-batches without replacement), Algorithm 1.

    Parameters (keyword-only, validated here)
    ----------
    epsilon : target ε > 0 (used to calibrate σ and by the paper rule).
    delta : δ in (0, 1).
    clip : L0 > 0, the public clipping norm of per-example Riemannian gradients.
    steps : T >= 1 iterations.
    step_size : η > 0, or a sequence of T positive step sizes η_0..η_{T−1}.
    batch_size : b, or None for the full batch (DP-RGD). Checked against n in ``fit``.
    output : "last", "average" (geodesic averaging) or "uniform" (uniformly chosen iterate).
    n : the public data size, optional: with it ``privacy_guarantee()`` states σ and the ε spent
        (and ``fit`` requires ``problem.n == n``); without it they depend on the data size and are
        stated in the ``guarantee`` of each ``fit`` result, ``privacy_guarantee()`` giving the target.
    sigma : None (default) calibrates σ with the RDP accountant so that ε is met exactly;
        "paper" uses σ² = T log(1/δ) L0²/(n²ε²) (the experiments' c = 1; the accountant then
        reports the ε it really spends); a number >= 0 fixes σ, and σ = 0 is the explicit
        non-private mode (plain Riemannian gradient descent with clipping).

    Examples
    --------
    >>> mech = DPRGD(epsilon=1.0, delta=1e-5, clip=1.0, steps=50, step_size=0.1)
    >>> result = mech.fit(problem, init, rng=0)          # doctest: +SKIP
    >>> result.points, result.epsilon_spent               # doctest: +SKIP
    """

    def __init__(self, *, epsilon, delta, clip, steps, step_size, batch_size=None, output="last",
                 sigma=None, n=None):
        self.epsilon = check_positive("epsilon", epsilon)
        self.delta = check_probability("delta", delta)
        self.clip = check_positive("clip", clip)
        self.steps = check_int("steps", steps)
        self.step_sizes = self._check_step_size(step_size, self.steps)
        self.batch_size = None if batch_size is None else check_int("batch_size", batch_size)
        if output not in OUTPUTS:
            raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")
        self.output = output
        if sigma is None or (isinstance(sigma, str) and sigma == "paper"):
            self.sigma = sigma
        elif isinstance(sigma, str):
            raise ValueError(f"sigma must be None (calibrated), 'paper' or a number >= 0, got {sigma!r}")
        else:
            self.sigma = check_nonnegative("sigma", sigma)
        self.n = None if n is None else check_int("n", n)
        self._public_noise = None
        if self.n is not None:
            b = self.n if self.batch_size is None else self.batch_size
            if b > self.n:
                raise ValueError(f"batch_size must be <= n = {self.n}, got {self.batch_size!r}")
            self._public_noise = self._noise(self.n, b)

    @staticmethod
    def _check_step_size(step_size, steps: int) -> np.ndarray:
        if np.ndim(step_size) == 0:
            return np.full(steps, check_positive("step_size", step_size))
        eta = check_finite_array("step_size", step_size)
        if eta.shape != (steps,) or np.any(eta <= 0):
            raise ValueError(f"step_size must be a number > 0 or {steps} positive numbers, got {step_size!r}")
        return eta

    # ----- accounting -----------------------------------------------------------------------
    def _noise(self, n: int, b: int) -> dict:
        """σ, z, ε spent and the paper's σ for data size n and batch size b."""
        q = b / n
        paper = accounting.paper_sigma(self.epsilon, self.delta, self.steps, n, self.clip)
        if self.sigma is None:
            z = accounting.calibrate_sigma(self.epsilon, self.steps, delta=self.delta, sampling_rate=q)
            sigma = accounting.noise_multiplier_to_sigma(z, clip=self.clip, batch_size=b)
        else:
            sigma = paper if self.sigma == "paper" else self.sigma
            z = accounting.sigma_to_noise_multiplier(sigma, clip=self.clip, batch_size=b)
        eps = accounting.epsilon_for(z, self.steps, delta=self.delta, sampling_rate=q)
        return {"n": n, "batch_size": b, "sigma": sigma, "noise_multiplier": z, "epsilon_spent": eps,
                "paper_sigma": paper}

    def privacy_guarantee(self) -> PrivacyGuarantee:
        """(ε, δ), the noise rule, the neighbouring relation and the assumptions, from the settings only.

        With the public ``n`` it quotes the σ used and the ε the accountant charges for that data
        size; without it, the target ε (σ = nan: it depends on n; each ``fit`` result states both).
        """
        return self._guarantee(self._public_noise)

    def _guarantee(self, acc: dict | None) -> PrivacyGuarantee:
        """The guarantee for the accountant's numbers ``acc`` of ``_noise`` (``None``: n unknown)."""
        name = ("DP-RGD" if self.batch_size is None else "DP-RSGD") + " (Algorithm 1 of Han et al.)"
        if self.sigma == 0:
            return PrivacyGuarantee(
                mechanism=name + ", non-private mode", epsilon=float(np.inf), delta=self.delta, sigma=0.0,
                rule="σ = 0", reason="no noise is added: plain Riemannian gradient descent with clipping",
                assumptions=())
        rule = {None: "noise multiplier z calibrated by the RDP accountant, σ = z·2L₀/b",
                "paper": "σ² = T ln(1/δ) L₀²/(n²ε²) (c = 1); ε is the accountant's"
                }.get(self.sigma, "σ fixed by the caller; ε is the accountant's")
        if acc is None:
            epsilon = self.epsilon if self.sigma is None else float("nan")
            sigma = float("nan") if self.sigma in (None, "paper") else self.sigma
        else:
            epsilon, sigma = acc["epsilon_spent"], acc["sigma"]
            sampling = ("full batch" if acc["batch_size"] == acc["n"] else
                        f"batches of b = {acc['batch_size']} drawn without replacement from n = {acc['n']}")
            rule += f" (here z = {acc['noise_multiplier']:.6g}, T = {self.steps}, {sampling})"
        return PrivacyGuarantee(
            mechanism=name, epsilon=float(epsilon), delta=self.delta, sigma=float(sigma), rule=rule,
            reason=(
                "Neighbouring data sets have the same public size n and differ in one record. Every "
                "per-example Riemannian gradient is clipped to norm at most L₀ = " f"{self.clip:g}"
                " before averaging, so whatever the data one step moves by at most 2L₀/b in the "
                "Riemannian norm at the iterate w_t; the tangent Gaussian N(0, σ²) is isotropic in that norm "
                "(Proposition 2), so each step is a Gaussian mechanism with noise multiplier "
                "z = σ/(2L₀/b). The T adaptive steps are composed by the RDP accountant of "
                "dp-accounting (Wang, Balle & Kasiviswanathan 2019 for sampling without replacement). "
                "The guarantee covers the whole path w₁, …, w_T, so the last iterate, the geodesic "
                "average and the uniformly chosen iterate (post-processing) all inherit it."),
            assumptions=(
                "L₀, T, the step sizes, the batch size, the initial point and n are public and chosen "
                "without looking at the data",
                "the tangent noise is sampled exactly (the engine's tangent Gaussian sampler)",
                "the losses and gradient norms stored in the result are non-private diagnostics and "
                "are not released",
            ),
        )

    # ----- the algorithm --------------------------------------------------------------------
    def fit(self, problem, init, rng=None, *, record_every: int = 1) -> DPRGDResult:
        """Run Algorithm 1 on ``problem`` from ``init`` (one chain, or a batch of chains).

        Parameters
        ----------
        problem : an ``engine.estimators.erm.ERMProblem`` (``manifold``, ``n``, batched
            ``per_example_grad(w, idx)``, ``loss(w)``, ``gradient(w)``).
        init : ``(*batch, *point_shape)``, public starting point(s); chains run independently.
        rng : numpy Generator, int or None.
        record_every : evaluate the (non-private) loss and gradient norm at iterations 0, k, 2k, …
            and T only; they cost a full pass over the data per iterate.

        Returns
        -------
        DPRGDResult
        """
        rng = np.random.default_rng(rng)
        record_every = check_int("record_every", record_every)
        m = problem.manifold
        n = check_int("problem.n", problem.n)
        if self.n is not None and n != self.n:
            raise ValueError(f"problem.n = {n} differs from the public n = {self.n} the guarantee was stated for")
        b = n if self.batch_size is None else self.batch_size
        if b > n:
            raise ValueError(f"batch_size must be <= n = {n}, got {self.batch_size!r}")
        acc = self._public_noise if self.n is not None else self._noise(n, b)
        w = m.check_points(init, "init").copy()
        batch = w.shape[: w.ndim - m.point_ndim]
        path = np.empty((self.steps + 1,) + w.shape)
        path[0] = w
        full = np.arange(n)
        for t in range(self.steps):
            idx = full if b == n else np.argpartition(rng.random(batch + (n,)), b - 1, axis=-1)[..., :b]
            v = problem.clipped_mean_gradient(w, idx, self.clip)
            try:
                if acc["sigma"] > 0:
                    v = v + tangent_gaussian(m, w, acc["sigma"], rng=rng)
                w = m.exp(w, -self.step_sizes[t] * v)
            except ValueError as err:
                raise self._left_manifold(m, t, acc["sigma"]) from err
            path[t + 1] = w
        try:
            m.check_points(w, "w")
        except ValueError as err:
            raise self._left_manifold(m, self.steps - 1, acc["sigma"]) from err
        output, index = self._release(m, path, batch, rng)
        recorded = np.unique(np.append(np.arange(0, self.steps + 1, record_every), self.steps))
        losses, grad_norms = self._diagnostics(problem, path[recorded])
        return DPRGDResult(points=output, sigma=acc["sigma"], guarantee=self._guarantee(acc), path=path,
                           output_index=index, diagnostic_iterations=recorded, losses=losses, gradient_norms=grad_norms,
                           noise_multiplier=acc["noise_multiplier"], epsilon_spent=acc["epsilon_spent"],
                           delta=self.delta, paper_sigma=acc["paper_sigma"], batch_size=b,
                           steps=self.steps, clip=self.clip, output_rule=self.output)

    def _left_manifold(self, m, t: int, sigma: float) -> ValueError:
        """The error when step t + 1 leaves ``m``: the noise moved an iterate farther than the space's
        exponential map (or float64) can follow, e.g. σ in the hundreds at a tiny ε."""
        move = float(self.step_sizes[t]) * sigma * np.sqrt(m.dim)
        return ValueError(
            f"the iterates left {m} by step {t + 1} of {self.steps}: the noise σ = {sigma:.4g} with step size "
            f"η = {self.step_sizes[t]:.4g} moves each iterate by about η·σ·√dim = {move:.3g} per step, too far for "
            "this space; raise epsilon, or lower step_size or steps")

    def _release(self, m, path, batch, rng):
        steps = self.steps
        if self.output == "last":
            return path[-1].copy(), np.full(batch, steps)
        if self.output == "uniform":
            index = rng.integers(1, steps + 1, size=batch)
            taken = np.take_along_axis(path, index.reshape((1,) + batch + (1,) * m.point_ndim), axis=0)[0]
            return taken, index
        avg = path[1].copy()
        for t in range(1, steps):
            avg = m.exp(avg, m.log(avg, path[t + 1]) / (t + 1))
        return avg, np.full(batch, -1)

    @staticmethod
    def _diagnostics(problem, path):
        """F(w_t) and ‖grad F(w_t)‖ along the path, in chunks of iterates to bound memory."""
        m = problem.manifold
        per_iterate = max(1, int(np.prod(path.shape[1:])) * problem.n)
        chunk = max(1, _CHUNK_ELEMENTS // per_iterate)
        losses, norms = [], []
        for start in range(0, len(path), chunk):
            part = path[start:start + chunk]
            loss, gradient = problem.loss_and_gradient(part)
            losses.append(loss)
            norms.append(m.norm(part, gradient))
        return np.concatenate(losses), np.concatenate(norms)
