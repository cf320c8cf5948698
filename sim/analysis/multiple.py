"""Multiple-testing corrections: Bonferroni, Holm step-down, Benjamini-Hochberg/-Yekutieli step-up.

Why: a balancing report tests every card, team and seat at once; with 72 cards at alpha = 0.05
about 3.6 "significant" cards are expected by chance alone. Holm (Scand. J. Stat. 6, 1979) controls
the family-wise error rate (the chance of *any* false flag) under arbitrary dependence and is
uniformly more powerful than Bonferroni; Benjamini & Hochberg (JRSS B 57, 1995) control the false
discovery rate (the expected share of false flags among the flagged), the right error for
screening many cards; Benjamini & Yekutieli (Ann. Stat. 29, 2001) keep FDR control under arbitrary
dependence at the price of a factor sum_{i<=m} 1/i.

Adjusted p-values (Wright, Biometrics 48, 1992): hypothesis i is rejected at level alpha exactly
when its adjusted p-value is <= alpha, so one array serves every alpha. Functions work along
``axis`` (default last) and keep the input's shape and order; nan p-values are rejected as input.
"""

from __future__ import annotations

import numpy as np

__all__ = ["adjust", "benjamini_hochberg", "benjamini_yekutieli", "bonferroni", "holm", "reject"]


def _prepare(pvalues, axis: int) -> np.ndarray:
    p = np.asarray(pvalues, dtype=float)
    if p.ndim == 0:
        raise ValueError("need an array of p-values")
    if np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must lie in [0, 1] (no nan)")
    return np.moveaxis(p, axis, -1)


def bonferroni(pvalues, axis: int = -1) -> np.ndarray:
    """Bonferroni adjusted p-values min(1, m p_i) (FWER control, any dependence)."""
    p = _prepare(pvalues, axis)
    return np.moveaxis(np.minimum(1.0, p * p.shape[-1]), -1, axis)


def holm(pvalues, axis: int = -1) -> np.ndarray:
    """Holm step-down adjusted p-values (FWER control, any dependence).

    With sorted p_(1) <= ... <= p_(m): adj_(j) = max_{i <= j} min(1, (m - i + 1) p_(i)).
    """
    p = _prepare(pvalues, axis)
    m = p.shape[-1]
    order = np.argsort(p, axis=-1, kind="stable")
    ps = np.take_along_axis(p, order, axis=-1)
    adj = np.minimum(1.0, np.maximum.accumulate(ps * (m - np.arange(m)), axis=-1))
    out = np.empty_like(adj)
    np.put_along_axis(out, order, adj, axis=-1)
    return np.moveaxis(out, -1, axis)


def _step_up(p: np.ndarray, factor: float) -> np.ndarray:
    m = p.shape[-1]
    order = np.argsort(p, axis=-1, kind="stable")
    ps = np.take_along_axis(p, order, axis=-1)
    raw = ps * m * factor / np.arange(1, m + 1)
    # adj_(j) = min_{i >= j} raw_(i): reverse cumulative minimum.
    adj = np.minimum(1.0, np.flip(np.minimum.accumulate(np.flip(raw, -1), axis=-1), -1))
    out = np.empty_like(adj)
    np.put_along_axis(out, order, adj, axis=-1)
    return out


def benjamini_hochberg(pvalues, axis: int = -1) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (FDR control under independence / PRDS).

    adj_(j) = min_{i >= j} min(1, m p_(i) / i); equals ``scipy.stats.false_discovery_control``.
    """
    p = _prepare(pvalues, axis)
    return np.moveaxis(_step_up(p, 1.0), -1, axis)


def benjamini_yekutieli(pvalues, axis: int = -1) -> np.ndarray:
    """Benjamini-Yekutieli adjusted p-values (FDR control under arbitrary dependence)."""
    p = _prepare(pvalues, axis)
    m = p.shape[-1]
    return np.moveaxis(_step_up(p, float(np.sum(1.0 / np.arange(1, m + 1)))), -1, axis)


_METHODS = {"bonferroni": bonferroni, "holm": holm, "bh": benjamini_hochberg,
            "by": benjamini_yekutieli}


def adjust(pvalues, method: str = "holm", axis: int = -1) -> np.ndarray:
    """Adjusted p-values by name: "bonferroni", "holm", "bh" or "by"."""
    try:
        return _METHODS[method](pvalues, axis=axis)
    except KeyError:
        raise ValueError(f"unknown method {method!r}; use one of {sorted(_METHODS)}") from None


def reject(pvalues, alpha: float = 0.05, method: str = "holm", axis: int = -1) -> np.ndarray:
    """Boolean rejections at level ``alpha``: adjusted p-value <= alpha."""
    if not 0 < alpha < 1:
        raise ValueError("alpha must lie in (0, 1)")
    return adjust(pvalues, method, axis) <= alpha
