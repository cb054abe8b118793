"""pyproject.toml declares the project's dependencies with the very pins of requirements.txt and
requirements-test.txt (which the Makefile installs), so neither can move without the other."""

import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.guard

ROOT = Path(__file__).resolve().parents[1]


def _pins(name: str) -> list[str]:
    """The requirement lines of ``name``, without comments and ``-r`` includes, in file order."""
    lines = (line.split("#", 1)[0].strip() for line in (ROOT / name).read_text().splitlines())
    return [line for line in lines if line and not line.startswith("-r")]


def test_pyproject_declares_the_pins_the_makefile_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["dependencies"] == _pins("requirements.txt")
    assert project["optional-dependencies"]["test"] == _pins("requirements-test.txt")


def test_every_requirement_is_pinned_to_one_version():
    loose = [pin for name in ("requirements.txt", "requirements-test.txt", "requirements-bench.txt")
             for pin in _pins(name) if pin.count("==") != 1]
    assert loose == []
