"""Disk cache of study results: one folder of Parquet tables per (study, parameters, code version).

The key is the SHA-256 of the JSON of ``{"study", "params", "version"}`` where ``version`` is the
package version together with a digest of the engine's source files, so an edited engine never
serves stale numbers. A result is written to a temporary folder and renamed into place in one step,
so a reader sees a whole result or none. ``MPE_CACHE_DIR`` overrides the default folder
``~/.cache/manifold-privacy-explorer/studies``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pandas as pd

import engine

MANIFEST = "params.json"


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


def describe(study: str, params) -> dict:
    """The JSON-able identity of a run: study, parameters (all fields) and code version."""
    return {"study": study, "params": dataclasses.asdict(params), "version": code_version()}


def cache_key(study: str, params) -> str:
    """Hex SHA-256 of ``describe(study, params)`` as canonical JSON (sorted keys)."""
    text = json.dumps(describe(study, params), sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def contains(directory: Path, study: str, params) -> bool:
    """Whether a whole result of this run is cached."""
    return (Path(directory) / cache_key(study, params) / MANIFEST).exists()


def load(directory: Path, study: str, params) -> dict[str, pd.DataFrame] | None:
    """The cached tables of this run, or ``None`` if there are none."""
    if not contains(directory, study, params):
        return None
    folder = Path(directory) / cache_key(study, params)
    tables = json.loads((folder / MANIFEST).read_text())["tables"]
    return {name: pd.read_parquet(folder / f"{index}.parquet") for index, name in enumerate(tables)}


def store(directory: Path, study: str, params, results: dict[str, pd.DataFrame]) -> Path:
    """Write ``results`` as Parquet (one file per table, in order) and return their folder."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    folder = directory / cache_key(study, params)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=directory))
    try:
        for index, frame in enumerate(results.values()):
            frame.to_parquet(staging / f"{index}.parquet", index=False)
        manifest = {**describe(study, params), "tables": list(results)}
        (staging / MANIFEST).write_text(json.dumps(manifest, sort_keys=True, default=repr, indent=1))
        try:
            staging.rename(folder)
        except OSError:  # another run stored the same result first; keep that one
            pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder
