"""Audit page: defaults (a mechanism within its claim beside a flagged control), another mechanism
and space, an invalid address, and an engine error shown as a message (AppTest)."""

import pytest

from engine.audit import AUDITS
from tests.app import charts
from tests.app.conftest import ROOT, messages, run_page

PAGE = ROOT / "pages" / "8_Audit.py"


@pytest.fixture(scope="module")
def defaults():
    return run_page(PAGE)


def test_defaults_show_a_passing_mechanism_beside_a_flagged_control(defaults):
    assert not defaults.exception
    figures = charts.specs(defaults)
    assert len(figures) == 6
    assert any(s.value.startswith("Within the claim") for s in defaults.success)
    assert any(e.value.startswith("Flagged") for e in defaults.error)
    assert any("can only reach" in i.value for i in defaults.info)  # S^2: Theorem 2 is loose for the pair
    assert charts.live_keys(defaults) == ["main-curve", "control-curve"], "the curves are updated in place"
    assert figures[0]["layout"]["xaxis"]["title"]["text"] == "releases per side"
    assert defaults.selectbox(key="samples").value == AUDITS["laplace"].default_samples


def test_the_budget_defaults_to_the_mechanisms_own_at_which_its_twin_is_flagged():
    at = run_page(PAGE, {"audit": "kng", "control": "twin-kng"})
    assert not at.exception
    budget = at.selectbox(key="samples")
    assert budget.value == AUDITS["kng"].default_samples and at.selectbox(key="space").value == "euclidean"
    assert "20,000 (default)" in budget.options
    assert any(s.value.startswith("Within the claim") for s in at.success)
    assert any(e.value.startswith("Flagged") for e in at.error)


def test_trade_off_curves_beside_their_claims(defaults):
    """Each audit draws its measured trade-off curve and band beside the claim's; a 2× twin's band falls below."""
    titles = [spec["layout"]["title"]["text"] for spec in charts.specs(defaults)]
    assert titles.count("Trade-off: every threshold test on the statistic") == 2
    assert any("consistent with the claim" in c.value for c in defaults.caption)
    at = run_page(PAGE, {"audit": "laplace", "space": "euclidean", "control": "twin-laplace"})
    assert not at.exception
    tradeoffs = [spec for spec in charts.specs(at) if spec["layout"]["title"]["text"].startswith("Trade-off")]
    mechanism, twin = ({trace["name"]: trace for trace in spec["data"]} for spec in tradeoffs)
    assert "band below the claim" not in mechanism and "claimed: 1-DP" in mechanism
    assert len(charts.values(twin["band below the claim"]["x"])) > 10
    assert any("refute the claim" in c.value for c in at.caption)


def test_other_mechanism_and_space_from_the_address():
    at = run_page(PAGE, {"audit": "euclidean-baseline", "space": "spd", "control": "control-karcher-baseline"})
    assert not at.exception
    assert at.selectbox(key="space").value == "spd"
    assert any(s.value.startswith("Within the claim") for s in at.success)
    assert any(e.value.startswith("Flagged") for e in at.error)


def test_invalid_address_falls_back_with_a_warning():
    at = run_page(PAGE, {"audit": "nonsense"})
    assert not at.exception
    assert at.selectbox(key="audit").value == "laplace"
    assert any("Ignored the address parameter audit" in w for w in messages(at, "warning"))


def test_engine_error_is_a_message_not_a_traceback():
    at = run_page(PAGE, {"audit": "laplace", "space": "hyperbolic", "eps": "0.1"})
    assert not at.exception
    assert any("non-normalisable" in e.value for e in at.error)


def test_subspace_audit_beside_the_search_basis_control():
    at = run_page(PAGE, {"audit": "analyze-gauss", "control": "control-subspace-basis", "samples": "20000"})
    assert not at.exception
    assert at.selectbox(key="space").value == "r5" and at.selectbox(key="space").options == ["R^5"]
    assert any(s.value.startswith("Within the claim") for s in at.success)
    assert any(e.value.startswith("Flagged") for e in at.error)
    assert any("R^5, score gap at the selection threshold" in c.value for c in at.caption)


def test_a_new_session_gets_the_audits_another_session_ran(monkeypatch):
    """A returning visit is a new session: it must not draw every release again before its first chart."""
    from ui.audit import compute

    runs = []
    engine_audit = compute.audit_one

    def counted(*args, **kwargs):
        runs.append(args)
        return engine_audit(*args, **kwargs)

    monkeypatch.setattr(compute, "audit_one", counted)
    address = {"seed": "917"}  # a seed no other test audits, so the first session computes both audits
    first = run_page(PAGE, address)
    assert len(runs) == 2, "the mechanism and its control"
    again = run_page(PAGE, address)
    assert len(runs) == 2, "the second session ran the audits again"
    assert [s.value for s in again.success] == [s.value for s in first.success]
    assert [e.value for e in again.error] == [e.value for e in first.error]


def test_the_control_select_offers_the_chosen_mechanisms_own_twin_and_it_is_flagged():
    """Each mechanism has a 2× twin (built for 2ε, claiming ε); the select offers only the chosen one's."""
    at = run_page(PAGE, {"audit": "laplace", "control": "twin-laplace"})
    assert not at.exception
    select = at.selectbox(key="control")
    assert select.value == "twin-laplace" and "Its 2× twin (2ε claiming ε)" in select.options
    assert not [option for option in select.options if option.startswith("Control:") and "2ε" in option]
    assert any(e.value.startswith("Flagged") for e in at.error)


def test_a_control_whose_curve_cannot_show_its_break_says_why_beside_the_chart():
    """The reused-randomness control is flagged by its ε bound, but a curve of single releases cannot fall
    below its claim; the page says why, in the control's own sentence, and zooms each chart where it is closest."""
    from engine.audit.controls import ReusedRandomnessLaplace

    at = run_page(PAGE, {"audit": "laplace", "control": "control-reused-randomness"})
    assert not at.exception and not messages(at, "warning")
    assert ReusedRandomnessLaplace.UNSEEN_BY_CURVE in [box.value for box in at.info]
    assert any(e.value.startswith("Flagged") for e in at.error)
    tradeoffs = [spec for spec in charts.specs(at) if spec["layout"]["title"]["text"].startswith("Trade-off")]
    assert len(tradeoffs) == 2 and all(spec["layout"]["xaxis2"]["range"][1] <= 1 for spec in tradeoffs)
    plain = run_page(PAGE)  # the half-noise control's curve can and does fall below: no such sentence
    assert ReusedRandomnessLaplace.UNSEEN_BY_CURVE not in [box.value for box in plain.info]
