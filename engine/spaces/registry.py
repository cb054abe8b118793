"""The spaces the tool offers, in the order the pages offer them: one line per space module."""

from __future__ import annotations

from engine.spaces import grassmann, hyperbolic, kendall, spd, sphere
from engine.spaces.entry import DEFAULT_LANDMARKS, SpaceEntry, offered
from engine.validation import check_int

SPACES: dict[str, SpaceEntry] = {entry.key: entry for entry in (
    sphere.ENTRY,
    spd.ENTRY,
    hyperbolic.ENTRY,
    kendall.ENTRY,
    grassmann.ENTRY,
)}


def space(key: str) -> SpaceEntry:
    """The registry entry of ``key``; ``ValueError`` naming the known keys otherwise."""
    try:
        return SPACES[key]
    except (KeyError, TypeError):
        raise ValueError(f"space must be one of {', '.join(SPACES)}, got {key!r}") from None


def make_manifold(key: str, k: int = DEFAULT_LANDMARKS):
    """The engine's manifold of the space ``key`` (``k`` landmarks for Kendall).

    ``k`` is checked on every space (an integer >= 3, as Kendall's), although only Kendall uses it: a
    ``k = 0`` given with another space is a mistake to report, not a value to ignore.
    """
    entry = space(key)
    check_int("k", k, minimum=3)
    return entry.make(k)


#: The spaces whose Laplace samplers the sampler study and the Samplers page compare, by key, built
#: with their sampler setting's landmarks.
SAMPLER_SPACES = {key: entry.make(entry.sampler.landmarks) for key, entry in SPACES.items() if offered(entry.sampler)}
