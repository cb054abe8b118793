"""Every name that ``--list`` prints runs from the command line at its smallest size and writes its output."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _command(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def _listed(module: str) -> list[str]:
    done = _command(module, "--list", timeout=60)
    assert done.returncode == 0, done.stderr
    return [line.split()[0] for line in done.stdout.splitlines() if line.strip()]


@pytest.mark.slow
def test_every_listed_study_runs_at_two_replicates(tmp_path):
    names = _listed("engine.experiments")
    assert {"reimherr-fig1", "kulkarni-soto-fig1", "kulkarni-soto-fig2"} <= set(names)
    for name in names:
        out = tmp_path / name
        done = _command("engine.experiments", name, "--reps", "2", "--out", str(out), "--no-cache",
                        "--cache-dir", str(tmp_path / "cache"))
        assert done.returncode == 0, f"{name}: {done.stderr[-500:]}"
        assert list(out.glob(f"{name}-*.csv")), name
        assert json.loads((out / f"{name}-settings.json").read_text())["reps"] == 2


@pytest.mark.slow
def test_every_listed_pipeline_runs_at_its_defaults():
    names = _listed("engine.pipelines")
    assert {"private-mean", "sensitivity", "utility", "private-regression", "private-subspace"} <= set(names)
    for name in names:
        done = _command("engine.pipelines", name, "--json")
        assert done.returncode == 0, f"{name}: {done.stderr[-500:]}"
        assert isinstance(json.loads(done.stdout), dict), name


def test_one_replicate_is_refused_in_one_line_where_a_standard_error_is_drawn(tmp_path):
    """``reimherr-fig1 --reps 1`` ended in a traceback from the band figure (its standard errors were NaN)."""
    done = _command("engine.experiments", "reimherr-fig1", "--reps", "1", "--out", str(tmp_path / "out"),
                    "--cache-dir", str(tmp_path / "cache"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "reps must be an integer >= 2, got 1" in done.stderr
    assert not (tmp_path / "out").exists()
