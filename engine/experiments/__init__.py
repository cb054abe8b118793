"""Simulation studies returning tidy pandas DataFrames; run them with ``python -m engine.experiments``.

The study protocol
------------------
A study is a module registered in ``STUDIES`` below (name -> module, one-line description). It
defines six names, so that the command line, the pages and a Dask cluster drive it the same way
(``engine.experiments.runner``):

``Config``
    A frozen dataclass holding every setting, with ``reps`` and ``seed`` among its fields and
    ``block`` (replicates per task) where the study has replicates. ``__post_init__`` validates and
    normalises each field (tuples, not lists; ``protocol.normalise_seed``) and raises ``ValueError``
    naming the field and quoting the value. ``protocol.make_config(Config, settings)`` builds it
    from a dict (a ``--settings`` JSON file or a page's download) and names unknown keys.
``tasks(config) -> list[protocol.Task]``
    The run cut into independent tasks, one per grid cell and replicate block, in a fixed order.
    A task is ``Task(key, fn, args)``: a stable key such as ``("spd", 40, 250)``, a module-level
    function and small arguments (settings, counts, floats; never large arrays). It is run as
    ``fn(*args, rng=numpy.random.Generator)`` and returns a picklable output (DataFrames, small
    arrays, dicts). Shared set-up (a data set, an exact optimum) is rebuilt inside the task from
    the run's seed and a key of its own, cached per process with ``functools.lru_cache``.
``TABLES``
    The names of its tables, in the order ``combine`` returns them; the disk cache serves an entry
    only if its manifest lists exactly these (``engine.experiments.cache``).
``combine(config, outputs) -> dict[str, DataFrame]``
    The study's tidy tables (``TABLES``) from the outputs, given in the order of ``tasks(config)``.
``figures(results) -> dict[str, plotly Figure]``
    Pure figure builders for the CLI's HTML output; an optional ``COLORS`` (method -> hex colour) holds the
    colours they give methods the palette has no key for, which the pages reuse.
``footprint(config) -> dict[str, float]``
    A lower estimate, in bytes, of the run's largest allocations (its tables, its largest task's
    arrays) from the settings alone, each term described with the settings it grows with; the runner
    refuses a run whose total exceeds the machine's memory before building its tasks
    (``protocol.check_footprint``).

Each study keeps a ``run(*, progress=None, **settings)`` convenience for notebooks and tests: it is
``runner.run(module, make_config(Config, settings), progress=progress)``, in-process.

Seeds: a run has one root ``SeedSequence(config.seed)``; the task with key ``k`` draws from
``protocol.task_seed(config.seed, k)``, a child spawned by a digest of ``k`` alone. The numbers
therefore do not depend on the scheduler, the number of workers or the order in which tasks finish,
and every task runs with one BLAS thread, so an in-process run, ``--workers 2`` and a remote
cluster give bit-identical tables (``tests/engine/experiments/test_runner.py``). Changing ``block`` changes
the tasks and hence the draws.

The app reaches a study only through ``engine.pipelines.studies`` (``study(name)``, ``run``), never by
importing this package (``tests/app/test_study_gateway.py``).

Adding a study: write the module with the six names above, register it in ``STUDIES``, and test
``run`` on a small grid plus one ``runner.run(..., workers=2)`` equality check if it is heavy.
"""

from __future__ import annotations

import importlib

STUDIES = {
    "reimherr-fig1": ("engine.experiments.reimherr_fig1",
                      "Figure 1 of Reimherr et al. 2021: sensitivity and utility on SPD(2) and S^2"),
    "sampler-check": ("engine.experiments.sampler_check",
                      "Exact vs Metropolis–Hastings Laplace samplers: KS distance and draws per second"),
    "gauss-vs-laplace": ("engine.experiments.gauss_vs_laplace",
                         "Jiang et al. 2023: Riemannian Gaussian against Riemannian Laplace on S^d at equal μ-GDP"),
    "dp-rgd-eigenvector": ("engine.experiments.dp_rgd_eigenvector",
                           "Han et al.: private principal eigenvector on the sphere, excess risk against ε"),
    "dp-rgd-frechet": ("engine.experiments.dp_rgd_frechet",
                       "Han et al.: private Fréchet mean on SPD (affine or Bures–Wasserstein), excess risk against n"),
    "dp-rgd-hyperbolic": ("engine.experiments.dp_rgd_hyperbolic",
                          "Han et al.: private structured prediction on the Poincaré disk"),
    "dp-rgd-matrix-completion": ("engine.experiments.dp_rgd_matrix_completion",
                                 "Han et al.: private low-rank matrix completion on the Grassmannian"),
    "kulkarni-soto-fig1": ("engine.experiments.kulkarni_soto_fig1",
                           "Kulkarni & Soto Figure 1: log energy of private geodesic regression on shapes against ε, "
                           "and Table 1 checked by simulation"),
    "kulkarni-soto-fig2": ("engine.experiments.kulkarni_soto_fig2",
                           "Kulkarni & Soto Figure 2: predicted shapes at ages 60-80, non-private and private"),
    "singhal-steinke-dimension": ("engine.experiments.singhal_steinke_dimension",
                                  "Singhal & Steinke: success against n for d = 10, 100, 1000 beside Analyze Gauss"),
    "singhal-steinke-gap": ("engine.experiments.singhal_steinke_gap",
                            "Singhal & Steinke: success against the noise level (eigengap)"),
    "singhal-steinke-robust": ("engine.experiments.singhal_steinke_robust",
                               "Singhal & Steinke: success against the number of adversarial points"),
}


def load(name: str):
    """The module of study ``name``; ``ValueError`` naming the known studies otherwise."""
    if name not in STUDIES:
        raise ValueError(f"unknown study {name!r}; known: {', '.join(STUDIES)}")
    return importlib.import_module(STUDIES[name][0])
