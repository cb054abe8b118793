"""The Lesson pack: built by ``python -m lesson_pack`` as ``make lesson-pack`` runs it (two values on
each slider here, to build faster: the steps' own runs are the same), its steps draw the Lesson page's charts
(their data) and reveal the numbers it reveals, to the last printed digit, and its sliders hold their builders'
charts; the page's button serves the pack as a zip; bad input gets one line and exit status 2."""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import plotly.graph_objects as go
import pytest

from lesson_pack import folder
from lesson_pack.content import figure_data, sliders
from lesson_pack.folder import PLOTLY, STATIC
from lesson_pack.out import DATA
from tests.app import charts
from tests.app.conftest import ROOT, assert_clean, downloaded, run_page
from ui.lesson import compute
from ui.lesson.pack_download import LABEL
from ui.lesson.steps import OPTIMIZATION, REGRESSION, SENSITIVITY_R, STEPS, SUBSPACES

pytestmark = pytest.mark.slow

LESSON = ROOT / "pages" / "9_Lesson.py"
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?:e-?\d+)?%?")
#: Of a folder the pack may not overwrite.
BUSY = "is a folder with other files, not an earlier Lesson pack"
#: A slider's label and the name of what it moves.
FIELDS = {"ε": "epsilon", "n": "n"}


def _build(out: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lesson_pack", "--out", str(out), *options], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def _data(text: str) -> dict:
    return json.loads(text.removeprefix("window.LESSON = ").removesuffix(";\n"))


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pack") / "lesson"
    built = _build(out, "--values", "2")
    assert built.returncode == 0, built.stderr
    assert built.stderr == "" and built.stdout.startswith(f"wrote the Lesson pack to {out}"), built
    return out


def _revealed(at, number: int) -> tuple[dict, list[str]]:
    """The chart the Lesson page draws for step ``number`` and the texts it shows once the step is revealed
    without a guess."""
    at.selectbox(key="step").set_value(number).run()
    at.button(key=f"lesson_reveal_{number}").click().run()
    assert_clean(at)
    return charts.specs(at)[0], [box.value for box in at.info] + [text.value for text in at.markdown]


def test_every_steps_chart_and_revealed_numbers_are_the_lesson_pages(pack):
    steps = _data((pack / DATA).read_text(encoding="utf-8"))["steps"]
    assert [step["title"] for step in steps] == [step.title for step in STEPS]
    at = run_page(LESSON)
    for step in steps:
        chart, shown = _revealed(at, step["number"])
        assert chart["data"] == step["chart"]["data"], step["title"]
        answer = f"The answer: **{step['choices'][step['right']]}**. {step['numbers']}"
        (box,) = [text for text in shown if text.startswith("No guess yet.")]
        assert box == f"No guess yet. {answer}"
        assert NUMBER.findall(box) == NUMBER.findall(answer) and NUMBER.findall(step["numbers"])
        assert f"**{step['headline']}.** {step['takeaway']}" in shown
        if "game" in step:
            game = step["game"]
            assert f"The best possible attacker (likelihood-ratio test): {game['best']}." in shown
            assert any(text.startswith(f"A broken mechanism with the noise halved: {game['broken']}, above the "
                                       "ceiling") for text in shown)
            assert any(text.endswith(f"Ceiling e^ε/(1 + e^ε) = {game['ceiling']}.") for text in shown)


def test_the_folder_holds_the_page_plotly_once_and_nothing_from_outside(pack):
    assert sorted(path.name for path in pack.iterdir()) == sorted([*STATIC, PLOTLY, DATA])
    assert sum(path.stat().st_size for path in pack.iterdir()) < 30e6
    page = (pack / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'(?:src|href)="([^"]+)"', page) == ["lesson.css", PLOTLY, DATA, "lesson.js"]
    assert not re.search(r"https?://", page + (pack / "lesson.js").read_text(encoding="utf-8"))


def test_sliders_hold_their_builders_charts_at_their_values(pack):
    """Step 1's n slider: Theorem 2's Δ-against-r chart at each n, as the Sensitivity page's builder draws it;
    at the step's own n, the step's chart."""
    first = _data((pack / DATA).read_text(encoding="utf-8"))["steps"][0]
    (slider,) = first["sliders"]
    assert slider["label"] == "n" and slider["values"] == [5, 10] and slider["figures"][slider["own"]] is None
    other = slider["figures"][1 - slider["own"]]
    assert other == figure_data(compute.sensitivity_figure(slider["values"][1 - slider["own"]], SENSITIVITY_R))
    assert other["data"] != first["chart"]["data"]


def test_the_steps_beyond_means_have_the_sliders_their_configs_hold(pack):
    """Steps 7-9 (regression: n, its two budgets having no one ε; optimisation: ε and n as its settings name them,
    ``eps`` and ``size``; subspaces: n, its ε slider left out since the releases are the same planes at ε = 0.5 as
    at 1, the noise going into the choice): each other value's chart is the step's builder's there, and the
    subspaces' n slider's the full page's at that n."""
    steps = _data((pack / DATA).read_text(encoding="utf-8"))["steps"]
    assert [[slider["label"] for slider in steps[number - 1]["sliders"]] for number in (7, 8, 9)] == [
        ["n"], ["ε", "n"], ["n"]]
    for number, builder, config in ((7, compute.regression_chart, REGRESSION),
                                    (8, compute.optimization_chart, OPTIMIZATION),
                                    (9, compute.subspaces_chart, SUBSPACES)):
        for slider in steps[number - 1]["sliders"]:
            other = 1 - slider["own"]
            field = config.field_for.get(FIELDS[slider["label"]], FIELDS[slider["label"]]) \
                if hasattr(config, "field_for") else FIELDS[slider["label"]]
            moved = dataclasses.replace(config, **{field: slider["values"][other]})
            assert slider["figures"][other] == figure_data(builder(moved)), (number, slider["label"])
            assert slider["figures"][other]["data"] != steps[number - 1]["chart"]["data"], (number, slider["label"])
    (n_slider,) = [slider for slider in steps[8]["sliders"] if slider["label"] == "n"]
    n = n_slider["values"][1 - n_slider["own"]]
    page = run_page(ROOT / STEPS[8].page, {**STEPS[8].params, "n": str(n)})
    assert charts.specs(page)[0]["data"] == n_slider["figures"][1 - n_slider["own"]]["data"]


def test_a_slider_that_would_redraw_nothing_is_left_out():
    """A builder whose chart is the same at every value offered gets no slider."""
    def chart(config):
        return go.Figure(go.Scatter(x=[1.0], y=[0.0]), layout=dict(title=f"ε = {config.epsilon}"))

    assert sliders(functools.partial(chart, SUBSPACES), values=2) == []


def test_a_slider_leaves_out_values_whose_run_costs_more_than_twice_the_steps():
    """The regression's MCMC work n·k·(warmup + window)·releases grows with n: at five values its n slider stops at
    40 (2× the step's work), without n = 80 (4×); the values below the step's are kept."""
    def chart(config):
        return go.Figure(go.Scatter(x=[config.n], y=[0.0]), layout=dict(title=f"n = {config.n}"))

    (slider,) = sliders(functools.partial(chart, REGRESSION), values=5)
    assert slider["values"] == [5, 10, 20, 40] and dataclasses.replace(REGRESSION, n=80).work == 4 * REGRESSION.work
    assert [figure["layout"]["title"]["text"] for figure in slider["figures"] if figure] == ["n = 5", "n = 10",
                                                                                            "n = 40"]


def test_the_lesson_pages_button_serves_the_pack_as_a_zip(pack, media_managers, monkeypatch):
    """The button's click builds the pack's folder and zips it (the data as the fixture's, not computed again)."""
    data = _data((pack / DATA).read_text(encoding="utf-8"))
    monkeypatch.setattr(folder, "lesson_data", lambda values: data)
    at = run_page(LESSON)
    archive = zipfile.ZipFile(io.BytesIO(downloaded(at, media_managers, LABEL)))
    assert sorted(archive.namelist()) == sorted(f"lesson/{path.name}" for path in pack.iterdir())
    for path in pack.iterdir():
        assert archive.read(f"lesson/{path.name}") == path.read_bytes(), path.name


def test_a_file_or_a_foreign_folder_as_out_gets_one_line_and_status_2(tmp_path):
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    foreign = tmp_path / "work"
    foreign.mkdir()
    (foreign / "essay.md").write_text("mine")
    for out, says, options in ((afile, "is a file", ()), (afile / "lesson", "lies inside the file", ()),
                               (foreign, BUSY, ()), (tmp_path / "new", "invalid choice: 9", ("--values", "9"))):
        built = _build(out, *options)
        assert built.returncode == 2 and built.stdout == "", built
        assert built.stderr.count("\n") == 1 and says in built.stderr, built.stderr
        assert options or repr(str(out)) in built.stderr, built.stderr
    assert not (tmp_path / "new").exists()
    assert afile.read_text() == "mine" and [path.name for path in foreign.iterdir()] == ["essay.md"]
