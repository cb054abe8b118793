"""The home page renders, links every page and offers presets as deep links with query parameters."""

import re
import xml.etree.ElementTree as ET
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.app.conftest import HOME, PLAYGROUND, ROOT, run_page
from ui import navigation

PAGE_PATHS = ("/Private_mean_playground", "/Sensitivity", "/Utility", "/Samplers", "/Private_optimization",
              "/Private_subspaces", "/Audit")
LINK = re.compile(r"\]\((/[^)\s]+)\)")


@pytest.fixture(scope="module")
def home():
    """The home page, run once for the module."""
    return run_page(HOME)


def _links(at) -> list[str]:
    """Site-relative link targets in the page's markdown."""
    return [link for md in at.markdown for link in LINK.findall(md.value)]


def test_home_renders_one_card_per_page(home):
    titles = [h.value for h in home.subheader]
    numbers = sorted(p.stem.split("_")[0] for p in (ROOT / "pages").glob("[0-9]*_*.py"))
    assert sorted(t.split(" · ")[0] for t in titles) == numbers
    links = _links(home)
    for path in PAGE_PATHS:
        assert path in links


def test_every_page_file_has_a_card():
    # Classic multipage apps serve pages/N_Name.py at /Name.
    served = {"/" + re.sub(r"^\d+_", "", p.stem) for p in (ROOT / "pages").glob("[0-9]*_*.py")}
    assert "/Private_mean_playground" in served
    assert served <= set(PAGE_PATHS)


def test_home_has_preset_links_with_query_parameters(home):
    presets = [link for link in _links(home) if "?" in link]
    assert len(presets) >= 5
    assert "/Utility?preset=reimherr-fig1&space=spd" in presets
    assert any(link.startswith("/Private_mean_playground?space=spd&source=wishart") for link in presets)
    assert {link.split("?")[0] for link in presets} <= set(PAGE_PATHS)


def test_playground_presets_open_with_their_settings(home):
    presets = [link for link in _links(home) if link.startswith("/Private_mean_playground?")]
    assert presets
    for link in presets:
        params = dict(parse_qsl(urlsplit(link).query))
        at = run_page(PLAYGROUND, params)
        assert not at.error and not at.warning, [m.value for m in (*at.error, *at.warning)]
        assert {key: at.query_params[key] for key in params} == params


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
    assert {script for script, _, _ in navigation.PAGES} == scripts
    assert len(links) == len(scripts) and all(link.page_script_hash for link in links)
