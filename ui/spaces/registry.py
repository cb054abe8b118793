"""The view of every space of ``engine.spaces``: one line per view module.

A space of the engine's registry without a view, or whose view misses what its entry offers (the
Samplers page's volume density, the Figure 1 pages' settings), fails here at import with an error
naming the key.
"""

from __future__ import annotations

from engine import spaces
from ui.spaces import grassmann, hyperbolic, kendall, spd, sphere
from ui.spaces.view import SpaceView

_DEFINED = (
    sphere.VIEW,
    spd.VIEW,
    hyperbolic.VIEW,
    kendall.VIEW,
    grassmann.VIEW,
)


def views_for(entries: dict, defined) -> dict[str, SpaceView]:
    """The views of ``entries`` (key → ``SpaceEntry``) in their order, from the ``defined`` views.

    Raises ``ImportError`` naming the first key without a view, a view without an entry, or a view
    missing the volume density or Figure 1 settings its entry offers.
    """
    by_key = {view.key: view for view in defined}
    for key in by_key:
        if key not in entries:
            raise ImportError(f"ui.spaces has a view of {key!r}, which is not a space of engine.spaces "
                              f"({', '.join(entries)})")
    for key, entry in entries.items():
        view = by_key.get(key)
        if view is None:
            raise ImportError(f"space {key!r} of engine.spaces has no view: add ui/spaces/{key}.py defining VIEW "
                              f"and list it in ui/spaces/registry.py")
        if spaces.offered(entry.sampler) and view.volume_tex is None:
            raise ImportError(f"space {key!r} offers the sampler comparison, but its view has no volume_tex")
        if spaces.offered(entry.recipe) and view.figure1 is None:
            raise ImportError(f"space {key!r} has the paper's recipe, but its view has no figure1 settings")
    return {key: by_key[key] for key in entries}


VIEWS = views_for(spaces.SPACES, _DEFINED)


def view(key: str) -> SpaceView:
    """The view of the space ``key``; ``ValueError`` naming the known keys otherwise."""
    spaces.space(key)
    return VIEWS[key]
