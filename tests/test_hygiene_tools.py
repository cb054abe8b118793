"""The tree passes the hygiene tools the project pins: vulture finds no unused code (with the ignores
``[tool.vulture]`` in pyproject.toml explains), and pre-commit accepts ``.pre-commit-config.yaml``."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.guard

ROOT = Path(__file__).resolve().parents[1]


def _tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_vulture_finds_no_unused_code():
    done = _tool("vulture")
    assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr


def test_vulture_flags_an_unused_function(tmp_path):
    """The check can fail: a function nothing calls is reported."""
    (tmp_path / "orphan.py").write_text("def never_called():\n    return 1\n")
    done = _tool("vulture", str(tmp_path))
    assert done.returncode != 0 and "unused function 'never_called'" in done.stdout


def test_pre_commit_accepts_the_config():
    done = _tool("pre_commit", "validate-config", ".pre-commit-config.yaml")
    assert done.returncode == 0, done.stdout + done.stderr
