"""Small result tables drawn as static HTML (``st.table``): far cheaper in the browser than the
interactive data grid of ``st.dataframe``, which a handful of rows does not need."""

from __future__ import annotations

import pandas as pd
from pandas.io.formats.style import Styler


def formatted(frame: pd.DataFrame, *, skip=()) -> Styler:
    """``frame`` with every column but ``skip`` shown to 4 significant digits, NaN as "—"."""
    columns = [column for column in frame.columns if column not in skip]
    return frame.style.format("{:.4g}", subset=columns, na_rep="—")
