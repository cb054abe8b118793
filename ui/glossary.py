"""The glossary: every term a page uses, with one plain sentence and the paper it comes from.

One entry per term, used everywhere: ``tooltip`` gives the ``help=`` text of a widget whose label
uses a term, and ``show`` lists the terms a page declares in a sidebar popover ("Terms on this page"),
for the terms in running text, formulas and tables. ``pattern`` is how a term is recognised in a page's
text (``tests/app/test_glossary.py`` checks that every term a page shows is explained there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import streamlit as st

from ui import first_paint

REIMHERR = "Reimherr, Bharath & Soto (2021)"
HAN = "Han, Mishra, Jawanpuria & Gao"
KULKARNI = "Kulkarni & Soto"
SINGHAL = "Singhal & Steinke (2021)"


@dataclass(frozen=True)
class Term:
    """A glossary entry: the ``name`` a page writes, a regular ``pattern`` that finds it in a page's
    text, one plain-language ``definition`` and the ``source`` (paper and section)."""

    name: str
    pattern: str
    definition: str
    source: str

    def found_in(self, text: str) -> bool:
        """Whether ``text`` uses the term."""
        return re.search(self.pattern, text) is not None


GLOSSARY = {
    "epsilon": Term(
        "ε (privacy budget)", r"ε",
        "Replacing one person's record may change the probability of any release by at most a factor e^ε: "
        "smaller ε means stronger privacy and more noise.",
        f"{REIMHERR}, §3, Definition 1"),
    "delta": Term(
        "δ", r"δ",
        "The slack of an (ε, δ) guarantee: the probability of a release may exceed e^ε times its probability "
        "on the neighbouring data set by up to δ; keep δ well below 1/n.",
        f"{SINGHAL}, Definition 2.11; {HAN}, §3"),
    "sigma": Term(
        "σ (noise scale)", r"σ",
        "How wide the noise is: the Laplace density falls like exp(−ρ/σ) with σ = Δ/ε (2Δ/ε when its "
        "normalising constant depends on the centre); for Gaussian noise, its standard deviation.",
        f"{REIMHERR}, §3, Definition 3 and Theorem 1"),
    "sensitivity": Term(
        "Sensitivity Δ", r"[Ss]ensitivit|Δ",
        "The most that replacing one record can move the statistic, measured as a geodesic distance; the noise "
        "scale grows in proportion to it.",
        f"{REIMHERR}, §3, Definition 2"),
    "frechet-mean": Term(
        "Fréchet mean", r"Fréchet mean",
        "The point of the space with the smallest sum of squared geodesic distances to the data: on a flat "
        "space, the ordinary mean.",
        f"{REIMHERR}, §4"),
    "geodesic": Term(
        "Geodesic", r"[Gg]eodesic",
        "The shortest path between two points that stays within the space; its length ρ is their geodesic "
        "distance.",
        f"{REIMHERR}, §2"),
    "tangent-space": Term(
        "Tangent space", r"[Tt]angent space|[Tt]angent Gaussian",
        "The flat space of directions at one point of the manifold; the exponential map turns a tangent vector "
        "into the point reached along the geodesic of that direction and length.",
        f"{REIMHERR}, §2"),
    "curvature": Term(
        "Curvature κ", r"κ",
        "The upper bound on the space's sectional curvature that Theorem 2 uses: 1 on the unit sphere, at most 0 "
        "on hyperbolic space and on SPD matrices with the affine-invariant metric.",
        f"{REIMHERR}, §4, Assumption 1"),
    "curvature-factor": Term(
        "Curvature factor h(r, κ)", r"h\(r, ?κ\)|[Cc]urvature factor",
        "Theorem 2's correction for positive curvature: h = 2r√κ·cot(2r√κ) when κ > 0 and h = 1 otherwise; "
        "the sensitivity 2r(2 − h)/(nh) grows as h falls below 1.",
        f"{REIMHERR}, §4, Theorem 2"),
    "theorem-2": Term(
        "Theorem 2", r"Theorem 2\b",
        "The sensitivity bound for the Fréchet mean of n records within distance r of a public centre m₀: "
        "Δ ≤ 2r(2 − h)/(nh), for r below min{inj/2, π/(4√κ)}.",
        f"{REIMHERR}, §4, Theorem 2"),
    "injectivity-radius": Term(
        "Injectivity radius", r"[Ii]njectivity radius|\binj\b",
        "The largest radius within which the geodesics leaving a point are the unique shortest paths: π on the "
        "unit sphere, infinite on hyperbolic space and SPD.",
        f"{REIMHERR}, §4, Assumption 1"),
    "riemannian-laplace": Term(
        "Riemannian Laplace mechanism", r"Riemannian Laplace",
        "Releases one draw from the density ∝ exp(−ρ(x, x̄)/σ) with respect to the manifold's volume, centred "
        "on the true statistic x̄: the noise follows the geometry and the release stays on the space.",
        f"{REIMHERR}, §3, Definition 3 and Theorem 1"),
    "euclidean-laplace": Term(
        "Euclidean Laplace mechanism", r"Euclidean Laplace",
        "The flat baseline: Laplace noise added to the mean in ambient coordinates, scaled by the ambient "
        "sensitivity; its release may fall off the space.",
        f"{REIMHERR}, §5 and supplement §1.4"),
    "k-norm": Term(
        "K-norm gradient mechanism (KNG)", r"K-norm|KNG",
        "The K-norm mechanism releases a draw with density ∝ exp(−‖x − x̄‖/σ) for a norm ‖·‖ (the Laplace "
        "mechanism is one); its gradient version KNG uses exp(−‖∇E(x)‖/σ), E the objective, and so piles up "
        "where the gradient vanishes, at the non-private estimate.",
        f"{REIMHERR}, §1; {KULKARNI}, the KNG densities of the footpoint and the shooting vector"),
    "metropolis-hastings": Term(
        "Metropolis–Hastings (MH)", r"Metropolis|\bMH\b",
        "A Markov chain sampler: propose a random move (here symmetric) and accept it with probability "
        "min(1, density ratio); after a burn-in its states follow the target law.",
        f"{REIMHERR}, supplement §1.5"),
    "burn-in": Term(
        "Burn-in", r"[Bb]urn-in",
        "The first steps of a Markov chain, discarded because the chain has not yet forgotten where it started.",
        f"{REIMHERR}, supplement §1.5"),
    "thinning": Term(
        "Thinning", r"[Tt]hinning",
        "Keeping only every t-th state of a Markov chain, so the kept draws are close to independent.",
        f"{REIMHERR}, supplement §1.5"),
    "rhat": Term(
        "Split R̂", r"R̂",
        "Compares the spread within and between the halves of several Markov chains: close to 1 when they agree, "
        "above about 1.01 when they have not yet reached the same law.",
        "Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), rank-normalised split R̂"),
    "ess": Term(
        "ESS (effective sample size)", r"\bESS\b",
        "How many independent draws a run of correlated Markov chain draws is worth.",
        "Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), bulk and tail ESS"),
    "dp-rgd": Term(
        "DP-RGD", r"DP-RGD",
        "Differentially private Riemannian gradient descent: every step adds Gaussian noise in the tangent "
        "space to a gradient whose norm is at most L0, and the privacy loss of all T steps is added up (by the "
        "paper's rule or an accountant).",
        f"{HAN}, §4, Algorithm 1"),
    "grassmannian": Term(
        "Grassmannian Gr(d, k)", r"Grassmann|Gr\(",
        "The space of k-dimensional subspaces through the origin of R^d (a plane when k = 2, a line when k = 1).",
        f"{HAN}, §5.5; {SINGHAL}, Problem 3.1"),
    "bottom": Term(
        "⊥ (no answer)", r"⊥",
        "The answer the Singhal–Steinke methods give when the data do not fit one subspace well enough: saying "
        "so is itself private.",
        f"{SINGHAL}, Theorem 3.2"),
    "reach": Term(
        "Reach of an audit", r"can only reach|this pair can show",
        "The exact privacy loss between the mechanism's output laws on the chosen pair of neighbouring data "
        "sets: no test on that pair can show a larger ε.",
        f"{REIMHERR}, §3, Definition 1 (the inequality an audit tests)"),
}


def term(key: str) -> Term:
    """The glossary entry ``key``; a key not in the glossary is a ``ValueError`` naming the keys."""
    if key not in GLOSSARY:
        raise ValueError(f"no glossary term {key!r}; the terms are {', '.join(GLOSSARY)}")
    return GLOSSARY[key]


def tooltip(key: str, then: str = "") -> str:
    """The ``help=`` text of a widget whose label names the term ``key``: its name, definition and
    source, followed by what the widget's page adds (``then``)."""
    entry = term(key)
    return f"{entry.name}: {entry.definition} ({entry.source})" + (f" {then}" if then else "")


def entry_markdown(key: str) -> str:
    """One line of the page's term list: the term in bold, its definition and its source."""
    entry = term(key)
    return f"**{entry.name}**: {entry.definition} *{entry.source}.*"


def show(*keys: str) -> None:
    """List the terms ``keys`` (the ones the page uses) in the sidebar's "Terms on this page" popover, in a run
    that draws its widgets (not a chart-first run, ``ui.first_paint``)."""
    entries = [entry_markdown(key) for key in keys]
    if first_paint.running():
        return
    with st.sidebar.popover("Terms on this page", icon=":material/menu_book:", width="stretch",
                            help="A plain definition of each term this page uses, with the paper it comes from."):
        st.markdown("\n\n".join(entries))  # one paragraph each, in one element: every element costs each rerun
