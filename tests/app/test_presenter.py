"""Presenter mode: ``?present=1`` or the sidebar's button turns it on for the session,
on every page, and the address keeps ``present=1``; a bad value is named in one line; the Lesson's step
title becomes the page's title and ← / → carry the arrow keys; on a page with Home presets ← / → load them
in turn, as Home's links do."""

from __future__ import annotations

import pytest

from tests.app.conftest import HOME, PLAYGROUND, ROOT, assert_clean, messages, run_page
from ui import presenter, preset_steps
from ui.home_presets import PRESETS
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
    assert [title.value for title in at.title] == ["3 · Flat noise on covariance matrices"]
    assert at.button(key="lesson_back").proto.shortcut == "left"
    assert at.button(key="lesson_forward").proto.shortcut == "right"
    at.button(key="lesson_forward").click().run()
    assert at.query_params["step"] == "4" and at.query_params["present"] == "1"


def _loaded_note(at) -> list[str]:
    return [text for text in messages(at, "info") if text.startswith("Loaded")]


def _preset_line(at) -> str:
    found = [block.value for block in at.markdown if block.value.startswith("**Preset")]
    assert len(found) == 1, found
    return found[0]


def _as_home_opens(index: int) -> tuple[dict, list[str]]:
    """The address and the "Loaded …" note of the page that Home's link ``index`` opens."""
    _, script, params = PRESETS[index]
    at = run_page(ROOT / script, params)
    return dict(at.query_params), _loaded_note(at)


@pytest.mark.parametrize("script", sorted({script for _, script, _ in PRESETS
                                           if len(preset_steps.page_presets(script)) > 1}))
def test_the_arrows_walk_through_the_pages_home_presets_as_homes_links_load_them(script):
    """From a page opened with other values, → loads each of the page's Home presets in Home's order and ←
    back again: the same address and the same note as Home's link in a new session (no value of the page
    or of the preset before stays), and "Preset k of K" with its label."""
    indices = preset_steps.page_presets(script)
    at = run_page(ROOT / script, {"present": "1", "n": "7", "eps": "5.0"})
    assert at.button(key=preset_steps.BACK).proto.shortcut == "left"
    assert at.button(key=preset_steps.FORWARD).proto.shortcut == "right"
    walk = [(preset_steps.FORWARD, position) for position in range(1, len(indices) + 1)]
    walk += [(preset_steps.BACK, position) for position in range(len(indices) - 1, 0, -1)]
    for key, position in walk:
        at.button(key=key).click().run()
        assert_clean(at)
        index = indices[position - 1]
        address, note = _as_home_opens(index)
        assert dict(at.query_params) == {**address, "present": "1"}, (position, PRESETS[index][0])
        assert _loaded_note(at) == note and len(note) == 1, (position, note)
        assert _preset_line(at) == f"**Preset {position} of {len(indices)}:** {PRESETS[index][0]}"
    assert at.button(key=preset_steps.BACK).disabled


def test_a_page_opened_from_homes_link_counts_that_preset_and_the_arrows_stop_at_the_ends():
    index = 1
    _, script, params = PRESETS[index]
    at = run_page(ROOT / script, {**params, "present": "1"})
    assert _preset_line(at).startswith(f"**Preset 2 of {len(preset_steps.page_presets(script))}:**")
    at.button(key=preset_steps.FORWARD).click().run()
    assert at.button(key=preset_steps.FORWARD).disabled and not at.button(key=preset_steps.BACK).disabled
    single = next(script for _, script, _ in PRESETS if len(preset_steps.page_presets(script)) == 1)
    at = run_page(ROOT / single, {**PRESETS[preset_steps.page_presets(single)[0]][2], "present": "1"})
    assert _preset_line(at).startswith("**Preset 1 of 1:**")
    assert at.button(key=preset_steps.BACK).disabled and at.button(key=preset_steps.FORWARD).disabled


@pytest.mark.parametrize("script", [PLAYGROUND, LESSON], ids=["playground", "lesson"])
def test_without_presenter_mode_or_home_presets_no_arrow_takes_the_keys(script):
    """Presenter mode off: no key changes on a page with presets; the Lesson (no Home preset) keeps its own."""
    at = run_page(script, {"present": "1"} if script == LESSON else None)
    keys = {button.key for button in at.button}
    assert not keys & {preset_steps.BACK, preset_steps.FORWARD}
    assert not [block for block in at.markdown if block.value.startswith("**Preset")]
