"""The Figure 1 study on a small grid: bounds hold, the intrinsic mechanism wins, outputs are tidy."""

import numpy as np
import pytest

from engine.experiments import load
from engine.experiments.__main__ import main
from engine.experiments.reimherr_fig1 import (
    MECHANISMS,
    SETTINGS,
    baseline_privacy,
    figures,
    release_errors,
    run,
    sensitivity_summary,
)
from engine.manifolds import SPD
from engine.mechanisms import euclidean_laplace
from tests.engine.privacy_check import certified_log_ratio


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
        ours = summary.loc[("spd", n, "exact")]
        for baseline in MECHANISMS[1:]:
            theirs = summary.loc[("spd", n, baseline)]
            assert ours.mean_error + 2 * ours.se < theirs.mean_error - 2 * theirs.se
        assert ours.share_off_manifold == 0 == summary.loc[("sphere", n, "exact")].share_off_manifold
    for baseline in MECHANISMS[1:]:
        assert summary.loc[("sphere", 10, baseline)].share_off_manifold == 1.0
        assert summary.loc[("spd", 10, baseline)].share_off_manifold > 0.2


def test_sphere_errors_match_the_radial_laws(results):
    """On S² the intrinsic error is E ρ ≈ 2σ (Gamma(2) radius, chord ≈ arc for small σ) and the
    paper's Euclidean one 3σ_E (Gamma(3) in R³); with the paper's empirical constant the intrinsic
    mechanism is about 12% better, as the paper reports (12–17%). The ε-DP baseline releases the
    ambient mean with the same σ_E."""
    summary = results["summary"].set_index(["space", "n", "mechanism"])
    for n in (10, 40):
        ours = summary.loc[("sphere", n, "exact")]
        theirs = summary.loc[("sphere", n, "paper")]
        assert ours.mean_error == pytest.approx(2 * ours.sigma, abs=4 * ours.se)
        assert theirs.mean_error == pytest.approx(3 * theirs.sigma, abs=4 * theirs.se)
        assert 1 - (2 * ours.sigma) / (3 * theirs.sigma) == pytest.approx(0.12, abs=0.01)
    private, paper = summary.loc[("sphere", 40, "euclid")], summary.loc[("sphere", 40, "paper")]
    assert private.sigma == paper.sigma


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
                 "--no-cache", "--cache-dir", str(tmp_path / "cache")]) == 0
    assert (tmp_path / "reimherr-fig1-summary.csv").exists()
    assert (tmp_path / "reimherr-fig1-panel2-spd-utility.html").exists()
    assert main(["--list"]) == 0
    assert "reimherr-fig1" in capsys.readouterr().out
    assert main(["nope"]) == 2


def test_baseline_privacy_on_the_spd_diagonal_pair():
    """SPD(2), n = 10, r = 1.5, ten copies of diag(e^r, 1) against one replaced by diag(e^−r, 1).

    Karcher means of commuting matrices are exp(mean log): diag(e^r, 1) and diag(e^{0.8 r}, 1), 1.1616 apart
    against Δ_E = 2(e^r − 1)/10 = 0.6963 (true ε 1.67 for a claimed 1); the ambient means are
    (e^r − e^−r)/10 = 0.4259 apart (0.61 of the claim)."""
    spd = next(s for s in SETTINGS if s.key == "spd")
    table = baseline_privacy(spd, 10).set_index("baseline")
    r = 1.5
    assert table.loc["paper", "gap"] == pytest.approx(np.exp(r) - np.exp(0.8 * r), rel=1e-9)
    assert table.loc["euclid", "gap"] == pytest.approx((np.exp(r) - np.exp(-r)) / 10, rel=1e-12)
    assert table.loc["paper", "true_epsilon_on_pair"] == pytest.approx(1.668, abs=1e-3)
    assert table.loc["euclid", "ratio"] < 1
    big = baseline_privacy(spd, 2000).set_index("baseline")
    assert big.loc["paper", "ratio"] == pytest.approx(r * np.exp(r) / np.expm1(r), rel=1e-2)


@pytest.mark.slow
def test_paper_baseline_fails_and_private_baseline_passes_an_empirical_check():
    """Releases of both baselines on the SPD(2) diagonal pair: events {‖x − a′‖ − ‖x − a‖ > c} certify a log-ratio above
    the claimed ε = 1 for the paper's baseline and stay below it for the ambient-mean baseline."""
    spd = next(s for s in SETTINGS if s.key == "spd")
    m = SPD(2)
    n, draws = 10, 300_000
    inner, outer = np.diag([np.exp(1.5), 1.0]), np.diag([np.exp(-1.5), 1.0])
    pair = np.stack([np.broadcast_to(inner, (n, 2, 2)), np.concatenate([np.broadcast_to(inner, (n - 1, 2, 2)),
                                                                          outer[None]])])
    sigma = float(baseline_privacy(spd, n)["sensitivity"].iloc[0])  # ε = 1
    from engine.estimators import ambient_mean, frechet_mean
    found = {}
    for name, stats in (("paper", frechet_mean(m, pair, init=inner, tol=1e-13).mean), ("private", ambient_mean(m, pair))):
        a, a2 = m.to_ambient(stats)
        x = m.to_ambient(euclidean_laplace(m, stats[0], sigma, size=draws, rng=1))
        y = m.to_ambient(euclidean_laplace(m, stats[1], sigma, size=draws, rng=2))
        loss_x = (np.linalg.norm(x - a2, axis=-1) - np.linalg.norm(x - a, axis=-1)) / sigma
        loss_y = (np.linalg.norm(y - a2, axis=-1) - np.linalg.norm(y - a, axis=-1)) / sigma
        cuts = np.linspace(0.5, 1.6, 12)[:, None]
        found[name] = certified_log_ratio(loss_x[None] > cuts, loss_y[None] > cuts)
    assert found["paper"] > 1.0 > found["private"]


def test_release_errors_needs_the_ambient_mean_for_the_private_baseline():
    spd = next(s for s in SETTINGS if s.key == "spd")
    with pytest.raises(ValueError, match="ambient_means"):
        release_errors(spd, np.eye(2)[None], "euclid", 0.1, 0)


def test_baseline_privacy_takes_the_worse_pair_on_the_sphere():
    """On S² the orthogonal pair (the moved record crossing the cluster) moves the Fréchet mean much further than
    the collinear one: at r = 1.5 the paper's baseline shows 5.2 times its claim, at r = π/8 1.055; the ε-DP
    baseline stays within its claim on both pairs."""
    sphere = next(s for s in SETTINGS if s.key == "sphere")
    wide = baseline_privacy(type(sphere)("sphere", sphere.manifold, 1.5), 10).set_index("baseline")
    assert wide.loc["paper", "pair"] == "orthogonal"
    assert wide.loc["paper", "ratio"] > 5
    paper = baseline_privacy(sphere, 10).set_index("baseline")
    assert paper.loc["paper", "ratio"] == pytest.approx(1.055, abs=2e-3)
    assert (wide["ratio"]["euclid"], paper["ratio"]["euclid"]) < (1, 1)


def test_boundary_constant_refuses_radii_beyond_theorem_2():
    from engine.experiments.reimherr_fig1 import sensitivity_constant

    sphere = next(s for s in SETTINGS if s.key == "sphere")
    with pytest.raises(ValueError, match="π/\\(4√κ\\)"):
        sensitivity_constant(type(sphere)("sphere", sphere.manifold, 1.0), "empirical")
