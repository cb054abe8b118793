"""The Utility page's "Where each wins" tab (AppTest): one map per space with a Euclidean baseline (and, for the
chosen intrinsic mechanism, a space its spec supports), each read in a sentence the engine computes from the same
map, and the spaces not mapped named."""

import numpy as np
import pytest

from engine.mechanisms import specs as specs_registry
from engine.pipelines import who_wins_map
from engine.pipelines.ties_by_budget import ties_by_budget
from tests.app.charts import specs, values
from tests.app.conftest import ROOT, messages, run_page
from tests.plain_text import code_spelling
from ui import utility
from ui import who_wins_map as who_wins_map_tab
from ui.who_wins_map import CONFIG

PAGE = ROOT / "pages" / "3_Utility.py"
WHERE = "Where each wins"
#: The families the tab maps (those with a Euclidean baseline), in the registry's order.
MAPPED = [key for key, fam in who_wins_map.FAMILIES.items() if fam.baseline_missing is None]


def test_the_tab_maps_every_space_with_a_baseline_and_reads_each_map():
    at = run_page(PAGE, {utility.SECTION_KEY: WHERE})
    assert WHERE in utility.SECTIONS and not messages(at)
    charts = specs(at)
    assert len(charts) == len(MAPPED)
    assert [chart["data"][0]["type"] for chart in charts] == ["heatmap"] * len(MAPPED)
    for chart, space in zip(charts, MAPPED):
        assert who_wins_map.FAMILIES[space].label in chart["layout"]["title"]["text"]
    infos = [box.value for box in at.info]
    for space in MAPPED:
        found = who_wins_map.run(who_wins_map.WhoWinsMapConfig(space=space, **CONFIG))
        assert who_wins_map.reading(found) in infos
    assert not [c.value for c in at.caption if "Not mapped" in c.value]
    words = [str(e.value) for kind in ("markdown", "caption", "info") for e in getattr(at, kind)]
    assert not [text for text in words if code_spelling(text)]


def test_each_map_names_its_budget_and_shows_how_the_tie_moves_with_it():
    """The verdict moves with n·ε; each map's title and sentence name the n·ε they hold at, and a
    table under each map gives the tie and the end ratios of its smallest parameter at n·ε = 5, 50, 500,
    from ``ties_by_budget`` (the n·ε = 50 row is the map's own first row)."""
    at = run_page(PAGE, {utility.SECTION_KEY: WHERE})
    assert not messages(at)
    budget = CONFIG["n"] * CONFIG["epsilon"]
    for chart in specs(at):
        assert f"at n·ε = {budget:g} (n = {CONFIG['n']}, ε = {CONFIG['epsilon']:g})" in chart["layout"]["title"]["text"]
    sentences = [box.value for box in at.info if box.value.startswith("On ")]
    assert len(sentences) == len(MAPPED) and all(f"n·ε = {budget:g}" in s for s in sentences)
    tables = [table.value for table in at.table if "n·ε" in table.value.columns]
    assert len(tables) == len(MAPPED)
    for table, space in zip(tables, MAPPED):
        found = ties_by_budget(space, n=CONFIG["n"])
        assert table["n·ε"].tolist() == ["5", "50", "500"]
        assert table["Tie radius r"].tolist() == ["none" if np.isnan(t) else f"{t:.3g}" for t in found["tie"]]
        assert table.iloc[:, -1].tolist() == [f"{r:.2f}" for r in found["last_ratio"]]
        own = who_wins_map.run(who_wins_map.WhoWinsMapConfig(space=space, **CONFIG)).cells
        first = own[own["parameter"] == found["parameter"].iloc[0]].sort_values("radius")
        assert table.iloc[1, -1] == f"{first['ratio'].iloc[-1]:.2f}"
    # SPD(2): a tie at n·ε = 5, none at 50 and 500.
    assert tables[1]["Tie radius r"].tolist()[1:] == ["none", "none"] and tables[1]["Tie radius r"][0] != "none"


def test_the_lines_sentence_says_the_noisy_projectors_were_rounded_onto_a_line():
    """On Gr(d, 1) no release is off the space only because every noisy projector is rounded
    onto a line first; the tab's sentence says so, with the share the run counted (all of them)."""
    at = run_page(PAGE, {utility.SECTION_KEY: WHERE})
    lines = [box.value for box in at.info if box.value.startswith("On Gr(d, 1)")]
    assert len(lines) == 1 and "no Euclidean release leaves the space" not in lines[0]
    cells = who_wins_map.run(who_wins_map.WhoWinsMapConfig(space="grassmann", **CONFIG)).cells
    assert (cells["rounded_share"] == 1).all()
    assert "because every Euclidean release was off it before rounding" in lines[0]
    assert "rounded onto the nearest line" in lines[0]


def test_the_budget_table_shows_every_range_where_the_intrinsic_mechanism_wins():
    """H² at n·ε = 500 crosses 1 twice; the table under its map shows both ranges where the
    Riemannian Laplace wins (``ties_by_budget``'s ``intrinsic_ranges``), not only the first tie."""
    at = run_page(PAGE, {utility.SECTION_KEY: WHERE})
    tables = {space: table.value for space, table in
              zip(MAPPED, [table for table in at.table if "n·ε" in table.value.columns])}
    for space, table in tables.items():
        found = ties_by_budget(space, n=CONFIG["n"])
        assert table[who_wins_map_tab.wins_column("exact")].tolist() == [
            ", ".join(f"{low:.3g}–{high:.3g}" for low, high in ranges) or "none" for ranges in found["intrinsic_ranges"]]
    hyperbolic = ties_by_budget("hyperbolic", n=CONFIG["n"])
    assert len(hyperbolic["ties"].iloc[2]) == 2
    first, second = hyperbolic["intrinsic_ranges"].iloc[2]
    assert tables["hyperbolic"][who_wins_map_tab.wins_column("exact")].iloc[2] == (
        f"{first[0]:.3g}–{first[1]:.3g}, {second[0]:.3g}–{second[1]:.3g}")


@pytest.mark.slow
def test_the_tab_maps_the_riemannian_gaussian_where_its_spec_supports_the_space():
    """The tab's mechanism select (``?map_mech=rgauss``) maps the Riemannian Gaussian, read from its spec,
    on the spaces where its guarantee holds (Sᵈ, Hᵈ, Gr(d, 1)) on the smaller grid of a solved σ, and names the others
    with why; its readings and budget tables are the engine's for the same configs."""
    gaussian = specs_registry.RGAUSS
    mapped = who_wins_map_tab.mapped_spaces(gaussian.key)
    assert mapped == ["sphere", "hyperbolic", "grassmann"]
    configs = {space: who_wins_map_tab.map_config(space, gaussian.key) for space in mapped}
    # Computed first, so the page's run (within AppTest's timeout) reuses the engine's cached cells.
    expected = {space: who_wins_map.run(config) for space, config in configs.items()}
    budgets = {space: ties_by_budget(space, n=config.n, radii=config.radii, mechanism=gaussian.key)
               for space, config in configs.items()}
    at = run_page(PAGE, {utility.SECTION_KEY: WHERE, who_wins_map_tab.MECHANISM_KEY: gaussian.key})
    assert not messages(at)
    assert at.selectbox(key=who_wins_map_tab.MECHANISM_KEY).value == gaussian.key
    assert at.query_params[who_wins_map_tab.MECHANISM_KEY] == gaussian.key
    charts = specs(at)
    assert len(charts) == 3
    for chart, found in zip(charts, expected.values()):
        assert found.family.label in chart["layout"]["title"]["text"]
        assert chart["data"][0]["colorscale"][0][1] == gaussian.color  # the Gaussian's colour where it wins
        assert len(values(chart["data"][0]["x"])) == who_wins_map_tab.SOLVED_RADII
    infos = [box.value for box in at.info]
    for found in expected.values():
        assert who_wins_map.reading(found) in infos
        assert "Riemannian Gaussian / Euclidean Laplace" in who_wins_map.reading(found)
    assert any("**Riemannian Gaussian**" in text.value for text in at.markdown)
    tables = [table.value for table in at.table if "n·ε" in table.value.columns]
    assert len(tables) == 3
    for table, space in zip(tables, mapped):
        rows = budgets[space]
        assert table[who_wins_map_tab.wins_column(gaussian.key)].tolist() == [
            (", ".join(f"{low:.3g}–{high:.3g}" for low, high in ranges) or "none") if not status else "out of reach"
            for ranges, status in zip(rows["intrinsic_ranges"], rows["status"])]
        assert table.iloc[:, -1].tolist() == [f"{r:.2f}" if not status else "out of reach"
                                              for r, status in zip(rows["last_ratio"], rows["status"])]
        for status in rows["status"][rows["status"] != ""]:
            assert f"Out of reach: {status}." in [c.value for c in at.caption]
    captions = [c.value for c in at.caption if "Not mapped" in c.value]
    assert len(captions) == 1
    assert "SPD(k): the Riemannian Gaussian's guarantee is not stated there" in captions[0]
    assert "Σᵏ₂: the Riemannian Gaussian's guarantee is not stated there" in captions[0]
