"""Presenter mode (issue 33, item 2): ``?present=1`` or the sidebar's button turns it on for the session,
on every page, and the address keeps ``present=1``; a bad value is named in one line; the Lesson's step
title becomes the page's title and ← / → carry the arrow keys."""

from __future__ import annotations

import pytest

from tests.app.conftest import HOME, PLAYGROUND, ROOT, assert_clean, messages, run_page
from ui import presenter
from ui.navigation import PAGES

LESSON = ROOT / "pages" / "9_Lesson.py"


def _styled(at) -> bool:
    return any(presenter.STYLE in block.value for block in at.sidebar.markdown)


def _on(at) -> bool:
    """Whether the sidebar offers to leave the mode (it is on) rather than to enter it."""
    keys = {button.key for button in at.sidebar.button}
    assert len(keys & {presenter.ENTER, presenter.LEAVE}) == 1, keys
    return presenter.LEAVE in keys


@pytest.mark.parametrize("script", [page.script for page in PAGES], ids=[page.label for page in PAGES])
def test_present_1_turns_the_mode_on_without_an_unknown_key_warning(script):
    at = run_page(ROOT / script, {"present": "1"})
    assert _on(at)
    assert _styled(at)
    assert at.query_params["present"] == "1"
    assert not [text for text in messages(at, "warning") if "present" in text]


def test_without_the_key_the_mode_is_off_and_the_page_as_before():
    at = run_page(PLAYGROUND)
    assert not _on(at)
    assert not _styled(at) and "present" not in at.query_params


def test_a_bad_value_is_named_and_the_mode_stays_off():
    at = run_page(HOME, {"present": "yes"})
    found = [text for text in messages(at, "warning") if "present" in text]
    assert len(found) == 1 and "`'present=yes'`" in found[0] and "must be 1" in found[0], found
    assert not _on(at) and not _styled(at)


def test_the_mode_survives_a_page_switch_and_the_button_ends_it():
    at = run_page(LESSON, {"present": "1"})
    at.switch_page("pages/1_Private_mean_playground.py")
    at.query_params.clear()  # a switch of page empties the address
    at.run()
    assert_clean(at)
    assert at.query_params["present"] == "1" and _styled(at)
    at.button(key=presenter.LEAVE).click().run()
    assert "present" not in at.query_params and not _styled(at)
    at.switch_page("app.py")
    at.run()
    assert not _on(at) and "present" not in at.query_params


def test_the_buttons_turn_the_mode_on_and_esc_off():
    at = run_page(HOME)
    at.button(key=presenter.ENTER).click().run()
    assert _on(at) and _styled(at) and at.query_params["present"] == "1"
    leave = at.button(key=presenter.LEAVE)
    assert leave.proto.shortcut == "escape"
    leave.click().run()
    assert not _on(at) and "present" not in at.query_params


def test_the_lessons_step_title_is_the_page_title_and_the_arrows_carry_the_keys():
    at = run_page(LESSON, {"present": "1", "step": "3"})
    assert [title.value for title in at.title] == ["3 · Flat noise leaves the space"]
    assert at.button(key="lesson_back").proto.shortcut == "left"
    assert at.button(key="lesson_forward").proto.shortcut == "right"
    at.button(key="lesson_forward").click().run()
    assert at.query_params["step"] == "4" and at.query_params["present"] == "1"
