"""Audit page helpers: sidebar controls, the cached audit run, and its views."""

from ui.audit.compute import audit
from ui.audit.controls import Settings, sidebar, space_name
from ui.audit.views import show


def controls_spaces(name: str) -> tuple[str, ...]:
    """The spaces the named control runs on."""
    from engine.audit import AUDITS

    return AUDITS[name].spaces

__all__ = ["Settings", "audit", "controls_spaces", "show", "sidebar", "space_name"]
