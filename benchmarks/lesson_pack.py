"""The Lesson pack's build and speed (issue 47): ``python -m benchmarks lesson_pack``.

- *build*: ``python -m lesson_pack`` in a fresh process, as ``make lesson-pack`` runs it (imports and every
  step's run included), and the folder's size (target < 30 MB);
- *open*: from opening ``index.html`` in Chromium (``file://``, every other request aborted) until the open step's
  charts are drawn, and until every step's are (the page draws them ahead);
- *step switch*: from Next/Back or ← → until the step's charts are on screen and two frames painted, once every
  step is drawn, at 390×844 and 1920×1080 (target < 50 ms).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.timing import Row
from tests.browser.harness import ROOT, chromium_missing_reason, headless_chromium
from tests.browser.pack_page import pack_tab

SIZES = [(390, 844), (1920, 1080)]
BUILDS = 3


def _build(out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "lesson_pack", "--out", str(out)], cwd=ROOT, check=True,
                   capture_output=True, timeout=600)
    return time.perf_counter() - start


def _times(task: str, seconds: list[float], target: str, note: str = "") -> Row:
    return Row(task, min(seconds), target, note, statistics.median(seconds))


def _walk(browser, folder: Path, size: tuple[int, int]) -> tuple[float, float, list[float]]:
    """Seconds to the first step drawn and to every step drawn, and the step switches of → through every
    step, ← back to step 1 (buttons and keys in turn), then again."""
    tab = pack_tab(browser, *size)
    start = time.perf_counter()
    tab.open(folder)
    first = time.perf_counter() - start
    tab.open(folder, all_drawn=True)
    every = time.perf_counter() - start
    moves, last = [], tab.page.evaluate("window.LESSON.steps.length") - 1
    for _ in range(2):
        moves += [tab.switch_ms("Next" if k % 2 else "ArrowRight") / 1e3 for k in range(last)]
        moves += [tab.switch_ms("Back" if k % 2 else "ArrowLeft") / 1e3 for k in range(last)]
    if tab.errors or tab.outside:
        raise RuntimeError(f"the pack's page logged errors {tab.errors} or requested {tab.outside}")
    tab.page.context.close()
    return first, every, moves


def run() -> list[Row]:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "lesson"
        builds = [_build(folder) for _ in range(BUILDS)]
        size = sum(path.stat().st_size for path in folder.iterdir())
        rows = [_times("lesson pack: python -m lesson_pack, fresh process", builds, "—",
                       f"{size / 1e6:.1f} MB in {len(list(folder.iterdir()))} files (target < 30 MB)")]
        reason = chromium_missing_reason()
        if reason:
            return rows + [Row("lesson pack in Chromium", float("nan"), "< 0.05 s", f"skipped: {reason}")]
        with headless_chromium() as browser:
            _walk(browser, folder, SIZES[1])  # Chromium's own caches warm
            for width, height in SIZES:
                first, every, moves = _walk(browser, folder, (width, height))
                rows.append(Row(f"lesson pack {width}×{height}: open index.html to the first step drawn", first, "—",
                                f"every step's charts drawn after {every:.1f} s"))
                rows.append(_times(f"lesson pack {width}×{height}: step switch (Next/Back, ← →), all drawn", moves,
                                   "< 0.05 s", f"max {max(moves) * 1e3:.0f} ms over {len(moves)} moves"))
    return rows
