"""The class-session load benchmark (``benchmarks/class_load.py``) measures what it says: through ``make serve``
its thin-client teacher starts a session and moves it, its phones join by code, follow every move through the
student view's polled fragment and send answers, and the answers it counts are the ones the store holds; a poll
on which nothing changed sends the phone one element, its step line (no chart is redrawn)."""

import shutil

import pytest

from benchmarks import class_load

pytestmark = pytest.mark.slow


@pytest.mark.skipif(shutil.which("caddy") is None, reason="Debian's caddy is not installed (make install-serve)")
def test_a_teacher_and_two_phones_through_make_serve():
    r = class_load.measure(phones=2, workers=1, steps=2)
    assert r.errors == [] and r.missing == []
    assert r.split == [2]
    assert r.follow.size == 2  # each phone followed the teacher's move to step 2
    assert 0 < r.follow.min() and r.follow.max() < class_load.STEP_TIMEOUT
    assert r.sent == r.stored == 4
    assert r.idle_poll.size > 0
    assert r.idle_elements == 1  # a poll on which nothing changed redraws the step line alone, no chart
