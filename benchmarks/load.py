"""Load: N concurrent sessions against one local server, without a browser (``python -m benchmarks load``).

Each session is a thin client of Streamlit's own websocket protocol (``/_stcore/stream``, protobuf
``BackMsg``/``ForwardMsg``, the messages the browser exchanges): it opens the page, then moves the
ε slider ``CHANGES`` times, each time to a value no other session uses. Nothing is rendered, so
the figures are the server's alone:

- per-rerun server time: from the rerun request to the server's last ``script_finished`` (p50,
  p95, max; a run the page restarts with ``st.rerun()`` counts with its restart), including the
  time a rerun waits for the two cores while other sessions compute;
- errors: an exception or ``st.error`` element, a run that did not finish successfully, a timeout;
- leaks: a session whose ε slider or address (``page_info_changed``) shows a value it did not set;
- RSS of the server (with its children) after one warm-up session, at its peak while the sessions
  run (sampled every 0.2 s) and after all sessions.

Command line: ``python -m benchmarks.load --sessions 20 --changes 3 --page Private_mean_playground``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import psutil
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from benchmarks.timing import Row
from tests.browser.harness import ROOT, streamlit_process

SESSIONS, CHANGES = 20, 3
PAGE = "Private_mean_playground"
EPSILON_LABEL, DEFAULT_EPSILON = "Privacy budget ε", 1.0
RUN_TIMEOUT = 600.0
MIB = 2.0**20


@dataclass
class Session:
    """What one client saw: server time per rerun, its errors and the foreign values it was shown."""

    index: int
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)


def epsilon_of(index: int, change: int) -> float:
    """The ε session ``index`` sets at its ``change``-th move: unique per (session, change), on the
    slider's 0.05 grid."""
    return round(0.05 * (2 + change * 64 + index), 2)


class Client:
    """One browser-less session speaking Streamlit's websocket protocol."""

    def __init__(self, socket, page: str):
        self.socket, self.page = socket, page
        self.epsilon_id: str | None = None

    async def run(self, widget_states=()) -> tuple[float, list[str], list[float], list[str]]:
        """Request a rerun; return its server time, errors, the ε slider values and the addresses shown."""
        message = BackMsg()
        message.rerun_script.page_name = self.page
        for widget_id, value in widget_states:
            state = message.rerun_script.widget_states.widgets.add()
            state.id = widget_id
            state.double_array_value.data.append(value)
        start = time.perf_counter()
        await self.socket.send(message.SerializeToString())
        errors, shown, addresses = [], [], []
        while True:
            reply = ForwardMsg()
            reply.ParseFromString(await asyncio.wait_for(self.socket.recv(), RUN_TIMEOUT))
            kind = reply.WhichOneof("type")
            if kind == "delta" and reply.delta.WhichOneof("type") == "new_element":
                element = reply.delta.new_element
                if element.WhichOneof("type") == "exception":
                    errors.append(f"exception: {element.exception.message}")
                elif element.WhichOneof("type") == "alert" and element.alert.format == element.alert.ERROR:
                    errors.append(f"error: {element.alert.body}")
                elif element.WhichOneof("type") == "slider" and element.slider.label == EPSILON_LABEL:
                    self.epsilon_id = element.slider.id
                    shown.extend(element.slider.value)
            elif kind == "page_info_changed":
                addresses.append(reply.page_info_changed.query_string)
            elif kind == "script_finished":
                if reply.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # the page called st.rerun() (the playground's renderer probe): a run follows
                if reply.script_finished != ForwardMsg.FINISHED_SUCCESSFULLY:
                    errors.append(f"script finished with status {reply.script_finished}")
                return time.perf_counter() - start, errors, shown, addresses


def _foreign(expected: float, shown: list[float], addresses: list[str]) -> list[str]:
    """Values of ε shown to a session that are not the one it set."""
    own = f"eps={expected}"
    bad = [f"slider {value:g}" for value in shown if abs(value - expected) > 1e-9]
    last = [part for part in (addresses[-1].split("&") if addresses else []) if part.startswith("eps=")]
    bad += [f"address {part}" for part in last if part != own]
    return bad


async def drive(url: str, page: str, index: int, changes: int) -> Session:
    """Open the page in a new session, then move ε ``changes`` times; record everything."""
    session = Session(index)
    try:
        async with websockets.connect(url, subprotocols=["streamlit"], max_size=None, open_timeout=RUN_TIMEOUT,
                                      ping_interval=None) as socket:
            client = Client(socket, page)
            seconds, errors, shown, addresses = await client.run()
            session.times.append(seconds)
            session.errors += errors
            session.leaks += _foreign(DEFAULT_EPSILON, shown, addresses)
            if client.epsilon_id is None:
                session.errors.append(f"no slider labelled {EPSILON_LABEL!r} on {page}")
                return session
            for change in range(changes):
                value = epsilon_of(index, change)
                seconds, errors, shown, addresses = await client.run([(client.epsilon_id, value)])
                session.times.append(seconds)
                session.errors += errors
                session.leaks += _foreign(value, shown, addresses)
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as err:
        session.errors.append(f"{type(err).__name__}: {err}")
    return session


def rss(process: psutil.Process) -> float:
    """Resident memory of ``process`` and its children, MiB."""
    members = [process, *process.children(recursive=True)]
    return sum(member.memory_info().rss for member in members) / MIB


@contextlib.contextmanager
def server(app: Path = ROOT / "app.py", timeout: float = 120.0):
    """A fresh ``streamlit run`` on a free loopback port; yields (websocket URL, its process)."""
    with streamlit_process(timeout, app) as (base, proc):
        yield base.replace("http://", "ws://") + "/_stcore/stream", psutil.Process(proc.pid)


@dataclass(frozen=True)
class LoadResult:
    sessions: int
    changes: int
    times: np.ndarray
    errors: list[str]
    leaks: list[str]
    rss_before: float
    rss_peak: float
    rss_after: float
    wall: float


def measure(sessions: int = SESSIONS, changes: int = CHANGES, page: str = PAGE) -> LoadResult:
    """One warm-up session (imports, caches), then ``sessions`` concurrent ones."""
    async def crowd(url: str) -> list[Session]:
        return await asyncio.gather(*(drive(url, page, i, changes) for i in range(sessions)))

    with server() as (url, process):
        asyncio.run(drive(url, page, sessions, 0))
        before = rss(process)
        samples, done = [before], threading.Event()

        def sample() -> None:
            while not done.wait(0.2):
                samples.append(rss(process))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        start = time.perf_counter()
        results = asyncio.run(crowd(url))
        wall = time.perf_counter() - start
        done.set()
        sampler.join()
        after = rss(process)
    times = np.array([t for s in results for t in s.times])
    errors = [f"session {s.index}: {e}" for s in results for e in s.errors]
    leaks = [f"session {s.index}: {leak}" for s in results for leak in s.leaks]
    return LoadResult(sessions, changes, times, errors, leaks, before, max(samples + [after]), after, wall)


def run() -> list[Row]:
    """Rows of the benchmark table (N = 20 sessions, 3 ε changes each, on the playground)."""
    r = measure()
    where = f"{r.sessions} sessions × (1 load + {r.changes} ε changes) on {PAGE}, no browser"
    note = (f"{where}; {len(r.times)} reruns in {r.wall:.0f} s; errors {len(r.errors)}, leaks {len(r.leaks)}; "
            f"server RSS {r.rss_before:.0f} MiB after warm-up, peak {r.rss_peak:.0f}, {r.rss_after:.0f} after")
    return [Row("load: server time per rerun, p50", float(np.percentile(r.times, 50)), "—", note),
            Row("load: server time per rerun, p95", float(np.percentile(r.times, 95)), "—",
                "no error, no leak, RSS growth < 200 MiB")]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=SESSIONS)
    parser.add_argument("--changes", type=int, default=CHANGES)
    parser.add_argument("--page", default=PAGE)
    args = parser.parse_args(argv)
    r = measure(args.sessions, args.changes, args.page)
    p50, p95 = np.percentile(r.times, [50, 95])
    print(f"{r.sessions} sessions × (1 load + {r.changes} ε changes) on {args.page}: {len(r.times)} reruns "
          f"in {r.wall:.1f} s")
    print(f"server time per rerun: p50 {p50:.2f} s, p95 {p95:.2f} s, max {r.times.max():.2f} s")
    print(f"errors: {len(r.errors)}; cross-session leaks: {len(r.leaks)}")
    print(f"server RSS: {r.rss_before:.0f} MiB after warm-up, peak {r.rss_peak:.0f} MiB "
          f"(+{r.rss_peak - r.rss_before:.0f}), {r.rss_after:.0f} MiB after the sessions")
    for line in (r.errors + r.leaks)[:20]:
        print("  ", line)


if __name__ == "__main__":
    main()
