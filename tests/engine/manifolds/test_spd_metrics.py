"""One class per SPD metric: the factory ``SPD(k, metric)``, each registered metric's own identities
on random points (a new metric is tested by registering it), and no metric branches in the SPD code."""

import ast
import copy
import pickle
from pathlib import Path

import numpy as np
import pytest

from engine.manifolds import spd
from engine.manifolds.spd import METRIC_CLASSES, SPD


@pytest.mark.parametrize("metric", sorted(METRIC_CLASSES))
@pytest.mark.parametrize("k", [2, 3, 4])
def test_each_metric_satisfies_its_own_identities(metric, k):
    manifold = SPD(k, metric=metric)
    x, y = manifold.random_point(40, 1), manifold.random_point(40, 2)
    v = manifold.log(x, y)
    np.testing.assert_allclose(manifold.exp(x, v), y, rtol=1e-9, atol=1e-9)
    d = manifold.dist(x, y)
    np.testing.assert_allclose(d, manifold.norm(x, v), rtol=1e-9)
    np.testing.assert_allclose(d, manifold.dist(y, x), rtol=1e-9)
    assert (d > 0).all()
    np.testing.assert_allclose(manifold.dist(x, x), 0.0, atol=1e-7)
    np.testing.assert_allclose(manifold.log(x, x), 0.0, atol=1e-9)
    # The inner product and the tangent basis read the same eigen-frame scale: the basis is orthonormal.
    basis = manifold.tangent_basis(x[:3])
    gram = manifold.inner(x[:3, None, None], basis[:, :, None], basis[:, None, :])
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(manifold.dim), gram.shape), atol=1e-9)


@pytest.mark.parametrize("metric", sorted(METRIC_CLASSES))
def test_factory_returns_the_metric_class_and_survives_pickling(metric):
    manifold = SPD(3, metric)
    assert type(manifold) is METRIC_CLASSES[metric] and isinstance(manifold, SPD)
    assert manifold.metric == metric and repr(manifold) == f"SPD(3, {metric})"
    assert type(METRIC_CLASSES[metric](3)) is type(manifold)
    for copied in (pickle.loads(pickle.dumps(manifold)), copy.deepcopy(manifold)):
        assert type(copied) is type(manifold) and copied.name == manifold.name
        np.testing.assert_array_equal(copied.dist(np.eye(3), 2.0 * np.eye(3)), manifold.dist(np.eye(3), 2.0 * np.eye(3)))


def test_factory_defaults_to_affine_and_refuses_a_conflicting_metric():
    assert type(SPD(2)) is METRIC_CLASSES["affine"]
    with pytest.raises(ValueError, match="'log-euclidean'.*SPD\\(k, metric='log-euclidean'\\)"):
        METRIC_CLASSES["affine"](2, metric="log-euclidean")
    with pytest.raises(ValueError, match=r"one of \('affine', 'bures-wasserstein', 'log-euclidean'\), got \['x'\]"):
        SPD(2, metric=["x"])


def _compares_metric(node: ast.AST) -> bool:
    """``metric``/``x.metric`` compared by value (``==``, ``!=``, ``in``, ``not in``; ``is None`` is no branch)."""
    if not isinstance(node, ast.Compare) or not any(isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops):
        return False
    return any((isinstance(o, ast.Name) and o.id == "metric") or (isinstance(o, ast.Attribute) and o.attr == "metric")
               for o in [node.left, *node.comparators])


def test_spd_code_has_no_metric_branches():
    """Each metric owns its geometry in its class: no ``metric ==``/``self.metric !=``/``metric in`` tests."""
    package = getattr(spd, "__path__", None)
    sources = sorted(Path(package[0]).glob("*.py")) if package else [Path(spd.__file__)]
    found = [f"{path.name}:{node.lineno}" for path in sources
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if _compares_metric(node)]
    assert found == []
