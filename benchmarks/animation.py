"""Per-frame time of the playground's ε animation in headless Chromium (``benchmarks.pages``)."""

from benchmarks.pages import run_animation as run

__all__ = ["run"]
