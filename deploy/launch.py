"""Start ``make serve`` (or ``deploy/serve``, what it runs) on free loopback ports, wait until it answers, and stop
it with one Ctrl-C: the one launcher of ``tests/browser/test_serve.py`` and ``benchmarks/load.py``."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ``deploy/serve`` puts app process ``i`` on port PORT + APP_PORT_OFFSET + i.
APP_PORT_OFFSET = 100


@dataclass(frozen=True)
class Serve:
    """A running serve: the launcher's process (leader of its own process group), the proxy's base URL and the
    app processes' ports."""

    process: subprocess.Popen
    url: str
    app_ports: list[int]


def listening(port: int) -> bool:
    """Whether a process accepts connections on loopback ``port``."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def healthy(url: str) -> bool:
    """Whether the Streamlit server (or the proxy in front of one) at ``url`` answers its health check."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
            return reply.read().decode().strip() == "ok"
    except OSError:
        return False


def free_serve_ports(workers: int, tries: int = 20) -> tuple[int, list[int]]:
    """A free port for the proxy whose ``workers`` app ports after it are free too."""
    for _ in range(tries):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        ports = [port + APP_PORT_OFFSET + i for i in range(workers)]
        if ports[-1] <= 65535 and not any(listening(p) for p in ports):
            return port, ports
    raise RuntimeError(f"found no free port with {workers} free app ports after it in {tries} tries")


def _command(workers: int, port: int, make: bool) -> tuple[list[str], dict[str, str]]:
    if make:
        return ["make", "--no-print-directory", "serve", f"WORKERS={workers}", f"PORT={port}"], dict(os.environ)
    return [str(ROOT / "deploy" / "serve")], {**os.environ, "WORKERS": str(workers), "PORT": str(port),
                                              "HOST": "127.0.0.1", "VENV_BIN": str(Path(sys.executable).parent)}


def stop(process: subprocess.Popen, timeout: float = 60.0) -> int:
    """One Ctrl-C (SIGINT) to the serve's process group, as a terminal sends it; SIGKILL if it has not ended
    within ``timeout`` seconds. Returns the launcher's exit status."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.returncode


@contextlib.contextmanager
def serving(workers: int, timeout: float, *, make: bool = False):
    """Yield a ``Serve`` of ``make serve`` (``make=True``: the Makefile's target with its installs) or of
    ``deploy/serve`` with this interpreter's environment, with ``workers`` app processes on free ports, once the
    proxy and every app process answer their health checks (``RuntimeError`` if the launcher ends first or
    ``timeout`` seconds pass); stop it afterwards unless the caller already has."""
    port, ports = free_serve_ports(workers)
    argv, env = _command(workers, port, make)
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while not (healthy(url) and all(healthy(f"http://127.0.0.1:{p}") for p in ports)):
            if process.poll() is not None:
                raise RuntimeError(f"{' '.join(argv)} ended with {process.returncode} before it served: "
                                   f"{process.stderr.read().decode()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{' '.join(argv)} not healthy after {timeout:g} s")
            time.sleep(0.5)
        yield Serve(process, url, ports)
    finally:
        stop(process)
