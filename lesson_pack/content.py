"""What the pack shows, as plain JSON-ready data, read from the Lesson's own step definitions.

Each step: its title, question and choices, the right choice and the numbers of its chart's own run
(``Step.answer``), its headline and takeaway, and its chart as plotly JSON (``Step.chart``) with, where its
builder takes ε or n, the same builder's chart at a few other values for the page's ε and n sliders
(``sliders``: each value its own run, as the full page draws it there; the answer stays the step's own run's).
The game step carries ``ROUNDS`` rounds of ``engine.lesson.game`` dealt from ``GAME_SEED``, the ceiling
e^ε/(1 + e^ε) and the best attacker's and the broken control's tallies (``ui.lesson.compute``).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json

from engine.viz.sphere import release_traces
from ui.lesson import compute
from ui.lesson.game import _interval as tally_words
from ui.lesson.steps import GAME_EPSILON, STEPS

#: Rounds of the game the pack carries (they repeat after the last), and the seed they are dealt from.
ROUNDS, GAME_SEED = 200, 47
#: What a step's sliders move, as the parameter (or config field) of its chart's builder, and its label.
SLIDERS = {"epsilon": "ε", "n": "n"}
#: The values a slider offers besides the step's own: the own value times these factors, nearest first; and how
#: many values a slider has by default (the own one included).
FACTORS, VALUES = (0.5, 2.0, 0.25, 4.0), 5
#: The most a slider value's run may cost (its config's ``work``) against the step's own run.
MAX_COST = 2.0


def _costlier(moved, own) -> bool:
    """Whether the argument ``moved`` declares a run's ``work`` (as ``RegressionConfig`` does) more than
    ``MAX_COST`` times the step's own argument ``own``'s."""
    return hasattr(own, "work") and moved.work > MAX_COST * own.work


def values_around(name: str, own, values: int = VALUES) -> list:
    """The ``values`` values of slider ``name`` around the step's ``own`` (n whole and at least 3), ascending."""
    if not 1 <= values <= len(FACTORS) + 1:
        raise ValueError(f"values must lie in [1, {len(FACTORS) + 1}], got {values!r}")
    if name == "n":
        return sorted({int(own), *(max(3, round(own * f)) for f in FACTORS[:values - 1])})
    return sorted({float(own), *(round(own * f, 6) for f in FACTORS[:values - 1])})


def figure_data(figure) -> dict:
    """A figure (``go.Figure`` or plotly JSON text) as the dict plotly.js draws: data, layout and frames."""
    return json.loads(figure if isinstance(figure, str) else figure.to_json())


def _moved(arguments: dict, name: str):
    """The argument of ``arguments`` (a builder's, by parameter) that holds ``name``: (parameter, own value,
    the argument at another value), or None. A config holds ``name`` in the field of that name, or in the field
    its ``field_for`` mapping names (e.g. ``{"epsilon": "eps", "n": "size"}``)."""
    for parameter, value in arguments.items():
        if parameter == name and isinstance(value, (int, float)):
            return parameter, value, lambda other: other
        if dataclasses.is_dataclass(value):
            field = getattr(value, "field_for", {}).get(name, name)
            if field in {f.name for f in dataclasses.fields(value)}:
                return parameter, getattr(value, field), \
                    lambda other, value=value, field=field: dataclasses.replace(value, **{field: other})
    return None


def sliders(chart, values: int = VALUES) -> list[dict]:
    """The step's chart rebuilt by its own builder at other values of ε and n, where its chart is a builder
    called with them (``functools.partial`` of a parameter ``epsilon``/``n`` or of a config with such a field, or
    with the field its ``field_for`` names: the Lesson's steps 7-9 are partials of ``ui.lesson.compute.*_chart``):
    per slider its label, ``values`` values (``values_around``), the step's own value's index and each value's
    figure (``None`` at the own value: the step's chart). A value the builder refuses (its ``ValueError``, as
    the page would show) is left out, and so is one whose config declares a ``work`` more than ``MAX_COST`` times
    the step's own (each value is a run of the pack's build: the regression's MCMC at n = 80, 4×). A slider none
    of whose other values draws other data than the step's chart (the subspaces' ε, whose releases are the same
    planes at every ε offered) is left out: it would redraw nothing."""
    if not isinstance(chart, functools.partial):
        return []
    arguments = inspect.signature(chart.func).bind(*chart.args, **chart.keywords).arguments
    own_data = figure_data(chart())["data"]
    found = []
    for name, label in SLIDERS.items():
        moved = _moved(arguments, name)
        if moved is None:
            continue
        parameter, own, at = moved
        kept, figures = [], []
        for value in values_around(name, own, values):
            try:
                moved_argument = at(value)
                if _costlier(moved_argument, arguments[parameter]):
                    continue
                figure = None if value == own else figure_data(chart.func(**{**arguments, parameter: moved_argument}))
            except ValueError:
                continue
            kept.append(value)
            figures.append(figure)
        if any(figure is not None and figure["data"] != own_data for figure in figures):
            found.append(dict(label=label, values=kept, own=kept.index(own), figures=figures))
    return found


def game_data(epsilon: float = GAME_EPSILON, rounds: int = ROUNDS, seed: int = GAME_SEED) -> dict:
    """The game at ``epsilon``: the Lesson's scene with the first round's release as its last trace, every
    round's side (0: D, 1: D′) and release trace coordinates, the ceiling and the two attackers' tallies."""
    game = compute.game(epsilon)
    sides, releases = game.deal(rounds, seed)
    drawn = [release_traces("exact", release[None], game.means[0]) for release in releases]
    if any(len(traces) != 1 for traces in drawn):
        raise ValueError("the game's releases must lie on the sphere (one trace each)")
    scene = figure_data(compute.game_scene(epsilon).with_traces(drawn[0]))
    return dict(
        epsilon=epsilon, n=game.n, ceiling=f"{game.ceiling:.1%}", seed=seed, scene=scene,
        release_trace=len(scene["data"]) - 1,
        rounds=[dict(side=int(side), x=list(t[0].x), y=list(t[0].y), z=list(t[0].z),
                     customdata=[float(c) for c in t[0].customdata]) for side, t in zip(sides, drawn)],
        best=tally_words(compute.best_attacker(epsilon, False)),
        broken=tally_words(compute.best_attacker(epsilon, True)),
    )


def step_data(number: int, values: int = VALUES) -> dict:
    """Step ``number`` (1-based) of the Lesson as the pack shows it, ``values`` values on each slider."""
    step = STEPS[number - 1]
    right, numbers = step.answer()
    data = dict(number=number, title=step.title, question=step.question, choices=list(step.choices), right=right,
                numbers=numbers, headline=step.headline, takeaway=step.takeaway,
                chart=figure_data(step.chart()), sliders=sliders(step.chart, values))
    if step.game:
        data["game"] = game_data()
    return data


def lesson_data(values: int = VALUES) -> dict:
    """Every step of the Lesson, in order, ``values`` values on each slider."""
    return dict(steps=[step_data(number, values) for number in range(1, len(STEPS) + 1)])
