"""What text meant for people must not look like: code spellings of formulas.

Greek letters spelled in ASCII, snake_case identifiers, keyword arguments, ASCII comparison and power
signs and ``*`` for a product. Subscripts (``w_t``, ``σ_p``), ``R^d`` and ``e^(…)`` are mathematics.
"""

from __future__ import annotations

import re

CODE_SPELLINGS = re.compile(
    r"\b(sigma|epsilon|delta|kappa|lambda|rho|eta|ell|Delta|Phi|sqrt|Frechet)\b|floor\(|<=|>=|"
    r"\b[a-z]{2,}_[a-z]{2,}\b|\w+='|(?<![Re])\^[\d({T-]|\bl[12]\b|\w \* \w|\w\*\w")


#: Inline TeX (``$…$``), drawn as formulas rather than read as words.
INLINE_TEX = re.compile(r"\$[^$]+\$")


def code_spelling(text: str) -> str | None:
    """The first code spelling in ``text`` outside inline TeX, ``None`` if it reads as plain text."""
    found = CODE_SPELLINGS.search(INLINE_TEX.sub(" ", text))
    return None if found is None else found.group(0)
