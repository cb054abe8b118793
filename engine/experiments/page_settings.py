"""A page's settings file as a study's settings: ``python -m engine.experiments NAME --settings FILE``.

A page's "Settings (JSON)" download is its pipeline's config (``engine.pipelines.settings_file``).
Where a study runs the page's problem (the DP-RGD studies for the Private optimization page, Kulkarni
& Soto's figures for the Private regression page), ``STUDY_SETTINGS`` maps the config's fields onto
the study's ``Config``; the study keeps its own grid (of ε or n) and its own sampler lengths. Any
other page's file is refused in one line naming the pipeline that runs it. An older download of such a
page (its address keys, no ``"page"``) is recognised by those keys (``page_of_old_download``).
"""

from __future__ import annotations

from typing import Callable

from engine.pipelines import address_keys, settings_file
from engine.pipelines import private_optimization as po


def _eigenvector(c) -> dict:
    return dict(reps=c.reps, seed=c.seed, datasets=(c.data,), n=c.size, d=po.EIG_D, eigengap=po.EIG_GAP,
                delta=c.delta, rgd_step=c.eta, noise=c.noise)


def _frechet(c) -> dict:
    return dict(reps=c.reps, seed=c.seed, metric=po.METRICS[c.app], epsilon=c.epsilon, delta=c.delta,
                step_size=c.eta, noise=c.noise)


def _hyperbolic(c) -> dict:
    return dict(reps=c.reps, seed=c.seed, taxonomy=c.data, height=c.size, epsilon=c.epsilon, delta=c.delta,
                private_step=c.eta, noise=c.noise)


def _matrix_completion(c) -> dict:
    return dict(reps=c.reps, seed=c.seed, d=po.LR_D, rank=po.LR_RANK, n=c.size, epsilon=c.epsilon, delta=c.delta,
                batch_size=po.batch_size(c.batch, c.size), steps=c.steps, private_step_size=c.eta,
                step_size=po.LR_STEP, ridge=po.LR_RIDGE, noise=c.noise)


def _regression(c) -> dict:
    return dict(seed=c.seed, n=c.n, k=c.k, noise=c.noise, tau=c.tau, scale=c.scale, clip_residuals=c.clip_residuals)


def _regression_curves(c) -> dict:
    return dict(_regression(c), warmup=c.warmup)


def _regression_split(c) -> dict:
    return dict(_regression(c), eps_p=c.epsilon_p, eps_v=c.epsilon_v)


#: (page, study) -> the study's settings from the page's config.
STUDY_SETTINGS: dict[tuple[str, str], Callable] = {
    ("optimization", "dp-rgd-eigenvector"): _eigenvector,
    ("optimization", "dp-rgd-frechet"): _frechet,
    ("optimization", "dp-rgd-hyperbolic"): _hyperbolic,
    ("optimization", "dp-rgd-matrix-completion"): _matrix_completion,
    ("regression", "kulkarni-soto-fig1"): _regression_curves,
    ("regression", "kulkarni-soto-fig2"): _regression_split,
}


def page_of_old_download(name: str, settings: dict, config_type: type) -> str | None:
    """The page whose older download (address keys, no ``"page"``) ``settings`` is, among the pages whose
    config maps onto study ``name``: one of its keys is an address key of the page and no field of the
    study's ``config_type``; None otherwise."""
    fields = set(config_type.__dataclass_fields__)
    for page, study in STUDY_SETTINGS:
        table = address_keys.PAGES[page]
        if study == name and "page" not in settings and any(
                key in table.fields or key in table.shown_only for key in set(settings) - fields):
            return page
    return None


def study_settings(name: str, settings: dict, source: str, notify: Callable[[str], None] | None = None) -> dict:
    """The settings of study ``name`` in the page's settings ``settings`` (a JSON object with ``"page"``,
    read from ``source``); ``ValueError`` in one line when the page's config does not map onto the
    study, naming what runs it."""
    from engine.pipelines.__main__ import PIPELINES

    page = settings["page"]
    pipelines = [(pipeline_name, p) for pipeline_name, p in PIPELINES.items() if p.page == page]
    if not pipelines:
        raise ValueError(f"{source} holds the settings of page {page!r}, which no pipeline runs; download the "
                         f"settings of the page that runs {name!r}")
    pipeline_name, pipeline = pipelines[0]
    to_study = STUDY_SETTINGS.get((page, name))
    if to_study is None:
        raise ValueError(f"{source} holds the settings of the {page!r} page, which study {name!r} does not run; use "
                         f"`python -m engine.pipelines {pipeline_name} --settings {source}` instead")
    config = pipeline.config(**settings_file.fields_of(pipeline.config, page, settings, source, notify))
    if page == "optimization" and po.STUDY_OF_APPLICATION[config.app] != name:
        raise ValueError(f"{source} holds settings of the application {config.app!r}, which study {name!r} does not "
                         f"run; use `python -m engine.experiments {po.STUDY_OF_APPLICATION[config.app]} --settings "
                         f"{source}`")
    return to_study(config)
