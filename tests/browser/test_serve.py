"""A class through ``make serve``: two app processes behind Caddy with cookie affinity.

Six students open Sensitivity with their own seed, three pinned to each process by the proxy's cookie,
and download its CSV: a session's files live in the memory of the process that ran it, so each fetch
must reach that process (round robin lost 4 of 6). Then one process is killed while they are connected:
the others keep their downloads; its students are told (their widgets are disabled), their browsers
reconnect through the proxy and, without a reload, the page runs again on the process it reached
(``ui.reconnect``: Streamlit 1.67 reruns an idle page after a reconnect only if it holds a timed
fragment), so their downloads, which died with the process, are rebuilt: the same table as before. One
Ctrl-C stops the whole serve and leaves nothing listening.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import os
import shutil
import signal
import time
from pathlib import Path

import pandas as pd
import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg

from deploy.launch import healthy, listening, serving, stop
from tests.browser.harness import chromium_missing_reason, wait_for_app, wait_for_idle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WORKERS = 2
STUDENTS = 6
AFFINITY_COOKIE = "mpe_server"
# Records whether one of the page's enabled inputs gets disabled (from now on): what the page shows while
# its websocket is down (Streamlit 1.67 disables every widget until it is connected again).
_WATCH_DISABLED = """() => {
    window.__disabled = false;
    new MutationObserver((changes) => {
        if (changes.some((c) => c.target.matches('input, textarea') && c.target.disabled)) window.__disabled = true;
    }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['disabled']});
}"""


def _wait(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.5)


def _affinity(upstream: str) -> str:
    """The value Caddy's ``lb_policy cookie`` gives the cookie of an upstream: HMAC-SHA256 of its address
    under the policy's secret (none in deploy/Caddyfile)."""
    return hmac.new(b"", upstream.encode(), hashlib.sha256).hexdigest()


def _app_pid(port: int) -> int:
    """The pid of the Streamlit process serving ``port`` (its command line names the port)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                args = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"streamlit" in b" ".join(args) and str(port).encode() in args:
                return int(entry.name)
    raise AssertionError(f"no streamlit process serves port {port}")


@pytest.fixture(scope="module")
def serve():
    reason = chromium_missing_reason() or (None if shutil.which("caddy") else
                                           "Debian's caddy is not installed (make install-serve; .ci/run does it)")
    if reason:
        pytest.skip(f"serve test skipped: {reason}")
    with serving(WORKERS, 180, make=True) as running:
        yield running.process, running.url, running.app_ports


def _asks_for_a_run(frames: list) -> bool:
    """Whether one of the browser's messages in ``frames`` asks the server for a run of the page."""
    return any(BackMsg.FromString(bytes(frame)).WhichOneof("type") == "rerun_script" for frame in frames)


def _download_csv(page, timeout_ms: float = 180_000) -> pd.DataFrame:
    button = page.get_by_test_id("stDownloadButton").get_by_role("button", name="Data (CSV)").first
    with page.expect_download(timeout=timeout_ms) as download:
        button.click(timeout=timeout_ms)
    return pd.read_csv(io.BytesIO(download.value.path().read_bytes()))


def test_a_class_through_the_proxy_keeps_its_downloads_and_survives_a_lost_process(serve, chromium):
    """``chromium`` is the session's browser (one Playwright per process: a second sync one cannot start)."""
    proc, url, apps = serve
    contexts, pages = [], []
    for student in range(STUDENTS):
        context = chromium.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        upstream = f"127.0.0.1:{apps[student % WORKERS]}"
        context.add_cookies([{"name": AFFINITY_COOKIE, "value": _affinity(upstream), "url": url}])
        contexts.append(context)
        pages.append(context.new_page())
    try:
        for student, page in enumerate(pages):
            page.goto(f"{url}/Sensitivity?seed={student + 1}", wait_until="commit")
        for page in pages:
            wait_for_app(page, 300_000)
        first = [_download_csv(page) for page in pages]
        assert all(len(table) > 0 for table in first)
        assert not first[0].equals(first[1]), "two seeds gave the same table: the check could not tell sessions apart"

        stranded = pages[::WORKERS]
        sent_after_kill = [[] for _ in stranded]
        for page, frames in zip(stranded, sent_after_kill, strict=True):
            page.evaluate(_WATCH_DISABLED)
            page.on("websocket", lambda ws, frames=frames: ws.on("framesent", lambda payload: frames.append(payload)))
        os.kill(_app_pid(apps[0]), signal.SIGKILL)
        _wait(lambda: not healthy(f"http://127.0.0.1:{apps[0]}"), 30, "the killed process to stop answering")
        for student, page in enumerate(pages):
            if student % WORKERS:
                again = _download_csv(page)
                assert again.equals(first[student]), f"student {student} lost the CSV when another process died"
        for student, (page, frames) in enumerate(zip(stranded, sent_after_kill, strict=True)):
            _wait(lambda page=page, frames=frames: page.wait_for_timeout(100) or _asks_for_a_run(frames), 60,
                  f"student {student * WORKERS}'s page to ask its new process for a run")
            assert page.evaluate("window.__disabled"), f"student {student * WORKERS}'s widgets stayed usable: not told"
            wait_for_idle(page, 300_000)
            again = _download_csv(page)
            assert again.equals(first[student * WORKERS]), f"student {student * WORKERS} got another table back"
        moved = {c["value"] for context in contexts[::WORKERS] for c in context.cookies(url)
                 if c["name"] == AFFINITY_COOKIE}
        assert moved <= {_affinity(f"127.0.0.1:{port}") for port in apps} and moved
    finally:
        for context in contexts:
            context.close()
    assert stop(proc) in (0, -signal.SIGINT, 130, 2)
    _wait(lambda: not any(listening(p) for p in (*apps, int(url.rsplit(":", 1)[1]))), 30,
          "every process of the serve to stop after one Ctrl-C")
