"""The one registry of spaces (``engine.spaces``): what it declares and who reads it."""

import dataclasses

import numpy as np
import pytest

from engine import spaces
from engine.manifolds import SPD, Euclidean, Hyperbolic, Kendall, Sphere
from engine.pipelines.sources import DRAWS, SOURCES
from engine.pipelines.summary import plain


def test_every_data_source_of_the_registry_has_a_draw():
    assert set(DRAWS) == {(key, source) for key, entry in spaces.SPACES.items() for source in entry.sources}
    assert SOURCES == {key: entry.sources for key, entry in spaces.SPACES.items()}


def test_the_sidebar_and_the_playground_offer_the_registry_spaces():
    from ui import controls
    from ui.playground.spaces import SPACES as PLAYGROUND

    assert list(controls.SPACES) == list(PLAYGROUND) == list(spaces.SPACES)
    for key, entry in spaces.SPACES.items():
        spec = PLAYGROUND[key]
        assert controls.SPACES[key] == entry.short_label and len(entry.short_label) <= 30
        assert spec.sources == entry.sources and spec.default_source == next(iter(entry.sources))
        assert spec.radius[2] == entry.default_radius
        assert ("euclid" in spec.mechanisms) == entry.embedded_in_ambient


@pytest.mark.parametrize("key, embedded, r_e", [("sphere", True, 2 * np.sin(0.5)), ("spd", True, np.e - 1),
                                                ("grassmann", True, np.sqrt(2) * np.sin(1.0)),
                                                ("hyperbolic", True, np.tanh(0.5)), ("kendall", True, 2 * np.sin(0.5))])
def test_the_ambient_ball_is_declared_by_the_manifold(key, embedded, r_e):
    entry = spaces.space(key)
    assert entry.embedded_in_ambient is embedded
    if r_e is None:
        with pytest.raises(ValueError, match=f"space '{key}' states no ambient ball"):
            entry.ambient_radius_formula()
        return
    assert float(entry.make(12).ambient_ball_radius(1.0)) == pytest.approx(r_e)
    assert "r" in entry.ambient_radius_formula() and "1.000" in entry.ambient_radius_formula("1.000")


@pytest.mark.parametrize("manifold, is_open", [(Sphere(2), False), (SPD(2), True), (Hyperbolic(2), True),
                                               (Kendall(5), False), (Euclidean(3), True)])
def test_open_in_ambient_says_whether_ambient_releases_can_land_on_the_space(manifold, is_open):
    assert manifold.open_in_ambient is is_open
    rng = np.random.default_rng(0)
    ambient = manifold.to_ambient(manifold.random_point(200, rng)) + 0.1 * rng.standard_normal((200, manifold.ambient_dim))
    landed = manifold.belongs(manifold.from_ambient(ambient), atol=1e-9)
    assert landed.any() == is_open


def test_only_the_landmark_space_reads_k(every_space):
    five, eight = every_space(5), every_space(8)
    for key, entry in spaces.SPACES.items():
        assert five[key].dim == eight[key].dim or entry.landmarks, key
    assert spaces.space("kendall").landmarks and spaces.make_manifold("kendall", 5).point_shape == (5, 2)


def test_unknown_space_names_the_known_keys():
    with pytest.raises(ValueError, match=f"space must be one of {', '.join(spaces.SPACES)}, got 'torus'"):
        spaces.space("torus")


def test_plain_makes_summaries_json_ready():
    assert plain({"a": np.array([1.0, np.nan]), "b": (np.int64(2), np.inf), "c": np.float64(0.5)}) == \
        {"a": [1.0, None], "b": [2, None], "c": 0.5}
    with pytest.raises(TypeError, match="got <class 'object'>"):
        plain(object())


def _fields(entry) -> dict:
    return {field.name: getattr(entry, field.name) for field in dataclasses.fields(entry)}


@pytest.mark.parametrize("key", list(spaces.SPACES))
def test_every_entry_is_complete(key):
    """Every field is set, or NotOffered with a reason; what an entry offers works."""
    entry = spaces.space(key)
    for name, value in _fields(entry).items():
        assert value is not None, f"{key}.{name} is unset"
        if isinstance(value, spaces.NotOffered):
            assert len(value.reason.split()) >= 5, f"{key}.{name} is not offered without a reason: {value.reason!r}"
    assert entry.key == key and entry.label and 0 < len(entry.short_label) <= 30
    manifold = entry.make(spaces.DEFAULT_LANDMARKS)
    assert 0 < entry.default_radius < manifold.injectivity_radius
    assert entry.data_sources and all(source.label and callable(source.draw) for source in entry.data_sources.values())
    # The Euclidean baseline is offered exactly where the manifold states an ambient ball.
    assert spaces.offered(entry.ambient_radius_tex) == entry.embedded_in_ambient
    if spaces.offered(entry.recipe):
        data = entry.recipe.generate(5, entry.default_radius, 2, np.random.default_rng(0))
        assert data.shape == (2, 5, *manifold.point_shape) and entry.recipe.title and len(entry.recipe.panels) == 2
    if spaces.offered(entry.audit):
        assert entry.audit.make().name and entry.audit.radius > 0 and entry.audit.n >= 2
    if spaces.offered(entry.sampler):
        sampled = spaces.SAMPLER_SPACES[key]
        radii = entry.sampler.radii(sampled, entry.sampler.sigmas[0], 50, np.random.default_rng(0))
        shape, growth, support = entry.sampler.envelope(sampled)
        assert radii.shape == (50,) and np.all((radii >= 0) & (radii <= support)) and shape == sampled.dim
        assert growth >= 0 and len(entry.sampler.sigmas) == 2
    else:
        assert key not in spaces.SAMPLER_SPACES


def test_not_offered_needs_a_reason():
    with pytest.raises(ValueError, match="NotOffered needs a reason"):
        spaces.NotOffered("  ")


def test_the_studies_and_audits_read_their_settings_from_the_entries():
    from engine.audit import audit_spaces
    from engine.experiments.sampler_check import DEFAULT_SIGMAS
    from engine.pipelines import figure1_setting, sampler_comparison

    offering = {name: [key for key, entry in spaces.SPACES.items() if spaces.offered(getattr(entry, name))]
                for name in ("recipe", "audit", "sampler")}
    assert sorted(figure1_setting.RECIPES) == sorted(offering["recipe"])
    assert [p for recipe in figure1_setting.RECIPES.values() for p in recipe.panels] == [1, 2, 3, 4]
    assert [key for key in audit_spaces() if key in spaces.SPACES] == offering["audit"]
    assert list(sampler_comparison.SPACES) == offering["sampler"] == list(DEFAULT_SIGMAS)
    assert "grassmann" in offering["sampler"] + offering["audit"] and "grassmann" not in offering["recipe"]
