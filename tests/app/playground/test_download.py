"""The playground's "Data (CSV)": it holds the records as well as the true mean and
every mechanism's releases, so the picture can be redrawn from the file alone."""

from __future__ import annotations

import dataclasses
import io
import json

import numpy as np
import pandas as pd

from engine import reproduce
from engine.pipelines import settings_file
from engine.pipelines.__main__ import main
from engine.pipelines.private_mean import PrivateMeanConfig
from tests.app.conftest import PLAYGROUND, downloaded, run_page
from ui.playground import private_means
from ui.playground.controls import FIELD_OF_KEY, KEYS


def test_data_csv_holds_the_records_the_mean_and_the_releases(media_managers):
    at = run_page(PLAYGROUND, {"n": "40", "m": "30", "mech": "exact,euclid"})
    table = pd.read_csv(io.BytesIO(downloaded(at, media_managers, "Data (CSV)")))
    result = private_means(PrivateMeanConfig(n=40, releases=30, mechanisms=("exact", "euclid"), outside="clip"))
    data = table[table["points"] == "data"]
    np.testing.assert_allclose(data[["x", "y", "z"]].to_numpy(), result.data, atol=1e-12)
    assert data["number"].tolist() == list(range(1, 41))
    assert (table["points"] == "true Fréchet mean").sum() == 1
    releases = table[table["points"] == "release"]
    assert releases.groupby("mechanism").size().to_dict() == {run.label: 30 for run in result.runs}


def test_settings_json_is_the_pipeline_config_and_the_command_line_prints_the_page_numbers(
        media_managers, tmp_path, capsys):
    """The download held the address keys (``r``, ``mech``, ``m``), which the command line does not take."""
    at = run_page(PLAYGROUND, {"n": "40", "m": "30", "r": "0.3", "mech": "exact,euclid,gauss"})
    settings = PrivateMeanConfig(n=40, releases=30, radius=0.3, mechanisms=("exact", "euclid", "gauss"))
    file = tmp_path / "playground-sphere-settings.json"
    file.write_bytes(downloaded(at, media_managers, "Settings (JSON)"))
    assert json.loads(file.read_text()) == settings_file.payload("playground", settings)
    assert main(["private-mean", "--settings", str(file), "--json"]) == 0
    printed = {m["key"]: m for m in json.loads(capsys.readouterr().out)["mechanisms"]}
    page = {run.key: run for run in private_means(settings).runs}
    assert set(printed) == set(page) == {"exact", "euclid", "gauss"}
    for key, run in page.items():
        assert printed[key]["sigma"] == run.sigma
        assert printed[key]["errors"]["geodesic"] == run.errors.geodesic


def test_every_address_key_sets_one_config_field():
    assert sorted(FIELD_OF_KEY.values()) == sorted(f.name for f in dataclasses.fields(PrivateMeanConfig))
    assert set(KEYS) == {*FIELD_OF_KEY, "adapt"}


def test_reproduce_this_view_shows_the_command_and_builds_the_notebook_and_script_on_click(media_managers):
    at = run_page(PLAYGROUND, {"space": "hyperbolic", "n": "40", "m": "30", "mech": "exact,mh,gauss", "adapt": "false",
                               "step": "0.3"})
    downloaded_settings = json.loads(downloaded(at, media_managers, "Settings (JSON)"))
    settings = PrivateMeanConfig(**settings_file.fields_of(PrivateMeanConfig, "playground", downloaded_settings, "the download"))
    assert (settings.space, settings.n, settings.step) == ("hyperbolic", 40, 0.3)
    view = reproduce.VIEWS["playground"]
    (expander,) = [e for e in at.expander if e.label == "Reproduce this view"]
    assert [c.value for c in expander.code] == [reproduce.command(view, settings), reproduce.snippet(view, settings)]
    buttons = {b.proto.label: b for b in at.get("download_button")}
    assert buttons["Notebook (.ipynb)"].proto.deferred_file_id and buttons["Script (.py)"].proto.deferred_file_id
    assert downloaded(at, media_managers, "Notebook (.ipynb)").decode() == reproduce.notebook(view, settings)
    assert downloaded(at, media_managers, "Script (.py)").decode() == reproduce.script(view, settings)
