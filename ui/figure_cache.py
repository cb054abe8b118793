"""``st.cache_data`` for functions that build plotly figures, without plotly's validation on every hit.

``st.cache_data`` pickles what it keeps, and a pickled ``go.Figure`` comes back through
``go.Figure(fig.to_dict())``, which validates every property again, its template's included: 23–29 ms
for the playground's sphere and 6–10 ms for a small 2D chart, on every rerun that reads the cache (74 ms
of Sensitivity's 148 ms script run, py-spy on the app server). :func:`cache_figures` keeps each figure's
dict, validated once when the figure was built, and hands back ``go.Figure(props, _validate=False)``
(about 2 ms for the sphere): the same figure, with the same JSON.

Where every session shows the same figure unchanged, :func:`cache_figure_json` keeps its JSON instead
(``ui.live_chart.FigureJSON``, serialised once), which ``live_chart`` sends as it is: no figure is rebuilt
and no JSON written on a rerun that reads it.

A returned figure has plotly's validation off, so that its properties are not checked a second time;
properties set on it later are not checked either, so code that edits a cached figure adds validated
objects (``go.Frame``, ``go.Scatter``, ...) rather than raw dicts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import plotly.graph_objects as go
import streamlit as st

from ui.live_chart import FigureJSON, figure_json


@dataclass(frozen=True)
class _StoredFigure:
    """What the cache keeps of a figure: its dict and the subplot grid that ``make_subplots`` set up."""

    props: dict
    grid_ref: list | None
    grid_str: str | None

    @classmethod
    def of(cls, figure: go.Figure) -> _StoredFigure:
        return cls(figure.to_dict(), figure._grid_ref, figure._grid_str)

    def figure(self) -> go.Figure:
        figure = go.Figure(self.props, _validate=False)
        figure._grid_ref, figure._grid_str = self.grid_ref, self.grid_str
        return figure


def _each(value, kind, convert):
    """``value`` with ``convert`` applied to every ``kind`` in it (itself, or inside tuples, lists and dicts)."""
    if isinstance(value, kind):
        return convert(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_each(item, kind, convert) for item in value)
    if isinstance(value, dict):
        return {key: _each(item, kind, convert) for key, item in value.items()}
    return value


def cache_figures(*, max_entries: int):
    """Decorator: ``build(*args, **kwargs)`` cached by ``st.cache_data`` (arguments hashed as Streamlit
    hashes them, ``show_spinner=False``); figures in what it returns (alone, or in tuples, lists and
    dicts) come back as new figures on every call, other values as ``st.cache_data`` returns them."""

    def decorate(build):
        def kept(*args, **kwargs):
            return _each(build(*args, **kwargs), go.Figure, _StoredFigure.of)

        # Streamlit keys the cache by the function's module, qualified name and source, and names the
        # hashed arguments from its signature: all three follow ``__wrapped__`` to ``build``.
        kept = st.cache_data(max_entries=max_entries, show_spinner=False)(functools.update_wrapper(kept, build))

        @functools.wraps(build)
        def cached(*args, **kwargs):
            return _each(kept(*args, **kwargs), _StoredFigure, _StoredFigure.figure)

        cached.clear = kept.clear
        return cached

    return decorate


def cache_figure_json(*, max_entries: int):
    """Decorator: ``build(*args, **kwargs)``, a function that returns one figure, becomes a function that
    returns that figure's ``FigureJSON``, built and serialised once per arguments (hashed as Streamlit hashes
    them) and shared by every session (``st.cache_resource``: the text is immutable, so it is handed out as
    it is, not copied)."""

    def decorate(build):
        def serialised(*args, **kwargs) -> FigureJSON:
            return figure_json(build(*args, **kwargs))

        return st.cache_resource(max_entries=max_entries, show_spinner=False)(
            functools.update_wrapper(serialised, build))

    return decorate
