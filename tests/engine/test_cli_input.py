"""The command lines ``python -m engine.pipelines`` and ``python -m engine.audit`` on bad input:
one line and exit status 2 before any work, never a traceback, a runaway or a silent
default; Ctrl-C ends quietly with exit status 130."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from engine.audit.__main__ import main as audit_main
from engine.budget import MEMORY_LIMIT, check_memory
from engine.pipelines.__main__ import main as pipelines_main
from tests.interrupted_run import started_run

ROOT = Path(__file__).resolve().parents[2]


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("argv, message", [
    (["private-mean", "--n", str(10**14)], "n = 100000000000000 records and 200 releases"),
    (["private-mean", "--releases", str(10**12)], "need about 349 TiB of memory, more than the"),
    (["private-mean", "--mechanisms", "mh", "--burn-in", str(10**9)], "the MH chain would take"),
    (["private-mean", "--space", "kendall", "--k", str(10**7)], "k = 10000000 landmarks"),
    (["sensitivity", "--reps", str(10**10)], "reps = 10000000000 pairs of data sets"),
    (["utility", "--ns", f"10,{10**12}", "--reps", "100"], "reps = 100 data sets of 10 + 1000000000000 records"),
    (["private-subspace", "--n", str(10**9), "--d", "1000"], "n = 1000000000 points of R^1000"),
    (["private-regression", "--n", str(10**6)], "n·k·(warmup + window)·releases = 2.5e+11 is more than 5e+09"),
])
def test_sizes_beyond_the_budget_are_refused_before_any_work(argv, message, capsys):
    # --n 1e14 raised _ArrayMemoryError; --releases 1e12 ran for minutes with no output.
    start = time.perf_counter()
    assert pipelines_main(argv) == 2
    err = _one_line_error(capsys)
    assert message in err and ("lower" in err)
    assert time.perf_counter() - start < 5


def test_the_memory_budget_says_the_need_the_limit_and_why():
    check_memory("a small run", MEMORY_LIMIT / 16, fix="unused")
    with pytest.raises(ValueError, match=r"^a large run need about .* more than the .* a run may take \(half of "
                                         r"this machine's .*\); lower it$"):
        check_memory("a large run", MEMORY_LIMIT, fix="lower it")


def test_releases_out_is_checked_before_the_run_and_written_whole(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for bad, why in [(blocker / "out.npz", "is a file, not a folder"), (tmp_path / "no" / "out.npz", "does not exist"),
                     (tmp_path, "is a folder")]:
        assert pipelines_main(["private-mean", "--n", "10", "--releases", "3", "--releases-out", str(bad)]) == 2
        assert why in _one_line_error(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
    out = tmp_path / "releases"
    assert pipelines_main(["private-mean", "--n", "10", "--releases", "3", "--releases-out", str(out)]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "releases.npz"]
    with np.load(tmp_path / "releases.npz") as saved:
        assert saved["releases_exact"].shape == (3, 3) and saved["data"].shape == (10, 3)


@pytest.mark.parametrize("argv, message", [
    (["laplace", "--samples", "0"], "--samples must be an integer from 2 to 20000000"),
    (["laplace", "--samples", "-10"], "got -10; omit it for the default"),
    (["laplace", "--samples", "1"], "--samples must be an integer from 2"),
    (["laplace", "--samples", str(10**12)], "(100 × the default 200000 of laplace"),
    (["laplace", "--seed", "-1"], "--seed must be an integer >= 0, got -1"),
    (["nosuch"], "unknown audit 'nosuch'"),
    (["laplace", "--samples", "1e3"], "argument --samples: invalid int value: '1e3'"),
])
def test_audit_refuses_bad_flags_in_one_line(argv, message, capsys):
    # --samples 0 silently ran 200,000; -10, 1 and --seed -1 ended in tracebacks.
    with pytest.raises(SystemExit) as stop:
        audit_main(argv)
    assert stop.value.code == 2
    assert message in _one_line_error(capsys)


def _python(*args: str) -> subprocess.Popen:
    """``python ARGS`` in the repository, with Ctrl-C delivered as in a terminal (default disposition)."""
    return subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize("argv", [
    ["-m", "engine.audit", "laplace", "--samples", "20000000", "--no-early-stop"],
    ["-m", "engine.pipelines", "private-mean", "--mechanisms", "mh", "--burn-in", "5000000"],
])
def test_ctrl_c_ends_quietly_with_exit_status_130(argv):
    process = started_run(*argv[1:])  # past the imports (a Ctrl-C during them is Python's own), into the run
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and err == "interrupted\n", err[-500:]


@pytest.mark.parametrize("argv", [
    ["-m", "engine.pipelines", "private-mean", "--releases", str(10**12)],
    ["-m", "engine.pipelines", "private-mean", "--n", str(10**14)],
    ["-m", "engine.audit", "laplace", "--samples", "0"],
])
def test_the_command_lines_exit_2_with_one_line(argv):
    process = _python(*argv)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err


@pytest.mark.parametrize("argv", [["-m", "engine.audit", "--list"], ["-m", "engine.pipelines", "private-mean"],
                                  ["-m", "engine.experiments", "--list"]])
def test_a_reader_that_goes_away_ends_the_run_quietly(argv):
    """``python -m engine.audit --list | head`` ended in a BrokenPipeError traceback."""
    process = _python(*argv)
    process.stdout.close()
    err = process.stderr.read()
    process.wait(timeout=60)
    assert process.returncode == 141 and "Traceback" not in err and "Exception ignored" not in err, err[-500:]


@pytest.mark.parametrize("argv, message", [
    (["private-mean", "--mechanisms", ""], "mechanisms is empty; give at least one, e.g. --mechanisms exact,euclid"),
    (["utility", "--ns", ","], "ns is empty; give at least one, e.g. --ns 10,20,50,100,300"),
    (["private-mean", "--k", "0"], "k must be an integer >= 3, got 0"),
    (["private-mean", "--space", "spd", "--k", "2"], "k must be an integer >= 3, got 2"),
])
def test_an_empty_selection_or_a_bad_k_is_refused_on_every_space(argv, message, capsys):
    # --mechanisms '' ran nothing with exit 0; --k 0 was ignored off Kendall.
    assert pipelines_main([*argv, "--json"]) == 2
    assert message in _one_line_error(capsys)


def test_an_empty_list_in_a_settings_file_is_refused(tmp_path, capsys):
    path = tmp_path / "settings.json"
    path.write_text('{"mechanisms": []}')
    assert pipelines_main(["private-mean", "--settings", str(path), "--json"]) == 2
    assert "mechanisms is empty" in _one_line_error(capsys)
