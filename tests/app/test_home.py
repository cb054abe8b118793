"""The home page renders, links every page and offers presets as in-app links with query parameters."""

import re
import xml.etree.ElementTree as ET
from urllib.parse import parse_qsl

import pytest

from tests.app.conftest import HOME, ROOT, messages, run_page, who_wins_sentence, who_wins_winner
from ui import navigation

SCRIPTS = {"/" + re.sub(r"^\d+_", "", p.stem): p for p in (ROOT / "pages").glob("[0-9]*_*.py")}
#: Classic multipage apps serve pages/N_Name.py at /Name.
PAGE_PATHS = tuple(SCRIPTS)
PAGE_NUMBERS = sorted(p.stem.split("_")[0] for p in SCRIPTS.values())


@pytest.fixture(scope="module")
def home():
    """The home page, run once for the module."""
    return run_page(HOME)


def _links(at) -> list[str]:
    """Targets of the main area's in-app links (``st.page_link``), as ``/Page?query``."""
    links = []
    for element in at.main.get("page_link"):
        link = f"/{element.proto.page}"
        links.append(f"{link}?{element.proto.query_string}" if element.proto.query_string else link)
    return links


def _no_markdown_links(at) -> bool:
    """No markdown link in the main area: those open a new browser tab (a new session)."""
    return not any(re.search(r"\]\(/", md.value) for md in at.markdown)


def test_home_renders_one_card_per_page(home):
    titles = [h.value for h in home.subheader]
    assert sorted(t.split(" · ")[0] for t in titles) == PAGE_NUMBERS
    links = _links(home)
    for path in PAGE_PATHS:
        assert path in links


def test_every_page_file_has_a_card(home):
    assert "/Private_mean_playground" in PAGE_PATHS
    assert {link for link in _links(home) if "?" not in link} == set(PAGE_PATHS)


def test_home_has_preset_links_with_query_parameters(home):
    presets = [link for link in _links(home) if "?" in link]
    assert len(presets) >= 5
    assert "/Utility?preset=reimherr-fig1&space=spd" in presets
    assert any(link.startswith("/Private_mean_playground?space=spd&source=wishart") for link in presets)
    assert {link.split("?")[0] for link in presets} <= set(PAGE_PATHS)


def test_cards_and_presets_navigate_inside_the_app(home):
    """``st.page_link`` switches page in the same session; a markdown link opened a
    new tab that paid the cold start."""
    assert _no_markdown_links(home)
    assert all(element.proto.page_script_hash for element in home.main.get("page_link"))
    links = _links(home)
    assert len([link for link in links if "?" not in link]) == len(SCRIPTS) and len(links) > len(SCRIPTS)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(8))
def test_every_home_preset_opens_its_page_with_its_settings(index):
    """Every page reads ``?preset=`` (``ui.presets``), says what it loaded and drops
    the parameter from the address; plain parameters land in their widgets."""
    at_home = run_page(HOME)
    link = [link for link in _links(at_home) if "?" in link][index]
    path, query = link.split("?")
    params = dict(parse_qsl(query))
    at = run_page(SCRIPTS[path], params)
    # The Figure 1 presets draw the paper's baseline, and the page warns that it is not ε-DP: that warning is the point.
    problems = [text for text in messages(at, "error", "warning") if not text.startswith("The paper's baseline")]
    assert not problems, problems
    assert "preset" not in at.query_params
    if "preset" in params:
        assert any(text.startswith("Loaded") for text in messages(at, "info")), messages(at, "info")
    assert {key: at.query_params[key] for key in params if key != "preset"} == \
        {key: value for key, value in params.items() if key != "preset"}


def test_samplers_preset_opens_the_papers_chain():
    at = run_page(SCRIPTS["/Samplers"], {"preset": "reimherr-mh", "draws": "10", "chains": "2"})
    assert at.slider(key="burn").value == 10_000 and at.slider(key="thin").value == 100
    assert at.query_params["burn"] == "10000"


def test_sensitivity_preset_opens_theorem2_on_the_sphere():
    at = run_page(SCRIPTS["/Sensitivity"], {"preset": "reimherr-theorem2", "reps": "20"})
    assert at.selectbox(key="space").value == "sphere"
    assert at.slider(key="n").value == 10
    assert any("0.1215" in text for text in messages(at, "info"))


def test_home_explains_the_laplace_density(home):
    assert any(r"\exp" in formula.value and r"\sigma" in formula.value for formula in home.latex)


def test_logo_is_valid_svg():
    root = ET.parse(ROOT / "assets" / "logo.svg").getroot()
    assert root.tag.endswith("svg")
    assert root.get("viewBox")


def test_sidebar_links_every_page_and_calls_the_home_page_home(home):
    """Streamlit's own list would call app.py "app"; ours links app.py and every page file."""
    links = [element.proto for element in home.sidebar.get("page_link")]
    assert [link.label for link in links][0] == "Home"
    scripts = {"app.py"} | {f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py")}
    assert {page.script for page in navigation.PAGES} == scripts
    assert len(links) == len(scripts) and all(link.page_script_hash for link in links)


@pytest.mark.parametrize("page", navigation.PAGES, ids=lambda page: page.label)
def test_every_page_has_the_logo_as_its_icon_and_names_the_app_in_its_title(monkeypatch, page):
    """Five pages showed Streamlit's icon in the browser's tab while the other five showed the logo."""
    import streamlit as st

    configs = []
    monkeypatch.setattr(st, "set_page_config", lambda **config: configs.append(config))
    run_page(ROOT / page.script)
    title = navigation.APP_NAME if page.script == "app.py" else f"{page.label} · {navigation.APP_NAME}"
    assert configs == [{"page_title": title, "page_icon": str(navigation.LOGO), "layout": "wide"}]


def _counterpart(path: str, params: dict) -> tuple[str, dict]:
    """The other page at a Home preset's comparison: the playground's (space, r, n, ε) on Utility's ε
    sweep, or Utility's Figure 1 space on the playground (whose defaults are its r, n = 50 and ε = 1)."""
    if path == "/Private_mean_playground":
        space = params["space"]
        return "/Utility", {"space": space, f"r_{space}": params["r"], "n": params["n"], "eps": params["eps"]}
    return "/Private_mean_playground", {"space": params["space"]}


@pytest.mark.slow
def test_playground_and_utility_name_the_same_winner_at_the_defaults_and_every_home_preset():
    """The who-wins sentence agrees between the two pages at their defaults and at each Home
    preset that compares the intrinsic and the Euclidean Laplace (the third playground preset runs no
    Euclidean baseline, so it has no sentence)."""
    pairs = [(("/Private_mean_playground", {}), ("/Utility", {}))]
    for link in [link for link in _links(run_page(HOME)) if "?" in link]:
        path, query = link.split("?")
        params = dict(parse_qsl(query))
        if path == "/Utility" or (path == "/Private_mean_playground" and "euclid" in params.get("mech", "")):
            pairs.append(((path, params), _counterpart(path, params)))
        elif path == "/Private_mean_playground":
            assert who_wins_sentence(run_page(SCRIPTS[path], params)) is None
    assert len(pairs) == 5
    for (path, params), (other, other_params) in pairs:
        winners = {who_wins_winner(who_wins_sentence(run_page(SCRIPTS[p], q)))
                   for p, q in ((path, params), (other, other_params))}
        assert len(winners) == 1 and None not in winners, (path, params, winners)
        expected = "Euclidean Laplace" if params.get("space", "sphere") == "sphere" else "Riemannian Laplace"
        assert winners == {expected}


def test_home_preset_labels_say_what_the_pages_show(home):
    links = {element.proto.label: element.proto.query_string for element in home.main.get("page_link")
             if element.proto.query_string}
    labels = list(links)
    spd = next(label for label in labels if "SPD(2), n = 20" in label)
    assert "a fifth of Euclidean releases not PD" in spd and "quarter" not in spd
    shown = run_page(SCRIPTS["/Private_mean_playground"], dict(parse_qsl(links[spd])))
    off = shown.table[0].value.set_index("Mechanism").loc["Euclidean Laplace", "Off manifold"]
    assert 0.15 <= float(off.rstrip("%")) / 100 <= 0.25, off
    assert "the intrinsic one lands closer" in spd
    sphere = next(label for label in labels if "sphere cap π/8" in label)
    assert "the Euclidean one lands closer" in sphere
    assert any("paper's numerical constant (not a proven bound)" in label for label in labels)


def test_readmes_page_list_is_the_sidebars_in_its_order():
    """README numbered the pages from the playground (1) to Audit (8) while the sidebar opens with
    the Lesson. README's table of pages now names the sidebar's pages (``navigation.PAGES``) in its order."""
    table = (ROOT / "README.md").read_text(encoding="utf-8").split("## Pages", 1)[1].split("\n\n")[1]
    named = re.findall(r"^\| \*\*(.+?)\*\* \|", table, flags=re.M)
    assert named == [page.label for page in navigation.PAGES]
