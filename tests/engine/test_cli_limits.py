"""Machine limits at the command lines: overflowing values, deep or huge settings files, FIFOs and devices, a full
disk. Each ends in one ``error:`` line on stderr and exit status 2: never a traceback, never a wait for ever."""

import errno
import json
import os

import numpy as np
import pytest

from engine import cli
from engine.experiments import __main__ as experiments
from engine.pipelines import __main__ as pipelines
from engine.pipelines import settings_file


def one_line(capsys, status, *quoted):
    """Assert exit status 2 with one ``error:`` line on stderr holding each of ``quoted``."""
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and err.startswith("error: "), err
    for text in quoted:
        assert text in err, err


@pytest.mark.parametrize("argv, quoted", [
    (["private-subspace", "--epsilon", "1000"], "epsilon = 1000.0"),
    (["private-subspace", "--epsilon", "1e308"], "epsilon = 1e+308"),
    (["private-subspace", "--epsilon", "5e-324"], "epsilon = 5e-324"),
    (["private-subspace", "--delta", "5e-324"], "delta = 5e-324"),
    (["utility", "--eps", "1e308"], "got 1e+308"),
    (["sensitivity", "--radius", "1e-300"], "--radius 1e-300"),
])
def test_overflowing_values_are_refused_in_one_line(capsys, argv, quoted):
    one_line(capsys, pipelines.main([*argv, "--json"]), quoted)


@pytest.fixture
def deep(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    return path


def test_a_settings_file_nested_100000_deep_is_refused(capsys, deep, tmp_path):
    one_line(capsys, pipelines.main(["private-mean", "--settings", str(deep)]), "nests deeper than 32")
    one_line(capsys, experiments.main(["reimherr-fig1", "--settings", str(deep), "--out", str(tmp_path / "o")]),
             "nests deeper than 32")
    assert not (tmp_path / "o").exists()


def test_devices_fifos_and_huge_files_are_refused_before_reading(capsys, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(settings_file.MAX_BYTES + 1)
    for path, quoted in (("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                         (huge, "more than a settings file's")):
        one_line(capsys, pipelines.main(["private-mean", "--settings", str(path)]), quoted)
        one_line(capsys, experiments.main(["reimherr-fig1", "--settings", str(path), "--out", str(tmp_path / "o")]),
                 quoted)


def test_a_byte_order_mark_is_read_and_a_key_given_twice_refused(capsys, tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"n": 40}).encode())
    assert settings_file.load_json(path) == {"n": 40}
    path.write_text('{"n": 40, "n": 50}')
    one_line(capsys, pipelines.main(["private-mean", "--settings", str(path)]), "gives the key 'n' twice")


def test_a_full_disk_under_releases_out_is_one_line_and_leaves_nothing(capsys, tmp_path, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(np, "savez", full)
    target = tmp_path / "releases.npz"
    status = pipelines.main(["private-mean", "--n", "10", "--releases", "5", "--releases-out", str(target)])
    one_line(capsys, status, "No space left on device", "half-written")
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_under_out_is_one_line_and_leaves_the_folder_untouched(capsys, tmp_path, monkeypatch):
    import pandas as pd

    from engine.experiments import reimherr_fig1

    def full(self, path, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(reimherr_fig1, "figures", lambda results: {})
    monkeypatch.setattr(experiments, "PROGRESS_DELAY", float("inf"))
    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"reps": 4, "ns": [10], "block": 2}))
    out = tmp_path / "out"
    status = experiments.main(["reimherr-fig1", "--settings", str(settings), "--out", str(out), "--no-cache",
                               "--cache-dir", str(tmp_path / "cache")])
    one_line(capsys, status, "No space left on device", "reimherr-fig1-sensitivity.csv")
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["cache", "settings.json"]


def test_the_shared_handler_names_the_arguments(capsys):
    @cli.quiet_interrupt
    def main(argv=None):
        raise RecursionError("maximum recursion depth exceeded")

    one_line(capsys, main(["--x", "1"]), "the input nests too deeply", "'--x 1'")


@pytest.mark.parametrize("argv", [
    ["--app", "lrmc", "--size", "100000000000", "--steps", "200"],
    ["--size", "100000000000"],
    ["--size", "100000000000000000000000"],
    ["--reps", "100000000000000000000000"],
])
def test_private_optimization_beyond_the_memory_budget_is_refused_before_allocating(capsys, argv):
    one_line(capsys, pipelines.main(["private-optimization", *argv, "--json"]), "of memory", "lower size or reps")


def test_floating_point_warnings_never_precede_an_error_line_and_are_one_note_after_a_good_run(capsys):
    """Found by fuzzing every pipeline's options: `utility --radius 1e308` printed numpy's overflow warning
    (two lines of source) before its one-line error."""
    @cli.quiet_interrupt
    def overflowing(argv=None) -> int:
        np.exp(np.array([1e308]))
        np.array([0.0]) / np.array([0.0])
        if argv == ["bad"]:
            print("error: radius 1e+308 is beyond the limit", file=cli.sys.stderr)
            return 2
        return 0

    assert overflowing(["bad"]) == 2
    assert capsys.readouterr().err == "error: radius 1e+308 is beyond the limit\n"
    assert overflowing(["good"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("note: floating-point warnings during the run (overflow")
    assert "invalid value" in err
    assert pipelines.main(["utility", "--radius", "1e308"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
