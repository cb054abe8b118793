"""The presets Home links to: each opens a page with a paper's settings. Home draws them as links, and
presenter mode (``ui.preset_steps``) walks through a page's own with ← and →."""

#: (label, page script, address parameters): each opens its page inside the app (no new tab) with a
#: paper's settings; ``preset`` names a page's own preset (``ui.presets``), the others set widgets.
PRESETS = (
    ("Reimherr et al. §5, SPD(2), n = 20: the intrinsic one lands closer; a fifth of Euclidean releases not PD",
     "pages/1_Private_mean_playground.py",
     {"space": "spd", "source": "wishart", "r": "1.5", "n": "20", "eps": "1.0", "mech": "exact,euclid",
      "preset": "reimherr-spd"}),
    ("Reimherr et al. §5, sphere cap π/8, n = 20: the Euclidean one lands closer, every release off the sphere",
     "pages/1_Private_mean_playground.py",
     {"space": "sphere", "source": "cap", "r": "0.39269908169872414", "n": "20", "eps": "1.0",
      "mech": "exact,euclid", "preset": "reimherr-sphere"}),
    ("Han et al., SPD Fréchet mean at ε = 0.1, δ = 10⁻³ with data within distance 1 of I",
     "pages/1_Private_mean_playground.py",
     {"space": "spd", "source": "wishart", "r": "1.0", "n": "100", "eps": "0.1", "mech": "exact,mh,gauss",
      "delta": "0.001", "burn": "5000", "thin": "50", "m": "100",
      "preset": "han-spd-mean"}),
    ("Reimherr et al. Theorem 2 on the sphere: the sensitivity bound against swapped records",
     "pages/2_Sensitivity.py", {"preset": "reimherr-theorem2"}),
    ("Reimherr et al. Figure 1 (SPD): utility of intrinsic against Euclidean Laplace",
     "pages/3_Utility.py", {"preset": "reimherr-fig1", "space": "spd"}),
    ("Reimherr et al. Figure 1 (sphere): the same comparison on S², with the paper's numerical constant (not a "
     "proven bound)",
     "pages/3_Utility.py", {"preset": "reimherr-fig1", "space": "sphere"}),
    ("Reimherr et al. supplement: Metropolis–Hastings with burn-in 10,000 and thinning 100",
     "pages/4_Samplers.py", {"preset": "reimherr-mh"}),
    ("Han et al. §6.1: DP-RGD for the SPD Fréchet mean at ε = 0.1, δ = 10⁻³",
     "pages/5_Private_optimization.py", {"preset": "han-frechet-mean"}),
    ("Kulkarni & Soto Figures 1–2: private geodesic regression of 50-landmark shapes on age, n = 100",
     "pages/6_Private_regression.py", {"preset": "kulkarni-soto-fig1"}),
    ("Singhal & Steinke Theorem 3.2: the exact plane despite 5 adversarial points among 200, in any dimension",
     "pages/7_Private_subspaces.py",
     {"shape": "plane", "method": "exact", "n": "200", "eps": "1.0", "delta": "1e-06", "outliers": "5",
      "preset": "singhal-steinke-plane"}),
)
