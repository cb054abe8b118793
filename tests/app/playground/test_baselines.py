"""The Euclidean baseline on H² and on Kendall shapes in the playground: offered by default, measured,
and compared in the who-wins sentence."""

import pytest

from tests.app.conftest import PLAYGROUND, run_page, who_wins_sentence, who_wins_winner


@pytest.mark.parametrize("space, off_share", [("hyperbolic", "0%"), ("kendall", "100%")])
def test_the_baseline_is_released_and_compared(space, off_share):
    at = run_page(PLAYGROUND, {"space": space})
    assert at.multiselect(key="mech").value == ["exact", "euclid"]
    table = at.table[0].value.set_index("Mechanism")
    assert table.loc["Euclidean Laplace", "Off manifold"] == off_share
    errors = table["Geodesic error"].astype(float)
    sentence = who_wins_sentence(at)
    assert sentence is not None and who_wins_winner(sentence) in (errors.idxmin(), None)
    assert f"{errors['Euclidean Laplace']:.3g}" in sentence and f"{errors['Riemannian Laplace']:.3g}" in sentence


def test_releases_outside_the_poincare_disk_are_counted_and_not_drawn():
    at = run_page(PLAYGROUND, {"space": "hyperbolic", "n": "5", "eps": "0.2", "mech": "euclid"})
    share = at.table[0].value.set_index("Mechanism").loc["Euclidean Laplace", "Off manifold"]
    assert share not in ("0%", "—")
    assert any("outside the disk" in caption.value for caption in at.main.caption)
