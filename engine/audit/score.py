"""A learned statistic for mechanisms whose release law is not known in closed form.

A quadratic logistic regression on the flattened release coordinates, trained on a batch of
releases from each data set that the audit keeps apart from both halves; its decision function
estimates log p_D(x)/p_D'(x) up to a constant (the Bayes-optimal discriminant of two Gaussians is
quadratic). Any fixed statistic gives a valid lower bound; a better one gives a higher bound.
"""

from __future__ import annotations

import numpy as np


def learned_score(train_first, train_second):
    """Fit the score on releases ``(m, ...)`` from D and D'; returns releases ``(k, ...)`` -> ``(k,)``."""
    # scikit-learn is imported here (~1 s): only audits of mechanisms without a closed-form law fit it.
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import PolynomialFeatures, StandardScaler

    a = np.asarray(train_first, dtype=float).reshape(len(train_first), -1)
    b = np.asarray(train_second, dtype=float).reshape(len(train_second), -1)
    model = make_pipeline(StandardScaler(), PolynomialFeatures(2), StandardScaler(), LogisticRegression(max_iter=1000))
    model.fit(np.concatenate([a, b]), np.concatenate([np.ones(len(a)), np.zeros(len(b))]))

    def score(releases) -> np.ndarray:
        x = np.asarray(releases, dtype=float)
        return model.decision_function(x.reshape(len(x), -1))

    return score
