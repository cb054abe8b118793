"""The game's panel: one release at a time, the class's guesses tallied beside the ceiling, the best
attacker and the broken control (``engine.lesson.game``)."""

from __future__ import annotations

import functools

import numpy as np
import streamlit as st

from engine.lesson.game import Tally
from engine.odds import posterior_range
from engine.viz.sphere import release_traces
from ui.lesson import compute
from ui.live_chart import live_chart

#: Session key of the class's game: its tally, the hidden data set of the current round and its release.
GAME = "_lesson_game"
#: The data sets' names, by side (0: D, 1: D′).
NAMES = ("D", "D′")


def _play(epsilon: float) -> dict:
    """The session's game at ``epsilon``, with a round dealt (a new game when ε changed)."""
    play = st.session_state.get(GAME)
    if play is None or play["epsilon"] != epsilon:
        play = dict(epsilon=epsilon, tally=Tally())
        st.session_state[GAME] = play
    if "side" not in play:
        sides, releases = compute.game(epsilon).deal(1, np.random.default_rng())
        play.update(side=int(sides[0]), release=releases[0])
    return play


def _guess(epsilon: float, side: int) -> None:
    """Score the guess ``side`` of the current round and deal the next."""
    play = _play(epsilon)
    play["tally"] = play["tally"].record(side == play["side"])
    play["last"] = (play["side"], side == play["side"])
    del play["side"], play["release"]


@functools.lru_cache(maxsize=64)
def _interval(tally: Tally) -> str:
    """The tally in words with its interval (kept: the best attacker's two lines are on every session's rerun)."""
    low, high = tally.interval()
    return f"{tally.rate:.1%} of {tally.rounds:,} (99% interval {low:.1%} to {high:.1%})"


def show_odds(epsilon: float) -> None:
    """ε in words: how far one release can move an observer's belief about one person, and its chart."""
    words = []
    for prior in (0.01, 0.5):
        low, high = posterior_range(prior, epsilon)
        words.append(f"a belief of {prior:.0%} that a person is in the data can end anywhere from {float(low):.1%} to "
                     f"{float(high):.1%}")
    st.markdown(f"**ε = {epsilon:g} in odds.** Whatever the release, the odds about one person change by a factor "
                f"of at most e^ε = {np.exp(epsilon):.2f}: {'; '.join(words)}. The chart above is the same fact for "
                "tests: no test of D against D′ beats the dashed bound.")
    st.plotly_chart(compute.odds_range_figure(epsilon), key="lesson_odds_chart")


def show(epsilon: float, revealed: bool) -> None:
    """The pair, the current release, the guess buttons and the class's tally beside the ceiling; once the step's
    question is ``revealed``, the best attacker's and the broken mechanism's tallies (they answer it)."""
    game, play = compute.game(epsilon), _play(epsilon)
    st.markdown(f"**Which data set?** D holds {game.n} records (grey); D′ is D with the last one moved across the "
                f"cap. The mechanism released the mean of one of them at ε = {epsilon:g}: which?")
    scene = compute.game_scene(epsilon).with_traces(release_traces("exact", play["release"][None], game.means[0]))
    live_chart(scene, key="lesson_game_chart")  # updated in place each round (no new WebGL scene, no revalidation)
    st.caption("Blue: this round's release. Black diamonds: the mean of D (filled) and of D′ (open). Grey: the records "
               "of D and, moved, D′'s last one.")
    left, right = st.columns(2)
    left.button(f"It came from {NAMES[0]}", key="lesson_guess_first", on_click=_guess, args=(epsilon, 0))
    right.button(f"It came from {NAMES[1]}", key="lesson_guess_second", on_click=_guess, args=(epsilon, 1))
    tally = play["tally"]
    if "last" in play:
        came_from, hit = play["last"]
        st.write(f"The last release came from {NAMES[came_from]}: the guess was {'right' if hit else 'wrong'}.")
    st.write(f"The class: {_interval(tally) if tally.rounds else 'no rounds yet'}. "
             f"Ceiling e^ε/(1 + e^ε) = {game.ceiling:.1%}.")
    if not revealed:
        return
    st.write(f"The best possible attacker (likelihood-ratio test): {_interval(compute.best_attacker(epsilon, False))}.")
    st.write(f"A broken mechanism with the noise halved: {_interval(compute.best_attacker(epsilon, True))}, "
             "above the ceiling: the Audit page flags such mechanisms with the same measurement.")
