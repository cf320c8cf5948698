"""The composition fit's derivatives against an independent code path (docs/intervals.md)."""

from __future__ import annotations

import numpy as np

from sim.analysis.ratings import plackett_luce_loglik


def test_the_composition_information_is_the_log_likelihood_s_curvature():
    """The composition fit's gradient and information (its Newton step and every error's bread)
    are the first and second derivatives of the Plackett-Luce log-likelihood in the cards'
    ratings, taken by central differences of ``plackett_luce_loglik`` (an independent code
    path), on games with tied places (Breslow stages of several choices), empty slots (-1) and
    a team twice in one game; chunked or not the same. Differences agree to 1e-5 relative (the
    second difference's error at h = 1e-4 is about 1e-7 of these entries)."""
    from sim.analysis.composition import _composition_terms, _stages

    rng = np.random.default_rng(54)
    teams = (rng.random((12, 6)) < 0.4).astype(float)
    items = rng.integers(0, 12, (40, 5))
    items[rng.random(items.shape) < 0.15] = -1
    items[0, :2] = 3                                       # one team twice in a game
    places = rng.integers(1, 4, items.shape).astype(float)  # ties: places 1-3 among 5 slots
    beta = rng.normal(0.0, 0.5, 6)
    idx, _, risk, chosen, mult = _stages(items, places)
    assert np.any(mult > 1)
    _, grad, info = _composition_terms(beta, teams, idx, risk, chosen, mult)

    def loglik(b):
        return plackett_luce_loglik(teams @ b, items, places)

    h, eye = 1e-4, np.eye(6)
    fd_grad = np.array([(loglik(beta + h * e) - loglik(beta - h * e)) / (2 * h) for e in eye])
    fd_info = -np.array([[(loglik(beta + h * (e + f)) - loglik(beta + h * (e - f))
                           - loglik(beta - h * (e - f)) + loglik(beta - h * (e + f))) / (4 * h * h)
                          for f in eye] for e in eye])
    np.testing.assert_allclose(grad, fd_grad, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(info, fd_info, rtol=1e-5, atol=1e-5 * np.abs(info).max())
    np.testing.assert_allclose(_composition_terms(beta, teams, idx, risk, chosen, mult, chunk=7)[2],
                               info, rtol=1e-12, atol=1e-12)
