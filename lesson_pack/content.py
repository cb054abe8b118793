"""What the pack shows, as plain JSON-ready data, read from the Lesson's own step definitions.

Each step: its title, question and choices, the right choice and the numbers of its chart's own run
(``Step.answer``), its headline and takeaway, and its charts as plotly JSON: the step's chart (``Step.chart``)
and, where its run is the playground's on an animated space, the playground's own ε animation of that run
(``ui.playground.animation.animated_figure``) and, where the step releases the animated mechanism alone, its
animation over n. The game step carries ``ROUNDS`` rounds of ``engine.lesson.game`` dealt from ``GAME_SEED``,
the ceiling e^ε/(1 + e^ε) and the best attacker's and the broken control's tallies (``ui.lesson.compute``).
"""

from __future__ import annotations

import json

from engine.viz.sphere import release_traces
from ui.lesson import compute
from ui.lesson.game import _interval as tally_words
from ui.lesson.steps import GAME_EPSILON, STEPS
from ui.playground import animation

#: Rounds of the game the pack carries (they repeat after the last), and the seed they are dealt from.
ROUNDS, GAME_SEED = 200, 47
#: Captions of the slider charts, by what the slider moves.
SLIDER_CAPTIONS = {
    "eps": "ε on the slider: the same records released at every ε from 0.1 to 10 (the playground's animation, "
           "one set of draws for all frames, so only one frame could ever be published). The answer above is "
           "the run at the step's ε.",
    "n": "n on the slider: the Riemannian Laplace releases of the mean of the first n records (the playground's "
         "animation over the sample size) at the step's ε. The answer above is the run at the step's n.",
}


def figure_data(figure) -> dict:
    """A figure (``go.Figure`` or plotly JSON text) as the dict plotly.js draws: data, layout and frames."""
    return json.loads(figure if isinstance(figure, str) else figure.to_json())


def slider_charts(step) -> list[dict]:
    """The playground's ε (and n) animations of the step's run, where the step's run is the playground's and
    its space animates; none otherwise."""
    view, config = step.reproduction
    if view != "playground" or not animation.available(config):
        return []
    overs = ["eps"] + (["n"] if tuple(config.mechanisms) == (animation.ANIMATED.key,) else [])
    return [dict(over=over, caption=SLIDER_CAPTIONS[over], figure=figure_data(animation.animated_figure(config, over)))
            for over in overs]


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


def step_data(number: int) -> dict:
    """Step ``number`` (1-based) of the Lesson as the pack shows it."""
    step = STEPS[number - 1]
    right, numbers = step.answer()
    data = dict(number=number, title=step.title, question=step.question, choices=list(step.choices), right=right,
                numbers=numbers, headline=step.headline, takeaway=step.takeaway,
                chart=figure_data(step.chart()), sliders=slider_charts(step))
    if step.game:
        data["game"] = game_data()
    return data


def lesson_data() -> dict:
    """Every step of the Lesson, in order."""
    return dict(steps=[step_data(number) for number in range(1, len(STEPS) + 1)])
