"""A ``dask scheduler`` process on a free loopback port with one ``dask worker`` joined, for the tests of a run that
loses its scheduler; the fixture waits for each to be up (a condition), never for a fixed time."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time

#: Seconds the scheduler and its worker may take to come up: a guard against a hang, not a check of speed.
START_LIMIT = 300.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _accepts(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def scheduler_with_a_worker():
    """Yield ``(address, scheduler process)`` once the scheduler accepts connections and a worker has joined it;
    kill both afterwards."""
    from distributed import Client

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--dashboard-address", ":0"], **quiet)
    worker = None
    try:
        deadline = time.monotonic() + START_LIMIT
        while not _accepts(port):
            if scheduler.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the dask scheduler did not listen on {address} (exit status {scheduler.poll()})")
            time.sleep(0.1)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1"],
                                  **quiet)
        with Client(address, timeout=START_LIMIT) as client:
            client.wait_for_workers(1, timeout=START_LIMIT)
        yield address, scheduler
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.kill()
                process.wait()
