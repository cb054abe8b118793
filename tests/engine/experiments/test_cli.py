"""The study command line: bad input gives one line and exit 2 with nothing written; the disk cache."""

import io
import json
import socket
from pathlib import Path

import pandas as pd
import pytest

from engine.experiments import __main__ as cli
from engine.experiments import cache, reimherr_fig1, runner

QUICK = ["reimherr-fig1", "--reps", "4", "--seed", "2"]


@pytest.fixture
def quick_settings(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"ns": [10], "block": 2}')
    return ["--settings", str(path)]


FIGURES = reimherr_fig1.figures


@pytest.fixture(autouse=True)
def cache_in_tmp(tmp_path_factory, monkeypatch):
    """``--no-cache`` still stores its result: into a temporary folder, never the user's cache."""
    monkeypatch.setenv("MPE_CACHE_DIR", str(tmp_path_factory.mktemp("default-cache")))


@pytest.fixture(autouse=True)
def no_figures(monkeypatch):
    """Skip the HTML figures (seconds each); a test that needs them puts ``FIGURES`` back."""
    monkeypatch.setattr(reimherr_fig1, "figures", lambda results: {})


def one_line_error(capsys) -> str:
    """The one line on stderr, after the progress bar it replaced (a scheduler run shows the bar at once)."""
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    line = err.split("\r")[-1]
    assert line.startswith("error: "), err
    return line


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unknown_study(tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["figure-99", "--out", str(out)]) == 2
    err = one_line_error(capsys)
    assert "'figure-99'" in err and "reimherr-fig1" in err and "--list" in err
    assert not out.exists()


@pytest.mark.parametrize("workers", ["0", "-3"])
def test_workers_below_one(tmp_path, capsys, workers):
    out = tmp_path / "out"
    assert cli.main([*QUICK, "--workers", workers, "--out", str(out), "--no-cache"]) == 2
    err = one_line_error(capsys)
    assert f"--workers must be at least 1, got {workers}" in err and "leave it out" in err
    assert not out.exists()


@pytest.mark.slow
def test_unreachable_scheduler(tmp_path, capsys, monkeypatch, quick_settings):
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", 0.5)
    out, address = tmp_path / "out", f"tcp://127.0.0.1:{free_port()}"
    assert cli.main([*QUICK, *quick_settings, "--scheduler", address, "--out", str(out), "--no-cache"]) == 2
    err = one_line_error(capsys)
    assert repr(address) in err and "dask scheduler" in err
    assert not out.exists()


def test_malformed_scheduler_address(tmp_path, capsys, quick_settings):
    assert cli.main([*QUICK, *quick_settings, "--scheduler", "localhost", "--no-cache",
                     "--out", str(tmp_path / "out")]) == 2
    assert "'localhost'" in one_line_error(capsys)


def test_argument_errors_are_one_line_too(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main([*QUICK, "--workers", "two"])
    assert stop.value.code == 2
    assert "'two'" in one_line_error(capsys)
    with pytest.raises(SystemExit):
        cli.main([*QUICK, "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"])
    assert "not allowed with" in one_line_error(capsys)


def test_an_empty_list_setting_is_named(tmp_path, capsys):
    # was "max() arg is an empty sequence"
    settings = tmp_path / "s.json"
    settings.write_text('{"ns": []}')
    assert cli.main([*QUICK, "--settings", str(settings), "--out", str(tmp_path / "out")]) == 2
    assert one_line_error(capsys) == "error: setting 'ns' is empty; give at least one value, such as [10, 20]\n"
    assert not (tmp_path / "out").exists()


def test_unknown_setting_is_named(tmp_path, capsys):
    settings = tmp_path / "s.json"
    settings.write_text('{"replicates": 3}')
    assert cli.main([*QUICK, "--settings", str(settings), "--out", str(tmp_path / "out")]) == 2
    assert "'replicates'" in one_line_error(capsys)


@pytest.mark.slow
def test_a_failing_write_leaves_the_output_folder_untouched(tmp_path, capsys, monkeypatch, quick_settings):
    monkeypatch.setattr(reimherr_fig1, "figures", FIGURES)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")

    def broken(fig):
        raise OSError("disk full")

    monkeypatch.setattr("engine.viz.export.figure_to_html", broken)
    assert cli.main([*QUICK, *quick_settings, "--out", str(out), "--no-cache"]) == 2
    assert "(disk full); no output was left half-written" in one_line_error(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "settings.json"]
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_cache_is_reused_and_no_cache_runs_again(tmp_path, capsys, monkeypatch, quick_settings):
    store, out = tmp_path / "cache", tmp_path / "out"
    args = [*QUICK, *quick_settings, "--out", str(out), "--cache-dir", str(store)]
    assert cli.main(args) == 0
    first = pd.read_csv(out / "reimherr-fig1-utility.csv")
    assert len(list(store.iterdir())) == 1 and "reusing" not in capsys.readouterr().err

    def no_tasks(params):
        raise AssertionError("the cached result should have been used")

    monkeypatch.setattr(reimherr_fig1, "tasks", no_tasks)
    assert cli.main(args) == 0
    assert "reusing the cached result" in capsys.readouterr().err
    pd.testing.assert_frame_equal(pd.read_csv(out / "reimherr-fig1-utility.csv"), first)
    with pytest.raises(AssertionError, match="cached result should have been used"):
        cli.main([*args, "--no-cache"])


def test_parquet_round_trip_is_exact_and_keys_separate_runs(tmp_path):
    params = reimherr_fig1.Config(reps=6, ns=(10,), block=3, seed=1)
    results = runner.run("reimherr-fig1", params, cache_dir=tmp_path)
    again = cache.load(tmp_path, reimherr_fig1.__name__, params, reimherr_fig1.TABLES)
    assert list(again) == list(results)
    for name in results:
        pd.testing.assert_frame_equal(again[name], results[name], check_exact=True)
    other = reimherr_fig1.Config(reps=6, ns=(10,), block=3, seed=2)
    assert cache.cache_key(reimherr_fig1.__name__, params) != cache.cache_key(reimherr_fig1.__name__, other)
    assert cache.load(tmp_path, reimherr_fig1.__name__, other, reimherr_fig1.TABLES) is None
    assert cache.describe(reimherr_fig1.__name__, params)["version"].startswith("0.1.0+")


def test_progress_bar_only_for_runs_over_the_delay(tmp_path, capsys, monkeypatch, quick_settings):
    args = [*QUICK, *quick_settings, "--out", str(tmp_path / "out"), "--no-cache"]
    assert cli.main(args) == 0
    assert "%|" not in capsys.readouterr().err
    monkeypatch.setattr(cli, "PROGRESS_DELAY", 0.0)
    assert cli.main(args) == 0
    assert "reimherr-fig1 100%|" in capsys.readouterr().err


def run_without_seed_flag(tmp_path, settings: dict, *flags) -> tuple[int, Path]:
    file, out = tmp_path / "file.json", tmp_path / "out"
    file.write_text(json.dumps(settings))
    return cli.main(["reimherr-fig1", "--settings", str(file), "--out", str(out), "--cache-dir",
                     str(tmp_path / "cache"), *flags]), out


def test_the_settings_file_keeps_its_seed_unless_the_flag_is_given(tmp_path):
    settings = {"reps": 3, "seed": 7, "ns": [10], "block": 3}
    status, out = run_without_seed_flag(tmp_path, settings)
    assert status == 0
    written = json.loads((out / "reimherr-fig1-settings.json").read_text())
    assert written == {"study": "reimherr-fig1", "reps": 3, "seed": 7, "ns": [10], "epsilon": 1.0,
                       "sphere_constant": "empirical", "block": 3}
    expected = reimherr_fig1.run(reps=3, seed=7, ns=(10,), block=3)["utility"]
    pd.testing.assert_frame_equal(pd.read_csv(out / "reimherr-fig1-utility.csv"),
                                  pd.read_csv(io.StringIO(expected.to_csv(index=False))))
    assert run_without_seed_flag(tmp_path, settings, "--seed", "4", "--reps", "2")[0] == 0
    written = json.loads((out / "reimherr-fig1-settings.json").read_text())
    assert (written["seed"], written["reps"]) == (4, 2)
    rerun = tmp_path / "rerun"
    assert cli.main(["reimherr-fig1", "--settings", str(out / "reimherr-fig1-settings.json"),
                     "--out", str(rerun), "--cache-dir", str(tmp_path / "cache")]) == 0
    assert (rerun / "reimherr-fig1-utility.csv").read_bytes() == (out / "reimherr-fig1-utility.csv").read_bytes()


@pytest.mark.parametrize("settings, quoted", [
    ([1, 2], "holds a JSON list, not an object"),
    ("abc", "holds a JSON str, not an object"),
    ({"ns": 5}, "setting 'ns' must be a list such as [10, 20], got 5"),
    ({"seed": -1}, "seed must be an integer >= 0, got -1"),
    ({"study": "sampler-check"}, "holds settings of study 'sampler-check', not 'reimherr-fig1'"),
])
def test_the_settings_file_is_checked_like_the_flags(tmp_path, capsys, monkeypatch, settings, quoted):
    monkeypatch.setattr(reimherr_fig1, "tasks", lambda params: pytest.fail("a bad settings file must not run"))
    status, out = run_without_seed_flag(tmp_path, settings)
    assert status == 2 and quoted in one_line_error(capsys) and not out.exists()


@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_an_out_that_cannot_be_a_folder_is_refused_before_the_run(tmp_path, capsys, monkeypatch, where):
    monkeypatch.setattr(reimherr_fig1, "tasks", lambda params: pytest.fail("--out must be checked before the run"))
    blocker = tmp_path / "results.csv"
    blocker.write_text("mine")
    out = blocker if where == "a file" else blocker / "out"
    assert cli.main([*QUICK, "--out", str(out), "--cache-dir", str(tmp_path / "cache")]) == 2
    err = one_line_error(capsys)
    assert repr(str(out)) in err and "give a folder path" in err
    assert blocker.read_text() == "mine"
