"""Facts about a space live in its modules (``engine/spaces/<key>.py``, ``ui/spaces/<key>.py``) and facts about a
mechanism in its spec (``engine/mechanisms/specs``): no table keyed by a space's name and no comparison with one
anywhere else, and no literal list of spaces or of mechanisms in the code or the tests, so that a space or a
mechanism added by README's recipe is in every list. The names are read from the registries."""

import ast
import re
from pathlib import Path

import pytest

from engine.mechanisms import specs
from engine.spaces import SPACES

pytestmark = pytest.mark.guard

ROOT = Path(__file__).resolve().parents[3]
SPACE_KEYS = "|".join(map(re.escape, SPACES))
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

#: Literal lists of two or more names that are not lists of the registry's spaces or mechanisms, each with why
#: (file, first line of the literal).
LISTS_ALLOWED = {
    # Families of polar volume densities (Manifold.polar_volume) and the samplers of one law, not registry keys.
    ("engine/mechanisms/gdp.py", 'GDP_FAMILIES = ("flat", "sphere", "hyperbolic", "real-projective")'),
    ("engine/mechanisms/laplace.py", "RADIAL_LAWS = {"),
    ("tests/engine/mechanisms/test_riemannian_gaussian.py",
     'jac = {"sphere": lambda r: np.sin(r) ** (d - 1), "hyperbolic": lambda r: np.sinh(r) ** (d - 1),'),
    ("engine/mechanisms/laplace.py", 'METHODS = ("exact", "mh")'),
    ("ui/samplers/compute.py", 'return {"exact": exact, "mh": mh, "trace": trace_fig, "trace_data": trace_data, '
                               '"radii": result.radii()}'),
    # One case of a table: the value set on one page and the other page's default.
    ("tests/app/pages/test_shared_keys.py", '("space", SENSITIVITY, "spd", SAMPLERS, {}, "sphere"),'),
    # Oracles worked out by hand for each space or mechanism they name (a new one brings its own in its tests).
    ("tests/engine/mechanisms/test_euclidean_baselines.py",
     'expected = {"sphere": 1.0, "spd": 1.0, "kendall": 1.0, "hyperbolic": 2.0, "grassmann": 1 / np.sqrt(2)}'),
    ("tests/engine/pipelines/test_who_wins_map.py", '@pytest.mark.parametrize("which", ["sphere", "spd"])'),
    ("tests/app/utility/test_page.py", 'sigmas = {"exact": figure1_setting.sensitivity_constant(setting, "theorem") '
                                  '/ (n * epsilon),'),
    # Two laws calibrated from the same Δ, contrasted.
    ("tests/engine/mechanisms/test_specs.py", '@pytest.mark.parametrize("key", ["exact", "rgauss"])'),
    # The mechanisms of a fixture's or a preset's run, not a list of the registry.
    ("tests/engine/mechanisms/test_specs.py",
     'runs = [private_mean.MechanismRun(key=key, label=key, releases=np.zeros((1, 3))) for key in ("rgauss", "euclid")]'),
    ("tests/engine/pipelines/test_utility.py", 'summary = pd.DataFrame({"n": [10, 10, 20, 20], '
                                              '"mechanism": ["exact", "euclid"] * 2,'),
    ("tests/engine/viz/test_palette.py", 'keys = ["exact", "euclid", "dp-rgd"]'),
    ("tests/app/lesson/test_page.py", 'loser = ({"exact", "euclid"} - {winner}).pop()'),
    ("tests/app/test_reproduce_pages.py", 'f"{_mechanism(p, key)[\'errors\'][\'geodesic\']:.3g}" '
                                          'for key in ("exact", "euclid")],'),
}


def _code() -> list[Path]:
    return [ROOT / "app.py", *(ROOT / "pages").rglob("*.py"), *(ROOT / "engine").rglob("*.py"),
            *(ROOT / "ui").rglob("*.py")]


def _offenders() -> list[str]:
    found = []
    for path in _code():
        name = path.relative_to(ROOT).as_posix()
        if name.startswith(("engine/spaces/", "ui/spaces/", *APPLICATION_FILES)):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if KEYED.search(line) and (name, line.strip()) not in ALLOWED:
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def _settings(tree: ast.AST) -> set[int]:
    """Literals that are a run's chosen settings or an expected value, not a list to iterate: keyword arguments'
    and dict values (``mechanisms=("exact", "euclid")``, ``{"space": "spd"}``) and the sides of a comparison
    other than a membership test (``== ["exact", "euclid"]``)."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword):
            ids.add(id(node.value))
        elif isinstance(node, ast.Dict):
            ids.update(id(value) for value in node.values)
        elif isinstance(node, ast.Compare) and not any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            ids.update(id(side) for side in (node.left, *node.comparators))
    return ids


def _docstrings(tree: ast.AST) -> set[int]:
    """Docstrings, which name spaces as prose (the families a sampler covers), not as a list the code reads."""
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def literal_lists(source: str, *vocabularies) -> list[tuple[int, list[str]]]:
    """(line, names) of every tuple, list, set or dict literal, and every call's positional arguments, holding
    two or more names of one of ``vocabularies`` (a run's settings excepted, ``_settings``), and of every string
    that lists two of them, comma-separated (an expected message written out)."""
    tree = ast.parse(source)
    settings, docstrings = _settings(tree), _docstrings(tree)
    listed = [re.compile(rf"\b({'|'.join(map(re.escape, names))}), ({'|'.join(map(re.escape, names))})\b")
              for names in vocabularies]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found += [(node.lineno, list(hit.groups())) for pattern in listed if (hit := pattern.search(node.value))]
            continue
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and id(node) not in settings:
            elements = node.elts
        elif isinstance(node, ast.Dict) and id(node) not in settings:
            elements = [key for key in node.keys if key is not None]
        elif isinstance(node, ast.Call):
            elements = node.args
        else:
            continue
        strings = [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        for names in vocabularies:
            hits = [value for value in strings if value in names]
            if len(hits) >= 2:
                found.append((node.lineno, hits))
    return found


def _list_offenders() -> list[str]:
    found = []
    for path in [*_code(), *(ROOT / "tests").rglob("*.py")]:
        name = path.relative_to(ROOT).as_posix()
        if name.startswith(("engine/spaces/", "ui/spaces/", "engine/mechanisms/specs/", "tests/browser/axe/")):
            continue
        source = path.read_text()
        lines = source.splitlines()
        for number, hits in literal_lists(source, set(SPACES), set(specs.SPECS)):
            if (name, lines[number - 1].strip()) not in LISTS_ALLOWED:
                found.append(f"{name}:{number}: {hits}: {lines[number - 1].strip()}")
    return found


def test_no_table_or_branch_keyed_by_a_space_name_outside_the_space_modules():
    assert _offenders() == []


def test_no_literal_list_of_spaces_or_mechanisms_in_the_code_or_the_tests():
    assert _list_offenders() == []


def test_the_pattern_finds_what_it_is_for():
    assert KEYED.search('RANGES = {"sphere": (0.05, 1.5)}') and KEYED.search('if space == "spd":')
    assert KEYED.search('if space in ("sphere", "kendall"):') and KEYED.search('if app != "hyperbolic":')
    assert not KEYED.search('space: str = "sphere"')


def test_the_list_finder_finds_tuples_in_calls_and_leaves_a_runs_settings():
    names = {"alpha", "beta", "gamma"}
    for listed in ('fixed("line", "alpha", "beta")', 'for s in ("beta", "gamma"): pass',
                   '@pytest.mark.parametrize("space", ["alpha", "beta"])\ndef f(space): pass',
                   'f(("alpha", "beta"))', 'x = {"alpha": 1, "beta": 2}', 'ok = space in ("beta", "gamma")',
                   'pytest.raises(ValueError, match="space must be one of alpha, beta, got x")'):
        assert literal_lists(listed, names), listed
    for setting in ('run(spaces=("alpha", "beta"))', 'p = {"a": ["alpha", "beta"]}', 'assert x == ["alpha", "beta"]',
                    'f("alpha")', 'f("alpha", "other")'):
        assert literal_lists(setting, names) == [], setting
