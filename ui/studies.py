"""Studies run from a page: on the Dask cluster named by ``DASK_SCHEDULER_ADDRESS`` when it is set
(in-process otherwise), reusing results from the disk cache that the command line shares.

A page calls ``run(name, study(name).config(...))`` (``engine.pipelines.studies``) inside its
``@st.cache_data`` wrapper; an unreachable
scheduler raises the runner's ``ValueError`` naming the address, which ``ui.errors`` shows.
"""

from __future__ import annotations

import os

import pandas as pd

from engine.pipelines import studies

#: Environment variable naming the scheduler pages hand their studies to, e.g. ``tcp://10.0.0.5:8786``.
SCHEDULER_VARIABLE = "DASK_SCHEDULER_ADDRESS"


def scheduler_address() -> str | None:
    """The address in ``DASK_SCHEDULER_ADDRESS``, or ``None`` (run in-process) when unset or empty."""
    return os.environ.get(SCHEDULER_VARIABLE, "").strip() or None


def run(name: str, config, progress=None) -> dict[str, pd.DataFrame]:
    """Study ``name`` with ``config``: from the disk cache, on the named scheduler, or in-process.

    ``progress`` (optional) receives the completed fraction of the study's tasks, e.g. to move an
    ``st.progress`` bar that the page created outside its cached function.
    """
    return studies.run(name, config, scheduler=scheduler_address(), progress=progress)
