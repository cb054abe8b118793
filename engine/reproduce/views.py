"""What each page's reproduction runs and draws: its pipeline, its paper and its figure builders."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One figure of a view: ``call`` builds it with ``builder`` (imported from ``module``) from the
    names ``config`` and ``result``; ``note`` says what it shows (a markdown paragraph)."""

    module: str
    builder: str
    call: str
    note: str


@dataclass(frozen=True)
class View:
    """A page's view: its title, the ``engine.pipelines`` command that runs it, the paper it follows,
    what the run does (``steps``, markdown) and its figures in the order the page draws them."""

    page: str
    title: str
    pipeline: str
    paper: str
    steps: str
    figures: tuple[Figure, ...]


VIEWS = {
    "playground": View(
        page="playground", title="Private mean playground", pipeline="private-mean",
        paper="M. Reimherr, K. Bharath, C. Soto (2021). Differential privacy over Riemannian manifolds. NeurIPS.",
        steps="The pipeline draws the data set from the chosen source, applies the ball policy to records "
              "outside the public ball B_r(m₀), computes the Fréchet mean, bounds its sensitivity by Theorem 2 "
              "of Reimherr, Bharath & Soto (2021), Δ = 2r(2 − h)/(n h) with h = 2r√κ·cot(2r√κ), calibrates each "
              "mechanism from the public r, m₀, n, ε and δ only, draws its releases and checks the assumptions.",
        figures=(Figure(
            "engine.viz.private_mean", "private_mean_figure", "private_mean_figure(result.to_dict(), config.radius)",
            "The page's figure: the data, the true Fréchet mean and every mechanism's releases on the space "
            "(the Riemannian Laplace of Reimherr, Bharath & Soto 2021 beside its alternatives)."),),
    ),
}
