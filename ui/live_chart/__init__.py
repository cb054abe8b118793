"""A plotly chart that Streamlit updates in place: one persistent ``Plotly.react`` target per key.

``st.plotly_chart`` (Streamlit 1.67) draws a changed figure on a new chart element, so every rerun
builds a 3D scene's WebGL context again (about 1.5 s for the playground's sphere in software
rendering). :func:`live_chart` is a Streamlit custom component (components API v1) whose iframe
holds one ``<div>``: ``Plotly.newPlot`` draws it on the first render and ``Plotly.react`` updates it
afterwards, keeping the div and its WebGL context, and (``layout.uirevision``) what the user changed
where the new figure leaves that setting as before (hidden legend entries, zoom; the sphere's camera
follows the figure, which aims it at the releases). Animation frames (``fig.frames``, slider and play
buttons) travel with the figure; frames that only move the points of a 3D scene with fixed axes are
shown by updating those points' WebGL objects and rendering the scene once (``frontend/frames3d.js``),
not by plotly's full redraw of the figure, and WebGL draws at the screen's pixel ratio. With ``keep_seen``
the iframe also keeps the figures it showed last drawn, hidden, and shows one again without drawing it.

plotly.js is the ``plotly.min.js`` of the installed ``plotly`` package, copied (or hard-linked) on
import into the running app's ``static/`` folder and next to ``frontend/index.html``; nothing is
fetched from a CDN and the copies are not part of the repository (``.gitignore``). The iframe loads
the first (``server.enableStaticServing``, in ``.streamlit/config.toml``): Streamlit sends static
files with ``ETag`` and ``Last-Modified``, so the browser keeps the 4.8 MB script and its compiled
code between visits, whereas a component's own files come without either and are fetched and
compiled again on every visit (0.3–1 s here). The copy in the component's folder is the fallback
when static serving is off.
"""

from __future__ import annotations

import os
import shutil
from copy import deepcopy
from pathlib import Path

import plotly
import plotly.graph_objects as go
import streamlit.components.v1 as components
from _plotly_utils.utils import convert_to_base64
from plotly.io.json import to_json_plotly
from streamlit.runtime.scriptrunner import get_script_run_ctx

FRONTEND = Path(__file__).with_name("frontend")
PLOTLY_JS = Path(plotly.__file__).with_name("package_data") / "plotly.min.js"


def _provide_plotly_js(source: Path = PLOTLY_JS, folder: Path = FRONTEND) -> Path:
    """Put the installed package's ``plotly.min.js`` into ``folder`` unless an identical copy is there.

    Streamlit serves a component's files only from inside its folder (a symbolic link that leaves it
    is refused), so the file is hard-linked, or copied where a link is impossible. The new file is
    written under a temporary name and renamed, so concurrent servers never serve half a file.

    Returns
    -------
    Path
        The file inside ``folder``.
    """
    folder.mkdir(exist_ok=True)
    target = folder / source.name
    wanted = source.stat()
    if target.exists():
        have = target.stat()
        if (have.st_size, int(have.st_mtime)) == (wanted.st_size, int(wanted.st_mtime)):
            return target
    partial = folder / f".{source.name}.{os.getpid()}"
    try:
        os.link(source, partial)
    except OSError:
        shutil.copy2(source, partial)
    os.replace(partial, target)
    return target


def _app_static_folder() -> Path | None:
    """The ``static/`` folder Streamlit serves for the running app (None outside a script run)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    return None if ctx is None else Path(ctx.main_script_path).resolve().parent / "static"


_provide_plotly_js()
if _app_static_folder() is not None:
    _provide_plotly_js(folder=_app_static_folder())
_component = components.declare_component("live_chart", path=str(FRONTEND))

#: Options of a chart drawn as its figure was built (no Streamlit theme), without plotly's logo:
#: ``live_chart(fig, key=..., **PLAIN_CHART)`` or ``st.plotly_chart(fig, key=..., **PLAIN_CHART)`` alike.
PLAIN_CHART = {"theme": None, "config": {"displaylogo": False}}


#: How plotly's JSON of a figure begins: its list of traces comes first.
_DATA = '{"data":'


class FigureJSON(str):
    """A figure as plotly's JSON text (``figure_json``), which ``live_chart`` sends as it is: a figure that
    many sessions show is serialised once (``ui.figure_cache.cache_figure_json``), not on every rerun.
    ``data_end`` is the offset of the ``]`` that closes its list of traces, where ``with_traces`` adds more."""

    data_end: int

    def __new__(cls, text: str, data_end: int) -> FigureJSON:
        made = super().__new__(cls, text)
        made.data_end = data_end
        return made

    def with_traces(self, traces) -> FigureJSON:
        """This figure with ``traces`` (plotly trace objects) drawn after its own; only they are serialised."""
        specs = [deepcopy(trace.to_plotly_json()) for trace in traces]
        convert_to_base64(specs)  # as ``go.Figure.to_dict`` does
        added = to_json_plotly(specs)[1:-1]
        if not added:
            return self
        if self[self.data_end - 1] != "[":
            added = "," + added
        return FigureJSON(self[:self.data_end] + added + self[self.data_end:], self.data_end + len(added))


def figure_json(figure: go.Figure) -> FigureJSON:
    """The figure as plotly's JSON (arrays in plotly 7's ``{"dtype", "bdata"}`` encoding), frames included;
    the same text as ``plotly.io.to_json(figure, validate=False)``."""
    if not isinstance(figure, go.Figure):
        raise ValueError(f"figure must be a plotly.graph_objects.Figure, got {type(figure).__name__}")
    spec = figure.to_dict()
    for trace in spec["data"]:
        trace.pop("uid", None)
    traces = to_json_plotly(spec.pop("data"))
    rest = to_json_plotly(spec)
    return FigureJSON(_DATA + traces + ("}" if rest == "{}" else "," + rest[1:]), len(_DATA) + len(traces) - 1)


def live_chart(figure: go.Figure | FigureJSON, *, key: str, config: dict | None = None, theme: str | None = "streamlit",
               report_drawn: bool = False, fit: bool = False, fit_keep: str | None = None, keep_seen: int = 0) -> None:
    """Show ``figure`` in a chart that later reruns update in place (``Plotly.react``).

    Parameters
    ----------
    figure : go.Figure or FigureJSON
        The figure, with its ``frames`` if it is animated, or its JSON from ``figure_json`` (sent as it is).
    key : str
        Streamlit key: the element keeps its identity (and its WebGL context) across reruns while the
        key stays the same, whatever the figure.
    config : dict, optional
        plotly.js configuration (``{"displaylogo": False}``, ...); ``responsive`` is always on.
    theme : "streamlit" or None
        As in ``st.plotly_chart``, so that a page switches between the two by the function's name alone:
        "streamlit" styles the figure as its default theme does (the app's fonts, font sizes, text and
        background colours override the figure's template, settings on its own layout still win, the
        title is bold); None draws the figure as it is.
    report_drawn : bool
        The browser sets the chart's value once this figure is drawn (or failed to draw), which reruns
        the page: the chart-first run of ``ui.first_paint``.
    fit : bool
        Draw the chart no taller than the room between its top and the bottom of the browser's window when
        the page is scrolled to its top (presenter mode, ``ui.presenter``), and refit it when the window
        is resized; the figure's height stays the most it takes.
    fit_keep : str, optional
        With ``fit``, a CSS selector of an element of the page below the chart that must fit the window too
        (a question): the chart takes all the room between its top and that element, taller than the figure's
        height in a tall window, and refits whenever the page below it changes.
    keep_seen : int
        How many figures shown before stay drawn beside the shown one, each on its own hidden plotly div
        (and WebGL context, if 3D): a figure shown again (same JSON, theme and ``fit``) is made visible as
        it was left, camera and zoom included, instead of drawn again; a new one is drawn on the div of the
        figure shown least recently. 0: one div, updated by ``Plotly.react``.
    """
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a non-empty string, got {key!r}")
    if theme not in ("streamlit", None):
        raise ValueError(f'theme must be "streamlit" or None, as for st.plotly_chart, got {theme!r}')
    if isinstance(keep_seen, bool) or not isinstance(keep_seen, int) or keep_seen < 0:
        raise ValueError(f"keep_seen must be a whole number ≥ 0 (figures kept drawn), got {keep_seen!r}")
    text = figure if isinstance(figure, FigureJSON) else figure_json(figure)
    _component(figure=text, config=dict(config or {}), theme=theme is not None,
               report=bool(report_drawn), fit=bool(fit), fit_keep=fit_keep or "", keep=keep_seen + 1, key=key,
               default=None)
