"""The engine stays a plain numerical package with explicit randomness."""

import re
from pathlib import Path

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
