"""The Private optimization page's cached engine calls (``engine.pipelines.private_optimization``),
each taking the frozen ``Settings`` of the sidebar, and ``run``, which runs them for the first
picture under a progress bar that says what it is doing.

* ``problem``: data, objective, public L0 and exact minimiser of the application;
* ``calibration``: the noise multiplier of DP-RSGD from the accountant of sampled batches (seconds
  the first time), computed on its own so the progress bar can say so;
* ``run_block``: one block of chains of the DP-RGD run and its noiseless twin (a run of R repeats is
  ``ceil(R / BLOCK)`` blocks, each cached, so the bar moves between them);
* ``accountant``, ``study`` and ``completion``: what the other sections draw, computed only when
  their section is chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pandas as pd
import streamlit as st

from engine import accounting
from engine.pipelines import private_optimization as po
from engine.pipelines.studies import study as registered_study
from ui import errors, studies
from ui.optimization.apps import APPS
from ui.optimization.controls import Settings


@dataclass(frozen=True)
class Computed:
    """What the first picture needs: the problem, T from the paper's rule (None without one) and the T
    run, the batch b actually used, and the combined run (``engine.pipelines.private_optimization.combine``)."""

    problem: po.Problem
    rule_steps: int | None
    steps: int
    batch: int
    run: po.DPRGDRun


def run_settings(settings: Settings) -> Settings:
    """The settings a run depends on: the study's grid and burn-in do not change it (one cache entry)."""
    return replace(settings, grid=None, burn=0)


def study_settings(settings: Settings) -> Settings:
    """The settings a study point depends on: not T, b or the grid it belongs to (the studies take T from
    the paper's rule and the full batch), and the burn-in only on SPD."""
    return replace(settings, steps=None, batch=0, grid=None, burn=settings.burn if settings.app in po.METRICS else 0)


@st.cache_data(max_entries=8, show_spinner=False)
def problem(*, settings: Settings) -> po.Problem:
    """``private_optimization.problem`` of the application, data set, size and seed in ``settings``."""
    return po.problem(app=settings.app, data=settings.data, size=settings.size, seed=settings.seed)


def steps(settings: Settings, p: po.Problem) -> tuple[int | None, int]:
    """T of the paper's rule (None without one) and the T run: the slider's, or the rule's capped at MAX_STEPS."""
    return po.steps_run(settings.config, p)


def _sigma(settings: Settings, p: po.Problem, steps: int):
    return po.noise_sigma(settings.noise, APPS[settings.app].paper_c, settings.eps, settings.delta, steps, p.n,
                          p.clip)


@st.cache_data(max_entries=16, show_spinner=False)
def calibration(*, epsilon: float, steps: int, delta: float, sampling_rate: float) -> float:
    """The accountant's noise multiplier z (``engine.accounting.calibrate_sigma``)."""
    return accounting.calibrate_sigma(epsilon, steps, delta=delta, sampling_rate=sampling_rate)


@st.cache_data(max_entries=64, show_spinner=False)
def run_block(*, settings: Settings, steps: int, start: int, stop: int) -> po.DPRGDRun:
    """Chains ``start``..``stop − 1`` of the run (``private_optimization.run_block``)."""
    p = problem(settings=settings)
    return po.run_block(p, app=settings.app, epsilon=settings.eps, delta=settings.delta,
                        sigma=_sigma(settings, p, steps), steps=steps, batch=settings.batch, eta=settings.eta,
                        seed=settings.seed, start=start, stop=stop)


def run(settings: Settings) -> Computed:
    """Problem, T and the DP-RGD run of ``settings``, under a progress bar naming each part.

    An engine ``ValueError`` is shown by ``ui.errors`` (the page stops there).
    """
    bar = st.progress(0.0, text="Setting up the problem …")
    fixed = run_settings(settings)
    with errors.shown_as_error("set up the problem"):
        p = problem(settings=fixed)
        rule, t = steps(settings, p)
    b = po.batch_size(settings.batch, p.n)
    name = "DP-RGD" if b == p.n else f"DP-RSGD (b = {b})"
    with errors.shown_as_error("run DP-RGD"):
        if settings.noise == "calibrated" and b < p.n:
            bar.progress(0.05, text=f"Calibrating σ for batches of b = {b} of n = {p.n} over T = {t:,} steps (the "
                                    "accountant of sampled batches takes 5–20 s the first time) …")
            calibration(epsilon=settings.eps, steps=t, delta=settings.delta, sampling_rate=b / p.n)
        parts = []
        blocks = po.blocks(settings.reps)
        for i, (start, stop) in enumerate(blocks):
            bar.progress(0.1 + 0.9 * i / len(blocks),
                         text=f"Running {name}: T = {t:,} steps, repeats {start + 1}–{stop} of {settings.reps} …")
            parts.append(run_block(settings=fixed, steps=t, start=start, stop=stop))
    bar.empty()
    return Computed(problem=p, rule_steps=rule, steps=t, batch=b, run=po.combine(parts))


@st.cache_data(max_entries=16, show_spinner=False)
def accountant(*, settings: Settings, steps: int, n: int, batch: int, clip: float) -> dict:
    """``private_optimization.accountant`` for T = ``steps`` and the paper's c of the application."""
    return po.accountant(epsilon=settings.eps, delta=settings.delta, steps=steps, n=n, batch=batch, clip=clip,
                         c=APPS[settings.app].paper_c)


def study_grid(settings: Settings) -> tuple:
    """The study's x values: the chosen grid plus this run's ε (eigenvector) or n (Fréchet studies).

    The hyperbolic study keeps its grid alone: its T grows like ε, so the grid bounds its cost.
    """
    if settings.grid is None:
        return ()
    values = set(APPS[settings.app].grids[settings.grid][1])
    if settings.app == "eigenvector":
        values.add(settings.eps)
    elif settings.app in po.METRICS:
        values.add(settings.size)
    return tuple(sorted(values))


def study_blocks(settings: Settings) -> list[tuple]:
    """The study's grid in cached pieces: one per value, but the whole ε grid at once for the eigenvector
    (its study draws the data set once per call, which dominates on the synthetic data)."""
    values = study_grid(settings)
    return [tuple(values)] if settings.app == "eigenvector" else [(x,) for x in values]


@st.cache_data(max_entries=32, show_spinner=False)
def study(*, settings: Settings, xs: tuple) -> pd.DataFrame:
    """Points ``xs`` of the study: ε values (eigenvector, hyperbolic) or sample sizes n at ε = ``settings.eps``
    (Fréchet mean, barycenter; ``settings.burn`` is the burn-in of their MH-sampled baselines).

    Returns columns method, x, mean, se, count, steps (T of the study's run) and sigma. The studies fix T
    by the paper's rule and use the full batch; the Fréchet studies draw each n's data from its own stream.
    """
    s = settings
    if s.app == "eigenvector":
        out = studies.run("dp-rgd-eigenvector", registered_study("dp-rgd-eigenvector").config(
            reps=s.reps, seed=s.seed, epsilons=xs, datasets=(s.data,), n=s.size, d=po.EIG_D, eigengap=po.EIG_GAP,
            delta=s.delta, rgd_step=s.eta, noise=s.noise))["risk"]
        out = out.rename(columns={"epsilon": "x", "excess_risk": "error"})
    elif s.app in po.METRICS:
        out = pd.concat([studies.run("dp-rgd-frechet", registered_study("dp-rgd-frechet").config(
            reps=s.reps, seed=[s.seed, int(x)], ns=(int(x),), metric=po.METRICS[s.app], epsilon=s.eps,
            delta=s.delta, step_size=s.eta, noise=s.noise, laplace_burn_in=s.burn,
            kng_burn_in=s.burn))["risk"].assign(x=x, steps=int(x)) for x in xs])
        out = out.rename(columns={"excess_risk": "error"})
    else:
        out = pd.concat([po.hyperbolic_errors(studies.run("dp-rgd-hyperbolic", registered_study("dp-rgd-hyperbolic").config(
            reps=s.reps, seed=s.seed, taxonomy=s.data, height=s.size, epsilon=x, delta=s.delta, private_step=s.eta,
            noise=s.noise, nonprivate_iterations=1))).assign(x=x) for x in xs])
    summary = po.summarize(out, ["method", "x"], "error")
    extra = out.groupby(["method", "x"], sort=False)[["steps", "sigma"]].first().reset_index()
    return summary.merge(extra, on=["method", "x"])


@st.cache_data(max_entries=8, show_spinner=False)
def completion(*, settings: Settings, steps: int) -> dict:
    """Train and test RMSE along DP-RSGD and RSGD (the ``dp-rgd-matrix-completion`` study)."""
    s = settings
    return studies.run("dp-rgd-matrix-completion", registered_study("dp-rgd-matrix-completion").config(
        reps=s.reps, seed=s.seed, d=po.LR_D, rank=po.LR_RANK, n=s.size, epsilon=s.eps, delta=s.delta,
        batch_size=po.batch_size(s.batch, s.size), steps=steps, private_step_size=s.eta, step_size=po.LR_STEP,
        ridge=po.LR_RIDGE, noise=s.noise, record_every=max(1, steps // 40)))
