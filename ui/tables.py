"""Small result tables drawn as static HTML (``st.table``): far cheaper in the browser than the
interactive data grid of ``st.dataframe``, which a handful of rows does not need.

Engine tables keep snake_case column names (CSV downloads and code read them); a page shows them
under the plain headers of ``HEADERS``.
"""

from __future__ import annotations

import pandas as pd
from pandas.io.formats.style import Styler

#: Engine column name → the header a page shows.
HEADERS = {
    "audit": "Audit",
    "epsilon": "Claimed ε",
    "reachable_epsilon": "Most this pair can show",
    "epsilon_lower": "ε lower bound (95%)",
    "samples_per_side": "Releases per side",
    "verdict": "Verdict",
    "release": "Release",
    "energy_private": "Energy of the private fit",
    "energy_nonprivate": "Energy of the non-private fit",
    "footpoint_distance": "Distance to the non-private footpoint",
    "neighbour": "Neighbour",
    "delta_p_simulated": "Δ_p simulated",
    "delta_v_simulated": "Δ_v simulated",
}


def readable(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its engine column names replaced by ``HEADERS``' plain headers."""
    return frame.rename(columns=HEADERS)


def formatted(frame: pd.DataFrame, *, skip=()) -> Styler:
    """``frame`` with every column but ``skip`` shown to 4 significant digits, NaN as "—"."""
    columns = [column for column in frame.columns if column not in skip]
    return frame.style.format("{:.4g}", subset=columns, na_rep="—")
