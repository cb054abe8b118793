"""Hover help for every term a page uses: each glossary term a page shows
(in text, labels, tables or tooltips), on every page and every tab, has its definition on that page, in
a tooltip or in the sidebar's "Terms on this page"; every glossary entry is used by some page."""

from __future__ import annotations

import functools

import pytest

from tests.app.conftest import ROOT, run_page
from tests.app.page_text import page_text
from ui import glossary, optimization, regression, sensitivity, utility
from ui.navigation import PAGES

#: Under ``--dist loadgroup`` the page texts its tests share (``_text``, cached) are read on one worker: split,
#: a worker re-ran up to all 15 page states for ``test_every_glossary_entry_is_used_by_some_page``.
pytestmark = pytest.mark.xdist_group("test_glossary")

#: Every page at its defaults, and every other section of the pages with sections (only the chosen one is drawn).
STATES = [(page.script, ()) for page in PAGES] + [
    (script, ((module.SECTION_KEY, label),)) for script, module in (
        ("pages/2_Sensitivity.py", sensitivity),
        ("pages/3_Utility.py", utility),
        ("pages/5_Private_optimization.py", optimization.apps),
        ("pages/6_Private_regression.py", regression))
    for label in module.SECTIONS[1:]]


@functools.cache
def _text(script: str, query: tuple = ()):
    return page_text(run_page(ROOT / script, dict(query)))


def _used(text) -> set[str]:
    blob = "\n".join(text.shown + text.tooltips)
    return {key for key, entry in glossary.GLOSSARY.items() if entry.found_in(blob)}


def _explained(text, key: str) -> bool:
    entry = glossary.GLOSSARY[key]
    return any(entry.definition in line for line in text.term_list + text.tooltips)


@pytest.mark.parametrize(("script", "query"), STATES, ids=[f"{script}{dict(query)}" for script, query in STATES])
def test_every_term_a_page_shows_is_explained_on_it(script, query):
    text = _text(script, query)
    used = _used(text)
    assert used, "the page shows no glossary term at all: the walk read nothing"
    missing = sorted(key for key in used if not _explained(text, key))
    assert not missing, f"{script} {dict(query)} shows {missing} without their definitions"


def test_every_glossary_entry_is_used_by_some_page():
    used = set().union(*(_used(_text(script, query)) for script, query in STATES))
    assert used == set(glossary.GLOSSARY), sorted(set(glossary.GLOSSARY) - used)


def test_a_term_list_entry_gives_the_definition_and_its_source():
    line = glossary.entry_markdown("curvature-factor")
    assert line.startswith("**Curvature factor h(r, κ)**")
    assert "2r√κ·cot(2r√κ)" in line and "Theorem 2" in line
    assert glossary.tooltip("frechet-mean").startswith("Fréchet mean: The point")


def test_the_term_list_is_one_block_with_a_paragraph_per_term():
    at = run_page(ROOT / "pages" / "9_Lesson.py")
    terms = next(node for node in at.sidebar.get("popover") if node.proto.popover.label == "Terms on this page")
    assert [node.type for node in terms.children.values()] == ["markdown"]
    paragraphs = terms.children[0].value.split("\n\n")
    assert paragraphs[0] == glossary.entry_markdown("epsilon") and len(paragraphs) == 9


def test_an_unknown_term_names_the_known_ones():
    with pytest.raises(ValueError, match="no glossary term 'frechet'.*frechet-mean"):
        glossary.term("frechet")


#: (page, address, widget key, term): sliders named by a parameter the glossary defines.
PARAMETER_SLIDERS = (
    ("pages/1_Private_mean_playground.py", {}, "eps", "epsilon"),
    ("pages/1_Private_mean_playground.py", {"mech": "exact,gauss"}, "delta", "delta"),
    ("pages/1_Private_mean_playground.py", {"mech": "exact,mh"}, "burn", "burn-in"),
    ("pages/1_Private_mean_playground.py", {"mech": "exact,mh"}, "thin", "thinning"),
    ("pages/2_Sensitivity.py", {}, "kappa_sphere", "curvature"),
    ("pages/3_Utility.py", {}, "eps", "epsilon"),
    ("pages/4_Samplers.py", {}, "sigma", "sigma"),
    ("pages/4_Samplers.py", {}, "burn", "burn-in"),
    ("pages/4_Samplers.py", {}, "thin", "thinning"),
    ("pages/5_Private_optimization.py", {}, "eps", "epsilon"),
    ("pages/5_Private_optimization.py", {}, "delta", "delta"),
    ("pages/7_Private_subspaces.py", {}, "eps", "epsilon"),
    ("pages/7_Private_subspaces.py", {}, "delta", "delta"),
)


@pytest.mark.parametrize(("script", "query", "key", "term"), PARAMETER_SLIDERS,
                         ids=[f"{script}:{key}" for script, _, key, _ in PARAMETER_SLIDERS])
def test_a_slider_named_by_a_parameter_explains_it_from_the_glossary(script, query, key, term):
    at = run_page(ROOT / script, query)
    sliders = [widget for widget in list(at.slider) + list(at.select_slider) if widget.key == key]
    assert len(sliders) == 1, key
    assert sliders[0].help.startswith(glossary.tooltip(term)), sliders[0].help
