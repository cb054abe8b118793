"""No page pays for a heavy package at import time: networkx, scikit-learn, dp-accounting (with
scipy.signal) and pyvista (with vtk) are imported where they are used, not when a page or the
engine is imported. The check runs the imports in a fresh interpreter and reads ``sys.modules``."""

from __future__ import annotations

import pytest

from benchmarks.imports import HEAVY, cold_import, page_imports, page_scripts

ENGINE_MODULES = ("engine", "engine.accounting", "engine.data", "engine.mechanisms", "engine.pipelines",
                  "engine.audit", "engine.experiments.dp_rgd_eigenvector", "engine.experiments.dp_rgd_hyperbolic",
                  "engine.pipelines.dp_rgd_setting.eigenvector", "engine.pipelines.dp_rgd_setting.hyperbolic",
                  "engine.viz.sphere", "engine.viz.spd_cone", "engine.viz.export")


@pytest.mark.slow
def test_engine_and_pages_import_no_heavy_package():
    engine = "\n".join(f"import {name}" for name in ENGINE_MODULES)
    pages = "\n".join(page_imports(script) for script in page_scripts().values())
    assert "navigation" in pages and "ui.playground" in pages
    loaded = cold_import(engine + "\n" + pages)["heavy"]
    assert loaded == [], (f"importing the engine and the pages loaded {loaded}: import them inside the "
                          "functions that use them (python -m benchmarks imports names the page)")


def test_the_check_sees_a_heavy_import():
    assert cold_import("import json\nimport networkx")["heavy"] == ["networkx"]
    assert set(HEAVY) >= {"networkx", "sklearn", "dp_accounting", "pyvista"}
