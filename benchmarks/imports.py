"""Cold imports: what a page's first run on a fresh server pays before it computes anything.

For Home (``app.py``) and every ``pages/*.py``, a fresh interpreter runs exactly the page's
module-level ``import`` statements (taken from its source with ``ast``) and times them, best and
median of 3; the floor is ``import streamlit`` alone, which every page pays. The note lists the
heavy packages the page's imports loaded (``HEAVY``): each is imported where it is used (a data
loader, the accountant, a 3D mesh), so a page whose imports list one pays it before its first chart.

Command line: ``python -m benchmarks imports``.
"""

from __future__ import annotations

import ast
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from benchmarks.timing import Row

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 3
#: Packages that cost about a second or more to import, and which no page needs at import time.
HEAVY = ("networkx", "sklearn", "dp_accounting", "scipy.signal", "pyvista", "vtk")

_PROBE = """
import json, sys, time
start = time.perf_counter()
{imports}
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "heavy": [m for m in {heavy!r} if m in sys.modules]}}))
"""


def page_scripts() -> dict[str, Path]:
    """Home and every page, by name: ``{"Home": app.py, "1_Private_mean_playground": ..., ...}``."""
    return {"Home": ROOT / "app.py"} | {path.stem: path for path in sorted((ROOT / "pages").glob("*.py"))}


def page_imports(script: Path) -> str:
    """The module-level ``import`` statements of ``script``, as source lines."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    return "\n".join(ast.unparse(node) for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom))


def cold_import(imports: str) -> dict:
    """Run ``imports`` in a fresh interpreter at the repository root (one BLAS thread); returns
    ``{"seconds": time of the imports, "heavy": the HEAVY packages then in sys.modules}``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", _PROBE.format(imports=imports, heavy=HEAVY)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _row(task: str, imports: str) -> Row:
    probes = [cold_import(imports) for _ in range(REPEATS)]
    times = [p["seconds"] for p in probes]
    heavy = probes[0]["heavy"]
    note = "heavy imports: " + ", ".join(heavy) if heavy else "no heavy package imported"
    return Row(task, min(times), "—", note, statistics.median(times))


def run() -> list[Row]:
    rows = [_row("cold import, floor: `import streamlit`", "import streamlit")]
    for name, script in page_scripts().items():
        rows.append(_row(f"cold import, {name}", page_imports(script)))
    return rows


if __name__ == "__main__":
    for row in run():
        print(f"| {row.task} | {row.seconds:.3f} s | {row.median:.3f} s | {row.note} |")
