"""One fixed colour-blind-safe look (colour, marker, line dash, marker rim) per mechanism, and the shared plotly layout.

Colours come from the Okabe–Ito palette (Okabe & Ito, *Color Universal Design*, 2008) and, once its eight
are taken, from Paul Tol's colour-blind-safe "muted" and "light" schemes and his bright scheme's dark variant (Tol,
*Colour Schemes*, SRON technical note SRON/EPS/TN/09-002, issue 3.2, 2021): ``COLOUR_SET``. Each key keeps its look on every page, so "Euclidean
Laplace" is vermillion everywhere, and each mechanism's spec (``engine.mechanisms.specs``) answers for its own.
"True mean" and "bound" share black but never share a mark: the mean is a large diamond, the bound a dashed line.

Hue is never the only cue. Every mechanism has its own line dash, and two looks drawn on one chart
(``CHART_GROUPS``, with the data and the true mean beside the private-mean family) are told apart
(``clashes``): their colours differ by ``MIN_DELTA_E`` (CIEDE2000, ``engine.viz.colour_vision``) in normal
vision, and under protanopia, deuteranopia and tritanopia too unless their markers differ: in symbol (WebGL 3D
scatters draw only the seven ``SYMBOLS_3D``) or in the second channel, a dark rim (``RIM``). Every colour keeps
``MIN_CONTRAST`` against the chart's ``BACKGROUND``. ``free_looks`` finds the looks still free for a new mechanism.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import plotly.graph_objects as go
import plotly.io as pio

from engine.mechanisms import specs
from engine.viz.colour_vision import contrast, delta_e, worst_delta_e

#: The chart background (the template's paper and plot colour).
BACKGROUND = "#FFFFFF"
#: Smallest CIEDE2000 ΔE₀₀ between two colours drawn on one chart: ten times a just-noticeable difference (about 1),
#: which every pair of the Okabe–Ito colours the mechanisms took keeps under every simulated vision (the closest,
#: reddish purple against orange for a tritanope, 10.9).
MIN_DELTA_E = 10.0
#: Smallest WCAG 2.1 contrast ratio of a mark's colour against ``BACKGROUND``. Okabe–Ito's yellow (1.3) fails it;
#: its orange (2.2) and sky blue (2.3) keep it but not WCAG's 3:1 for graphics (SC 1.4.11).
MIN_CONTRAST = 2.0
#: The symbols WebGL 3D scatters draw from common fonts (plotly draws ``"x"`` in 3D as the emoji ❌, a blank box
#: without an emoji font).
SYMBOLS_3D = ("circle", "circle-open", "square", "square-open", "diamond", "diamond-open", "cross")
#: The second channel of a marker: a mechanism whose spec sets ``rim`` draws its markers with this outline, on one of
#: ``RIM_SYMBOLS``: 2D charts stroke an open symbol in its own colour, and a rim drowns a thin cross's colour at the
#: clouds' 3–4 px (seen in chromium's WebGL).
RIM = MappingProxyType({"color": "#222222", "width": 1})
RIM_SYMBOLS = ("circle", "square", "diamond")
#: The colours a mechanism takes its colour from, in order: Okabe–Ito's (less black and yellow), then Tol's muted
#: scheme (less its pale grey), the light scheme's four that keep ``MIN_CONTRAST`` on white, and the dark variant of
#: his bright scheme (less its grey); ``clashes`` turns away those too faint on the background (muted cyan and sand).
COLOUR_SET = ("#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7",
              "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499",
              "#77AADD", "#44BB99", "#AAAA00", "#EE8866",
              "#222255", "#225555", "#225522", "#666633", "#663333")
#: The line dashes a mechanism takes its dash from: plotly's named dashes, then dash lengths (2D charts only).
DASH_SET = ("solid", "dot", "dash", "longdash", "dashdot", "longdashdot", "8px,3px,2px,3px,2px,3px",
            "2px,2px,8px,2px", "16px,4px", "2px,6px", "12px,3px,3px,3px,3px,3px,3px,3px", "6px,2px,1px,2px,1px,2px",
            "24px,4px,4px,4px", "1px,4px,1px,4px,12px,4px", "30px,6px", "4px,8px,16px,8px",
            "10px,2px,10px,2px,2px,2px", "1px,2px,1px,8px")


@dataclass(frozen=True)
class Look:
    """How a key is drawn: ``color`` ``"#RRGGBB"``, marker ``symbol``, line ``dash`` and whether its markers wear
    the dark ``RIM`` (``rim``)."""

    color: str
    symbol: str
    dash: str
    rim: bool = False

    @classmethod
    def of(cls, spec) -> Look:
        """The look a mechanism's spec (``engine.mechanisms.specs.MechanismSpec``) answers for."""
        return cls(spec.color, spec.symbol, spec.dash, spec.rim)


#: The mechanisms of the private-mean family sit between these entries, in their registry's order.
_BEFORE = {"data": ("Data", Look("#999999", "circle", "dot")),
           "true mean": ("True mean (not private)", Look("#000000", "diamond", "solid"))}
_AFTER = {"dp-rgd": ("DP-RGD", Look("#CC79A7", "diamond-open", "8px,3px,2px,3px,2px,3px")),
          "non-private": ("Non-private", Look("#E69F00", "diamond", "2px,2px,8px,2px")),
          "bound": ("Bound", Look("#000000", "circle-open", "dash"))}

#: Legend label and look of each key (lower case).
LABELS = MappingProxyType({**{key: shown for key, (shown, _) in _BEFORE.items()},
                           **{s.key: s.label for s in specs.REGISTRY}, **{key: shown for key, (shown, _) in _AFTER.items()}})
LOOKS = MappingProxyType({**{key: look for key, (_, look) in _BEFORE.items()},
                          **{s.key: Look.of(s) for s in specs.REGISTRY}, **{key: look for key, (_, look) in _AFTER.items()}})
#: Colour, marker symbol and line dash of each key.
COLORS = MappingProxyType({key: look.color for key, look in LOOKS.items()})
SYMBOLS = MappingProxyType({key: look.symbol for key, look in LOOKS.items()})
DASHES = MappingProxyType({key: look.dash for key, look in LOOKS.items()})

#: The keys that name a mechanism (not the data, the true mean or a bound): each has its own colour and dash.
MECHANISMS = tuple(key for key in COLORS if key not in (*_BEFORE, "bound"))
#: Mechanisms that share charts (the private-mean family's scenes; the optimisation page's runs): within a
#: group any two are told apart (``clashes``).
CHART_GROUPS = (tuple(s.key for s in specs.REGISTRY), ("dp-rgd", "non-private"))
#: What the private-mean family's scenes draw beside the mechanisms.
SCENE_EXTRAS = tuple(_BEFORE)

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


def outline(name: str) -> dict:
    """Marker outline of a palette key (plotly's ``marker.line``): ``RIM`` if its look has the rim, else none."""
    return dict(RIM) if LOOKS[_key(name)].rim else dict(width=0)


@functools.lru_cache(maxsize=4096)
def _apart(first: str, second: str) -> tuple[float, float, str | None]:
    """ΔE₀₀ of two colours in normal vision, and the smallest over every simulated vision with its viewer."""
    return (delta_e(first, second), *worst_delta_e(first, second))


def confusion(first: Look, second: Look) -> str | None:
    """Why two looks drawn on one chart could be taken for each other (their colours, or their colours for a
    colour-blind viewer with the same marker), or None when they cannot."""
    normal, worst, viewer = _apart(first.color, second.color)
    if normal < MIN_DELTA_E:
        return f"{first.color} and {second.color} are ΔE₀₀ {normal:.1f} apart (< {MIN_DELTA_E:g})"
    if worst < MIN_DELTA_E and (first.symbol, first.rim) == (second.symbol, second.rim):
        return (f"{first.color} and {second.color} are ΔE₀₀ {worst:.1f} apart under {viewer} (< {MIN_DELTA_E:g})"
                f" and share the marker {first.symbol!r}{' with the rim' if first.rim else ''}")
    return None


def _own_clashes(name: str, look: Look) -> list[str]:
    found = []
    if (ratio := contrast(look.color, BACKGROUND)) < MIN_CONTRAST:
        found.append(f"{name}: {look.color} has contrast {ratio:.2f} on {BACKGROUND} (< {MIN_CONTRAST:g})")
    if look.symbol not in SYMBOLS_3D:
        found.append(f"{name}: symbol {look.symbol!r} is not one 3D charts draw ({', '.join(SYMBOLS_3D)})")
    if look.rim and look.symbol not in RIM_SYMBOLS:
        found.append(f"{name}: a rim on {look.symbol!r} would not show as one; give it to {', '.join(RIM_SYMBOLS)}")
    return found


def _pair_clashes(a: str, first: Look, b: str, second: Look, *, both_mechanisms: bool) -> list[str]:
    found = [f"{a} and {b}: both dash {first.dash!r}"] if both_mechanisms and first.dash == second.dash else []
    why = confusion(first, second)
    return found + ([f"{a} and {b}: {why}"] if why else [])


def clashes(looks: Mapping[str, Look], beside: Mapping[str, Look] = MappingProxyType({})) -> list[str]:
    """Every reason the looks of mechanisms drawn on one chart (``name -> Look``), and of what is drawn beside them
    (``beside``: the scenes' data and true mean), could be confused or lost; empty when there is none.

    A mechanism's colour keeps ``MIN_CONTRAST`` against ``BACKGROUND`` and its symbol is one of ``SYMBOLS_3D``; two
    mechanisms differ in dash; any two looks are told apart (``confusion``).
    """
    found = [why for name, look in looks.items() for why in _own_clashes(name, look)]
    for (a, first), (b, second) in itertools.combinations(looks.items(), 2):
        found += _pair_clashes(a, first, b, second, both_mechanisms=True)
    for (a, first), (b, second) in itertools.product(looks.items(), beside.items()):
        found += _pair_clashes(a, first, b, second, both_mechanisms=False)
    return found


def chart_clashes() -> list[str]:
    """``clashes`` of every ``CHART_GROUPS`` group (the private-mean family's with the ``SCENE_EXTRAS`` beside it)."""
    family, *others = CHART_GROUPS
    found = clashes({key: LOOKS[key] for key in family}, {key: LOOKS[key] for key in SCENE_EXTRAS})
    return found + [why for group in others for why in clashes({key: LOOKS[key] for key in group})]


def free_looks(count: int = 1, taken: Mapping[str, Look] | None = None,
               beside: Mapping[str, Look] | None = None) -> tuple[Look, ...]:
    """``count`` looks for new mechanisms drawn with ``taken`` (``name -> Look``; every mechanism's by default) and
    ``beside`` (as in ``clashes``; the ``SCENE_EXTRAS`` by default) that add no clash: a colour of ``COLOUR_SET``
    none has, the first dash of ``DASH_SET`` none has, and of those the look whose colour alone sets it apart from
    the most others, then an unused symbol, then no rim. A new mechanism's spec copies one, as printed by
    ``python -c "from engine.viz import palette; print(palette.free_looks())"``.

    Raises
    ------
    ValueError
        If the palette has no room for ``count`` more.
    """
    taken = {key: LOOKS[key] for key in MECHANISMS} if taken is None else taken
    beside = {key: LOOKS[key] for key in SCENE_EXTRAS} if beside is None else beside
    looks, chosen = dict(taken), []
    for n in range(count):
        colours, dashes = {look.color for look in looks.values()}, {look.dash for look in looks.values()}
        symbols = {look.symbol for look in looks.values()}
        dash = next((d for d in DASH_SET if d not in dashes), None)
        candidates = [Look(c, s, dash, rim) for c in COLOUR_SET if c not in colours
                      for rim in (False, True) for s in SYMBOLS_3D] if dash else []
        fitting = [look for look in candidates if not _own_clashes("new", look) and not any(
            confusion(look, other) for other in [*looks.values(), *beside.values()])]
        if not fitting:
            raise ValueError(f"the palette has room for {n} more mechanisms beside {', '.join(looks) or 'none'}, "
                             f"not {count}; extend COLOUR_SET or DASH_SET")

        def distinct(look: Look) -> tuple:
            apart = sum(_apart(look.color, other.color)[1] >= MIN_DELTA_E for other in looks.values())
            return -apart, look.symbol in symbols, look.rim

        best = min(fitting, key=distinct)
        looks[f"new {n}"] = best
        chosen.append(best)
    return tuple(chosen)


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
