"""Audit: an empirical 95 % lower bound on ε for any mechanism of the engine, beside its claim and a
deliberately broken positive control."""


import pandas as pd
import streamlit as st

from engine.pipelines import settings_file
from ui import address_keys, audit, first_paint, glossary, navigation, reproduce, tables
from ui.audit.views import run_live
from ui.downloads import download_row
from ui.errors import shown_as_error

navigation.page_config("Audit")
first_paint.pending()
navigation.sidebar()
first_paint.intro(
    "Audit",
    "Does a mechanism keep its promise? The audit runs it on two neighbouring data sets built by an adversary "
    "from the public ball and n, reduces each release to the log-likelihood ratio of the law it claims to "
    "sample, picks a rejection set on half of the releases and bounds ε from below on the other half "
    "(Clopper–Pearson, 95%). A correct mechanism stays below its claim; a broken one is flagged.",
)
settings, _ = audit.sidebar()
config = settings.config
left, right = st.columns(2, gap="large")
with left:
    first_paint.in_full_run(lambda: st.header("Mechanism"))
    with shown_as_error("audit this mechanism"):
        result = run_live(settings.name, settings.space, settings.epsilon, settings.samples, settings.seed,
                          key="main")
    curve = audit.show(result, key="main")
with right:
    st.header("Positive control")
    st.caption(f"{settings.control} on {audit.space_name(config.control_space)}")
    with shown_as_error("audit the control"):
        control = run_live(settings.control, config.control_space, settings.epsilon, settings.samples, settings.seed,
                           key="control")
    audit.show(control, key="control")

st.header("Downloads")
table = pd.DataFrame([result.row(), control.row()])
st.table(tables.readable(table[["audit", "epsilon", "reachable_epsilon", "epsilon_lower", "samples_per_side", "verdict"]]),
         hide_index=True, border="horizontal")
download_row(f"audit-{settings.name}-{settings.space}", fig=curve, data=result.history.assign(audit=result.label),
             settings=settings_file.payload("audit", config), pipeline="audit")
reproduce.expander("audit", config)
glossary.show("epsilon", "delta", "sigma", "sensitivity", "frechet-mean", "tangent-space", "riemannian-laplace",
              "k-norm", "dp-rgd", "reach", "grassmannian")
address_keys.report()
