"""The high-resolution image of the sphere view for slides, rendered off screen by pyvista behind a
button that says why when this machine cannot render."""

from __future__ import annotations

import threading

import streamlit as st

from engine.pipelines.private_mean import PrivateMeanConfig
from engine.viz.export import offscreen_rendering_available, scene_png
from engine.viz.sphere import ball_boundary
from ui.playground.compute import private_means
from ui.spaces import clouds


class _RendererProbe:
    """Runs ``offscreen_rendering_available`` once in a background thread (it takes seconds)."""

    def __init__(self):
        self.result: tuple[bool, str] | None = None
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        """Store the probe's answer (runs in the background thread)."""
        self.result = offscreen_rendering_available()


@st.cache_resource(show_spinner=False)
def _renderer_probe() -> _RendererProbe:
    """The process-wide probe, started on first use."""
    return _RendererProbe()


@st.cache_data(max_entries=4, show_spinner=False)
def slides_png(settings: PrivateMeanConfig) -> bytes:
    """1600×1200 PNG of the sphere view rendered off screen by pyvista."""
    result = private_means(settings)
    points = {"data": result.data, **clouds(result), "true mean": result.mean[None]}
    return scene_png(points=points, center=result.m0,
                     curves={"boundary": ball_boundary(result.m0, settings.radius)})


def slides_button(settings: PrivateMeanConfig) -> None:
    """A button that renders the sphere view for slides, disabled with the reason when it cannot.

    While the renderer probe runs (the first visit after the server started), the button is drawn in a
    fragment that redraws itself every 2 s, so it turns usable once the probe has answered without running
    the rest of the page again: what a run shows once (a preset's note, a warning about the address) stays.
    """
    probe = _renderer_probe()
    st.fragment(_slides_button, run_every=2.0 if probe.result is None else None)(probe, settings)


def _slides_button(probe: _RendererProbe, settings: PrivateMeanConfig) -> None:
    """The button as far as the probe knows: disabled while it runs or when rendering is unavailable."""
    if probe.result is None:
        st.button("High-resolution image for slides", key="pg-slides-pending", disabled=True,
                  help="Checking whether this machine can render off screen (a few seconds after the first visit).")
        return
    available, reason = probe.result
    if not available:
        st.button("High-resolution image for slides", key="pg-slides", disabled=True,
                  help=f"Off-screen rendering with pyvista is unavailable here: {reason}")
        return
    if st.button("High-resolution image for slides", key="pg-slides",
                 help="Renders a 1600×1200 PNG of the sphere with pyvista (about 5 s the first time)."):
        try:
            with st.spinner("Rendering the sphere off screen…"):
                png = slides_png(settings)
        except RuntimeError as err:
            st.error(f"Cannot render the high-resolution image: {err}")
            return
        st.download_button("Download the 1600×1200 PNG", png, f"playground-{settings.space}-slides.png",
                           "image/png", key="dl-slides", on_click="ignore",
                           help="A poster-resolution rendering of the data, the ball and the release clouds.")
