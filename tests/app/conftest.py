"""Shared AppTest helpers: absolute paths of the app's scripts and a runner that fails on exceptions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest, app_test

from ui.who_wins import LEAD

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / "app.py"
PLAYGROUND = ROOT / "pages" / "1_Private_mean_playground.py"
#: Seconds a script run may take before AppTest gives up: a guard against a hang, not a check of speed (a run
#: that passes in a few seconds took over 30 s at a load of 9 on the 2-core machine).
TIMEOUT = 600


def app_at(path: Path) -> AppTest:
    """An AppTest of the whole app (so the sidebar's page links resolve) showing the page ``path``."""
    at = AppTest.from_file(str(HOME), default_timeout=TIMEOUT)
    if path != HOME:
        at.switch_page(str(path.relative_to(ROOT)))
    return at


def run_page(path: Path, query_params: dict | None = None) -> AppTest:
    """Run a page once (with optional URL query parameters) and assert it raised no exception."""
    at = app_at(path)
    for key, value in (query_params or {}).items():
        at.query_params[key] = value
    at.run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """Fail with the exception messages if the last run raised."""
    assert not at.exception, [e.value for e in at.exception]


def messages(at: AppTest, *kinds: str) -> list[str]:
    """Texts of the error/warning/info/success boxes of the last run (default: errors and warnings)."""
    return [element.value for kind in (kinds or ("error", "warning")) for element in getattr(at, kind)]


def assert_explained(at: AppTest, expected: str) -> None:
    """A message of the last run contains ``expected``."""
    found = messages(at)
    assert any(expected in text for text in found), found


def _section_switch(at: AppTest):
    """The page's section switch (``ui.sections``), its one segmented control."""
    (switch,) = at.get("button_group")
    return switch


def section_labels(at: AppTest) -> list[str]:
    """The labels of the page's section switch."""
    return [option.content for option in _section_switch(at).proto.options]


def choose_section(at: AppTest, label: str) -> AppTest:
    """Choose the section ``label`` (as a click on its button does) and run the page."""
    return _section_switch(at).set_value(label).run()


def who_wins_sentence(at: AppTest) -> str | None:
    """The who-wins box of the last run (``ui.who_wins``), without its lead; ``None`` if there is none."""
    found = [element.value for element in at.info if LEAD in element.value]
    assert len(found) <= 1, found
    return found[0].split(f"**{LEAD}**", 1)[1].strip() if found else None


def who_wins_winner(sentence: str) -> str | None:
    """The mechanism a who-wins sentence names as landing closer, ``None`` for a tie."""
    match = re.match(r"At n = \d+, ε = [\d.]+, the (Riemannian Laplace|Euclidean Laplace) lands closer", sentence)
    if match is None:
        assert re.match(r"At n = \d+, ε = [\d.]+, neither mechanism", sentence), sentence
        return None
    return match.group(1)


@pytest.fixture
def media_managers(monkeypatch) -> list[tuple]:
    """The media managers of the AppTest runs and their storages, to build a deferred download as a
    click would."""
    made = []

    class Recorded(MediaFileManager):
        def __init__(self, storage):
            super().__init__(storage)
            made.append((self, storage))

    monkeypatch.setattr(app_test, "MediaFileManager", Recorded)
    return made


def downloaded(at, managers, label: str, key: str = "") -> bytes:
    """The bytes the download button ``label`` (whose key contains ``key``) of the last run serves."""
    (button,) = [b for b in at.get("download_button") if b.proto.label == label and key in b.proto.id]
    manager, storage = managers[-1]
    url = manager.execute_deferred(button.proto.deferred_file_id) if button.proto.deferred_file_id \
        else button.proto.url
    return storage.get_file(Path(url).name).content
