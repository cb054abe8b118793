"""The Samplers page's views: quality and cost metrics, the radius histograms, the trace, downloads."""

from __future__ import annotations

import streamlit as st

from engine.pipelines import settings_file
from engine.pipelines.sampler_comparison import SamplerComparison
from ui import first_paint, reproduce
from ui.downloads import download_row
from ui.live_chart import PLAIN_CHART, live_chart
from ui.samplers.controls import Settings


def _metrics(result: SamplerComparison, total: int) -> None:
    critical = result.ks_critical
    quality, cost = st.columns(3), st.columns(3)
    quality[0].metric("KS distance, exact", f"{result.ks_exact:.3f}",
                      help=f"sup |F_n − F| between the radii and the exact CDF. For {total} independent draws, "
                           f"values above {critical:.3f} happen 5% of the time.")
    biased = result.ks_mh > critical
    quality[1].metric("KS distance, MH", f"{result.ks_mh:.3f}", delta=f"{result.ks_mh / critical:.1f}× the 5% level",
                      delta_color="inverse" if biased else "off", delta_arrow="auto" if biased else "off",
                      help="The same distance for the MH draws; correlated draws make it larger even without bias.")
    quality[2].metric("MH effective sample size", f"{result.ess:.0f}",
                      help=f"Independent draws worth of information in the {total} kept MH radii (Geyer's initial "
                           f"monotone sequence, summed over chains); autocorrelation time "
                           f"{result.autocorrelation_time:.1f} steps.")
    cost[0].metric("MH acceptance", f"{100 * result.acceptance:.0f}%",
                   help=f"Share of accepted proposals after the adaptation (step s = {result.step:.3g}).")
    cost[1].metric("Exact draws per second", f"{result.exact_per_second:,.0f}",
                   help="Points (not only radii) from the exact sampler, timed on this machine.")
    cost[2].metric("MH draws per second", f"{result.mh_per_second:,.0f}",
                   delta=f"{result.exact_per_second / result.mh_per_second:,.0f}× slower", delta_color="off",
                   delta_arrow="off", help="Kept MH draws per second of chain time (burn-in and thinning included).")
    st.latex(rf"D_{{KS}} = \sup_\rho \left|F_n(\rho) - F(\rho)\right|:\quad \text{{exact}}\ {result.ks_exact:.3f},"
             rf"\quad \text{{MH}}\ {result.ks_mh:.3f},\quad 1.36/\sqrt{{{total}}} = {critical:.3f}")


def show(result: SamplerComparison, charts: dict, settings: Settings) -> None:
    """Metrics, the two histograms side by side, the first chain's trace, each with its downloads."""
    first_paint.in_full_run(lambda: _metrics(result, settings.draws * settings.chains))
    choices = settings_file.payload("samplers", settings.config)
    left, right = st.columns(2)
    radii = charts["radii"]
    with left:
        first_paint.main_chart(charts["exact"], key="chart-hist-exact", **PLAIN_CHART)
        st.caption("Look at the bars against the dashed curve: exact draws follow the radial density up to "
                   "sampling noise, whatever σ.")
        download_row("samplers-exact-radii", fig=charts["exact"], data=radii[radii["sampler"] == "exact"],
                     settings=choices, pipeline="samplers")
    with right:
        live_chart(charts["mh"], key="chart-hist-mh", **PLAIN_CHART)
        st.caption("A short chain is visibly biased near the normalisability limit (try the near-limit example): "
                   "its draws stay too close to the footpoint where it started, which is why this tool samples "
                   "exactly.")
        download_row("samplers-mh-radii", fig=charts["mh"], data=radii[radii["sampler"] == "metropolis-hastings"],
                     settings=choices, pipeline="samplers")

    st.header("Trace of the first MH chain")
    live_chart(charts["trace"], key="chart-trace", **PLAIN_CHART)
    st.caption("Look at how long the chain needs to climb from the footpoint (ρ = 0) to the level of the exact "
               "mean radius (dashed), and whether it has got there by the end of the shaded burn-in.")
    download_row("samplers-trace", fig=charts["trace"], data=charts["trace_data"], settings=choices,
                 pipeline="samplers")
    reproduce.expander("samplers", settings.config)
