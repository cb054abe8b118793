"""The engine stays a plain numerical package with explicit randomness."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.guard

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _sources():
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "engine/ has no Python files"
    return [(p, p.read_text()) for p in files]


def test_engine_never_imports_streamlit():
    pattern = re.compile(r"^\s*(import streamlit|from streamlit)", re.M)
    offenders = [str(p) for p, text in _sources() if pattern.search(text)]
    assert offenders == []


def test_engine_never_uses_global_numpy_random_state():
    pattern = re.compile(r"np\.random\.(seed|rand|randn|randint|normal|uniform|choice|standard_normal|random|shuffle|permutation)\(")
    offenders = [str(p) for p, text in _sources() if pattern.search(text)]
    assert offenders == []


#: Packages below the papers' studies: none may import ``engine.experiments`` (studies are leaves), but for
#: ``engine.pipelines.studies``, the one door the pages take to them (``tests/app/test_study_gateway.py``).
BELOW_STUDIES = ("pipelines", "mechanisms", "estimators", "manifolds", "bounds", "viz", "data")
STUDY_GATEWAY = Path("pipelines") / "studies.py"


def test_nothing_below_the_studies_imports_them():
    pattern = re.compile(r"^\s*(from engine\.experiments\b|import engine\.experiments\b|from engine import .*\bexperiments\b)",
                         re.M)
    offenders = {str(p.relative_to(ENGINE)) for p, text in _sources()
                 if p.relative_to(ENGINE).parts[0] in BELOW_STUDIES and p.relative_to(ENGINE) != STUDY_GATEWAY
                 and pattern.search(text)}
    assert offenders == set()
