"""Audit page helpers: sidebar controls, the cached audit run, and its views."""

from ui.audit.compute import audit
from ui.audit.controls import Settings, sidebar, space_name
from ui.audit.views import show

__all__ = ["Settings", "audit", "show", "sidebar", "space_name"]
