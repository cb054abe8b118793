"""``make bench`` writes its table, the machine and the date into RESULTS.md, keeping the
hand-written sections, and nothing half-written."""

from __future__ import annotations

import sys
import types

import pytest

import benchmarks.__main__ as bench
from benchmarks import results_file
from benchmarks.timing import Row

HAND_WRITTEN = "# Benchmark results\n\n## Targets\n\n| target | measured |\n| --- | --- |\n| speed | met |\n"


@pytest.fixture
def fake_area(monkeypatch):
    """An area ``fake`` whose run returns two rows, registered as ``benchmarks.fake``."""
    module = types.ModuleType("benchmarks.fake")
    module.run = lambda: [Row("draw 1,000 points", 0.0123, "< 0.1 s", "ok", 0.0150), Row("once", 2.5, "—")]
    monkeypatch.setitem(sys.modules, "benchmarks.fake", module)
    monkeypatch.setattr(bench, "AREAS", [*bench.AREAS, "fake"])
    return module


def test_bench_writes_its_section_and_keeps_the_rest(tmp_path, fake_area, capsys):
    results = tmp_path / "RESULTS.md"
    results.write_text(HAND_WRITTEN)
    bench.main(["fake", "--results", str(results)])
    first = results.read_text()
    assert first.startswith(HAND_WRITTEN.rstrip("\n")) and first.count(results_file.BEGIN) == 1
    assert "| draw 1,000 points | 0.012 s | 0.015 s | < 0.1 s | ok |" in first
    assert "| once | 2.500 s |  | — |  |" in first
    assert "**Machine:** " in first and "cores" in first and "numpy" in first and "**Areas:** fake." in first
    assert "| draw 1,000 points |" in capsys.readouterr().out

    fake_area.run = lambda: [Row("draw 1,000 points", 0.5, "< 0.1 s", "slower")]
    bench.main(["fake", "--results", str(results)])
    second = results.read_text()
    assert second.count(results_file.BEGIN) == 1 and second.count(results_file.END) == 1
    assert "0.012 s" not in second and "| draw 1,000 points | 0.500 s |" in second
    assert second.startswith(HAND_WRITTEN.rstrip("\n")) and not list(tmp_path.glob("*.tmp"))


def test_bench_refuses_a_results_file_in_a_missing_folder(tmp_path, fake_area, capsys):
    with pytest.raises(SystemExit) as stop:
        bench.main(["fake", "--results", str(tmp_path / "missing" / "RESULTS.md")])
    assert stop.value.code == 2 and "does not exist" in capsys.readouterr().err


def test_an_interrupted_run_leaves_the_old_file(tmp_path, monkeypatch):
    results = tmp_path / "RESULTS.md"
    results.write_text(HAND_WRITTEN)
    module = types.ModuleType("benchmarks.broken")

    def run():
        raise KeyboardInterrupt

    module.run = run
    monkeypatch.setitem(sys.modules, "benchmarks.broken", module)
    monkeypatch.setattr(bench, "AREAS", [*bench.AREAS, "broken"])
    with pytest.raises(KeyboardInterrupt):
        bench.main(["broken", "--results", str(results)])
    assert results.read_text() == HAND_WRITTEN
