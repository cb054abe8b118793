"""The load benchmark's thin client (``benchmarks/load.py``) measures what it says: against a real
server it follows the playground's chart-first run to the full run, finds the ε slider, moves it and sees
its own values (it once reported "no slider" for every session and measured nothing); in the class
scenario it presses the Lesson's → through every step and sees each step it moved to."""

import asyncio

import pytest

from benchmarks import load
from ui.lesson.steps import STEPS

pytestmark = pytest.mark.slow


def test_the_thin_client_reaches_the_slider_and_walks_the_lesson():
    with load.server() as (url, _):
        own = asyncio.run(load.drive(url, "own", 0, 1))
        walk = asyncio.run(load.drive(url, "class", 1, 0))
    assert (own.errors, own.leaks) == ([], [])
    assert len(own.times) == 2
    assert (walk.errors, walk.leaks) == ([], [])
    assert len(walk.times) == len(STEPS) - 1
