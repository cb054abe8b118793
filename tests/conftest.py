"""Suite-wide pytest set-up: the xdist groups of ``make test``'s ``--dist loadgroup``."""

from __future__ import annotations

import pytest

#: The xdist group of every test marked ``browser``. Under ``--dist loadgroup`` one worker runs them all, on one
#: Streamlit server and one Chromium (``tests/browser/conftest.py``'s session fixtures) whose caches stay warm
#: from view to view; xdist hands this largest unit out first, and every other test is a unit of its own that
#: goes to whichever worker is free, so both workers finish within about one test of each other.
BROWSER_GROUP = "browser"


def _module_fixture_group(item) -> str | None:
    """The group of a test that uses a module-scoped fixture (a page run, a built Lesson pack, a server): one per
    module, so the fixture is built once, not once on each worker that draws one of the module's tests."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    scopes = {fixturedef.scope for name in info.names_closure for fixturedef in info.name2fixturedefs.get(name, ())}
    return f"module fixtures of {item.module.__name__}" if "module" in scopes else None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Put every browser test into ``BROWSER_GROUP`` and every test of a module-scoped fixture into its module's
    group, unless the test names its own group (before xdist reads the groups; xdist's marker exists only when
    xdist is loaded)."""
    if not config.pluginmanager.has_plugin("xdist"):
        return
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        group = BROWSER_GROUP if item.get_closest_marker("browser") else _module_fixture_group(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def every_space():
    """Every space of the registry (``engine.spaces.SPACES``), built, in the registry's order.

    ``every_space(k)`` maps each key to its manifold, with ``k`` landmarks where the space has them (default
    ``engine.spaces.DEFAULT_LANDMARKS``); it reads the registry when called, so a space a test adds is built too.
    """
    from engine import spaces

    def build(k: int = spaces.DEFAULT_LANDMARKS) -> dict:
        return {key: spaces.make_manifold(key, k) for key in spaces.SPACES}

    return build
