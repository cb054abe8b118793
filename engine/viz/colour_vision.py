"""How a colour looks to a viewer with protanopia, deuteranopia or tritanopia, how far apart two colours look,
and how well a colour stands out from the chart's background.

The simulation is the physiologically based model of Machado, Oliveira & Fernandes, "A
Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009: a
3 × 3 matrix applied to linear sRGB, here at severity 1 (dichromacy, Table 1 of the paper's
supplement). Distances are CIEDE2000 ΔE₀₀ (CIE 142-2001) in CIELAB under D65 (sRGB's white point), as
written out by Sharma, Wu & Dalal, "The CIEDE2000 color-difference formula: implementation notes,
supplementary test data, and mathematical observations", Color Res. Appl. 30(1), 2005. Contrast is
WCAG 2.1's ratio of relative luminances (L₁ + 0.05)/(L₂ + 0.05).
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
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
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


def ciede2000(first: np.ndarray, second: np.ndarray) -> float:
    """CIEDE2000 ΔE₀₀ between two CIELAB colours ``(3,)`` (k_L = k_C = k_H = 1; Sharma et al. 2005, eqs. 1–22)."""
    (l1, a1, b1), (l2, a2, b2) = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    chroma_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(chroma_mean**7 / (chroma_mean**7 + 25.0**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1, h2 = (np.degrees(np.arctan2(b, a)) % 360 if (a or b) else 0.0 for a, b in ((a1, b1), (a2, b2)))
    neutral = c1 * c2 == 0
    dh = 0.0 if neutral else (h2 - h1 + 180) % 360 - 180
    d_hue = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh) / 2)
    if neutral:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    rotation = 30 * np.exp(-(((h_mean - 275) / 25) ** 2))
    r_t = -2 * np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)) * np.sin(np.radians(2 * rotation))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    lightness, chroma, hue = (l2 - l1) / s_l, (c2 - c1) / s_c, d_hue / s_h
    return float(np.sqrt(lightness**2 + chroma**2 + hue**2 + r_t * chroma * hue))


def delta_e(first: str, second: str, deficiency: str | None = None) -> float:
    """CIEDE2000 ΔE₀₀ between two ``"#RRGGBB"`` colours as a viewer with ``deficiency`` sees them."""
    return ciede2000(lab(simulate(first, deficiency)), lab(simulate(second, deficiency)))


def worst_delta_e(first: str, second: str) -> tuple[float, str | None]:
    """The smallest ΔE₀₀ between two colours over normal vision and every ``DEFICIENCIES`` entry, and for whom
    (None: normal vision)."""
    return min(((delta_e(first, second, deficiency), deficiency) for deficiency in (None, *DEFICIENCIES)),
               key=lambda seen: seen[0])


def contrast(first: str, second: str) -> float:
    """WCAG 2.1 contrast ratio of two ``"#RRGGBB"`` colours, from 1 (same luminance) to 21 (black on white)."""
    lighter, darker = sorted((float(_SRGB_TO_XYZ[1] @ linear_rgb(c)) for c in (first, second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)
