"""The views read the pipelines' results by attribute: no module of ``ui/`` or ``pages/`` indexes a result (or one
of its runs, checks or guarantees) with a string, as ``result["mean"]`` did when the pages cached ``to_dict()``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.guard

ROOT = Path(__file__).resolve().parents[3]
#: The names the views give a pipeline's result and its parts.
RESULT_NAMES = ("result", "run", "check", "guarantee", "theorem2", "computed", "config")


def string_reads(source: str) -> list[str]:
    """``name["key"]`` reads of the result names in ``source``, as ``line: name[key]``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute))
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            name = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
            if name in RESULT_NAMES:
                found.append(f"{node.lineno}: {name}[{node.slice.value!r}]")
    return found


def test_the_check_sees_a_string_read():
    assert sorted(string_reads("x = result['mean'] + computed.run['paths'] + result.config['n']")) == [
        "1: config['n']", "1: result['mean']", "1: run['paths']"]
    assert string_reads("x = result.mean; y = table['x']; z = result[0]") == []


def test_views_read_results_by_attribute():
    files = sorted((ROOT / "ui").rglob("*.py")) + sorted((ROOT / "pages").rglob("*.py"))
    assert len(files) > 20
    offenders = {str(path.relative_to(ROOT)): reads for path in files
                 if (reads := string_reads(path.read_text()))}
    assert offenders == {}
