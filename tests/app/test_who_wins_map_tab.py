"""The Utility page's "Where each wins" tab (AppTest): one map per space with a Euclidean baseline,
each read in a sentence the engine computes from the same map, and the spaces without one named."""

from engine.pipelines import who_wins_map
from tests.app.charts import specs
from tests.app.conftest import ROOT, messages, run_page
from tests.plain_text import code_spelling
from ui import utility
from ui.who_wins_map import CONFIG

PAGE = ROOT / "pages" / "3_Utility.py"
WHERE = "Where each wins"


def test_the_tab_maps_every_space_with_a_baseline_and_reads_each_map():
    at = run_page(PAGE, {utility.TAB_KEY: WHERE})
    assert WHERE in utility.SECTIONS and not messages(at)
    charts = specs(at)
    assert len(charts) == 5
    assert [chart["data"][0]["type"] for chart in charts] == ["heatmap"] * 5
    for chart, label in zip(charts, ("Sᵈ", "SPD(k)", "Hᵈ", "Σᵏ₂", "Gr(d, 1)")):
        assert label in chart["layout"]["title"]["text"]
    infos = [box.value for box in at.info]
    for space in ("sphere", "spd", "hyperbolic", "kendall", "grassmann"):
        found = who_wins_map.run(who_wins_map.WhoWinsMapConfig(space=space, **CONFIG))
        assert who_wins_map.reading(found) in infos
    assert not [c.value for c in at.caption if "Not mapped" in c.value]
    words = [str(e.value) for kind in ("markdown", "caption", "info") for e in getattr(at, kind)]
    assert not [text for text in words if code_spelling(text)]
