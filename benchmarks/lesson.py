"""The Lesson page's speed (issue 33): ``python -m benchmarks lesson``.

- *step seen*: in one tab that has walked every step with →, ← and → back to steps it has shown, from
  the key press until the chart holds the step's data and the script is idle (target < 0.5 s);
- *new step*: the Lesson opened at ``?step=N`` by a returning browser, time to its first drawn chart,
  against a bare page with that step's chart alone (``reference_app.py``'s ``?figure=``, drawn as the
  Lesson draws it, as wide and at the same address), the two visited in turn (``pages._paired_visits``;
  target ≤ 1.2× the floor), and → to a step the tab has not shown yet;
- *best attacker*: ``Game.best_attacker`` over 10,000 rounds at the lesson's ε (target < 1 s).

The server's cache is warm throughout (one untimed walk first): a class's screens follow the teacher's.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.pages import (
    CHART,
    FIGURES_ENV,
    REFERENCE,
    _new_page,
    _paired_visits,
    _row,
    _warm,
    first_chart_width,
    own_floor_url,
    store_first_chart,
)
from benchmarks.timing import Row, best_and_median
from engine.lesson.game import BEST_ROUNDS, which_data_set
from tests.browser.harness import (
    ROOT,
    chart_signature,
    chromium_missing_reason,
    headless_chromium,
    streamlit_server,
    wait_for_app,
    wait_for_chart_change,
)
from ui.lesson.steps import GAME_EPSILON, STEPS

LESSON = "Lesson"
TIMEOUT_MS = 120_000


def store_step_figures(folder: Path) -> None:
    """Write each step's chart, as an AppTest run of the Lesson at ``?step=N`` draws it, to
    ``folder/lesson-N.json`` for ``reference_app.py``'s ``?figure=lesson-N``."""
    from tests.app.conftest import app_at

    for number in range(1, len(STEPS) + 1):
        at = app_at(ROOT / "pages" / "9_Lesson.py")
        at.query_params["step"] = str(number)
        store_first_chart(at, folder / f"lesson-{number}.json")


def _step(page, key: str) -> float:
    """Seconds from pressing ``key`` until the charts show new data and the script is idle."""
    before = chart_signature(page)
    start = time.perf_counter()
    page.keyboard.press(key)
    wait_for_chart_change(page, before, TIMEOUT_MS)
    return time.perf_counter() - start


def _walk(browser, base: str) -> tuple[list[float], list[float]]:
    """One tab: → through every step (steps it has not shown), then ← to step 1 and → to the last again
    (steps it has shown)."""
    page = _new_page(browser)
    page.goto(f"{base}/{LESSON}")
    wait_for_app(page, TIMEOUT_MS)
    last = len(STEPS) - 1
    new = [_step(page, "ArrowRight") for _ in range(last)]
    seen = [_step(page, "ArrowLeft") for _ in range(last)] + [_step(page, "ArrowRight") for _ in range(last)]
    page.context.close()
    return new, seen


def _attacker_row() -> Row:
    game = which_data_set(GAME_EPSILON)
    best, median = best_and_median(lambda: game.best_attacker(BEST_ROUNDS, seed=1))
    return Row(f"lesson game: best attacker, {BEST_ROUNDS:,} rounds at ε = {GAME_EPSILON:g}", best, "< 1 s",
               "deal (Riemannian Laplace on S²) + likelihood-ratio guesses", median=median)


def run() -> list[Row]:
    rows = [_attacker_row()]
    reason = chromium_missing_reason()
    if reason:
        return rows + [Row("lesson page timings", float("nan"), "< 0.5 s / ≤ 1.2× floor", f"skipped: {reason}")]
    with headless_chromium() as browser, tempfile.TemporaryDirectory() as folder:
        store_step_figures(Path(folder))
        os.environ[FIGURES_ENV] = folder
        with streamlit_server(app=REFERENCE) as reference, streamlit_server() as base:
            _walk(browser, base)  # the server computes every step once
            new, seen = _walk(browser, base)
            rows.append(_row("lesson: → or ← to a step already shown in the tab", seen, "< 0.5 s"))
            rows.append(_row("lesson: → to a step not yet shown in the tab (server cache warm)", new, "—"))
            for number, step in enumerate(STEPS, 1):
                url = f"{base}/{LESSON}?step={number}"
                floor_url = own_floor_url(reference, LESSON, first_chart_width(browser, url), f"lesson-{number}")
                _warm(browser, floor_url)
                times = _paired_visits(browser, url, floor_url, CHART)
                opened, floor = times["page"][1], times["floor"][1]
                rows.append(_row(f"lesson step {number} ({step.title}): first chart, returning", opened,
                                 "≤ 1.2× floor",
                                 f"{statistics.median(opened) / statistics.median(floor):.2f}× / "
                                 f"{min(opened) / min(floor):.2f}× its chart's bare page (median / best; floor "
                                 f"median {statistics.median(floor):.2f} s)"))
    return rows
