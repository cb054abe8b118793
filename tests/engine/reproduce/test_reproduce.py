"""What "Reproduce this view" hands out runs and prints the page's numbers to the last digit: the
notebook through a real kernel, the script and the command line as subprocesses."""

import json
import os
import shlex
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from engine.pipelines import PrivateMeanConfig
from engine.pipelines.__main__ import PIPELINES
from engine.pipelines.audit import AuditConfig
from engine.pipelines.sampler_comparison import SamplerComparisonConfig
from engine.pipelines.sensitivity import SensitivityConfig
from engine.reproduce import VIEWS, command, notebook, script, snippet
from ui.lesson.steps import STEPS

ROOT = Path(__file__).resolve().parents[3]
VIEW = VIEWS["playground"]
#: Less than the whole budget: the machine is shared.
NOTEBOOK_SECONDS = 60


def _printed(config) -> str:
    """What the notebook's numbers cell and ``--json`` print for ``config``."""
    return json.dumps(_run(config).summary(), indent=2, ensure_ascii=False) + "\n"


@cache
def _run(config):
    """The pipeline's result for ``config``, run once per worker: the notebook, command-line and script tests of
    one config compare against the same deterministic run."""
    (pipeline,) = [p for p in PIPELINES.values() if isinstance(config, p.config)]
    return pipeline.run(config)


def _figures(view, config) -> list:
    """The view's figures built in this process, as the notebook's cells build them."""
    names = {"config": config, "result": _run(config)}
    exec("\n".join(line for figure in view.figures for line in figure.imports), names)
    return [eval(figure.call, names) for figure in view.figures]


def _run_in_a_kernel(view, config, label: str) -> None:
    """Execute the view's notebook for ``config`` in a real kernel, within ``NOTEBOOK_SECONDS``: it prints
    the pipeline's ``--json`` summary and shows the view's figures with the same traces."""
    book = nbformat.reads(notebook(view, config), as_version=4)
    markdown = [cell.source for cell in book.cells if cell.cell_type == "markdown"]
    assert len(markdown) == 1 + sum(cell.cell_type == "code" for cell in book.cells)
    assert all(view.paper in text for text in markdown)
    start = time.perf_counter()
    NotebookClient(book, kernel_name="python3", timeout=NOTEBOOK_SECONDS,
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    seconds = time.perf_counter() - start
    print(f"{label} notebook: {seconds:.1f} s")
    assert seconds < NOTEBOOK_SECONDS
    outputs = [output for cell in book.cells if cell.cell_type == "code" for output in cell.outputs]
    stdout = "".join(output.text for output in outputs if output.output_type == "stream" and output.name == "stdout")
    assert stdout == _printed(config)
    shown = [output.data["application/vnd.plotly.v1+json"] for output in outputs
             if output.output_type == "display_data"]
    assert [[trace.get("name") for trace in fig["data"]] for fig in shown] == \
        [[trace.name for trace in fig.data] for fig in _figures(view, config)]


@pytest.mark.slow
@pytest.mark.parametrize("page", VIEWS)
def test_the_notebook_runs_in_a_kernel_and_prints_the_pipeline_numbers(page):
    view = VIEWS[page]
    _run_in_a_kernel(view, PIPELINES[view.pipeline].config(), f"{page} at the page's defaults")


@pytest.mark.slow
@pytest.mark.parametrize("number", range(1, len(STEPS) + 1))
def test_each_lesson_steps_notebook_runs_in_a_kernel(number):
    page, config = STEPS[number - 1].reproduction
    _run_in_a_kernel(VIEWS[page], config, f"lesson step {number} ({page})")


SETTINGS = [*(PIPELINES[view.pipeline].config() for view in VIEWS.values()), SensitivityConfig(space="spd", radius=1.2, kappa=0.0, n=30, reps=20, seed=3),
            PrivateMeanConfig(space="spd", source="wishart", n=30, radius=1.2, epsilon=2.5,
                                        mechanisms=("exact", "mh", "gauss"), delta=1e-4, burn_in=200, thin=3,
                                        step=0.3, releases=40, seed=11),
            SamplerComparisonConfig(space="hyperbolic", sigma=0.95, step=0.8, burn_in=200, thin=3, seed=4),
            AuditConfig(audit="dp-rgd", space="euclidean", epsilon=0.5, samples=4000, seed=2,
                        control="control-dp-rgd-paper-rule")]


@pytest.mark.parametrize("config", SETTINGS, ids=[*(f"{page}-defaults" for page in VIEWS), "sensitivity-spd",
                                                  "playground-spd-mh", "samplers-h2-fixed-step",
                                                  "audit-dp-rgd-control"])
def test_the_command_line_prints_the_same_numbers(config):
    (view,) = [v for v in VIEWS.values() if isinstance(config, PIPELINES[v.pipeline].config)]
    words = shlex.split(command(view, config))
    assert words[:4] == ["python", "-m", "engine.pipelines", view.pipeline]
    done = subprocess.run([sys.executable, *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == _printed(config)


@pytest.mark.parametrize("page", VIEWS)
def test_the_script_prints_the_same_numbers_and_writes_the_figures(tmp_path, page):
    view = VIEWS[page]
    defaults = PIPELINES[view.pipeline].config()
    file = tmp_path / f"{page}.py"
    file.write_text(script(view, defaults))
    done = subprocess.run([sys.executable, str(file)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    written = [f"{page}-{figure.name}.html" for figure in view.figures]
    assert done.stdout == _printed(defaults) + "".join(f"wrote {name}\n" for name in written)
    assert all("plotly" in (tmp_path / name).read_text() for name in written)


def test_the_snippet_builds_the_same_config():
    names = {}
    (playground_mh,) = [config for config in SETTINGS if isinstance(config, PrivateMeanConfig) and config.step]
    exec(snippet(VIEW, playground_mh).replace("result = run(config)\nprint(result.summary())", ""), names)
    assert names["config"] == playground_mh


def test_the_command_line_leaves_out_what_the_run_does_not_read():
    """The SPD playground's command carried ``--region CA``, the airports' filter. A field that
    changes nothing in the run (``PrivateMeanConfig.idle_fields``) is left out; the airports' command keeps it."""
    spd, airports = PrivateMeanConfig(space="spd", source="wishart", radius=1.5), PrivateMeanConfig(source="airports")
    assert "--region" not in command(VIEW, spd) and "--source wishart" in command(VIEW, spd)
    assert "--region CA" in command(VIEW, airports)
    assert PrivateMeanConfig().idle_fields == ("region",) and airports.idle_fields == ()
