"""Fault injection into the study cache: every damaged entry is reported in one line, recomputed and rewritten.

Each case damages a real cached entry of a small ``reimherr-fig1`` run (truncated, garbage, one bit flipped, a
table swapped with another entry's, the manifest missing, garbage or of another run, a half-written entry, the
folder removed while the study runs or while it is read) and runs the command line on it. The outcome must be
the clean run's output files byte for byte with one ``warning:`` line on stderr, and a sound entry afterwards;
never a wrong number.
"""

import hashlib
import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.experiments import __main__ as cli
from engine.experiments import cache, reimherr_fig1

STUDY = reimherr_fig1.__name__
SETTINGS = {"reps": 4, "ns": [10], "block": 2}


def params(seed: int):
    return reimherr_fig1.Config(seed=seed, **{k: tuple(v) if isinstance(v, list) else v for k, v in SETTINGS.items()})


@pytest.fixture(autouse=True)
def no_figures(monkeypatch):
    """The HTML figures take seconds and are not cached; the tables and settings are compared."""
    monkeypatch.setattr(reimherr_fig1, "figures", lambda results: {})


@pytest.fixture(autouse=True)
def no_progress_bar(monkeypatch):
    """On a loaded machine a run can last past the bar's delay: the bar would then add lines to stderr."""
    monkeypatch.setattr(cli, "PROGRESS_DELAY", float("inf"))


def run_cli(tmp_path, cache_dir, *extra) -> tuple[int, dict[str, bytes]]:
    """Run seed 2 of the small study; exit status and the output files' bytes."""
    settings, out = tmp_path / "settings.json", tmp_path / "out"
    settings.write_text(json.dumps(SETTINGS))
    status = cli.main(["reimherr-fig1", "--seed", "2", "--settings", str(settings), "--out", str(out),
                       "--cache-dir", str(cache_dir), *extra])
    files = {p.name: p.read_bytes() for p in out.iterdir()} if out.exists() else {}
    shutil.rmtree(out, ignore_errors=True)
    return status, files


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A clean run's output files and a cache holding the entries of seeds 2 and 3."""
    root = tmp_path_factory.mktemp("clean")
    store = root / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reimherr_fig1, "figures", lambda results: {})
        status, files = run_cli(root, store)
        assert status == 0
        cache.store(store, STUDY, params(3), reimherr_fig1.run(**SETTINGS, seed=3))
    return files, store


@pytest.fixture
def damaged(clean, tmp_path):
    """A copy of the clean cache; ``entry`` is the folder of the seed-2 run."""
    store = tmp_path / "cache"
    shutil.copytree(clean[1], store)
    return store, store / cache.cache_key(STUDY, params(2))


def flip_bit(path, position: float = 0.5, bit: int = 3):
    data = bytearray(path.read_bytes())
    data[int(position * (len(data) - 1))] ^= 1 << bit
    path.write_bytes(bytes(data))


def edit_manifest(entry, edit, reseal: bool = False):
    """Apply ``edit`` to the parsed manifest of ``entry`` and write it back (with its own checksum recomputed if
    ``reseal``: an edit the checksum cannot see, left to the schema check)."""
    manifest = json.loads((entry / cache.MANIFEST).read_text())
    edit(manifest)
    if reseal:
        manifest.pop(cache.MANIFEST_SHA256)
        manifest[cache.MANIFEST_SHA256] = cache._digest(manifest)
    (entry / cache.MANIFEST).write_text(json.dumps(manifest, indent=1))


def swap_names(manifest):
    first, second = manifest["tables"][:2]
    first["name"], second["name"] = second["name"], first["name"]


FAULTS = {
    "truncated table": lambda entry, other: (entry / "0.parquet").write_bytes((entry / "0.parquet").read_bytes()[:200]),
    "garbage table": lambda entry, other: (entry / "1.parquet").write_bytes(b"not parquet at all" * 40),
    "one bit flipped (data page)": lambda entry, other: flip_bit(entry / "0.parquet", 0.3),
    "one bit flipped (footer)": lambda entry, other: flip_bit(entry / "2.parquet", 0.97),
    "table swapped with another entry's": lambda entry, other: shutil.copy(other / "0.parquet", entry / "0.parquet"),
    "manifest missing": lambda entry, other: (entry / cache.MANIFEST).unlink(),
    "manifest garbage": lambda entry, other: (entry / cache.MANIFEST).write_text('{"tables": [1, '),
    "manifest of another entry": lambda entry, other: shutil.copy(other / cache.MANIFEST, entry / cache.MANIFEST),
    "checksum edited in the manifest": lambda entry, other: (entry / cache.MANIFEST).write_text(
        (entry / cache.MANIFEST).read_text().replace('"sha256": "', '"sha256": "0', 1)),
    "a table renamed in the manifest (utility -> utilhty)": lambda entry, other: edit_manifest(
        entry, lambda m: m["tables"][1].update(name="utilhty")),
    "a table dropped from the manifest": lambda entry, other: edit_manifest(entry, lambda m: m["tables"].pop()),
    "a table listed twice in the manifest": lambda entry, other: edit_manifest(
        entry, lambda m: m["tables"].append(m["tables"][0])),
    "the manifest's list of tables emptied": lambda entry, other: edit_manifest(entry, lambda m: m["tables"].clear()),
    "two table names swapped in the manifest": lambda entry, other: edit_manifest(entry, swap_names),
    "the manifest's own checksum removed": lambda entry, other: edit_manifest(entry, lambda m: m.pop(
        cache.MANIFEST_SHA256)),
    "half-written entry (tables, no manifest) and a stale staging folder": lambda entry, other: (
        (entry / cache.MANIFEST).unlink(), (entry / "3.parquet").unlink(),
        shutil.copytree(entry, entry.parent / ".staging-left-by-a-killed-run")),
}


def assert_sound_entry(store):
    """The seed-2 entry loads without a warning and its files match the manifest's checksums."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tables = cache.load(store, STUDY, params(2), reimherr_fig1.TABLES)
    assert tables is not None
    entry = store / cache.cache_key(STUDY, params(2))
    for table in json.loads((entry / cache.MANIFEST).read_text())["tables"]:
        assert hashlib.sha256((entry / table["file"]).read_bytes()).hexdigest() == table["sha256"]


@pytest.mark.parametrize("fault", FAULTS)
def test_a_damaged_entry_is_reported_recomputed_and_rewritten(clean, damaged, tmp_path, capsys, fault):
    store, entry = damaged
    other = store / cache.cache_key(STUDY, params(3))
    FAULTS[fault](entry, other)
    status, files = run_cli(tmp_path, store)
    err = capsys.readouterr().err
    assert status == 0
    assert files == clean[0]
    assert err.count("\n") == 1 and err.startswith("warning: discarded the cached result in "), err
    assert "running the study again" in err and "reusing" not in err
    assert_sound_entry(store)


def test_the_folder_removed_while_the_study_runs(clean, damaged, tmp_path, capsys, monkeypatch):
    store, _ = damaged
    original = cli._progress_bar

    def progress_bar(name, delay):
        bar = original(name, delay)[1]
        return (lambda fraction: shutil.rmtree(store, ignore_errors=True)), bar

    monkeypatch.setattr(cli, "_progress_bar", progress_bar)
    status, files = run_cli(tmp_path, store, "--no-cache")
    assert status == 0 and files == clean[0] and capsys.readouterr().err == ""
    assert_sound_entry(store)


def test_the_folder_removed_while_it_is_read(clean, damaged, tmp_path, capsys, monkeypatch):
    store, entry = damaged
    read = cache._read_entry

    def vanishing(folder, identity, names):
        shutil.rmtree(folder)
        return read(folder, identity, names)

    monkeypatch.setattr(cache, "_read_entry", vanishing)
    status, files = run_cli(tmp_path, store)
    err = capsys.readouterr().err
    assert status == 0 and files == clean[0]
    assert err.count("\n") == 1 and "vanished while being read" in err
    monkeypatch.setattr(cache, "_read_entry", read)
    assert_sound_entry(store)


def test_no_cache_runs_again_and_replaces_the_entry(clean, damaged, tmp_path, capsys):
    store, entry = damaged
    flip_bit(entry / "0.parquet")
    status, files = run_cli(tmp_path, store, "--no-cache")
    assert status == 0 and files == clean[0] and capsys.readouterr().err == ""
    assert_sound_entry(store)
    before = entry.stat().st_ino
    assert run_cli(tmp_path, store, "--no-cache")[0] == 0
    assert entry.stat().st_ino != before


def test_an_unwritable_cache_costs_the_cache_not_the_result(clean, tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    status, files = run_cli(tmp_path, blocker / "cache")
    err = capsys.readouterr().err
    assert status == 0 and files == clean[0]
    assert err.count("\n") == 1 and err.startswith("warning: could not cache the result in "), err


def test_store_replaces_a_damaged_entry_instead_of_skipping_it(clean, damaged):
    store, entry = damaged
    (entry / cache.MANIFEST).unlink()
    cache.store(store, STUDY, params(2), reimherr_fig1.run(**SETTINGS, seed=2))
    assert_sound_entry(store)


def test_every_single_bit_flip_of_a_table_is_caught(clean, damaged):
    """200 random single-bit flips of the largest table: each is reported and nothing is served."""
    store, entry = damaged
    table = max(entry.glob("*.parquet"), key=lambda p: p.stat().st_size)
    original = table.read_bytes()
    rng = np.random.default_rng(0)
    for position in rng.integers(0, len(original) * 8, size=200):
        data = bytearray(original)
        data[position // 8] ^= 1 << (position % 8)
        table.write_bytes(bytes(data))
        with pytest.warns(cache.CacheWarning, match="fails its SHA-256 check"):
            assert cache.load(store, STUDY, params(2), reimherr_fig1.TABLES) is None
        assert not entry.exists()
        shutil.copytree(clean[1] / entry.name, entry)


def test_library_versions_are_in_the_key(monkeypatch):
    before, installed = cache.cache_key(STUDY, params(2)), cache.library_versions()
    assert set(installed) == {"numpy", "scipy", "pandas", "pyarrow"}
    for library in installed:
        monkeypatch.setattr(cache, "library_versions", lambda: {**installed, library: "0.0.1"})
        assert cache.cache_key(STUDY, params(2)) != before



SCHEMA_EDITS = {
    "renamed": lambda m: m["tables"][1].update(name="utilhty"),
    "dropped": lambda m: m["tables"].pop(),
    "duplicated": lambda m: m["tables"].append(m["tables"][0]),
    "emptied": lambda m: m["tables"].clear(),
    "swapped": swap_names,
    "file renamed": lambda m: m["tables"][0].update(file="../0.parquet"),
    "entry added": lambda m: m["tables"][0].update(rows=3),
}


@pytest.mark.parametrize("edit", SCHEMA_EDITS)
def test_a_resealed_manifest_naming_other_tables_is_refused_by_the_schema(clean, damaged, edit):
    """Edits whose checksum is recomputed: the list of tables must still be the study's ``TABLES``."""
    store, entry = damaged
    edit_manifest(entry, SCHEMA_EDITS[edit], reseal=True)
    with pytest.warns(cache.CacheWarning, match="does not list the study's tables"):
        assert cache.load(store, STUDY, params(2), reimherr_fig1.TABLES) is None
    assert not entry.exists()


def flipped_manifests(entry, count: int):
    """``count`` random single-bit flips of the manifest's bytes (a fixed sample), as bytes."""
    original = (entry / cache.MANIFEST).read_bytes()
    for position in np.random.default_rng(1).choice(len(original) * 8, size=count, replace=False):
        data = bytearray(original)
        data[position // 8] ^= 1 << (position % 8)
        yield bytes(data)


def test_no_single_bit_flip_of_the_manifest_is_served(clean, damaged):
    """400 random single-bit flips of params.json: each is discarded (the run recomputes) or, if it leaves the
    manifest's meaning intact, serves the very tables of the clean entry; never other tables."""
    store, entry = damaged
    expected = cache.load(store, STUDY, params(2), reimherr_fig1.TABLES)
    discarded = 0
    for data in flipped_manifests(entry, 400):
        (entry / cache.MANIFEST).write_bytes(data)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tables = cache.load(store, STUDY, params(2), reimherr_fig1.TABLES)
        if tables is None:
            assert [type(w.message) for w in caught] == [cache.CacheWarning] and not entry.exists()
            discarded += 1
            shutil.copytree(clean[1] / entry.name, entry)
        else:
            assert not caught and list(tables) == list(expected)
            for name in expected:
                pd.testing.assert_frame_equal(tables[name], expected[name], check_exact=True)
    assert discarded >= 390


def test_a_flipped_manifest_through_the_command_line_recomputes_and_leaves_no_stray_table(clean, damaged, tmp_path,
                                                                                          capsys):
    """25 of the flips, each run by the command line over an --out holding an earlier run's files: exit 0 with the
    clean run's files byte for byte (no other file) and at most one warning line, or one line and exit 2."""
    store, entry = damaged
    out = tmp_path / "out"
    for data in flipped_manifests(entry, 25):
        out.mkdir(exist_ok=True)
        for file, content in clean[0].items():
            (out / file).write_bytes(content)
        (entry / cache.MANIFEST).write_bytes(data)
        status, files = run_cli(tmp_path, store)
        err = capsys.readouterr().err
        assert err.count("\n") <= 1, err
        assert (status, files) == (0, clean[0]) or (status == 2 and err.startswith("error: ")), err
        assert_sound_entry(store)


def test_a_killed_runs_staging_folder_is_removed_by_the_next_run(clean, tmp_path):
    """A process killed (SIGKILL) between writing its staging folder and renaming it leaves the folder; the
    next run storing into the same cache removes it once it is ``STALE_AFTER`` old, and keeps a young one."""
    import os
    import subprocess
    import sys
    import time

    store = tmp_path / "cache"
    killed = subprocess.run([sys.executable, "-c", f"""
import os, signal
from engine.experiments import cache, reimherr_fig1
cache._place = lambda staging, folder: os.kill(os.getpid(), signal.SIGKILL)
cache.store({str(store)!r}, {STUDY!r}, reimherr_fig1.Config(reps=2, ns=(10,), block=2),
            reimherr_fig1.run(reps=2, ns=[10], block=2))
"""], cwd=Path(__file__).resolve().parents[3], capture_output=True)
    assert killed.returncode == -9, killed.stderr
    (left,) = [p for p in store.iterdir() if p.name.startswith(".staging-")]
    assert (left / cache.MANIFEST).exists()
    aged = time.time() - cache.STALE_AFTER - 1
    os.utime(left, (aged, aged))
    young = store / ".staging-another-run"
    young.mkdir()
    assert run_cli(tmp_path, store, "--no-cache")[0] == 0
    assert not left.exists() and young.exists()
    assert (store / cache.cache_key(STUDY, params(2))).is_dir()
