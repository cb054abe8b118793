"""Disk cache of study results: one folder of Parquet tables per (study, parameters, code version).

The key is the SHA-256 of the JSON of ``{"study", "params", "version", "libraries"}``: ``version`` is
the package version together with a digest of the engine's source files, ``libraries`` the versions
of numpy, scipy, pandas and pyarrow, so an edited engine or an upgraded library never serves stale
numbers. The manifest (``params.json``) holds that identity, per table its name, its file and the
SHA-256 of the file's bytes, and the SHA-256 of its own canonical JSON (``MANIFEST_SHA256``). A read
checks the manifest's own checksum, its identity, its schema (exactly the tables the study declares,
``TABLES``, in their order, in files ``0.parquet``, ``1.parquet``, ...) and each table's checksum
before it parses a table. An entry that fails a check or cannot be read is reported
(``CacheWarning``, one line), discarded and ``None`` is returned, so the caller runs the study again
and stores it afresh: a damaged manifest is repaired as a damaged table is, never served.

A result is written to a temporary folder and renamed into place in one step, replacing whatever
entry held its key, so a reader sees a whole result or none. ``MPE_CACHE_DIR`` overrides the default
folder ``~/.cache/manifold-privacy-explorer/studies``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import json
import os
import shutil
import tempfile
import time
import warnings
from importlib import metadata
from pathlib import Path

import pandas as pd

import engine

MANIFEST = "params.json"
#: The manifest's entry holding the SHA-256 of the canonical JSON of its other entries.
MANIFEST_SHA256 = "manifest_sha256"
#: The entries of one table in the manifest.
TABLE_ENTRIES = ("file", "name", "sha256")
#: Libraries whose version enters the key: they compute or store the numbers.
LIBRARIES = ("numpy", "scipy", "pandas", "pyarrow")
#: Attempts at renaming a fresh entry into place while other runs replace the same key.
PLACE_ATTEMPTS = 5
#: Seconds after its last change that a ``.staging-*`` or ``.discarded-*`` folder counts as left by a killed
#: run. A live run fills its staging folder in well under a second (a few Parquet files), so a folder
#: untouched for ten minutes is no run's any more; a younger one may be another run's, mid-write.
STALE_AFTER = 600.0
#: The prefixes of the folders ``store`` and ``discard`` make, and remove unless the process is killed.
SCRATCH_PREFIXES = (".staging-", ".discarded-")


class CacheWarning(UserWarning):
    """A cached entry was damaged and discarded, or a result could not be cached."""


class DamagedEntry(Exception):
    """A cache entry whose manifest or tables do not match what it claims to hold."""


def default_directory() -> Path:
    """``$MPE_CACHE_DIR`` if set, else ``~/.cache/manifold-privacy-explorer/studies``."""
    configured = os.environ.get("MPE_CACHE_DIR")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "manifold-privacy-explorer" / "studies"


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """``"<package version>+<first 12 hex digits of the SHA-256 of engine/**/*.py>"``."""
    root = Path(engine.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{engine.__version__}+{digest.hexdigest()[:12]}"


@functools.lru_cache(maxsize=1)
def library_versions() -> dict[str, str]:
    """``{name: version}`` of ``LIBRARIES`` as installed."""
    return {name: metadata.version(name) for name in LIBRARIES}


def describe(study: str, params) -> dict:
    """The JSON-able identity of a run: study, parameters (all fields), code and library versions."""
    return {"study": study, "params": dataclasses.asdict(params), "version": code_version(),
            "libraries": library_versions()}


def _canonical(identity: dict) -> str:
    return json.dumps(identity, sort_keys=True, default=repr)


def cache_key(study: str, params) -> str:
    """Hex SHA-256 of ``describe(study, params)`` as canonical JSON (sorted keys)."""
    return hashlib.sha256(_canonical(describe(study, params)).encode()).hexdigest()


def load(directory: Path, study: str, params, tables: tuple[str, ...]) -> dict[str, pd.DataFrame] | None:
    """The cached tables of this run, or ``None`` if there are none or they fail their check.

    ``tables`` are the names of the tables the study declares (its ``TABLES``), in order. A damaged
    entry (manifest missing, unreadable, failing its own SHA-256, of another run or naming other
    tables than ``tables``; a table whose SHA-256 differs from the manifest's, or that Parquet cannot
    read) is reported as one ``CacheWarning`` line and removed.
    """
    folder = Path(directory) / cache_key(study, params)
    if not folder.exists():
        return None
    try:
        return _read_entry(folder, describe(study, params), tuple(tables))
    except (DamagedEntry, OSError, ValueError) as err:
        # The entry may also have vanished since the existence check (another run replaced or removed it).
        reason = "its files vanished while being read" if isinstance(err, FileNotFoundError) else str(err)
        warnings.warn(f"discarded the cached result in {str(folder)!r}: {reason}; running the study again",
                      CacheWarning, stacklevel=2)
        discard(folder)
        return None


def _read_entry(folder: Path, identity: dict, names: tuple[str, ...]) -> dict[str, pd.DataFrame]:
    """The tables of ``folder`` after checking its manifest (own SHA-256, ``identity``, the table ``names``)
    and each table's SHA-256."""
    tables = _read_manifest(folder, identity, names)
    results = {}
    for table in tables:
        name, file = table["name"], table["file"]
        data = (folder / file).read_bytes()
        if hashlib.sha256(data).hexdigest() != table["sha256"]:
            raise DamagedEntry(f"table {name!r} ({file}) fails its SHA-256 check")
        try:
            results[name] = pd.read_parquet(io.BytesIO(data))
        except Exception as err:  # pyarrow raises its own types for unreadable bytes
            raise DamagedEntry(f"table {name!r} ({file}) cannot be read ({type(err).__name__}: {err})") from None
    return results


def _read_manifest(folder: Path, identity: dict, names: tuple[str, ...]) -> list[dict]:
    """The manifest's list of tables once it passes its own SHA-256, matches ``identity`` and lists exactly
    ``names`` in ``0.parquet``, ``1.parquet``, ...; ``DamagedEntry`` saying which check failed otherwise."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
        claimed = manifest.pop(MANIFEST_SHA256)
        stored = {key: manifest[key] for key in identity}
        tables = manifest["tables"]
    except FileNotFoundError:
        if not folder.exists():
            raise
        raise DamagedEntry(f"its manifest {MANIFEST} is missing") from None
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
        raise DamagedEntry(f"its manifest {MANIFEST} cannot be read ({type(err).__name__}: {err})") from None
    if claimed != _digest(manifest):
        raise DamagedEntry(f"its manifest {MANIFEST} fails its own SHA-256 check")
    if _canonical(stored) != _canonical(identity):
        raise DamagedEntry(f"its manifest {MANIFEST} describes another run")
    if not _lists(tables, names):
        raise DamagedEntry(f"its manifest {MANIFEST} does not list the study's tables {list(names)} in files "
                           f"0.parquet, 1.parquet, ..., each as name, file and sha256")
    return tables


def _lists(tables, names: tuple[str, ...]) -> bool:
    """Whether ``tables`` is the list of ``{name, file, sha256}`` of ``names``, in order, in ``0.parquet``, ..."""
    return (isinstance(tables, list) and all(isinstance(table, dict) and sorted(table) == list(TABLE_ENTRIES)
                                             for table in tables)
            and [(table["name"], table["file"]) for table in tables]
            == [(name, f"{index}.parquet") for index, name in enumerate(names)])


def _digest(manifest: dict) -> str:
    """Hex SHA-256 of ``manifest`` (without its own checksum) as canonical JSON."""
    return hashlib.sha256(_canonical(manifest).encode()).hexdigest()


def discard(folder: Path) -> None:
    """Remove the entry ``folder``: renamed aside in one step (readers then miss it), then deleted."""
    try:
        aside = Path(tempfile.mkdtemp(prefix=".discarded-", dir=folder.parent))
    except OSError:  # the cache folder is gone (nothing to remove) or read-only (``store`` will say so)
        return
    try:
        folder.rename(aside / "entry")
    except FileNotFoundError:  # already removed or replaced by another run
        pass
    finally:
        shutil.rmtree(aside, ignore_errors=True)


def store(directory: Path, study: str, params, results: dict[str, pd.DataFrame]) -> Path:
    """Write ``results`` as Parquet (one file per table, in order) with their checksums and the manifest's own;
    return their folder.

    The entry replaces any entry of the same key (a damaged one, or one another run stored meanwhile:
    the same key gives the same tables). ``OSError`` if it cannot be put in place.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    sweep_stale(directory)
    folder = directory / cache_key(study, params)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=directory))
    try:
        tables = []
        for index, (name, frame) in enumerate(results.items()):
            buffer = io.BytesIO()
            frame.to_parquet(buffer, index=False)
            data = buffer.getvalue()
            (staging / f"{index}.parquet").write_bytes(data)
            tables.append({"name": name, "file": f"{index}.parquet", "sha256": hashlib.sha256(data).hexdigest()})
        manifest = {**describe(study, params), "tables": tables}
        manifest[MANIFEST_SHA256] = _digest(manifest)
        (staging / MANIFEST).write_text(json.dumps(manifest, sort_keys=True, default=repr, indent=1))
        _place(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def sweep_stale(directory: Path) -> list[str]:
    """Remove the scratch folders (``SCRATCH_PREFIXES``) in ``directory`` that no run has touched for
    ``STALE_AFTER`` seconds: what a killed run left behind. Returns their names."""
    cutoff = time.time() - STALE_AFTER
    removed = []
    for path in directory.iterdir():
        try:
            stale = path.name.startswith(SCRATCH_PREFIXES) and path.is_dir() and path.stat().st_mtime < cutoff
        except FileNotFoundError:  # another run removed it meanwhile
            continue
        if stale:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path.name)
    return removed


def _place(staging: Path, folder: Path) -> None:
    """Rename ``staging`` to ``folder``, discarding an entry already there; ``OSError`` if others keep winning."""
    for _ in range(PLACE_ATTEMPTS):
        try:
            staging.rename(folder)
            return
        except OSError:
            if not folder.exists():
                raise
            discard(folder)
    raise OSError(f"could not put the result in {str(folder)!r}: other runs kept replacing it "
                  f"{PLACE_ATTEMPTS} times")
