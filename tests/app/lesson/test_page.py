"""The Lesson page: every step renders with its chart, question and link; the prediction, the
headline and the takeaway are revealed from the run (nothing answers a question before); the game's buttons move the tally; ``?step=N`` opens step N."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from engine.pipelines import settings_file
from engine.pipelines.__main__ import PIPELINES
from engine.reproduce import VIEWS
from tests.app import charts
from tests.app.conftest import ROOT, assert_clean, messages, run_page
from ui.lesson.game import GAME
from ui.lesson.steps import GAME_EPSILON, STEPS

LESSON = ROOT / "pages" / "9_Lesson.py"
GAME_STEP = next(number for number, step in enumerate(STEPS, 1) if step.game)


@pytest.mark.parametrize("number", range(1, len(STEPS) + 1))
def test_every_step_renders_its_chart_question_and_link(number):
    at = run_page(LESSON, {"step": str(number)})
    step = STEPS[number - 1]
    assert not messages(at)
    assert at.header[0].value == f"{number} · {step.title}"
    assert charts.specs(at)
    assert at.radio(key=f"lesson_guess_{number}").options == list(step.choices)
    links = [link.proto for link in at.main.get("page_link")]
    assert [link.page for link in links] == [step.page.removeprefix("pages/").removesuffix(".py").split("_", 1)[1]]
    assert links[0].query_string == "&".join(f"{key}={value}" for key, value in step.params.items()).replace(
        ",", "%2C")


def test_seven_to_nine_steps_in_the_storys_order():
    titles = [step.title for step in STEPS]
    assert 7 <= len(titles) <= 9
    assert titles[0] == "One record moves the mean" and titles[-1].startswith("Beyond means")


@pytest.mark.parametrize("number", range(1, len(STEPS) + 1))
def test_reveal_says_whether_the_prediction_was_right_from_the_run(number):
    step = STEPS[number - 1]
    right, numbers = step.answer()
    at = run_page(LESSON, {"step": str(number)})
    assert not at.success
    at.radio(key=f"lesson_guess_{number}").set_value(step.choices[right]).run()
    at.button(key=f"lesson_reveal_{number}").click().run()
    assert_clean(at)
    assert [box.value for box in at.success] == [f"Right. The answer: **{step.choices[right]}**. {numbers}"]
    wrong = step.choices[(right + 1) % len(step.choices)]
    at.radio(key=f"lesson_guess_{number}").set_value(wrong).run()
    assert not at.success
    assert any(box.value == f"Not quite. The answer: **{step.choices[right]}**. {numbers}" for box in at.info)


def test_answers_tell_the_storys_facts():
    """The answers come from the runs: the curvature price on the sphere, the intrinsic win on SPD."""
    by_title = {step.title: step for step in STEPS}
    assert by_title["One record moves the mean"].answer()[0] == 1
    assert by_title["On a sphere cap: which noise lands closer?"].answer()[0] == 1
    assert by_title["On covariance matrices: which noise lands closer?"].answer()[0] == 0
    assert by_title["The guarantee, audited: which data set?"].answer()[0] == 1


def _tally_line(at) -> str:
    return next(text.value for text in at.markdown if text.value.startswith("The class:"))


def test_game_buttons_update_the_tally():
    at = run_page(LESSON, {"step": str(GAME_STEP)})
    assert "no rounds yet" in _tally_line(at)
    at.button(key="lesson_guess_first").click().run()
    assert_clean(at)
    assert "of 1 (99% interval" in _tally_line(at)
    at.button(key="lesson_guess_second").click().run()
    assert "of 2 (99% interval" in _tally_line(at)
    at.button(key=f"lesson_reveal_{GAME_STEP}").click().run()
    texts = [text.value for text in at.markdown]
    assert any(text.startswith("The best possible attacker") and "of 10,000" in text for text in texts)
    assert any(text.startswith("A broken mechanism") for text in texts)


def test_address_opens_the_step_and_the_arrows_move_it():
    at = run_page(LESSON, {"step": "3"})
    assert at.selectbox(key="step").value == 3
    at.button(key="lesson_forward").click().run()
    assert_clean(at)
    assert at.selectbox(key="step").value == 4 and at.query_params["step"] == "4"
    assert at.header[0].value.startswith("4 · ")
    at.button(key="lesson_back").click().run()
    assert at.selectbox(key="step").value == 3


@pytest.mark.parametrize("bad", ["abc", "0", str(len(STEPS) + 1), "2.5"])
def test_bad_step_in_the_address_gives_one_warning_quoting_it(bad):
    at = run_page(LESSON, {"step": bad})
    found = messages(at, "warning")
    assert len(found) == 1 and f"step=`'{bad}'`" in found[0], found
    assert at.selectbox(key="step").value == 1


def test_every_step_has_a_reproduction():
    """Steps 7 and 8 (regression, optimisation) had none: no settings file or command for their runs."""
    for step in STEPS:
        page, config = step.reproduction
        assert isinstance(config, PIPELINES[VIEWS[page].pipeline].config), step.title


def _differences(step_config, page_config) -> dict:
    """The fields whose values differ, as {name: (the step's, the page's)}."""
    return {f.name: (getattr(step_config, f.name), getattr(page_config, f.name))
            for f in dataclasses.fields(step_config) if getattr(step_config, f.name) != getattr(page_config, f.name)}


@pytest.mark.slow
@pytest.mark.parametrize("number", range(1, len(STEPS) + 1))
def test_each_steps_link_opens_its_full_page_at_the_steps_run(number, monkeypatch):
    """The full page opened at the step's address keys runs the step's config, field by field (the config its
    "Settings (JSON)" is built from): step 7's chart and answer came from τ = 0.05 and window = 200, while the
    Private regression page runs the drifting directions at τ = 0.3 and cannot set the window."""
    step = STEPS[number - 1]
    shown, payload = [], settings_file.payload
    monkeypatch.setattr(settings_file, "payload", lambda page, config: shown.append((page, config)) or
                        payload(page, config))
    at = run_page(ROOT / step.page, step.params)
    # The Audit page flags its positive control (the noise halved, the game's broken mechanism): that is the point.
    problems = [text for text in messages(at) if not (step.game and text.startswith("Flagged:"))]
    assert not problems, problems
    assert {key: at.query_params[key] for key in step.params} == step.params
    page, config = step.reproduction
    ((shown_page, shown_config),) = set(shown)
    assert shown_page == page and type(shown_config) is type(config)
    assert _differences(config, shown_config) == {}


def _serialised(monkeypatch) -> list[bool]:
    """Record every figure turned into a dict (as before its JSON is written): whether it is a 3D scene."""
    found, to_dict = [], go.Figure.to_dict
    monkeypatch.setattr(go.Figure, "to_dict",
                        lambda figure: found.append(any(t.type.endswith("3d") for t in figure.data)) or to_dict(figure))
    return found


@pytest.mark.parametrize("number", [n for n, step in enumerate(STEPS, 1) if not step.game])
def test_a_step_another_session_has_shown_is_sent_without_building_or_serialising_its_figure(number, monkeypatch):
    shown = charts.live_args(run_page(LESSON, {"step": str(number)}))[0]["figure"]
    serialised = _serialised(monkeypatch)
    at = run_page(LESSON, {"step": str(number)})
    assert charts.live_args(at)[0]["figure"] == shown
    assert serialised == []


def test_the_games_scene_is_shared_and_each_session_adds_its_own_release(monkeypatch):
    first = run_page(LESSON, {"step": str(GAME_STEP)})
    serialised = _serialised(monkeypatch)
    second = run_page(LESSON, {"step": str(GAME_STEP)})
    assert True not in serialised
    scenes = [next(spec for spec in charts.specs(at) if "scene" in spec["layout"]) for at in (first, second)]
    for at, scene in zip((first, second), scenes):
        release = at.session_state[GAME]["release"]
        assert charts.values(scene["data"][-1]["x"]).tolist() == [release[0]]
    assert scenes[0]["data"][:-1] == scenes[1]["data"][:-1] and scenes[0]["layout"] == scenes[1]["layout"]


def test_the_steps_chart_keeps_every_step_drawn_in_the_browser():
    """A step shown again in the tab is not drawn again (``live_chart(keep_seen=...)``); the game's chart,
    which changes every round, keeps one."""
    at = run_page(LESSON, {"step": str(GAME_STEP)})
    assert {args["key"]: args["keep"] for args in charts.live_args(at)} == {"lesson_chart": len(STEPS),
                                                                             "lesson_game_chart": 1}


@pytest.mark.parametrize(("spread", "index", "verdict"), [(0.3, 0, "stays within half the ball"), (0.56, 1, "is large")])
def test_the_regression_steps_answer_says_what_its_run_shows(monkeypatch, spread, index, verdict):
    """The reveal's sentence follows the run's spread of the private footpoints, like the chosen answer."""
    from ui.lesson import steps

    run = dataclasses.make_dataclass("Run", [("footpoint_spread", float)])(spread)
    monkeypatch.setattr(steps.compute, "regression", lambda config: (run, None))
    answer, text = next(step.answer for step in steps.STEPS if step.title == "Beyond means: regression")()
    assert answer == index and f"{spread:.0%} of the public ball's radius" in text and verdict in text


def test_the_regression_steps_scene_holds_the_data_the_fit_and_the_private_geodesics():
    """Step 7 sent an empty box: the scene's axes spanned 6e-5 around the fit's footpoint, clipping everything."""
    number = next(n for n, step in enumerate(STEPS, 1) if step.title == "Beyond means: regression")
    (spec,) = charts.specs(run_page(LESSON, {"step": str(number), "present": "1"}))
    ranges = np.array([spec["layout"]["scene"][f"{c}axis"]["range"] for c in "xyz"])
    drawn = {trace["name"]: trace for trace in spec["data"] if trace["type"] == "scatter3d"}
    assert {"Data", "non-private geodesic", "private geodesics"} <= set(drawn)
    for trace in spec["data"]:
        if trace["type"] == "scatter3d":
            points = np.stack([charts.values(trace[c]) for c in "xyz"], axis=-1)
            points = points[~np.isnan(points).any(axis=1)]
            assert np.all((points >= ranges[:, 0]) & (points <= ranges[:, 1])), trace["name"]
    assert "private geodesics" in charts.visible_texts(spec)


def _shown(at) -> list[str]:
    """Every text of the last run a class sees: text elements, the step box's options, the question, chart texts."""
    texts = [element.value for kind in ("title", "header", "markdown", "caption", "info", "success", "warning")
             for element in getattr(at, kind)]
    texts += [option for box in at.selectbox for option in box.options]
    texts += [radio.label for radio in at.radio]
    return texts + [text for spec in charts.specs(at) for text in charts.visible_texts(spec)]


def _measured(step) -> list[str]:
    """The answer's measured values (decimals) that its question and choices do not state."""
    given = " ".join((step.question, *step.choices))
    return [value for value in re.findall(r"\d+\.\d+%?", step.answer()[1]) if value not in given]


def test_walking_the_nine_steps_nothing_answers_a_question_before_its_reveal():
    """Every takeaway was on screen before the reveal and several stated the answer (steps 1, 4, 5); step 5's
    title answered its own question, step 3's legend counted "36 of 200 not positive definite" and step 6
    printed the best attacker's 65.0 % beside the ceiling before the guess (and "no test of D against D′ beats the
    dashed bound", ε in odds)."""
    at = run_page(LESSON, {"step": "1", "present": "1"})
    for number, step in enumerate(STEPS, 1):
        assert at.selectbox(key="step").value == number
        _, numbers = step.answer()
        before = _shown(at)
        for answering in (step.headline, step.takeaway, numbers, *_measured(step)):
            assert not [text for text in before if answering in text], (number, answering)
        assert not [text for spec in charts.specs(at) for text in charts.visible_texts(spec)
                    if re.search(r"\d+ of \d+", text)], number
        assert not [text for text in before for other in STEPS if other.headline in text], number
        assert not [text for text in before if text.startswith(("The best possible attacker", "**ε = "))], number
        at.button(key=f"lesson_reveal_{number}").click().run()
        assert_clean(at)
        after = _shown(at)
        assert [text for text in after if numbers in text], number
        assert f"**{step.headline}.** {step.takeaway}" in after, number
        if step.game:
            assert [text for text in after if text.startswith("The best possible attacker")]
            assert [text for text in after if text.startswith(f"**ε = {GAME_EPSILON:g} in odds.**")]
        if number < len(STEPS):
            at.button(key="lesson_forward").click().run()


def _stated(text: str, name: str) -> list[float]:
    """Every value ``text`` gives ``name`` (ε or δ): "δ = 1e-6" or "(ε, δ) = (1, 1e-6)"."""
    single = re.findall(rf"{name} = ([0-9.e-]+\d)", text)
    pairs = [pair[0 if name == "ε" else 1] for pair in re.findall(r"\(ε, δ\) = \(([0-9.e-]+), ([0-9.e-]+)\)", text)]
    return [float(value) for value in single + pairs]


@pytest.mark.parametrize("title", ["Beyond means: optimisation", "Beyond means: subspaces"])
def test_steps_eight_and_nine_state_the_runs_epsilon_and_delta(title):
    """δ was never mentioned on steps 8 and 9, whose runs use δ = 1e-3 and 1e-6."""
    step = next(step for step in STEPS if step.title == title)
    page, config = step.reproduction
    texts = (step.question, step.takeaway, step.answer()[1])
    for name, value in (("ε", config.epsilon), ("δ", config.delta)):
        stated = [v for text in texts for v in _stated(text, name)]
        assert stated and set(stated) == {value}, (name, stated, value)
    assert _stated(step.question, "δ") == [config.delta]


def test_step_nine_says_where_the_noise_goes():
    """Step 9 said "Some statistics need no noise at all" and "counts points instead of adding noise", while the
    run's release adds truncated-Laplace noise to the score gap and is (ε, δ)-private."""
    from ui.lesson import compute
    from ui.lesson.steps import SUBSPACES

    step = next(step for step in STEPS if step.title == "Beyond means: subspaces")
    result, _ = compute.subspaces(SUBSPACES)
    assert "truncated Laplace" in result.guarantee.rule and result.guarantee.delta > 0
    texts = " ".join((step.question, step.headline, step.takeaway, step.answer()[1]))
    assert "no noise at all" not in texts and "instead of adding noise" not in texts
    assert "truncated-Laplace noise to the gap" in step.takeaway and "Singhal & Steinke 2021" in step.takeaway
    assert "truncated Laplace noise on the gap" in step.answer()[1]
    assert _stated(step.answer()[1], "δ") == [result.guarantee.delta]
    assert _stated(step.answer()[1], "ε") == [result.guarantee.epsilon]


@pytest.mark.parametrize("number", range(1, len(STEPS) + 1))
def test_every_reveal_is_under_sixty_words(number):
    """The reveals of steps 4 and 5 were 166 and 173 words of formulas."""
    step = STEPS[number - 1]
    right, numbers = step.answer()
    assert len(f"The answer: {step.choices[right]}. {numbers}".split()) < 60, numbers


@pytest.mark.parametrize("title", ["On a sphere cap: which noise lands closer?",
                                   "On covariance matrices: which noise lands closer?"])
def test_the_who_wins_reveals_are_plain_and_say_one_thing(title):
    """They named one winner, then gave ambient errors that ranked the two the other way (step 4: 0.0542 against
    0.0547 after 0.0403 against 0.0542), in formulas ((2 − h)/h, Δ/Δ_E, r/r_E)."""
    from ui.lesson import compute

    step = next(step for step in STEPS if step.title == title)
    verdict = compute.mean_verdict(step.reproduction[1])
    _, numbers = step.answer()
    assert not re.search(r"Δ|r_E|\(2 − h\)|/", numbers), numbers
    errors = [f"{verdict.intrinsic.geodesic:.3g}", f"{verdict.euclidean.geodesic:.3g}"]
    assert [numbers.count(error) for error in errors] == [1, 1], numbers
    winner = verdict.winner_label
    assert numbers.startswith(f"The {winner} lands closer: on average {min(errors, key=float)} from the true mean")
    assert len(re.findall(r"\d+\.\d+", numbers)) == 3, numbers  # the two errors and the noise ratio


def test_the_game_shows_both_means_and_says_which_data_set_each_release_came_from():
    """The scene showed the mean of D alone and "Last guess: right." never said which data set it was."""
    from ui.lesson import compute

    at = run_page(LESSON, {"step": str(GAME_STEP)})
    scene = next(spec for spec in charts.specs(at) if "scene" in spec["layout"])
    means = {trace["name"]: [charts.values(trace[c]).tolist() for c in "xyz"] for trace in scene["data"]
             if trace["name"].startswith("mean of")}
    game = compute.game(GAME_EPSILON)
    assert set(means) == {"mean of D", "mean of D′"}
    for name, mean in zip(("mean of D", "mean of D′"), game.means):
        np.testing.assert_allclose(np.ravel(means[name]), mean)
    for key in ("lesson_guess_first", "lesson_guess_second", "lesson_guess_first"):
        side = at.session_state[GAME]["side"]
        at.button(key=key).click().run()
        (line,) = [text.value for text in at.markdown if text.value.startswith("The last release came from")]
        hit = side == (0 if key.endswith("first") else 1)
        assert line == f"The last release came from {('D', 'D′')[side]}: the guess was {'right' if hit else 'wrong'}."


def _eye(scene) -> np.ndarray:
    eye = np.array([scene.camera.eye[c] - scene.camera.center[c] for c in "xyz"])
    return eye / np.linalg.norm(eye)


def test_the_3d_steps_face_their_mean_and_draw_the_tight_cloud_on_top():
    """Step 2's sphere cap was seen nearly edge-on (65° off its mean's radius); on step 5's cone the
    Euclidean squares, drawn last and larger, covered the winning Riemannian cloud and the true mean."""
    sphere = STEPS[1].chart()
    mean = np.stack([charts.values(sphere.data[-1][c]) for c in "xyz"], axis=-1)[0]
    assert np.degrees(np.arccos(_eye(sphere.layout.scene) @ mean)) < 25
    cone = next(step for step in STEPS if step.title.startswith("On covariance matrices")).chart()
    names = [trace.name for trace in cone.data]
    assert names[-1] == "True mean (not private)"
    assert names.index("Euclidean Laplace") < names.index("Riemannian Laplace")
    assert abs(_eye(cone.layout.scene) @ np.array([1.0, 0.0, 1.0])) < 1e-9  # across the cone's axis


@pytest.mark.parametrize("title", ["On a sphere cap: which noise lands closer?",
                                   "On covariance matrices: which noise lands closer?"])
def test_the_winning_cloud_is_drawn_on_top_and_the_loser_translucent(title):
    """On the sphere the Euclidean cloud wins (it lands closer once projected onto the sphere) but
    was drawn at the loser's opacity, the two clouds overlapping at 0.6. On steps 4 and 5 the cloud of the
    playground's verdict is now the last cloud, larger and nearly opaque, the other translucent under it (the
    shared rule of the sphere and the cone, ``engine.viz._common.draw_order``)."""
    from engine.viz import palette
    from engine.viz._common import CLOSEST_OPACITY, CLOSEST_SIZE, CLOUD_SIZE, OTHER_OPACITY
    from ui.lesson.compute import mean_verdict
    step = _step(title)
    winner = {"intrinsic": "exact", "euclidean": "euclid"}[mean_verdict(step.chart.args[0]).winner]
    loser = ({"exact", "euclid"} - {winner}).pop()
    clouds = [trace for trace in step.chart().data
              if trace.name in (palette.label("exact"), palette.label("euclid")) and trace.mode == "markers"]
    assert [trace.name for trace in clouds] == [palette.label(loser), palette.label(winner)]
    assert (clouds[0].marker.size, clouds[0].marker.opacity) == (CLOUD_SIZE, OTHER_OPACITY)
    assert (clouds[1].marker.size, clouds[1].marker.opacity) == (CLOSEST_SIZE, CLOSEST_OPACITY)


def _step(title: str):
    return next(step for step in STEPS if step.title == title)


def test_step_one_draws_the_measured_move_against_the_flat_bound():
    """Step 1's deciding numbers (the adversarial pair's move against 2r/n) were not on its chart. Its
    chart now draws the measured move against r, above the flat line 2r/n at the step's r, and its y axis is capped so
    the two are apart on screen (Theorem 2's bound, 2.7 at the right end, flattened them into one line)."""
    from ui.lesson.compute import moved_mean
    from ui.lesson.steps import SENSITIVITY_N, SENSITIVITY_R

    fig = _step("One record moves the mean").chart()
    by_name = {trace.name: trace for trace in fig.data}
    r, moved = (charts.values(by_name["one record replaced (measured)"].to_plotly_json()[c]) for c in "xy")
    flat_r, flat = (charts.values(by_name["flat space (κ ≤ 0)"].to_plotly_json()[c]) for c in "xy")
    assert np.all(moved[1:] > np.interp(r[1:], flat_r, flat))  # the measured move exceeds 2r/n at every radius
    gap, _, _ = moved_mean(SENSITIVITY_N, SENSITIVITY_R)
    np.testing.assert_allclose(np.interp(SENSITIVITY_R, r, moved), gap, rtol=0.01)  # the reveal's number, drawn
    assert fig.layout.yaxis.range[1] <= 2.5 * moved.max()


def test_step_two_rings_the_mean_at_delta_and_ten_delta():
    """Step 2 asks how far a release lands compared with Δ and never drew Δ."""
    from engine.manifolds.sphere import Sphere
    from ui.lesson import compute
    from ui.lesson.steps import SPHERE_ALONE

    fig = _step("How far the noise goes").chart()
    by_name = {trace.name: trace.to_plotly_json() for trace in fig.data}
    delta = compute.released(SPHERE_ALONE, "exact").sensitivity
    mean = np.array([charts.values(by_name["True mean (not private)"][c])[0] for c in "xyz"])
    for name, multiple in (("Δ from the true mean", 1), ("10 Δ from the true mean", 10)):
        ring = np.stack([charts.values(by_name[name][c]) for c in "xyz"], axis=-1)
        np.testing.assert_allclose(Sphere(2).dist(mean, ring), multiple * delta, rtol=1e-9)
    assert fig.data[-1].name == "True mean (not private)"  # the rings under the mean's marker


def test_step_six_draws_the_tests_at_the_ceiling():
    """Step 6 asked for an attacker's accuracy under a trade-off curve that showed no accuracy. The
    chart now draws the tests right e^ε/(1 + e^ε) of the time (α + β = 2/(1 + e^ε)), touching the bound at α = β."""
    fig = _step("The guarantee, audited: which data set?").chart()
    line = next(trace for trace in fig.data if trace.name.startswith("tests right"))
    alpha, beta = (charts.values(line.to_plotly_json()[c]) for c in "xy")
    np.testing.assert_allclose(alpha + beta, 2 / (1 + np.exp(GAME_EPSILON)))
