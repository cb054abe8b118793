"""The Lesson pack in real Chromium from ``file://``, every request outside its folder aborted, on a
390×844 phone and a 1920×1080 projector: Next/Back and ← → reach all nine steps, each draws its charts, the
address fragment opens a step, Reveal shows the run's numbers, the ε slider redraws its chart, the game deals
its rounds; no script error, no request out; axe-core (WCAG 2 A/AA) finds nothing."""

from __future__ import annotations

import json

import pytest

from lesson_pack.folder import build
from lesson_pack.out import DATA
from tests.browser.pack_page import pack_tab
from tests.browser.test_accessibility import AXE, _violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = [(390, 844), (1920, 1080)]
#: The steps axe-core checks with their answers shown: a slider chart, the game, the last.
AXE_STEPS = (2, 6, 9)
#: The plotly elements of the step on screen: their boxes (width, height) and whether they are visible.
_DRAWN = """() => [...document.querySelectorAll('section:not(.parked) .chart')].map((chart) => {
    const box = chart.getBoundingClientRect();
    return [chart.classList.contains('js-plotly-plot'), box.width, box.height,
            getComputedStyle(chart).visibility];
})"""
#: The coordinates of every trace of the chart of the step on screen.
_TRACES = """() => JSON.stringify(document.querySelector('section:not(.parked) .chart').data.map(
    (trace) => [trace.x, trace.y, trace.z]))"""


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    folder = build(tmp_path_factory.mktemp("pack") / "lesson", values=2)  # the steps' own runs as at 5
    steps = json.loads((folder / DATA).read_text(encoding="utf-8").removeprefix("window.LESSON = ")
                       .removesuffix(";\n"))["steps"]
    return folder, steps


def _assert_drawn(tab, number: int) -> None:
    assert tab.open_step() == number and tab.page.evaluate("location.hash") == f"#step-{number}"
    drawn = tab.page.evaluate(_DRAWN)
    assert drawn and all(plot and width > 100 and height > 100 and seen == "visible"
                         for plot, width, height, seen in drawn), (number, drawn)


def _sliders_redraw(tab, sliders: list[dict]) -> None:
    """Each slider at its first value redraws the chart with other data, and back at the step's own value
    with the step's own (the others go back to theirs)."""
    from playwright.sync_api import expect

    page = tab.page
    own = page.evaluate(_TRACES)
    for which, slider in enumerate(sliders):
        control = page.locator("section:not(.parked) .slider input").nth(which)
        expect(page.locator("section:not(.parked) .slider label").nth(which)).to_have_text(
            f"{slider['label']} = {_number(slider['values'][slider['own']])} (the step's)")
        control.fill("0")
        page.wait_for_function(f"(own) => ({_TRACES})() !== own", arg=own)
        control.fill(str(slider["own"]))
        page.wait_for_function(f"(own) => ({_TRACES})() === own", arg=own)


def _number(value: float) -> str:
    """A value as the page's script writes it (1.0 as 1)."""
    return f"{value:g}"


def _game_deals(section, game: dict) -> None:
    """A guess is scored against the first round's data set and the tally moves; the attackers show."""
    from playwright.sync_api import expect

    tally = section.locator("p", has_text="The class:")
    expect(tally).to_have_text(f"The class: no rounds yet. Ceiling e^ε/(1 + e^ε) = {game['ceiling']}.")
    section.get_by_role("button", name="It came from D", exact=True).click()
    expect(tally).to_contain_text(f"The class: {int(game['rounds'][0]['side'] == 0)} of 1 right")
    expect(section.locator("p", has_text="The best possible attacker")).to_contain_text(game["best"])


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_walk_through_the_pack_from_a_link_to_step_4(chromium, pack, size):
    """Opened at #step-4, Back and ← to step 1, then Next and → through all nine: each step draws its charts,
    Reveal shows its run's numbers and takeaway, each slider redraws its chart, the game deals; then axe-core on
    ``AXE_STEPS``, their answers shown."""
    from playwright.sync_api import expect

    folder, steps = pack
    tab = pack_tab(chromium, *size)
    tab.open(folder, "step-4")
    _assert_drawn(tab, 4)
    for how in ("Back", "ArrowLeft", "Back"):
        tab.switch_ms(how)
    assert tab.page.locator("#back").is_disabled()
    found = {}
    for step in steps:
        _assert_drawn(tab, step["number"])
        section = tab.page.locator("section:not(.parked)")
        answer = section.locator(".answer")
        expect(answer).to_be_hidden()
        right = step["choices"][step["right"]]
        section.get_by_label(right, exact=True).check()
        section.get_by_role("button", name="Reveal").click()
        expect(answer).to_have_text(f"Right. The answer: {right}. {step['numbers']}")
        expect(section.locator(".takeaway")).to_have_text(f"{step['headline']}. {step['takeaway']}")
        if step["sliders"]:
            _sliders_redraw(tab, step["sliders"])
        if "game" in step:
            _game_deals(section, step["game"])
        if step["number"] < len(steps):
            tab.switch_ms("Next" if step["number"] % 2 else "ArrowRight")
    assert tab.page.locator("#next").is_disabled()
    assert not tab.errors and not tab.outside, (tab.errors, tab.outside)
    if AXE.exists():  # last: axe-core reads the style sheet by a request that file:// refuses, a console error
        for number in AXE_STEPS:
            tab.page.evaluate(f"window.lessonPack.go({number - 1})")
            found[number] = _violations(tab.page)
    assert not any(found.values()), found
    tab.page.context.close()
