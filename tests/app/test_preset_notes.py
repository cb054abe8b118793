"""Every Home preset says what it loaded, and says only what its page shows: each of
the ten links opens its page with a "Loaded …" note naming the paper and the part of it; every number
the link's label or the note states is one the page shows at the preset's seed; a preset's name alone
opens the settings Home's link spells out."""

from __future__ import annotations

import functools
import math
import re

import pytest

from app import PRESETS
from tests.app.conftest import ROOT, messages, run_page
from tests.app.page_text import page_text

#: Under ``--dist loadgroup`` the runs of Home's presets that the tests share (``_home_preset``, cached) are made
#: on one worker: split, a second worker re-ran a preset's page for its other test.
pytestmark = pytest.mark.xdist_group("test_preset_notes")

#: Where a label or note cites the paper (section, theorem, figure, year) rather than states a number.
CITATION = re.compile(r"(§|Theorem |Figures? |Table |Proposition )\d+(\.\d+)?([–-]\d+)?|\((19|20)\d\d\)|"
                      r"SPD\(\d\)|[SR][²³]|Σ\^\d+_\d|L0")
SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:/(\d+))?(?![\w.])")
PI_OVER = re.compile(r"π/(\d+)")
POWER_OF_TEN = re.compile(r"10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
#: Shares stated in words, read as fractions to within ±0.05 of a share the page shows in per cent.
SHARES = {"a quarter": 0.25, "a fifth": 0.2, "a third": 1 / 3, "half": 0.5, "a tenth": 0.1}
PERCENT = re.compile(r"(\d+(?:\.\d+)?) ?%")


def _numbers(text: str) -> list[tuple[float, float]]:
    """The numbers of ``text`` as (value, tolerance): half a unit of the last digit written; π/k and 10⁻ᵏ
    read as their values, thousands separators dropped."""
    found = [(share, 0.05) for words, share in SHARES.items() if words in text]
    text = POWER_OF_TEN.sub(lambda m: f"{10 ** int(m.group(1).translate(SUPERSCRIPT)):g}", text)
    for match in PI_OVER.finditer(text):
        found.append((math.pi / int(match.group(1)), 5e-4))
    text = PI_OVER.sub(" ", text)
    for match in NUMBER.finditer(text):
        written = match.group(1).replace(",", "")
        decimals = len(written.split(".")[1]) if "." in written else 0
        value = float(written) / (int(match.group(2)) if match.group(2) else 1)
        found.append((value, 0.5 * 10 ** -decimals if not match.group(2) else 5e-4))
    return found


def _page_numbers(at) -> list[float]:
    """Every number the page shows: its widgets' values and the numbers in its text, labels and tables."""
    values = []
    for kind in ("slider", "select_slider", "number_input", "selectbox", "multiselect", "radio"):
        for widget in getattr(at, kind):
            for value in widget.value if isinstance(widget.value, (list, tuple)) else [widget.value]:
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    values.append(float(value))
    text = page_text(at)
    values += [value for line in text.shown for value, _ in _numbers(line)]
    values += [float(match) / 100 for line in text.shown for match in PERCENT.findall(line)]
    return values


@functools.cache
def _home_preset(index: int):
    """Label, page script, address and the AppTest of Home's preset ``index``, run once."""
    label, script, params = PRESETS[index]
    return label, script, params, run_page(ROOT / script, params)


def _note(at) -> str:
    notes = [text for text in messages(at, "info") if text.startswith("Loaded")]
    assert len(notes) == 1, messages(at, "info")
    return notes[0]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(PRESETS)), ids=[params.get("preset", script) for _, script, params in PRESETS])
def test_every_home_preset_shows_a_loaded_note_naming_it(index):
    label, _, params, at = _home_preset(index)
    note = _note(at)
    author = label.split()[0]
    assert author in note, (author, note)
    cited = re.search(r"(§\d+(\.\d+)?|Theorem \d+(\.\d+)?|Figures? \d+|supplement)", label)
    if cited:
        assert cited.group(0).replace("Figures", "Figure") in note, (cited.group(0), note)
    assert "preset" not in at.query_params


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(PRESETS)), ids=[params.get("preset", script) for _, script, params in PRESETS])
def test_every_number_a_preset_states_is_shown_on_its_page(index):
    label, _, _, at = _home_preset(index)
    stated = CITATION.sub(" ", f"{label} {_note(at)}")
    shown = _page_numbers(at)
    missing = [(value, tolerance) for value, tolerance in _numbers(stated)
               if not any(abs(value - number) <= tolerance for number in shown)]
    assert not missing, f"{label!r} states {missing}, which its page does not show"


@pytest.mark.parametrize("index", [i for i, (_, script, _) in enumerate(PRESETS)
                                   if "playground" in script or "subspaces" in script])
def test_a_preset_name_alone_opens_the_settings_of_homes_link(index):
    _, script, params = PRESETS[index]
    at = run_page(ROOT / script, {"preset": params["preset"]})
    assert _note(at)
    assert {key: at.query_params[key] for key in params if key != "preset"} == \
        {key: value for key, value in params.items() if key != "preset"}


def test_a_playground_preset_loaded_over_another_space_keeps_its_own_radius_and_mechanisms():
    """Switching the space puts its radius and mechanisms back to the space's defaults, except when a
    preset has just set them."""
    at = run_page(ROOT / "pages" / "1_Private_mean_playground.py")
    assert at.query_params["space"] == "sphere"
    at.query_params.clear()
    at.query_params["preset"] = "han-spd-mean"
    at.run()
    assert {key: at.query_params[key] for key in ("space", "r", "mech", "burn")} == \
        {"space": "spd", "r": "1.0", "mech": "exact,mh,gauss", "burn": "5000"}
    assert _note(at).startswith("Loaded the SPD Fréchet mean of Han et al.")
