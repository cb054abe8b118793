"""The app reaches the studies only through ``engine.pipelines.studies``: no module of ``ui/`` or ``pages/``
imports ``engine.experiments`` (by any import statement or ``importlib.import_module``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.guard

ROOT = Path(__file__).resolve().parents[3]
STUDIES = "engine.experiments"


def _is_studies(module: str | None) -> bool:
    return module is not None and (module == STUDIES or module.startswith(STUDIES + "."))


def study_imports(source: str) -> list[int]:
    """Line numbers of the imports of ``engine.experiments`` (or one of its modules) in ``source``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(_is_studies(alias.name) for alias in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and (
                _is_studies(node.module) or (node.module == "engine" and any(a.name == "experiments"
                                                                           for a in node.names))):
            lines.append(node.lineno)
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in
              ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant)
              and _is_studies(str(node.args[0].value))):
            lines.append(node.lineno)
    return sorted(lines)


def test_the_check_sees_every_form_of_the_import():
    for source in ("from engine.experiments import runner", "import engine.experiments.cache as c",
                   "from engine import experiments", "from engine.experiments.page_settings import X",
                   "def f():\n    import engine.experiments", "importlib.import_module('engine.experiments.runner')"):
        assert study_imports(source), source
    for source in ("from engine.pipelines import studies", "from engine import pipelines",
                   "text = 'python -m engine.experiments NAME'", "import engine.experimental"):
        assert study_imports(source) == [], source


def test_ui_and_pages_never_import_the_studies():
    files = sorted((ROOT / "ui").rglob("*.py")) + sorted((ROOT / "pages").rglob("*.py"))
    assert len(files) > 20
    offenders = [f"{path.relative_to(ROOT)}:{line}" for path in files for line in study_imports(path.read_text())]
    assert offenders == [], ("ui/ and pages/ reach the studies through engine.pipelines.studies "
                             f"(study(name).config(...), ui.studies.run); these import engine.experiments: {offenders}")
