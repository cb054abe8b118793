"""Write the pack's folder, or a zip of it, from ``content.lesson_data``.

The folder holds ``index.html``, ``lesson.css`` and ``lesson.js`` (``static/``), ``plotly.min.js`` (the installed
plotly package's own copy) and ``lesson-data.js``, the data as one script (a page opened from ``file://`` may
run a script beside it but not fetch a JSON file). It is written beside its place and moved in when complete,
so a failed build leaves nothing half-written; a folder is replaced only if it is an earlier pack.
"""

from __future__ import annotations

import io
import json
import shutil
import tempfile
import zipfile
from importlib import resources
from pathlib import Path

from lesson_pack.content import VALUES, lesson_data
from lesson_pack.out import DATA, check_out

#: The page's own files, copied from ``static/`` as they are.
STATIC = ("index.html", "lesson.css", "lesson.js")
PLOTLY = "plotly.min.js"


def plotly_js() -> bytes:
    """The installed plotly package's plotly.js (no CDN)."""
    return resources.files("plotly").joinpath("package_data", PLOTLY).read_bytes()


def write_files(folder: Path, data: dict) -> None:
    """The pack's files into the existing ``folder``."""
    static = resources.files("lesson_pack").joinpath("static")
    for name in STATIC:
        (folder / name).write_bytes(static.joinpath(name).read_bytes())
    (folder / PLOTLY).write_bytes(plotly_js())
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    (folder / DATA).write_text(f"window.LESSON = {text};\n", encoding="utf-8")


def build(out: Path, values: int = VALUES) -> Path:
    """Write the pack to ``out`` (``check_out``), whole or not at all, ``values`` values on each slider."""
    out = check_out(out).resolve()
    data = lesson_data(values)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        staging.chmod(0o755)
        write_files(staging, data)
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out


def zip_folder(folder: Path, root: str = "lesson") -> bytes:
    """The files of ``folder`` as a zip, under the folder ``root``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(Path(folder).iterdir()):
            archive.write(path, f"{root}/{path.name}")
    return buffer.getvalue()


def zip_bytes() -> bytes:
    """The whole pack as a zip (built in a scratch folder that is removed after)."""
    with tempfile.TemporaryDirectory() as scratch:
        return zip_folder(build(Path(scratch) / "lesson"))
