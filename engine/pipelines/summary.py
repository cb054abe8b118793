"""JSON-ready summaries of the pipelines' results, as the CLI prints them (``--json``).

``plain(value)`` turns what a result holds (dataclasses, numpy arrays and scalars, pandas frames,
tuples) into dicts, lists, strings, numbers and ``None``; NaN and ±inf become ``None``, so the
printed JSON is standard and a summary compares equal to itself after a JSON round trip.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd


def plain(value):
    """``value`` as nested dicts, lists, str, bool, int, float and ``None`` (non-finite floats → ``None``).

    Data frames become lists of row dicts; arrays nested lists; dataclass instances dicts of their
    fields.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, pd.DataFrame):
        return [plain(row) for row in value.to_dict(orient="records")]
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"value must be a dataclass, frame, array, container, number or string, got {type(value)!r}")
