"""The downloads of the pages that read typed results keep their bytes: at the page defaults the playground's and
the Private subspaces page's "Data (CSV)" and "Settings (JSON)", and the command line's ``--json`` of their two
pipelines, have the SHA-256 they had when the views still read the results as dicts (measured then)."""

from __future__ import annotations

import hashlib

import pytest

from engine.pipelines.__main__ import main
from tests.app.conftest import PLAYGROUND, ROOT, downloaded, run_page

SUBSPACES = ROOT / "pages" / "7_Private_subspaces.py"
#: (page, download label, key fragment) -> SHA-256 of the file it serves at the page defaults.
DOWNLOADS = {
    (PLAYGROUND, "Data (CSV)", "playground"): "241b61644f84db08f9dc7d626de725fee7c817a6250e7d8138e30ae8c1e62f74",
    (PLAYGROUND, "Settings (JSON)", "playground"):
        "bb0e2eb88aa578038b8b62ad26d2824d0ebbb4f041938780edbd792179d63162",
    (SUBSPACES, "Data (CSV)", "subspaces-exact"): "7f40431cd30b322a510889ef5dc323a692990ef2797429548e2ef0fbc07b5aa1",
    (SUBSPACES, "Settings (JSON)", "subspaces-exact"):
        "c1fede5b8cd2cd0231c4f10e8a35b6989ea7053aee69c4f590b08396cb5e6711",
}
#: Pipeline -> SHA-256 of ``python -m engine.pipelines PIPELINE --json`` at its defaults.
PRINTED = {"private-mean": "2c59ea3ff0a48e0362f876a5d0deb9eaed6fbb5d0f1d10c37507923785e95f27",
           "private-subspace": "084a2da78a91dcf7f4003043722f3684020ea1b288ae8f5bd390d8ecd3628a21"}


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("page", [PLAYGROUND, SUBSPACES], ids=["playground", "subspaces"])
def test_the_page_default_downloads_keep_their_bytes(page, media_managers):
    at = run_page(page)
    for (where, label, key), digest in DOWNLOADS.items():
        if where == page:
            assert _digest(downloaded(at, media_managers, label, key)) == digest, (label, key)


@pytest.mark.parametrize("pipeline", PRINTED)
def test_the_command_line_json_keeps_its_bytes(pipeline, capsys):
    assert main([pipeline, "--json"]) == 0
    assert _digest(capsys.readouterr().out.encode()) == PRINTED[pipeline]
