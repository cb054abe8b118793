"""Views of the Audit page: a live bound curve while the audit runs, then the result beside its control,
with the trade-off curve its tests measured on the pair."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from engine.viz.audit import audit_curve, audit_histograms, bound_curve
from engine.viz.tradeoff import tradeoff_figure
from ui import first_paint
from ui.audit.compute import audit, tradeoff


def run_live(name: str, space: str, epsilon: float, samples: int, seed: int, *, key: str):
    """Run (or fetch) one audit, drawing progress and the bound curve at every checkpoint."""
    bar = st.progress(0.0, text="drawing releases…")
    live = st.empty()
    points = []

    def progress(checkpoint):
        points.append({"samples": checkpoint.samples, "epsilon_lower": checkpoint.epsilon_lower})
        bar.progress(min(checkpoint.fraction, 1.0), text=f"{checkpoint.samples:,} releases per side: "
                                                         f"ε ≥ {checkpoint.epsilon_lower:.3f}")
        live.plotly_chart(bound_curve(pd.DataFrame(points), epsilon, np.nan), key=f"{key}-live-{len(points)}")

    result = audit(name, space, epsilon, samples, seed, progress=progress)
    bar.empty()
    live.empty()
    return result


def show(result, *, key: str) -> object:
    """Verdict, reach note, curve and histograms of one result; returns the curve figure."""
    first_paint.in_full_run(lambda: _verdict(result))
    curve = audit_curve(result)
    first_paint.main_chart(curve, key=f"{key}-curve")
    st.plotly_chart(audit_histograms(result), key=f"{key}-hist")
    _tradeoff(result, key=key)
    st.text(f"Pair: {result.pair_description}\nStatistic: {result.statistic_name}\n"
            f"Rejection set: {result.rejection.describe()}\n"
            f"{result.samples:,} releases per side, stopped: {result.stop_reason}")
    if result.notes:
        st.caption(result.notes)
    return curve


def _verdict(result) -> None:
    """Whether the audit flagged the mechanism, and how much of the claimed ε its pair can show at most."""
    ratio = result.epsilon_lower / result.epsilon
    if result.flagged:
        st.error(f"Flagged: ε ≥ {result.epsilon_lower:.3f} with 95% confidence, above the claimed "
                 f"{result.epsilon:g}.")
    else:
        st.success(f"Within the claim: ε ≥ {result.epsilon_lower:.3f} ({ratio:.0%} of the claimed "
                   f"{result.epsilon:g}).")
    if np.isfinite(result.reachable_epsilon) and result.reachable_epsilon < 0.999 * result.epsilon:
        st.info(f"This pair can only reach {result.reachable_epsilon:.3f} = {result.reachable_fraction:.0%} of "
                f"the claimed ε: no test on it can show more.")
    elif np.isposinf(result.reachable_epsilon):
        st.info("On this pair no ε holds at the claimed δ: a test can show any ε.")
    elif not np.isfinite(result.reachable_epsilon):
        st.info("The most this pair can show is not known in closed form.")


def _tradeoff(result, *, key: str) -> None:
    """The trade-off curve of the audit's threshold tests on both halves, its band and the claim's; beside it, why
    the curve cannot show the defect where the mechanism's definition says so (``AuditResult.unseen_by_curve``)."""
    curve = tradeoff(result)
    st.plotly_chart(tradeoff_figure(curve, title="Trade-off: every threshold test on the statistic"),
                    key=f"{key}-tradeoff")
    verdict = (f"The band lies below the {curve.claim} curve (by up to {curve.deficit:.2g} in β): these "
               "releases refute the claim." if curve.refutes else
               f"The band reaches the {curve.claim} curve at every α: the tests are consistent with the claim.")
    if result.unseen_by_curve:
        st.info(result.unseen_by_curve)
    st.caption(f"Each point is a test that rejects D when the statistic is past a threshold: α its chance to "
               f"reject on D, β its chance to keep D on D'. The {1 - curve.level:.1%} band holds at every α at "
               f"once (DKW and order statistics). {verdict}")
