"""One view per space (``ui.spaces``): a space of the engine's registry without one fails at import."""

import dataclasses
import importlib

import numpy as np
import pytest

from engine import spaces
from ui import spaces as views
from ui.spaces import registry


def test_every_space_has_its_view_in_the_registry_order():
    assert list(views.VIEWS) == list(spaces.SPACES)
    for key, view in views.VIEWS.items():
        entry = spaces.space(key)
        assert view.key == key and view.caption and view.error_note
        low, high, step = view.radius_slider
        assert 0 < low < entry.default_radius < high and step > 0
        assert (view.volume_tex is not None) == spaces.offered(entry.sampler)
        assert (view.figure1 is not None) == spaces.offered(entry.recipe)


def test_the_coordinates_of_a_download_name_one_column_per_coordinate(every_space):
    for key, manifold in every_space(5).items():
        points = manifold.random_point(4, np.random.default_rng(0))
        columns = views.VIEWS[key].coordinates(points)
        assert columns and all(np.shape(column) == (4,) for column in columns.values()), key


def test_a_space_without_a_view_fails_naming_its_key():
    extra = dataclasses.replace(spaces.space("hyperbolic"), key="torus")
    with pytest.raises(ImportError, match="space 'torus' of engine.spaces has no view: add ui/spaces/torus.py"):
        registry.views_for({**spaces.SPACES, "torus": extra}, registry._DEFINED)


def test_the_check_runs_when_ui_spaces_is_imported(monkeypatch):
    extra = dataclasses.replace(spaces.space("hyperbolic"), key="torus")
    monkeypatch.setattr(spaces, "SPACES", {**spaces.SPACES, "torus": extra})
    with pytest.raises(ImportError, match="space 'torus' of engine.spaces has no view"):
        importlib.reload(registry)
    monkeypatch.undo()
    importlib.reload(registry)
    assert list(registry.VIEWS) == list(spaces.SPACES)


def test_a_view_must_carry_what_its_entry_offers():
    without_volume = [dataclasses.replace(view, volume_tex=None) if view.key == "hyperbolic" else view
                      for view in registry._DEFINED]
    with pytest.raises(ImportError, match="space .hyperbolic. offers the sampler comparison, but its view has no "
                                          "volume_tex"):
        registry.views_for(spaces.SPACES, without_volume)
    stray = [*registry._DEFINED, dataclasses.replace(registry._DEFINED[0], key="torus")]
    with pytest.raises(ImportError, match="view of 'torus', which is not a space of engine.spaces"):
        registry.views_for(spaces.SPACES, stray)
