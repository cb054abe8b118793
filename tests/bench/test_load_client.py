"""The load benchmark's thin client (``benchmarks/load.py``) measures what it says: against a real
server it follows the playground's chart-first run to the full run, finds the ε slider, moves it and sees
its own values (it once reported "no slider" for every session and measured nothing); in the class
scenario it presses the Lesson's → through every step and sees each step it moved to; through ``make serve``
(``deploy/serve`` and Caddy) each session is pinned by the proxy's cookie and served by the process it names."""

import asyncio
import shutil

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


def test_the_lessons_arrow_reruns_the_step_alone():
    """→ on the Lesson is a widget inside the step's fragment: the thin client asks for that fragment's run,
    as the browser does, and the server reruns the step alone (not the sidebar, nor the page's scan of
    ``pages/``), showing the step moved to and its address."""

    async def walk(url):
        async with load.websockets.connect(load.websocket_url(url), subprotocols=["streamlit"], max_size=None,
                                           ping_interval=None) as socket:
            client = load.Client(socket)
            opened = await client.open(load.LESSON)
            return opened, await client.press_forward(load.LESSON, opened.addresses[-1])

    with load.server() as (url, _):
        opened, stepped = asyncio.run(walk(url))
    assert not opened.fragment
    assert stepped.fragment
    assert stepped.errors == []
    assert stepped.headings == [f"2 · {STEPS[1].title}"]
    assert stepped.addresses[-1].endswith("step=2")


@pytest.mark.skipif(shutil.which("caddy") is None, reason="Debian's caddy is not installed (make install-serve)")
def test_the_benchmark_drives_a_class_through_make_serve():
    """Two students, the Lesson then one ε change, through ``deploy/serve`` with one process (about 10 s)."""
    r = load.measure("both", sessions=2, changes=1, workers=1)
    assert (r.errors, r.leaks) == ([], [])
    assert r.split == [2]
    assert len(r.times) == 2 * (len(STEPS) - 1 + 2)
    assert 100 < r.rss_before[0] <= r.rss_peak[0] and r.rss_after[0] <= r.rss_peak[0]
    assert r.cpu > 0
