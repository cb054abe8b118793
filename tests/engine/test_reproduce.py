"""What "Reproduce this view" hands out runs and prints the page's numbers to the last digit: the
notebook through a real kernel, the script and the command line as subprocesses."""

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from engine.pipelines import PrivateMeanConfig
from engine.pipelines.private_mean import run
from engine.reproduce import VIEWS, command, notebook, script, snippet
from engine.viz.private_mean import private_mean_figure

ROOT = Path(__file__).resolve().parents[2]
VIEW = VIEWS["playground"]
#: The playground's defaults (the page's first view).
DEFAULTS = PrivateMeanConfig()
#: Less than the whole budget: the machine is shared.
NOTEBOOK_SECONDS = 60


def _printed(config) -> str:
    """What the notebook's numbers cell and ``--json`` print for ``config``."""
    return json.dumps(run(config).summary(), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.slow
def test_the_notebook_runs_in_a_kernel_and_prints_the_pipeline_numbers():
    book = nbformat.reads(notebook(VIEW, DEFAULTS), as_version=4)
    markdown = [cell.source for cell in book.cells if cell.cell_type == "markdown"]
    assert len(markdown) == 1 + sum(cell.cell_type == "code" for cell in book.cells)
    assert all("Reimherr, K. Bharath, C. Soto (2021)" in text for text in markdown[2:])
    start = time.perf_counter()
    NotebookClient(book, kernel_name="python3", timeout=NOTEBOOK_SECONDS,
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    seconds = time.perf_counter() - start
    print(f"playground notebook at the page's defaults: {seconds:.1f} s")
    assert seconds < NOTEBOOK_SECONDS
    outputs = [output for cell in book.cells if cell.cell_type == "code" for output in cell.outputs]
    stdout = "".join(output.text for output in outputs if output.output_type == "stream" and output.name == "stdout")
    assert stdout == _printed(DEFAULTS)
    (shown,) = [output.data["application/vnd.plotly.v1+json"] for output in outputs
                if output.output_type == "display_data"]
    expected = private_mean_figure(run(DEFAULTS).to_dict(), DEFAULTS.radius)
    assert [trace.get("name") for trace in shown["data"]] == [trace.name for trace in expected.data]


SETTINGS = [DEFAULTS, PrivateMeanConfig(space="spd", source="wishart", n=30, radius=1.2, epsilon=2.5,
                                        mechanisms=("exact", "mh", "gauss"), delta=1e-4, burn_in=200, thin=3,
                                        step=0.3, releases=40, seed=11)]


@pytest.mark.parametrize("config", SETTINGS, ids=["defaults", "spd-mh-fixed-step"])
def test_the_command_line_prints_the_same_numbers(config):
    words = shlex.split(command(VIEW, config))
    assert words[:4] == ["python", "-m", "engine.pipelines", "private-mean"]
    done = subprocess.run([sys.executable, *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == _printed(config)


def test_the_script_prints_the_same_numbers_and_writes_the_figure(tmp_path):
    file = tmp_path / "playground.py"
    file.write_text(script(VIEW, DEFAULTS))
    done = subprocess.run([sys.executable, str(file)], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == _printed(DEFAULTS) + "wrote playground-private_mean_figure.html\n"
    assert "plotly" in (tmp_path / "playground-private_mean_figure.html").read_text()


def test_the_snippet_builds_the_same_config():
    names = {}
    exec(snippet(VIEW, SETTINGS[1]).replace("result = run(config)\nprint(result.summary())", ""), names)
    assert names["config"] == SETTINGS[1]
