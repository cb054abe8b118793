"""One fixed colour-blind-safe colour, marker and line dash per mechanism, and the shared plotly layout.

Colours are the Okabe–Ito palette (Okabe & Ito, *Color Universal Design*, 2008), distinguishable
under the common forms of colour-vision deficiency and on a washed-out classroom projector. Each
key below keeps its colour on every page, so "Euclidean Laplace" is vermillion everywhere. Yellow
(#F0E442) is left out: it vanishes on a white background. "True mean" and "bound" share black but
never share a mark: the mean is a large diamond, the bound a dashed line. Hue is never the only
cue: every mechanism also has its own line dash (``MECHANISMS``) and, among the mechanisms drawn in one
chart (``CHART_GROUPS``), its own marker symbol: WebGL 3D scatters draw only seven. Once the eight
Okabe–Ito colours are taken, a mechanism takes one of Paul Tol's colour-blind-safe "muted" set (the
Riemannian Gaussian's wine, #882255), and ``engine.viz.colour_vision`` checks that every colour stays
apart from every other under normal vision, protanopia and deuteranopia.
"""

from __future__ import annotations

import re
from types import MappingProxyType

import plotly.graph_objects as go
import plotly.io as pio

from engine.mechanisms import specs

#: The mechanisms of the private-mean family sit between these entries, in their registry's order.
_BEFORE = ("data", "true mean")
_AFTER = ("dp-rgd", "non-private", "bound")


def _table(own: dict, field: str) -> MappingProxyType:
    """``own`` entries with the mechanisms' (``engine.mechanisms.specs``: their ``field``, under their key)."""
    rows = [(key, own[key]) for key in _BEFORE] + [(s.key, getattr(s, field)) for s in specs.REGISTRY]
    return MappingProxyType(dict(rows + [(key, own[key]) for key in _AFTER]))


#: Okabe–Ito colour for each key (lower case).
COLORS = _table({"data": "#999999", "true mean": "#000000", "dp-rgd": "#CC79A7", "non-private": "#E69F00",
                 "bound": "#000000"}, "color")

#: Legend label shown for each key.
LABELS = _table({"data": "Data", "true mean": "True mean (not private)", "dp-rgd": "DP-RGD",
                 "non-private": "Non-private", "bound": "Bound"}, "label")

#: Marker symbol for each key. Only symbols that WebGL 3D scatters draw from common fonts are
#: used (plotly draws ``"x"`` in 3D as the emoji ❌, a blank box without an emoji font).
SYMBOLS = _table({"data": "circle", "true mean": "diamond", "dp-rgd": "diamond-open", "non-private": "diamond",
                  "bound": "circle-open"}, "symbol")

#: Line dash for each key: plotly's named dashes, and dash lengths (2D charts only) where they run out.
DASHES = _table({"data": "dot", "true mean": "solid", "dp-rgd": "8px,3px,2px,3px,2px,3px",
                 "non-private": "2px,2px,8px,2px", "bound": "dash"}, "dash")

#: The keys that name a mechanism (not the data, the true mean or a bound): each has its own colour and dash.
MECHANISMS = tuple(key for key in COLORS if key not in _BEFORE + ("bound",))
#: Mechanisms that share charts (the private-mean family's scenes; the optimisation page's runs): within a
#: group each has its own symbol.
CHART_GROUPS = (tuple(s.key for s in specs.REGISTRY), ("dp-rgd", "non-private"))

#: A legend label (lower case) names its key too, e.g. ``"Euclidean Laplace"`` -> ``"euclid"``.
_BY_LABEL = MappingProxyType({label.lower(): key for key, label in LABELS.items()})

#: Symbol marking a point that breaks a constraint (outside the SPD cone, off the manifold).
VIOLATION_SYMBOL = "diamond-open"

FONT_FAMILY = "Inter, Helvetica, Arial, sans-serif"
FONT_SIZE = 16
TITLE_SIZE = 20


def known(name) -> bool:
    """Whether ``name`` is a palette key or legend label (case-insensitive)."""
    if not isinstance(name, str):
        return False
    key = name.strip().lower()
    return _BY_LABEL.get(key, key) in COLORS


def _key(name: str) -> str:
    if not isinstance(name, str):
        raise ValueError(f"a palette name must be a string, got {name!r}")
    key = name.strip().lower()
    key = _BY_LABEL.get(key, key)
    if key not in COLORS:
        known = ", ".join(repr(k) for k in COLORS)
        raise ValueError(f"no palette entry for {name!r}; known names are {known}")
    return key


def color(name: str) -> str:
    """Hex colour of a palette key or legend label (case-insensitive); ``ValueError`` for an unknown name.

    There is deliberately no fallback colour: a mechanism without an entry would get a different
    colour on different pages. Give it a spec (``engine.mechanisms.specs``) instead.
    """
    return COLORS[_key(name)]


def label(name: str) -> str:
    """Legend label of a palette key, e.g. ``"dp-rgd"`` -> ``"DP-RGD"``."""
    return LABELS[_key(name)]


def symbol(name: str) -> str:
    """Marker symbol of a palette key."""
    return SYMBOLS[_key(name)]


def dash(name: str) -> str:
    """Line dash of a palette key (plotly's ``line.dash``)."""
    return DASHES[_key(name)]


_SUBSCRIPT = re.compile(r"(?<=[^\s_])_(\{[^}]*\}|[^\W_]+)")


def chart_text(text: str) -> str:
    """A label as a chart shows it: TeX-style subscripts ``Δ_E``, ``w_t``, ``λ_{max}`` become plotly's
    ``<sub>…</sub>``, so no raw underscore reaches a title, an axis or a legend.

    Examples
    --------
    >>> chart_text("ambient Δ_E = 2r_E/n")
    'ambient Δ<sub>E</sub> = 2r<sub>E</sub>/n'
    """
    return _SUBSCRIPT.sub(lambda m: f"<sub>{m.group(1).strip('{}')}</sub>", str(text))


def rgba(hex_color: str, alpha: float) -> str:
    """``"#RRGGBB"`` -> ``"rgba(r, g, b, alpha)"`` for translucent fills.

    Raises
    ------
    ValueError
        If ``hex_color`` is not of the form ``#RRGGBB`` or ``alpha`` is outside [0, 1].
    """
    if not (isinstance(hex_color, str) and len(hex_color) == 7 and hex_color.startswith("#")):
        raise ValueError(f"hex_color must look like '#RRGGBB', got {hex_color!r}")
    try:
        r, g, b = (int(hex_color[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        raise ValueError(f"hex_color must look like '#RRGGBB', got {hex_color!r}") from None
    if not 0.0 <= float(alpha) <= 1.0:
        raise ValueError(f"alpha must lie in [0, 1], got {alpha!r}")
    return f"rgba({r}, {g}, {b}, {float(alpha):g})"


def _template() -> go.layout.Template:
    """Light theme with projector-sized fonts (≥ 14 px everywhere) and the palette as colorway.

    Every axis, 2D or 3D, writes large and small numbers as powers of ten (10⁻⁴, not plotly's SI
    prefix "100µ", which a class does not read as a number).
    """
    base = pio.templates["plotly_white"]
    numbers = dict(exponentformat="power", separatethousands=True)
    axis = dict(
        **numbers,
        title_font=dict(size=FONT_SIZE + 2),
        tickfont=dict(size=FONT_SIZE - 1),
        gridcolor="#E5E5E5",
        zerolinecolor="#BDBDBD",
        linecolor="#444444",
        showline=True,
        ticks="outside",
    )
    layout_copy = go.Layout(base.layout)  # a copy: the global plotly_white stays untouched
    return go.layout.Template(
        data=base.data,
        layout=layout_copy.update(
            font=dict(family=FONT_FAMILY, size=FONT_SIZE, color="#222222"),
            title=dict(font=dict(size=TITLE_SIZE), x=0.02, xanchor="left", xref="container"),
            colorway=[COLORS[k] for k in LABELS if k not in ("data", "true mean", "bound")],
            hoverlabel=dict(font=dict(size=FONT_SIZE - 1)),
            legend=dict(font=dict(size=FONT_SIZE - 1)),
            xaxis=axis,
            yaxis=axis,
            scene=dict(xaxis=numbers, yaxis=numbers, zaxis=numbers),
        ),
    )


#: The shared plotly template (built once; treat as read-only).
TEMPLATE = _template()


def layout(title: str | None = None, *, scene: bool = False, height: int = 600) -> go.Layout:
    """Shared layout: the template, a title, and a legend that never covers the data.

    The legend sits in its own horizontal strip below the plotting area, for 3D scenes too:
    a legend column beside a scene would halve its width on a projector; under a 2D chart it sits at the
    figure's bottom edge, below the x axis's title at any height.

    Parameters
    ----------
    title : str, optional
        Figure title.
    scene : bool
        True for a 3D figure (``go.Scatter3d``/``go.Mesh3d``): no axis margins are reserved.
    height : int
        Figure height in pixels.

    Returns
    -------
    go.Layout
    """
    legend = dict(orientation="h", x=0.0, xanchor="left", itemsizing="constant", traceorder="normal")
    # Under a 2D chart's axis title, the legend sits at the figure's bottom edge (in the bottom margin), not a
    # fraction of the plotting area's height below it: a chart fitted to a shorter window (``ui.live_chart``) kept
    # that fraction and its legend overlapped the x axis's title.
    legend.update(dict(y=-0.02, yanchor="top") if scene else dict(y=0.0, yref="container", yanchor="bottom"))
    top = 60 if title else 20
    margin = dict(l=10, r=10, t=top, b=90) if scene else dict(l=70, r=20, t=top + 10, b=110)
    return go.Layout(
        template=TEMPLATE,
        title=dict(text=title) if title else None,
        legend=legend,
        margin=margin,
        height=height,
    )
