"""ui.sections: a page's section switch, its address and what a chart-first run sends in its place."""

from __future__ import annotations

from tests.app.conftest import ROOT, choose_section, messages, run_page, section_labels
from ui import utility

PAGE = ROOT / "pages" / "3_Utility.py"
FAST = {"reps": "20"}
PLANNER = "Budget planner"


def test_a_chosen_section_is_drawn_alone_and_written_into_the_address():
    at = run_page(PAGE, FAST)
    assert section_labels(at) == list(utility.SECTIONS)
    assert at.query_params[utility.SECTION_KEY] == utility.SECTIONS[0]
    assert not any(table.value.columns[0] == "mechanism" for table in at.table)
    choose_section(at, PLANNER)
    assert not at.exception and not messages(at)
    assert at.query_params[utility.SECTION_KEY] == PLANNER
    assert any(table.value.columns[0] == "mechanism" for table in at.table), "the planner's table is drawn"


def test_a_label_the_page_lacks_is_reported_and_the_first_section_opens():
    at = run_page(PAGE, FAST | {utility.SECTION_KEY: "Budget <b>planner</b>"})
    (warning,) = messages(at, "warning")
    assert warning.startswith(f"Ignored the address parameter {utility.SECTION_KEY}=`'Budget <b>planner</b>'`")
    assert all(label in warning for label in utility.SECTIONS)
    assert at.query_params[utility.SECTION_KEY] == utility.SECTIONS[0]
    choose_section(at, PLANNER)
    assert not messages(at, "warning"), "the report is gone once a section is chosen"
