"""Where the pack may be written: a new path, an empty folder or an earlier pack (checked before any step is
computed, so that bad input costs no build)."""

from __future__ import annotations

from pathlib import Path

#: The data script of a pack, which tells an earlier pack from any other folder.
DATA = "lesson-data.js"


def check_out(out: Path) -> Path:
    """``out`` if the pack may be written there: a new path, an empty folder or an earlier pack.

    Raises
    ------
    ValueError
        ``out`` is a file or lies inside one, or is a folder with other content.
    """
    out = Path(out)
    inside = next((parent for parent in out.absolute().parents if parent.exists()), None)
    if inside is not None and not inside.is_dir():
        raise ValueError(f"OUT={str(out)!r} lies inside the file {str(inside)!r}; give a new or empty folder, e.g. "
                         "OUT=dist/lesson")
    if out.exists() and not out.is_dir():
        raise ValueError(f"OUT={str(out)!r} is a file; give a new or empty folder, e.g. OUT=dist/lesson")
    if out.is_dir() and any(out.iterdir()) and not (out / DATA).is_file():
        raise ValueError(f"OUT={str(out)!r} is a folder with other files, not an earlier Lesson pack; give a new or "
                         "empty folder, e.g. OUT=dist/lesson")
    return out
