"""The Sensitivity page's settings download is the pipeline's config, its "Reproduce this view" shows the
command for it, and that command prints the page's numbers."""

from __future__ import annotations

import json

from engine import reproduce
from engine.pipelines import settings_file
from engine.pipelines.__main__ import main
from engine.pipelines.sensitivity import SensitivityConfig
from tests.app.conftest import ROOT, downloaded, run_page

SENSITIVITY = ROOT / "pages" / "2_Sensitivity.py"


def test_the_settings_file_and_the_command_give_the_page_numbers(media_managers, tmp_path, capsys):
    """The download held the address keys (``r_sphere``, ``kappa_sphere``, ``log``), which no command line took."""
    at = run_page(SENSITIVITY, {"space": "spd", "r_spd": "1.2", "n": "30", "reps": "20", "seed": "3"})
    config = SensitivityConfig(space="spd", radius=1.2, kappa=0.0, n=30, reps=20, seed=3)
    file = tmp_path / "sensitivity-vs-n-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)", "sensitivity-vs-n"))
    assert json.loads(file.read_text()) == settings_file.payload("sensitivity", config)
    assert main(["sensitivity", "--settings", str(file), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert f"{printed['largest']:.4g}" in [m.value for m in at.metric]
    view = reproduce.VIEWS["sensitivity"]
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, config), reproduce.snippet(view, config)]
    assert downloaded(at, media_managers, "Notebook (.ipynb)").decode() == reproduce.notebook(view, config)
