"""Load: a class of concurrent sessions through ``make serve``, without a browser (``python -m benchmarks load``).

The class reaches the app as it would in a classroom: through ``deploy/serve`` (what ``make serve`` runs),
``WORKERS`` Streamlit processes behind Caddy, each session first loading the page over HTTP to get the
proxy's affinity cookie (``mpe_server``) and then opening its websocket with it, as a browser does.

Each session is a thin client of Streamlit's websocket protocol (``/_stcore/stream``, protobuf
``BackMsg``/``ForwardMsg``, the messages the browser exchanges). Like the browser, it answers a page's
chart-first run (``ui.first_paint``): the live chart's value is set once the run has delivered it, which
asks for the full run with the sidebar's widgets; an opening is timed until that full run has finished. A
button inside a fragment (the Lesson's →) asks for a run of that fragment alone, as the browser does.
Three scenarios:

- ``class``: every session walks the Lesson page's steps, as a class following the teacher: it opens the
  Lesson and presses → (the same trigger the browser sends) until the last step (results shared; one
  session walked the lesson before, as the teacher does when preparing the class);
- ``own``: every session opens the playground and moves ε ``CHANGES`` times, each time to a value no
  other session uses (the worst case: nothing shared);
- ``both``: a student's lesson: the ``class`` walk, then the ``own`` one on the same connection.

Nothing is rendered, so the figures are the server's alone:

- time per step: from the request (the Lesson's →, an ε change) to the server's last
  ``script_finished`` (p50, p95, max; a run the page restarts with ``st.rerun()`` and a chart-first
  run's follow-up count with it), including the time a run waits for the two cores;
- errors: an exception or ``st.error`` element, a run that did not finish successfully, a timeout, a page
  that never showed its ε slider (the Lesson: its → button);
- leaks: a session whose ε slider or address (``page_info_changed``) shows a value it did not ask for, or
  (the Lesson) whose step heading or address ``step`` is not the step it moved to;
- RSS of each app process after one warm-up session on each, at its peak while the sessions run
  (sampled every 0.2 s) and after all sessions; how many sessions the proxy gave each process;
- the app processes' CPU time (with their children) while the sessions run, per step: on the shared cores
  the times above include waiting for a core, this does not, so it compares two versions run at different
  loads; and the machine's 1-minute load average before and after (the cores are shared).

Command line: ``python -m benchmarks.load --scenario both --sessions 30 --workers 1``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import hmac
import json
import os
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlencode

import numpy as np
import psutil
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Button_pb2 import Button
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks.timing import Row
from deploy.launch import serving
from tests.browser.harness import ROOT, streamlit_process

SESSIONS, CHANGES, WORKERS = 30, 3, 1
PAGE, LESSON = "Private_mean_playground", "Lesson"
SCENARIOS = ("class", "own", "both")
#: The cookie by which the proxy of ``make serve`` pins a session to its process (``deploy/Caddyfile``).
AFFINITY_COOKIE = "mpe_server"
SERVE_TIMEOUT = 300.0
EPSILON_LABEL, DEFAULT_EPSILON = "Privacy budget ε", 1.0
#: The label of the Lesson's button to the next step.
FORWARD = "→"
RUN_TIMEOUT = 600.0
MIB = 2.0**20


@dataclass
class Session:
    """What one client saw: time per step, its errors and the foreign values it was shown."""

    index: int
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    #: The affinity cookie it was served with ("" without a proxy).
    cookie: str = ""


@dataclass
class Shown:
    """What the runs of one step showed: whether the last was a fragment's run alone, their errors, the ε
    slider's values, the addresses and the headings."""

    seconds: float = 0.0
    fragment: bool = False
    errors: list[str] = field(default_factory=list)
    epsilons: list[float] = field(default_factory=list)
    addresses: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)


def epsilon_of(index: int, change: int) -> float:
    """The ε session ``index`` sets at its ``change``-th move: unique per (session, change), on the
    slider's 0.05 grid."""
    return round(0.05 * (2 + change * 64 + index), 2)


def _reports_drawn(element) -> bool:
    """Whether ``element`` is a live chart of a chart-first run, waiting for the browser to say it is drawn."""
    if element.WhichOneof("type") != "component_instance":
        return False
    args = element.component_instance.json_args
    return '"report"' in args and json.loads(args).get("report") is True


class Client:
    """One browser-less session speaking Streamlit's websocket protocol: it keeps the widget values it
    set (sent with every run, as the browser does) until it leaves the page."""

    def __init__(self, socket):
        self.socket = socket
        self.widgets: dict[str, WidgetState] = {}
        self.epsilon_id: str | None = None
        self.forward: Button | None = None
        #: The fragment that holds the → button ("" outside a fragment).
        self.forward_fragment = ""
        #: The page the last run ran (its ``navigation`` message), which a fragment's run names as the browser does.
        self.page_hash = ""
        #: The fragment the page asks to rerun on a timer (``st.fragment(run_every=…)``'s ``auto_rerun``), if any.
        self.auto_rerun = ""

    def note(self, element, fragment: str, shown: Shown) -> None:
        """Called with every element a run sends (and the fragment it is in): a subclass keeps what it needs."""

    def set_epsilon(self, value: float) -> None:
        state = WidgetState(id=self.epsilon_id)
        state.double_array_value.data.append(value)
        self.widgets[state.id] = state

    async def open(self, page: str, query: dict | None = None) -> Shown:
        """Go to ``page`` (with the address ``query``), leaving the widgets of the page shown before."""
        self.widgets, self.epsilon_id, self.forward, self.forward_fragment = {}, None, None, ""
        return await self.run(page, urlencode(query or {}))

    async def press_forward(self, page: str, query_string: str) -> Shown:
        """Press the page's → button (a trigger: sent with this run only), as the browser does: inside a
        fragment, the run asked for is the fragment's."""
        return await self.run(page, query_string, WidgetState(id=self.forward.id, trigger_value=True),
                              self.forward_fragment)

    async def run(self, page: str, query_string: str = "", trigger: WidgetState | None = None,
                  fragment: str = "", auto: bool = False) -> Shown:
        """Request a run of ``page`` (with a button's ``trigger``; of its ``fragment`` alone if given, ``auto`` when
        it is the fragment's timed rerun), follow a chart-first run to the full run; what they showed."""
        shown, start = Shown(), time.perf_counter()
        while True:
            message = BackMsg()
            message.rerun_script.page_name = page
            message.rerun_script.query_string = query_string
            if fragment:
                message.rerun_script.fragment_id = fragment
                message.rerun_script.page_script_hash = self.page_hash
                message.rerun_script.is_auto_rerun = auto
            message.rerun_script.widget_states.widgets.extend(self.widgets.values())
            if trigger is not None:
                message.rerun_script.widget_states.widgets.append(trigger)
                trigger, fragment = None, ""
            await self.socket.send(message.SerializeToString())
            chart_first = await self._replies(shown)
            if chart_first is None:
                shown.seconds = time.perf_counter() - start
                return shown
            self.widgets[chart_first] = WidgetState(id=chart_first, json_value="true")
            query_string = shown.addresses[-1] if shown.addresses else query_string

    async def _replies(self, shown: Shown) -> str | None:
        """Read the replies to one request until the script has finished; the id of the live chart a
        chart-first run asks to report as drawn, if any."""
        chart_first = None
        while True:
            reply = ForwardMsg()
            reply.ParseFromString(await asyncio.wait_for(self.socket.recv(), RUN_TIMEOUT))
            kind = reply.WhichOneof("type")
            if kind == "delta" and reply.delta.WhichOneof("type") == "new_element":
                element = reply.delta.new_element
                self.note(element, reply.delta.fragment_id, shown)
                if element.WhichOneof("type") == "exception":
                    shown.errors.append(f"exception: {element.exception.message}")
                elif element.WhichOneof("type") == "alert" and element.alert.format == element.alert.ERROR:
                    shown.errors.append(f"error: {element.alert.body}")
                elif element.WhichOneof("type") == "slider" and element.slider.label == EPSILON_LABEL:
                    self.epsilon_id = element.slider.id
                    shown.epsilons.extend(element.slider.value)
                elif element.WhichOneof("type") == "button" and element.button.label == FORWARD:
                    self.forward, self.forward_fragment = element.button, reply.delta.fragment_id
                elif element.WhichOneof("type") == "heading":
                    shown.headings.append(element.heading.body)
                elif _reports_drawn(element):
                    chart_first = element.component_instance.id
            elif kind == "auto_rerun":
                self.auto_rerun = reply.auto_rerun.fragment_id
            elif kind == "navigation":
                self.page_hash = reply.navigation.page_script_hash
            elif kind == "page_info_changed":
                shown.addresses.append(reply.page_info_changed.query_string)
            elif kind == "script_finished":
                if reply.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # the page called st.rerun() (a chart-first run without a chart): a run follows
                shown.fragment = reply.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
                if reply.script_finished not in (ForwardMsg.FINISHED_SUCCESSFULLY,
                                                 ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY):
                    shown.errors.append(f"script finished with status {reply.script_finished}")
                return chart_first


def _foreign(expected: float, shown: Shown) -> list[str]:
    """Values of ε shown to a session that are not the one it asked for."""
    bad = [f"slider {value:g}" for value in shown.epsilons if abs(value - expected) > 1e-9]
    last = parse_qs(shown.addresses[-1]).get("eps", []) if shown.addresses else []
    bad += [f"address eps={value}" for value in last if abs(float(value) - expected) > 1e-9]
    return bad


def _record(session: Session, expected: float, shown: Shown) -> bool:
    """Add one step to ``session``; whether the page showed its ε slider."""
    session.times.append(shown.seconds)
    session.errors += shown.errors
    session.leaks += _foreign(expected, shown)
    if not shown.epsilons:
        session.errors.append(f"no slider labelled {EPSILON_LABEL!r} on {PAGE}")
    return bool(shown.epsilons)


async def _own(client: Client, session: Session, changes: int) -> None:
    """Open the playground, then move ε ``changes`` times to values of this session alone."""
    if not _record(session, DEFAULT_EPSILON, await client.open(PAGE)):
        return
    for change in range(changes):
        value = epsilon_of(session.index, change)
        client.set_epsilon(value)
        if not _record(session, value, await client.run(PAGE)):
            return


def _foreign_step(number: int, shown: Shown) -> list[str]:
    """Lesson steps shown to a session that moved to step ``number``: a heading "k · …" or an address
    ``step=k`` with k ≠ ``number``."""
    bad = [f"heading {text!r}" for text in shown.headings if text.split(" · ")[0].isdigit()
           and int(text.split(" · ")[0]) != number]
    last = parse_qs(shown.addresses[-1]).get("step", []) if shown.addresses else []
    return bad + [f"address step={value}" for value in last if value != str(number)]


async def _class_walk(client: Client, session: Session, changes: int) -> None:
    """Open the Lesson at step 1, then press → until the last step, timing each step (``changes`` is not
    used: every session takes the same steps)."""
    opened = await client.open(LESSON)
    session.errors += opened.errors
    session.leaks += _foreign_step(1, opened)
    number, address = 1, opened.addresses[-1] if opened.addresses else ""
    while client.forward is not None and not client.forward.disabled:
        number += 1
        shown = await client.press_forward(LESSON, address)
        session.times.append(shown.seconds)
        session.errors += shown.errors
        session.leaks += _foreign_step(number, shown)
        address = shown.addresses[-1] if shown.addresses else address
    if client.forward is None:
        session.errors.append(f"no {FORWARD} button on {LESSON}")


async def _both(client: Client, session: Session, changes: int) -> None:
    """The Lesson to its last step, then the playground with ``changes`` moves of ε."""
    await _class_walk(client, session, changes)
    await _own(client, session, changes)


def affinity(upstream: str) -> str:
    """The value Caddy's ``lb_policy cookie`` gives the cookie of ``upstream`` (``host:port``): HMAC-SHA256 of
    the address under the policy's secret (none in deploy/Caddyfile)."""
    return hmac.new(b"", upstream.encode(), hashlib.sha256).hexdigest()


def affinity_cookie(base: str, page: str) -> str:
    """The affinity cookie the proxy at ``base`` sets on a browser's first request (the page's HTML); "" when
    it sets none (no proxy)."""
    with urllib.request.urlopen(f"{base}/{page}", timeout=RUN_TIMEOUT) as reply:
        for header in reply.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            if name.strip() == AFFINITY_COOKIE:
                return rest.split(";", 1)[0]
    return ""


def websocket_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/_stcore/stream"


async def drive(base: str, scenario: str, index: int, changes: int, cookie: str | None = None) -> Session:
    """One session of ``scenario`` on a new connection to the server or proxy at ``base`` (``http://host:port``);
    everything it saw. Like a browser, it loads its first page over HTTP and keeps the affinity cookie the proxy
    sets (``cookie``, if given, pins it to that process instead)."""
    session = Session(index)
    walk = {"class": _class_walk, "own": _own, "both": _both}[scenario]
    try:
        if cookie is None:
            cookie = await asyncio.to_thread(affinity_cookie, base, LESSON if scenario != "own" else PAGE)
        session.cookie = cookie
        headers = {"Cookie": f"{AFFINITY_COOKIE}={cookie}"} if cookie else None
        async with websockets.connect(websocket_url(base), subprotocols=["streamlit"], max_size=None,
                                      open_timeout=RUN_TIMEOUT, ping_interval=None,
                                      additional_headers=headers) as socket:
            await walk(Client(socket), session, changes)
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as err:
        session.errors.append(f"{type(err).__name__}: {err}")
    return session


def cpu_seconds(process: psutil.Process) -> float:
    """User and system CPU time of ``process`` and its children, seconds."""
    return sum(sum(member.cpu_times()[:2]) for member in (process, *process.children(recursive=True)))


def rss(process: psutil.Process) -> float:
    """Resident memory of ``process``, MiB: the server alone, not the short-lived children it starts (the
    playground's off-screen rendering probe holds some 275 MiB for a few seconds and then exits)."""
    return process.memory_info().rss / MIB


@contextlib.contextmanager
def server(app: Path = ROOT / "app.py", timeout: float = 120.0):
    """A fresh ``streamlit run`` on a free loopback port; yields (its base URL, its process)."""
    with streamlit_process(timeout, app) as (base, proc):
        yield base, psutil.Process(proc.pid)


def _app_processes(launcher: psutil.Process, ports: list[int]) -> dict[int, psutil.Process]:
    """The Streamlit process serving each of ``ports`` among the launcher's descendants (found by the port on
    its command line)."""
    found = {}
    for member in launcher.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            args = member.cmdline()
            if any(arg.endswith("streamlit") for arg in args) and "--server.port" in args:
                port = int(args[args.index("--server.port") + 1])
                if port in ports:
                    found[port] = member
    return found


@contextlib.contextmanager
def serve(workers: int = WORKERS, timeout: float = SERVE_TIMEOUT):
    """``deploy/serve`` (what ``make serve`` runs) with ``workers`` app processes on a free port, with this
    interpreter's environment (``deploy.launch``); yields (the proxy's base URL, {app port: its process}), once
    the proxy and every process answer their health checks; one Ctrl-C (SIGINT) stops it afterwards."""
    with serving(workers, timeout) as running:
        yield running.url, _app_processes(psutil.Process(running.process.pid), running.app_ports)


@dataclass(frozen=True)
class LoadResult:
    """One class through the proxy: per-process figures are in the order of the app ports."""

    scenario: str
    sessions: int
    changes: int
    workers: int
    times: np.ndarray
    errors: list[str]
    leaks: list[str]
    #: Sessions the proxy gave each process (by their affinity cookie).
    split: list[int]
    rss_before: list[float]
    rss_peak: list[float]
    rss_after: list[float]
    wall: float
    cpu: float
    load_before: float
    load_after: float

    @property
    def steps(self) -> str:
        lesson = "the Lesson opened, then → to each of its steps"
        own = f"the playground opened + {self.changes} ε changes to values of its own"
        return {"class": lesson, "own": own, "both": f"{lesson}; {own}"}[self.scenario]

    @property
    def memory(self) -> str:
        """RSS per process: after warm-up → after the sessions (peak), MiB."""
        return "; ".join(f"{b:.0f} → {a:.0f} ({p:.0f})" for b, a, p in
                         zip(self.rss_before, self.rss_after, self.rss_peak, strict=True))


def measure(scenario: str = "both", sessions: int = SESSIONS, changes: int = CHANGES,
            workers: int = WORKERS) -> LoadResult:
    """``make serve`` with ``workers`` processes; on each, one warm-up session (imports; the playground at its
    defaults; the Lesson walked once, as the teacher does preparing the class); then ``sessions`` concurrent
    ones through the proxy, each pinned where the proxy's cookie sends it."""
    if scenario not in SCENARIOS:
        raise ValueError(f"scenario must be one of {', '.join(SCENARIOS)}, got {scenario!r}")
    if sessions < 1 or changes < 0 or workers < 1:
        raise ValueError(f"sessions and workers must be at least 1 and changes at least 0, got {sessions}, "
                         f"{workers} and {changes}")

    async def crowd(base: str) -> list[Session]:
        return await asyncio.gather(*(drive(base, scenario, i, changes) for i in range(sessions)))

    with serve(workers) as (base, apps):
        ports = sorted(apps)
        for port in ports:
            pinned = affinity(f"127.0.0.1:{port}")
            asyncio.run(drive(base, "own", sessions, 0, pinned))
            if scenario != "own":
                asyncio.run(drive(base, "class", sessions, 0, pinned))
        processes = [apps[port] for port in ports]
        before = [rss(p) for p in processes]
        samples, done = [before], threading.Event()

        def sample() -> None:
            while not done.wait(0.2):
                samples.append([rss(p) for p in processes])

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        load_before = os.getloadavg()[0]
        start, cpu_start = time.perf_counter(), sum(cpu_seconds(p) for p in processes)
        results = asyncio.run(crowd(base))
        wall, cpu = time.perf_counter() - start, sum(cpu_seconds(p) for p in processes) - cpu_start
        load_after = os.getloadavg()[0]
        done.set()
        sampler.join()
        after = [rss(p) for p in processes]
    cookies = [affinity(f"127.0.0.1:{port}") for port in ports]
    split = [sum(s.cookie == cookie for s in results) for cookie in cookies]
    times = np.array([t for s in results for t in s.times])
    errors = [f"session {s.index}: {e}" for s in results for e in s.errors]
    errors += [f"session {s.index}: served by no app process (cookie {s.cookie!r})" for s in results
               if s.cookie not in cookies]
    leaks = [f"session {s.index}: {leak}" for s in results for leak in s.leaks]
    peak = [max(column) for column in zip(*samples, after, strict=True)]
    return LoadResult(scenario, sessions, changes, workers, times, errors, leaks, split, before, peak, after,
                      wall, cpu, load_before, load_after)


def _percentiles(times: np.ndarray) -> tuple[float, float]:
    """p50 and p95 of ``times`` (NaN when no step was timed)."""
    return tuple(np.percentile(times, [50, 95])) if times.size else (float("nan"), float("nan"))


def _per_step(r: LoadResult) -> str:
    return f"{r.cpu:.1f} s, {1000 * r.cpu / max(len(r.times), 1):.0f} ms per step"


#: The classes of issue 45: (students, app processes, p95 target).
CLASSES = ((30, 1, "< 1.5 s"), (30, 2, "—"), (60, 2, "< 1.5 s"))


def run() -> list[Row]:
    """Rows of the benchmark table: each class of ``CLASSES`` walking the Lesson and the playground
    through ``make serve``."""
    rows = []
    for sessions, workers, target in CLASSES:
        r = measure("both", sessions, CHANGES, workers)
        p50, p95 = _percentiles(r.times)
        name = f"load ({sessions} students, make serve WORKERS={workers})"
        note = (f"{r.sessions} sessions × ({r.steps}) through Caddy with cookie affinity, no browser; "
                f"{len(r.times)} steps in {r.wall:.0f} s, sessions per process {r.split}; errors {len(r.errors)}, "
                f"leaks {len(r.leaks)}; RSS per process after warm-up → after (peak) {r.memory} MiB; "
                f"app CPU {_per_step(r)}; load average {r.load_before:.1f} → {r.load_after:.1f}")
        rows += [Row(f"{name}: step to finished rerun, p50", p50, "—", note),
                 Row(f"{name}: step to finished rerun, p95", p95, target, "no error, no leak, RSS growth < 200 MiB")]
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=SCENARIOS, default="both")
    parser.add_argument("--sessions", type=int, default=SESSIONS)
    parser.add_argument("--changes", type=int, default=CHANGES)
    parser.add_argument("--workers", type=int, default=WORKERS, help="app processes behind the proxy")
    args = parser.parse_args(argv)
    if args.sessions < 1 or args.changes < 0 or args.workers < 1:
        parser.error(f"--sessions and --workers must be at least 1 and --changes at least 0, got {args.sessions}, "
                     f"{args.workers} and {args.changes}")
    r = measure(args.scenario, args.sessions, args.changes, args.workers)
    p50, p95 = _percentiles(r.times)
    print(f"{args.scenario}: {r.sessions} sessions × ({r.steps}) through make serve WORKERS={r.workers}: "
          f"{len(r.times)} steps in {r.wall:.1f} s; sessions per process {r.split}")
    print(f"step to finished rerun: p50 {p50:.2f} s, p95 {p95:.2f} s, max {r.times.max(initial=0):.2f} s")
    print(f"errors: {len(r.errors)}; cross-session leaks: {len(r.leaks)}")
    print(f"app CPU while the sessions ran: {_per_step(r)}; load average {r.load_before:.1f} → {r.load_after:.1f}")
    print(f"RSS per process, MiB, after warm-up → after the sessions (peak): {r.memory}")
    for line in (r.errors + r.leaks)[:20]:
        print("  ", line)


if __name__ == "__main__":
    main()
