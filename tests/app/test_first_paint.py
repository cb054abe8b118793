"""The chart-first run (``ui.first_paint``) of every page with a chart: the page down to its main
chart (with what stands above it), computed from the values the sidebar's widgets will have, then the
full page with the same chart; a tab without a main chart gets the full page at once.

AppTest has no browser, so ``first_paint._in_browser`` is made to say there is one: the visit's first
run is then chart-first, and the second (which the chart's report asks for in a browser) the full page.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import pytest

from tests.app import charts
from tests.app.conftest import PLAYGROUND, ROOT, app_at, assert_clean, messages
from ui import first_paint, playground

SENSITIVITY = ROOT / "pages" / "2_Sensitivity.py"
UTILITY = ROOT / "pages" / "3_Utility.py"
SAMPLERS = ROOT / "pages" / "4_Samplers.py"
OPTIMIZATION = ROOT / "pages" / "5_Private_optimization.py"
REGRESSION = ROOT / "pages" / "6_Private_regression.py"
SUBSPACES = ROOT / "pages" / "7_Private_subspaces.py"
AUDIT = ROOT / "pages" / "8_Audit.py"
LESSON = ROOT / "pages" / "9_Lesson.py"
VISITS = [(PLAYGROUND, address) for address in (
    {},
    {"space": "hyperbolic", "eps": "0.5", "n": "80"},
    {"space": "kendall", "k": "6", "m": "40"},
    {"space": "spd", "mech": "exact,gauss", "delta": "0.01", "r": "0.8"},
    {"mech": "mh", "adapt": "false", "step": "0.3", "burn": "500", "thin": "5", "m": "20"},
    {"source": "airports", "state": "all", "outside": "drop", "seed": "7"},
    {"anim": "true"},
    {"anim": "true", "anim_over": "n", "n": "40"},
)] + [(SENSITIVITY, address) for address in (
    {},
    {"space": "spd", "r_spd": "1.2", "n": "20", "log": "false"},
    {"space": "sphere", "kappa_sphere": "0.5", "reps": "40", "seed": "5", "sens_view": "Against κ"},
)] + [(SUBSPACES, address) for address in (
    {},
    {"shape": "line", "method": "bingham", "n": "500", "eps": "2"},
    {"noise": "0.05", "outliers": "3", "releases": "20", "seed": "3"},
)] + [(UTILITY, address) for address in (
    {},
    {"space": "sphere", "sconst": "theorem", "log": "false", "reps": "40"},
    {"util_view": "Noise reduction"},
    {"util_view": "Noise reduction", "space": "spd", "reps": "20"},
)] + [(SAMPLERS, address) for address in (
    {},
    {"space": "hyperbolic", "sigma": "0.9", "adapt": "false"},
)] + [(OPTIMIZATION, address) for address in (
    {},
    {"app": "eigenvector", "eps": "0.5"},
    {"opt_view": "On the manifold"},
)] + [(REGRESSION, address) for address in (
    {},
    {"reg_data": "drift", "reg_releases": "3"},
)] + [(AUDIT, address) for address in (
    {},
    {"audit": "tangent-gaussian", "space": "hyperbolic", "control": "control-reused-randomness"},
)]
#: Visits whose open section has no main chart: their first run is the full page.
WITHOUT_MAIN_CHART = [
    (UTILITY, {"util_view": "Budget planner"}),
    (OPTIMIZATION, {"opt_view": "Privacy accounting"}),
    (OPTIMIZATION, {"app": "lrmc", "opt_view": "On the manifold"}),
    (REGRESSION, {"reg_view": "Table 1 and diagnostics"}),
]
WIDGETS = ("slider", "select_slider", "selectbox", "multiselect", "toggle", "number_input")
#: What a chart-first run sends besides its main chart: the empty places of what the full run draws above
#: the chart, the containers the chart sits in, and in the sidebar, after the chart, the running indicator.
CHART_FIRST_ELEMENTS = {"empty", "flex_container", "column", "html"}


def _sidebar_widgets(at) -> int:
    return sum(len(getattr(at.sidebar, kind)) for kind in WIDGETS)


def _visit(monkeypatch, address: dict, page=PLAYGROUND):
    """An AppTest of ``page`` at ``address`` in a session with a browser."""
    monkeypatch.setattr(first_paint, "_in_browser", lambda: True)
    at = app_at(page)
    for key, value in address.items():
        at.query_params[key] = value
    return at


def _visit_id(visit) -> str:
    page, address = visit
    return f"{page.stem}?" + ("&".join(f"{k}={v}" for k, v in address.items()) or "default")


def _first_run(monkeypatch, visit):
    """The AppTest of ``visit`` after its first run, which raised nothing."""
    page, address = visit
    at = _visit(monkeypatch, address, page)
    at.run()
    assert_clean(at)
    return at


def _elements(node):
    """Every element and container below ``node``, in page order."""
    for _, child in sorted(getattr(node, "children", {}).items()):
        yield child
        yield from _elements(child)


@dataclass(frozen=True)
class ChartFirstRun:
    """What a visit's chart-first run sent, read before the full run replaces it."""

    live: list[dict]
    places: list[tuple[int, ...]]
    sidebar_widgets: int
    downloads: int
    charts: int
    address: dict
    sent: list[str]
    sidebar: list[tuple[str, str | None]]
    slept: list[float]


def _shared_visit(visit):
    """``visit`` as a fixture parameter whose three tests run on one xdist worker (``--dist loadgroup``)."""
    return pytest.param(visit, id=_visit_id(visit), marks=pytest.mark.xdist_group(f"first-paint {_visit_id(visit)}"))


@pytest.fixture(scope="module", params=[_shared_visit(visit) for visit in VISITS])
def two_runs(request):
    """A visit's chart-first run (what it sent, and the sleeps of the script's thread) and the AppTest after the
    full run that follows: the three tests below each check their part of the same two runs (a page's pair of
    runs costs 1-15 s, and there are 27 visits)."""
    page, address = request.param
    slept = []
    real_sleep = time.sleep

    def sleep(seconds):
        if threading.current_thread().name == "ScriptRunner.scriptThread":
            slept.append(seconds)
        real_sleep(seconds)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(time, "sleep", sleep)
        at = _visit(patch, address, page)
        at.run()
        assert_clean(at)
        first = ChartFirstRun(
            live=charts.live_args(at), places=charts.live_places(at), sidebar_widgets=_sidebar_widgets(at),
            downloads=len(at.download_button), charts=len(charts.specs(at)),
            address={key: at.query_params[key] for key in at.query_params},
            sent=[node.type for root in (at.main, at.sidebar) for node in _elements(root)],
            sidebar=[(node.type, node.proto.body if node.type == "html" else None) for node in _elements(at.sidebar)],
            slept=list(slept))
        at.run()
        assert_clean(at)
    yield address, first, at


def test_the_chart_first_run_draws_the_chart_the_full_run_keeps(two_runs):
    address, first, at = two_runs
    assert len(first.live) == 1 and first.live[0]["report"] is True
    assert first.sidebar_widgets == 0
    assert not first.downloads and first.charts == 1, "the rest of the page waits for the full run"
    assert first.address == address, "the address is left as it was"
    full = charts.live_args(at)
    assert not any(args["report"] for args in full)
    assert full[0]["figure"] == first.live[0]["figure"], "the full run would redraw the chart"
    assert charts.live_places(at)[0] == first.places[0], \
        "the full run sends the chart elsewhere: the browser would draw it anew"
    assert _sidebar_widgets(at) >= 6 and at.download_button
    assert set(at.query_params) > set(address), "the full run writes the values into the address"


def test_the_chart_first_run_sends_the_chart_alone(two_runs):
    """No title, introduction, formula, number or page link reaches the browser before the chart: each
    is a lazily loaded element type that React renders on the thread plotly.js draws on."""
    _, first, at = two_runs
    assert first.sent.count("component_instance") == 1
    assert set(first.sent) - {"component_instance"} <= CHART_FIRST_ELEMENTS, first.sent
    assert at.title and at.sidebar.get("page_link"), "the full run draws them"


def test_the_chart_first_run_shows_the_running_indicator_and_sleeps_nowhere(two_runs):
    """The sidebar says the controls are coming, and holds nothing else; nothing in the script waits on a
    clock (``st.status``, the indicator before, slept 50 ms when it was created, before the chart)."""
    _, first, at = two_runs
    assert not first.slept, f"the chart-first run slept {first.slept} s"
    assert [kind for kind, _ in first.sidebar] == ["html"], "the sidebar holds the indicator alone"
    body = first.sidebar[0][1]
    assert first_paint.CONTROLS_PENDING in body and 'role="status"' in body
    assert not [node for node in _elements(at.sidebar) if node.type == "html"
                and first_paint.CONTROLS_PENDING in node.proto.body], "the full run replaces the indicator"


@pytest.mark.parametrize("visit", WITHOUT_MAIN_CHART, ids=_visit_id)
def test_a_section_without_a_main_chart_gets_the_full_page_at_once(monkeypatch, visit):
    at = _first_run(monkeypatch, visit)
    assert _sidebar_widgets(at) >= 6, "no chart would ask for the full run"
    assert not any(args["report"] for args in charts.live_args(at))


@pytest.mark.parametrize("step", [None, "4", "8"])
def test_the_lessons_first_run_sends_its_steps_chart_alone_and_the_full_run_keeps_it(monkeypatch, step):
    """The Lesson's controls are its step selector, above the chart: it waits for the full run like the
    sidebar's widgets of the other pages, and the chart-first run draws the step the selector will show."""
    address = {} if step is None else {"step": step}
    at = _first_run(monkeypatch, (LESSON, address))
    first = charts.live_args(at)
    assert len(first) == 1 and first[0]["report"] is True
    sent = [node.type for root in (at.main, at.sidebar) for node in _elements(root)]
    assert sent.count("component_instance") == 1
    assert set(sent) - {"component_instance"} <= CHART_FIRST_ELEMENTS, sent
    assert not at.selectbox and not at.radio and not at.title
    place = charts.live_places(at)[0]
    at.run()
    assert_clean(at)
    full = charts.live_args(at)
    assert not full[0]["report"] and full[0]["figure"] == first[0]["figure"], "the full run would redraw the chart"
    assert charts.live_places(at)[0] == place, "the full run sends the chart elsewhere: the browser would draw it anew"
    assert at.title and at.selectbox(key="step").value == int(step or 1)
    assert at.query_params["step"] == (step or "1")
    at.button(key="lesson_forward").click().run()
    assert_clean(at)
    assert at.selectbox(key="step").value == int(step or 1) + 1, "the steps move after the chart-first run"
    assert not charts.live_args(at)[0]["report"], "a move within the visit is a full run"


def test_the_lesson_starts_with_its_chart_except_in_presenter_mode(monkeypatch):
    """Presenter mode's fitted chart must come after the step's title (``ui.presenter``): no chart-first run."""
    at = _first_run(monkeypatch, (LESSON, {"step": "5"}))
    assert charts.live_args(at)[0]["report"] is True
    at = _first_run(monkeypatch, (LESSON, {"present": "1", "step": "5"}))
    assert at.title[0].value.startswith("5 · ") and at.selectbox(key="step").value == 5
    assert not charts.live_args(at)[0]["report"]


def test_a_bad_address_value_is_reported_by_the_full_run(monkeypatch):
    at = _visit(monkeypatch, {"eps": "<b>huge</b>", "n": "100000"})
    at.run()
    assert_clean(at)
    assert not messages(at, "warning"), "the chart-first run shows the chart alone"
    at.run()
    found = messages(at, "warning")
    assert any("parameter eps=" in text and "<b>huge</b>" in text for text in found), found
    assert any("parameter n=" in text and "100000" in text for text in found), found
    assert at.sidebar.slider(key="eps").value == 1.0


def test_a_preset_from_the_address_shapes_the_first_chart_and_its_note_comes_with_the_full_page(monkeypatch):
    at = _visit(monkeypatch, {"preset": "reimherr-theorem2"}, SENSITIVITY)
    at.run()
    assert_clean(at)
    first = charts.live_args(at)
    assert not at.info and "preset" not in at.query_params
    at.run()
    assert_clean(at)
    assert charts.live_args(at)[0]["figure"] == first[0]["figure"]
    assert at.info and at.sidebar.slider(key="n").value == 10


def test_an_unknown_preset_is_reported_by_the_full_run(monkeypatch):
    at = _visit(monkeypatch, {"preset": "<i>nope</i>"}, SENSITIVITY)
    at.run()
    assert not messages(at, "warning") and at.query_params["preset"] == "<i>nope</i>"
    at.run()
    assert any("preset=" in text and "<i>nope</i>" in text for text in messages(at, "warning"))
    assert "preset" not in at.query_params


def test_a_chart_first_run_that_fails_reruns_in_full_with_the_error(monkeypatch):
    def fails(settings, progress=None):
        raise ValueError("the radius <r> is too large")

    monkeypatch.setattr(playground, "private_means", fails)
    at = _visit(monkeypatch, {})
    at.run()
    assert not at.exception
    assert [e.value for e in at.error] == ["Cannot compute the private means: the radius <r> is too large"]
    assert _sidebar_widgets(at) >= 6, "the widgets that can fix it are there"
    assert not charts.live_args(at)


def test_leaving_the_page_and_coming_back_starts_with_the_chart_again(monkeypatch):
    at = _visit(monkeypatch, {})
    at.run()
    at.run()
    assert _sidebar_widgets(at) >= 6
    at.switch_page("pages/3_Utility.py")
    at.run()
    assert_clean(at)
    assert _sidebar_widgets(at) == 0 and charts.live_args(at)[0]["report"] is True, "Utility starts with its chart too"
    at.run()
    assert at.sidebar.slider
    at.switch_page("pages/1_Private_mean_playground.py")
    at.run()
    assert _sidebar_widgets(at) == 0 and charts.live_args(at)[0]["report"] is True
    at.run()
    assert _sidebar_widgets(at) >= 6 and charts.live_args(at)[0]["report"] is False


def test_without_a_browser_every_run_is_the_full_page():
    at = app_at(PLAYGROUND)
    at.run()
    assert_clean(at)
    assert charts.live_args(at)[0]["report"] is False
    assert at.sidebar.slider and at.table
