"""Caption contrast: captions reach WCAG 2 AA's 4.5:1 on the page and on the sidebar.

Streamlit draws captions (and widget help, placeholders) in ``fadedText60``: the theme's text colour at
60 % opacity (its frontend's theme builder), so on a background b the caption colour is 0.6·text + 0.4·b
in sRGB. axe-core measured #76797c on white, 4.37:1, with the former text colour #1B1F24.
"""

from __future__ import annotations

import tomllib

import pytest

from tests.app.conftest import ROOT

#: Opacity of Streamlit's caption colour (``fadedText60``).
CAPTION_OPACITY = 0.6
#: WCAG 2 AA contrast for normal-size text.
AA = 4.5


def rgb(hex_colour: str) -> tuple[float, ...]:
    """``#RRGGBB`` as three channels in [0, 255]."""
    return tuple(int(hex_colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))


def relative_luminance(colour) -> float:
    """WCAG 2's relative luminance: 0.2126 R + 0.7152 G + 0.0722 B of the linearised sRGB channels."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in colour)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b) -> float:
    """WCAG 2's contrast ratio (L_lighter + 0.05) / (L_darker + 0.05)."""
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def caption_colour(text, background) -> tuple[float, ...]:
    return tuple(CAPTION_OPACITY * t + (1 - CAPTION_OPACITY) * b for t, b in zip(text, background))


@pytest.mark.parametrize("background", ["backgroundColor", "secondaryBackgroundColor"])
def test_captions_reach_aa_contrast_on_the_configured_theme(background):
    # The formula reproduces axe-core's measurement of the former theme: #76797c on white, 4.37:1 (truncated).
    assert tuple(round(c) for c in caption_colour(rgb("#1B1F24"), rgb("#FFFFFF"))) == rgb("#76797C")
    assert 4.37 <= contrast(rgb("#76797C"), rgb("#FFFFFF")) < 4.38
    theme = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["theme"]
    shown = caption_colour(rgb(theme["textColor"]), rgb(theme[background]))
    assert contrast(shown, rgb(theme[background])) >= AA, (theme["textColor"], theme[background])
