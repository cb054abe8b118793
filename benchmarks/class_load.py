"""Load of a live class session (issue 46): a teacher and ``PHONES`` phones in one session through ``make serve``
(``python -m benchmarks class_load``; ``python -m benchmarks.class_load --phones 60 --workers 2``).

Every device is a thin client of Streamlit's websocket protocol (``benchmarks.load.Client``), pinned by the proxy's
affinity cookie as a browser is. The teacher opens the Lesson, presses "Start a class session" (its code comes in
the address, its secret in the cookie script the page sends, as a browser receives both) and then → through the
steps. Each phone opens ``/Lesson?join=CODE`` (its device id is its own Streamlit session's) and does what the
browser does with the student view's ``st.fragment(run_every=…)``: it asks for that fragment's run every
``POLL`` seconds (the ``auto_rerun`` message the page sends names the fragment and the interval); on a step it
has not answered it picks a choice and presses "Send my answer" (the answer fragment's run).

Measured, in the class store the server writes (an SQLite file of its own):

- follow: from the teacher pressing → to each phone receiving "Step k of N" (p50, p95, max over steps × phones),
  including the teacher's own run, the wait for the phone's next poll and for a core;
- answers: every "Sent" the phones saw against the answers stored for each step (``ClassStore.tally``): lost ones
  are sends confirmed but not stored, or sent and never confirmed;
- a poll on which nothing changed: the server's time for the follow fragment's run (p50, p95);
- errors (an exception, ``st.error``, a run that did not finish), the app processes' CPU time and the machine's
  1-minute load average before and after (the two cores are shared).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import websockets
from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks import load
from benchmarks.timing import Row
from ui.classroom.store import STORE_ENV, open_store
from ui.lesson.steps import STEPS

PHONES, WORKERS = 60, 2
#: Seconds between a phone's polls (the student view's ``POLL``, which the page's ``auto_rerun`` states).
POLL = 1.0
#: Seconds the teacher waits for every phone to follow and answer a step before moving on regardless.
STEP_TIMEOUT = 120.0
START, SEND, PREDICT = "Start a class session", "Send my answer", "**Predict:**"
_STEP_LINE = re.compile(r"\*\*Step (\d+) of \d+\*\*")
_TEACHER_COOKIE = re.compile(r"mpe_class_teacher=([0-9A-Z]+)\.([0-9a-f]+)")


@dataclass
class Phone:
    """What one phone saw: per step the seconds since the teacher's →, its confirmed sends, its errors, the
    server's time of each poll on which nothing changed and the most elements such a poll sent."""

    index: int
    followed: dict[int, float] = field(default_factory=dict)
    sent: set[int] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    idle_polls: list[float] = field(default_factory=list)
    #: The most elements a poll on which nothing changed sent.
    idle_elements: int = 0
    cookie: str = ""


class Device(load.Client):
    """A thin client that also keeps the elements a class session needs: the buttons by label (with their
    fragment), the answer's radio, the step line (and when it changed), the html bodies; "Sent: …" lines go to
    the run's ``headings``."""

    def __init__(self, socket):
        super().__init__(socket)
        self.buttons: dict[str, tuple[str, str]] = {}
        self.radio: tuple[str, list[str]] | None = None
        self.step, self.step_seen, self.html = 0, 0.0, []
        #: Elements received so far.
        self.elements = 0

    def note(self, element, fragment, shown):
        self.elements += 1
        which = element.WhichOneof("type")
        if which == "alert" and element.alert.body.startswith("Sent:"):
            shown.headings.append(element.alert.body)
        elif which == "button":
            self.buttons[element.button.label] = (element.button.id, fragment)
        elif which == "radio" and element.radio.label.startswith(PREDICT):
            self.radio = (element.radio.id, list(element.radio.options))
        elif which == "markdown" and (found := _STEP_LINE.search(element.markdown.body)):
            if int(found.group(1)) != self.step:
                self.step, self.step_seen = int(found.group(1)), time.perf_counter()
        elif which == "html":
            self.html.append(element.html.body)

    async def press(self, label: str, query_string: str, widgets: list[WidgetState] = ()) -> load.Shown:
        """Press the button ``label`` (with the values ``widgets`` set), as the browser does: a run of its
        fragment if it is in one."""
        button, fragment = self.buttons[label]
        for state in widgets:
            self.widgets[state.id] = state
        return await self.run(load.LESSON, query_string, WidgetState(id=button, trigger_value=True), fragment)

    async def poll(self, query_string: str) -> load.Shown:
        """The run the browser asks for every ``POLL`` seconds: the auto-rerun fragment's alone."""
        self.widgets = {}
        return await self.run(load.LESSON, query_string, None, self.auto_rerun, auto=True)


@dataclass
class Class:
    """The session the teacher opened and when it pressed → to each step (``perf_counter`` seconds)."""

    code: str = ""
    secret: str = ""
    moved: dict[int, float] = field(default_factory=dict)
    done: bool = False
    errors: list[str] = field(default_factory=list)


async def _connect(base: str):
    cookie = await asyncio.to_thread(load.affinity_cookie, base, load.LESSON)
    headers = {"Cookie": f"{load.AFFINITY_COOKIE}={cookie}"} if cookie else None
    socket = await websockets.connect(load.websocket_url(base), subprotocols=["streamlit"], max_size=None,
                                      open_timeout=load.RUN_TIMEOUT, ping_interval=None, additional_headers=headers)
    return socket, cookie


async def _phone(base: str, phone: Phone, lesson: Class, joined: asyncio.Event) -> None:
    """Join the class, then follow the teacher's steps and answer each one until the teacher is done, writing
    what it saw into ``phone`` as it goes (the teacher waits on it)."""
    index = phone.index
    await joined.wait()
    try:
        socket, phone.cookie = await _connect(base)
        async with socket:
            device = Device(socket)
            query = f"join={lesson.code}"
            shown = await device.open(load.LESSON, {"join": lesson.code})
            phone.errors += shown.errors
            if not device.auto_rerun:
                phone.errors.append("the student view sent no auto_rerun fragment")
                return
            await asyncio.sleep(POLL * index / PHONES)  # the phones opened at different moments
            while not lesson.done:
                if device.step in lesson.moved and device.step not in phone.followed:
                    phone.followed[device.step] = device.step_seen - lesson.moved[device.step]
                if device.step and device.step not in phone.sent and device.radio is not None:
                    radio, options = device.radio
                    pick = WidgetState(id=radio, string_value=options[index % len(options)])
                    shown = await device.press(SEND, query, [pick])
                    phone.errors += shown.errors
                    if any(text.startswith("Sent:") for text in shown.headings):
                        phone.sent.add(device.step)
                    else:
                        phone.errors.append(f"step {device.step}: no 'Sent' after {SEND!r}")
                    continue
                started, before, elements = time.perf_counter(), device.step, device.elements
                shown = await device.poll(query)
                phone.errors += shown.errors
                if device.step == before:
                    phone.idle_polls.append(shown.seconds)
                    phone.idle_elements = max(phone.idle_elements, device.elements - elements)
                await asyncio.sleep(max(0.0, POLL - (time.perf_counter() - started)))
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException, KeyError) as err:
        phone.errors.append(f"{type(err).__name__}: {err}")


async def _teacher(base: str, lesson: Class, phones: list[Phone], joined: asyncio.Event, steps: int) -> None:
    """Start the session, let every phone join and answer step 1, then → through ``steps`` steps, each once every
    phone followed and answered it (or ``STEP_TIMEOUT`` passed)."""
    try:
        socket, _ = await _connect(base)
        async with socket:
            teacher = Device(socket)
            opened = await teacher.open(load.LESSON)
            started = await teacher.press(START, opened.addresses[-1] if opened.addresses else "")
            lesson.errors += opened.errors + started.errors
            address = started.addresses[-1]
            found = next(m for m in map(_TEACHER_COOKIE.search, teacher.html) if m)
            lesson.code, lesson.secret = found.groups()
            lesson.moved[1] = time.perf_counter()
            joined.set()
            for number in range(1, steps + 1):
                if number > 1:
                    lesson.moved[number] = time.perf_counter()
                    shown = await teacher.press_forward(load.LESSON, address)
                    lesson.errors += shown.errors
                    address = shown.addresses[-1] if shown.addresses else address
                deadline = time.perf_counter() + STEP_TIMEOUT
                while (not all(number in p.sent for p in phones) or not all(number in p.followed for p in phones)) \
                        and time.perf_counter() < deadline:
                    await asyncio.sleep(0.2)
                await asyncio.sleep(POLL)  # a poll on which nothing changed, for every phone
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException, StopIteration, IndexError,
            KeyError) as err:
        lesson.errors.append(f"teacher: {type(err).__name__}: {err}")
        joined.set()
    finally:
        lesson.done = True


@dataclass(frozen=True)
class ClassLoad:
    """One class session under load: follow times (s, steps 2… × phones), idle polls' times (s), answers the
    phones saw confirmed and the store holds, per-step shortfalls, errors, phones per process (in the order of
    the app ports), wall and app CPU seconds, load averages."""

    phones: int
    workers: int
    steps: int
    follow: np.ndarray
    idle_poll: np.ndarray
    idle_elements: int
    sent: int
    stored: int
    missing: list[str]
    errors: list[str]
    split: list[int]
    wall: float
    cpu: float
    load_before: float
    load_after: float


def measure(phones: int = PHONES, workers: int = WORKERS, steps: int = len(STEPS)) -> ClassLoad:
    """``make serve`` with ``workers`` processes and a class store of its own; one warm-up walk of the Lesson on
    each process; then a teacher and ``phones`` phones through ``steps`` steps."""
    if phones < 1 or workers < 1 or not 1 <= steps <= len(STEPS):
        raise ValueError(f"phones and workers must be at least 1 and steps from 1 to {len(STEPS)}, got {phones}, "
                         f"{workers} and {steps}")
    with tempfile.TemporaryDirectory() as folder:
        where = str(Path(folder) / "classes.sqlite")
        saved = os.environ.get(STORE_ENV)
        os.environ[STORE_ENV] = where
        try:
            with load.serve(workers) as (base, apps):
                ports = sorted(apps)
                for port in ports:
                    asyncio.run(load.drive(base, "class", 0, 0, load.affinity(f"127.0.0.1:{port}")))
                processes = [apps[port] for port in ports]
                lesson, crowd = Class(), [Phone(i) for i in range(phones)]

                async def live():
                    joined = asyncio.Event()
                    tasks = [asyncio.create_task(_phone(base, p, lesson, joined)) for p in crowd]
                    await _teacher(base, lesson, crowd, joined, steps)
                    await asyncio.gather(*tasks)

                load_before = os.getloadavg()[0]
                start, cpu_start = time.perf_counter(), sum(load.cpu_seconds(p) for p in processes)
                asyncio.run(live())
                wall = time.perf_counter() - start
                cpu = sum(load.cpu_seconds(p) for p in processes) - cpu_start
                load_after = os.getloadavg()[0]
        finally:
            if saved is None:
                os.environ.pop(STORE_ENV, None)
            else:
                os.environ[STORE_ENV] = saved
        store = open_store(where)
        stored, missing = 0, []
        for number in range(1, steps + 1):
            count = sum(store.tally(lesson.code, number, lesson.secret).values()) if lesson.code else 0
            confirmed = sum(number in p.sent for p in crowd)
            stored += count
            if count != phones or confirmed != phones:
                missing.append(f"step {number}: {confirmed} confirmed, {count} stored of {phones}")
    cookies = [load.affinity(f"127.0.0.1:{port}") for port in ports]
    follow = np.array([s for p in crowd for n, s in p.followed.items() if n > 1])
    errors = lesson.errors + [f"phone {p.index}: {e}" for p in crowd for e in p.errors]
    errors += [f"phone {p.index}: step {n} never followed" for p in crowd for n in range(1, steps + 1)
               if n not in p.followed]
    return ClassLoad(phones, workers, steps, follow, np.array([s for p in crowd for s in p.idle_polls]),
                     max(p.idle_elements for p in crowd),
                     sum(len(p.sent) for p in crowd), stored, missing, errors,
                     [sum(p.cookie == c for p in crowd) for c in cookies], wall, cpu, load_before, load_after)


def _percentiles(values: np.ndarray) -> tuple[float, float, float]:
    return tuple(np.percentile(values, [50, 95, 100])) if values.size else (np.nan,) * 3


def summary(r: ClassLoad) -> str:
    p50, p95, top = _percentiles(r.follow)
    i50, i95, _ = _percentiles(r.idle_poll)
    return (f"teacher + {r.phones} phones, make serve WORKERS={r.workers}, {r.steps} steps in {r.wall:.0f} s, "
            f"phones per process {r.split}: follow p50 {p50:.2f} s, p95 {p95:.2f} s, max {top:.2f} s "
            f"({r.follow.size} follows); answers sent {r.sent}, stored {r.stored}, lost {r.sent - r.stored}; "
            f"idle poll p50 {1000 * i50:.0f} ms, p95 {1000 * i95:.0f} ms, at most {r.idle_elements} element(s); errors {len(r.errors)}; app CPU "
            f"{r.cpu:.1f} s; load average {r.load_before:.1f} → {r.load_after:.1f}")


def run() -> list[Row]:
    r = measure()
    p50, p95, _ = _percentiles(r.follow)
    name = f"class session ({r.phones} phones, make serve WORKERS={r.workers})"
    return [Row(f"{name}: teacher's → to every phone's step, p50", p50, "—", summary(r)),
            Row(f"{name}: teacher's → to every phone's step, p95", p95, "< 2 s",
                "0 answers lost, no error; the machine's 2 cores are shared with other work")]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=PHONES)
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--steps", type=int, default=len(STEPS))
    args = parser.parse_args(argv)
    if args.phones < 1 or args.workers < 1 or not 1 <= args.steps <= len(STEPS):
        parser.error(f"--phones and --workers must be at least 1 and --steps from 1 to {len(STEPS)}, got "
                     f"{args.phones}, {args.workers} and {args.steps}")
    r = measure(args.phones, args.workers, args.steps)
    print(summary(r))
    for line in (r.missing + r.errors)[:20]:
        print("  ", line)


if __name__ == "__main__":
    main()
