"""Facts about a space live in its modules (``engine/spaces/<key>.py``, ``ui/spaces/<key>.py``): no
table keyed by a space's name and no comparison with one anywhere else."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.guard

ROOT = Path(__file__).resolve().parents[2]
SPACE_KEYS = "sphere|spd|hyperbolic|kendall|grassmann"
#: A dict literal keyed by a space's name, a comparison with one, or a membership test in a literal tuple.
KEYED = re.compile(rf'"({SPACE_KEYS})"\s*:|[!=]= "({SPACE_KEYS})"|in \("({SPACE_KEYS})')
#: Lines that use the same words for something else, each with why.
ALLOWED = {
    # Keyed by a family of polar volume densities (Manifold.polar_volume), not by a space of the registry.
    ("engine/mechanisms/laplace.py", '"sphere": sphere_law,'),
    ("engine/mechanisms/laplace.py", '"hyperbolic": hyperbolic_law,'),
    ("engine/mechanisms/gdp.py", 'diameter = {"sphere": np.pi, "real-projective": np.pi / 2}.get(family)'),
    ("engine/mechanisms/gdp.py", 'elif family == "sphere":'),
    ("engine/mechanisms/gdp.py", 'elif family == "hyperbolic":'),
}
#: Keyed by an application of the optimisation page (``app``), not by a space of the registry.
APPLICATION_FILES = ("engine/pipelines/private_optimization.py", "engine/experiments/page_settings.py", "ui/optimization/")


def _offenders() -> list[str]:
    files = [ROOT / "app.py", *(ROOT / "pages").rglob("*.py"), *(ROOT / "engine").rglob("*.py"),
             *(ROOT / "ui").rglob("*.py")]
    found = []
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        if name.startswith(("engine/spaces/", "ui/spaces/", *APPLICATION_FILES)):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if KEYED.search(line) and (name, line.strip()) not in ALLOWED:
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_table_or_branch_keyed_by_a_space_name_outside_the_space_modules():
    assert _offenders() == []


def test_the_pattern_finds_what_it_is_for():
    assert KEYED.search('RANGES = {"sphere": (0.05, 1.5)}') and KEYED.search('if space == "spd":')
    assert KEYED.search('if space in ("sphere", "kendall"):') and KEYED.search('if app != "hyperbolic":')
    assert not KEYED.search('space: str = "sphere"')
