"""How a colour looks to a viewer with protanopia or deuteranopia, and how far apart two colours look.

The simulation is the physiologically based model of Machado, Oliveira & Fernandes, "A
Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009: a
3 × 3 matrix applied to linear sRGB, here at severity 1 (dichromacy, Table 1 of the paper's
supplement). Distances are CIE 1976 ΔE*ab in CIELAB under D65 (sRGB's white point).
"""

from __future__ import annotations

import numpy as np

#: Machado et al. (2009), severity 1.0: linear sRGB -> linear sRGB as the dichromat sees it.
DEFICIENCIES = {
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
}

#: Linear sRGB -> CIE XYZ (IEC 61966-2-1), and the D65 white in XYZ.
_SRGB_TO_XYZ = np.array([[0.4124, 0.3576, 0.1805],
                         [0.2126, 0.7152, 0.0722],
                         [0.0193, 0.1192, 0.9505]])
_WHITE = np.array([0.95047, 1.0, 1.08883])


def linear_rgb(hex_color: str) -> np.ndarray:
    """``"#RRGGBB"`` -> linear sRGB in [0, 1], shape ``(3,)`` (the sRGB transfer function undone)."""
    if not (isinstance(hex_color, str) and len(hex_color) == 7 and hex_color.startswith("#")):
        raise ValueError(f"hex_color must look like '#RRGGBB', got {hex_color!r}")
    try:
        encoded = np.array([int(hex_color[i : i + 2], 16) for i in (1, 3, 5)]) / 255.0
    except ValueError:
        raise ValueError(f"hex_color must look like '#RRGGBB', got {hex_color!r}") from None
    return np.where(encoded <= 0.04045, encoded / 12.92, ((encoded + 0.055) / 1.055) ** 2.4)


def simulate(hex_color: str, deficiency: str | None) -> np.ndarray:
    """Linear sRGB ``(3,)`` of ``hex_color`` as seen with ``deficiency`` (a key of ``DEFICIENCIES``,
    or None for normal vision), clipped to the displayable range."""
    rgb = linear_rgb(hex_color)
    if deficiency is None:
        return rgb
    if deficiency not in DEFICIENCIES:
        raise ValueError(f"deficiency must be one of {', '.join(DEFICIENCIES)} or None, got {deficiency!r}")
    return np.clip(DEFICIENCIES[deficiency] @ rgb, 0.0, 1.0)


def lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (L*, a*, b*) ``(3,)`` of a linear sRGB colour ``(3,)``, D65 white."""
    t = _SRGB_TO_XYZ @ np.asarray(rgb, dtype=float) / _WHITE
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(first: str, second: str, deficiency: str | None = None) -> float:
    """ΔE*ab between two ``"#RRGGBB"`` colours as a viewer with ``deficiency`` sees them."""
    return float(np.linalg.norm(lab(simulate(first, deficiency)) - lab(simulate(second, deficiency))))
