"""A command line started as from a terminal and handed back once it is into its run, for the tests of Ctrl-C:
a SIGINT during the imports is Python's own ``KeyboardInterrupt`` traceback, not the command's handling. The
wait is for a condition (the child's ``__main__`` imported, then CPU time spent in the run), never for a fixed
time, so a busy machine only makes it longer."""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
#: CPU seconds the child spends after its imports before it counts as into its run (argument checks and set-up
#: take milliseconds).
CPU_IN_RUN = 1.0
#: Seconds the child may take to get there: a guard against a hang, not a check of speed.
START_LIMIT = 300.0
_READY = "imported"
# ``python -m MODULE ARGS`` in two steps: import MODULE.__main__ (and say so on stdout), then run it the way
# ``-m`` does (as ``__main__``, its imports cached; the imported copy is dropped first, as runpy warns of one).
_LAUNCH = ("import runpy, sys; import {module}.__main__; print({ready!r}, flush=True); "
           "del sys.modules['{module}.__main__']; runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")


def _as_from_a_terminal() -> None:
    """Ctrl-C's default action in the child, as a shell gives it: a test process that ignores SIGINT (a kernel
    or worker library of an earlier test may leave it so) would pass the ignoring on."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cpu_seconds(process: psutil.Process) -> float:
    total = 0.0
    for member in (process, *process.children(recursive=True)):
        try:
            times = member.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def started_run(module: str, *args: str) -> subprocess.Popen:
    """``python -m module args`` (text pipes) once its ``__main__`` is imported and it has spent ``CPU_IN_RUN``
    seconds of CPU since; ``AssertionError`` if it ends or ``START_LIMIT`` passes first."""
    process = subprocess.Popen([sys.executable, "-c", _LAUNCH.format(module=module, ready=_READY), *args], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_as_from_a_terminal)
    deadline = time.monotonic() + START_LIMIT
    ready, _, _ = select.select([process.stdout], [], [], START_LIMIT)
    line = process.stdout.readline() if ready else ""
    assert line.strip() == _READY, f"python -m {module} did not get past its imports: {process.stderr.read()[-500:]}"
    child = psutil.Process(process.pid)
    start = _cpu_seconds(child)
    while _cpu_seconds(child) < start + CPU_IN_RUN:
        assert process.poll() is None, f"python -m {module} ended before its run was interrupted"
        assert time.monotonic() < deadline, f"python -m {module} spent no {CPU_IN_RUN:g} s of CPU in {START_LIMIT:g} s"
        time.sleep(0.05)
    return process
