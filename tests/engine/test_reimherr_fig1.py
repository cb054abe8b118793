"""The Figure 1 study on a small grid: bounds hold, the intrinsic mechanism wins, outputs are tidy."""

import numpy as np
import pytest

from engine.experiments import load
from engine.experiments.__main__ import main
from engine.experiments.reimherr_fig1 import figures, run, sensitivity_summary


@pytest.fixture(scope="module")
def results():
    calls = []
    out = run(reps=200, seed=3, ns=(10, 40), progress=calls.append)
    out["progress"] = calls
    return out


def test_empirical_sensitivity_never_exceeds_theorem_2(results):
    s = results["sensitivity"]
    assert len(s) == 2 * 2 * 2 * 200
    assert (s.sensitivity <= s.bound * (1 + 1e-6)).all()
    # Adversarial replacements come close to the bound on SPD (κ ≤ 0 makes it nearly tight).
    spd = s[(s.space == "spd") & (s.neighbour == "adversarial")]
    assert (spd.groupby("n").sensitivity.max() / spd.groupby("n").bound.first()).min() > 0.9


def test_intrinsic_beats_euclidean_and_off_manifold_shares(results):
    summary = results["summary"].set_index(["space", "n", "mechanism"])
    for n in (10, 40):
        ours = summary.loc[("spd", n, "riemannian laplace")]
        theirs = summary.loc[("spd", n, "euclidean laplace")]
        assert ours.mean_error + 2 * ours.se < theirs.mean_error - 2 * theirs.se
        assert ours.share_off_manifold == 0 == summary.loc[("sphere", n, "riemannian laplace")].share_off_manifold
    assert summary.loc[("sphere", 10, "euclidean laplace")].share_off_manifold == 1.0
    assert summary.loc[("spd", 10, "euclidean laplace")].share_off_manifold > 0.2


def test_sphere_errors_match_the_radial_laws(results):
    """On S² the intrinsic error is E ρ ≈ 2σ (Gamma(2) radius, chord ≈ arc for small σ) and the
    Euclidean one 3σ_E (Gamma(3) in R³); with the paper's empirical constant the intrinsic
    mechanism is about 12% better, as the paper reports (12–17%)."""
    summary = results["summary"].set_index(["space", "n", "mechanism"])
    for n in (10, 40):
        ours = summary.loc[("sphere", n, "riemannian laplace")]
        theirs = summary.loc[("sphere", n, "euclidean laplace")]
        assert ours.mean_error == pytest.approx(2 * ours.sigma, abs=4 * ours.se)
        assert theirs.mean_error == pytest.approx(3 * theirs.sigma, abs=4 * theirs.se)
        assert 1 - (2 * ours.sigma) / (3 * theirs.sigma) == pytest.approx(0.12, abs=0.01)


def test_progress_and_figures(results):
    assert results["progress"][-1] == pytest.approx(1.0)
    assert np.all(np.diff(results["progress"]) > 0)
    figs = figures(results)
    assert sorted(figs) == ["panel1-spd-sensitivity", "panel2-spd-utility", "panel3-sphere-sensitivity",
                            "panel4-sphere-utility"]
    assert any(t.meta == "bound" for t in figs["panel1-spd-sensitivity"].data)
    assert set(sensitivity_summary(results["sensitivity"]).neighbour) == {"random", "adversarial"}


def test_same_seed_same_results():
    a = run(reps=20, seed=5, ns=(10,))
    b = run(reps=20, seed=5, ns=(10,))
    assert a["utility"].equals(b["utility"])


def test_bad_settings_raise():
    with pytest.raises(ValueError, match="reps"):
        run(reps=0)
    with pytest.raises(ValueError, match="sphere_constant"):
        run(reps=5, sphere_constant="guess")
    with pytest.raises(ValueError, match="unknown study"):
        load("nope")


def test_cli_writes_tables_and_figures(tmp_path, capsys):
    settings = tmp_path / "settings.json"
    settings.write_text('{"study": "reimherr-fig1", "ns": [10]}')
    assert main(["reimherr-fig1", "--reps", "10", "--seed", "1", "--out", str(tmp_path), "--settings", str(settings),
                 "--no-cache"]) == 0
    assert (tmp_path / "reimherr-fig1-summary.csv").exists()
    assert (tmp_path / "reimherr-fig1-panel2-spd-utility.html").exists()
    assert main(["--list"]) == 0
    assert "reimherr-fig1" in capsys.readouterr().out
    assert main(["nope"]) == 2
