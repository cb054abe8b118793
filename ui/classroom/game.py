"""The game step in a class session: every phone plays rounds of "which data set?" (``engine.lesson.game``) and
the class's guesses are pooled in the store and scored together against the ceiling e^ε/(1 + e^ε) and the best
attacker. The round's hidden data set stays in the student's server session, so a phone cannot read it."""

from __future__ import annotations

import numpy as np
import streamlit as st

from engine.lesson.game import LEVEL, Tally
from engine.viz.sphere import release_traces
from ui.classroom.control import store
from ui.lesson import compute
from ui.lesson.game import NAMES
from ui.live_chart import live_chart

#: Session key of the phone's round: its hidden side, its release and the last round's outcome.
ROUND = "_class_game_round"


def _deal(epsilon: float) -> dict:
    play = st.session_state.setdefault(ROUND, {})
    if "side" not in play:
        sides, releases = compute.game(epsilon).deal(1, np.random.default_rng())
        play.update(side=int(sides[0]), release=releases[0])
    return play


def _guess(code: str, device: str, epsilon: float, side: int) -> None:
    play = _deal(epsilon)
    hit = side == play.pop("side")
    del play["release"]
    store().guess(code, device, hit)
    play["last"] = hit
    play["own"] = play.get("own", Tally()).record(hit)


def play(code: str, device: str, epsilon: float) -> None:
    """One round on this phone: the release on the sphere and the two guesses; the phone's own score."""
    game, round_ = compute.game(epsilon), _deal(epsilon)
    st.markdown(f"**Play: which data set?** The mechanism released the mean of D or of D′ at ε = {epsilon:g}.")
    scene = compute.game_scene(epsilon).with_traces(release_traces("exact", round_["release"][None], game.means[0]))
    live_chart(scene, key="class_game_chart")
    left, right = st.columns(2)
    left.button(f"It came from {NAMES[0]}", key="class_guess_first", on_click=_guess, args=(code, device, epsilon, 0))
    right.button(f"It came from {NAMES[1]}", key="class_guess_second", on_click=_guess,
                 args=(code, device, epsilon, 1))
    if "last" in round_:
        own = round_["own"]
        st.write(f"The last guess was {'right' if round_['last'] else 'wrong'}: {own.hits} of {own.rounds} so far.")


def score_line(hits: int, rounds: int, epsilon: float, revealed: bool) -> str:
    """The class's pooled score beside the ceiling and, once ``revealed`` (it answers the step's question), the
    best attacker's."""
    if rounds:
        low, high = Tally(hits, rounds).interval()
        pooled = (f"{hits / rounds:.1%} right of {rounds:,} round{'' if rounds == 1 else 's'} ({LEVEL:.0%} "
                  f"interval {low:.1%} to {high:.1%})")
    else:
        pooled = "no rounds yet"
    line = f"**The class's guesses:** {pooled}; ceiling e^ε/(1 + e^ε) = {compute.game(epsilon).ceiling:.1%}"
    if revealed:
        best = compute.best_attacker(epsilon, False)
        line += f"; the best possible attacker {best.rate:.1%} of {best.rounds:,}"
    return line + "."
