"""Formulas with the numbers plugged in, written so that they fit a narrow column.

KaTeX never breaks a display formula, so a long chain ``Δ = (2 × 0.3927 × …)/(50 × 0.7854) = 0.02429``
is cut at the column's right edge, and the final number, the one a teacher points at, is lost. The
rule: a chain of equalities puts each ``= …`` step on its own line, aligned at the equals signs.
"""

from __future__ import annotations


def chain(left: str, *steps: str) -> str:
    r"""LaTeX of ``left = steps[0] = steps[1] = …`` with one step per line.

    Examples
    --------
    >>> chain(r"\Delta", r"\frac{2r}{n}", "0.1")
    '\\begin{aligned} \\Delta &= \\frac{2r}{n} \\\\ &= 0.1 \\end{aligned}'
    """
    if not steps:
        raise ValueError("chain needs at least one step after the left-hand side")
    lines = [f"{left} &= {steps[0]}"] + [f"&= {step}" for step in steps[1:]]
    return r"\begin{aligned} " + r" \\ ".join(lines) + r" \end{aligned}"


def rows(*lines: str) -> str:
    r"""LaTeX of several formulas stacked and aligned at their first ``&``, one per line."""
    return r"\begin{aligned} " + r" \\ ".join(lines) + r" \end{aligned}"
