"""The load benchmark's thin client (``benchmarks/load.py``) measures what it says: against a real
server it follows the playground's chart-first run to the full run, finds the ε slider, moves it and sees
its own values, in both scenarios (it once reported "no slider" for every session and measured nothing)."""

import asyncio

import pytest

from benchmarks import load

pytestmark = pytest.mark.slow


def test_the_thin_client_reaches_the_slider_in_both_scenarios():
    with load.server() as (url, _):
        own = asyncio.run(load.drive(url, "own", 0, 1))
        walk = asyncio.run(load.drive(url, "class", 1, 0))
    assert (own.errors, own.leaks) == ([], [])
    assert len(own.times) == 2
    assert (walk.errors, walk.leaks) == ([], [])
    assert len(walk.times) == 2 * len(load.CLASS_STEPS) == 6
