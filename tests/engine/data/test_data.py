"""Tests of engine.data: shapes and membership, exact laws (KS), guards, real data loaders."""

import networkx as nx
import numpy as np
import pytest
from scipy import stats

from engine.data import (
    hyperbolic_ball,
    hyperbolic_wrapped_gaussian,
    image_covariances,
    kendall_noisy,
    load_airports,
    load_feature_matrix,
    load_outline,
    resample_closed_curve,
    shape_template,
    spd_wishart,
    sphere_ball,
    sphere_cap,
    sphere_vmf,
    spiked_gaussian,
    template_names,
    top_subspace,
    tree_embedding,
)
from engine.manifolds.grassmann import Grassmann
from engine.manifolds.hyperbolic import Hyperbolic
from engine.manifolds.kendall import Kendall
from engine.manifolds.spd import SPD
from engine.manifolds.sphere import Sphere

P_MIN = 1e-3


def _unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


# ----- sphere -----------------------------------------------------------------------------------


def test_sphere_cap_shape_membership_and_radius():
    c = _unit([0.3, -0.4, 0.8])
    x = sphere_cap(7, 0.4, center=c, size=(2, 3), rng=0)
    assert x.shape == (2, 3, 7, 3)
    assert Sphere(2).belongs(x, atol=1e-12).all()
    assert Sphere(2).dist(c, x).max() <= 0.4 + 1e-12
    assert sphere_cap(1, 0.4, rng=0).shape == (1, 3)
    assert sphere_cap(5, 0.2, size=4, rng=0).shape == (4, 5, 3)


def test_sphere_cap_polar_angle_and_azimuth_are_uniform():
    r = np.pi / 8
    x = sphere_cap(4000, r, rng=1)
    polar = np.arccos(np.clip(x[:, 2], -1.0, 1.0))
    azimuth = np.arctan2(x[:, 1], x[:, 0])
    assert stats.kstest(polar, stats.uniform(0.0, r).cdf).pvalue > P_MIN
    assert stats.kstest(azimuth, stats.uniform(-np.pi, 2 * np.pi).cdf).pvalue > P_MIN
    # Not the uniform law on the cap: that one has mean polar angle ≈ 2r/3, this one r/2.
    assert abs(polar.mean() - r / 2) < 0.01


def test_sphere_cap_in_higher_dimension_has_uniform_geodesic_radius():
    s = Sphere(4)
    c = _unit([1.0, 2.0, 0.0, -1.0, 0.5])
    x = sphere_cap(3000, 1.0, dim=4, center=c, rng=2)
    assert x.shape == (3000, 5)
    assert stats.kstest(s.dist(c, x), stats.uniform(0.0, 1.0).cdf).pvalue > P_MIN


def test_sphere_ball_radius_follows_sin_law_d2():
    r = 1.2
    x = sphere_ball(4000, r, rng=3)
    rho = Sphere(2).dist(Sphere(2).origin, x)
    assert stats.kstest(rho, lambda t: (1 - np.cos(t)) / (1 - np.cos(r))).pvalue > P_MIN
    azimuth = np.arctan2(x[:, 1], x[:, 0])
    assert stats.kstest(azimuth, stats.uniform(-np.pi, 2 * np.pi).cdf).pvalue > P_MIN


def test_sphere_ball_radius_follows_sin_cubed_law_d4():
    r = 1.3
    s = Sphere(4)
    c = _unit([0.0, 1.0, 1.0, 0.0, 1.0])

    def antiderivative(t):  # ∫_0^t sin³ = 2/3 − cos t + cos³t / 3
        return 2 / 3 - np.cos(t) + np.cos(t) ** 3 / 3

    x = sphere_ball(4000, r, dim=4, center=c, rng=4)
    rho = s.dist(c, x)
    assert rho.max() <= r + 1e-12
    assert stats.kstest(rho, lambda t: antiderivative(t) / antiderivative(r)).pvalue > P_MIN


def test_sphere_vmf_mean_direction_and_resultant_length():
    kappa = 20.0
    c = _unit([1.0, -1.0, 0.5])
    x = sphere_vmf(5000, kappa, center=c, rng=5)
    assert x.shape == (5000, 3)
    assert Sphere(2).belongs(x).all()
    mean = x.mean(axis=0)
    assert Sphere(2).dist(c, _unit(mean)) < 0.02
    # On S^2 the mean resultant length is coth κ − 1/κ = 0.95 (std of the estimate ≈ 0.0007).
    assert abs(np.linalg.norm(mean) - (1 / np.tanh(kappa) - 1 / kappa)) < 0.005


def test_sphere_radius_beyond_unique_mean_limit_is_refused():
    with pytest.raises(ValueError, match="radius"):
        sphere_cap(10, 2.0)
    with pytest.raises(ValueError, match="radius"):
        sphere_ball(10, np.pi / 2)


# ----- SPD ----------------------------------------------------------------------------------------


def test_spd_wishart_points_are_spd_and_within_radius():
    x = spd_wishart(25, size=(40,), rng=6)
    assert x.shape == (40, 25, 2, 2)
    spd = SPD(2)
    assert spd.belongs(x).all()
    np.testing.assert_allclose(x, np.swapaxes(x, -1, -2), atol=0)
    assert spd.dist(np.eye(2), x).max() < 1.5
    y = spd_wishart(30, radius=1.0, rng=7)
    assert spd.dist(np.eye(2), y).max() < 1.0


def test_spd_wishart_without_rejection_matches_wishart_trace_law():
    # W(I/2, 2) on SPD(2): trace = ½ χ²_4. A huge radius rejects (almost) nothing.
    x = spd_wishart(4000, radius=60.0, rng=8)
    assert stats.kstest(np.trace(x, axis1=-2, axis2=-1), stats.chi2(4, scale=0.5).cdf).pvalue > P_MIN


def test_spd_wishart_in_three_dimensions_and_other_metrics():
    x = spd_wishart(20, k=3, df=4, radius=1.5, rng=9)
    assert x.shape == (20, 3, 3)
    assert SPD(3).dist(np.eye(3), x).max() < 1.5
    le = spd_wishart(30, radius=0.8, metric="log-euclidean", rng=10)
    assert SPD(2, metric="log-euclidean").dist(np.eye(2), le).max() < 0.8
    bw = spd_wishart(30, radius=0.3, metric="bures-wasserstein", rng=11)
    assert SPD(2, metric="bures-wasserstein").dist(np.eye(2), bw).max() < 0.3


def test_spd_wishart_bures_wasserstein_radius_limit():
    with pytest.raises(ValueError, match=r"radius 1\.0"):
        spd_wishart(5, radius=1.0, metric="bures-wasserstein")


def test_spd_wishart_acceptance_guard():
    with pytest.raises(ValueError, match=r"radius=0\.001.*df=2\.0.*acceptance rate"):
        spd_wishart(1, radius=1e-3, rng=12)


# ----- hyperbolic ---------------------------------------------------------------------------------


def test_hyperbolic_ball_radius_law_d2_at_an_offcentre_point():
    h = Hyperbolic(2)
    c = h.exp(h.origin, np.array([0.0, 1.0, -0.5]))
    r = 2.5
    x = hyperbolic_ball(4000, r, center=c, rng=13)
    assert x.shape == (4000, 3)
    assert h.belongs(x).all()
    rho = h.dist(c, x)
    assert stats.kstest(rho, lambda t: (np.cosh(t) - 1) / (np.cosh(r) - 1)).pvalue > P_MIN
    coef = np.einsum("ni,ji->nj", h.log(c, x) * np.array([-1.0, 1.0, 1.0]), h.tangent_basis(c))
    angle = np.arctan2(coef[:, 1], coef[:, 0])
    assert stats.kstest(angle, stats.uniform(-np.pi, 2 * np.pi).cdf).pvalue > P_MIN


def test_hyperbolic_ball_radius_law_d3():
    r = 2.0

    def antiderivative(t):  # ∫_0^t sinh² = (sinh t cosh t − t)/2
        return 0.5 * (np.sinh(t) * np.cosh(t) - t)

    x = hyperbolic_ball(3000, r, dim=3, size=(2,), rng=14)
    assert x.shape == (2, 3000, 4)
    h = Hyperbolic(3)
    rho = h.dist(h.origin, x).ravel()
    assert stats.kstest(rho, lambda t: antiderivative(t) / antiderivative(r)).pvalue > P_MIN


def test_hyperbolic_wrapped_gaussian_distance_is_scaled_chi():
    h = Hyperbolic(3)
    c = h.exp(h.origin, np.array([0.0, 0.4, 0.3, -1.0]))
    x = hyperbolic_wrapped_gaussian(3000, 0.7, dim=3, center=c, rng=15)
    assert x.shape == (3000, 4)
    assert h.belongs(x).all()
    assert stats.kstest(h.dist(c, x) / 0.7, stats.chi(3).cdf).pvalue > P_MIN


# ----- Kendall ------------------------------------------------------------------------------------


def test_templates_ship_and_are_shapes():
    names = template_names()
    assert {"heart", "leaf", "star", "hand"} <= set(names)
    for name in names:
        outline = load_outline(name)
        assert outline.ndim == 2 and outline.shape[1] == 2 and outline.shape[0] >= 100
        z = shape_template(name, k=15)
        assert z.shape == (15, 2)
        assert Kendall(15).belongs(z).all()
    assert shape_template("star").shape == (20, 2)


def test_resample_closed_curve_is_equally_spaced_in_arc_length():
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    pts = resample_closed_curve(square, 8)
    np.testing.assert_allclose(pts[:3], [[0, 0], [0.5, 0], [1, 0]])
    steps = np.linalg.norm(np.diff(np.vstack([pts, pts[:1]]), axis=0), axis=1)
    np.testing.assert_allclose(steps, 0.5)
    leaf = resample_closed_curve(load_outline("leaf"), 30)
    gaps = np.linalg.norm(np.diff(np.vstack([leaf, leaf[:1]]), axis=0), axis=1)
    assert gaps.max() / gaps.min() < 1.05  # chords of equal arcs on a smooth curve


def test_kendall_noisy_shape_membership_and_noise_scale():
    k, std = 12, 0.01
    z = shape_template("hand", k=k)
    x = kendall_noisy(3000, "hand", k=k, std=std, rng=16)
    assert x.shape == (3000, k, 2)
    manifold = Kendall(k)
    assert manifold.belongs(x).all()
    # Squared Procrustes distance ≈ σ² χ²_{2k−4} for small σ: mean σ²(2k − 4), rel. s.e. ≈ 0.6%.
    assert abs(np.mean(manifold.dist(z, x) ** 2) / (std**2 * (2 * k - 4)) - 1) < 0.05
    y = kendall_noisy(4, z, std=0.05, size=(2, 3), rng=17)
    assert y.shape == (2, 3, 4, k, 2)


# ----- Grassmann ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_spiked_gaussian_top_subspace_recovers_truth(seed):
    d, p = 10, 2
    sample = spiked_gaussian(20000, d, p, eigengap=4.0, rng=seed)
    assert sample.data.shape == (20000, d)
    assert Grassmann(d, p).belongs(sample.subspace).all()
    np.testing.assert_allclose(np.linalg.eigvalsh(sample.covariance), [1.0] * (d - p) + [5.0] * p, atol=1e-12)
    estimate = top_subspace(sample.data, p)
    assert estimate.shape == (d, p)
    assert Grassmann(d, p).dist(sample.subspace, estimate) < 0.2
    np.testing.assert_allclose(np.cov(sample.data.T, bias=True), sample.covariance, atol=0.15)


def test_spiked_gaussian_batches_share_a_given_subspace():
    g = Grassmann(6, 1)
    u = g.random_point(1, rng=0)[0]
    sample = spiked_gaussian(50, 6, 1, eigengap=2.0, subspace=u, size=(3, 2), rng=1)
    assert sample.data.shape == (3, 2, 50, 6)
    np.testing.assert_array_equal(sample.subspace, u)
    assert top_subspace(sample.data, 1).shape == (3, 2, 6, 1)


# ----- real data ----------------------------------------------------------------------------------


def test_airports_load_on_the_sphere_with_state_filter():
    airports = load_airports()
    assert airports.points.shape == (3376, 3)
    assert len(airports.table) == 3376
    assert Sphere(2).belongs(airports.points, atol=1e-12).all()
    np.testing.assert_allclose(np.rad2deg(np.arcsin(airports.points[:, 2])), airports.table["latitude"], atol=1e-9)
    colorado = load_airports("CO")
    assert len(colorado.table) == 49
    assert set(colorado.table["state"]) == {"CO"}
    centre = _unit(colorado.points.mean(axis=0))
    assert Sphere(2).dist(centre, colorado.points).max() < 0.1  # a cap of under 6 degrees
    assert len(load_airports(["NY", "NJ"]).table) == sum(len(load_airports(s).table) for s in ("NY", "NJ"))
    with pytest.raises(ValueError, match="'XX'"):
        load_airports("XX")


@pytest.mark.parametrize("image, features, k", [("china", "intensity-gradient", 2), ("flower", "rgb", 3)])
def test_image_covariances_are_spd_and_symmetric(image, features, k):
    c = image_covariances(image, features=features)
    assert c.shape == (260, k, k)
    np.testing.assert_allclose(c, np.swapaxes(c, -1, -2), atol=0)
    assert (np.linalg.eigvalsh(c)[:, 0] > 0).all()
    assert SPD(k).belongs(c).all()
    inside = image_covariances(image, features=features, radius=1.5)
    assert 0 < len(inside) < 260
    assert SPD(k).dist(np.eye(k), inside).max() < 1.5


def test_image_covariances_raw_descriptors_are_regularised():
    c = image_covariances("china", patch=16, normalize=False, ridge=1e-3)
    assert c.shape == (26 * 40, 2, 2)
    assert (np.linalg.eigvalsh(c)[:, 0] > 0).all()


def test_tree_embedding_edges_have_the_constructed_length():
    tau = 2.0
    tree = tree_embedding(branching=2, height=5, edge_length=tau)
    h = Hyperbolic(2)
    assert tree.points.shape == (63, 3)
    assert h.belongs(tree.points).all()
    assert tree.edges.shape == (62, 2)
    np.testing.assert_allclose(h.dist(tree.points[tree.edges[:, 0]], tree.points[tree.edges[:, 1]]), tau, atol=1e-9)
    np.testing.assert_array_equal(np.bincount(tree.depth), [1, 2, 4, 8, 16, 32])
    np.testing.assert_allclose(tree.points[0], h.origin)
    # Distances are at most τ × tree distance (triangle inequality) and not much less (low distortion).
    graph = nx.balanced_tree(2, 5)
    hops = dict(nx.all_pairs_shortest_path_length(graph))
    tree_dist = np.array([[hops[a][b] for b in tree.nodes] for a in tree.nodes], dtype=float)
    mask = tree_dist > 0
    ratio = h.dist(tree.points[:, None], tree.points[None])[mask] / (tau * tree_dist[mask])
    assert ratio.max() <= 1 + 1e-9
    assert ratio.min() > 0.8


def test_tree_embedding_of_a_general_tree():
    graph = nx.Graph([("a", "b"), ("a", "c"), ("a", "d"), ("b", "e"), ("e", "f")])
    tree = tree_embedding(graph, root="a", edge_length=1.0)
    h = Hyperbolic(2)
    assert tree.nodes[0] == "a"
    np.testing.assert_allclose(h.dist(tree.points[tree.edges[:, 0]], tree.points[tree.edges[:, 1]]), 1.0, atol=1e-12)
    assert tree.depth[tree.nodes.index("f")] == 3
    assert tree.parent[tree.nodes.index("f")] == tree.nodes.index("e")
    with pytest.raises(ValueError, match="tree"):
        tree_embedding(nx.cycle_graph(4))


@pytest.mark.parametrize("name, shape", [("iris", (150, 4)), ("wine", (178, 13)), ("digits", (1797, 64))])
def test_feature_matrices_are_z_scored(name, shape):
    z = load_feature_matrix(name)
    assert z.shape == shape
    np.testing.assert_allclose(z.mean(axis=0), 0.0, atol=1e-12)
    std = z.std(axis=0)
    np.testing.assert_allclose(std[std > 0], 1.0)
    assert np.linalg.norm(load_feature_matrix(name, spectral_normalize=True), 2) == pytest.approx(1.0)


# ----- validation and reproducibility -------------------------------------------------------------


@pytest.mark.parametrize(
    "call, quoted",
    [
        (lambda: sphere_cap(0, 0.3), "0"),
        (lambda: sphere_cap(2.5, 0.3), "2.5"),
        (lambda: sphere_cap(5, -0.3), "-0.3"),
        (lambda: sphere_cap(5, 0.3, size=(2, -1)), "(2, -1)"),
        (lambda: sphere_cap(5, 0.3, center=[1.0, 0.0]), "(2,)"),
        (lambda: sphere_ball(5, 0.3, dim=0), "dim"),
        (lambda: sphere_vmf(5, 0.0), "0.0"),
        (lambda: spd_wishart(5, df=0.5), "0.5"),
        (lambda: spd_wishart(5, metric="euclid"), "'euclid'"),
        (lambda: spd_wishart(5, radius=float("nan")), "nan"),
        (lambda: hyperbolic_ball(5, 0.0), "0.0"),
        (lambda: hyperbolic_ball(5, 31.0), "31.0"),
        (lambda: hyperbolic_wrapped_gaussian(5, -1.0), "-1.0"),
        (lambda: kendall_noisy(5, "octopus"), "'octopus'"),
        (lambda: kendall_noisy(5, std=0), "0"),
        (lambda: kendall_noisy(5, shape_template("heart", k=10), k=12), "12"),
        (lambda: spiked_gaussian(5, 4, 6), "6"),
        (lambda: spiked_gaussian(5, 4, 2, eigengap=-2.0), "-2.0"),
        (lambda: top_subspace(np.ones((5, 3)), 4), "4"),
        (lambda: image_covariances("moon"), "'moon'"),
        (lambda: image_covariances(features="hsv"), "'hsv'"),
        (lambda: image_covariances(patch=1), "1"),
        (lambda: tree_embedding(branching=0), "0"),
        (lambda: tree_embedding(edge_length=-1.0), "-1.0"),
        (lambda: tree_embedding(branching=2, height=20, edge_length=2.0), "2.0"),
        (lambda: load_feature_matrix("mnist"), "'mnist'"),
    ],
)
def test_invalid_parameters_raise_quoting_the_value(call, quoted):
    with pytest.raises(ValueError) as info:
        call()
    assert quoted in str(info.value)


GENERATORS = {
    "sphere_cap": lambda rng: sphere_cap(20, 0.4, size=3, rng=rng),
    "sphere_ball": lambda rng: sphere_ball(20, 0.4, dim=3, rng=rng),
    "sphere_vmf": lambda rng: sphere_vmf(20, 5.0, rng=rng),
    "spd_wishart": lambda rng: spd_wishart(20, size=2, rng=rng),
    "hyperbolic_ball": lambda rng: hyperbolic_ball(20, 1.5, dim=4, rng=rng),
    "hyperbolic_wrapped_gaussian": lambda rng: hyperbolic_wrapped_gaussian(20, 0.5, rng=rng),
    "kendall_noisy": lambda rng: kendall_noisy(20, "leaf", std=0.05, rng=rng),
    "spiked_gaussian": lambda rng: spiked_gaussian(20, 5, 2, rng=rng).data,
}


@pytest.mark.parametrize("name", list(GENERATORS))
def test_same_seed_same_data_different_seed_different_data(name):
    draw = GENERATORS[name]
    a, b, c = draw(123), draw(123), draw(124)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)
    np.testing.assert_array_equal(draw(np.random.default_rng(5)), draw(np.random.default_rng(5)))


@pytest.mark.parametrize("k, df", [(2, 2.0), (3, 3.5)])
def test_bartlett_wishart_matches_the_exact_law(k, df):
    """tr X for X ~ W(I/k, df) is χ²(k·df)/k; the (0, 0) entry is χ²(df)/k (KS against both)."""
    from engine.data.spd import wishart_identity

    x = wishart_identity(20_000, k, df, np.random.default_rng(11))
    assert stats.kstest(np.trace(x, axis1=1, axis2=2) * k, stats.chi2(k * df).cdf).pvalue > 1e-3
    assert stats.kstest(x[:, 0, 0] * k, stats.chi2(df).cdf).pvalue > 1e-3
    assert stats.kstest(x[:, 0, 0] * k, stats.chi2(df + 1).cdf).pvalue < 1e-6


def test_wordnet_mammal_closure_or_a_clear_reason():
    from engine.data import load_hierarchy, wordnet_available

    available, reason = wordnet_available()
    if not available:
        with pytest.raises(ValueError, match="wordnet-base"):
            load_hierarchy()
        pytest.skip(f"WordNet taxonomy not tested: {reason}")
    hierarchy = load_hierarchy("mammal.n.01")
    assert hierarchy.tree.number_of_nodes() == 1182
    assert hierarchy.closure_edges == 6542
    assert nx.is_arborescence(hierarchy.tree)
    assert hierarchy.tree.nodes[hierarchy.root]["lemma"] == "mammal"
    with pytest.raises(ValueError, match="mammal.n.99|senses"):
        load_hierarchy("mammal.n.99")
    with pytest.raises(ValueError, match="looks like|look like"):
        load_hierarchy("mammal")


def test_missing_wordnet_is_explained(tmp_path):
    from engine.data import load_hierarchy

    with pytest.raises(ValueError, match="apt-get install wordnet-base"):
        load_hierarchy(directory=tmp_path)


def test_enforce_ball_refuses_by_default_and_applies_each_policy():
    """The engine checks the first assumption of every guarantee, records in B_r(m0)."""
    from engine.data import enforce_ball
    from engine.manifolds import Sphere
    s2 = Sphere(2)
    m0 = s2.origin
    data = np.stack([s2.polar_point(theta, 0.3) for theta in (0.1, 0.2, 0.6, 0.9)])
    with pytest.raises(ValueError, match="record 2 lies at distance 0.6.*outside the public ball of radius 0.5"):
        enforce_ball(s2, data, m0, 0.5)
    clipped, info = enforce_ball(s2, data, m0, 0.5, policy="clip")
    assert info["n_outside"] == 2 and np.allclose(s2.dist(m0, clipped), [0.1, 0.2, 0.5, 0.5])
    dropped, info = enforce_ball(s2, data, m0, 0.5, policy="drop")
    assert len(dropped) == 2 and info["kept"].tolist() == [True, True, False, False]
    kept, _ = enforce_ball(s2, data, m0, 0.5, policy="keep")
    assert kept is data or np.array_equal(kept, data)
    inside, info = enforce_ball(s2, data[:2], m0, 0.5)
    assert info["n_outside"] == 0 and np.array_equal(inside, data[:2])
    with pytest.raises(ValueError, match="policy must be one of"):
        enforce_ball(s2, data, m0, 0.5, policy="ignore")
