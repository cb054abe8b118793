"""A throwaway ``redis-server`` on a free loopback port (Debian's package; ``.ci/run`` installs it), for the
class store's tests on Redis."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def redis_server(folder):
    """Yield the ``redis://`` address of a fresh server keeping its data in ``folder``; stop it afterwards.
    Skips the test where ``redis-server`` is not installed."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("Redis tests skipped: no redis-server on PATH (apt-get install redis-server)")
    port = _free_port()
    proc = subprocess.Popen([binary, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(folder),
                             "--save", "", "--appendonly", "yes", "--protected-mode", "yes"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
