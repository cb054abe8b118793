"""The Lesson page's body: the step selector (← / → buttons and keys, a select box, ``?step=N``), the step's chart, its
predict-then-reveal question, its takeaway and the link to the full page. Whatever answers the question (the
answer's numbers, the step's headline and takeaway, the game's best attacker and ε in odds) is drawn only after
"Reveal". Each computation (chart, answer, game) runs under a spinner, so a rerun over half a second shows progress.

Like every page, its chart-first run (``ui.first_paint``) sends the step's chart alone: the open step comes from
the session or the address (``ui.state.value``), and the selector and the step's heading keep empty places."""

from __future__ import annotations

import streamlit as st

from engine.pipelines import settings_file
from engine.reproduce import VIEWS
from ui import first_paint, presenter, reproduce, state
from ui.classroom.control import publish as publish_to_class
from ui.downloads import download_row
from ui.figure_cache import cache_figure_json
from ui.lesson import game
from ui.lesson.steps import GAME_EPSILON, STEPS

#: The address key of the open step (1-based).
STEP = "step"
#: What a step's computation shows while it runs (Streamlit draws it once the work has taken 0.5 s: issue 49, C10).
WORKING = "Running this step's computation…"


def _move(by: int) -> None:
    st.session_state[STEP] = min(max(st.session_state[STEP] + by, 1), len(STEPS))


def _open_step() -> int:
    """The open step's number: the selector's, or in a chart-first run, which draws no selector, the one it will
    have (from the session or the address)."""
    return state.value(STEP, 1, options=list(range(1, len(STEPS) + 1)))


def _selector() -> None:
    """The step selector; the address (a bad value warns once and opens step 1), the buttons or the box set the
    open step."""
    state.init(STEP, 1, options=list(range(1, len(STEPS) + 1)))
    back, box, forward = st.columns([1, 6, 1], vertical_alignment="bottom")
    back.button("←", key="lesson_back", on_click=_move, args=(-1,), disabled=st.session_state[STEP] == 1,
                help="Previous step", shortcut="Left")
    box.selectbox("Step", list(range(1, len(STEPS) + 1)), key=STEP,
                  format_func=lambda number: f"{number} · {STEPS[number - 1].title}",
                  label_visibility="collapsed" if presenter.active() else "visible")
    forward.button("→", key="lesson_forward", on_click=_move, args=(1,), disabled=st.session_state[STEP] == len(STEPS),
                   help="Next step", shortcut="Right")
    state.sync([STEP])


def _guess_key(number: int) -> str:
    return f"lesson_guess_{number}"


def _revealed_key(number: int) -> str:
    return f"lesson_revealed_{number}"


def reveal(number: int) -> None:
    """Reveal step ``number``'s answer in this session (a class session's "Reveal for all", ``ui.classroom``)."""
    st.session_state[_revealed_key(number)] = True


def _question(number: int) -> bool:
    """The step's question; after "Reveal", whether the guess was right and the run's numbers. Whether it is
    revealed."""
    step = STEPS[number - 1]
    guess = st.radio(f"**Predict:** {step.question}", step.choices, index=None, key=_guess_key(number))
    revealed = _revealed_key(number)
    st.button("Reveal", key=f"lesson_reveal_{number}", on_click=reveal, args=(number,))
    if st.session_state.get(revealed):
        with st.spinner(WORKING):
            right, numbers = step.answer()
        if guess == step.choices[right]:
            st.success(f"Right. The answer: **{step.choices[right]}**. {numbers}")
        else:
            verdict = "No guess yet." if guess is None else "Not quite."
            st.info(f"{verdict} The answer: **{step.choices[right]}**. {numbers}")
    return bool(st.session_state.get(revealed))


@cache_figure_json(max_entries=len(STEPS))
def step_chart(number: int):
    """Step ``number``'s chart (its page's builder at the step's settings), serialised once for every session."""
    return STEPS[number - 1].chart()


def show() -> None:
    """The whole lesson page below its title: in a chart-first run (``ui.first_paint``) the open step's
    chart alone, outside the fragment so that its report of being drawn reruns the whole page, in a
    container where the fragment (``_step``) of every later run has its own, so the chart keeps its place."""
    if first_paint.running():
        with st.container():
            _body()
    else:
        _step()


@st.fragment
def _step() -> None:
    """The lesson as a fragment: a widget in it (← / →, the step box, a guess, the game's buttons) reruns it
    alone, so a class of 30 stepping together does not rerun the sidebar, Streamlit's scan of ``pages/`` or
    the glossary (server CPU per step of a class walk: 5-6 ms against 11-18 ms for the page's)."""
    _body()


def _body() -> None:
    first_paint.in_full_run(_selector)
    number = _open_step()
    step = STEPS[number - 1]
    if not first_paint.running():  # a class session's students follow before the teacher's chart is drawn
        publish_to_class(number, bool(st.session_state.get(_revealed_key(number))))
    first_paint.in_full_run(lambda: (st.title if presenter.active() else st.header)(f"{number} · {step.title}"))
    with st.spinner(WORKING):
        chart = step_chart(number)
    first_paint.main_chart(chart, key="lesson_chart", keep_seen=len(STEPS) - 1,
                           fit_keep=f".st-key-{_guess_key(number)}")
    revealed = _question(number)
    if step.game:
        with st.spinner(WORKING):
            game.show(GAME_EPSILON, revealed)
            if revealed:
                game.show_odds(GAME_EPSILON)
    if revealed:
        st.info(f"**{step.headline}.** {step.takeaway}")
    st.page_link(step.page, label="Open the full page with these settings", icon=":material/open_in_new:",
                 query_params=step.params)
    if not presenter.active():
        page, config = step.reproduction
        download_row(f"lesson-step-{number}", settings=settings_file.payload(page, config),
                     pipeline=VIEWS[page].pipeline)
        reproduce.expander(page, config)
